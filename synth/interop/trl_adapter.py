"""Use forgegym environments with TRL's `GRPOTrainer(environment_factory=...)`.

TRL (>= 1.x, experimental feature) creates one environment instance per rollout with the factory, calls
`reset(**row)` with the dataset row, exposes every public method of the class as a tool (the schema comes
from the method's signature, type hints and Google-style docstring), and, when the class defines
`get_reward()`, adds it as a reward. This module builds such a class per forgegym environment:

    from synth.interop.trl_adapter import trl_dataset, trl_environment_factory, forgegym_reward
    trainer = GRPOTrainer(model=..., train_dataset=trl_dataset(["envs_generated/todo_api"]),
                          environment_factory=trl_environment_factory(["envs_generated/todo_api"]),
                          reward_funcs=[forgegym_reward], ...)   # own_reward=False: rewards from replies too

Tool methods return the environment's observation text (`Error: ...` for a rejected call); the runtime
checks arguments against the full JSON Schema, while the schema TRL shows the model is the simpler one
transformers derives from type hints (types, enums, required; no nested object shapes or lengths).
Tools whose name or parameter names are not Python identifiers cannot be methods: they are left out and
listed in the class's `skipped_tools`. TRL itself is not imported here.
"""

from __future__ import annotations

import inspect
import keyword
import re
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Union

from synth.interop.catalog import EnvCatalog, EnvEntry
from synth.interop.prompting import system_prompt
from synth.spec import ToolSpec

_RESERVED = {"reset", "get_reward"}
_SIMPLE = {
    "string": str,
    "integer": int,
    "number": float,
    "boolean": bool,
    "array": list,
    "object": dict,
    "null": type(None),
}


def _identifier(name: str) -> bool:
    return name.isidentifier() and not keyword.iskeyword(name)


def _one_line(text: str) -> str:
    text = re.sub(r"\s+", " ", str(text or "")).strip()
    return re.sub(r"\b(Args|Returns|Raises):", r"\1 -", text)  # keep the docstring parser's section names out


def type_hint(schema: Any) -> Any:
    """A Python type hint that transformers' `get_json_schema` turns back into (a simpler) `schema`."""
    if not isinstance(schema, dict):
        return Any
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(type(v) in (str, int, float, bool) for v in enum):
        return Literal[tuple(enum)]  # type: ignore[misc]
    kind = schema.get("type")
    if isinstance(kind, list):
        hints = [type_hint({**schema, "type": k}) for k in kind if k in _SIMPLE]
        return Union[tuple(hints)] if hints else Any  # type: ignore[return-value]
    if kind == "array":
        items = schema.get("items")
        return list[type_hint(items)] if isinstance(items, dict) and items.get("type") in _SIMPLE else list
    return _SIMPLE.get(kind, Any) if isinstance(kind, str) else Any


def _docstring(spec: ToolSpec, names: list[str]) -> str:
    props = spec.parameters.get("properties") or {}
    lines = [_one_line(spec.description) or f"Call the tool {spec.name}.", ""]
    if names:
        lines.append("Args:")
        for name in names:
            desc = _one_line((props.get(name) or {}).get("description", "")) or f"The {name.replace('_', ' ')}."
            lines.append(f"    {name}: {desc}")
        lines.append("")
    lines += ["Returns:", "    The tool's result as JSON text, or a line starting with 'Error:'."]
    return "\n".join(lines)


def tool_method(spec: ToolSpec) -> Callable[..., str] | None:
    """A method `name(self, **arguments) -> str` with the tool's signature and docstring; None when the
    tool's name or a parameter name cannot be a Python identifier."""
    props = spec.parameters.get("properties") or {}
    required = set(spec.parameters.get("required") or [])
    names = list(props)
    if not _identifier(spec.name) or spec.name.startswith("_") or spec.name in _RESERVED:
        return None
    if any(not _identifier(n) or n == "self" for n in names):
        return None
    tool_name = spec.name

    def method(self: Any, **arguments: Any) -> str:
        return self._call_tool(tool_name, arguments)

    ordered = [n for n in names if n in required] + [n for n in names if n not in required]
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    annotations: dict[str, Any] = {}
    for name in ordered:
        hint = type_hint(props[name])
        annotations[name] = hint
        default = inspect.Parameter.empty if name in required else None
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=hint))
    annotations["return"] = str
    method.__name__ = method.__qualname__ = tool_name
    method.__doc__ = _docstring(spec, ordered)
    method.__annotations__ = annotations
    method.__signature__ = inspect.Signature(params, return_annotation=str)  # type: ignore[attr-defined]
    return method


class ForgegymTRLEnv:
    """Base of the generated classes; public methods are tools, so helpers here are private."""

    _entry: EnvEntry
    env_id: str = ""
    skipped_tools: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._env = self._entry.new_environment()
        self._task: Any = None

    def reset(self, **row: Any) -> None:
        """Start the episode of the row's `task_id` (TRL passes the whole dataset row)."""
        task_id = row.get("task_id")
        if not isinstance(task_id, str):
            raise ValueError(f"{type(self).__name__}.reset needs the row's 'task_id' (got keys {sorted(row)})")
        try:
            self._task = self._entry.task(task_id)
        except KeyError:
            raise ValueError(f"unknown task_id {task_id!r} in environment {self.env_id!r}") from None
        self._env.reset(task=self._task)
        return None

    def _call_tool(self, name: str, arguments: dict[str, Any]) -> str:
        return self._env.step({"name": name, "arguments": arguments}).observation

    def _verify(self, agent_messages: list[Any] | None = None) -> Any:
        from synth.verify import score_episode

        if self._task is None:
            raise RuntimeError("reset(task_id=...) was not called")
        return score_episode(self._task, self._env.state, list(agent_messages or []))


def _get_reward(self: ForgegymTRLEnv) -> float:
    """Reward from the final state (required facts count only when said through forgegym_reward)."""
    return float(self._verify().reward)


def trl_environment_class(entry: EnvEntry, own_reward: bool = True) -> type:
    """A TRL environment class for one environment: `reset`, one method per tool, `get_reward` if `own_reward`."""
    members: dict[str, Any] = {
        "_entry": entry,
        "env_id": entry.env_id,
        "__doc__": f"forgegym environment {entry.env_id}: {entry.title}",
    }
    skipped = []
    for spec in entry.definition.tools:
        method = tool_method(spec)
        if method is None:
            skipped.append(spec.name)
        else:
            members[spec.name] = method
    members["skipped_tools"] = tuple(skipped)
    if own_reward:
        members["get_reward"] = _get_reward
    name = "Forgegym_" + re.sub(r"\W", "_", entry.env_id)
    return type(name, (ForgegymTRLEnv,), members)


def _catalog(env_dirs: Iterable[str | Path] | EnvCatalog) -> EnvCatalog:
    return env_dirs if isinstance(env_dirs, EnvCatalog) else EnvCatalog(env_dirs)


def trl_environment_factory(env_dirs: Iterable[str | Path] | EnvCatalog, own_reward: bool = True) -> Any:
    """The `environment_factory` for GRPOTrainer: one class for one environment, else {env_id: class}
    (then every dataset row needs an `environment` field; `trl_dataset` writes it)."""
    catalog = _catalog(env_dirs)
    classes = {env_id: trl_environment_class(catalog.get(env_id), own_reward) for env_id in catalog.env_ids()}
    if len(classes) == 1:
        return next(iter(classes.values()))
    return classes


def trl_rows(env_dirs: Iterable[str | Path] | EnvCatalog) -> list[dict[str, Any]]:
    """GRPO prompt rows: {"prompt": [system, user], "env_id", "task_id", "environment"} per task."""
    catalog = _catalog(env_dirs)
    rows = []
    for entry, task in catalog.all_tasks():
        prompt = [
            {"role": "system", "content": system_prompt(entry, tools_in_system=False)},
            {"role": "user", "content": task.user_instruction},
        ]
        rows.append({"prompt": prompt, "env_id": entry.env_id, "task_id": task.task_id, "environment": entry.env_id})
    return rows


def trl_dataset(env_dirs: Iterable[str | Path] | EnvCatalog) -> Any:
    """`trl_rows` as a `datasets.Dataset`."""
    import datasets

    return datasets.Dataset.from_list(trl_rows(env_dirs))


def forgegym_reward(completions: list[Any], environments: list[Any] | None = None, **kwargs: Any) -> list[float | None]:
    """A TRL reward function: verify each rollout's environment state and the agent's replies.

    Use it (with `own_reward=False`) when tasks have required facts: `get_reward` cannot see what the
    agent said. Rollouts whose environment is not a forgegym one get None (TRL then ignores them).
    """
    if environments is None:
        raise ValueError("forgegym_reward needs GRPOTrainer(environment_factory=...): no environments were passed")
    rewards: list[float | None] = []
    for completion, env in zip(completions, environments):
        if not isinstance(env, ForgegymTRLEnv):
            rewards.append(None)
            continue
        messages = completion if isinstance(completion, list) else [{"role": "assistant", "content": str(completion)}]
        rewards.append(float(env._verify(messages).reward))
    return rewards
