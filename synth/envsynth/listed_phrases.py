"""A field a read of one record answers beyond its own, read off the plain-words list of what it returns: "Get a
charter with its crew, berth, status, sailing date and history." Every phrase but one names a field of the record
(`crew`, `berth`, `status`, `history`; a word or two, or the word before a bracket); the one left ("sailing date")
ends with a field of exactly one record the charter links (the `date` of the voyage its `voyage_id` names), and is
answered under the phrase's words joined (`sailing_date`).

Only a list whose other phrases all name the record's fields is read, so prose that merely mentions things is not;
the answer is then {"op": "eq", "via", "collection", "path"} in `output_map` (shape_code renders it).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.filter_map import referenced_collection
from synth.spec import record_props
from synth.words import singular

LEAD = re.compile(r"^\s*(?:Gets?|Returns?|Fetch(?:es)?|Shows?|Reads?)\s+(?:an?|the)\s+(\w+)\s+with\s+(?:its\s+)?", re.I)
NOISE = {"the", "its", "their", "a", "an", "of"}
PREPOSITIONS = {"by", "for", "from", "in", "on", "with", "to", "at", "per", "via"}


def _phrases(text: str) -> list[str]:
    """The list after the lead-in, up to the sentence's end, split at commas and the last "and"."""
    body = re.split(r"\.(?:\s|$)", text, maxsplit=1)[0]
    body = re.sub(r"\([^()]*\)", "", body)  # "items (numbered lines)" -> "items"
    parts = [p.strip() for p in re.split(r",\s*|\s+and\s+", body) if p.strip()]
    return [" ".join(w for w in p.split() if w.lower() not in NOISE) for p in parts]


def _own(phrase: str, own: dict[str, Any]) -> bool:
    """The phrase names a field of the record: its words joined, or one of its words (`price breakdown` -> price)."""
    words = phrase.lower().split()
    return "_".join(words) in own or any(w in own or singular(w) in own for w in words)


def linked_phrase_fields(description: str, collection: str, cols: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """{answer field: how it is read} for the one phrase of the list naming a linked record's field; {} otherwise."""
    lead = LEAD.match(description)
    record = record_props(cols, collection)
    if not lead or singular(lead.group(1).lower()) != singular(collection.lower()) or not record:
        return {}
    phrases = _phrases(description[lead.end() :])
    left = [p for p in phrases if not _own(p, record)]
    if len(phrases) < 3 or len(left) != 1 or len(left[0].split()) < 2:
        return {}
    words = left[0].lower().split()
    if words[0] in PREPOSITIONS:  # "..., by charter id": how it is found, not what it answers
        return {}
    name = "_".join(words)
    if not re.fullmatch(r"[a-z][a-z_]*", name):
        return {}
    links = []
    for ref, schema in sorted(record.items()):
        other = referenced_collection(ref, schema, collection, cols)
        theirs = record_props(cols, other or "")
        if other and words[-1] in theirs:
            links.append({"op": "eq", "via": ref, "collection": other, "path": [words[-1]]})
    return {name: links[0]} if len(links) == 1 else {}


__all__ = ["linked_phrase_fields"]
