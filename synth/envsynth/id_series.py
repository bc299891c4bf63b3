"""Ids of one series: the same letters, then numbers of one width ("SL-0041", "SL-0042"). A log entry whose data
shows a fresh one in each takes the next of the series (series_runtime.fg_next_in_series)."""

from __future__ import annotations

import re
from typing import Any

SERIES_ID = re.compile(r"^(?P<prefix>[A-Za-z]+[-_]?)(?P<number>\d{2,})$")


def series_shape(value: Any) -> dict[str, Any] | None:
    """{prefix, digits} of an id of a series ("SL-0042": "SL-", 4), else None."""
    m = SERIES_ID.match(value) if isinstance(value, str) else None
    return {"prefix": m.group("prefix"), "digits": len(m.group("number"))} if m else None


def id_series(values: list[Any]) -> dict[str, Any] | None:
    """{prefix, digits} when the values are two or more different ids of one series ("SL-0041", "SL-0042": the
    same letters, then numbers of the same width), else None."""
    shapes = [series_shape(v) for v in values]
    if len(values) < 2 or len(set(map(str, values))) != len(values) or any(s != shapes[0] for s in shapes):
        return None
    return shapes[0]


def fresh_ids(entries: list[dict[str, Any]], taken: frozenset[str]) -> dict[str, dict[str, Any]]:
    """Entry field -> `next_in_series` source for each field whose values are ids of one series, a fresh one in each
    entry, none of them a key of the state (`taken`: those name records, they are no new ids)."""
    out = {}
    for name in dict.fromkeys(k for e in entries for k in e):
        values = [e.get(name) for e in entries]
        series = id_series(values)
        if series is not None and not any(str(v) in taken for v in values):
            out[name] = {"from": "next_in_series", "field": name, **series}
    return out


__all__ = ["fresh_ids", "id_series", "series_shape"]
