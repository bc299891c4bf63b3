"""How many entries a new record's list takes, as a create's docs state it: "Private charters take 1 to 8
passengers." (or "Charters take up to 8 passengers", "at most 8"):

- the sentence ends at the list's name (an exception, "per boat" or "at the base fare" after it is no cap);
- the noun is the created record's kind (one or many: "Each charter takes ..."), after a value of one of its closed
  fields ("Private": `kind` holds `private`) or none; the last word names one of its list fields (`passengers`);
- the list holds at most the upper number of entries (`list_room`), and at least one when the lower number is 1
  (`filled`), while the closed field holds the value (the check's `when`), always without one.

A lower number above 1 ("Groups take 10 to 40 passengers") only bounds the list from above.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap
from synth.spec import known_values
from synth.words import plural, singular

TAKE = re.compile(
    r"(?:^|(?<=[.;:]\s)|(?<=^[-*]\s))(?:(?P<value>[A-Za-z][\w-]*)\s+)?(?P<noun>[a-z]\w*)\s+"
    r"(?:takes?|holds?|carr(?:y|ies))\s+"
    r"(?:(?P<low>\d+)\s+to\s+(?P<high>\d+)|(?:up\s+to|at\s+most)\s+(?P<most>\d+))\s+(?P<list>[a-z]\w*)"
    r"(?=\s*(?:[.;]|$))",  # the sentence ends there: "..., or 12 with ...", "per boat", "at the base fare" are no cap
    re.I | re.M,
)


def _closed(value: str, own: dict[str, Any]) -> tuple[str, str] | None:
    """(field, value as stored) of the one closed field of the record listing the word among its values."""
    found = [
        (f, v) for f, s in sorted(own.items()) for v in known_values(s) if v.lower() == value.lower() and v.isalpha()
    ]
    return found[0] if len(found) == 1 else None


def list_sizes(text: str, collection: str, own: dict[str, Any]) -> list[dict[str, Any]]:
    """The `list_room` and `filled` checks of the docs' "<value> <records> take N to M <entries>" sentences ([] when
    none reads); `own`: the created record's properties."""
    found: list[dict[str, Any]] = []
    kinds = {singular(collection).lower(), plural(singular(collection)).lower()}
    for m in TAKE.finditer(unwrap(text)):
        noun, name = m.group("noun").lower(), m.group("list").lower()
        value = m.group("value")
        if noun not in kinds or "array" not in str((own.get(name) or {}).get("type")):
            continue
        when = None
        if value and value.lower() not in {"the", "a", "an", "new", "all", "each", "every"}:
            closed = _closed(value, own)
            if closed is None:
                continue  # a word before the noun that no closed field holds: not read
            when = {"field": closed[0], "in": [closed[1]]}
        most = int(m.group("high") or m.group("most"))
        checks = [{"op": "list_room", "list": name, "most": most + 1}]
        if m.group("low") == "1":
            checks.append({"op": "filled", "field": name})
        found += [{**c, "when": when} if when else c for c in checks if c not in found]
    return found


__all__ = ["list_sizes"]
