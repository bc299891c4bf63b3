"""A create that adds its record's link to a list of a record it names, as the docs say it: "The skipper is appended
to the pier's `moored`" (the new record's link to the skipper goes on the pier's list of skippers), "its ID (or "the
new charter") is appended to the pier's `charters`" (the new record's own key, on a list of that kind's ids), and
"the pier becomes `full` when the last place is taken" (once that list holds as many entries as the pier's cap
number).

Both nouns name records through the new record's links (create_checks.noun_link); the list is the field the docs
quote, and its entries must reference the first noun's collection. Effects: {"op": "member_append", "collection",
"via", "list", "item"} and {"op": "list_full", "collection", "via", "list", "cap", "field", "value"}
(code_templates/_blocks.j2 `full_states`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import OWN_EVENT, _known, _props
from synth.envsynth.create_sets import CONDITION
from synth.envsynth.full_states import cap_field
from synth.envsynth.one_per import names_kind
from synth.envsynth.prose import unwrap

APPENDED = re.compile(
    r"\bthe\s+(?P<member>[a-z]\w*)\s+is\s+(?:appended|added)\s+to\s+the\s+(?P<noun>[a-z]\w*)['\u2019]s\s+"
    r"`?(?P<list>\w+)`?",
    re.I,
)
KEY_APPENDED = re.compile(  # "its ID (the new charter) is appended to the pier's `charters`": the new record's own key
    r"\b(?:(?:its|the\s+new\s+[a-z]\w*['\u2019]s)\s+(?:id|key|number|reference)|the\s+new\s+(?P<kind>[a-z]\w*))\s+"
    r"is\s+(?:appended|added)\s+to\s+"
    r"the\s+(?P<noun>[a-z]\w*)['\u2019]s\s+`?(?P<list>\w+)`?",
    re.I,
)
LAST_PLACE = re.compile(
    r"\bthe\s+(?P<noun>[a-z]\w*)\s+(?:becomes|turns|is\s+marked)\s+`(?P<value>[\w-]+)`\s+(?:when|once|as\s+soon\s+as)\s+"
    r"(?:the\s+last|its\s+last|every)\s+(?:free\s+)?(?:place|room|space|spot|seat|bed)\s+is\s+(?:taken|filled)",
    re.I,
)


def _guarded(plain: str, m: re.Match[str]) -> bool:
    """Whether the sentence up to the match, or its clause after it, states a condition ("When the charter sails,
    ...", "... once it is `boarding`"): an append on some creates only, which these effects cannot guard."""
    start = max(plain.rfind(". ", 0, m.start()), plain.rfind("\n", 0, m.start())) + 1
    after = re.match(r"[^,;.\n]*", plain[m.end() :])  # up to the clause's end: "..., and the pier becomes `full` when"
    said = plain[start : m.start()] + " " + (after.group(0) if after else "")
    return bool(CONDITION.search(OWN_EVENT.sub(" ", said)))


def _listed_kind(cols: dict[str, Any], holder: tuple[str, str] | None, name: str) -> str | None:
    """The collection the entries of the named record's list `name` reference (None without such a list)."""
    schema = _props(cols, holder[1]).get(name) if holder else None
    items = (schema or {}).get("items") if isinstance(schema, dict) else None
    return items.get("x-references") if isinstance(items, dict) else None


def member_lists(text: str, collection: str, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The `member_append` and `list_full` effects the docs give for a create of `collection`."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    plain = unwrap(text)
    out: list[dict[str, Any]] = []
    for m in APPENDED.finditer(plain):
        if _guarded(plain, m):
            continue
        member, holder = noun_link(m.group("member"), own, cols), noun_link(m.group("noun"), own, cols)
        if not (member and holder and _listed_kind(cols, holder, m.group("list")) == member[1]):
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
    key = (cols.get(collection) or {}).get("x-key-field")
    for m in KEY_APPENDED.finditer(plain):
        if _guarded(plain, m):
            continue
        if m.group("kind") and not names_kind(m.group("kind"), collection):
            continue  # "the new skipper is added ...": another kind of record
        holder = noun_link(m.group("noun"), own, cols)
        if key and holder and _listed_kind(cols, holder, m.group("list")) == collection:
            out.append(
                {"op": "member_append", "collection": holder[1], "via": holder[0], "list": m.group("list"), "item": key}
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
