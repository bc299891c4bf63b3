"""The words the docs call a record's date fields by: a parameter named like the field (`arrive_on`) whose
description opens with a short phrase ("Arrival date, YYYY-MM-DD.", "Day of arrival (YYYY-MM-DD)") gives that
phrase as the field's name in prose, so "only possible on the charter's arrival date" or "ordered by arrival date"
find `arrive_on` (synth.spec.field_by_words reads `x-called`).

Only date fields get words, only phrases of one to three plain words that are not the field's own name, and a
phrase two fields of one record would share names neither.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from synth.spec import ToolSpec

LEAD = re.compile(
    r"^\s*(?:(?i:the|optional|required|new)\s+)?([A-Za-z]+(?:\s+[A-Za-z]+){0,2}?)\s*"
    r"(?:[,(.:;]|$|\s+YYYY\b|\s+(?:as|in)\s+YYYY\b|\s+in\s+(?:ISO|the)\b)"
)
DATE_WORDS = re.compile(r"\b(?:date|day)\b", re.I)


def _phrases(field: str, tools: list[ToolSpec]) -> set[str]:
    """What the parameters named like the field call it."""
    out = set()
    for tool in tools:
        schema = (tool.parameters.get("properties") or {}).get(field)
        lead = LEAD.match(str(schema.get("description") or "")) if isinstance(schema, dict) else None
        phrase = " ".join(lead.group(1).lower().split()) if lead else ""
        if phrase and DATE_WORDS.search(phrase) and phrase != field.replace("_", " ").lower():
            out.add(phrase)
    return out


def with_field_words(state_schema: dict[str, Any], tools: list[ToolSpec]) -> dict[str, Any]:
    """The schema with `x-called` (sorted phrases) on the date fields the tools' parameters name in prose."""
    out = copy.deepcopy(state_schema)
    for col in (out.get("properties") or {}).values():
        record = ((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {}
        said = {f: _phrases(f, tools) for f, s in record.items() if isinstance(s, dict) and s.get("format") == "date"}
        for field, phrases in said.items():
            shared = {p for other, ps in said.items() if other != field for p in ps}
            kept = sorted(phrases - shared)
            if kept:
                record[field]["x-called"] = kept
    return out


__all__ = ["with_field_words"]
