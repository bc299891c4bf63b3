"""Kinds of a named thing that only some holders may take: "Dinghies, kayaks and canoes can only be booked with an
instructor whose skills include `paddling`".

The listed words (plural or not) are values of one text field of the entries of a list that a record the new record
names holds (the `boats` of its owner, picked by the new record's `boat_name` against the entries' `name`), at
least two of them known values; the holder is the record the new record names whose collection the noun names (or
begins: "veterinarian" for `vets`), and the list field after "whose" must hold the quoted value. Each becomes a
`kind_needs` check (expr_runtime.fg_check): for those kinds, the holder's list must hold the value.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _known, _props
from synth.envsynth.docs_linked import record_links
from synth.envsynth.prose import unwrap
from synth.words import singular

ONLY_WITH = re.compile(
    r"\b(?P<kinds>[A-Z]?[a-z]+(?:\s*,\s*[a-z]+)*\s*,?\s+(?:and|or)\s+[a-z]+)\s+can\s+only\s+be\s+\w+\s+"
    r"(?:with|by|to)\s+an?\s+(?P<noun>\w+)\s+whose\s+`?(?P<field>\w+)`?\s+(?:include|includes|contain|contains)\s+"
    r"`(?P<value>[\w-]+)`",
)


def _element(kinds: list[str], own: dict[str, Any], cols: dict[str, Any]) -> dict[str, Any] | None:
    """{via, collection, list, by, match, field} of the list entries whose text field knows the kinds."""
    for via, other in sorted(record_links(own, cols, "").items()):
        for name, schema in sorted(_props(cols, other).items()):
            items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
            entry = (items or {}).get("properties") or {}
            held = [f for f, s in sorted(entry.items()) if sum(k in map(str, _known(s)) for k in kinds) >= 2]
            word = singular(name.lower())
            picks = [  # the new record's `boat_name` names an entry by its `name`
                (f, e) for f in own for e in entry if f == f"{word}_{e}" and isinstance(own.get(f), dict)
            ]
            if len(held) == 1 and len(picks) == 1:
                return {
                    "via": via,
                    "collection": other,
                    "list": name,
                    "by": picks[0][0],
                    "match": picks[0][1],
                    "field": held[0],
                }
    return None


def kind_needs(text: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """The `kind_needs` checks of a create whose docs say which kinds only some holders may take."""
    out: list[dict[str, Any]] = []
    links = record_links(own, cols, "")
    for m in ONLY_WITH.finditer(unwrap(text)):
        kinds = [singular(w.lower()) for w in re.split(r"\s*,\s*|\s+and\s+|\s+or\s+", m.group("kinds")) if w]
        element = _element(kinds, own, cols)
        noun = m.group("noun").lower()
        holders = [
            (via, other)
            for via, other in sorted(links.items())
            if noun == singular(other) or (len(singular(other)) >= 3 and noun.startswith(singular(other)))
        ]
        if element is None or len(holders) != 1:
            continue
        via, other = holders[0]
        if _props(cols, other).get(m.group("field"), {}).get("type") != "array":
            continue
        holder = {"via": via, "collection": other, "field": m.group("field"), "value": m.group("value")}
        out.append({"op": "kind_needs", "element": {**element, "in": kinds}, "holder": holder})
    return out


__all__ = ["kind_needs"]
