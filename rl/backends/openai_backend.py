"""A text policy behind any OpenAI-compatible chat endpoint (evaluation only).

The tools are listed in the system prompt in the Hermes format and the model answers in text, which
`rl.parse` reads like any other turn; so endpoints without native tool calling work too. Tool results
go back as user messages of `<tool_response>` blocks (`synth/prompts/agent_tool_result.j2`). Sample i
of a task is requested with seed `config.seed + i`, so k samples differ where the endpoint samples.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from synth.llm import LLMClient, render
from synth.task import Task


def endpoint_messages(messages: list[dict[str, Any]]) -> list[dict[str, str]]:
    """Map the rollout's dialogue view onto plain chat messages (system/user/assistant only)."""
    out: list[dict[str, str]] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            out.append({"role": "user", "content": render("agent_tool_result", results=list(pending))})
            pending.clear()

    for m in messages:
        if m["role"] == "tool":
            pending.append(str(m.get("content", "")))
            continue
        flush()
        out.append({"role": m["role"], "content": str(m.get("content") or "")})
    flush()
    return out


class OpenAIPolicy:
    """Chat-completion policy; `respond` returns the raw assistant text (thinking and tool calls inline)."""

    sees_full_history = False

    def __init__(self, client: LLMClient, max_tokens: int = 512, temperature: float | None = None, tag: str = "policy"):
        self.client = client
        self.name = f"openai:{client.model}"
        self.max_tokens = max_tokens
        self.temperature = temperature
        self.tag = tag
        self._per_seed: dict[int, LLMClient] = {}

    def _client_for(self, sample_index: int) -> LLMClient:
        if sample_index == 0:
            return self.client
        if sample_index not in self._per_seed:
            base = self.client
            config = dataclasses.replace(base.config, seed=base.config.seed + sample_index)
            self._per_seed[sample_index] = LLMClient(
                config, base.base_url, base.model, api_key=base.api_key, structured_style=base.structured_style
            )
        return self._per_seed[sample_index]

    def respond(self, messages: list[dict[str, Any]], task: Task, sample_index: int = 0) -> str:
        result = self._client_for(sample_index).chat(
            endpoint_messages(messages), max_tokens=self.max_tokens, temperature=self.temperature, tag=self.tag
        )
        return result.text

    def close(self) -> None:
        """Close the per-seed clients this policy opened (not the one it was given)."""
        for client in self._per_seed.values():
            client.close()
        self._per_seed.clear()
