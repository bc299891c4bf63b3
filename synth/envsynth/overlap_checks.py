"""Clashes a create's docs forbid: "the <noun> must not (may not, cannot) have (hold) any other <states> <record>
overlapping ...", "... would overlap a <states> <record> on (of, for) the same <noun>", or "no <states> <record> on
the <noun> overlaps ...", refuses a new record whose span overlaps that of a stored record of the same collection
that names the same <noun> (and holds the same date), in one of those states.

The <noun> names the shared record by the new record's `<noun>_id`; the states are the known values of one of the
record's text fields the sentence names ("<a>-<b>" for `<a>_<b>`); the span is a start number and a length number of
the record (`start_<unit>` and `duration`, `minutes`, ...), or a start and an end field (`start_date` and `end_date`,
`arrive` and `depart`, ...), compared as numbers or as ISO dates; a `date` field, when the span is a start and a
length, must match too. Each becomes an `overlap` check {collection, same, where, start, length | end} that
expr_runtime.fg_check evaluates on the new record.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.envsynth.prose import unwrap

CLASH = re.compile(
    r"\bthe\s+([a-z][\w ]{0,30}?)\s+(?:must\s+not|may\s+not|cannot|can't)\s+(?:have|hold)\s+"
    r"(?:another|any\s+other|an\s+)([\w ,-]{0,80}?)\s+overlapping\b([^.;]*)",
    re.I,
)
# the clash said the other way round: "... would overlap a <states> <record> on (of, for) the same <noun>"
SAME = re.compile(
    r"\boverlap(?:s|ping)?\s+(?:an?\s+|any\s+|another\s+)?(?:existing\s+|other\s+)?([\w ,-]{0,80}?)\s+"
    r"(?:on|of|for|in|at|with)\s+the\s+same\s+([a-z]\w*(?:\s+[a-z]\w*)?)",
    re.I,
)
# "no confirmed or checked-in reservation on the site overlaps the requested nights"
NONE_ON = re.compile(
    r"\bno\s+([\w ,-]{0,80}?)\s+(?:on|of|for|at)\s+the\s+([a-z]\w*(?:\s+[a-z]\w*)?)\s+overlaps?\b", re.I
)
LENGTHS = ("hours", "minutes", "nights", "days", "duration", "length", "slots")
ENDS = (("start", "end"), ("start_date", "end_date"), ("arrive", "depart"), ("check_in", "check_out"), ("from", "to"))
ENDS += (("starts_at", "ends_at"), ("start_time", "end_time"), ("arrival", "departure"))


def span_fields(own: dict[str, Any]) -> dict[str, str] | None:
    """{start, end} or {start, length}: the fields of a record that bound its span, or None."""
    for start, end in ENDS:
        if start in own and end in own:
            return {"start": start, "end": end}
    starts = [f for f in own if f.startswith("start") and is_number(own[f])]
    lengths = [f for f in own if f in LENGTHS and is_number(own[f])]
    if len(starts) == 1 and len(lengths) == 1:
        return {"start": starts[0], "length": lengths[0]}
    return None


def overlap_checks(text: str, collection: str, own: dict[str, Any]) -> list[dict[str, Any]]:
    """`overlap` checks for the clashes the docs forbid between a new record and stored ones."""
    out = []
    span = span_fields(own)
    said_as = [(m.group(1), m.group(2)) for m in CLASH.finditer(unwrap(text))]
    said_as += [(m.group(2), m.group(1)) for m in SAME.finditer(unwrap(text))]
    said_as += [(m.group(2), m.group(1)) for m in NONE_ON.finditer(unwrap(text))]
    for noun, states in said_as:
        words = noun.lower().split()
        link = next((f for f in ("_".join(words) + "_id", words[0] + "_id") if f in own), "")
        if span is None or not link:
            continue
        said = {w.replace("-", "_") for w in re.findall(r"[\w-]+", states.lower())}
        where = {}
        for field, schema in sorted(own.items()):
            known = [
                str(v) for v in ((schema.get("enum") or schema.get("x-enum") or []) if isinstance(schema, dict) else [])
            ]
            named = [v for v in known if v.lower() in said]
            if named:
                where[field] = named
        same = [link] + (["date"] if "length" in span and "date" in own else [])
        check = {"op": "overlap", "collection": collection, "same": same, "where": where, **span}
        if check not in out:
            out.append(check)
    return out


__all__ = ["overlap_checks"]
