"""The fields a read answers, learned from recorded calls: which of the record's fields each answer holds, and the
fields it adds from a record the record links (a berth's answer carrying its pier's `depth`: the pier its
`pier_code` names), one stored number minus another (`free_berths` = `berths - moored`), or a value of the
record's own objects and lists (`total` of its `fare` object, `crew` as the number of its `crew` entries). Every
successful recorded answer must show the same fields, and an added field must equal the same field of the same
linked record in every one of them (two recordings at least), so one coincidence is no rule.

A `get` answers one record; a list read answers records, each matched to the stored one by its key.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.traces import same_value as _same_value

MIN_RECORDINGS = 2


def _pairs(plan: ToolPlan, case: TestCase) -> list[tuple[dict[str, Any], dict[str, Any]]] | None:
    """(stored record, answered record) for one recorded call; None when an answer matches no stored record."""
    records = case.state.get(plan.collection or "")
    if not isinstance(records, dict):
        return None
    out = case.expect_result
    if plan.kind == "get" and isinstance(out, dict):
        found = records.get(str(case.arguments.get(plan.key_param or "")))
        return [(found, out)] if isinstance(found, dict) else None
    if plan.kind in ("filter", "list", "search") and isinstance(out, list) and plan.key_field:
        pairs = []
        for item in out:
            found = records.get(str(item.get(plan.key_field))) if isinstance(item, dict) else None
            if not isinstance(found, dict):
                return None
            pairs.append((found, item))
        return pairs
    return None


def _links(record: dict[str, Any], own: str, state: dict[str, Any], value: Any) -> set[tuple[str, str, str]]:
    """(via, collection, field): the record's fields that name a record of another collection holding `value`."""
    found = set()
    for via, key in record.items():
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            continue
        for other, records in state.items():
            linked = records.get(str(key)) if other != own and isinstance(records, dict) else None
            for field, held in (linked or {}).items() if isinstance(linked, dict) else ():
                if held == value and type(held) is type(value):
                    found.add((via, other, field))
    return found


def _naming(state: dict[str, Any], other: str, ref: str, key: Any) -> dict[str, dict[str, Any]]:
    records = state.get(other)
    if not isinstance(records, dict):
        return {}
    return {k: r for k, r in records.items() if isinstance(r, dict) and key is not None and str(r.get(ref)) == str(key)}


def _id_lists(plan: ToolPlan, name: str, pairs: list[tuple[dict, dict, dict]]) -> dict[str, Any] | None:
    """An `ids` rule when every answer's `name` is the sorted keys of another collection's records that name the
    record by one field, all of them or those whose one closed field holds the values the answered ones hold."""
    if not plan.key_field or not all(isinstance(a.get(name), list) for _, a, _ in pairs):
        return None
    if not all(isinstance(x, (str, int)) and not isinstance(x, bool) for _, a, _ in pairs for x in a[name]):
        return None  # a list of objects or other values: not keys
    if not any(a[name] for _, a, _ in pairs):
        return None  # always empty: nothing shows where the ids come from
    stored0, _, state0 = pairs[0]
    for other in sorted(state0):
        if other == plan.collection or not isinstance(state0.get(other), dict):
            continue
        refs = sorted({f for r in state0[other].values() if isinstance(r, dict) for f in r})
        for ref in refs:
            groups = [(_naming(s, other, ref, st.get(plan.key_field)), a[name]) for st, a, s in pairs]
            if any(list(ans) != sorted(ans) or not set(ans) <= set(named) for named, ans in groups):
                continue
            if all(sorted(named) == ans for named, ans in groups):
                return {"op": "ids", "collection": other, "ref": ref}
            where = _where(groups)
            if where is not None:
                return {"op": "ids", "collection": other, "ref": ref, "where": where}
    return None


def _where(groups: list[tuple[dict[str, dict[str, Any]], list[Any]]]) -> dict[str, list[Any]] | None:
    """{field: values} the field of the records that splits the answered from the left-out ones in every group
    with the fewest values (a state, rather than a date that happens to split them)."""
    found = []
    for field in sorted({f for named, _ in groups for r in named.values() for f in r}):
        kept = [r.get(field) for named, ans in groups for k, r in named.items() if k in ans]
        dropped = [r.get(field) for named, ans in groups for k, r in named.items() if k not in ans]
        plain = all(isinstance(v, (str, int)) and not isinstance(v, bool) for v in kept)
        if kept and dropped and plain and not {repr(v) for v in kept} & {repr(v) for v in dropped}:
            found.append((len(set(kept)), field, sorted(set(kept), key=repr)))
    if not found:
        return None
    _, field, values = min(found, key=lambda f: (f[0], f[1]))
    return {field: values}


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _difference(name: str, pairs: list[tuple[dict, dict, dict]]) -> dict[str, Any] | None:
    """An answered number that is one stored number minus another in every recorded answer (`free = places -
    taken`), when exactly one pair of the record's numbers gives it and the answers do not all agree on one value
    (a constant is no rule); else None."""
    answers = [answer.get(name) for _, answer, _ in pairs]
    if not all(_number(a) for a in answers) or len(set(answers)) < 2:
        return None
    first = pairs[0][0]
    numbers = sorted(f for f, v in first.items() if _number(v) and f != name)
    fits = [
        (a, b)
        for a in numbers
        for b in numbers
        if a != b
        and all(
            _number(stored.get(a)) and _number(stored.get(b)) and abs(stored[a] - stored[b] - answer[name]) < 1e-9
            for stored, answer, _ in pairs
        )
    ]
    if len(fits) != 1:
        return None
    return {"op": "calc", "left": fits[0][0], "operator": "-", "right": fits[0][1], "floor": None}


def _own_reading(name: str, pairs: list[tuple[dict, dict, dict]]) -> dict[str, Any] | None:
    """An answered value read off one of the record's own objects or lists in every recorded answer: a key of an
    object (`total` of `fare`), a list's length, or a number summed over a list's objects (`guests`: the sum of
    their `persons`). A count must vary across the answers or carry the list's own name."""
    stored0 = pairs[0][0]
    answers = [answer.get(name) for _, answer, _ in pairs]
    varied = len({repr(a) for a in answers}) > 1
    words = set(name.split("_"))
    for holder in sorted(stored0, key=lambda f: (f != name, f)):
        if isinstance(stored0[holder], dict):
            for key in sorted(stored0[holder], key=lambda k: (k != name, k)):
                if not varied and key != name and key not in words:
                    continue  # one value every answer holds, read off a key it is not named for: a coincidence
                if all(_same_value(_key_of(stored.get(holder), key), a) for (stored, _, _), a in zip(pairs, answers)):
                    return {"op": "nested", "path": [holder, key]}
    if not all(_number(a) for a in answers) or (len(set(answers)) < 2 and name not in stored0):
        return None
    lists = sorted((f for f, v in stored0.items() if isinstance(v, list)), key=lambda f: (f != name, f))
    for holder in lists:
        if all(
            isinstance(stored.get(holder), list) and len(stored[holder]) == a
            for (stored, _, _), a in zip(pairs, answers)
        ):
            return {"op": "len", "path": [holder]}
        keys = sorted({k for e in stored0[holder] if isinstance(e, dict) for k, v in e.items() if _number(v)})
        for key in keys:
            if all(_summed(stored.get(holder), key) == a for (stored, _, _), a in zip(pairs, answers)):
                return {"op": "sum", "path": [holder, key]}
    return None


def _key_of(held: Any, key: str) -> Any:
    return held.get(key) if isinstance(held, dict) else None


def _summed(entries: Any, key: str) -> Any:
    if not isinstance(entries, list):
        return None
    return sum(e[key] for e in entries if isinstance(e, dict) and _number(e.get(key)))


def answered_fields(plan: ToolPlan, recorded: list[TestCase]) -> ToolPlan | None:
    """The plan answering the fields the recorded answers hold (some from linked records), or None when they
    show no such rule or the plan answers them already."""
    if plan.kind not in ("get", "filter", "list", "search") or not plan.collection or plan.output_key:
        return None
    pairs, calls = [], 0
    for case in recorded:
        if case.expect_error or case.expect_result is None:
            continue
        found = _pairs(plan, case)
        if found is None:
            return None
        calls += 1
        pairs += [(stored, answer, case.state) for stored, answer in found]
    if calls < MIN_RECORDINGS or len(pairs) < MIN_RECORDINGS:
        return None
    shown = [list(answer) for _, answer, _ in pairs]
    if any(set(keys) != set(shown[0]) for keys in shown):
        return None
    mapped: dict[str, Any] = {}
    for name in shown[0]:
        if all(name in stored and stored[name] == answer[name] for stored, answer, _ in pairs):
            continue  # the record's own field, as stored
        ids = _id_lists(plan, name, pairs)
        if ids is not None:
            mapped[name] = ids
            continue
        calc = _difference(name, pairs) or _own_reading(name, pairs)
        if calc is not None:
            mapped[name] = calc
            continue
        common: set[tuple[str, str, str]] | None = None
        for stored, answer, state in pairs:
            links = _links(stored, plan.collection, state, answer[name])
            common = links if common is None else common & links
        if not common:
            return None
        via, other, field = sorted(common, key=lambda t: (t[2] != name, t))[0]
        mapped[name] = {"op": "eq", "via": via, "collection": other, "path": [field]}
    stored_fields = {f for stored, _, _ in pairs for f in stored}
    if not mapped and set(shown[0]) >= stored_fields:
        return None  # the whole record, as the plan already answers
    evidence = plan.evidence + ["answered fields learned from recorded calls"]
    return ToolPlan.from_dict({**plan.to_dict(), "output_fields": shown[0], "output_map": mapped, "evidence": evidence})


__all__ = ["answered_fields"]
