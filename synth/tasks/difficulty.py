"""Difficulty: DAG measures, a reference agent's pass rate over k rollouts, and a band filter.

The reference agent is any OpenAI-compatible chat model with tool calling (`OpenAIAgent`), or
any callable with the same shape (`agent(messages, tools) -> assistant message dict`). One rollout:
the instruction as the user turn, tool calls run in the environment until the agent answers in
text (or `max_turns`), then `verify` scores the final state and the replies.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable

from synth.task import Task
from synth.tasks.dag import TaskDAG
from synth.tasks.envmodel import EnvModel
from synth.tasks.runner import Runner
from synth.verify import Reward, score_episode

Agent = Callable[[list[dict[str, Any]], list[dict[str, Any]]], dict[str, Any]]


def dag_measures(dag: TaskDAG, model: EnvModel) -> dict[str, Any]:
    """dag_size (nodes), calls, writes, depth (longest dependency path, in nodes), reasoning_nodes by op."""
    calls = dag.calls()
    reasons = dag.reasons()
    return {
        "dag_size": dag.size(),
        "calls": len(calls),
        "writes": sum(1 for c in calls if model.tools[c.tool].is_write),
        "depth": dag.depth(),
        "reasoning_nodes": len(reasons),
        "reasoning_ops": sorted(r.op for r in reasons),
        "data_edges": sum(1 for e in dag.edges() if e["kind"] == "data"),
        "pass_rate": None,
    }


@dataclass
class Band:
    """Which tasks to keep: DAG size and (when measured) pass rate within bounds."""

    min_size: int = 0
    max_size: int = 10**6
    min_pass: float = 0.0
    max_pass: float = 1.0

    def admits(self, difficulty: dict[str, Any]) -> tuple[bool, str]:
        size = difficulty.get("dag_size", 0)
        if not self.min_size <= size <= self.max_size:
            return False, f"dag_size {size} outside [{self.min_size}, {self.max_size}]"
        rate = difficulty.get("pass_rate")
        if rate is not None and not self.min_pass <= rate <= self.max_pass:
            return False, f"pass_rate {rate} outside [{self.min_pass}, {self.max_pass}]"
        return True, ""


def filter_band(tasks: list[Task], band: Band) -> list[Task]:
    """The tasks whose difficulty the band admits."""
    return [t for t in tasks if band.admits(t.difficulty)[0]]


def tools_schema(model: EnvModel) -> list[dict[str, Any]]:
    """The environment's tools as OpenAI `tools` entries."""
    return [{"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}
            for t in model.tools.values()]


def rollout(task: Task, runner: Runner, model: EnvModel, agent: Agent, max_turns: int = 12) -> Reward:
    """One episode of the reference agent on the task."""
    runner.reset(task.initial_state)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You help the user by calling the tools. When done, answer the user."},
        {"role": "user", "content": task.user_instruction},
    ]
    tools = tools_schema(model)
    replies: list[str] = []
    for _ in range(max_turns):
        msg = agent(messages, tools)
        messages.append(msg)
        if msg.get("content"):
            replies.append(str(msg["content"]))
        calls = msg.get("tool_calls") or []
        if not calls:
            break
        for call in calls:
            fn = call.get("function") or {}
            try:
                args = json.loads(fn.get("arguments") or "{}")
            except json.JSONDecodeError:
                args = None
            if not isinstance(args, dict):
                content = "Error: arguments are not a JSON object"
            else:
                out = runner.call(fn.get("name", ""), args)
                content = json.dumps(out.result, sort_keys=True) if out.ok else f"Error: {out.error}"
            messages.append({"role": "tool", "tool_call_id": call.get("id", ""), "content": content})
    return score_episode(task, runner.state(), replies)


def pass_rate(task: Task, runner: Runner, model: EnvModel, agent: Agent, k: int) -> float:
    """Mean reward of k rollouts."""
    if k <= 0:
        raise ValueError("k must be positive")
    return sum(rollout(task, runner, model, agent).reward for _ in range(k)) / k


class OpenAIAgent:
    """A reference agent behind an OpenAI-compatible endpoint (sampling at `temperature`)."""

    def __init__(self, base_url: str, model: str, api_key: str = "sk-local", temperature: float = 0.7, timeout_s: float = 120.0):
        import openai

        self.client = openai.OpenAI(base_url=base_url, api_key=api_key, timeout=timeout_s)
        self.model = model
        self.temperature = temperature

    def __call__(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> dict[str, Any]:
        resp = self.client.chat.completions.create(model=self.model, messages=messages, tools=tools,
                                                   temperature=self.temperature, max_tokens=512)
        m = resp.choices[0].message
        out: dict[str, Any] = {"role": "assistant", "content": m.content or ""}
        if m.tool_calls:
            out["tool_calls"] = [{"id": c.id, "type": "function",
                                  "function": {"name": c.function.name, "arguments": c.function.arguments}}
                                 for c in m.tool_calls]
        return out
