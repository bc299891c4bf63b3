"""Entries the docs write out in full on another record than the call's own: 'a `history` entry `{"date": today,
"event": "paid", "detail": <payment_id>}` is appended to the invoice', "appends `{on: today, note: <reason>}` to the
member's log".

The owner word names another collection of the state (singular or plural) whose records hold that list; the
element is read like the call's own entries (docs_appends.element_rule: a placeholder or bare name is the argument
of that name, else the call's record's field, `today` the business date). The record to append to is the one the
call's record links to (`<owner>_id` or its one field that references the owner's collection), else the one the
argument `<owner>_id` names. Each becomes a `ref_append` effect (code_templates/_blocks.j2 `linked_appends`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import _blank_text, element_rule
from synth.envsynth.prose import unwrap
from synth.spec import record_props
from synth.words import singular

BODY = r"`?(?P<body>\{[^`{}]{1,400}\})`?"
OWNER = r"(?:the|its|their|that)\s+`?(?P<owner>[A-Za-z_]+)`?(?:['\u2019]s\s+`?(?P<list2>[A-Za-z_]+)`?)?"
WRITTEN = r"(?:appended|added|written|recorded|logged)"
ENTRY_TO = re.compile(  # "a `history` entry `{...}` is appended to the invoice"
    rf"\b(?:an?|one)\s+`?(?P<list>[A-Za-z_]+)`?\s+(?:entry|element|item|record)\s+{BODY}\s+(?:is|gets)\s+{WRITTEN}\s+"
    rf"(?:to|on|in)\s+{OWNER}",
    re.IGNORECASE,
)
APPENDS_TO = re.compile(  # "appends `{...}` to the member's log", "`{...}` is appended to the member's log"
    rf"(?:\bappends?\s+(?:an?\s+(?:entry|element)\s+)?{BODY}|{BODY.replace('body', 'passive')}\s+is\s+{WRITTEN})\s+"
    rf"(?:to|on|in)\s+{OWNER}",
    re.IGNORECASE,
)


def owner_collection(owner: str, cols: dict[str, Any], own: str) -> str | None:
    """The collection, other than the call's own, that an owner word names ("the invoice's" -> `invoices`)."""
    word = singular(owner.lower())
    return next((c for c in cols if owner and c != own and singular(c.lower()) == word), None)


def record_link(own: dict[str, Any], other: str, params: dict[str, Any]) -> dict[str, str] | None:
    """How the call reaches its record's `other` record: {"via": field} (`<other>_id`, or the one field referencing
    `other`), else {"via_arg": "<other>_id"} when the call names it, else None."""
    links = [f for f, sub in sorted(own.items()) if isinstance(sub, dict) and sub.get("x-references") == other]
    named = f"{singular(other)}_id"
    via = named if named in own else (links[0] if len(links) == 1 else None)
    return {"via": via} if via else {"via_arg": named} if named in params else None


def literal_linked_entries(
    text: str,
    collection: str,
    state_schema: dict[str, Any],
    parameters: dict[str, Any],
    today: str | None,
) -> list[dict[str, Any]]:
    """`ref_append` effects for entries written out in full that the text appends to a linked record's list."""
    cols = state_schema.get("properties") or {}
    params = parameters.get("properties") or {}
    own = record_props(cols, collection)
    out: list[dict[str, Any]] = []
    text = unwrap(text)
    found = [(m, m.group("list")) for m in ENTRY_TO.finditer(text)] + [(m, None) for m in APPENDS_TO.finditer(text)]
    for m, named_list in sorted(found, key=lambda pair: pair[0].start()):
        other = owner_collection(m.group("owner"), cols, collection)
        field = m.group("list2") or named_list
        if other is None or not field:
            continue
        theirs = record_props(cols, other)
        if (theirs.get(field) or {}).get("type") != "array" or any(
            e["collection"] == other and e["field"] == field for e in out
        ):
            continue
        body = m.group("body") or m.groupdict().get("passive")
        rule = element_rule(body, own, params, None, today) if body else None
        link = record_link(own, other, params)
        if rule is not None and link is not None:
            rule = _blank_text(rule, theirs[field], params)
            out.append({"op": "ref_append", "collection": other, **link, "field": field, "items": [rule]})
    return out


__all__ = ["literal_linked_entries", "owner_collection", "record_link"]
