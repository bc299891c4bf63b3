"""Limits on taking an entry off a record's list, read from the docs of a removal:

- "Charter moorings cannot go below four boats": a record whose text field holds that kind (`kind` = `charter`)
  keeps at least that many entries (a `keeps` check with `when_field` / `when_in`, item_remove's template);
- "Removing a crew hand from a confirmed charter is allowed until two days before the sailing": a record in that
  state keeps its entries once its date (`sailing_date`) is closer than that to the business date (an `any_of` of
  the record not in that state and a `dated` check: the date at least N days after today).

The kind and the state are known values of one field of the record; the noun is the record's (its collection's
singular); the entry of the second sentence is named by a word of the tool's name.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.date_runtime import fg_add_days
from synth.spec import field_by_words, known_values
from synth.words import NUMBER_WORDS, singular, split_words

COUNT = r"(?P<n>\d+|" + "|".join(NUMBER_WORDS) + r")"
BELOW = re.compile(
    rf"\b(?P<kind>[a-z][\w-]*)\s+(?P<noun>[a-z]+)\s+(?:cannot|can\s*not|may\s+not|must\s+not)\s+(?:go|drop|fall)\s+"
    rf"below\s+{COUNT}\b",
    re.I,
)
UNTIL = re.compile(
    r"\b(?P<verb>[a-z]+)ing\s+(?:an?\s+|the\s+)?(?P<item>[a-z]+(?:\s[a-z]+)?)\s+from\s+(?:an?|the)\s+(?P<state>[a-z][\w-]*)\s+"
    rf"(?P<noun>[a-z]+)\s+is\s+(?:only\s+)?allowed\s+until\s+{COUNT}\s+days?\s+before\s+the\s+"
    r"(?P<date>[a-z]+(?:\s[a-z]+)?)",
    re.I,
)


def _count(said: str) -> int:
    return int(said) if said.isdigit() else NUMBER_WORDS[said.lower()]


def _holder(value: str, own: dict[str, Any]) -> str | None:
    """The one field of the record whose known values hold `value` (case aside)."""
    found = [f for f, s in sorted(own.items()) if value.lower() in [str(v).lower() for v in known_values(s)]]
    return found[0] if len(found) == 1 else None


def removal_limits(
    text: str, tool_words: list[str], collection: str, own: dict[str, Any], today: str | None
) -> list[dict[str, Any]]:
    """The `keeps` and `any_of` checks of the sentences above said of this record's removals."""
    noun = singular(collection.lower())
    out: list[dict[str, Any]] = []
    for m in BELOW.finditer(text):
        field = _holder(m.group("kind"), own)
        if singular(m.group("noun").lower()) != noun or field is None:
            continue
        value = next(v for v in known_values(own[field]) if str(v).lower() == m.group("kind").lower())
        check = {"op": "keeps", "least": _count(m.group("n")), "when_field": field, "when_in": [value]}
        out += [check] if check not in out else []
    words = [w.lower() for w in tool_words]
    for m in UNTIL.finditer(text) if today else ():
        said = m.group("date")  # "the sailing": its date
        field, date = _holder(m.group("state"), own), field_by_words(said, own) or field_by_words(said + " date", own)
        acted = (
            bool(words)
            and words[0].startswith(m.group("verb").lower())
            and all(singular(w) in words for w in m.group("item").lower().split())
        )
        if not acted or singular(m.group("noun").lower()) != noun or field is None or date is None:
            continue
        others = [v for v in known_values(own[field]) if str(v).lower() != m.group("state").lower()]
        latest = fg_add_days(today, _count(m.group("n")))
        dated = {"op": "dated", "field": date, "cmp": ">=", "value": latest}
        check = {
            "op": "any_of",
            "checks": [{"op": "value_is", "source": {"from": "record", "path": [field]}, "in": others}, dated],
        }
        out += [check] if latest and check not in out else []
    return out


def tool_words(name: str) -> list[str]:
    """The words of a tool's name, singular: `removeCrewHand` -> remove, crew, hand."""
    return [singular(w) for w in split_words(name)]


__all__ = ["removal_limits", "tool_words"]
