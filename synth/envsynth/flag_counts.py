"""Boolean filter flags that keep records by the records of another collection that name them: "free_only keeps
piers with at least one free mooring (at the given harbour, if any)". When the flag is true a record is kept when at
least one record of the named collection (`moorings`) names it through its one reference, has the adjective as the
value of one of its closed text fields (`status` 'free'), and, when the aside names an argument that is passed,
holds the argument's value in that argument's field (`harbour`).

Each is {"count": <answer_extras.linked_count rule>, "least": 1}; the filter template counts (filter.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.answer_extras import linked_count

KEPT = re.compile(r"\b(?:keeps?|only|returns? only|restricts?)\b(.*)", re.I)
HELD_BY = re.compile(
    r"\bat\s+least\s+(?:one|an?|1)\s+(?P<adj>\w+)\s+(?P<noun>\w+)"
    r"(?:\s*\((?:at|in|for|of)\s+the\s+given\s+(?P<given>\w+)\b[^()]*\))?",
    re.I,
)


def _value_field(fields: dict[str, Any], value: str) -> str | None:
    """The one closed text field of the records whose known values hold `value` as written."""
    hits = [
        f
        for f, s in sorted(fields.items())
        if isinstance(s, dict) and value in [str(v) for v in (s.get("enum") or s.get("x-enum") or [])]
    ]
    return hits[0] if len(hits) == 1 else None


def flag_count(text: str, collection: str, cols: dict[str, Any], params: dict[str, Any]) -> dict[str, Any] | None:
    """The count a true flag keeps records by, as its sentence states it; None when it states none."""
    kept = KEPT.search(text)
    said = HELD_BY.search(kept.group(1)) if kept else None
    if said is None:
        return None
    given = said.group("given")
    if given and given not in params:
        return None
    rule = linked_count(said.group("noun"), collection, cols, {}, given)
    if rule is None:
        return None
    other = ((cols.get(rule["collection"]) or {}).get("additionalProperties") or {}).get("properties") or {}
    field = _value_field(other, said.group("adj"))
    if field is None:
        return None
    return {"count": {**rule, "where": {field: said.group("adj")}}, "least": 1}


def flag_counts(
    sentences: dict[str, str], collection: str, cols: dict[str, Any], params: dict[str, Any]
) -> dict[str, list[dict[str, Any]]]:
    """{flag: [count]} for the flags (name -> its sentence) whose sentence keeps records by a linked count."""
    out = {}
    for name, text in sorted(sentences.items()):
        found = flag_count(text, collection, cols, params)
        if found:
            out[name] = [found]
    return out


__all__ = ["flag_count", "flag_counts"]
