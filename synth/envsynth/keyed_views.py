"""The key a record is answered with when the state keeps it only as the map key: a charter desk's data holds
{"skippers": {"SK-1": {"name": ...}}}, its docs answer `{"skipper_id": "SK-1", "name": ...}`.

For each collection whose records hold no key field (the state schema names none, `x-key-field`), the name is
`<noun>_id` (`skipper_id` for `skippers`) or a field of another collection's records that references it
(`crew_chief_id` -> skippers); it is used for the tools whose docs show it in their answer: a property of the
answer's schema, a key of an example's result, or a field the description says it returns. Such a tool's answer
then carries the key in each stored record it shows (view_runtime.fg_keyed; two equal records take their keys in
turn); the state keeps the records as they were.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.returns_shape import returned_fields
from synth.spec import ToolSpec
from synth.words import plural, singular


def _shown_names(node: Any, out: set[str], schema: bool) -> set[str]:
    """Property names of a JSON schema (`schema`) or keys of a JSON value, at any depth."""
    if isinstance(node, dict):
        if schema and isinstance(node.get("properties"), dict):
            out.update(node["properties"])
        elif not schema:
            out.update(k for k in node if isinstance(k, str))
        for value in node.values():
            _shown_names(value, out, schema)
    elif isinstance(node, list):
        for value in node:
            _shown_names(value, out, schema)
    return out


def _references(cols: dict[str, Any], target: str) -> list[str]:
    """Fields of other collections' records that name records of `target`."""
    out = []
    for name, col in sorted(cols.items()):
        props = ((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {}
        for field, schema in sorted(props.items()):
            refs = schema.get("x-references") if isinstance(schema, dict) else None
            if name != target and (refs == target or (field.endswith("_id") and plural(field[:-3]) == target)):
                out.append(field)
    return out


def key_names(collection: str, state_schema: dict[str, Any]) -> list[str]:
    """The names a record of `collection` kept without its key may be answered with it under; none when its
    records hold their key."""
    cols = state_schema.get("properties") or {}
    col = cols.get(collection)
    record = (col.get("additionalProperties") or {}) if isinstance(col, dict) else {}
    props = record.get("properties") if isinstance(record, dict) else None
    if not isinstance(props, dict) or not props or "x-key-field" in col:  # a record holding its key
        return []
    names = [f"{singular(collection)}_id"] + _references(cols, collection)
    return [n for n in dict.fromkeys(names) if n not in props]


def view_keys(spec: ToolSpec, state_schema: dict[str, Any]) -> dict[str, str]:
    """{collection: key name} for the collections kept without their key whose key the tool's answer shows."""
    cols = state_schema.get("properties") or {}
    shown = _shown_names(spec.returns or {}, set(), True)
    shown |= _shown_names([e.get("result") for e in spec.examples if isinstance(e, dict)], set(), False)
    words = {one.name for one in returned_fields(spec.description or "")}  # "Returns {skipper_id, name}"
    out: dict[str, str] = {}
    for name in sorted(cols):
        found = [c for c in key_names(name, state_schema) if c in shown or c in words]
        if found:
            out[name] = found[0]
    return out


__all__ = ["key_names", "view_keys"]
