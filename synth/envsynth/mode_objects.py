"""What one value of a mode parameter writes, read off the sample records that value already shaped.

A `by_mode` change (mode_rules.py) such as "settle a charter by `card`, `account` or `voucher`" often keeps the
mode inside an object of the record (`settlement: {"method": "card", "taken": 120.0, "owed": 0.0}`) and logs a
text that differs per mode ("Taken 120.00 by card", "Owed 120.00 on account"). The docs rarely spell either out;
the data shows both, once its records are split by the mode:

- `mode_path`: the one place of the records (a field, or a key of an object field) whose values, in two records
  or more, are all values of the parameter, at least two of them;
- `mode_object`: for a value, the records already in the state the change moves to whose mode place holds that
  value; when the object holding the mode is a field no effect of the change sets, it is written whole: the mode
  key holds the argument, each other key the record's own field that equals it in every such record (a figure
  that varies, or one value that is neither zero nor empty: `taken` is the charter's `total`), else the one value
  they all hold (`owed`: 0.0). A key neither explains leaves the object unwritten;
- `mode_records`: the records of one value, which the entries the change logs are learned from (docs_entries),
  so a text written one way per mode is learned per mode.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.expr_runtime import fg_dig

Path = tuple[str, ...]


def mode_path(records: list[dict[str, Any]], values: list[str]) -> Path | None:
    """The one field or object key whose values are all among `values` (two records and two values at least)."""
    found = []
    candidates: set[Path] = set()
    for record in records:
        for name, value in record.items():
            if isinstance(value, str):
                candidates.add((name,))
            elif isinstance(value, dict):
                candidates.update((name, key) for key, sub in value.items() if isinstance(sub, str))
    for path in sorted(candidates):
        held = [fg_dig(r, path) for r in records]
        held = [v for v in held if v is not None]
        if len(held) >= 2 and len(set(held)) >= 2 and all(v in values for v in held):
            found.append(path)
    return found[0] if len(found) == 1 else None


def mode_records(records: list[dict[str, Any]], path: Path, value: str) -> list[dict[str, Any]]:
    """The records whose mode place holds `value`."""
    return [r for r in records if fg_dig(r, path) == value]


def _empty(value: Any) -> bool:
    return value in (None, "", 0, False) or value == []


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return round(float(a), 6) == round(float(b), 6)
    return type(a) is type(b) and a == b


def _key_source(done: list[dict[str, Any]], obj: str, key: str) -> dict[str, Any] | None:
    """The source of one key of the object: the record's field it equals throughout, else its one value."""
    held = [(r.get(obj) or {}).get(key) for r in done]
    varies = len({repr(v) for v in held}) > 1
    fields = [
        name
        for name, value in sorted(done[0].items())
        if name != obj
        and isinstance(value, (int, float, str))
        and not isinstance(value, bool)
        and all(_same(r.get(name), v) for r, v in zip(done, held))
    ]
    if (varies or not _empty(held[0])) and len(fields) == 1:
        return {"from": "record", "path": [fields[0]]}
    if not _empty(held[0]) and fields:  # two fields explain it alike: neither is known to be the one
        return None
    if not varies:
        return {"from": "const", "value": held[0]}
    return None


def mode_object(
    records: list[dict[str, Any]],
    path: Path,
    param: str,
    value: str,
    sets: dict[str, Any],
    taken: set[str],
) -> dict[str, Any] | None:
    """A `set` effect writing the object that holds the mode, as the records already in the new state show it
    for this value; None when the mode is no object's key, the change writes the object already, or a key of it
    is explained by nothing."""
    if len(path) != 2 or path[0] in taken or not sets:
        return None
    obj, mode_key = path
    done = [
        r
        for r in mode_records(records, path, value)
        if all(r.get(f) == v for f, v in sets.items()) and isinstance(r.get(obj), dict)
    ]
    if not done:
        return None
    keys = list(dict.fromkeys(k for r in done for k in r[obj]))
    if any(set(r[obj]) != set(keys) for r in done):
        return None
    fields: dict[str, Any] = {}
    for key in keys:
        source = {"from": "arg", "name": param} if key == mode_key else _key_source(done, obj, key)
        if source is None:
            return None
        fields[key] = source
    return {"op": "set", "field": obj, "source": {"from": "object", "fields": fields, "nulls": True}}


__all__ = ["mode_object", "mode_path", "mode_records"]
