"""Dates a state change empties, read off the sample records: a charter's `hold_expires` holds a date in every
`pencilled` charter and is null in every `booked` one, so confirming a pencilled charter clears it.

A date field the change does not write otherwise is cleared (set to null) when at least two sample records are
already in the state it moves to and every one of them holds null there, while at least two records are in the
states it moves from and every one of those holds a date: a deadline of the state left. Other fields are not read
so: a reference the records in the new state leave empty (a courier on delivered parcels) may have been cleared by
a later change the data does not show, and a real system that keeps it would disagree on every call. Fields the
docs name are read elsewhere (policy_rules.py); this is what the data alone shows.
"""

from __future__ import annotations

import re
from typing import Any

MIN_RECORDS = 2
DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def cleared_fields(
    records: list[dict[str, Any]], sets: dict[str, Any], allowed: dict[str, list[Any]], taken: set[str]
) -> list[dict[str, Any]]:
    """`set` effects to null for the date fields every record in the new state leaves empty and every record in a
    state the change moves from fills; none when the change sets no state or the states it leaves are unknown."""
    moved = [f for f in sets if allowed.get(f)]
    if len(moved) != 1:
        return []
    state = moved[0]
    done = [r for r in records if r.get(state) == sets[state]]
    before = [r for r in records if r.get(state) in allowed[state]]
    if len(done) < MIN_RECORDS or len(before) < MIN_RECORDS:
        return []
    names = sorted({k for r in done + before for k in r} - set(sets) - taken)
    return [
        {"op": "set", "field": name, "source": {"from": "const", "value": None}}
        for name in names
        if all(name in r and r[name] is None for r in done)
        and all(isinstance(r.get(name), str) and DATE.match(r[name]) for r in before)
    ]


__all__ = ["cleared_fields"]
