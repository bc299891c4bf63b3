"""Answer fields a response schema lists that the record keeps in another form (envelope.projection):

- a list of objects whose properties are all fields of another collection (`berths: [{berth_id, pier, status}]`):
  the records the record lists by id (its `berth_ids`, or a list field whose items reference that collection), else
  those whose one reference names it, cut to those fields (`rows`, summary_rows.rows_code);
- a text the record keeps in parts (`name` from `first_name` and `last_name`, in the record's order, joined by a
  space: `own_join`);
- a yes/no saying whether the record holds a value (`permit_on_file`, `has_permit`: the `permit` field set, not
  null or empty: `is_set`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.returns_shape import answer_schema
from synth.spec import ToolSpec, record_props
from synth.words import plural, singular

SET_FLAG = re.compile(r"^(?:has_(?P<a>\w+)|(?P<b>\w+?)_(?:on_file|given|set|present|provided))$")


def listed_schema(spec: ToolSpec, name: str) -> dict[str, Any]:
    """The schema the response gives the field `name`: a property of the answered record, or of the records of
    its one list property (an envelope's rows); {} when it gives none."""
    top = answer_schema(spec)
    props = top.get("properties") if isinstance(top.get("properties"), dict) else {}
    if isinstance(props.get(name), dict):
        return props[name]
    lists = [s for s in props.values() if isinstance(s, dict) and s.get("type") == "array"]
    rows = (lists[0].get("items") or {}).get("properties") if len(lists) == 1 else None
    held = (rows or {}).get(name) if isinstance(rows, dict) else None
    return held if isinstance(held, dict) else {}


def _rows(name: str, schema: dict[str, Any], collection: str, cols: dict[str, Any]) -> dict[str, Any] | None:
    items = schema.get("items") if schema.get("type") == "array" else None
    fields = list((items or {}).get("properties") or {}) if isinstance(items, dict) else []
    target = name if name in cols else plural(singular(name.lower()))
    theirs = record_props(cols, target)
    if len(fields) < 2 or target == collection or not theirs or not all(f in theirs for f in fields):
        return None
    own = record_props(cols, collection)
    lists = [
        f
        for f, s in sorted(own.items())
        if isinstance(s, dict)
        and s.get("type") == "array"
        and (
            f == f"{singular(target)}_ids"
            or (isinstance(s.get("items"), dict) and s["items"].get("x-references") == target)
        )
    ]
    if len(lists) == 1:
        return {"op": "rows", "collection": target, "list": lists[0], "fields": fields}
    refs = [f for f, s in sorted(theirs.items()) if isinstance(s, dict) and s.get("x-references") == collection]
    if len(refs) == 1 and not lists:
        return {"op": "rows", "collection": target, "ref": refs[0], "fields": fields}
    return None


def _joined(name: str, schema: dict[str, Any], own: dict[str, Any]) -> dict[str, Any] | None:
    if schema.get("type") not in (None, "string") or name in own:
        return None
    parts = [f for f in own if f.endswith(f"_{name}") and (own[f] or {}).get("type") in (None, "string")]
    return {"op": "own_join", "paths": parts, "sep": " "} if len(parts) >= 2 else None


def _set_flag(name: str, schema: dict[str, Any], own: dict[str, Any]) -> dict[str, Any] | None:
    found = SET_FLAG.match(name)
    held = (found.group("a") or found.group("b")) if found else None
    if held not in own or schema.get("type") not in (None, "boolean"):
        return None
    return {"op": "is_set", "path": [held]}


def schema_reading(
    name: str, spec: ToolSpec, own: dict[str, Any], cols: dict[str, Any], collection: str
) -> dict[str, Any] | None:
    """The `output_map` rule of a listed answer field the record keeps in another form, or None."""
    schema = listed_schema(spec, name)
    if not schema:
        return None
    return _rows(name, schema, collection, cols) or _joined(name, schema, own) or _set_flag(name, schema, own)


__all__ = ["listed_schema", "schema_reading"]
