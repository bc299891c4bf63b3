"""Fields a transition takes from a record its record names, as the docs name them and the sample data shows them:
"the car's current odometer and fuel level are recorded as `mileage_out` / `fuel_out`" becomes mileage_out = the
vehicle's mileage_km and fuel_out = its fuel_eighths, because every sample record already in the state the call
moves to holds exactly those values of the vehicle it names.

Only fields the docs name in a sentence that records, copies or takes something are read; at least two sample
records in the new state must agree, and exactly one field of one linked record must fit. A number of the record
may also take another of its own ("`fee` is set to `paid`", `number_copies`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import keyed_records, sample_records
from synth.envsynth.docs_appends import number_fields
from synth.envsynth.prose import unwrap

RECORDING = re.compile(r"\b(?:recorded|copied|taken|stored|noted|saved|captured|kept)\b", re.IGNORECASE)
MIN_AGREEING = 2


def _named_fields(text: str, own: dict[str, Any]) -> list[str]:
    """The record's fields a sentence that records something names (`mileage_out`, or "mileage out")."""
    found: list[str] = []
    for sentence in re.split(r"(?<=[.!?;])\s+", unwrap(text)):
        if not RECORDING.search(sentence):
            continue
        for field in own:
            spelt = rf"`{re.escape(field)}`|\b{re.escape(field)}\b"
            if "_" in field and re.search(spelt, sentence) and field not in found:
                found.append(field)
    return found


def _source(
    field: str, records: list[dict[str, Any]], links: dict[str, str], sample: dict[str, Any]
) -> tuple[str, str, str] | None:
    """(via, collection, source field): the one field of one linked record every record's `field` equals, unless
    they all hold nothing but zero (two zeros agreeing say nothing; two full tanks recorded as full do)."""
    if all(r.get(field) in (0, None, "", False) for r in records):
        return None
    fits = []
    for via, other in sorted(links.items()):
        holders = keyed_records(sample, other)
        named = [holders.get(str(r.get(via))) for r in records]
        if any(h is None for h in named):
            continue
        for source in sorted(set.intersection(*(set(h) for h in named if h is not None))):
            if source == via or (source.endswith("_id") and source != field):
                continue
            if all(
                r.get(field) is not None and type(r.get(field)) is type(h[source]) and r.get(field) == h[source]
                for r, h in zip(records, named)
                if h is not None
            ):
                fits.append((via, other, source))
    return fits[0] if len(fits) == 1 else None


def transition_copies(
    text: str,
    collection: str,
    own: dict[str, Any],
    links: dict[str, str],
    sample: dict[str, Any],
    sets: dict[str, Any],
) -> list[dict[str, Any]]:
    """`set` effects (a `linked` source) for the fields the docs say the transition records from a linked record;
    `links`: {reference field: collection}; `sets`: the values the transition sets (which state it moves to)."""
    if not sets:
        return []
    records = [r for r in sample_records(sample, collection) if all(r.get(f) == v for f, v in sets.items())]
    if len(records) < MIN_AGREEING:
        return []
    out = []
    keys = keyed_records(sample, collection)
    for field in _named_fields(text, own):
        if field in sets or field in links or all(keys.get(str(r.get(field))) is r for r in records):
            continue  # the record's own key ("with this boat_id") is never copied onto it
        found = _source(field, records, links, sample)
        if found is not None:
            via, other, source = found
            out.append(
                {
                    "op": "set",
                    "field": field,
                    "source": {"from": "linked", "collection": other, "via": via, "field": source},
                }
            )
    return out


NUMBER_SET = re.compile(r"`(?P<field>\w+)`\s+is\s+(?:set|reset|lowered|brought\s+down)\s+to\s+`(?P<source>\w+)`", re.I)


def number_copies(text: str, own: dict[str, Any]) -> list[dict[str, Any]]:
    """`set` effects for "`fee` is set to `paid`": a number of the record takes another of its numbers (to go after
    the moves that read the old value: "`owed` decreases by `fee - paid` and `fee` is set to `paid`")."""
    numbers = number_fields(own)
    out = []
    for m in NUMBER_SET.finditer(unwrap(text)):
        field, source = m.group("field"), m.group("source")
        if field in numbers and source in numbers and field != source and not any(e["field"] == field for e in out):
            out.append({"op": "set", "field": field, "source": {"from": "record", "path": [source]}})
    return out


__all__ = ["number_copies", "transition_copies"]
