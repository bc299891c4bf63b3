"""Preconditions learned from recorded calls that failed (--traces).

A check is kept when it holds in every successful recorded call and fails in at least one failing call: an
argument that must name an existing entry of the state at a path built from the call's values (a payment method
of the order's user), an argument that must differ from a value of the record (not the method already used), or
the records an argument's ids name must have a true flag (an item that is available). Checks are chosen greedily,
each explaining failing calls the earlier ones leave unexplained. The environment evaluates them with
expr_runtime.fg_check.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.expr_runtime import fg_check, fg_find_by_id, fg_ids, fg_number, fg_scope, fg_value
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_exprs import expressions, operands

Call = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]  # (arguments, record, state)
MAX_DEPTH = 4
MAX_CHECKS = 3


def key_paths(node: Any, value: str, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths of map keys from the state's top down to an entry keyed by `value`."""
    if not isinstance(node, dict) or len(prefix) > MAX_DEPTH:
        return []
    out = [prefix + (value,)] if isinstance(node.get(value), (dict, int, float, str)) and prefix else []
    for key in sorted(node):
        if isinstance(node[key], dict) and key != value:
            out += key_paths(node[key], value, prefix + (key,))
    return out[:8]


def string_paths(value: Any, prefix: tuple[Any, ...] = (), depth: int = 0) -> dict[tuple[Any, ...], str]:
    if depth > MAX_DEPTH:
        return {}
    if isinstance(value, dict):
        return {p: v for k in sorted(value) for p, v in string_paths(value[k], prefix + (k,), depth + 1).items()}
    if isinstance(value, list):
        return {p: v for i, x in enumerate(value) for p, v in string_paths(x, prefix + (i,), depth + 1).items()}
    return {prefix: value} if isinstance(value, str) else {}


def segment_sources(part: str, args: dict[str, Any], record: dict[str, Any]) -> list[dict[str, Any]]:
    """Where a path segment comes from: arguments, then record paths (shortest first), else the constant."""
    found = [{"from": "arg", "name": n} for n in sorted(args) if args[n] == part]
    paths = sorted(string_paths(record).items(), key=lambda kv: (len(kv[0]), str(kv[0])))
    found += [{"from": "record", "path": list(p)} for p, v in paths if v == part]
    return found[:3] or [{"from": "const", "value": part}]


def _candidates(ok: list[Call], key_param: str) -> list[dict[str, Any]]:
    args0, record0, state0 = ok[0]
    out: list[dict[str, Any]] = []
    for name in sorted(args0):
        value = args0[name]
        if name == key_param or not isinstance(value, str):
            continue
        for path in key_paths(state0, value):
            combos: list[list[dict[str, Any]]] = [[]]
            for part in path[1:]:
                combos = [c + [s] for c in combos for s in segment_sources(part, args0, record0)][:16]
            out += [{"op": "exists", "collection": path[0], "path": c} for c in combos if c[-1].get("name") == name]
        for path, text in sorted(string_paths(record0).items(), key=lambda kv: (len(kv[0]), str(kv[0]))):
            out.append(
                {"op": "differs", "a": {"from": "arg", "name": name}, "b": {"from": "record", "path": list(path)}}
            )
    scopes = [["state", k] for k in sorted(state0) if isinstance(state0[k], dict)]
    for name in sorted(args0):
        ids = fg_ids(args0[name])
        if name == key_param or ids is None:
            continue
        for scope in scopes:
            hit = fg_find_by_id(fg_scope(scope, record0, state0), ids[0])
            for field in sorted(k for k, v in (hit or {}).items() if isinstance(v, bool)):
                out.append({"op": "flag", "ids": name, "scope": scope, "field": field})
    return out


def _moved_amounts(node: Any) -> list[dict[str, Any]]:
    """The numbers the plan's effects move (record numbers and expressions), as expressions: tried first."""
    out: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if node.get("from") == "record":
            out.append({"plus": [{"path": node["path"]}]})
        elif node.get("from") == "expr":  # the signed difference both ways, as a cost may be either
            expr = {k: v for k, v in node["expr"].items() if k not in ("digits", "abs")}
            flipped = {k: v for k, v in (("plus", expr.get("minus")), ("minus", expr.get("plus"))) if v}
            out += [e for e in (expr, flipped) if e not in out]
        else:
            for key in sorted(node):
                out += [e for e in _moved_amounts(node[key]) if e not in out]
    elif isinstance(node, list):
        for item in node:
            out += [e for e in _moved_amounts(item) if e not in out]
    return out


def _enough(
    candidates: list[dict[str, Any]], ok: list[Call], bad: list[Call], effects: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """`enough` checks: a number of an entry an `exists` path reaches (in a failing call) against an amount
    computed from the call (an amount the effects move first, then record numbers and differences); none for a
    call whose effects neither move an amount nor record a computed one."""
    moved = _moved_amounts(  # amounts moved, or computed and recorded (a price difference the exchange keeps)
        [e.get("delta") for e in effects if e.get("op") == "adjust"]
        + [e.get("source") for e in effects if e.get("op") == "set" and (e.get("source") or {}).get("from") == "expr"]
    )
    if not moved:
        return []  # a call that moves or computes no amount has none a balance must cover: a check is a coincidence
    amounts = [e for e in expressions(operands([(None, a, r, s) for a, r, s in ok])) if not e.get("abs")][:60]
    amounts = moved + [e for e in amounts if e not in moved]
    out = []
    for check in (c for c in candidates if c["op"] == "exists"):
        fields: set[str] = set()
        for args, record, state in bad:
            node: Any = state.get(check["collection"])
            for source in check["path"]:
                part = fg_value(source, args, record)
                node = node.get(part) if isinstance(node, dict) and isinstance(part, str) else None
            fields.update(k for k, v in (node or {}).items() if fg_number(v)) if isinstance(node, dict) else None
        for field in sorted(fields):
            out += [{**check, "op": "enough", "field": field, "amount": {**e, "digits": 6}} for e in amounts]
    return out


def learn_checks(plan: ToolPlan, recorded: list[TestCase]) -> list[dict[str, Any]]:
    """Checks that every successful call passes, chosen greedily by the failing calls they explain (those the
    plan's preconditions do not)."""
    col, kp = plan.collection, plan.key_param
    if not col or not kp:
        return []

    def calls(failing: bool) -> list[Call]:
        out = []
        for case in recorded:
            record = (case.state.get(col) or {}).get(str(case.arguments.get(kp)))
            if case.expect_error != failing or not isinstance(record, dict):
                continue
            if any(record.get(f) not in allowed for f, allowed in plan.preconditions.items()):
                continue  # a failure the plan's preconditions already explain
            out.append((case.arguments, record, case.state))
        return out

    ok, bad = calls(False), calls(True)
    if not ok or not bad:
        return []
    candidates = _candidates(ok, kp)
    candidates += _enough(candidates, ok, bad, plan.effects)
    valid = [c for c in candidates if all(fg_check(c, a, r, s) for a, r, s in ok)]
    chosen: list[dict[str, Any]] = []
    left = list(range(len(bad)))
    while left and len(chosen) < MAX_CHECKS:
        best, best_hits = None, []
        for check in valid:
            hits = [i for i in left if not fg_check(check, *bad[i])]
            if len(hits) > len(best_hits):
                best, best_hits = check, hits
        if best is None:
            break
        chosen.append(best)
        left = [i for i in left if i not in best_hits]
    return chosen


__all__ = ["key_paths", "learn_checks", "segment_sources", "string_paths"]
