"""REST-style markdown docs: a section per operation whose heading is in plain words and whose first lines give the
HTTP method, the path and, often, the operation's name::

    ### 2.1 Berth a boat

    **POST** `/piers/{pier_id}/berths` (operationId: berth_boat)

The operation name (`operation`, `operationId`, `op`, or an identifier after the path, backticked, in bold or after a
dash: `` `POST /piers` — **berth_boat** ``) names the tool;
without one the heading's words do (`Berth a boat` -> `berth_boat`, section numbers dropped). A method and path
inside a code block (an example request) is no endpoint line. An example response in a JSON block, which is no JSON
Schema, stands for the schema its values show.
"""

from __future__ import annotations

import re
from typing import Any

METHODS = ("GET", "POST", "PUT", "PATCH", "DELETE")
ENDPOINT_RE = re.compile(r"^\s*[*_]{0,2}`?\s*(" + "|".join(METHODS) + r")[*_`]*\s+[*_`]*(/[^\s`*]*)\s*`?[*_]{0,2}(.*)$")
OPERATION_RE = re.compile(r"\b(?:operation(?:\s*id)?|op)\b\s*[:=]?\s*`?([A-Za-z_][\w.-]*)`?", re.I)
_IDENT = r"([A-Za-z_][A-Za-z0-9]*_[\w.-]*|[a-z]+[A-Z]\w*)"  # snake_case or camelCase: an operation's name
BARE_NAME_RE = re.compile(
    r"`" + _IDENT + r"`|\*{1,2}" + _IDENT + r"\*{1,2}|^\s*[-\u2013\u2014:|]\s*" + _IDENT + r"\s*$"
)
ARTICLES = {"a", "an", "the", "its", "one"}
FENCE = re.compile(r"^\s*(```|~~~)")
NUMBERED = re.compile(r"^\s*(?:\d+(?:\.\d+)*\.?|[A-Z]\.)\s+")  # "3.2 Moor a boat"
JSON_TYPES = {"object", "array", "string", "integer", "number", "boolean", "null"}
LOOK_AHEAD = 4  # the endpoint line is among the first non-blank lines of the section


def endpoint(body: list[tuple[int, str]]) -> tuple[dict[str, str], str | None] | None:
    """({"method", "path"}, the operation's name or None) from the first lines of a section, or None."""
    seen = 0
    fenced = False
    for _, line in body:
        if FENCE.match(line):  # an example request in a code block is no endpoint line
            fenced = not fenced
            seen += 1
            continue
        if fenced or not line.strip():
            continue
        seen += 1
        if seen > LOOK_AHEAD:
            return None
        m = ENDPOINT_RE.match(line)
        if m is None:
            continue
        rest = m.group(3)
        named = OPERATION_RE.search(rest) or BARE_NAME_RE.search(rest)
        name = next((g for g in named.groups() if g), None) if named else None
        return {"method": m.group(1).lower(), "path": m.group(2)}, name
    return None


def is_endpoint_line(line: str) -> bool:
    """The line that gives the method and path (kept out of the description)."""
    return ENDPOINT_RE.match(line) is not None


def name_from_heading(text: str) -> str | None:
    """`Berth a boat` -> `berth_boat`; None when the heading has no words."""
    words = [w.lower() for w in re.findall(r"[A-Za-z0-9]+", re.sub(r"'s\b", "", NUMBERED.sub("", text)))]
    words = [w for w in words if w not in ARTICLES]
    return "_".join(words) if words and words[0][0].isalpha() else None


def looks_like_schema(block: dict[str, Any]) -> bool:
    """A JSON Schema, not an example value (`{"type": "sloop", "items": [...]}` is an example)."""
    kind = block.get("type")
    if isinstance(kind, str) and kind in JSON_TYPES:
        return True
    if isinstance(kind, list) and kind and all(k in JSON_TYPES for k in kind):
        return True
    combined = any(
        isinstance(block.get(k), list) and block[k] and all(isinstance(x, dict) for x in block[k])
        for k in ("allOf", "oneOf", "anyOf")
    )
    return isinstance(block.get("properties"), dict) or isinstance(block.get("$ref"), str) or combined


def example_schema(value: Any) -> dict[str, Any]:
    """The schema an example value shows: objects' properties, arrays' first item, scalars' types."""
    if isinstance(value, dict):
        return {"type": "object", "properties": {k: example_schema(v) for k, v in value.items()}}
    if isinstance(value, list):
        return {"type": "array", "items": example_schema(value[0])} if value else {"type": "array"}
    if isinstance(value, bool):
        return {"type": "boolean"}
    if isinstance(value, int):
        return {"type": "integer"}
    if isinstance(value, float):
        return {"type": "number"}
    if isinstance(value, str):
        return {"type": "string"}
    return {}


__all__ = ["endpoint", "example_schema", "is_endpoint_line", "looks_like_schema", "name_from_heading"]
