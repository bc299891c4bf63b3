"""Which record a write that names two records changes: `attach_tag(note_id, tag_id)` sets the note's `tag_id` when
notes hold a `tag_id` field and tags hold no `note_id`. The record that holds the link is the one written, whatever
the tool's name says the call is about."""

from __future__ import annotations

import re

from synth.envsynth.plan import PlanContext, _params
from synth.envsynth.priors import ToolPriors
from synth.spec import ToolSpec


def link_holder(spec: ToolSpec, pri: ToolPriors, ctx: PlanContext) -> str | None:
    """Of a non-create write's two parameters that name records of two collections, the collection whose records
    hold the other parameter as a (non-key) field while the other collection's records do not hold this one's."""
    if pri.verb_kind == "create":
        return None
    named: dict[str, str] = {}
    for name, draft in ctx.collections.items():
        for p in _params(spec):
            if p in (draft.key_field, f"{draft.resource}_id", f"{draft.resource}Id") and not draft.composite_key:
                named[p] = name
    if len(named) != 2 or len(set(named.values())) != 2:
        return None
    (p1, c1), (p2, c2) = named.items()
    d1, d2 = ctx.collections[c1], ctx.collections[c2]

    def holds(draft, param: str) -> bool:  # a field naming another record, not the collection's own key
        return param in draft.fields and param != draft.key_field

    holders = [
        c
        for c, own, mine, other, theirs in ((c1, d1, p1, p2, d2), (c2, d2, p2, p1, d1))
        if holds(own, other) and not holds(theirs, mine)
    ]
    return holders[0] if len(holders) == 1 else None


CREATED = re.compile(
    r"\b(?:an?|one)\s+new\s+(\w+)(?:\s+record)?\s+(?:is|gets)\s+(?:created|opened|added|issued|made)\b"
    r"|\bcreates?\s+(?:an?|one)\s+new\s+(\w+)\b"
    r"|\bthe\s+(\w+)\s+is\s+created\b"
    r"|\bnew\s+(\w+)\s+(?:get|gets|receive|receives|take|takes)\s+the\s+next\s+(?:id|number|key)\b"
    r"|\breturns?\s+the\s+new\s+(\w+)\b",
    re.I,
)


def created_collection(spec: ToolSpec, ctx: PlanContext) -> str | None:
    """The collection a write adds a record to when its docs say so: "a new <noun> is created", "new <nouns> take
    the next id", "the <noun> is created", "returns the new <noun>" (`lend_boat(sailor_id, boat_id)`: "a new rental is
    created" -> rentals). The last two do not count for a collection whose key the call is given: an update says
    them of the record it changes."""
    from synth.words import plural, singular

    params = set(spec.parameters.get("properties") or {})
    found = set()
    for words in CREATED.findall(spec.description):
        c = plural(singular(next(w for w in words if w)))
        weak = bool(words[2] or words[4])  # "the <noun> is created", "returns the new <noun>": an update says so too
        given = c in ctx.collections and (ctx.collections[c].key_field in params or f"{singular(c)}_id" in params)
        if c in ctx.collections and not (weak and given):
            found.add(c)
    return found.pop() if len(found) == 1 else None


def write_target(spec: ToolSpec, pri: ToolPriors, ctx: PlanContext) -> tuple[str | None, dict[str, str], bool]:
    """(collection, why, creates) a write goes to when its docs decide it: a new record they say is created, else
    the record holding the link the call sets; (None, {}, False) to let the name decide."""
    made = created_collection(spec, ctx) if pri.verb_kind != "delete" else None
    if made is not None:  # "a new rental is created": a create on rentals, whatever the name's noun
        return made, {"collection_source": f"the docs say a new record of {made} is created"}, True
    link = link_holder(spec, pri, ctx)
    if link is not None:  # `attach_tag(note_id, tag_id)` sets the note's tag_id
        return link, {"collection_source": f"{link} records hold the link the call sets"}, False
    return None, {}, False


__all__ = ["created_collection", "link_holder", "write_target"]
