"""OpenAI function-spec lists, with or without the `{"type": "function", "function": ...}` wrapper.

Extensions kept by forgegym's shared docs are honoured: `x_mcp.annotations` (MCP hints -> `mutates`)
and `x_bfcl_response` (a BFCL response schema -> `returns`).
"""

from __future__ import annotations

from typing import Any

from synth.errors import InputError
from synth.spec import ToolSource, ToolSpec
from synth.tooldocs.bfcl import bfcl_to_json_schema
from synth.tooldocs.mcp import mutates_from_annotations
from synth.tooldocs.refs import join
from synth.tooldocs.validate import check_description, check_name, check_schema, normalize_parameters


def openai_items(data: Any) -> tuple[list[Any], str]:
    """The list of function specs in `data` and the pointer of that list."""
    if isinstance(data, list):
        return data, ""
    if isinstance(data, dict) and isinstance(data.get("tools"), list):
        return data["tools"], "/tools"
    if isinstance(data, dict) and isinstance(data.get("functions"), list):
        return data["functions"], "/functions"
    if isinstance(data, dict):
        return [data], None  # one bare function spec
    return [], ""


def load_openai(data: Any, path: str) -> list[ToolSpec]:
    """ToolSpecs from an OpenAI function list (wrapped or bare entries)."""
    items, base = openai_items(data)
    tools = []
    for i, item in enumerate(items):
        loc = "" if base is None else join(base, i)
        tools.append(_load_one(item, path, loc))
    return tools


def _load_one(item: Any, path: str, loc: str) -> ToolSpec:
    if not isinstance(item, dict):
        raise InputError(path, loc, f"expected a function spec object, got {type(item).__name__}")
    if "function" in item or "type" in item:
        if item.get("type", "function") != "function":
            raise InputError(
                path, join(loc, "type"), f"unsupported tool type {item.get('type')!r} (expected 'function')"
            )
        fn = item.get("function")
        fn_loc = join(loc, "function")
        if not isinstance(fn, dict):
            raise InputError(path, fn_loc, "missing 'function' object")
    else:
        fn, fn_loc = item, loc
    name = check_name(fn.get("name"), path, join(fn_loc, "name"))
    description = check_description(fn.get("description"), path, join(fn_loc, "description"))
    parameters = normalize_parameters(fn.get("parameters"), path, join(fn_loc, "parameters"))
    returns, returns_loc = None, None
    for holder, holder_loc in ((item, loc), (fn, fn_loc)):
        for key in ("x_bfcl_response", "returns", "response"):
            if isinstance(holder.get(key), dict) and returns is None:
                returns_loc = join(holder_loc, key)
                returns = bfcl_to_json_schema(holder[key], path, returns_loc)
    if returns is not None:
        check_schema(returns, path, returns_loc, "returns")
    mutates = None
    for holder, holder_loc in ((item, loc), (fn, fn_loc)):
        mcp = holder.get("x_mcp")
        if isinstance(mcp, dict) and "annotations" in mcp:
            mutates = mutates_from_annotations(mcp["annotations"], path, join(holder_loc, "x_mcp", "annotations"))
    return ToolSpec(
        name=name,
        description=description,
        parameters=parameters,
        returns=returns,
        mutates=mutates,
        source=ToolSource(file=path, format="openai", pointer=loc),
    )
