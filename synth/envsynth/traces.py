"""`forgegym synth --traces FILE`: a real system's recorded calls (docs/fidelity.md, traces format) as test cases.

Each recorded call becomes a case that starts from the state just before it (the trace's initial state, or the
sample data, with the earlier calls' recorded changes applied) and expects the recorded success or failure, the
recorded output (normalised as fidelity compares outputs) and the recorded changed leaves. Large states are cut
to the records the call names (its arguments, its output, the paths it changed) and the records those name.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from synth.envsynth.testgen import TestCase
from synth.errors import InputError
from synth.fidelity.normalize import canonical
from synth.jsonlines import read_rows

TRACE_FORMAT = "forgegym-traces/1"
CUT_ABOVE = 64_000  # states larger than this (canonical JSON characters) are cut per call
ORIGIN = "trace"


@dataclass
class TraceCall:
    """One recorded call with the state before it."""

    tool: str
    trajectory: str
    index: int
    arguments: dict[str, Any]
    ok: bool
    output: Any
    changes: list[dict[str, Any]]
    state: dict[str, Any]


def parse_pointer(text: str) -> list[str]:
    """The keys of a JSON pointer ("" is the root)."""
    if text == "":
        return []
    if not text.startswith("/"):
        raise ValueError(f"not a JSON pointer: {text!r}")
    return [part.replace("~1", "/").replace("~0", "~") for part in text[1:].split("/")]


def _own(node: Any, key: str, fresh: set[int]) -> Any:
    """The child at `key`, copied (shallow) the first time it is written, so unchanged parts stay shared."""
    child = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(child, (dict, list)) and id(child) not in fresh:
        child = dict(child) if isinstance(child, dict) else list(child)
        fresh.add(id(child))
        if isinstance(node, list):
            node[int(key)] = child
        else:
            node[key] = child
    return child


def _remove(node: Any, key: str) -> None:
    if isinstance(node, list):
        node.pop(int(key))
    else:
        del node[key]


def same_value(a: Any, b: Any) -> bool:
    """Equal and of one type (`1` is not `1.0` nor `True`): what a recorded value must be to be read off another."""
    return type(a) is type(b) and a == b


def counts_from_zero(keys: set[str]) -> bool:
    """Whether keys recorded under a new container are exactly 0..n-1: a list, else an object."""
    return bool(keys) and all(k.isdigit() for k in keys) and sorted(int(k) for k in keys) == list(range(len(keys)))


def _new_container(path_keys: list[str], depth: int, sets: list[list[str]]) -> Any:
    """A list when the children recorded under this new container are exactly 0..n-1, else a dict."""
    prefix = path_keys[:depth]
    children = {k[depth] for k in sets if len(k) > depth and k[:depth] == prefix}
    return [] if counts_from_zero(children) else {}


def _order(keys: list[str]) -> list[tuple[int, Any]]:
    return [(0, int(k)) if k.isdigit() else (1, k) for k in keys]


def _delete(out: dict[str, Any], keys: list[str], fresh: set[int]) -> None:
    """Delete one leaf, then the containers it leaves empty (a kept empty one is set again by the changes)."""
    chain: list[Any] = [out]
    try:
        for key in keys[:-1]:
            chain.append(_own(chain[-1], key, fresh))
        _remove(chain[-1], keys[-1])
    except (KeyError, IndexError, ValueError, TypeError):
        return
    for depth in range(len(keys) - 1, 0, -1):
        if chain[depth]:
            break
        _remove(chain[depth - 1], keys[depth - 1])


def _set(out: dict[str, Any], keys: list[str], value: Any, set_keys: list[list[str]], fresh: set[int]) -> None:
    node: Any = out
    for depth, key in enumerate(keys[:-1]):
        present = (int(key) < len(node)) if isinstance(node, list) else key in node
        child = _own(node, key, fresh) if present else None
        if not isinstance(child, (dict, list)) or (
            not child and type(_new_container(keys, depth + 1, set_keys)) is not type(child)
        ):
            child = _new_container(keys, depth + 1, set_keys)
            fresh.add(id(child))
            if isinstance(node, list) and not present:
                node.append(child)
            elif isinstance(node, list):
                node[int(key)] = child
            else:
                node[key] = child
        node = child
    last = keys[-1]
    if isinstance(node, list) and int(last) >= len(node):
        node.append(copy.deepcopy(value))
    elif isinstance(node, list):
        node[int(last)] = copy.deepcopy(value)
    else:
        node[last] = copy.deepcopy(value)


def apply_changes(state: dict[str, Any], changes: list[dict[str, Any]]) -> dict[str, Any]:
    """The state after a call's recorded changed leaves: a new object sharing every unchanged part with `state`."""
    out = dict(state)
    fresh: set[int] = {id(out)}
    deletions = [parse_pointer(c["path"]) for c in changes if c.get("deleted")]
    sets = [(parse_pointer(c["path"]), c.get("value")) for c in changes if not c.get("deleted")]
    for keys in sorted(deletions, key=_order, reverse=True):
        _delete(out, keys, fresh)
    set_keys = [k for k, _ in sets]
    for keys, value in sorted(sets, key=lambda kv: _order(kv[0])):
        _set(out, keys, value, set_keys, fresh)
    return out


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            out.add(str(key))
            _strings(item, out)
    elif isinstance(value, list):
        for item in value:
            _strings(item, out)
    elif isinstance(value, str):
        out.add(value)
        text = value.strip()
        if text[:1] in "[{":
            try:
                _strings(json.loads(text), out)
            except ValueError:
                pass
    elif value is not None and not isinstance(value, bool):
        out.add(str(value))


def _is_collection(value: Any) -> bool:
    return isinstance(value, dict) and len(value) > 0 and all(isinstance(v, dict) for v in value.values())


def _last_keys(records: dict[str, Any]) -> set[str]:
    """The key ending in the highest number of each prefix (`BK-` of `BK-0042`): what the next new id counts from."""
    best: dict[str, tuple[int, str]] = {}
    for key in records:
        m = re.fullmatch(r"(.*?)(\d+)", str(key))
        if m and (m.group(1) not in best or int(m.group(2)) > best[m.group(1)][0]):
            best[m.group(1)] = (int(m.group(2)), key)
    return {key for _, key in best.values()}


def cut_state(state: dict[str, Any], call: TraceCall) -> dict[str, Any]:
    """The state with each collection cut to the records the call names, and the records those name (one hop), and
    the record of each with the highest numbered key (a create's new id counts on from it)."""
    named: set[str] = set()
    _strings(call.arguments, named)
    _strings(call.output, named)
    for change in call.changes:
        named.update(parse_pointer(change["path"])[:2])
    keep: dict[str, set[str]] = {}
    for name, value in state.items():
        if _is_collection(value):
            keep[name] = {k for k in value if k in named} | _last_keys(value)
    hop: set[str] = set()
    for name, keys in keep.items():
        for key in keys:
            _strings(state[name][key], hop)
    out = {}
    for name, value in state.items():
        if name in keep:
            out[name] = {k: v for k, v in value.items() if k in keep[name] or k in hop}
        else:
            out[name] = value
    return out


def _row(raw: Any, where: str, number: int) -> list[dict[str, Any]]:
    if not isinstance(raw, dict) or raw.get("format") != TRACE_FORMAT:
        raise InputError(where, f"line {number}/format", f"expected {TRACE_FORMAT!r}")
    calls = raw.get("calls")
    if not isinstance(calls, list):
        raise InputError(where, f"line {number}/calls", "a trace needs a list of calls")
    for i, call in enumerate(calls):
        loc = f"line {number}/calls/{i}"
        if not isinstance(call, dict) or not isinstance(call.get("name"), str):
            raise InputError(where, f"{loc}/name", "a call needs a tool name")
        if not isinstance(call.get("arguments", {}), dict):
            raise InputError(where, f"{loc}/arguments", "must be an object")
        if not isinstance(call.get("ok"), bool):
            raise InputError(where, f"{loc}/ok", "must be true or false")
        changes = call.get("changes", [])
        if not isinstance(changes, list) or not all(
            isinstance(c, dict) and isinstance(c.get("path"), str) for c in changes
        ):
            raise InputError(where, f"{loc}/changes", "must be a list of {path, value | deleted}")
    return calls


def load_traces(path: str | Path, data_state: dict[str, Any] | None) -> list[TraceCall]:
    """Every recorded call of a traces file with the state before it; bad input is an InputError naming the line."""
    where = str(path)
    out: list[TraceCall] = []
    for number, raw in read_rows(path):
        calls = _row(raw, where, number)
        state = raw.get("initial_state", data_state)
        if not isinstance(state, dict):
            raise InputError(
                where,
                f"line {number}/initial_state",
                "missing (give the sample data with --data, or record traces with their initial states)",
            )
        for i, call in enumerate(calls):
            out.append(
                TraceCall(
                    call["name"],
                    str(raw.get("id", f"line-{number}")),
                    i,
                    dict(call.get("arguments") or {}),
                    call["ok"],
                    call.get("output"),
                    list(call.get("changes") or []),
                    state,
                )
            )
            try:
                state = apply_changes(state, call.get("changes") or [])
            except (ValueError, TypeError, IndexError, KeyError) as err:
                raise InputError(where, f"line {number}/calls/{i}/changes", f"cannot apply: {err}") from None
    if not out:
        raise InputError(where, "(file)", "no recorded calls")
    return out


def pick_calls(calls: list[TraceCall], tool: str, limit: int) -> list[TraceCall]:
    """Up to `limit` recorded calls of one tool, in file order, successes and failures taken in turn."""
    mine = [c for c in calls if c.tool == tool]
    ok = [c for c in mine if c.ok]
    bad = [c for c in mine if not c.ok]
    picked: list[TraceCall] = []
    while len(picked) < limit and (ok or bad):
        for group in (ok, ok, bad):  # two successes for each failure: most recorded behaviour is a success
            if group and len(picked) < limit:
                picked.append(group.pop(0))
    return picked


def trace_case(call: TraceCall) -> TestCase:
    """A test case: the state before the call (cut when large), the recorded outcome, output and changes."""
    state = call.state
    if len(canonical(state)) > CUT_ABOVE:
        state = cut_state(state, call)
    state = copy.deepcopy(state)
    return TestCase(
        tool=call.tool,
        origin=ORIGIN,
        state=state,
        arguments=copy.deepcopy(call.arguments),
        expect_error=not call.ok,
        expect_result=call.output if call.ok else None,
        has_expected_result=call.ok,
        state_checks=[{"op": "changes", "changes": call.changes}],
        why=f"recorded: {call.trajectory} call {call.index}",
    )


def recorded_changes(case: TestCase) -> list[dict[str, Any]]:
    """The state changes a recorded call's test case carries."""
    return next((c["changes"] for c in case.state_checks if c.get("op") == "changes"), [])


__all__ = [
    "TraceCall",
    "apply_changes",
    "counts_from_zero",
    "cut_state",
    "load_traces",
    "parse_pointer",
    "pick_calls",
    "recorded_changes",
    "same_value",
    "trace_case",
]
