"""BFCL (Berkeley Function-Calling Leaderboard) function docs: Python-flavoured type names -> JSON Schema."""

from __future__ import annotations

from typing import Any

from synth.errors import InputError
from synth.spec import ToolSource, ToolSpec
from synth.tooldocs.refs import join
from synth.tooldocs.validate import check_description, check_name, check_schema, normalize_parameters

# BFCL (and Python) type names -> JSON Schema type; None means "any JSON value" (no type keyword).
BFCL_TYPES: dict[str, str | None] = {
    "dict": "object",
    "object": "object",
    "float": "number",
    "number": "number",
    "integer": "integer",
    "int": "integer",
    "boolean": "boolean",
    "bool": "boolean",
    "string": "string",
    "str": "string",
    "array": "array",
    "list": "array",
    "tuple": "array",
    "null": "null",
    "any": None,
}

_SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions")
_SUBSCHEMA_ONE = ("additionalProperties", "not", "contains", "propertyNames", "if", "then", "else")
_SUBSCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")


def bfcl_to_json_schema(schema: Any, path: str, loc: str) -> Any:
    """Copy of a BFCL schema with its type names mapped to JSON Schema (idempotent on JSON Schema)."""
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        here = join(loc, key)
        if key == "type":
            mapped = _map_type(value, path, here)
            if mapped is not None:
                out["type"] = mapped
        elif key == "items" and isinstance(value, list):  # tuple items
            out["prefixItems"] = [bfcl_to_json_schema(v, path, join(here, i)) for i, v in enumerate(value)]
        elif key == "items" or key in _SUBSCHEMA_ONE:
            out[key] = bfcl_to_json_schema(value, path, here)
        elif key in _SUBSCHEMA_MAPS and isinstance(value, dict):
            out[key] = {k: bfcl_to_json_schema(v, path, join(here, k)) for k, v in value.items()}
        elif key in _SUBSCHEMA_LISTS and isinstance(value, list):
            out[key] = [bfcl_to_json_schema(v, path, join(here, i)) for i, v in enumerate(value)]
        elif key == "optional":
            continue  # BFCL marker; optionality is expressed by `required`
        else:
            out[key] = value
    return out


def _map_type(value: Any, path: str, loc: str) -> Any:
    if isinstance(value, list):
        mapped = [_map_type(v, path, join(loc, i)) for i, v in enumerate(value)]
        return None if None in mapped else list(dict.fromkeys(mapped))
    if not isinstance(value, str) or value not in BFCL_TYPES:
        raise InputError(path, loc, f"unknown BFCL type {value!r} (known: {', '.join(sorted(BFCL_TYPES))})")
    return BFCL_TYPES[value]


def looks_like_bfcl(data: Any) -> bool:
    """A list of bare function docs whose parameters use BFCL's `dict` type, or that carry a `response`."""
    if not isinstance(data, list) or not data:
        return False
    for item in data:
        if isinstance(item, dict) and "function" not in item and "type" not in item:
            params = item.get("parameters")
            if isinstance(params, dict) and params.get("type") == "dict":
                return True
            if "response" in item and "inputSchema" not in item:
                return True
    return False


def load_bfcl(data: Any, path: str) -> list[ToolSpec]:
    """ToolSpecs from a BFCL function-doc list (JSON list or JSON lines)."""
    items = data if isinstance(data, list) else [data]
    tools = []
    for i, item in enumerate(items):
        loc = join("", i)
        if not isinstance(item, dict):
            raise InputError(path, loc, f"expected a function doc object, got {type(item).__name__}")
        name = check_name(item.get("name"), path, join(loc, "name"))
        description = check_description(item.get("description"), path, join(loc, "description"))
        params_loc = join(loc, "parameters")
        raw = item.get("parameters")
        if raw is not None and not isinstance(raw, dict):
            raise InputError(path, params_loc, f"parameters must be a JSON Schema object, got {type(raw).__name__}")
        parameters = normalize_parameters(bfcl_to_json_schema(raw, path, params_loc), path, params_loc)
        returns = None
        if item.get("response") is not None:
            returns = bfcl_to_json_schema(item["response"], path, join(loc, "response"))
            check_schema(returns, path, join(loc, "response"), "response")
        tools.append(
            ToolSpec(
                name=name,
                description=description,
                parameters=parameters,
                returns=returns,
                mutates=None,
                source=ToolSource(file=path, format="bfcl", pointer=loc),
            )
        )
    return tools
