"""Rules on the ids a call names, said in passing:

- "the crew (the skipper plus the listed sailors, duplicates ignored) must be active sailors": every id of the list
  argument the words name (`crew`) is a record of the noun's collection in that state (`each_named`);
- "the sailor who chartered the boat (`chartered_by`) cannot be removed": the argument naming such a record is not
  the record's field in brackets (`differs`);
- "The skipper, the dinghy (by name, as on the skipper's account) and the bay must exist", where dinghies are no
  collection but a list of the record another argument names: an entry of that list has the name the
  `dinghy_name` argument gives (`entry_named`).
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


MUST_EXIST = re.compile(r"\b(?:the\s+)?(?P<nouns>[a-z][^.;:]{0,200}?)\s+must\s+(?:all\s+)?exist\b", re.I)


def _named_entries(text: str, params: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`entry_named` checks for the nouns of a "must exist" sentence that are entries of a named record's list."""
    out: list[dict[str, Any]] = []
    for m in MUST_EXIST.finditer(text):
        said = re.sub(r"\([^()]*\)", " ", m.group("nouns"))
        for word in re.findall(r"\b(?:the\s+)?([a-z]+)\b(?=\s*(?:,|\band\b|$))", said, re.I):
            noun = singular(word.lower())
            arg = f"{noun}_name"
            if plural(noun) in cols or arg not in params:
                continue
            holders = [
                (p, c, plural(noun))
                for p in sorted(params)
                if p.endswith("_id")
                for c in (plural(p[:-3]),)
                if c in cols and ((_props(cols, c).get(plural(noun)) or {}).get("type") == "array")
            ]
            if len(holders) == 1:
                param, col, listed = holders[0]
                items = ((_props(cols, col)[listed].get("items") or {}).get("properties")) or {}
                if "name" in items:
                    out.append(
                        {
                            "op": "entry_named",
                            "collection": col,
                            "via_arg": param,
                            "list": listed,
                            "field": "name",
                            "arg": arg,
                        }
                    )
    return out


def id_rules(text: str, params: dict[str, Any], cols: dict[str, Any], own: dict[str, Any] | None) -> list[dict]:
    """The `each_named`, `differs` and `entry_named` checks the text gives (module docstring)."""
    out: list[dict[str, Any]] = _named_entries(text, params, cols)
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
