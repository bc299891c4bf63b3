"""A create that adds its record's link to a list of a record it names, as the docs say it: "The skipper is appended
to the pier's `moored`" (the new record's link to the skipper goes on the pier's list of skippers), and "the pier
becomes `full` when the last place is taken" (once that list holds as many entries as the pier's cap number).

Both nouns name records through the new record's links (create_checks.noun_link); the list is the field the docs
quote, and its entries must reference the first noun's collection. Effects: {"op": "member_append", "collection",
"via", "list", "item"} and {"op": "list_full", "collection", "via", "list", "cap", "field", "value"}
(code_templates/_blocks.j2 `full_states`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.full_states import cap_field
from synth.envsynth.prose import unwrap

APPENDED = re.compile(
    r"\bthe\s+(?P<member>[a-z]\w*)\s+is\s+(?:appended|added)\s+to\s+the\s+(?P<noun>[a-z]\w*)['\u2019]s\s+"
    r"`?(?P<list>\w+)`?",
    re.I,
)
LAST_PLACE = re.compile(
    r"\bthe\s+(?P<noun>[a-z]\w*)\s+(?:becomes|turns|is\s+marked)\s+`(?P<value>[\w-]+)`\s+(?:when|once|as\s+soon\s+as)\s+"
    r"(?:the\s+last|its\s+last|every)\s+(?:free\s+)?(?:place|room|space|spot|seat|bed)\s+is\s+(?:taken|filled)",
    re.I,
)


def member_lists(text: str, collection: str, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The `member_append` and `list_full` effects the docs give for a create of `collection`."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    plain = unwrap(text)
    out: list[dict[str, Any]] = []
    for m in APPENDED.finditer(plain):
        member, holder = noun_link(m.group("member"), own, cols), noun_link(m.group("noun"), own, cols)
        schema = _props(cols, holder[1]).get(m.group("list")) if holder else None
        items = (schema or {}).get("items") if isinstance(schema, dict) else None
        if not (member and holder and isinstance(items, dict) and items.get("x-references") == member[1]):
            continue
        out.append(
            {
                "op": "member_append",
                "collection": holder[1],
                "via": holder[0],
                "list": m.group("list"),
                "item": member[0],
            }
        )
    for m in LAST_PLACE.finditer(plain):
        appended = [e for e in out if e["op"] == "member_append" and noun_link(m.group("noun"), own, cols)]
        appended = [e for e in appended if e["via"] == noun_link(m.group("noun"), own, cols)[0]]
        theirs = _props(cols, appended[0]["collection"]) if appended else {}
        cap = cap_field(theirs)
        states = [f for f, s in sorted(theirs.items()) if m.group("value") in [str(v) for v in _known(s or {})]]
        if cap and len(states) == 1:
            base = {k: appended[0][k] for k in ("collection", "via", "list")}
            out.append({"op": "list_full", **base, "cap": cap, "field": states[0], "value": m.group("value")})
    return out


__all__ = ["member_lists"]
