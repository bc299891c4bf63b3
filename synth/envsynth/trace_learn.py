"""Plan variants learned from a real system's recorded calls of one tool (--traces).

A keyed write (the plan's key parameter names a record of its collection) is read off the recorded changes
of that record: fields set to one constant or to an argument's value, elements appended to a list field whose
values come from arguments, constants or the record itself (the same path in every call), and which values a
field had before the calls that succeeded when failing calls show other values (a status that allows the
call). A tool whose successful recorded calls never change anything gets a read-only variant.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.traces import apply_changes, parse_pointer
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
    """One source that gives the value in every sample (value, arguments, record): an argument, a record path, a
    constant."""
    value0, args0, record0 = samples[0]
    for name in sorted(args0):
        if name != key_param and all(_same(args.get(name), value) for value, args, _ in samples):
            return {"from": "arg", "name": name}
    for name in sorted(args0):  # a list argument the system keeps in sorted order
        if name != key_param and all(
            isinstance(args.get(name), list) and isinstance(value, list) and _sorted(args[name]) == value
            for value, args, _ in samples
        ):
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


def item_rule(samples: list[tuple[Any, dict[str, Any], dict[str, Any]]], key_param: str) -> dict[str, Any] | None:
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
            if isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[: len(old)] == old:
                appends.setdefault(name, []).append([(item, case.arguments, record) for item in new[len(old) :]])
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
        rules = [item_rule([items[i] for items in per_call], kp) for i in range(len(per_call[0]))]
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
    effects += _adjustments(plan, recorded)
    return effects, preconditions, any_change


def _string_source(value: str, args: dict[str, Any], record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every source that gives `value` in this one call: the constant, arguments, record paths."""
    out = [{"from": "const", "value": value}]
    out += [{"from": "arg", "name": n} for n in sorted(args) if _same(args[n], value)]
    out += [
        {"from": "record", "path": list(p)}
        for p, v in sorted(_paths(record).items(), key=lambda kv: (len(kv[0]), str(kv[0])))
        if _same(v, value)
    ]
    return out


def _resolve(src: dict[str, Any], args: dict[str, Any], record: dict[str, Any]) -> Any:
    if src["from"] == "const":
        return src["value"]
    if src["from"] == "arg":
        return args.get(src["name"], MISSING)
    return _paths(record).get(tuple(src["path"]), MISSING)


def _leaf(state: dict[str, Any], path: list[Any]) -> Any:
    node: Any = state
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return MISSING
        node = node[part]
    return node


def _adjustments(plan: ToolPlan, recorded: list[TestCase]) -> list[dict[str, Any]]:
    """A number on another record moved by a value of the call (a balance refunded), when every successful call
    either shows that move or has no number at the resolved place."""
    col, kp = plan.collection, plan.key_param
    ok = [c for c in recorded if not c.expect_error]
    rule: dict[str, Any] | None = None
    for case in ok:
        record = (case.state.get(col) or {}).get(str(case.arguments.get(kp))) or {}
        for row in next((c["changes"] for c in case.state_checks if c.get("op") == "changes"), []):
            parts = parse_pointer(row["path"])
            old = _leaf(case.state, parts)
            new = row.get("value")
            if (
                row.get("deleted")
                or len(parts) < 3
                or parts[0] == col
                or isinstance(new, bool)
                or isinstance(old, bool)
                or not isinstance(new, (int, float))
                or not isinstance(old, (int, float))
            ):
                continue
            delta = round(new - old, 6)
            segs = [_string_source(p, case.arguments, record) for p in parts[1:]]
            deltas = [
                {"from": "record", "path": list(p)}
                for p, v in sorted(_paths(record).items(), key=lambda kv: (len(kv[0]), str(kv[0])))
                if isinstance(v, (int, float)) and not isinstance(v, bool) and round(v, 6) == delta
            ]
            deltas += [
                {"from": "arg", "name": n}
                for n in sorted(case.arguments)
                if isinstance(case.arguments[n], (int, float)) and round(case.arguments[n], 6) == delta
            ]
            if deltas:
                rule = {"collection": parts[0], "segments": segs, "deltas": deltas}
                break
        if rule:
            break
    if rule is None:
        return []
    for path_src, delta_src in _choices(rule):
        if all(_fits(rule["collection"], path_src, delta_src, case, col, kp) for case in ok):
            return [{"op": "adjust", "collection": rule["collection"], "path": path_src, "delta": delta_src}]
    return []


def _choices(rule: dict[str, Any]) -> list[tuple[list[dict[str, Any]], dict[str, Any]]]:
    """Candidate (path sources, delta source) pairs, record and argument sources before constants for keys."""

    def rank(src: dict[str, Any]) -> int:
        return {"arg": 0, "record": 1, "const": 2}[src["from"]]

    first = [sorted(options, key=rank) for options in rule["segments"]]
    out = []
    key_options = first[0][:4]
    for key_src in key_options:
        rest = []
        for options in first[1:]:
            const = [o for o in options if o["from"] == "const"]
            other = [o for o in options if o["from"] != "const"]
            rest.append(other[:3] + const)
        combos: list[list[dict[str, Any]]] = [[key_src]]
        for options in rest:
            combos = [c + [o] for c in combos for o in options][:64]
        out += [(c, d) for c in combos for d in rule["deltas"][:3]]
    return out[:256]


def _fits(
    target_col: str, path_src: list[dict[str, Any]], delta_src: dict[str, Any], case: TestCase, col: str, kp: str
) -> bool:
    """The rule explains this call: the resolved number moved by the delta, or there is no number to move."""
    record = (case.state.get(col) or {}).get(str(case.arguments.get(kp))) or {}
    parts = [_resolve(s, case.arguments, record) for s in path_src]
    changes = {
        tuple(parse_pointer(r["path"])): r.get("value")
        for r in next((c["changes"] for c in case.state_checks if c.get("op") == "changes"), [])
        if not r.get("deleted")
    }
    if any(p is MISSING or not isinstance(p, str) for p in parts):
        return not any(path[0] == target_col for path in changes)
    path = tuple([target_col] + parts)
    old = _leaf(case.state, list(path))
    if not isinstance(old, (int, float)) or isinstance(old, bool):
        return path not in changes
    delta = _resolve(delta_src, case.arguments, record)
    if not isinstance(delta, (int, float)) or isinstance(delta, bool):
        return False
    return path in changes and round(changes[path] - old, 6) == round(delta, 6)


def _recorded_envelope(recorded: list[TestCase]) -> str | None:
    """The one key every successful recorded output is an object of, or None."""
    outs = [c.expect_result for c in recorded if not c.expect_error and c.expect_result is not None]
    keys = {tuple(o) if isinstance(o, dict) else None for o in outs}
    if len(keys) == 1:
        only = next(iter(keys))
        if only is not None and len(only) == 1:
            return only[0]
    return None


def _message_pieces(text: str, arguments: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The text as literal pieces and argument values (longest values first, at least 2 characters)."""
    values = sorted(
        {v: k for k, v in sorted(arguments.items()) if isinstance(v, str) and len(v) >= 2}.items(),
        key=lambda kv: -len(kv[0]),
    )
    if not values:
        return (("text", text),)
    pattern = re.compile("|".join(re.escape(v) for v, _ in values))
    names = dict(values)
    pieces: list[tuple[str, str]] = []
    last = 0
    for m in pattern.finditer(text):
        if m.start() > last:
            pieces.append(("text", text[last : m.start()]))
        pieces.append(("arg", names[m.group(0)]))
        last = m.end()
    if last < len(text):
        pieces.append(("text", text[last:]))
    return tuple(pieces)


def _recorded_message(recorded: list[TestCase]) -> tuple[str, list[list[str]]] | None:
    """(key, pieces) of the message most successful recorded outputs `{key: text}` share, built from arguments."""
    counts: dict[tuple[str, tuple[tuple[str, str], ...]], int] = {}
    for c in recorded:
        out = c.expect_result
        if c.expect_error or not isinstance(out, dict) or len(out) != 1:
            continue
        key, text = next(iter(out.items()))
        if isinstance(text, str) and text:
            pieces = _message_pieces(text, c.arguments)
            if any(kind == "arg" for kind, _ in pieces):
                counts[(key, pieces)] = counts.get((key, pieces), 0) + 1
    if not counts:
        return None
    (key, pieces), n = max(counts.items(), key=lambda kv: (kv[1], kv[0][0]))
    return (key, [list(p) for p in pieces]) if n >= 2 else None


def learned_variants(spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase]) -> list[ToolPlan]:
    """Plans learned from the recorded calls (none when they show no rule these variants express)."""
    out = []
    key = _recorded_envelope(recorded)
    if key != plan.output_key and plan.kind != "recorded_update":
        out.append(ToolPlan.from_dict({**plan.to_dict(), "output_key": key}))
    message = _recorded_message(recorded)
    if message is not None and plan.kind != "recorded_update":
        out.append(ToolPlan.from_dict({**plan.to_dict(), "output_key": message[0], "output_format": message[1]}))
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
