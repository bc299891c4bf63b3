"""Per-kind conditions a create's docs give in a table: a header with an "allowed when" column and one row per value
of an argument, the one whose values they are or the one the first column is headed by ("`haul` | boat `afloat`,
crane `free` | 25.00"). Each condition of a row's cell that names a
record an argument names and a value one of its fields knows ("boat `afloat`": the boat `boat_id` names holds
`afloat` in its one field knowing it) is a `named_state` check guarded on the argument's value; a clause of any
other form is not read."""

from __future__ import annotations

import re
from typing import Any

from synth.spec import known_values
from synth.spec import record_props as _props
from synth.words import plural

ALLOWED_WHEN = re.compile(r"^\s*allowed\s+(?:when|if|only\s+when)\s*$", re.I)
SAID = re.compile(r"^(?:and\s+)?(?:the\s+)?([a-z]\w*)\s+`([\w-]+)`", re.I)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def type_row_checks(text: str, params: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`named_state` checks, each with a `when` on the row's argument value (module docstring)."""
    lines = text.splitlines()
    out: list[dict[str, Any]] = []
    for i, line in enumerate(lines):
        cells = _cells(line) if "|" in line else []
        column = next((j for j, c in enumerate(cells) if ALLOWED_WHEN.match(c)), None)
        if column is None:
            continue
        rows = []
        for row in lines[i + 1 :]:
            if "|" not in row:
                if row.strip():
                    break
                continue
            found = _cells(row)
            value = re.fullmatch(r"`([\w-]+)`", found[0]) if found else None
            if value and len(found) > column:
                rows.append((value.group(1), found[column]))
        kinds = {v for v, _ in rows}
        args = [p for p, s in sorted(params.items()) if kinds and kinds <= set(known_values(s))]
        head = "_".join(cells[0].strip("`").lower().split()) if cells else ""
        args = args or ([head] if head in params and kinds else [])  # the column the argument heads
        if len(args) != 1:
            continue
        for value, cell in rows:
            for clause in re.split(r",\s*", cell):
                said = SAID.match(clause)
                if not said:
                    continue
                noun, state = said.group(1).lower(), said.group(2)
                arg, col = f"{noun}_id", plural(noun)
                fields = (
                    [f for f, s in sorted(_props(cols, col).items()) if state in known_values(s)] if col in cols else []
                )
                if arg in params and len(fields) == 1:
                    check = {"op": "named_state", "arg": arg, "collection": col, "field": fields[0], "allowed": [state]}
                    out.append({**check, "when": {"arg": args[0], "in": [value]}})
    return out


__all__ = ["type_row_checks"]
