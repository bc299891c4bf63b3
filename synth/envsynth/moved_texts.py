"""The text a change's log entry writes about the values it moved: "Moved from 2031-06-02 09:00 to 2031-06-04
09:00." beside a record now on 2031-06-04 at 09:00.

Each sample is the latest entry of its kind on a record, with that record: the entry's "to" part shows the record's
current values of the fields the call changes, and an earlier part shows the values they had, in the same order and
with the same separators. The current values are found at their last place in the text (consecutive, joined by
short separators); the old ones are the one earlier stretch written the same way (each value's shape: its digits
as digits, its letters as letters). The text is then the literal parts with the old values from the record as it
was and the new ones from the call's arguments (a `concat` source), when every sample writes the same template.
"""

from __future__ import annotations

import re
from typing import Any

SEPARATOR = re.compile(r"^[\s,;:/-]{1,3}$")


def _shape(value: str) -> str:
    """A pattern for values written like this one: digits as digits, letters as letters, the rest as is."""
    out = ""
    for run in re.finditer(r"\d+|[A-Za-z]+|[^\dA-Za-z]", value):
        part = run.group(0)
        out += rf"\d{{{len(part)}}}" if part.isdigit() else "[A-Za-z]+" if part.isalpha() else re.escape(part)
    return out


def _template(text: str, record: dict[str, Any], news: dict[str, Any]) -> list[Any] | None:
    """The parts of one sample's text: literals, and ("old" | "new", field) for the moved values."""
    placed = []
    for field in sorted(news):
        value = record.get(field)
        at = text.rfind(value) if isinstance(value, str) and value else -1
        if at >= 0:
            placed.append((at, at + len(value), field))
    placed.sort()
    if not placed or any(b[0] < a[1] or not SEPARATOR.match(text[a[1] : b[0]]) for a, b in zip(placed, placed[1:])):
        return None
    seps = [text[a[1] : b[0]] for a, b in zip(placed, placed[1:])]
    shape = "".join(
        f"({_shape(record[f])})" + (re.escape(seps[i]) if i < len(seps) else "") for i, (_, _, f) in enumerate(placed)
    )
    olds = list(re.finditer(shape, text[: placed[0][0]]))
    if len(olds) != 1:
        return None
    old = olds[0]
    parts: list[Any] = [text[: old.start()]]
    for i, (_, _, field) in enumerate(placed):
        parts += [("old", field)] + ([seps[i]] if i < len(seps) else [])
    parts += [text[old.end() : placed[0][0]]]
    for i, (_, _, field) in enumerate(placed):
        parts += [("new", field)] + ([seps[i]] if i < len(seps) else [])
    return [p for p in parts + [text[placed[-1][1] :]] if p != ""]


def moved_text(samples: list[tuple[str, dict[str, Any]]], news: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """A `concat` source writing every sample's text from the record's old values and the new ones (`news`: {field:
    the source of its new value}), or None when the samples do not all write one such template."""
    if len(samples) < 2:
        return None
    templates = [_template(text, record, news) for text, record in samples]
    if any(t is None for t in templates) or any(t != templates[0] for t in templates[1:]):
        return None
    parts = [
        p if isinstance(p, str) else {"from": "record", "path": [p[1]]} if p[0] == "old" else news[p[1]]
        for p in templates[0] or []
    ]
    return {"from": "concat", "parts": parts}


__all__ = ["moved_text"]
