"""Parameter tables in markdown tool docs, as vendors write them::

    | name | type | required | description |
    |---|---|---|---|
    | `sailor_id` | string | required | The sailor's id. |

A table is a parameter table when its header names a parameter column (name, parameter, argument, field) and a
type or required column; the required column reads required/optional, yes/no, true/false or a check mark, and
without one a row is required when its description says so ("Required." / "(required)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

NAME_HEADERS = {"name", "parameter", "parameters", "param", "argument", "arg", "field", "key"}
TYPE_HEADERS = {"type", "data type", "kind"}
REQUIRED_HEADERS = {"required", "required?", "req", "req.", "optional", "mandatory", "presence"}
DESCRIPTION_HEADERS = {"description", "meaning", "details", "notes", "purpose", "explanation"}
SEPARATOR_CELL = re.compile(r"^:?-+:?$")
YES = re.compile(r"^(required|yes|y|true|mandatory|\u2713|\u2714|x|\*)$", re.I)


@dataclass(frozen=True)
class TableParam:
    """One row of a parameter table."""

    name: str
    type_word: str
    required: bool
    description: str


def table_cells(line: str) -> list[str] | None:
    """The cells of a `| a | b |` row (None when the line is not a table row)."""
    text = line.strip()
    if not text.startswith("|"):
        return None
    cells = [c.strip() for c in re.split(r"(?<!\\)\|", text.strip("|"))]
    return [c.replace("\\|", "|") for c in cells]


def markdown_tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """(header, rows) of every markdown table in the text: header cells lower-cased without emphasis or code
    marks, rows as written, only those with as many cells as the header."""
    out, block = [], []
    for line in text.splitlines() + [""]:
        cells = table_cells(line)
        if cells is not None:
            block.append(cells)
            continue
        if len(block) >= 3 and all(re.fullmatch(r":?-+:?", c) for c in block[1]):
            header, rows = [c.strip("`* ").lower() for c in block[0]], [r for r in block[2:] if len(r) == len(block[0])]
            if rows:
                out.append((header, rows))
        block = []
    return out


def _plain(cell: str) -> str:
    return re.sub(r"[*_`]", "", cell).strip().lower()


def param_rows(rows: list[list[str]]) -> list[TableParam] | None:
    """The parameters of a table (header, separator, rows), or None when it is not a parameter table."""
    if len(rows) < 2 or not all(SEPARATOR_CELL.match(c.replace(" ", "")) for c in rows[1] if c):
        return None
    header = [_plain(c) for c in rows[0]]
    name_col = next((i for i, h in enumerate(header) if h in NAME_HEADERS), None)
    type_col = next((i for i, h in enumerate(header) if h in TYPE_HEADERS), None)
    req_col = next((i for i, h in enumerate(header) if h in REQUIRED_HEADERS), None)
    desc_col = next((i for i, h in enumerate(header) if h in DESCRIPTION_HEADERS), None)
    if name_col is None or (type_col is None and req_col is None):
        return None
    out = []
    for row in rows[2:]:
        cell = lambda i: row[i] if i is not None and i < len(row) else ""  # noqa: E731
        name = re.sub(r"[`*]", "", cell(name_col)).strip()
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", name):
            continue
        description = cell(desc_col).strip()
        if req_col is not None:
            word = _plain(cell(req_col))
            required = bool(YES.match(word)) if header[req_col] != "optional" else word in ("no", "false", "n")
        else:
            required = bool(re.search(r"\(required\)|^required\s*[.:;]|\brequired\.$", description, re.I))
        type_word = re.sub(r"[`*]", "", cell(type_col)).strip() if type_col is not None else ""
        out.append(TableParam(name=name, type_word=type_word, required=required, description=description))
    return out


__all__ = ["TableParam", "markdown_tables", "param_rows", "table_cells"]
