"""Dates a write moves by a number another record holds: "Extends a mooring by the pier's stay_days, counted from
the current leave date" sets the record's `leave_date` to itself plus the `stay_days` of the pier its `pier_id`
names (`fg_add_days`), read before the call changes anything."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props, link_field
from synth.words import plural

EXTENDS = re.compile(
    r"\b(?:extends?|moves?|pushes?|postpones?|prolongs?)\b[^.]{0,80}?\bby\s+(?:the\s+)?(?P<noun>\w+)['\u2019]s\s+"
    r"`?(?P<source>\w+)`?(?:\s+days)?,?\s+counted\s+from\s+(?:the|its)\s+(?:current\s+)?(?P<field>\w+(?:\s\w+)?)",
    re.IGNORECASE,
)


def date_extensions(text: str, collection: str, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """`set` effects of the record's date fields the text moves by another record's number of days."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    for m in EXTENDS.finditer(text):
        field = m.group("field").strip().lower().replace(" ", "_")
        noun, source = m.group("noun").lower(), m.group("source")
        via = link_field(own, noun)
        theirs = _props(cols, plural(noun))
        if field not in own or via is None or (theirs.get(source) or {}).get("type") not in ("integer", "number"):
            continue
        days = {"from": "days", "base": [field], "via": via, "collection": plural(noun), "source": source}
        effect = {"op": "set", "field": field, "source": days}
        if effect not in out:
            out.append(effect)
    return out


__all__ = ["date_extensions"]
