"""Rules on the ids a call names, said in passing:

- "the crew (the skipper plus the listed sailors, duplicates ignored) must be active sailors": every id of the list
  argument the words name (`crew`) is a record of the noun's collection in that state (`each_named`);
- "the sailor who chartered the boat (`chartered_by`) cannot be removed": the argument naming such a record is not
  the record's field in brackets (`differs`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import known_values
from synth.spec import record_props as _props
from synth.words import plural, singular

EACH_IN_STATE = re.compile(
    r"\bthe\s+(?P<words>[a-z]+)\s+(?:\([^()]*\)\s+)?must\s+be\s+[`'\"]?(?P<value>[a-z][\w-]*)[`'\"]?\s+(?P<noun>[a-z]+)\b",
    re.I,
)
NOT_REMOVED = re.compile(
    r"\bthe\s+(?P<noun>[a-z]+)\s+who\s+[a-z ]{2,40}?\s+\(`?(?P<field>\w+)`?\)\s+cannot\s+be\s+"
    r"(?:removed|dropped|deleted)",
    re.I,
)


def id_rules(text: str, params: dict[str, Any], cols: dict[str, Any], own: dict[str, Any] | None) -> list[dict]:
    """The `each_named` and `differs` checks the text gives (module docstring)."""
    out: list[dict[str, Any]] = []
    for m in EACH_IN_STATE.finditer(text):
        arg = m.group("words").lower()
        col = plural(singular(m.group("noun").lower()))
        if (params.get(arg) or {}).get("type") != "array" or col not in cols:
            continue
        fields = [f for f, s in _props(cols, col).items() if m.group("value") in known_values(s)]
        if len(fields) == 1:
            out.append(
                {"op": "each_named", "arg": arg, "collection": col, "field": fields[0], "in": [m.group("value")]}
            )
    for m in NOT_REMOVED.finditer(text) if own else ():
        param = f"{singular(m.group('noun').lower())}_id"
        if param in params and m.group("field") in (own or {}):
            a, b = {"from": "arg", "name": param}, {"from": "record", "path": [m.group("field")]}
            out.append({"op": "differs", "a": a, "b": b})
    return out


__all__ = ["id_rules"]
