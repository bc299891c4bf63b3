"""Markdown tool docs, best effort: one heading per tool; the prose around them is policy text.

Recognised shape (per tool)::

    ## `create_note`
    Create a note in the notebook.

    Parameters:
    - `title` (string, required): the title
    - `tags` (array of string): optional tags
      (or a fenced ```json block holding the parameters schema; a block after a "Returns" line is `returns`;
      a table of fields after it is `returns` when no block gives one)
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
from synth.tooldocs.md_endpoints import endpoint, example_schema, is_endpoint_line, looks_like_schema, name_from_heading
from synth.tooldocs.md_tables import param_rows, table_cells
from synth.tooldocs.validate import check_name, check_schema, normalize_parameters

HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE_RE = re.compile(r"^\s*(```+|~~~+)\s*([\w+-]*)")
TOOL_HEADING_RE = re.compile(r"^`?([A-Za-z_][A-Za-z0-9_.-]*)(\([^)]*\))?`?$")
PARAM_RE = re.compile(r"^(\s*)[-*+]\s+`?([A-Za-z_][A-Za-z0-9_.-]*)`?\s*\(([^)]*)\)\s*(?:[:\u2013\u2014-]\s*)?(.*)$")
_LABEL_WORDS = (
    r"parameters|arguments|args|inputs|request body|returns|return value|response|output|errors|error|raises"
    r"|exceptions|examples|example|notes|usage|description"
)
_CODE = r"(?:\s+[1-5]\d\d)?"  # "**Response 200**": an HTTP status after the label
# a label line: emphasized (`**Returns**`, `**Errors:**`), followed by a colon, or alone on its line
LABEL_RE = re.compile(
    rf"^\s*(?:(?P<em>[*_]{{1,2}})(?P<a>{_LABEL_WORDS}){_CODE}\s*:?\s*(?P=em)\s*:?|(?P<b>{_LABEL_WORDS}){_CODE}\s*:"
    rf"|(?P<c>{_LABEL_WORDS}){_CODE}\s*$)"
    r"\s*(?P<rest>.*)$",
    re.I,
)
SECTIONS = {
    "parameters": "parameters",
    "arguments": "parameters",
    "args": "parameters",
    "inputs": "parameters",
    "request body": "parameters",
    "returns": "returns",
    "return value": "returns",
    "response": "returns",
    "output": "returns",
    "errors": "errors",
    "error": "errors",
    "raises": "errors",
    "exceptions": "errors",
    "examples": "examples",
    "example": "examples",
}
ROW = "\x1e"  # marks a table row kept as prose: it keeps a line of its own in the description
RULE_RE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")  # a horizontal rule between sections
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


LOOSE_STRINGS = {"date", "datetime", "date-time", "time", "timestamp", "uuid", "email", "id", "url", "uri", "enum"}


@dataclass
class _Heading:
    level: int
    text: str
    line: int  # 1-based
    name: str | None  # identifier if the heading looks like a tool name
    body: list[tuple[int, str]] = field(default_factory=list)
    http: dict[str, str] | None = None  # {"method", "path"} when the section opens with `POST /path`


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


def non_tool_text(text: str) -> str:
    """The prose outside the tool sections (an overview, conventions, object descriptions): domain policy text
    that comes with the tools."""
    headings = _headings(text)
    tool_level = next((h.level for h in headings if _is_tool(h)), None)
    if tool_level is None:
        return text.strip()
    first = headings[0].line if headings else len(text.splitlines()) + 1
    kept = text.splitlines()[: first - 1]
    inside_tool = False
    for h in headings:
        if h.level <= tool_level:
            inside_tool = _is_tool(h) and h.level == tool_level
        if not inside_tool:
            kept.append("#" * h.level + " " + h.text)
            kept.extend(line for _, line in h.body)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


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
    for h in headings:  # `POST /piers/{pier_id}/berths` · operation `berth_boat` under a heading in plain words
        found = endpoint(h.body)
        if found is not None:
            h.http = found[0]
            h.name = found[1] or h.name or name_from_heading(h.text)
    return headings


def _is_tool(h: _Heading) -> bool:
    if h.name is None:
        return False
    # `create_note`, create_note, notes.create, get-note, createNote(...); a capitalised hyphenated word ("Check-in",
    # "Follow-up") is a prose heading unless a bullet under it reads as a parameter
    if h.http is not None or "`" in h.text or re.search(r"[_.(]", h.text) or h.name[0].islower():
        return True
    return any(_param_line(line) or FENCE_RE.match(line) for _, line in h.body)


def _param_line(line: str) -> bool:
    """A bullet that reads as a parameter: `- name (type, required): ...` with a known type (a policy's
    "- Fees (cash or transfer) are paid at the harbour office" is prose)."""
    m = PARAM_RE.match(line)
    if m is None:
        return False
    tokens = [t.strip() for t in m.group(3).split(",") if t.strip()]
    if not tokens or all(t.lower() in ("required", "optional") for t in tokens):
        return bool(tokens)
    kind = next(t for t in tokens if t.lower() not in ("required", "optional"))
    try:
        _type_schema(kind, "", "")
    except InputError:
        return False
    return True


def _declares_type(spec: str) -> bool:
    """Whether a bullet's parenthesised words declare a parameter (`string, required`, `strng`, `array of strings`)
    rather than say something in prose (`(`done` -> `open`)`, `(card or cash)`), which no type reads as."""
    tokens = [t.strip() for t in spec.split(",") if t.strip()]
    if any(t.lower() in ("required", "optional") for t in tokens):
        return True
    kind = tokens[0].strip("`") if tokens else ""
    return bool(re.fullmatch(r"[\w\[\]<>.|]+|(?:array|list)\s+of\s+\w+", kind, re.IGNORECASE))


def _section_of(line: str) -> tuple[str, str] | None:
    """(section, the rest of the line) for a label line or a sub-heading such as `### Errors`."""
    heading = HEADING_RE.match(line)
    text = heading.group(2) if heading else line
    m = LABEL_RE.match(text)
    if m is None:
        return ("other", "") if heading else None
    word = (m.group("a") or m.group("b") or m.group("c")).lower()
    return SECTIONS.get(word, "description"), m.group("rest").strip()


def _tool(h: _Heading, body: list[tuple[int, str]], path: str) -> ToolSpec:
    loc = f"line {h.line}"
    name = check_name(h.name, path, loc)
    found = _ToolText()
    params: dict[str, Any] = {}
    required: list[str] = []
    schema_block: Any = None
    returns: Any = None
    table_returns: dict[str, Any] | None = None  # the answer's fields from a table under "Returns"
    mutates: bool | None = None
    examples: list[dict[str, Any]] = []
    section = "description"  # where prose lines go: description | parameters | returns | errors | examples | other
    parents: list[tuple[int, dict]] = []  # (indent, schema) of params that may take nested ones
    fence_start, fence_lang, fence_lines = None, "", []
    table: list[tuple[int, list[str]]] = []
    loose: list[dict[str, Any]] = []  # JSON objects in code blocks under no label
    for n, line in body + [(0, "")]:
        if fence_start is not None:
            if FENCE_RE.match(line) and not FENCE_RE.match(line).group(2):
                block = _parse_block(fence_lang, fence_lines, path, fence_start)
                if isinstance(block, list) and section == "returns" and block and isinstance(block[0], dict):
                    returns = example_schema(block)  # an example list answer: the schema of its entries
                elif isinstance(block, dict):
                    if section == "returns":  # a schema, or an example answer standing for the schema it shows
                        returns = block if looks_like_schema(block) else {**example_schema(block), "example": block}
                    elif section == "examples":
                        examples.append({"arguments": block.get("arguments", block)})
                        loose += [] if "arguments" in block else [block]  # or an example answer (_loose_answer)
                    elif schema_block is None and ("parameters" in block or "properties" in block or "type" in block):
                        schema_block = block.get("parameters", block)
                    else:  # an example under no label: an answer unless it only holds arguments (see below)
                        loose.append(block)
                fence_start = None
            else:
                fence_lines.append(line)
            continue
        cells = table_cells(line)
        if cells is not None:
            table.append((n, cells))
            continue
        if table:  # a table just ended
            rows = param_rows([c for _, c in table]) if section in ("description", "parameters", "returns") else None
            if rows and section == "returns":  # the fields of the answer: listed as `{a, b}` like other docs do
                listed = "{" + ", ".join(r.name for r in rows) + "}"
                found.add("returns", listed, opens=not any(found.lines["returns"]))
                answer: dict[str, Any] = {}  # and, unless a code block gives one, the answer's schema
                for row in rows:
                    _add_table_param(row, answer, [], path, f"line {table[0][0]}")
                table_returns = table_returns or _object(answer, [])
                rows = []
            for row in rows or []:
                _add_table_param(row, params, required, path, f"line {table[0][0]}")
            if rows is None:  # a table of something else (statuses, error codes, fees by type): kept as prose,
                for _, cells in table:  # one line a row
                    kept = " | ".join(c for c in cells if c and not set(c) <= set("-: "))
                    found.add(section, ROW + kept if kept else "")
            table = []
        if RULE_RE.match(line) or (h.http is not None and is_endpoint_line(line)):
            continue
        m_fence = FENCE_RE.match(line)
        if m_fence:
            fence_start, fence_lang, fence_lines = n, m_fence.group(2).lower(), []
            if section == "description":
                section = "other"
            continue
        m_param = PARAM_RE.match(line)
        if m_param and section == "description" and not _declares_type(m_param.group(3)):
            m_param = None  # prose: "- Reopen (`done` -> `open`) is allowed within 7 days"
        if m_param and section in ("description", "parameters"):
            section = "parameters"
            _add_param(m_param, params, required, parents, path, f"line {n}")
            continue
        m_mut = MUTATES_RE.match(line)
        if m_mut:
            yes = m_mut.group(2).lower() in ("yes", "true")
            mutates = yes if m_mut.group(1).lower() == "mutates" else not yes
            section = "other"
            continue
        label = _section_of(line) if line.strip() else None
        if label is not None:
            section, rest = label
            found.add(section, rest, opens=True)
            continue
        found.add(section, line.strip())
    if fence_start is not None:
        raise InputError(path, f"line {fence_start}", "code block is never closed")
    if schema_block is not None:
        parameters = normalize_parameters(schema_block, path, loc)
    else:
        parameters = normalize_parameters(_object(params, required), path, loc)
    returns = returns if returns is not None else table_returns
    if returns is None:
        returns = _loose_answer(loose, parameters)
    if returns is not None:
        check_schema(returns, path, loc, "returns")
    validator = Draft202012Validator(parameters)
    names = set(parameters.get("properties") or {})
    examples = [e for e in examples if isinstance(e["arguments"], dict) and validator.is_valid(e["arguments"])]
    examples = [e for e in examples if set(e["arguments"]) <= names or not names]  # an answer is no call
    return ToolSpec(
        name=name,
        description=found.description(),
        parameters=parameters,
        returns=returns,
        mutates=mutates,
        source=ToolSource(file=path, format="markdown", pointer=loc),
        examples=tuple(examples),
        http=dict(h.http) if h.http else None,
    )


def _loose_answer(blocks: list[dict[str, Any]], parameters: dict[str, Any]) -> dict[str, Any] | None:
    """The schema of the first unlabelled example that is no request (its keys are not all the tool's parameters)
    and no schema: a REST section shows its answer as a bare JSON block after "Example: `GET /berths?...`"."""
    names = set(parameters.get("properties") or {})
    for block in blocks:
        if block and not set(block) <= names and not looks_like_schema(block):
            return {**example_schema(block), "example": block}
    return None


@dataclass
class _ToolText:
    """The prose of one tool section: its description, what it returns and its errors, in that order."""

    lines: dict[str, list[str]] = field(default_factory=lambda: {"description": [], "returns": [], "errors": []})
    lead: str = ""  # the section whose label stood alone, waiting for its first line

    def add(self, section: str, text: str, opens: bool = False) -> None:
        if section not in self.lines:
            return
        if opens and not text:  # a bare `**Returns:**`: its first line of prose gets the lead-in
            self.lead = section
            return
        if text and self.lead == section:
            opens, self.lead = True, ""
            text = text[:1].lower() + text[1:] if section == "returns" else text
        if opens and section == "returns" and not text.lower().startswith("return"):
            text = "Returns " + text
        self.lines[section].append(text)

    def description(self) -> str:
        paragraphs = []
        for section, prefix in (("description", ""), ("returns", ""), ("errors", "Errors: ")):
            text = re.sub(r"\n{3,}", "\n\n", "\n".join(self.lines[section])).strip()
            if text:
                joined = "\n\n".join(_joined(p) for p in text.split("\n\n"))
                paragraphs.append(prefix + (joined.replace("\n\n", " ") if prefix else joined))
        return "\n\n".join(paragraphs).strip()


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


LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+\S")


def _joined(paragraph: str) -> str:
    """A paragraph's lines as one line of prose, but a table's rows (marked ROW) and a list's items each on a line
    of their own (an item's wrapped lines joined to it)."""
    out, after_row = "", False
    for line in paragraph.split("\n"):
        row = line.startswith(ROW)
        line = line.removeprefix(ROW)
        item = bool(LIST_ITEM.match(line))
        out = line if not out else out + ("\n" if row or after_row or item else " ") + line
        after_row = row
    return out


def _add_table_param(row: Any, params: dict, required: list, path: str, loc: str) -> None:
    """Add one parameter-table row; a type the table words loosely ("string (date)", "date", "uuid") is read as
    well as it can be, and left open when it cannot."""
    schema: dict[str, Any] = {}
    word = re.sub(r"\(.*?\)", "", row.type_word).strip()
    for candidate in (word, word.split(" ")[0] if word else ""):
        try:
            schema = _type_schema(candidate, path, loc) if candidate else {}
            break
        except InputError:
            schema = {"type": "string"} if candidate.lower() in LOOSE_STRINGS else {}
            if schema:
                break
    if row.description:
        schema["description"] = row.description
    params[row.name] = schema
    if row.required and row.name not in required:
        required.append(row.name)


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
