"""A reference folder: adapter.py (the real implementation), trajectories.jsonl, and data.json.

The adapter protocol (../shared/references/README.md): `make()` returns an object with
`reset(state)`, `call(name, arguments) -> {"ok": bool, "output": ...}` and `state() -> dict`.
The adapter is the oracle and runs on the host, like a user's real API; it is loaded with importlib
under a module name of its own, and never imported by name.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synth.errors import InputError
from synth.jsonlines import read_rows
from synth.runtime.state import copy_state

ADAPTER = "adapter.py"
TRAJECTORIES = "trajectories.jsonl"
DATA = "data.json"


@dataclass
class Call:
    """One call of a trajectory."""

    name: str
    arguments: dict[str, Any]


@dataclass
class Trajectory:
    """A reference trajectory: its calls, its own initial state (or None: data.json) and its other fields."""

    id: str
    calls: list[Call]
    initial_state: dict[str, Any] | None = None
    context: dict[str, Any] = field(default_factory=dict)  # instruction, questions, ...: kept for --record


class Reference:
    """The reference implementation behind a folder, checked at every call for the protocol's shapes."""

    def __init__(self, ref_dir: Path, impl: Any) -> None:
        self.ref_dir = ref_dir
        self.impl = impl
        self.where = str(ref_dir / ADAPTER)

    def reset(self, state: dict[str, Any]) -> None:
        """Start from a private copy of `state` (the adapter may keep and change what it is given)."""
        try:
            self.impl.reset(copy_state(state))
        except Exception as err:  # noqa: BLE001 - a reference that cannot start is bad input
            raise InputError(self.where, "reset()", f"failed: {type(err).__name__}: {err}") from None

    def call(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        """{"ok", "output"}; an exception in the adapter counts as a failed call with its message as output."""
        try:
            result = self.impl.call(name, copy_state(arguments))
        except Exception as err:  # noqa: BLE001 - the oracle failing is part of what it does
            return {"ok": False, "output": f"{type(err).__name__}: {err}"}
        if not isinstance(result, dict) or not isinstance(result.get("ok"), bool) or "output" not in result:
            raise InputError(self.where, "call()", f"must return {{'ok': bool, 'output': ...}}, got {result!r:.200}")
        return {"ok": result["ok"], "output": result["output"]}

    def state(self) -> dict[str, Any]:
        """The current state, as a JSON object."""
        try:
            state = self.impl.state()
        except Exception as err:  # noqa: BLE001
            raise InputError(self.where, "state()", f"failed: {type(err).__name__}: {err}") from None
        if not isinstance(state, dict):
            raise InputError(self.where, "state()", f"must return a JSON object, got {type(state).__name__}")
        return state


def check_reference_dir(ref_dir: str | Path) -> Path:
    """The folder as a Path, after checking it has an adapter and trajectories (InputError otherwise)."""
    root = Path(ref_dir)
    if not root.is_dir():
        raise InputError(str(root), "(folder)", "reference folder not found")
    for name in (ADAPTER, TRAJECTORIES):
        if not (root / name).is_file():
            raise InputError(
                str(root / name), "(file)", "missing: a reference folder needs adapter.py and trajectories.jsonl"
            )
    return root


def load_reference(ref_dir: str | Path) -> Reference:
    """Import REF_DIR/adapter.py under a private module name and call its `make()`."""
    root = check_reference_dir(ref_dir).resolve()
    path = root / ADAPTER
    try:
        digest = hashlib.sha256(str(path).encode() + b"\0" + path.read_bytes()).hexdigest()
    except OSError as err:
        raise InputError(str(path), "(file)", f"cannot read: {err}") from None
    module_name = "forgegym_reference_" + digest[:16]  # a new module when the file changes
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise InputError(str(path), "(file)", "cannot be loaded as a Python module")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as err:  # noqa: BLE001 - any import failure is bad input
            raise InputError(str(path), "(module)", f"import failed: {type(err).__name__}: {err}") from None
        sys.modules[module_name] = module
    make = getattr(module, "make", None)
    if not callable(make):
        raise InputError(str(path), "make", "missing: the adapter must define make()")
    try:
        impl = make()
    except Exception as err:  # noqa: BLE001
        raise InputError(str(path), "make()", f"failed: {type(err).__name__}: {err}") from None
    for method in ("reset", "call", "state"):
        if not callable(getattr(impl, method, None)):
            raise InputError(str(path), "make()", f"the object it returns has no {method}() method")
    return Reference(root, impl)


def _call(raw: Any, where: str, location: str) -> Call:
    if not isinstance(raw, dict):
        raise InputError(where, location, "a call must be an object with name and arguments")
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise InputError(where, f"{location}/name", "must be a non-empty string")
    arguments = raw.get("arguments", {})
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise InputError(where, f"{location}/arguments", "must be an object")
    return Call(name, arguments)


def load_trajectories(ref_dir: str | Path, limit: int | None = None, skip: int = 0) -> list[Trajectory]:
    """Trajectories of REF_DIR/trajectories.jsonl after the first `skip`, at most `limit` (all when None).

    Every line is checked, skipped ones included, so a split into halves sees the same file errors.
    """
    path = check_reference_dir(ref_dir) / TRAJECTORIES
    where = str(path)
    out: list[Trajectory] = []
    for number, raw in read_rows(path):
        if limit is not None and len(out) >= limit:
            break
        if not isinstance(raw, dict) or not isinstance(raw.get("calls"), list):
            raise InputError(where, f"line {number}/calls", "a trajectory needs a list of calls")
        initial = raw.get("initial_state")
        if initial is not None and not isinstance(initial, dict):
            raise InputError(where, f"line {number}/initial_state", "must be an object")
        calls = [_call(c, where, f"line {number}/calls/{i}") for i, c in enumerate(raw["calls"])]
        context = {k: v for k, v in raw.items() if k not in ("id", "calls", "initial_state")}
        if skip > 0:
            skip -= 1
            continue
        out.append(Trajectory(str(raw.get("id", f"line-{number}")), calls, initial, context))
    if not out:
        raise InputError(where, "(file)", "no trajectories")
    return out


def load_data(ref_dir: str | Path, trajectories: list[Trajectory]) -> dict[str, Any] | None:
    """REF_DIR/data.json when some trajectory has no initial_state of its own; None when none needs it."""
    if all(t.initial_state is not None for t in trajectories):
        return None
    path = Path(ref_dir) / DATA
    if not path.is_file():
        first = next(t.id for t in trajectories if t.initial_state is None)
        raise InputError(str(path), "(file)", f"missing, and trajectory {first!r} has no initial_state")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(str(path), "(file)", f"cannot read: {err}") from None
    except json.JSONDecodeError as err:
        raise InputError(str(path), f"line {err.lineno} column {err.colno}", f"invalid JSON: {err.msg}") from None
    if not isinstance(data, dict):
        raise InputError(str(path), "(document)", "must be a JSON object")
    return data
