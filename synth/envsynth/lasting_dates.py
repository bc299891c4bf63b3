"""Dates a new record holds a number of days after the business date (`days_later` effects, code_templates/
create.py.j2): "`due` today plus 14 days", "`due` today plus the boat's hire_days", and "A hold lasts two days (never
past the sail date)", where the one date field named for the noun and its end (`hold_until`, `hold_expires`) is
the business date plus those days, never later than the date field the aside names (not when the days count from
another date: "valid for 14 days from the sail date")."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.made_dates import date_field
from synth.envsynth.paired_lists import NUMBERS
from synth.spec import field_by_words
from synth.spec import record_props as _props
from synth.words import plural

LASTS = re.compile(  # "A hold lasts two days (never past the sail date)"
    r"\b(?:a|an|the|each|every)\s+(?P<noun>[a-z]+)\s+(?:lasts|is\s+valid\s+for|runs\s+for|is\s+kept\s+for)\s+"
    r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+days?\b"
    r"(?!\s+(?:from|after|since|before)\s+(?!today\b|the\s+business\s+date\b))"  # counted from another date: not read
    r"(?:\s*\((?:but\s+)?(?:never|not)\s+(?:past|beyond|after)\s+the\s+(?P<cap>[a-z][a-z ]{0,30}?)\))?",
    re.I,
)
ENDS = ("until", "expires", "expiry", "expiration")  # `hold_until`: when it runs out (an `_end` ends a span)


def lasting(text: str, field: str, own: dict[str, Any], today: str | None) -> dict[str, Any] | None:
    """A `days_later` effect for "A hold lasts two days (never past the sail date)" on the one date field named for
    the noun (`hold_until`, `hold_expires`), capped by the date field the aside names."""
    for m in LASTS.finditer(text) if today else ():
        noun = m.group("noun").lower()
        named = [f for f, s in own.items() if f.lower().split("_")[0] == noun and date_field(s)]  # one: no start date
        named = named if all(f.lower().split("_")[-1] in ENDS and len(f.split("_")) > 1 for f in named) else []
        if named != [field]:
            continue
        n = m.group("n").lower()
        effect = {"op": "days_later", "field": field, "today": today, "days": int(NUMBERS.get(n, n))}
        cap = field_by_words(m.group("cap"), own) if m.group("cap") else None
        return {**effect, "not_after": cap} if cap and date_field(own.get(cap)) else effect
    return None


def days_later(
    text: str, field: str, own: dict[str, Any], cols: dict[str, Any], today: str | None
) -> dict[str, Any] | None:
    """A `days_later` effect for "`due` today plus 14 days" or "`due` today plus the boat's hire_days" (the record
    the new record names through `boat_id`), or None."""
    from synth.envsynth.create_rules import _name, link_field

    if not today:
        return None
    said = re.search(
        rf"(?<![\w])`?{_name(field)}`?\s+(?:is\s+|=\s*)?today\s+(?:plus|\+)\s+([^,;.]{{1,80}})", text, re.I
    )
    if said is None:
        return None
    rest = said.group(1).strip()
    days = re.fullmatch(r"(\d+)\s+days?", rest)
    if days:
        return {"op": "days_later", "field": field, "today": today, "days": int(days.group(1))}
    named = re.fullmatch(r"(?:the\s+)?(\w+)['\u2019]s\s+`?(\w+)`?(?:\s+days)?", rest)
    if named is None:
        return None
    noun, source = named.group(1).lower(), named.group(2)
    via = link_field(own, noun)
    theirs = _props(cols, plural(noun))
    if via is None or (theirs.get(source) or {}).get("type") not in ("integer", "number"):
        return None
    return {
        "op": "days_later",
        "field": field,
        "today": today,
        "via": via,
        "collection": plural(noun),
        "source": source,
    }


__all__ = ["days_later", "lasting"]
