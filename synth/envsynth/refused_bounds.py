"""Listed refusals about the numbers and the room of a record the new record names ("The request is refused if:"
bullets, refused_lists.refused_bullets):

- "the skipper's `dues_paid` is below the $300.00 minimum", "the skipper's `owed` is more than **$400.00**": that
  number of the named record must stay on the other side of the figure (`bound` through the link's argument);
- "the pier is in `repair` or has no free place": a bullet's clauses joined by "or", a clause without its own
  subject taking the bullet's ("has no free place": the pier's); "has no free place" (room, space, spot, seat,
  bed): the named record's list of records of another link of the new record holds fewer than its cap number
  (`list_cap` counting the named record's own list).

Clauses are split here so that refused_lists reads each ("the pier is in `repair`" as a state, `linked_state`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _props
from synth.envsynth.docs_appends import is_number
from synth.envsynth.full_states import cap_field

AMOUNT = r"[*_]*\$?\s?(?P<n>\d[\d,]*(?:\.\d+)?)[*_]*"
SIDES = {
    "below": ">=",
    "under": ">=",
    "less than": ">=",
    "lower than": ">=",
    "above": "<=",
    "over": "<=",
    "more than": "<=",
    "greater than": "<=",
    "higher than": "<=",
}
NUMBER_OF = re.compile(
    r"^(?:the\s+)?(?P<noun>[a-z]\w*)['\u2019]s\s+`?(?P<field>\w+)`?\s+(?:is\s+|are\s+)?"
    rf"(?P<side>{'|'.join(SIDES)}|exceeds)\s+(?:the\s+)?{AMOUNT}",
    re.I,
)
NO_ROOM = re.compile(r"^(?:has|have)\s+no\s+(?:free|open|spare|empty)?\s*(?:place|room|space|spot|seat|bed)s?\b", re.I)
SUBJECT = re.compile(r"^(?:the\s+)?(?P<noun>[a-z]\w*)\s+(?=is\b|has\b|are\b|have\b)", re.I)
OR_CLAUSE = re.compile(r",?\s+or\s+(?=(?:the\s+\w+\s+)?(?:is|has|are|have)\b)", re.I)


def bullet_clauses(bullet: str) -> list[str]:
    """The bullet's clauses joined by "or", each with a subject ("the pier is in `repair` or has no free place" ->
    "the pier is in `repair`", "the pier has no free place")."""
    parts = [p.strip() for p in OR_CLAUSE.split(bullet) if p.strip()]
    lead = SUBJECT.match(parts[0]) if parts else None
    if lead is None:
        return parts
    return [parts[0]] + [p if SUBJECT.match(p) else f"the {lead.group('noun')} {p}" for p in parts[1:]]


def _number_bound(clause: str, own: dict[str, Any], cols: dict[str, Any]) -> dict[str, Any] | None:
    m = NUMBER_OF.match(clause)
    link = noun_link(m.group("noun"), own, cols) if m else None
    if m is None or link is None or not is_number(_props(cols, link[1]).get(m.group("field"))):
        return None
    side = SIDES.get(m.group("side").lower(), "<=")
    figure = float(m.group("n").replace(",", ""))
    value = int(figure) if figure.is_integer() and "." not in m.group("n") else figure
    return {
        "op": "bound",
        "collection": link[1],
        "via": link[0],
        "field": m.group("field"),
        "cmp": side,
        "value": value,
    }


def _room(clause: str, own: dict[str, Any], cols: dict[str, Any], links: dict[str, str]) -> dict[str, Any] | None:
    lead = SUBJECT.match(clause)
    if lead is None or not NO_ROOM.match(clause[lead.end() :]):
        return None
    link = noun_link(lead.group("noun"), own, cols)
    if link is None:
        return None
    theirs = _props(cols, link[1])
    others = {col for f, col in links.items() if f != link[0]}
    lists = [
        f
        for f, s in sorted(theirs.items())
        if isinstance(s, dict) and s.get("type") == "array" and (s.get("items") or {}).get("x-references") in others
    ]
    cap = cap_field(theirs)
    if len(lists) != 1 or cap is None:
        return None
    hop = {"collection": link[1], "via": link[0]}
    return {"op": "list_cap", "chain": [hop], "field": cap, "list": lists[0], "of_holder": True}


def bound_refusals(
    bullets: list[str], own: dict[str, Any], cols: dict[str, Any], links: dict[str, str]
) -> list[dict[str, Any]]:
    """The `bound` and `list_cap` checks of the bullets' clauses, in order."""
    out: list[dict[str, Any]] = []
    for bullet in bullets:
        for clause in bullet_clauses(bullet):
            found = _number_bound(clause, own, cols) or _room(clause, own, cols, links)
            out += [found] if found and found not in out else []
    return out


__all__ = ["bound_refusals", "bullet_clauses"]
