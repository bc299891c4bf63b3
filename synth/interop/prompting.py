"""The agent's system prompt for an environment, shared by the server, the exporter and the adapters.

It is the same template rollouts use (`synth/prompts/agent_system.j2`). With `tools_in_system`, the prompt
lists the tools itself (Hermes style); without, the caller passes the tools to the chat template
(`tools=` in `apply_chat_template`, an OpenAI `tools` request field, a dataset's `tools` column).
"""

from __future__ import annotations

import json

from synth.interop.catalog import EnvEntry


def tools_json(entry: EnvEntry) -> list[str]:
    """Each published tool as one canonical JSON line (OpenAI `tools` entry)."""
    return [json.dumps(schema, sort_keys=True, ensure_ascii=False) for schema in entry.tool_schemas()]


def system_prompt(entry: EnvEntry, tools_in_system: bool = False) -> str:
    """The agent's system prompt for `entry` (title and domain policy; the tools too when asked)."""
    from synth.llm.prompts import render

    return render(
        "agent_system", title=entry.title, policy=entry.policy, tools_json=tools_json(entry) if tools_in_system else []
    )
