"""What a keyed write answers, learned from recorded calls (--traces): the fields of the record as the call left
it, an argument answered back, a field of the record as the call found it (`refills_transferred`: the count the
call moved before it dropped to 0), or one value every call answers (`transferred_on`: the business date).

Every successful recorded answer must be an object with the same keys, two recordings at least, and each key must
have one reading that gives it in every recording; the record after the call is tried first, then an argument,
then the record before, then a constant.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_outputs import _difference
from synth.envsynth.traces import apply_changes, recorded_changes
from synth.envsynth.traces import same_value as _same

MIN_RECORDINGS = 2
MISSING = object()
# answer, args, the record before, the record after, the whole state after
Call = tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]


def _calls(collection: str, key_param: str, recorded: list[TestCase]) -> list[Call] | None:
    out = []
    for case in recorded:
        if case.expect_error:
            continue
        key = str(case.arguments.get(key_param))
        before = (case.state.get(collection) or {}).get(key)
        state = apply_changes(case.state, recorded_changes(case))
        after = (state.get(collection) or {}).get(key)
        if not isinstance(case.expect_result, dict) or not isinstance(before, dict) or not isinstance(after, dict):
            return None
        out.append((case.expect_result, case.arguments, before, after, state))
    return out


def _last_entry(record: dict[str, Any], path: tuple[str, str]) -> Any:
    entries = record.get(path[0])
    last = entries[-1] if isinstance(entries, list) and entries else None
    return last.get(path[1], MISSING) if isinstance(last, dict) else MISSING


def _grown_lists(calls: list[Call]) -> list[str]:
    """The list fields every call grew by one entry."""
    return [
        f
        for f in sorted(calls[0][3])
        if all(isinstance(a.get(f), list) and len(a[f]) == len(b.get(f) or []) + 1 for _, _, b, a, _ in calls)
    ]


def _last_entry_paths(name: str, calls: list[Call]) -> list[tuple[str, str]]:
    """(list, field) of the lists every call grew by one entry, the entry's field of the answer's name first."""
    after = calls[0][3]
    grown = [f for f in _grown_lists(calls) if all(isinstance(a[f][-1], dict) for _, _, _, a, _ in calls)]
    paths = [(f, k) for f in grown for k in sorted(after[f][-1])]
    return sorted(paths, key=lambda p: (p[1] != name, p))


def _nested_paths(name: str, after: dict[str, Any]) -> list[tuple[str, str]]:
    """(object field, key) of the record's objects, the key of the answer's name first."""
    paths = [(f, k) for f, v in sorted(after.items()) if isinstance(v, dict) for k in sorted(v)]
    return sorted(paths, key=lambda p: (p[1] != name, p))


def _nested(record: dict[str, Any], path: tuple[str, str]) -> Any:
    held = record.get(path[0])
    return held.get(path[1], MISSING) if isinstance(held, dict) else MISSING


def _links(after: dict[str, Any], state: dict[str, Any]) -> list[tuple[str, str]]:
    """(field, collection) of the record's fields naming a record of another collection."""
    return [
        (f, c)
        for f, v in sorted(after.items())
        if isinstance(v, str)
        for c, held in sorted(state.items())
        if isinstance(held, dict) and isinstance(held.get(v), dict)
    ]


def _linked(state: dict[str, Any], after: dict[str, Any], via: str, collection: str, field: str) -> Any:
    held = (state.get(collection) or {}).get(str(after.get(via)))
    return held.get(field, MISSING) if isinstance(held, dict) else MISSING


def changed_keys(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[str]]:
    """{collection: the sorted keys of its records the call added or changed} for each collection it touched."""
    out = {}
    for name, held in sorted(after.items()):
        was = before.get(name)
        if isinstance(held, dict) and isinstance(was, dict):
            moved = sorted(str(k) for k, r in held.items() if not _same(r, was.get(k)))
            if moved:
                out[name] = moved
    return out


def _moved_keys(name: str, calls: list[Call], moved: list[dict[str, list[str]]], own: str) -> dict | None:
    """The keys of another collection's records the call changed, in every recorded answer of `name` (the lines a
    payment restored), when one call at least changed some: else None."""
    answers = [answer[name] for answer, *_ in calls]
    if not all(isinstance(a, list) for a in answers) or not any(answers):
        return None
    touched = sorted({c for m in moved for c in m} - {own})
    for other in touched:
        if all(_same(sorted(str(k) for k in a), m.get(other, [])) for a, m in zip(answers, moved)):
            return {"op": "changed_keys", "collection": other}
    return None


def _reading(
    name: str, calls: list[Call], key_param: str, moved: list[dict[str, list[str]]] | None = None, own: str = ""
) -> dict[str, Any] | None:
    """None for the record's own field as the call left it, else the output_map rule giving `name`; raises
    LookupError when nothing gives it in every call. `moved`: each call's changed keys by collection."""
    if all(name in after and _same(after[name], answer[name]) for answer, _, _, after, _ in calls):
        return None
    args = sorted({a for _, args, *_ in calls for a in args} - {key_param}) + [key_param]  # the key: last
    for arg in args:
        if all(arg in args_ and _same(args_[arg], answer[name]) for answer, args_, *_ in calls):
            return {"op": "arg", "name": arg}
    varied = len({repr(answer[name]) for answer, *_ in calls}) > 1  # else read off a key of its own name only
    for path in _last_entry_paths(name, calls):  # a field of the entry the call appended (its new reference)
        if (varied or path[1] == name) and all(
            _same(_last_entry(after, path), answer[name]) for answer, _, _, after, _ in calls
        ):
            return {"op": "end_entry", "path": list(path), "last": True}
    for path in _nested_paths(name, calls[0][3]):  # a key of an object the record holds (a settlement's id)
        if (varied or path[1] == name) and all(
            _same(_nested(after, path), answer[name]) for answer, _, _, after, _ in calls
        ):
            return {"op": "nested", "path": list(path)}
    for field in _grown_lists(calls):  # the entry the call appended, whole (the payment it took)
        if all(_same((after.get(field) or [None])[-1], answer[name]) for answer, _, _, after, _ in calls):
            return {"op": "last_entry", "path": [field]}
    words = set(name.split("_"))
    for field in sorted(calls[0][3]):  # a field of its own under another name (`status` as `tab_status`)
        if field != name and words & set(field.split("_")) and varied:
            if all(_same(after.get(field, MISSING), answer[name]) for answer, _, _, after, _ in calls):
                return {"op": "renamed", "path": [field]}
    calc = _difference(name, [(after, answer, state) for answer, _, _, after, state in calls])
    if calc is not None:  # one of its numbers less another, as the call left them (what is still owed)
        return calc
    fields = sorted({f for _, _, before, _, _ in calls for f in before})
    for field in sorted(fields, key=lambda f: (f != name, f)):
        if all(field in before and _same(before[field], answer[name]) for answer, _, before, _, _ in calls):
            return {"op": "before", "path": [field]}
    for via, other in _links(calls[0][3], calls[0][4]):  # the record it links, as the call left it (a balance)
        if all(_same(_linked(state, after, via, other, name), answer[name]) for answer, _, _, after, state in calls):
            return {"op": "eq", "collection": other, "via": via, "path": [name]}
    found = _moved_keys(name, calls, moved, own) if moved is not None else None
    if found is not None:
        return found
    first = calls[0][0][name]
    if all(_same(answer[name], first) for answer, *_ in calls) and not isinstance(first, (dict, list)):
        return {"op": "const", "value": first}
    raise LookupError(name)


def answered_write(collection: str | None, key_param: str | None, recorded: list[TestCase]):
    """(output_fields, output_map) of the recorded answers of a keyed write, or None when they show no such rule
    or answer the whole record as the call left it."""
    if not collection or not key_param:
        return None
    calls = _calls(collection, key_param, recorded)
    if not calls or len(calls) < MIN_RECORDINGS:
        return None
    keys = list(calls[0][0])
    if not keys or any(sorted(answer) != sorted(keys) for answer, *_ in calls):
        return None
    mapped: dict[str, dict[str, Any]] = {}
    moved = [changed_keys(c.state, apply_changes(c.state, recorded_changes(c))) for c in recorded if not c.expect_error]
    for name in keys:
        try:
            rule = _reading(name, calls, key_param, moved, collection)
        except LookupError:
            return None
        if rule is not None:
            mapped[name] = rule
    if not mapped and all(sorted(keys) == sorted(after) for _, _, _, after, _ in calls):
        return None  # the whole record, as a write answers by default
    return keys, mapped


__all__ = ["answered_write", "changed_keys"]
