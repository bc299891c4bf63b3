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
from synth.envsynth.traces import apply_changes, recorded_changes

MIN_RECORDINGS = 2
Call = tuple[dict[str, Any], dict[str, Any], dict[str, Any], dict[str, Any]]  # answer, args, before, after


def _calls(collection: str, key_param: str, recorded: list[TestCase]) -> list[Call] | None:
    out = []
    for case in recorded:
        if case.expect_error:
            continue
        key = str(case.arguments.get(key_param))
        before = (case.state.get(collection) or {}).get(key)
        after = (apply_changes(case.state, recorded_changes(case)).get(collection) or {}).get(key)
        if not isinstance(case.expect_result, dict) or not isinstance(before, dict) or not isinstance(after, dict):
            return None
        out.append((case.expect_result, case.arguments, before, after))
    return out


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def _reading(name: str, calls: list[Call], key_param: str) -> dict[str, Any] | None:
    """None for the record's own field as the call left it, else the output_map rule giving `name`; raises
    LookupError when nothing gives it in every call."""
    if all(name in after and _same(after[name], answer[name]) for answer, _, _, after in calls):
        return None
    args = sorted({a for _, args, _, _ in calls for a in args} - {key_param})
    for arg in args:
        if all(arg in args_ and _same(args_[arg], answer[name]) for answer, args_, _, _ in calls):
            return {"op": "arg", "name": arg}
    fields = sorted({f for _, _, before, _ in calls for f in before})
    for field in sorted(fields, key=lambda f: (f != name, f)):
        if all(field in before and _same(before[field], answer[name]) for answer, _, before, _ in calls):
            return {"op": "before", "path": [field]}
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
    for name in keys:
        try:
            rule = _reading(name, calls, key_param)
        except LookupError:
            return None
        if rule is not None:
            mapped[name] = rule
    if not mapped and all(sorted(keys) == sorted(after) for _, _, _, after in calls):
        return None  # the whole record, as a write answers by default
    return keys, mapped


__all__ = ["answered_write"]
