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
from synth.envsynth.refusals import _known

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
    """{start, end} or {start, length}: the fields of a record that bound its span (a known pair of names, a start
    number and a length, or the one text field named with a start word and the one with an end word), or None."""
    for start, end in ENDS:
        if start in own and end in own:
            return {"start": start, "end": end}
    starts = [f for f in own if f.startswith("start") and is_number(own[f])]
    lengths = [f for f in own if f in LENGTHS and is_number(own[f])]
    if len(starts) == 1 and len(lengths) == 1:
        return {"start": starts[0], "length": lengths[0]}
    from synth.envsynth.date_spans import ENDS as END_WORDS
    from synth.envsynth.date_spans import STARTS

    texts = [f for f, s in own.items() if isinstance(s, dict) and s.get("type") == "string" and "_" in f]
    firsts = [f for f in texts if set(f.split("_")) & STARTS and not set(f.split("_")) & END_WORDS]
    lasts = [f for f in texts if set(f.split("_")) & END_WORDS and not set(f.split("_")) & STARTS]
    if len(firsts) == 1 and len(lasts) == 1:  # `arrival_date` and `departure_date`
        return {"start": firsts[0], "end": lasts[0]}
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


# "A berth class is available when, for every night of the stay, the number of its berths that are not `closed`
# exceeds the number of `booked` or `moored` stays of that class covering the night"
AVAILABLE = re.compile(
    r"\bis\s+available\s+(?:when|if|only\s+when|only\s+if),?\s+for\s+(?:every|each)\s+(?:night|day)\s+of\s+the\s+"
    r"\w+,?\s+the\s+number\s+of\s+its\s+(?P<units>\w+)\s+that\s+are\s+not\s+(?P<out>[^,;.]+?)\s+exceeds\s+the\s+"
    r"number\s+of\s+(?P<held>[^.;]+?)\s+(?P<booked>\w+)\s+of\s+that\s+\w+\s+covering\s+the\s+(?:night|day)",
    re.I,
)


def _known_named(schema: dict[str, Any], said: str) -> tuple[str, list[str]] | None:
    """(field, values) of the one text field whose known values the phrase quotes."""
    quoted = re.findall(r"`([\w-]+)`", said)
    hits = []
    for field, sub in sorted(schema.items()):
        known = [str(v) for v in _known(sub)]
        if quoted and all(q in known for q in quoted):
            hits.append((field, quoted))
    return hits[0] if len(hits) == 1 else None


def capacity_checks(text: str, collection: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`capacity` checks: the new record is refused when, on some day of its span, the records of its collection in
    the quoted states that cover the day and name the same record (the class) are as many as that record's units
    (another collection's records naming it) outside the quoted states."""
    span = span_fields(own)
    out = []
    for m in AVAILABLE.finditer(unwrap(text)):
        units = m.group("units").lower()
        theirs = ((cols.get(units) or {}).get("additionalProperties") or {}).get("properties") or {}
        links = [f for f in sorted(own) if f.endswith("_id") and f in theirs and f != f"{units[:-1]}_id"]
        unit_out, held = _known_named(theirs, m.group("out")), _known_named(own, m.group("held"))
        if span is None or "end" not in span or len(links) != 1 or unit_out is None or held is None:
            continue
        if m.group("booked").lower() != collection.lower():
            continue
        check = {"op": "capacity", "collection": collection, "same": links[0], "where": {held[0]: held[1]}, **span}
        check.update({"units": units, "unit_out": {unit_out[0]: unit_out[1]}})
        out.append(check)
    return out


__all__ = ["capacity_checks", "overlap_checks"]
