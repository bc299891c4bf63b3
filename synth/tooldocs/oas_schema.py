"""OpenAPI Schema Objects -> plain JSON Schema (Draft 2020-12).

OpenAPI 3.0 schemas are a JSON Schema dialect: `nullable`, boolean `exclusiveMinimum`, a single
`example`, vendor extensions (`x-...`) and `xml`/`discriminator`/`externalDocs` are not JSON Schema.
This module rewrites them; OpenAPI 3.1 schemas (already JSON Schema) pass through nearly unchanged.
"""

from __future__ import annotations

from typing import Any

_DROP = {"discriminator", "xml", "externalDocs", "nullable"}
_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
_SUBSCHEMA_ONE = (
    "additionalProperties",
    "not",
    "contains",
    "propertyNames",
    "if",
    "then",
    "else",
    "unevaluatedProperties",
    "unevaluatedItems",
    "additionalItems",
)
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def to_json_schema(schema: Any) -> Any:
    """A converted copy of an (already `$ref`-inlined) OpenAPI schema."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key.startswith("x-") or key in _DROP:
            continue
        if key == "items":
            if isinstance(value, list):
                out["prefixItems"] = [to_json_schema(v) for v in value]
            else:
                out["items"] = to_json_schema(value)
        elif key in _SUBSCHEMA_ONE:
            out[key] = to_json_schema(value)
        elif key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            out[key] = {k: to_json_schema(v) for k, v in value.items()}
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            out[key] = [to_json_schema(v) for v in value]
        elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
            bound = "minimum" if key == "exclusiveMinimum" else "maximum"
            if value and bound in schema:
                out[key] = schema[bound]
        elif key in ("minimum", "maximum") and schema.get("exclusive" + key.capitalize()) is True:
            continue  # moved into exclusiveMinimum / exclusiveMaximum above
        elif key == "example":
            out.setdefault("examples", [])
            out["examples"] = [value] + [v for v in out["examples"] if v != value]
        elif key == "examples":
            values = list(value.values()) if isinstance(value, dict) else value
            if isinstance(values, list):
                out["examples"] = out.get("examples", []) + [v for v in values if v not in out.get("examples", [])]
        else:
            out[key] = value
    if schema.get("nullable") is True:
        _add_null(out)
    return out


def _add_null(out: dict[str, Any]) -> None:
    kind = out.get("type")
    if isinstance(kind, str):
        out["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        out["type"] = kind + ["null"]
    if isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = out["enum"] + [None]


def flatten_all_of(schema: Any) -> Any:
    """Merge an `allOf` of object schemas into one object schema (properties and required united)."""
    if not isinstance(schema, dict) or not isinstance(schema.get("allOf"), list):
        return schema
    parts = [flatten_all_of(p) for p in schema["allOf"]]
    if not all(isinstance(p, dict) and is_object_schema(p) for p in parts):
        return schema
    merged: dict[str, Any] = {"type": "object", "properties": {}}
    required: list[str] = []
    for part in parts + [{k: v for k, v in schema.items() if k != "allOf"}]:
        merged["properties"].update(part.get("properties", {}))
        required += [r for r in part.get("required", []) if r not in required]
        for key, value in part.items():
            if key not in ("properties", "required", "type"):
                merged.setdefault(key, value)
    if required:
        merged["required"] = required
    return merged


def is_object_schema(schema: Any) -> bool:
    """True for a schema of a JSON object with named properties (type object, or untyped with properties)."""
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    return kind == "object" or (kind is None and ("properties" in schema or "allOf" in schema))


def foldable_properties(schema: Any) -> dict[str, Any] | None:
    """The properties a request body contributes to the tool's parameters, or None if it cannot be folded.

    `readOnly` properties are left out: clients never send them.
    """
    schema = flatten_all_of(schema)
    if not is_object_schema(schema) or not isinstance(schema.get("properties"), dict) or not schema["properties"]:
        return None
    return {k: v for k, v in schema["properties"].items() if not (isinstance(v, dict) and v.get("readOnly") is True)}
