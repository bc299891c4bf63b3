"""Plan variants learned from a real system's recorded calls of one tool (--traces).

A keyed write (the plan's key parameter names a record of its collection) is read off the recorded changes
of that record: fields set to one constant or to an argument's value, elements appended to a list field whose
values come from arguments, constants or the record itself (the same path in every call), and which values a
field had before the calls that succeeded when failing calls show other values (a status that allows the
call). A tool whose successful recorded calls never change anything gets a read-only variant.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.traces import apply_changes
from synth.spec import ToolSpec

MISSING = object()
MAX_PATH_DEPTH = 4  # record paths searched for a value's source


def _paths(value: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> dict[tuple[Any, ...], Any]:
    """Every scalar of a record at its path (list indexes as ints), up to MAX_PATH_DEPTH."""
    out: dict[tuple[Any, ...], Any] = {}
    if depth > MAX_PATH_DEPTH:
        return out
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(_paths(v, prefix + (k,), depth + 1))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(_paths(v, prefix + (i,), depth + 1))
    else:
        out[prefix] = value
    return out


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _sorted(values: list[Any]) -> list[Any] | None:
    try:
        return sorted(values)
    except TypeError:
        return None


def _source(samples: list[tuple[Any, dict[str, Any], dict[str, Any]]], key_param: str) -> dict[str, Any] | None:
    """One source that gives the value in every sample (value, arguments, record): an argument, a record path, a constant."""
    value0, args0, record0 = samples[0]
    for name in sorted(args0):
        if name != key_param and all(_same(args.get(name), value) for value, args, _ in samples):
            return {"from": "arg", "name": name}
    for name in sorted(args0):  # a list argument the system keeps in sorted order
        if name != key_param and all(isinstance(args.get(name), list) and isinstance(value, list)
                                     and _sorted(args[name]) == value for value, args, _ in samples):
            return {"from": "arg", "name": name, "sorted": True}
    for path, v in sorted(_paths(record0).items(), key=lambda kv: (len(kv[0]), str(kv[0]))):
        if _same(v, value0) and all(_same(_paths(rec).get(path, MISSING), value) for value, _, rec in samples):
            return {"from": "record", "path": list(path)}
    if all(_same(value, value0) for value, _, _ in samples):
        return {"from": "const", "value": value0}
    return None


def _after(case: TestCase, collection: str, key: str) -> Any:
    changes = next((c["changes"] for c in case.state_checks if c.get("op") == "changes"), [])
    return (apply_changes(case.state, changes).get(collection) or {}).get(key)


def _item_rule(samples: list[tuple[Any, dict[str, Any], dict[str, Any]]], key_param: str) -> dict[str, Any] | None:
    """The source of an appended element: one source, or one per field of an object element."""
    first = samples[0][0]
    if isinstance(first, dict):
        if any(not isinstance(v, dict) or sorted(v) != sorted(first) for v, _, _ in samples):
            return None
        fields = {}
        for sub in sorted(first):
            src = _source([(v[sub], a, r) for v, a, r in samples], key_param)
            if src is None:
                return None
            fields[sub] = src
        return {"fields": fields}
    src = _source(samples, key_param)
    return {"value": src} if src is not None else None


def _learn(plan: ToolPlan, recorded: list[TestCase]) -> tuple[list[dict[str, Any]], dict[str, list[Any]], bool] | None:
    col, kp = plan.collection, plan.key_param
    if not col or not kp:
        return None
    sets: dict[str, list[tuple[Any, dict[str, Any], dict[str, Any]]]] = {}
    appends: dict[str, list[list[tuple[Any, dict[str, Any], dict[str, Any]]]]] = {}
    ok_records: list[dict[str, Any]] = []
    any_change = False
    for case in recorded:
        if case.expect_error:
            continue
        key = str(case.arguments.get(kp))
        record = (case.state.get(col) or {}).get(key)
        after = _after(case, col, key)
        if not isinstance(record, dict) or not isinstance(after, dict):
            return None  # the call names no record, or removes it: not a keyed update
        ok_records.append(record)
        any_change = any_change or bool(next((c["changes"] for c in case.state_checks if c.get("op") == "changes"), []))
        for name in sorted(set(record) | set(after)):
            old, new = record.get(name, MISSING), after.get(name, MISSING)
            if new is MISSING or _same(old, new):
                continue
            if isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[:len(old)] == old:
                appends.setdefault(name, []).append([(item, case.arguments, record) for item in new[len(old):]])
            else:
                sets.setdefault(name, []).append((new, case.arguments, record))
    if not ok_records:
        return None
    effects: list[dict[str, Any]] = []
    n_ok = len(ok_records)
    for name, samples in sorted(sets.items()):
        if len(samples) != n_ok:
            continue  # set in some calls only: not one rule
        src = _source(samples, kp)
        if src is not None:
            effects.append({"op": "set", "field": name, "source": src})
    for name, per_call in sorted(appends.items()):
        if len(per_call) != n_ok or len({len(items) for items in per_call}) != 1:
            continue  # the same number of new elements in every call
        rules = [_item_rule([items[i] for items in per_call], kp) for i in range(len(per_call[0]))]
        if all(r is not None for r in rules):
            effects.append({"op": "append", "field": name, "items": rules})
    preconditions: dict[str, list[Any]] = {}
    failing = [((c.state.get(col) or {}).get(str(c.arguments.get(kp)))) for c in recorded if c.expect_error]
    failing = [r for r in failing if isinstance(r, dict)]
    for eff in effects:
        if eff["op"] != "set" or eff["source"]["from"] != "const":
            continue
        name = eff["field"]
        before = {repr(r.get(name)): r.get(name) for r in ok_records}
        bad = {repr(r.get(name)) for r in failing}
        if before and not (set(before) & bad) and (bad or len(before) == 1):
            preconditions[name] = [before[k] for k in sorted(before)]
    return effects, preconditions, any_change


def _recorded_envelope(recorded: list[TestCase]) -> str | None:
    """The one key every successful recorded output is an object of, or None."""
    outs = [c.expect_result for c in recorded if not c.expect_error and c.expect_result is not None]
    keys = {tuple(o) if isinstance(o, dict) else None for o in outs}
    if len(keys) == 1:
        only = next(iter(keys))
        if only is not None and len(only) == 1:
            return only[0]
    return None


def learned_variants(spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase]) -> list[ToolPlan]:
    """Plans learned from the recorded calls (none when they show no rule these variants express)."""
    out = []
    key = _recorded_envelope(recorded)
    if key != plan.output_key and plan.kind != "recorded_update":
        out.append(ToolPlan.from_dict({**plan.to_dict(), "output_key": key}))
    return out + _learned_updates(spec, plan, recorded)


def _learned_updates(spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase]) -> list[ToolPlan]:
    learned = _learn(plan, recorded)
    if learned is None:
        return []
    effects, preconditions, any_change = learned
    base = {**plan.to_dict(), "evidence": plan.evidence + ["learned from recorded calls"]}
    if not any_change:
        return [ToolPlan.from_dict({**base, "kind": "get"})]
    if not effects:
        return []
    out = [ToolPlan.from_dict({**base, "kind": "recorded_update", "effects": effects, "preconditions": preconditions})]
    if preconditions:
        out.append(ToolPlan.from_dict({**base, "kind": "recorded_update", "effects": effects, "preconditions": {}}))
    return out


__all__ = ["learned_variants"]
