"""Deadlines read from a calendar table: a markdown table of the docs or the policy whose first column holds the
values of a field the call's record reaches (a berth's `tide_band`: `neap`, `spring`) and whose other columns hold
dates ("| band | mooring closes | hauling closes |"), with the tool's own description saying how the business date
must stand to one of them. A column is named by its header's first word and the words that share its first four
letters ("hauling" is the "haul", "hauling" or "hauls" deadline, date or period):

- "on or before", "until", "by" or "before" the deadline, or the deadline "has passed" (or expired, closed) in a
  sentence about failures: the call needs today on or before that date;
- "after" the deadline, or "still in" its period in a sentence about failures: it needs today after it.

A column the description ties both ways is left alone. Each becomes a `deadline` check (expr_runtime.fg_check) on
the record's field, or on a field of the record its link (or the parameter naming one) names.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import sample_records
from synth.tooldocs.md_tables import markdown_tables
from synth.words import plural

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
OWNER = r"(?:(?:its|the|their)\s+)?(?:\w+['\u2019]s\s+)*"


def date_tables(text: str) -> list[tuple[list[str], list[list[str]]]]:
    """(header, rows) of every markdown table in the text that has a column of dates."""
    return [
        (header, rows)
        for header, rows in markdown_tables(text)
        if any(all(DATE.match(r[i].strip("`* ")) for r in rows) for i in range(len(header)))
    ]


def _relations(description: str, word: str) -> set[str]:
    """How the description wants today to stand to the deadline `word` names (by its first four letters)."""
    name = rf"{re.escape(word[:4])}\w*\s+(?:deadline|date|period)"
    said = set()
    for sentence in re.split(r"(?<=[.])\s+", description):  # a failure list runs on over semicolons
        failing = re.search(r"\b(?:fails?|errors?|refused|rejected)\b", sentence, re.I)
        if re.search(rf"\b(?:on\s+or\s+before|until|by|before)\s+{OWNER}{name}", sentence, re.I):
            said.add("<=")
        if re.search(rf"\bafter\s+{OWNER}{name}", sentence, re.I):
            said.add(">")
        if failing and re.search(
            rf"\b{name}(?:\s+(?:of|for)\s+[\w\s']{{0,40}}?)?(?:\s+(?:that|which))?\s+has\s+(?:passed|expired|closed)",
            sentence,
            re.I,
        ):
            said.add("<=")
        if failing and re.search(rf"\bstill\s+(?:with)?in\s+{OWNER}{name}", sentence, re.I):
            said.add(">")
    return said


def _sample_values(sample: dict[str, Any], collection: str, field: str) -> set[str]:
    return {str(r.get(field)) for r in sample_records(sample, collection) if r.get(field) is not None}


def _key_source(
    keys: set[str], collection: str, schema: dict[str, Any], sample: dict[str, Any], params: dict[str, Any]
) -> dict[str, Any] | None:
    """Where the call finds its key value: a field of its record, else a field of the record a link of it (or a
    parameter) names; its sample values must all be keys of the table."""
    cols = schema.get("properties") or {}

    def props(col: str) -> dict[str, Any]:
        return ((cols.get(col) or {}).get("additionalProperties") or {}).get("properties") or {}

    def fits(col: str, field: str) -> bool:
        values = _sample_values(sample, col, field)
        return bool(values) and values <= keys

    for field in sorted(props(collection)):
        if fits(collection, field):
            return {"from": "record", "via": None, "collection": None, "field": field}
    for via in sorted(set(props(collection)) | set(params)):
        other = plural(via[:-3]) if via.endswith("_id") else None
        if other is None or other == collection or other not in cols:
            continue
        for field in sorted(props(other)):
            if fits(other, field):
                source = "arg" if via in params and via not in props(collection) else "record"
                return {"from": source, "via": via, "collection": other, "field": field}
    return None


def deadline_checks(
    description: str,
    texts: str,
    collection: str,
    schema: dict[str, Any],
    sample: dict[str, Any],
    today: str | None,
    params: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """`deadline` checks for each date column of a calendar table in `texts` (the docs and the policy) that the
    tool's `description` ties to the business date one way."""
    if not today:
        return []
    out = []
    for header, rows in date_tables(texts):
        keys = {r[0].strip("`* ") for r in rows}
        source = _key_source(keys, collection, schema, sample, params or {})
        if source is None:
            continue
        for i, title in enumerate(header[1:], start=1):
            if not all(DATE.match(r[i].strip("`* ")) for r in rows):
                continue
            word = re.sub(r"[^a-z]", "", title.split()[0]) if title.split() else ""
            said = _relations(description, word) if len(word) >= 3 else set()
            if len(said) != 1:
                continue
            dates = {r[0].strip("`* "): r[i].strip("`* ") for r in rows}
            out.append({"op": "deadline", **source, "dates": dates, "today": today, "cmp": said.pop()})
    return out


__all__ = ["date_tables", "deadline_checks"]
