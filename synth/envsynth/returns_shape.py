"""The answer's shape as a description writes it in braces: "Returns {boat_id, nights (at least 1), stays (list of
{berth_id, nights, cost}, by arrival), by_pier: {<pier>: {boats, metres}}, total}".

Each top-level entry gives a field: its name, the remark in brackets after it (when any), and the fields of its
entries when the remark or a colon gives them in braces (`stays` -> berth_id, nights, cost; `by_pier` -> boats,
metres, keyed by a placeholder). A flat "{a, b, c}" reads as three plain fields. A field whose entries are not given
where it is named takes them from a braces group the description opens with its singular nearby ("each stay is
{berth_id, nights, cost}").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from synth.words import singular

RETURNS = re.compile(r"\bReturns?\b[^{.]{0,80}?(\[?\{)")
NAME = re.compile(r"\s*([A-Za-z_]\w*)\s*(.*)$", re.S)
PLACEHOLDER = re.compile(r"^\s*<\s*([\w ]+?)\s*>\s*:\s*(\{.*\})\s*$", re.S)


@dataclass
class ReturnedField:
    """One field of a documented answer: its name, its remark, and the fields of its entries (if given)."""

    name: str
    remark: str = ""
    entries: list["ReturnedField"] = field(default_factory=list)
    keyed_by: str = ""  # "{<pier>: {...}}": a map from the placeholder's values to entries


def _closing(text: str, start: int) -> int:
    """The index of the brace that closes the one at `start` (-1 when unbalanced)."""
    depth = 0
    for i in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def _top_level(inner: str) -> list[str]:
    """The comma-separated parts of a braces group, commas inside brackets or braces left alone."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(inner):
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    return [p.strip() for p in parts if p.strip()]


def parse_braces(group: str) -> list[ReturnedField] | None:
    """The fields of one "{...}" group (with its braces), or None when an entry is not a field."""
    out: list[ReturnedField] = []
    for part in _top_level(group.strip()[1:-1]):
        m = NAME.match(part)
        if not m:
            return None
        name, rest = m.group(1), m.group(2).strip()
        one = ReturnedField(name=name)
        if rest.startswith("(") and rest.endswith(")"):
            one.remark = rest[1:-1].strip()
        elif rest.startswith(":"):
            one.remark = rest[1:].strip()
        elif rest:
            return None
        inner = one.remark.find("{")
        close = _closing(one.remark, inner) if inner >= 0 else -1
        if close > inner >= 0:
            nested = one.remark[inner : close + 1]
            keyed = PLACEHOLDER.match(nested[1:-1])
            if keyed:
                one.keyed_by = keyed.group(1).strip()
                nested = keyed.group(2)
            one.entries = parse_braces(nested) or []
        out.append(one)
    return out


def returned_fields(description: str) -> list[ReturnedField]:
    """The fields of the "Returns {...}" group of a description (empty when it has none)."""
    found = RETURNS.search(description)
    if not found:
        return []
    start = found.start(1) + (1 if found.group(1).startswith("[") else 0)
    close = _closing(description, start)
    fields = parse_braces(description[start : close + 1]) if close > start else None
    if not fields or len(fields) < 2:
        return []
    for one in fields:
        if not one.entries:
            one.entries = _entries_elsewhere(one.name, description, start, close)
    return fields


def _entries_elsewhere(name: str, text: str, start: int, close: int) -> list[ReturnedField]:
    """The entries of a list field from another braces group that its singular opens ("each line is {...}")."""
    noun = singular(name.split("_")[-1]).lower()
    if noun == name.lower():
        return []
    for m in re.finditer(rf"\b{re.escape(noun)}\b[^{{}}.;]{{0,24}}?(\{{)", text, re.I):
        if start <= m.start(1) <= close:
            continue
        end = _closing(text, m.start(1))
        entries = parse_braces(text[m.start(1) : end + 1]) if end > 0 else None
        if entries and len(entries) >= 2:
            return entries
    return []


__all__ = ["ReturnedField", "parse_braces", "returned_fields"]
