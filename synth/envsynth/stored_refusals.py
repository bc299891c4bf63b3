"""Refusals by stored records of another kind, as a call's docs word them:

- "must not have the boat on charter": a stored `charters` record (the collection the last word names) that names
  the call's boat and the skipper the call names (its `<noun>_id` fields the call's record or arguments give) and is
  still open refuses the call. Open: a state that reads as ongoing (not a past participle like `returned`, nor
  `lost`, `closed`, `done` ...);
- "no berth of the marina may be 'free' at the skipper's home port": a stored `berths` record naming the call's
  marina, in that state, whose field the last word names (`port`) holds the value of the skipper's `home_port`
  (the record an argument names) refuses the call.
Each becomes a `none_stored` check {"collection", "match": {field: source}, "where": {field: [values]}}; a source
is {"arg": name}, {"own": field} (the call's record) or {"named": param, "collection", "field"} (list_runtime).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import field_by_words, known_values
from synth.spec import record_props as _props
from synth.words import plural, singular

ON_IT = re.compile(r"\bmust\s+not\s+(?:already\s+)?have\s+the\s+(?P<noun>[a-z]+)\s+on\s+(?P<word>[a-z]+)\b", re.I)
SHELVED = re.compile(
    r"\bno\s+(?P<noun>[a-z]+)\s+of\s+the\s+(?P<of>[a-z]+)\s+may\s+be\s+['`\"](?P<value>[\w-]+)['`\"]\s+at\s+the\s+"
    r"(?P<who>[a-z]+)['\u2019]s\s+(?P<words>[a-z]+(?:\s+[a-z]+)?)\b",
    re.I,
)
ENDED = {"lost", "done", "closed", "void", "paid", "gone", "over", "deleted", "cancelled", "canceled"}


def _open(values: list[str]) -> list[str]:
    return [v for v in values if not v.endswith("ed") and v not in ENDED]


def _source(noun: str, collection: str, key_field: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """Where the call gives the record a noun names: its own record, or the argument `<noun>_id`."""
    if singular(collection) == noun:
        return {"own": key_field}
    return {"arg": f"{noun}_id"} if f"{noun}_id" in params else None


def stored_refusals(
    text: str, collection: str, key_field: str, params: dict[str, Any], cols: dict[str, Any]
) -> list[dict[str, Any]]:
    """The `none_stored` checks the text gives for a call on `collection` with these parameters."""
    out: list[dict[str, Any]] = []
    for m in ON_IT.finditer(text):
        kind = plural(m.group("word").lower())
        theirs = _props(cols, kind)
        noun = m.group("noun").lower()
        own = _source(noun, collection, key_field, params)
        if not theirs or f"{noun}_id" not in theirs or own is None:
            continue
        match = {f"{noun}_id": own}
        match.update({p: {"arg": p} for p in sorted(params) if p in theirs and p.endswith("_id") and p not in match})
        states = {f: _open(known_values(s)) for f, s in theirs.items() if len(known_values(s)) > 1}
        states = {f: v for f, v in states.items() if v}
        if len(match) > 1 and len(states) == 1:
            out.append({"op": "none_stored", "collection": kind, "match": match, "where": states})
    for m in SHELVED.finditer(text):
        kind, noun, who = plural(m.group("noun").lower()), m.group("of").lower(), m.group("who").lower()
        theirs = _props(cols, kind)
        own = _source(noun, collection, key_field, params)
        holder = plural(who)
        state = [f for f, s in theirs.items() if m.group("value") in known_values(s)]
        words = m.group("words").lower().split()
        at = held = None
        for said in (words, words[:1]):  # "home port", else "port" of "port when ..."
            at, held = field_by_words(said[-1], theirs), field_by_words(" ".join(said), _props(cols, holder))
            if at and held:
                break
        if own is None or f"{noun}_id" not in theirs or len(state) != 1 or not at or not held:
            continue
        if f"{who}_id" not in params:
            continue
        match = {f"{noun}_id": own, at: {"named": f"{who}_id", "collection": holder, "field": held}}
        out.append({"op": "none_stored", "collection": kind, "match": match, "where": {state[0]: [m.group("value")]}})
    return out


__all__ = ["stored_refusals"]
