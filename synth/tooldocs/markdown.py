"""Markdown tool docs, best effort: one heading per tool.

Recognised shape (per tool)::

    ## `create_note`
    Create a note in the notebook.

    Parameters:
    - `title` (string, required): the title
    - `tags` (array of string): optional tags
      (or a fenced ```json block holding the parameters schema; a block after a "Returns" line is `returns`)
    Mutates: yes

A markdown file without tool headings is domain policy text (`load_markdown` returns no tools).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator

from synth.errors import InputError
from synth.spec import ToolSource, ToolSpec
from synth.tooldocs.validate import check_name, check_schema, normalize_parameters

HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE_RE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
TOOL_HEADING_RE = re.compile(r"^`?([A-Za-z_][A-Za-z0-9_.-]*)(\([^)]*\))?`?$")
PARAM_RE = re.compile(r"^(\s*)[-*+]\s+`?([A-Za-z_][A-Za-z0-9_.-]*)`?\s*\(([^)]*)\)\s*(?:[:\u2013\u2014-]\s*)?(.*)$")
LABEL_RE = re.compile(
    r"^\s*[*_]*(parameters|arguments|args|inputs|returns|return value|response|output)[*_]*\s*:?", re.I
)
MUTATES_RE = re.compile(r"^\s*[*_]*(mutates|read-only|readonly)[*_]*\s*:\s*[*_]*(yes|no|true|false)\b", re.I)
SECTION_WORDS = {
    "parameters",
    "arguments",
    "args",
    "inputs",
    "returns",
    "response",
    "output",
    "example",
    "examples",
    "description",
    "errors",
    "notes",
    "overview",
    "usage",
}

SIMPLE_TYPES = {
    "string": "string",
    "str": "string",
    "text": "string",
    "integer": "integer",
    "int": "integer",
    "number": "number",
    "float": "number",
    "double": "number",
    "decimal": "number",
    "boolean": "boolean",
    "bool": "boolean",
    "array": "array",
    "list": "array",
    "object": "object",
    "dict": "object",
    "map": "object",
}


@dataclass
class _Heading:
    level: int
    text: str
    line: int  # 1-based
    name: str | None  # identifier if the heading looks like a tool name
    body: list[tuple[int, str]] = field(default_factory=list)


def load_markdown(text: str, path: str) -> list[ToolSpec]:
    """ToolSpecs from tool headings; [] when the file has none (then it is policy text)."""
    headings = _headings(text)
    tool_level = next((h.level for h in headings if _is_tool(h)), None)
    if tool_level is None:
        return []
    tools = []
    for i, h in enumerate(headings):
        if h.level != tool_level or not _is_tool(h):
            continue
        body: list[tuple[int, str]] = list(h.body)
        for later in headings[i + 1 :]:
            if later.level <= tool_level:
                break
            body.append((later.line, "#" * later.level + " " + later.text))
            body.extend(later.body)
        tools.append(_tool(h, body, path))
    return tools


def _headings(text: str) -> list[_Heading]:
    headings: list[_Heading] = []
    fence: str | None = None
    for n, line in enumerate(text.splitlines(), 1):
        m_fence = FENCE_RE.match(line)
        if fence is None and not m_fence:
            m = HEADING_RE.match(line)
            if m:
                inner = m.group(2).strip()
                tm = TOOL_HEADING_RE.match(inner)
                name = tm.group(1) if tm and tm.group(1).lower() not in SECTION_WORDS else None
                headings.append(_Heading(len(m.group(1)), inner, n, name))
                continue
        if m_fence:
            if fence is None:
                fence = m_fence.group(1)[:3]
            elif line.strip().startswith(fence):
                fence = None
        if headings:
            headings[-1].body.append((n, line))
    return headings


def _is_tool(h: _Heading) -> bool:
    if h.name is None:
        return False
    if "`" in h.text or re.search(r"[_.\-(]", h.text) or h.name[0].islower():
        return True
    return any(PARAM_RE.match(line) or FENCE_RE.match(line) for _, line in h.body)


def _tool(h: _Heading, body: list[tuple[int, str]], path: str) -> ToolSpec:
    loc = f"line {h.line}"
    name = check_name(h.name, path, loc)
    description: list[str] = []
    in_description = True
    params: dict[str, Any] = {}
    required: list[str] = []
    schema_block: Any = None
    returns: Any = None
    mutates: bool | None = None
    examples: list[dict[str, Any]] = []
    last_label = ""
    parents: list[tuple[int, dict]] = []  # (indent, schema) of params that may take nested ones
    fence_start, fence_lang, fence_lines = None, "", []
    for n, line in body:
        if fence_start is not None:
            if FENCE_RE.match(line) and not FENCE_RE.match(line).group(2):
                block = _parse_block(fence_lang, fence_lines, path, fence_start)
                if isinstance(block, dict):
                    if re.search(r"return|response|output", last_label, re.I):
                        returns = block
                    elif re.search(r"example", last_label, re.I):
                        examples.append({"arguments": block.get("arguments", block)})
                    elif schema_block is None and ("parameters" in block or "properties" in block or "type" in block):
                        schema_block = block.get("parameters", block)
                fence_start = None
            else:
                fence_lines.append(line)
            continue
        m_fence = FENCE_RE.match(line)
        if m_fence:
            fence_start, fence_lang, fence_lines, in_description = n, m_fence.group(2).lower(), [], False
            continue
        m_param = PARAM_RE.match(line)
        if m_param:
            in_description = False
            _add_param(m_param, params, required, parents, path, f"line {n}")
            continue
        m_mut = MUTATES_RE.match(line)
        if m_mut:
            yes = m_mut.group(2).lower() in ("yes", "true")
            mutates = yes if m_mut.group(1).lower() == "mutates" else not yes
            in_description = False
            continue
        if LABEL_RE.match(line) or line.startswith("#"):
            in_description = False
        if line.strip():
            last_label = line
        if in_description:
            description.append(line.strip())
    if fence_start is not None:
        raise InputError(path, f"line {fence_start}", "code block is never closed")
    if schema_block is not None:
        parameters = normalize_parameters(schema_block, path, loc)
    else:
        parameters = normalize_parameters(_object(params, required), path, loc)
    if returns is not None:
        check_schema(returns, path, loc, "returns")
    validator = Draft202012Validator(parameters)
    examples = [e for e in examples if isinstance(e["arguments"], dict) and validator.is_valid(e["arguments"])]
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(description)).strip()
    paragraphs = [" ".join(p.split("\n")) for p in text.split("\n\n")]
    return ToolSpec(
        name=name,
        description="\n\n".join(paragraphs).strip(),
        parameters=parameters,
        returns=returns,
        mutates=mutates,
        source=ToolSource(file=path, format="markdown", pointer=loc),
        examples=tuple(examples),
    )


def _add_param(m: re.Match, params: dict, required: list, parents: list, path: str, loc: str) -> None:
    """Add one `- name (type, required): text` line; deeper-indented lines nest under the last object."""
    indent, name, spec, text = len(m.group(1)), m.group(2), m.group(3), m.group(4)
    schema, is_required = _param_schema(spec, text, path, loc)
    while parents and parents[-1][0] >= indent:
        parents.pop()
    holder = {"properties": params, "required": required}
    if parents:
        parent = parents[-1][1]
        holder = parent["items"] if parent.get("type") == "array" else parent
        holder.setdefault("type", "object")
        holder.setdefault("properties", {})
    holder["properties"][name] = schema
    if is_required and name not in holder.setdefault("required", []):
        holder["required"].append(name)
    if schema.get("type") == "object" or schema.get("items", {}).get("type") == "object":
        parents.append((indent, schema))


def _object(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        out["required"] = required
    return out


def _parse_block(lang: str, lines: list[str], path: str, start: int) -> Any:
    if lang not in ("json", "jsonc", "javascript", "js", ""):
        return None
    text = "\n".join(lines)
    try:
        return json.loads(text)
    except json.JSONDecodeError as ex:
        if lang.startswith("json"):
            raise InputError(path, f"line {start + ex.lineno}", f"invalid JSON in code block: {ex.msg}") from None
        return None


def _param_schema(spec: str, text: str, path: str, loc: str) -> tuple[dict[str, Any], bool]:
    """`(string, required)` + description -> (schema, required)."""
    tokens = [t.strip() for t in spec.split(",") if t.strip()]
    is_required = any(t.lower() == "required" for t in tokens)
    kinds = [t for t in tokens if t.lower() not in ("required", "optional")]
    schema = _type_schema(kinds[0], path, loc) if kinds else {}
    if text.strip():
        schema["description"] = text.strip()
    return schema, is_required


def _type_schema(word: str, path: str, loc: str) -> dict[str, Any]:
    raw = word.strip().strip("`")
    low = raw.lower()
    m = re.match(r"^(?:array|list)\s*(?:of\s+|\[)\s*([\w\s]+?)\s*\]?s?$", low) or re.match(r"^(\w+)\[\]$", low)
    if m:
        return {"type": "array", "items": _type_schema(m.group(1), path, loc)}
    if low in SIMPLE_TYPES:
        return {"type": SIMPLE_TYPES[low]}
    if low.endswith("s") and low[:-1] in SIMPLE_TYPES:  # "array of strings"
        return {"type": SIMPLE_TYPES[low[:-1]]}
    raise InputError(path, loc, f"unknown parameter type {raw!r} (use string, integer, number, boolean, array, object)")
