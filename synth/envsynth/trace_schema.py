"""A record field the sample data holds only as null but recorded calls fill (a `settled` object a cleared tab
gets, a `closed_on` date): the state schema types it by what the calls wrote, or null, so the learned change is not
refused as breaking the schema. Only fields typed `null` alone are widened; every other type stays the data's.
"""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.traces import TraceCall, counts_from_zero, parse_pointer

JSON_TYPES = ((bool, "boolean"), (int, "number"), (float, "number"), (str, "string"), (list, "array"), (dict, "object"))


def _kind(value: Any) -> str | None:
    return next((name for py, name in JSON_TYPES if isinstance(value, py)), None)


def written_kinds(calls: list[TraceCall]) -> dict[tuple[str, str], set[str]]:
    """(collection, field) -> the JSON types recorded changes wrote there (a change below the field: an object or
    array, by the key's shape)."""
    out: dict[tuple[str, str], set[str]] = {}
    for call in calls:
        below: dict[tuple[str, str, str], set[str]] = {}  # the keys written below a field of one record
        for change in call.changes:
            parts = parse_pointer(change.get("path", ""))
            if len(parts) < 3 or change.get("deleted"):
                continue
            if len(parts) == 3:
                kind = _kind(change.get("value"))
                if kind:
                    out.setdefault((parts[0], parts[2]), set()).add(kind)
            else:
                below.setdefault((parts[0], parts[1], parts[2]), set()).add(parts[3])
        for (col, _, field), keys in below.items():  # a list from its first index on, as apply_changes builds it
            out.setdefault((col, field), set()).add("array" if counts_from_zero(keys) else "object")
    return out


def widened_schema(state_schema: dict[str, Any], calls: list[TraceCall]) -> tuple[dict[str, Any], list[str]]:
    """(a copy of the schema with null-only fields the calls filled typed by what they wrote, one note per field)."""
    notes = []
    state_schema = copy.deepcopy(state_schema)
    cols = state_schema.get("properties") or {}
    for (col, field), kinds in sorted(written_kinds(calls).items()):
        record = (cols.get(col) or {}).get("additionalProperties") if isinstance(cols.get(col), dict) else None
        props = record.get("properties") if isinstance(record, dict) else None
        sub = props.get(field) if isinstance(props, dict) else None
        if not isinstance(sub, dict) or sub.get("type") != "null" or len(kinds) != 1:
            continue
        sub["type"] = [next(iter(kinds)), "null"]
        notes.append(f"{col}.{field}: null in every record of the data; typed {sub['type'][0]} or null by the traces")
    return state_schema, notes


__all__ = ["widened_schema", "written_kinds"]
