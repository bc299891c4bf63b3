"""Answer fields a response schema lists that the records do not hold, made from the record as the schema's own words
for the field say:

- places left: a count named for what is left (`available`, `free_berths`, `spaces_remaining`, `seats_left`) or
  described as "not yet sold/booked/...", is the record's one capacity-like number minus its one number of what is
  taken (`capacity - booked`, `slot_capacity - slots_booked`, `visits_per_year - visits_used`);
- a state computed from a date: a two-valued text field described as "computed from `valid_until` and today's
  date", one of whose values says the date has passed (`expired`, `lapsed`, `overdue`, `past`), holds that value
  once the date is before the business date and the other value until then.

Each gives an `output_map` entry (shape_code renders it), or None when the words or the record do not fit.
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import ToolSpec
from synth.words import singular

LEFT_WORDS = {"available", "free", "remaining", "left", "spare", "unused", "open"}
CAPACITY = re.compile(r"(?:^|_)(?:capacity|max|maximum|limit|quota|allowance|total|per_year|per_month|size)(?:_|$)")
TAKEN = re.compile(r"(?:^|_)(?:booked|used|taken|sold|held|reserved|occupied|filled|enrolled|issued|allocated)(?:_|$)")
NOT_YET = re.compile(r"\bnot\s+yet\s+(?:sold|booked|used|taken|held|reserved|claimed|allocated)\b", re.I)
PASSED_VALUES = {"expired", "lapsed", "overdue", "past", "ended", "outdated"}
LEFT_SAID = re.compile(r"\b(?:available|free|left|remaining|spare|unused|still\s+open)\b", re.I)
ENDING = re.compile(r"(?:^|_)(?:until|expires|expiry|expiration|end|ends|due|valid|through|last|to)(?:_|$)")
FROM_DATE = re.compile(
    r"\b(?:computed|derived|worked\s+out|calculated)\s+from\s+[`'\"]?(\w+)[`'\"]?[^.]{0,40}\btoday", re.I
)


def _schema_of(spec: ToolSpec, name: str) -> dict[str, Any]:
    """The listed field's schema in the documented response (a list's items, or the object itself)."""
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    if returns.get("type") == "array" and isinstance(returns.get("items"), dict):
        returns = returns["items"]
    found = (returns.get("properties") or {}).get(name) if isinstance(returns, dict) else None
    return found if isinstance(found, dict) else {}


def _numbers(own: dict[str, Any]) -> list[str]:
    return [f for f, s in own.items() if isinstance(s, dict) and s.get("type") in ("integer", "number")]


def places_left(name: str, schema: dict[str, Any], own: dict[str, Any]) -> dict[str, Any] | None:
    """capacity minus taken, for a count named or described as what is left; None otherwise."""
    words = set(name.lower().split("_"))
    text = str(schema.get("description") or "")
    said = NOT_YET.search(text)
    if schema.get("type") not in (None, "integer", "number") or not (words & LEFT_WORDS or said):
        return None
    if text and not said and not LEFT_SAID.search(text):  # "days_left: Days until the charter sails"
        return None
    numbers = _numbers(own)
    capacity = [f for f in numbers if CAPACITY.search(f.lower())]
    taken = [f for f in numbers if TAKEN.search(f.lower()) and f not in capacity]
    if len(capacity) != 1 or len(taken) != 1:
        return None
    nouns = {singular(w) for w in words - LEFT_WORDS}
    if not said and nouns and not nouns & {singular(w) for f in capacity + taken for w in f.lower().split("_")}:
        return None  # `free_berths` counts berths: the numbers must be about berths too
    other = {singular(w) for w in CAPACITY.sub("_", capacity[0].lower()).split("_") if w}
    if nouns and other and not nouns & other:
        return None  # `max_length` is the cap of a length, not of the berths `free_berths` counts
    return {"op": "calc", "left": capacity[0], "operator": "-", "right": taken[0], "floor": None}


def dated_state(name: str, schema: dict[str, Any], own: dict[str, Any], today: str | None) -> dict[str, Any] | None:
    """The value a two-valued state computed from a date and today holds ("expired" once the date is past)."""
    values = [str(v) for v in schema.get("enum") or []]
    said = FROM_DATE.search(str(schema.get("description") or ""))
    if not today or not said or len(values) != 2 or said.group(1) not in own or not ENDING.search(said.group(1)):
        return None  # the date must be one the state ends on (`valid_until`, not `issued_on`)
    passed = [v for v in values if v.lower() in PASSED_VALUES]
    if len(passed) != 1:
        return None
    other = next(v for v in values if v != passed[0])
    return {"op": "date_state", "path": [said.group(1)], "passed": passed[0], "else": other, "today": today}


def schema_figure(
    name: str, spec: ToolSpec, own: dict[str, Any], today: str | None, siblings: tuple[ToolSpec, ...] = ()
) -> dict[str, Any] | None:
    """How a listed answer field the record lacks is made from the record, as its schema's words say (or, where
    its schema says nothing, the words of the same field with the same values in a sibling tool's answer: a
    summary's state described in the full record's schema); or None."""
    schema = _schema_of(spec, name)
    if not schema:
        return None
    if not schema.get("description"):
        described = [
            other
            for sibling in siblings
            if (other := _schema_of(sibling, name)).get("description") and other.get("enum") == schema.get("enum")
        ]
        schema = described[0] if described else schema
    return places_left(name, schema, own) or dated_state(name, schema, own, today)


__all__ = ["dated_state", "places_left", "schema_figure"]
