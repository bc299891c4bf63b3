"""Refusals a create's error list names by a word before a linked record's noun ("Errors: 404: Unknown trip; 422:
Charter rules not met, e.g. closed pier, past trip.").

Each item of an error row (after "e.g.", "such as", "for example" or "including" when the row has one, else the
row's own text; rows split at ";" or a line's end) that is two words, the second naming a record the new one links
to (create_checks.noun_link):

- "<state> <noun>" ("closed pier"): the state is a value of one text field of that collection, as its schema lists
  them or the sample records hold them (data_copies.field_values); the call is refused while the linked record holds
  it (`linked_state` kept `only_if` the record holds that state, with nothing allowed: a state the docs and the data
  do not show is not refused);
- "past <noun>" ("past trip"): the linked record's one date is the business date or later (`dated`), when it has
  no other date or date-time field.

A not-found row ("404: Unknown pier") names no state, and a row saying what the call needs ("422: Open pier
required", "Requires: ...") names states to keep, not to refuse: neither is read.

An item no form reads is left to other readers; a word that is a value of two fields names neither.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.data_copies import field_values, sample_records
from synth.envsynth.must_clauses import _date_field as one_date_field
from synth.spec import record_props as _props

ERRORS = re.compile(r"\bErrors:\s*(?P<rows>.+)$", re.I | re.S)
ROW = re.compile(r"^\s*(?:[1-5]\d\d|[1-5]XX)\s*:\s*(?P<text>.+)$", re.S)
LISTED = re.compile(r"\b(?:e\.\s?g\.|such\s+as|for\s+example|including)\s*,?\s*", re.I)
ITEMS = re.compile(r"\s*,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+", re.I)
ITEM = re.compile(r"^(?P<word>[a-z][\w-]*)\s+(?P<noun>[a-z]\w*)$", re.I)
NEEDED = re.compile(r"\b(?:requires?|required|needs?|needed|must|only)\b", re.I)


def _items(text: str) -> list[str]:
    """The two-word items of the error rows of a "Errors: <code>: <text>; ..." line (or of rows on lines of their
    own), but a not-found row's ("404: Unknown pier") and a row stating what the call needs ("Open pier required")."""
    m = ERRORS.search(text)
    if m is None:
        return []
    out = []
    for row in re.split(r";|\n", m.group("rows")):
        r = ROW.match(row.strip().lstrip("-* ").rstrip("."))
        if r is None or row.strip().lstrip("-* ").startswith("404") or NEEDED.search(r.group("text")):
            continue
        said = r.group("text").strip().rstrip(".")
        listed = LISTED.search(said)
        said = said[listed.end() :] if listed else said
        items = [i.strip().strip("`'\"()") for i in ITEMS.split(said.strip("()"))]
        out += [i for i in items if ITEM.match(i)]
    return out


def _date_field(props: dict[str, Any]) -> str | None:
    """The record's one date (must_clauses._date_field), when no date-time field stands beside it."""
    if any(isinstance(s, dict) and s.get("format") == "date-time" for s in props.values()):
        return None
    return one_date_field(props)


def _state(word: str, via: str, collection: str, cols: dict[str, Any], sample: dict[str, Any]) -> dict[str, Any]:
    records = sample_records(sample, collection)
    holders = [  # (field, the value as stored) of the fields holding the word
        (f, v)
        for f, s in sorted(_props(cols, collection).items())
        if f != via
        for v in field_values(s, records, f)
        if isinstance(v, str) and v.lower() == word
    ]
    if len({f for f, _ in holders}) != 1:
        return {}
    field, value = holders[0]
    only = {"field": field, "in": [value]}
    return {"op": "linked_state", "collection": collection, "via": via, "field": field, "allowed": [], "only_if": only}


def linked_errors(
    text: str, own: dict[str, Any], cols: dict[str, Any], sample: dict[str, Any], today: str | None
) -> list[dict[str, Any]]:
    """The checks the two-word items of a create's error rows give ([] when none reads); `own`: the new record's
    properties, `cols`: the state schema's collections, `sample`: the sample state."""
    found: list[dict[str, Any]] = []
    for item in _items(text):
        m = ITEM.match(item)
        assert m is not None
        word, noun = m.group("word").lower(), m.group("noun").lower()
        link = noun_link(noun, own, cols)
        if link is None:
            continue
        via, collection = link
        if word == "past":
            field = _date_field(_props(cols, collection))
            check = (
                {"op": "dated", "via": via, "collection": collection, "field": field, "cmp": ">=", "value": today}
                if field and today
                else {}
            )
        else:
            check = _state(word, via, collection, cols, sample)
        if check and check not in found:
            found.append(check)
    return found


__all__ = ["linked_errors"]
