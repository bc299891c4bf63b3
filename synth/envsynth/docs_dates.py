"""Dates a write moves by a number another record holds: "Extends a mooring by the pier's stay_days, counted from
the current leave date" sets the record's `leave_date` to itself plus the `stay_days` of the pier its `pier_id`
names (`fg_add_days`), read before the call changes anything. And charges per day late: "Late departures are
charged: penalty = 2 per overdue day (12 at most), also put on the skipper's owed" sets the field to the rate times
the whole days its date lies before the business date (0 when none), capped, and moves the linked number by the
same figure."""

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


LATE = re.compile(
    r"(?:`?(?P<lhs>\w+)`?\s*=\s*)?(?P<rate>\d+(?:\.\d+)?)\s+(?:\w+\s+)?(?:(?:per|for\s+each|for\s+every|a)\s+day\s+(?:late|overdue|past\s+(?:the|its)\s+\w+"
    r"(?:\s\w+)?)|per\s+(?:late|overdue)\s+day)"
    r"(?P<rest>(?:[^.]|\.(?=\d)){0,200})",
    re.IGNORECASE,
)
CAP = re.compile(
    r"\b(?:at\s+most|capped\s+at|up\s+to|(?:no|not)\s+more\s+than|a\s+maximum\s+of|maximum)\s+\$?(?P<cap>\d+(?:\.\d+)?)"
    r"|\b(?P<cap2>\d+(?:\.\d+)?)\s+at\s+(?:the\s+)?most\b",
    re.IGNORECASE,
)
STORED = re.compile(
    r"\b(?:stored|kept|recorded|saved|written)\s+(?:in|as|into)\s+(?:its|the\s+\w+['\u2019]s)\s+`?(?P<field>\w+)`?",
    re.I,
)
ADDED = re.compile(
    r"\b(?:added\s+to|charged\s+to|put\s+on)\s+(?:the\s+)?(?P<noun>\w+)['\u2019]s\s+`?(?P<field>\w+)`?", re.IGNORECASE
)


def _date_field(sentence: str, own: dict[str, Any]) -> str | None:
    """The record's date the sentence counts lateness from: the one it names, else the one called a due date, else
    its only date."""
    dates = [f for f, s in own.items() if isinstance(s, dict) and (s.get("format") == "date" or f.endswith("_date"))]
    named = [f for f in dates if re.search(rf"\b{re.escape(f.replace('_', ' '))}\b", sentence, re.IGNORECASE)]
    due = [f for f in dates if "due" in f.split("_")]
    if len(named) == 1:
        return named[0]
    return due[0] if len(due) == 1 else dates[0] if len(dates) == 1 else None


def late_fees(text: str, collection: str, state_schema: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """The `set` of the record's number a per-day-late charge is stored in, and the `adjust` of a linked record's
    number it is added to, both by rate x whole days late (capped where the docs cap it)."""
    if not today:
        return []
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        m = LATE.search(sentence)
        stored = STORED.search(m.group("rest")) if m else None
        target = stored.group("field") if stored else m.group("lhs") if m else None  # "kept in its x", "x = 2 per"
        field = _date_field(sentence, own) if m else None
        if m is None or target not in own or field is None:
            continue
        rate = m.group("rate")
        expr: dict[str, Any] = {
            "plus": [{"late": {"path": [field], "today": today}}],
            "times": float(rate) if "." in rate else int(rate),
            "digits": 2,
        }
        cap = CAP.search(m.group("rest"))
        if cap:
            expr["most"] = float(cap.group("cap") or cap.group("cap2"))
        out.append({"op": "set", "field": target, "source": {"from": "expr", "expr": expr}})
        added = ADDED.search(m.group("rest"))
        via = link_field(own, added.group("noun").lower()) if added else None
        other = plural(added.group("noun").lower()) if added else ""
        if added and via and (_props(cols, other).get(added.group("field")) or {}).get("type") in ("number", "integer"):
            path = [{"from": "record", "path": [via]}, {"from": "const", "value": added.group("field")}]
            out.append({"op": "adjust", "collection": other, "path": path, "delta": {"from": "expr", "expr": expr}})
    return out


__all__ = ["date_extensions", "late_fees"]
