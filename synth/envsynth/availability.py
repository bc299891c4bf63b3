"""Availability searches: a filter over records that others book for spans of days ("pass arrival and departure
together to get only sites that can actually be booked for those nights ... any site holding a confirmed or
checked-in reservation that overlaps the requested nights" is dropped) keeps, when the call gives both of its two
date parameters, only the records no booking in the named states overlaps, and leaves out the records whose
closed field holds a value the paragraph drops ("Closed sites are dropped").

The booking collection is the one collection whose records name the searched one and hold a start and an end
date (overlap_checks' spans); a stay ending on a day does not block one starting that day. The plan's
`availability` is {"from", "to", "collection", "ref", "start", "end", "where", "drop"}, rendered by filter.py.j2.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.date_spans import date_pair
from synth.envsynth.linked_answers import kept_states, naming_collections
from synth.envsynth.overlap_checks import span_fields
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec

# "overlaps the requested nights", "free for the whole period, i.e. with no held berth over any of those nights"
OVERLAP = re.compile(
    r"\boverlap|\bfree\s+for\s+(?:the\s+whole|the\s+entire|all\s+the|every)\b|"
    r"\b(?:no|without\s+an?|not)\s+[\w-]+(?:\s+or\s+[\w-]+)?(?:\s+\w+)?\s+(?:over|during|on)\s+any\s+of\s+"
    r"(?:those|these|the)\s+(?:nights|days|dates)\b",
    re.I,
)
NOT_HELD = re.compile(r"\bnot\s+(?=[\w-]+(?:\s+or\s+[\w-]+)?\s+(?:over|during|on)\s+any\s+of\b)", re.I)


def _affirmed(text: str) -> bool:
    """Whether the text says the search drops what is booked: a match not denied earlier in its clause ("they do
    not check that the berth is free for the whole period" says no such thing)."""
    return any(
        not re.search(r"\b(?:not|never)\b[^.;,]*$", text[: m.start()], re.I) or m.group(0).lower().startswith("not")
        for m in OVERLAP.finditer(text)
    )


DROPPED = re.compile(
    r"\b(?:dropped|excluded|left\s+out|omitted|skipped|not\s+(?:returned|listed|shown)|never\s+(?:returned|listed))\b",
    re.I,
)


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.;!?])(?<!\bi\.e\.)(?<!\be\.g\.)\s+|\n", text) if s.strip()]  # not after "i.e."


def _dropped(paragraph: str, fields: dict[str, Any]) -> dict[str, list[Any]]:
    """{closed field: values} of the searched records the paragraph drops: values named before the dropping word."""
    out: dict[str, list[Any]] = {}
    for sentence in _sentences(paragraph):
        found = DROPPED.search(sentence)
        if not found or re.search(r"\bunless\b", sentence, re.I):
            continue  # "left out unless include_closed is true": the flag's filter, not the search's
        said = kept_states(sentence[: found.start()], fields)
        for field, values in (said or {}).items():
            out.setdefault(field, [])
            out[field] += [v for v in values if v not in out[field]]
    return out


def availability(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> dict[str, Any] | None:
    """The availability rule of a filter whose docs drop the records a booking overlaps, or None."""
    if plan.kind != "filter" or not plan.collection or not plan.key_field:
        return None
    pair = date_pair(spec.parameters.get("properties") or {})
    paragraph = next((p for p in re.split(r"\n\s*\n", spec.description) if _affirmed(p)), "")
    if pair is None or not paragraph:
        return None
    cols = state_schema.get("properties") or {}
    found = []
    for other, ref in naming_collections(cols, plan.collection).items():
        span = span_fields(_props(cols, other))
        if span and "end" in span:
            found.append((other, ref, span))
    if len(found) != 1:
        return None
    other, ref, span = found[0]
    said = next(s for s in _sentences(paragraph) if _affirmed(s))
    where = kept_states(NOT_HELD.sub("", said), _props(cols, other))  # "not reserved or moored on any of": held
    if where is None:
        return None
    return {
        "from": pair[0],
        "to": pair[1],
        "collection": other,
        "ref": ref,
        "start": span["start"],
        "end": span["end"],
        "where": where,
        "drop": _dropped(paragraph, _props(cols, plan.collection)),
    }


__all__ = ["availability"]
