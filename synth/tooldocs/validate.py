"""Checks every loader applies: tool names, parameter schemas (JSON Schema meta-schema), uniqueness."""

from __future__ import annotations

import json
import re
from typing import Any, Iterable

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError
from jsonschema.validators import validator_for

from synth.errors import InputError
from synth.spec import ToolSpec
from synth.tooldocs.refs import check_local_refs, join

NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


def check_name(name: Any, path: str, loc: str) -> str:
    """A tool name must be a non-empty string of [A-Za-z0-9_.-]."""
    if name is None or name == "":
        raise InputError(path, loc, "missing tool name")
    if not isinstance(name, str):
        raise InputError(path, loc, f"tool name must be a string, got {type(name).__name__}")
    if not NAME_RE.match(name):
        raise InputError(
            path, loc, f"invalid tool name {name!r}: use only letters, digits, '_', '.', '-' (at most 128)"
        )
    return name


def check_description(text: Any, path: str, loc: str) -> str:
    """Descriptions are optional strings."""
    if text is None:
        return ""
    if not isinstance(text, str):
        raise InputError(path, loc, f"description must be a string, got {type(text).__name__}")
    return text.strip()


def check_schema(schema: Any, path: str, loc: str, what: str = "schema") -> None:
    """Validate `schema` against its JSON Schema meta-schema (Draft 2020-12 unless `$schema` says otherwise)."""
    if not isinstance(schema, (dict, bool)):
        raise InputError(path, loc, f"{what} must be a JSON Schema object, got {type(schema).__name__}")
    problem = _meta_schema_problem(schema)
    if problem is not None:
        where, message = problem
        raise InputError(path, join(loc, *where), f"invalid JSON Schema: {message}")
    check_local_refs(schema, path, loc)


_CHECKED: dict[str, tuple[tuple, str] | None] = {}


def _meta_schema_problem(schema: dict[str, Any] | bool) -> tuple[tuple, str] | None:
    """(path inside the schema, message) of the first meta-schema violation, or None; memoized.

    Meta-schema validation of Draft 2020-12 is slow (~10 ms a schema) and OpenAPI docs repeat
    the same inlined schemas many times, so results are cached by canonical JSON.
    """
    key = json.dumps(schema, sort_keys=True, default=repr)
    if key not in _CHECKED:
        cls = validator_for(schema, default=Draft202012Validator) if isinstance(schema, dict) else Draft202012Validator
        try:
            cls.check_schema(schema)
            _CHECKED[key] = None
        except SchemaError as ex:
            _CHECKED[key] = (tuple(ex.path), ex.message)
        if len(_CHECKED) > 4096:
            _CHECKED.pop(next(iter(_CHECKED)))
    return _CHECKED[key]


def normalize_parameters(schema: Any, path: str, loc: str) -> dict[str, Any]:
    """Check a tool's `parameters` and return it as an object schema (type "object", `properties` present)."""
    if schema is None:
        return {"type": "object", "properties": {}}
    if not isinstance(schema, dict):
        raise InputError(path, loc, f"parameters must be a JSON Schema object, got {type(schema).__name__}")
    kind = schema.get("type", "object")
    if kind != "object":
        raise InputError(path, loc, f"parameters must be a JSON Schema object (type is {kind!r})")
    out = {"type": "object", **{k: v for k, v in schema.items() if k != "type"}}
    out.setdefault("properties", {})
    check_schema(out, path, loc, "parameters")
    props = out["properties"]
    open_ended = "patternProperties" in out or isinstance(out.get("additionalProperties"), dict)
    for i, req in enumerate(out.get("required", [])):
        if req not in props and not open_ended:
            raise InputError(path, join(loc, "required", i), f"required lists unknown parameter {req!r}")
    return out


def check_unique(tools: Iterable[ToolSpec], path: str) -> None:
    """Tool names must be unique inside one file."""
    seen: dict[str, str] = {}
    for tool in tools:
        pointer = tool.source.pointer if tool.source else ""
        if tool.name in seen:
            raise InputError(path, pointer, f"duplicate tool name {tool.name!r} (first at {seen[tool.name]})")
        seen[tool.name] = pointer
