"""Use forgegym environments as a `verifiers` environment (the classic MultiTurnEnv API).

    # an environment module for `vf-eval` / prime-rl, or directly:
    from synth.interop.verifiers_adapter import load_environment
    env = load_environment(env_dirs=["envs_generated"], max_turns=32)

Written against (and run with) the classic API of verifiers 0.1.14; 0.2 and 0.3 keep it as `verifiers.legacy`
(forwarded from `import verifiers`), not tried:
`vf.MultiTurnEnv(dataset=, rubric=, max_turns=)` with `async setup_state(state)`,
`async env_response(messages, state) -> messages`, a `@vf.stop` condition, per-row tool definitions in
`info["tool_defs"]`, and `vf.Rubric(funcs=[...])` whose reward functions take `completion` and `state`.
verifiers 0.4 replaced that API with its v1 stack (tasksets, toolsets, harnesses): not supported here.

The framework-free part, `VerifiersEpisodes`, does the work (dataset rows, one runtime Environment per
rollout, tool calls to tool messages, the stop rule, the reward); `load_environment` only wraps it in
verifiers' classes and imports verifiers when called. Messages may be dicts (OpenAI style) or verifiers'
pydantic messages; tool calls may be `{"function": {"name", "arguments"}}` or `{"name", "arguments"}`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from synth.interop.catalog import EnvCatalog, EnvEntry
from synth.interop.prompting import system_prompt
from synth.task import Task

STATE_KEY = "forgegym"


def _field(obj: Any, key: str, default: Any = None) -> Any:
    if isinstance(obj, Mapping):
        return obj.get(key, default)
    return getattr(obj, key, default)


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            t
            for t in (_field(part, "text") if not isinstance(part, str) else part for part in content)
            if isinstance(t, str)
        )
    return str(content)


def tool_calls_of(message: Any) -> list[tuple[str, str, Any]]:
    """(call id, tool name, arguments) of each tool call in an assistant message."""
    out = []
    for i, call in enumerate(_field(message, "tool_calls") or []):
        fn = _field(call, "function")
        source = fn if fn is not None else call
        call_id = _field(call, "id") or f"call_{i}"
        out.append((str(call_id), str(_field(source, "name") or ""), _field(source, "arguments")))
    return out


def plain_messages(messages: Iterable[Any]) -> list[dict[str, Any]]:
    """Messages as {"role", "content"} dicts (what the verifier reads for required facts)."""
    return [{"role": str(_field(m, "role") or ""), "content": _text(_field(m, "content"))} for m in messages or []]


@dataclass
class Episode:
    """One rollout: the task and its own runtime Environment."""

    entry: EnvEntry
    task: Task
    env: Any


class VerifiersEpisodes:
    """The adapter's logic, independent of verifiers: rows, rollout setup, tool responses, stop, reward."""

    def __init__(self, env_dirs: Iterable[str | Path] | EnvCatalog):
        self.catalog = env_dirs if isinstance(env_dirs, EnvCatalog) else EnvCatalog(env_dirs)

    def rows(self, tools_in_system: bool = False) -> list[dict[str, Any]]:
        """Dataset rows: prompt (system, user), answer "", info (JSON: env_id, task_id, tool_defs).

        No `task` column: verifiers 0.1.14 reads `task` as a JSON task payload and routes by info["env_id"].
        """
        rows = []
        for entry, task in self.catalog.all_tasks():
            tool_defs = [
                {"name": s.name, "description": s.description, "parameters": s.parameters}
                for s in entry.definition.tools
            ]
            info = {"env_id": entry.env_id, "task_id": task.task_id, "tool_defs": tool_defs}
            rows.append(
                {
                    "prompt": [
                        {"role": "system", "content": system_prompt(entry, tools_in_system=tools_in_system)},
                        {"role": "user", "content": task.user_instruction},
                    ],
                    "answer": "",
                    "info": json.dumps(info, sort_keys=True, ensure_ascii=False),
                }
            )
        return rows

    def start(self, state: Any) -> Episode:
        """Create the rollout's Environment from `state["info"]` (a dict or its JSON) and keep it in the state."""
        info = _field(state, "info")
        if isinstance(info, str):
            info = json.loads(info)
        if not isinstance(info, Mapping) or "env_id" not in info or "task_id" not in info:
            raise ValueError("the rollout's info must hold env_id and task_id (rows from VerifiersEpisodes.rows)")
        try:
            entry = self.catalog.get(info["env_id"])
            task = entry.task(info["task_id"])
        except KeyError as err:
            raise ValueError(f"unknown environment or task in info: {err}") from None
        env = entry.new_environment()
        env.reset(task=task)
        episode = Episode(entry, task, env)
        state[STATE_KEY] = episode
        return episode

    def respond(self, messages: list[Any], state: Any) -> list[dict[str, Any]]:
        """Run the tool calls of the last assistant message; one tool message per call."""
        episode = state[STATE_KEY]
        if not messages:
            return []
        out = []
        for call_id, name, arguments in tool_calls_of(messages[-1]):
            result = episode.env.step({"name": name, "arguments": arguments})
            out.append({"role": "tool", "content": result.observation, "tool_call_id": call_id})
        return out

    @staticmethod
    def finished(state: Any) -> bool:
        """True once the agent answers without a tool call (the last trajectory step's last message)."""
        trajectory = _field(state, "trajectory") or []
        if not trajectory:
            return False
        completion = _field(trajectory[-1], "completion") or []
        if not completion:
            return False
        last = completion[-1]
        return _field(last, "role") == "assistant" and not tool_calls_of(last)

    def score(self, completion: list[Any], state: Any) -> float:
        """1.0 when the rollout's final state and replies pass the task's checks, else 0.0."""
        from synth.verify import score_episode

        episode = state.get(STATE_KEY) if isinstance(state, Mapping) else None
        if episode is None:
            return 0.0
        return float(score_episode(episode.task, episode.env.state, plain_messages(completion)).reward)


def load_environment(
    env_dirs: Iterable[str | Path] = ("envs_generated",),
    max_turns: int = 32,
    tools_in_system: bool = False,
    **kwargs: Any,
) -> Any:
    """A `vf.MultiTurnEnv` over every task under `env_dirs` (needs `pip install verifiers`, classic API)."""
    try:
        import verifiers as vf
    except ImportError as err:
        raise ImportError(
            "the verifiers adapter needs the optional package `verifiers` (classic API, "
            "0.1.14 to 0.3.x): pip install 'verifiers<0.4'"
        ) from err
    if not hasattr(vf, "MultiTurnEnv") or not hasattr(vf, "stop"):
        raise ImportError(
            f"verifiers {getattr(vf, '__version__', '?')} lacks the classic MultiTurnEnv/stop API "
            "this adapter targets (0.1.14 to 0.3.x)"
        )
    import datasets

    episodes = VerifiersEpisodes(env_dirs)
    tool_message = getattr(vf, "ToolMessage", None)

    class ForgegymVerifiersEnv(vf.MultiTurnEnv):
        """forgegym environments as a verifiers multi-turn tool environment."""

        async def setup_state(self, state: Any) -> Any:
            episodes.start(state)
            return state

        async def env_response(self, messages: Any, state: Any, **kw: Any) -> Any:
            replies = episodes.respond(list(messages), state)
            return [tool_message(**m) for m in replies] if tool_message is not None else replies

        @vf.stop
        async def forgegym_answered(self, state: Any) -> bool:
            return episodes.finished(state)

    async def forgegym_reward(completion: Any, state: Any, **kw: Any) -> float:
        return episodes.score(list(completion or []), state)

    rubric = vf.Rubric(funcs=[forgegym_reward], weights=[1.0])
    dataset = datasets.Dataset.from_list(episodes.rows(tools_in_system=tools_in_system))
    return ForgegymVerifiersEnv(dataset=dataset, rubric=rubric, max_turns=max_turns, **kwargs)
