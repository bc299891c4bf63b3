"""Scripted text policies used to test the loop end to end.

- `GoldPolicy` emits the task's gold actions one per assistant turn as Hermes tool calls, then a final
  reply stating the task's required facts (or, without any, quoting every observation it got), then
  closes politely.
- `NoopPolicy` only talks; it never calls a tool.

Their text is tokenized after the fact (the trajectory is marked `retokenized`); they see the full
dialogue regardless of the context policy, and they may read the task, which real policies may not.
"""

from __future__ import annotations

from typing import Any

from rl.render import ChatRenderer, hermes_renderer
from synth.spec import ToolCall
from synth.task import Task


class ScriptedPolicy:
    """Shared plumbing of the scripted policies: a renderer the episode may rebind."""

    sees_full_history = True

    def __init__(self, renderer: ChatRenderer | None = None):
        self.renderer = renderer or hermes_renderer()

    def bind_renderer(self, renderer: ChatRenderer) -> None:
        """Write turns in the format of the episode's chat template."""
        self.renderer = renderer


class GoldPolicy(ScriptedPolicy):
    """Replays `task.gold_actions`, then reports what the tools returned."""

    name = "gold"

    def respond(self, messages: list[dict[str, Any]], task: Task, sample_index: int = 0) -> str:
        done = sum(len(m.get("tool_calls") or []) for m in messages if m.get("role") == "assistant")
        if done < len(task.gold_actions):
            gold = task.gold_actions[done]
            call = ToolCall(name=gold.name, arguments=dict(gold.arguments))
            return self.renderer.assistant_text(
                f"Step {done + 1} of {len(task.gold_actions)}: call {call.name}.", "", [call]
            )
        replied = any(m.get("role") == "assistant" and not m.get("tool_calls") for m in messages)
        if replied:
            return self.renderer.assistant_text("", "Is there anything else I can help with?", [])
        facts = list(task.checks.required_facts or [])
        observations = [str(m.get("content", "")) for m in messages if m.get("role") == "tool"]
        if facts:  # the answers asked for, not every observation (a list of every option states nothing)
            text = "Done. Here is what you asked for: " + "; ".join(facts)
        else:
            text = "Done. Here is what I found:\n" + "\n".join(observations) if observations else "Done."
        return self.renderer.assistant_text("All steps are done; report the results.", text, [])


class NoopPolicy(ScriptedPolicy):
    """Never acts: every turn is the same polite refusal."""

    name = "noop"

    def respond(self, messages: list[dict[str, Any]], task: Task, sample_index: int = 0) -> str:
        return self.renderer.assistant_text("", "I am sorry, I cannot help with that.", [])


SCRIPTED_POLICIES = {"gold": GoldPolicy, "noop": NoopPolicy}
