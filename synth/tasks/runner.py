"""Run tool calls against a state: the runtime's Environment, or plain Python functions in tests.

Both runners answer `reset(state)`, `call(name, arguments) -> CallOutcome` and `state()`, so
instantiation and the probes do not care which one executes.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from synth.spec import ToolCall


@dataclass
class CallOutcome:
    """What one call did: ok, its result, and the error text when it failed."""

    ok: bool
    result: Any = None
    error: str = ""


class Runner(Protocol):
    def reset(self, state: dict[str, Any]) -> None: ...

    def call(self, name: str, arguments: dict[str, Any]) -> CallOutcome: ...

    def state(self) -> dict[str, Any]: ...


class RuntimeRunner:
    """Adapter over synth.runtime.Environment (one instance, reset for every run)."""

    def __init__(self, env: Any):
        self.env = env

    @classmethod
    def from_dir(cls, env_dir: str) -> "RuntimeRunner":
        from synth.runtime import Environment

        return cls(Environment(env_dir))

    def reset(self, state: dict[str, Any]) -> None:
        self.env.reset(initial_state=copy.deepcopy(state))

    def call(self, name: str, arguments: dict[str, Any]) -> CallOutcome:
        res = self.env.step(ToolCall(name=name, arguments=copy.deepcopy(arguments)))
        info = res.info if hasattr(res, "info") else res[2]
        ok = bool(info.get("ok"))
        obs = res.observation if hasattr(res, "observation") else res[0]
        return CallOutcome(
            ok=ok,
            result=copy.deepcopy(info.get("result")) if ok else None,
            error="" if ok else str(info.get("error") or obs)[:300],
        )

    def state(self) -> dict[str, Any]:
        env = self.env
        if hasattr(env, "state_copy"):
            return env.state_copy()
        return copy.deepcopy(env.state)


class FunctionRunner:
    """Tools as Python functions `f(state, **arguments)`; any exception is a failed call (tests)."""

    def __init__(self, functions: dict[str, Callable[..., Any]]):
        self.functions = functions
        self._state: dict[str, Any] = {}

    def reset(self, state: dict[str, Any]) -> None:
        self._state = copy.deepcopy(state)

    def call(self, name: str, arguments: dict[str, Any]) -> CallOutcome:
        fn = self.functions.get(name)
        if fn is None:
            return CallOutcome(ok=False, error=f"unknown tool {name}")
        before = copy.deepcopy(self._state)
        try:
            result = fn(self._state, **copy.deepcopy(arguments))
        except Exception as ex:  # noqa: BLE001 - a tool failure of any kind is a failed call
            self._state = before
            return CallOutcome(ok=False, error=f"{type(ex).__name__}: {ex}")
        return CallOutcome(ok=True, result=copy.deepcopy(result))

    def state(self) -> dict[str, Any]:
        return copy.deepcopy(self._state)


def replay(
    runner: Runner, initial_state: dict[str, Any], actions: list[ToolCall]
) -> tuple[dict[str, Any], list[CallOutcome]]:
    """Run `actions` from `initial_state`; failed calls are kept as failures."""
    runner.reset(initial_state)
    outcomes = [runner.call(a.name, a.arguments) for a in actions]
    return runner.state(), outcomes
