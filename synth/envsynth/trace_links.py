"""Entries a keyed write appends to another record's list, learned from recorded calls (--traces): filling an order
logs "FO-7012; 3 refills remaining" on the prescription the order names, its count as the call left it.

The other record is the one a field of the call's record names (the same field in every call), or else the one an
argument names. Every successful call appends the same number of entries there; each entry field is read like an
entry of the record's own list (trace_learn.item_rule), from the call's arguments and the record as the call left
it, to which the other record's values, also as the call left them, are added: `ref_append` effects, whose sources
the environment reads after the call's other changes.
"""

from __future__ import annotations

from typing import Any, Callable

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.traces import apply_changes, parse_pointer, recorded_changes

LINKED = "\x00linked"  # the key the other record's values are read under while learning
Sample = tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]
Rule = Callable[[list[Sample], str], "dict[str, Any] | None"]


def _appended(case: TestCase, col: str, after: dict[str, Any]) -> dict[tuple[str, str, str], list[Any]]:
    """{(collection, key, list field): the entries the call appended} outside the call's own collection (`after`:
    the state the call left)."""
    out: dict[tuple[str, str, str], list[Any]] = {}
    for row in recorded_changes(case):
        parts = parse_pointer(row["path"])
        if len(parts) < 4 or parts[0] == col or row.get("deleted"):
            continue
        where = (parts[0], parts[1], parts[2])
        if where in out:
            continue
        old = ((case.state.get(parts[0]) or {}).get(parts[1]) or {}).get(parts[2])
        new = ((after.get(parts[0]) or {}).get(parts[1]) or {}).get(parts[2])
        if isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[: len(old)] == old:
            out[where] = new[len(old) :]
    return out


def _link(
    col: str, kp: str, other: str, keys: list[str], calls: list[tuple[TestCase, dict[str, Any]]]
) -> dict[str, str] | None:
    """{"via": field} of the call's record, or {"via_arg": argument}, naming the other record in every call."""
    fields = sorted({f for _, after in calls for f in after})
    for field in fields:
        if all(str(after.get(field)) == key for (_, after), key in zip(calls, keys)):
            return {"via": field}
    args = sorted({a for case, _ in calls for a in case.arguments} - {kp})
    for arg in args:
        if all(str(case.arguments.get(arg)) == key for (case, _), key in zip(calls, keys)):
            return {"via_arg": arg}
    return None


def _read_linked(node: Any, other: str, link: dict[str, str]) -> Any:
    """The learned sources with the other record's values read through the link."""
    if isinstance(node, dict):
        path = node.get("path") or [None]
        if node.get("from") == "record" and path[0] == LINKED and len(path) == 2 and "via" in link:
            return {"from": "linked", "collection": other, "via": link["via"], "field": path[1]}
        return {k: _read_linked(v, other, link) for k, v in node.items()}
    if isinstance(node, list):
        return [_read_linked(v, other, link) for v in node]
    return node


def scalars(record: Any) -> dict[str, Any]:
    """The record's values that are neither lists nor objects."""
    return {k: v for k, v in record.items() if not isinstance(v, (dict, list))} if isinstance(record, dict) else {}


def _mentions(node: Any, word: str) -> bool:
    if isinstance(node, dict):
        return any(_mentions(v, word) for v in node.values())
    if isinstance(node, list):
        return any(_mentions(v, word) for v in node)
    return node == word


def linked_appends(plan: ToolPlan, recorded: list[TestCase], item_rule: Rule) -> list[dict[str, Any]]:
    """`ref_append` effects for the entries every successful call appends to another record's list."""
    col, kp = plan.collection, plan.key_param
    ok = [c for c in recorded if not c.expect_error]
    if not col or not kp or not ok:
        return []
    rows = []
    for case in ok:
        after = apply_changes(case.state, recorded_changes(case))
        record = (after.get(col) or {}).get(str(case.arguments.get(kp)))
        if not isinstance(record, dict):
            return []
        rows.append((case, record, after, _appended(case, col, after)))
    out = []
    for other, _, field in sorted({(o, "", f) for *_, found in rows for o, _, f in found}):
        per_call = [[(k, v) for (o, k, f), v in found.items() if o == other and f == field] for *_, found in rows]
        if any(len(p) != 1 for p in per_call) or len({len(p[0][1]) for p in per_call}) != 1:
            continue  # not one record's list in every call, or not the same number of entries
        keys = [p[0][0] for p in per_call]
        link = _link(col, kp, other, keys, [(case, record) for case, record, _, _ in rows])
        if link is None:
            continue
        rules = []
        for i in range(len(per_call[0][0][1])):
            samples = [
                (entries[0][1][i], case.arguments, {**record, LINKED: scalars(after[other][key])}, case.state)
                for (case, record, after, _), entries, key in zip(rows, per_call, keys)
            ]
            rules.append(item_rule(samples, kp))
        if not rules or any(r is None or "fields" not in r for r in rules):
            continue
        items = _read_linked(rules, other, link)
        if not _mentions(items, LINKED):  # a value of the other record read through an argument: not expressed
            out.append({"op": "ref_append", "collection": other, **link, "field": field, "items": items})
    return out


def linked_sets(plan: ToolPlan, recorded: list[TestCase]) -> list[dict[str, Any]]:
    """`ref_set` effects: a text, flag or null field of another record that every successful call sets to one value,
    the record being the one a field of the call's record (before the call) names in every call. Numbers moved by a
    value of the call are `adjust` effects (trace_learn._adjustments), not these."""
    col, kp = plan.collection, plan.key_param
    ok = [c for c in recorded if not c.expect_error]
    if not col or not kp or not ok:
        return []
    per_call: list[dict[tuple[str, str], tuple[set[str], Any]]] = []
    for case in ok:
        record = (case.state.get(col) or {}).get(str(case.arguments.get(kp)))
        if not isinstance(record, dict):
            return []
        here: dict[tuple[str, str], tuple[set[str], Any]] = {}
        for row in recorded_changes(case):
            parts = parse_pointer(row["path"])
            if len(parts) != 3 or parts[0] == col or row.get("deleted"):
                continue
            new = row.get("value")
            if new is not None and not isinstance(new, (str, bool)):
                continue
            vias = {f for f, v in record.items() if isinstance(v, str) and v == parts[1]}
            here[(parts[0], parts[2])] = (vias, new)
        per_call.append(here)
    out = []
    for other, field in sorted(set.intersection(*(set(h) for h in per_call))):
        vias = set.intersection(*(h[(other, field)][0] for h in per_call))
        values = [h[(other, field)][1] for h in per_call]
        if len(vias) == 1 and all(v == values[0] and type(v) is type(values[0]) for v in values):
            out.append({"op": "ref_set", "collection": other, "via": vias.pop(), "field": field, "value": values[0]})
    return out


__all__ = ["linked_appends", "linked_sets", "scalars"]
