"""Tool-doc ingestion: OpenAI function lists, OpenAPI 3.x, MCP tools/list, BFCL docs and markdown -> DocSet.

    from synth.tooldocs import load_docs
    docs = load_docs(["petstore.yaml", "policy.md"])   # DocSet(tools=[ToolSpec...], policy=..., sources=...)

Every bad input raises `synth.errors.InputError(path, location, problem)`; locations are JSON pointers
into the document ("/paths/~1pet/post/requestBody") or "line N" for markdown and parse errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from synth.errors import InputError
from synth.spec import DocSet, ToolSpec
from synth.tooldocs.bfcl import load_bfcl, looks_like_bfcl
from synth.tooldocs.markdown import load_markdown, non_tool_text
from synth.tooldocs.mcp import load_mcp
from synth.tooldocs.openai_fmt import load_openai
from synth.tooldocs.openapi import load_openapi, openapi_prose, openapi_title
from synth.tooldocs.reader import JSON_SUFFIXES, YAML_SUFFIXES, RawDoc, read_file
from synth.tooldocs.validate import check_unique

__all__ = ["FORMATS", "detect_format", "load_docs", "load_file"]

FORMATS = ("openai", "openapi", "mcp", "bfcl", "markdown")
_LOADERS = {"openai": load_openai, "openapi": load_openapi, "mcp": load_mcp, "bfcl": load_bfcl}
_UNKNOWN = (
    "unrecognised tool-doc format (expected an OpenAI function list, OpenAPI 3, MCP tools/list, BFCL docs or markdown)"
)


def detect_format(path: str | Path) -> str:
    """The format of a tool-doc file: one of FORMATS (by extension, then content)."""
    return _detect(read_file(path))


def _detect(raw: RawDoc) -> str:
    data = raw.data
    suffix = Path(raw.path).suffix.lower()
    if data is None or (isinstance(data, str) and suffix not in JSON_SUFFIXES | YAML_SUFFIXES):
        return "markdown"
    if isinstance(data, dict):
        if "openapi" in data or "swagger" in data:
            return "openapi"
        if "jsonrpc" in data or isinstance(data.get("result"), dict):
            return "mcp"
        for key in ("tools", "functions"):
            if isinstance(data.get(key), list):
                return _detect_list(data[key], raw, default="mcp" if key == "tools" else "openai")
        if "name" in data and ("parameters" in data or "function" in data):
            return _detect_list([data], raw)
    if isinstance(data, list):
        return _detect_list(data, raw)
    raise InputError(raw.path, "(document)", _UNKNOWN)


def _detect_list(items: list[Any], raw: RawDoc, default: str | None = None) -> str:
    dicts = [t for t in items if isinstance(t, dict)]
    if not items:
        return default or "openai"  # the loader reports "no tools found"
    if any("inputSchema" in t for t in dicts):
        return "mcp"
    if looks_like_bfcl(dicts):
        return "bfcl"
    if any("function" in t or t.get("type") == "function" or "parameters" in t or "name" in t for t in dicts):
        return "openai"
    if default:
        return default
    raise InputError(raw.path, "(document)", _UNKNOWN)


def load_file(path: str | Path, fmt: str | None = None) -> DocSet:
    """Load one tool-doc file (format detected unless `fmt` is given) into a DocSet.

    A markdown file without tool sections becomes `DocSet.policy` (with them, the prose around them does), as
    does an OpenAPI document's `info.description`; other formats must define a tool.
    """
    raw = read_file(path)
    fmt = fmt or _detect(raw)
    if fmt not in FORMATS:
        raise InputError(raw.path, "(document)", f"unknown format {fmt!r} (known: {', '.join(FORMATS)})")
    policy, title = "", ""
    if fmt == "markdown":
        tools = load_markdown(raw.text, raw.path)
        policy = non_tool_text(raw.text) if tools else raw.text.strip()
    else:
        tools = _LOADERS[fmt](raw.data, raw.path)
        if not tools:
            raise InputError(raw.path, "(document)", f"no tools found in this {fmt} document")
        if fmt == "openapi":  # the API's description reads like a policy preamble: conventions and rules
            title, policy = openapi_title(raw.data), openapi_prose(raw.data)
    check_unique(tools, raw.path)
    return DocSet(
        tools=tools,
        policy=policy,
        title=title or Path(raw.path).stem,
        sources=[{"path": raw.path, "sha256": raw.sha256, "format": fmt}],
    )


def load_docs(paths: Sequence[str | Path]) -> DocSet:
    """Load several files into one DocSet; tool names must be unique across all of them.

    The title is the first OpenAPI `info.title`, else the first file's stem; policies are joined.
    """
    if isinstance(paths, (str, Path)):
        paths = [paths]
    if not paths:
        raise InputError("(arguments)", "(paths)", "no tool-doc files given")
    docs = [load_file(p) for p in paths]
    tools: list[ToolSpec] = []
    seen: dict[str, str] = {}
    for doc in docs:
        for tool in doc.tools:
            where = f"{tool.source.file} at {tool.source.pointer or '(document)'}" if tool.source else "?"
            if tool.name in seen:
                raise InputError(
                    tool.source.file if tool.source else "?",
                    tool.source.pointer if tool.source else "",
                    f"duplicate tool name {tool.name!r} (also in {seen[tool.name]})",
                )
            seen[tool.name] = where
            tools.append(tool)
    openapi_titles = [d.title for d in docs if d.sources[0]["format"] == "openapi"]
    return DocSet(
        tools=tools,
        policy="\n\n".join(d.policy for d in docs if d.policy),
        title=openapi_titles[0] if openapi_titles else docs[0].title,
        sources=[s for d in docs for s in d.sources],
    )
