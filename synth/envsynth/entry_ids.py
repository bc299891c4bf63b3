"""Ids of a logged entry that the docs spell out of parts: 'A `docked` event is appended to the boat's log with the
ticket number (boat id + `-D` + the count of docked events on the boat including this one)'.

The words before the brackets name the entry's field (`ticket`, with or without "number", "id", "code" or
"reference" after it); the bracketed parts, joined by "+", are: a quoted literal (`-D`); the record's id ("boat id",
"the boat's id"); one of the record's fields, quoted; or how many entries of a kind its list holds ("the count of
docked events on the boat", "including this one" counting the new entry too). A part none of these reads leaves the
field unread. Each becomes a `concat` source of the entry's field (codegen's `kind_count` counts the entries).
"""

from __future__ import annotations

import re
from typing import Any

from synth.words import singular

COMPOSED = re.compile(
    r"\bwith\s+(?:the|a|an|its)\s+(?:new\s+)?`?(?P<field>[a-z]\w*)`?(?:\s+(?:number|id|code|reference))?\s*"
    r"\((?P<parts>[^()]*\+[^()]*)\)",
    re.IGNORECASE,
)
LITERAL = re.compile(r"^[`'\"]([^`'\"]{1,20})[`'\"]$")
OWN_ID = re.compile(r"^(?:the\s+)?(?P<noun>\w+?)(?:['\u2019]s)?\s+(?:id|key|number|code)$", re.IGNORECASE)
FIELD = re.compile(r"^(?:the\s+\w+['\u2019]s\s+)?`(?P<field>\w+)`$")
COUNT = re.compile(
    r"^(?:the\s+)?(?:count|number)\s+of\s+[`'\"]?(?P<kind>[\w-]+)[`'\"]?\s+(?:entries|events|lines|records|notes)"
    r"(?:\s+(?:on|of|in)\s+(?:the|its)\s+\w+(?:['\u2019]s\s+\w+)?)?(?P<including>,?\s+including\s+this\s+one)?$",
    re.IGNORECASE,
)


def _part(text: str, noun: str, own: dict[str, Any], list_field: str, kind_field: str) -> str | dict[str, Any] | None:
    """The source of one "+"-joined part, or None when it reads as none."""
    text = text.strip()
    literal = LITERAL.match(text)
    if literal:
        return literal.group(1)
    said = OWN_ID.match(text)
    if said and singular(said.group("noun").lower()) in (noun, noun.split("_")[-1]):
        return {"from": "own_key"}
    field = FIELD.match(text)
    if field and field.group("field") in own:
        return {"from": "record", "path": [field.group("field")]}
    count = COUNT.match(text)
    if count:
        after = 1 if count.group("including") else 0
        return {
            "from": "kind_count",
            "list": list_field,
            "field": kind_field,
            "value": count.group("kind"),
            "after": after,
        }
    return None


def composed_ids(
    rest: str, noun: str, own: dict[str, Any], list_field: str, kind_field: str, entry_fields: set[str]
) -> dict[str, dict[str, Any]]:
    """{entry field: `concat` source} for the ids the sentence after an entry's naming spells out of parts; `own`
    the fields of the call's record, `list_field` the list the entry goes to, `kind_field` the entry field holding
    its kind."""
    sentence = re.split(r"\.(?:\s|$)", rest, maxsplit=1)[0]
    out: dict[str, dict[str, Any]] = {}
    for m in COMPOSED.finditer(sentence):
        if m.group("field") not in entry_fields:
            continue
        parts = [_part(p, singular(noun.lower()), own, list_field, kind_field) for p in m.group("parts").split("+")]
        if len(parts) >= 2 and all(p is not None for p in parts):
            out[m.group("field")] = {"from": "concat", "parts": parts}
    return out


__all__ = ["composed_ids"]
