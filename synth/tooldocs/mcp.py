"""MCP `tools/list` results: `{"tools": [...]}`, a JSON-RPC envelope `{"result": {"tools": [...]}}`, or a bare list."""

from __future__ import annotations

from typing import Any

from synth.errors import InputError
from synth.spec import ToolSource, ToolSpec
from synth.tooldocs.refs import join
from synth.tooldocs.validate import check_description, check_name, check_schema, normalize_parameters


def mutates_from_annotations(annotations: Any, path: str, loc: str) -> bool | None:
    """MCP tool annotations -> `mutates`: readOnlyHint true -> False, false -> True, absent -> None.

    Without readOnlyHint, destructiveHint true still means the tool mutates.
    """
    if annotations is None:
        return None
    if not isinstance(annotations, dict):
        raise InputError(path, loc, "annotations must be an object")
    read_only = annotations.get("readOnlyHint")
    if read_only is not None and not isinstance(read_only, bool):
        raise InputError(path, join(loc, "readOnlyHint"), "readOnlyHint must be true or false")
    if read_only is not None:
        return not read_only
    if annotations.get("destructiveHint") is True:
        return True
    return None


def mcp_tools(data: Any) -> tuple[Any, str]:
    """The tools list of an MCP result and its pointer."""
    if isinstance(data, list):
        return data, ""
    if isinstance(data, dict) and isinstance(data.get("result"), dict) and "tools" in data["result"]:
        return data["result"]["tools"], "/result/tools"
    if isinstance(data, dict) and "tools" in data:
        return data["tools"], "/tools"
    return None, ""


def load_mcp(data: Any, path: str) -> list[ToolSpec]:
    """ToolSpecs from an MCP `tools/list` result."""
    if isinstance(data, dict) and isinstance(data.get("error"), dict):
        raise InputError(path, "/error", f"the MCP response is an error: {data['error'].get('message', data['error'])}")
    items, base = mcp_tools(data)
    if not isinstance(items, list):
        raise InputError(path, base or "(document)", "expected a list of MCP tools")
    tools = []
    for i, item in enumerate(items):
        loc = join(base, i)
        if not isinstance(item, dict):
            raise InputError(path, loc, f"expected a tool object, got {type(item).__name__}")
        name = check_name(item.get("name"), path, join(loc, "name"))
        description = check_description(item.get("description"), path, join(loc, "description"))
        if not description and isinstance(item.get("title"), str):
            description = item["title"].strip()
        if "inputSchema" not in item:
            raise InputError(path, loc, f"tool {name!r}: missing inputSchema")
        schema = item["inputSchema"]
        if not isinstance(schema, dict) or schema.get("type", "object") != "object":
            raise InputError(path, join(loc, "inputSchema"), "inputSchema must be a JSON Schema object")
        parameters = normalize_parameters(schema, path, join(loc, "inputSchema"))
        returns = item.get("outputSchema")
        if returns is not None:
            check_schema(returns, path, join(loc, "outputSchema"), "outputSchema")
        mutates = mutates_from_annotations(item.get("annotations"), path, join(loc, "annotations"))
        tools.append(
            ToolSpec(
                name=name,
                description=description,
                parameters=parameters,
                returns=returns,
                mutates=mutates,
                source=ToolSource(file=path, format="mcp", pointer=loc),
            )
        )
    return tools
