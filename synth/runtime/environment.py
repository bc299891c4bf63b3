"""`Environment`: one episode in one synthesized environment (reset, step, state hash).

Copy-on-write: `reset` does not copy the initial state. Tools run on the shared state until one is about
to write a shared container; the write guard stops the call (`SharedWrite`), the runtime copies only the
path from the root down to that container (shallow copies; siblings stay shared) and runs the call again.
A call that keeps hitting shared containers gets a full copy instead. Tools are atomic: every container a
call wrote is restored when it fails (ToolError, exception, non-JSON result).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from synth.errors import ToolError
from synth.runtime.loader import EnvDefinition, definition_from_parts, load_env_folder
from synth.runtime.state import SharedIndex, changed_paths, copy_state, shared_index, state_hash
from synth.sandbox.errors import SharedWrite, describe_exception
from synth.sandbox.journal import WriteContext, activate
from synth.spec import ToolCall, ToolSpec
from synth.task import Task

_MAX_PATH_COPIES = 32
_EMPTY: frozenset[int] = frozenset()


@dataclass
class StepResult:
    """What `step` returns; unpacks as `(observation, done, info)` too."""

    observation: str
    done: bool = False
    info: dict[str, Any] = field(default_factory=dict)

    def __iter__(self) -> Iterator[Any]:
        return iter((self.observation, self.done, self.info))


def default_state(schema: dict[str, Any]) -> dict[str, Any]:
    """An empty state from a state schema: collections {}, arrays [], numbers 0, `default` where given."""
    out: dict[str, Any] = {}
    empty = {"object": {}, "array": [], "integer": 0, "number": 0, "string": "", "boolean": False}
    for key, sub in (schema.get("properties") or {}).items():
        if isinstance(sub, dict) and "default" in sub:
            out[key] = copy_state(sub["default"])
        else:
            kind = sub.get("type") if isinstance(sub, dict) else None
            out[key] = copy_state(empty.get(kind)) if isinstance(kind, str) else None
    return out


class Environment:
    """A tool-use environment for one episode. Many instances may share one compiled definition."""

    def __init__(self, env_dir: str | Path | None = None, *, definition: EnvDefinition | None = None) -> None:
        if definition is None:
            if env_dir is None:
                raise TypeError("Environment needs an env_dir or a definition")
            definition = load_env_folder(env_dir)
        self.definition = definition
        self.env_id = definition.env_id
        self.tools: list[ToolSpec] = definition.tools
        self.state_schema = definition.state_schema
        self.task: Task | None = None
        self.call_log: list[dict[str, Any]] = []
        self._initial: dict[str, Any] = {}
        self._state: dict[str, Any] = {}
        self._index: SharedIndex | None = None
        self._owned_all = False
        self.reset()

    @classmethod
    def from_parts(
        cls,
        env_id: str,
        tools: list[ToolSpec],
        functions: dict[str, str],
        source: str,
        state_schema: dict[str, Any],
        excluded: dict[str, str] | None = None,
    ) -> "Environment":
        """An environment from in-memory parts (the synthesis pipeline); `functions`: tool -> function name."""
        return cls(definition=definition_from_parts(env_id, tools, functions, source, state_schema, excluded))

    # state ------------------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """The live state. It may share parts with the initial state: read it, do not modify it."""
        return self._state

    @property
    def initial_state(self) -> dict[str, Any]:
        return self._initial

    def state_hash(self, state: Any = None) -> str:
        """sha256 of the canonical JSON of `state` (default: the live state)."""
        return state_hash(self._state if state is None else state)

    def changed_paths(self) -> list[str]:
        """JSON-pointer paths where the live state differs from the initial state (cheap: unshared parts)."""
        return changed_paths(self._initial, self._state)

    def state_copy(self) -> dict[str, Any]:
        """A private deep copy of the live state."""
        return copy_state(self._state)

    # episode --------------------------------------------------------------------------------------
    def reset(self, task: Task | None = None, initial_state: dict[str, Any] | None = None) -> str:
        """Start an episode from `task.initial_state`, `initial_state`, or an empty state. Copies nothing."""
        if task is not None:
            initial_state = task.initial_state
        if initial_state is None:
            initial_state = default_state(self.state_schema)
        if not isinstance(initial_state, dict):
            raise TypeError(f"initial state must be a JSON object, not {type(initial_state).__name__}")
        self.task = task
        self._initial = initial_state
        self._state = initial_state
        self._index = None
        self._owned_all = False
        self.call_log = []
        return f"{self.definition.title}: ready, {len(self.tools)} tools available."

    def step(self, tool_call: ToolCall | dict[str, Any]) -> StepResult:
        """Run one tool call; the observation is its JSON result or `Error: ...`; never raises for bad calls."""
        name, arguments, parse_error = _read_call(tool_call)
        fn = self.definition.functions.get(name)
        if fn is None:
            reason = self.definition.excluded.get(name)
            text = f"tool {name!r} is not available: {reason}" if reason else f"unknown tool {name!r}"
            return self._finish(name, arguments, "unknown_tool", text)
        problem = parse_error or self._argument_problem(name, arguments)
        if problem:
            return self._finish(name, arguments, "invalid_arguments", f"invalid arguments: {problem}")
        kind, result, text, detail = self._invoke(name, fn, arguments)
        step = self._finish(name, arguments, kind, text, result)
        if detail:
            step.info["detail"] = detail
        return step

    def run_actions(self, actions: list[ToolCall | dict[str, Any]]) -> list[StepResult]:
        """Step through calls (a task's gold actions) in order."""
        return [self.step(action) for action in actions]

    def tool_schemas(self) -> list[dict[str, Any]]:
        """The published tools as OpenAI `tools` entries."""
        return [spec.openai_schema() for spec in self.tools]

    # internals ------------------------------------------------------------------------------------
    def _argument_problem(self, name: str, arguments: Any) -> str | None:
        if not isinstance(arguments, dict):
            return "arguments must be a JSON object"
        problem = self.definition.validators[name].problem(arguments)
        if problem is not None:
            return problem
        accepted = self.definition.accepted[name]
        if accepted is not None:
            for key in arguments:
                if key not in accepted:
                    return f"unexpected argument {key!r}"
        return None

    def _invoke(self, name: str, fn: Any, arguments: dict[str, Any]) -> tuple[str, Any, str, str]:
        """(error kind or "ok", result copy, observation text, detail with the env.py line for exceptions)."""
        path_copies = 0
        while True:
            if self._owned_all:
                shared: Any = _EMPTY
            else:
                if self._index is None:
                    self._index = shared_index(self._initial)
                shared = self._index.parents
            ctx = WriteContext(shared)
            previous = activate(ctx)
            try:
                result = fn(self._state, **(copy_state(arguments) if _has_containers(arguments) else arguments))
            except SharedWrite as hit:
                ctx.rollback()
                path_copies += 1
                if path_copies > _MAX_PATH_COPIES or not self._copy_path(hit.obj):
                    self._state = copy_state(self._state)
                    self._owned_all = True
                continue
            except ToolError as err:
                ctx.rollback()
                return "tool_error", None, str(err), ""
            except Exception as err:  # noqa: BLE001 - a bug in generated code becomes an observation
                ctx.rollback()
                return (
                    "exception",
                    None,
                    f"internal error in {name}: {type(err).__name__}: {err}",
                    describe_exception(err, self.definition.filename),
                )
            except BaseException:
                ctx.rollback()
                raise
            finally:
                activate(previous)
            try:
                text = json.dumps(result, sort_keys=True, ensure_ascii=False, allow_nan=False)
            except (TypeError, ValueError, RecursionError) as err:
                ctx.rollback()
                return "non_json", None, f"internal error in {name}: result is not JSON-serializable: {err}", ""
            return "ok", (copy_state(result) if type(result) in _CONTAINERS else result), text, ""

    def _copy_path(self, target: Any) -> bool:
        """Give the live state its own copy of every container from the root down to `target`."""
        assert self._index is not None
        keys = self._index.path_to(target)
        if keys is None:
            return False
        shared = self._index.parents
        node = self._state
        if not keys and node is not target:
            return False  # the initial root itself, reached after the live root was replaced
        if id(node) in shared:
            node = _shallow(node)
            self._state = node
        last = len(keys) - 1
        for depth, key in enumerate(keys):
            try:
                child = node[key]
            except (KeyError, IndexError, TypeError):
                return False
            if depth == last and child is not target:
                return False  # the target is reachable elsewhere (moved or aliased): copy everything
            if id(child) in shared:
                child = _shallow(child)
                node[key] = child
            node = child
        return True

    def _finish(self, name: str, arguments: Any, kind: str, text: str, result: Any = None) -> StepResult:
        ok = kind == "ok"
        self.call_log.append({"name": name, "arguments": arguments, "ok": ok})
        info = {
            "ok": ok,
            "error_kind": None if ok else kind,
            "result": result if ok else None,
            "tool": name,
            "error": None if ok else text,
        }
        return StepResult(observation=text if ok else f"Error: {text}", done=False, info=info)


_CONTAINERS = frozenset({dict, list, tuple})


def _has_containers(arguments: dict[str, Any]) -> bool:
    for value in arguments.values():
        if type(value) in _CONTAINERS:
            return True
    return False


def _shallow(container: Any) -> Any:
    return container.copy() if type(container) is dict else container[:]


def _read_call(tool_call: ToolCall | dict[str, Any]) -> tuple[str, Any, str | None]:
    if isinstance(tool_call, ToolCall):
        name, arguments = tool_call.name, tool_call.arguments
    elif isinstance(tool_call, dict):
        name, arguments = tool_call.get("name"), tool_call.get("arguments", {})
    else:
        return "", {}, f"a tool call must be a ToolCall or a dict, not {type(tool_call).__name__}"
    if arguments is None:
        arguments = {}
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError as err:
            return str(name), arguments, f"arguments are not valid JSON: {err}"
    return str(name) if name is not None else "", arguments, None
