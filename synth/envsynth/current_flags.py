"""A yes/no answer field the docs define by the dates of the record's entries: "berths_current is true when every
permit is valid today", "insured (true only if all of its policies are in date)".

The flag reads the record's one object or list whose entries each carry the same ending date (`expiry`,
`valid_until`, `expires_on`: schema_figures.ENDING); it is true when every entry's date is today or later (a
certificate is valid through the date it expires on) and false when some date has passed. The holder is the one
whose name the flag's name starts with (`berths_current` -> `berths`), else the one such holder the record has.

`current_flag` gives the `output_map` entry (shape_code renders it), or None when the words or the record do not fit.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.schema_figures import ENDING

VALID = r"(?:still\s+)?(?:valid|current|in\s+date|unexpired|not\s+(?:yet\s+)?(?:expired|lapsed))"
TODAY = r"(?:\s+(?:today|now|as\s+of\s+today))?\b(?!\s+(?:on|for|through|until|at|by)\b)"  # not "valid on <day>"
RULE = r"`?\s*(?:\(|is\s+|=\s*|:\s*)(?:set\s+to\s+)?`?true`?\s+(?:only\s+)?(?:when|if|while)\s+"
TAIL = (
    rf"(?:(?:every|each|all)\s+(?:of\s+)?(?:(?:its|the|their)\s+)?(\w+)[^.;()]{{0,40}}?\b(?:is|are)\s+{VALID}{TODAY}"
    rf"|no\s+(\w+)\s+(?:has|have|is|are)\s+(?:yet\s+)?(?:expired|lapsed|out\s+of\s+date){TODAY})"
)


def _ending_dates(schema: dict[str, Any]) -> list[str]:
    """The date fields of one entry's schema that a validity ends on."""
    props = (schema.get("properties") or {}) if isinstance(schema, dict) else {}
    return [
        f
        for f, s in props.items()
        if isinstance(s, dict) and s.get("type") == "string" and s.get("format") == "date" and ENDING.search(f.lower())
    ]


def _holders(own: dict[str, Any]) -> dict[str, tuple[str, bool]]:
    """{field: (date field, is_list)} for the record's objects and lists whose entries all end on one date field."""
    out = {}
    for name, schema in own.items():
        if not isinstance(schema, dict):
            continue
        if schema.get("type") == "array":
            dates = _ending_dates(schema.get("items") or {})
            if len(dates) == 1:
                out[name] = (dates[0], True)
            continue
        entries = list((schema.get("properties") or {}).values())
        extra = schema.get("additionalProperties")
        entries += [extra] if isinstance(extra, dict) else []
        found = {tuple(_ending_dates(e)) for e in entries if isinstance(e, dict)}
        if entries and len(found) == 1 and len(next(iter(found))) == 1:
            out[name] = (next(iter(found))[0], False)
    return out


def current_flag(name: str, own: dict[str, Any], text: str, today: str | None) -> dict[str, Any] | None:
    """The entry for a flag the docs define as every entry being valid today; None when they do not."""
    said = re.search(rf"\b{re.escape(name)}\b{RULE}{TAIL}", text, re.I)
    if not today or not said:
        return None
    holders = _holders(own)
    named = [h for h in holders if name.lower().startswith(h.lower() + "_")]
    pick = named or (list(holders) if len(holders) == 1 else [])
    if len(pick) != 1:
        return None
    date, is_list = holders[pick[0]]
    return {"op": "all_current", "path": [pick[0]], "date": date, "list": is_list, "today": today}


__all__ = ["current_flag"]
