"""The two sides of a replay, behind one interface: reset(state), call(call) -> (result, changes), state().

`ReferenceSide` wraps a reference adapter (each `state()` is a private copy, so a call's change is the
difference of two snapshots). `EnvironmentSide` runs a published environment in the project's runtime;
its state is copy-on-write, so a call's change is composed from two cheap diffs against the initial state.
"""

from __future__ import annotations

from typing import Any, Protocol

from synth.fidelity.diff import Path as LeafPath
from synth.fidelity.diff import compose, leaf_changes
from synth.fidelity.reference import Call, Reference
from synth.runtime.environment import Environment
from synth.runtime.loader import EnvDefinition
from synth.runtime.state import forget_index

Result = dict[str, Any]  # {"ok": bool, "output": JSON value or str}
Changes = dict[LeafPath, Any]


class Side(Protocol):
    """What the replay needs of either side."""

    def reset(self, state: dict[str, Any], one_off: bool = False) -> None: ...

    def call(self, call: Call) -> tuple[Result, Changes]: ...

    def state(self) -> dict[str, Any]: ...


class ReferenceSide:
    """A reference implementation as a replay side.

    `state()` right after `reset(state)` is read once per initial-state object: when it equals that state, later
    resets to the same object reuse it (a reference's `state()` can cost a deep copy of a large state).
    """

    def __init__(self, reference: Reference) -> None:
        self.reference = reference
        self._state: dict[str, Any] = {}
        self._kept: dict[int, tuple[dict[str, Any], bool]] = {}  # id -> (the state, its reset reads back equal)

    def reset(self, state: dict[str, Any], one_off: bool = False) -> None:
        """Start from `state` (the adapter gets its own copy; nobody may change `state` while it is in use)."""
        self.reference.reset(state)
        kept = self._kept.get(id(state))
        if kept is not None and kept[0] is state and kept[1]:
            self._state = state
            return
        self._state = self.reference.state()
        if not one_off:
            self._kept[id(state)] = (state, self._state == state)

    def call(self, call: Call) -> tuple[Result, Changes]:
        """Run one call; its result and the leaves it changed."""
        result = self.reference.call(call.name, call.arguments)
        after = self.reference.state()
        changes = leaf_changes(self._state, after)
        self._state = after
        return result, changes

    def state(self) -> dict[str, Any]:
        """The state after the latest call (a snapshot nobody else changes)."""
        return self._state


class EnvironmentSide:
    """A published environment as a replay side; a tool it lacks fails like any unknown tool."""

    def __init__(self, definition: EnvDefinition) -> None:
        self.env = Environment(definition=definition)
        self._initial: dict[str, Any] = {}
        self._previous: Changes = {}
        self._one_off = False

    def reset(self, state: dict[str, Any], one_off: bool = False) -> None:
        """Start from `state`, shared copy-on-write; `one_off`: do not keep its index cached afterwards."""
        self._release()
        self.env.reset(initial_state=state)
        self._initial, self._previous, self._one_off = state, {}, one_off

    def call(self, call: Call) -> tuple[Result, Changes]:
        """Step the environment; its result (the error text when it fails) and the leaves it changed."""
        info = self.env.step({"name": call.name, "arguments": call.arguments}).info
        result = {"ok": bool(info["ok"]), "output": info["result"] if info["ok"] else info["error"]}
        current = leaf_changes(self._initial, self.env.state)
        changes = compose(self._initial, self._previous, current)
        self._previous = current
        return result, changes

    def state(self) -> dict[str, Any]:
        """The live state (read only)."""
        return self.env.state

    def _release(self) -> None:
        if self._one_off:
            forget_index(self._initial)
            self._one_off = False

    def close(self) -> None:
        """Forget the last one-off state."""
        self._release()
