"""Numbers two links away: the records that a record the call's record links links in turn (the pier its berth's
`pier_id` names). docs_counters moves one of their numbers only where a sentence says whose number it is ("the
pier's `berths_free` count goes up by one"), reading the link as the call found it."""

from __future__ import annotations

from typing import Any

from synth.envsynth.docs_appends import number_fields
from synth.spec import record_props as _props
from synth.words import plural


def far_targets(
    cols: dict[str, Any], own: dict[str, Any], collection: str
) -> list[tuple[str, dict, str, list[str], str]]:
    """(collection, path source, number field, its number fields, second link) for each number of a record two
    links away; the path source reads the middle record's link (a `linked` source)."""
    out = []
    for ref in sorted(f for f in own if f.endswith("_id")):
        middle = plural(ref[:-3])
        for ref2 in sorted(f for f in _props(cols, middle) if f.endswith("_id") and f != ref):
            far = plural(ref2[:-3])
            numbers = number_fields(_props(cols, far))
            if far in (collection, middle) or not numbers or ref2 in own:
                continue
            source = {"from": "linked", "collection": middle, "via": ref, "field": ref2}
            out += [(far, source, f, numbers, ref2) for f in numbers]
    return out


__all__ = ["far_targets"]
