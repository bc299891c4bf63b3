"""Refusals of one value of an argument for some kinds of a linked record: "`tow` is refused for club boats with an
unpaid levy and for private boats with less than 20.00 credit".

The value is one a parameter takes (its enum, or quoted in its description); each "for <kind> <noun>s with
<condition>" names the record the call's record links by the noun (`boat_id` -> boats, or the call's record
itself), the kind a known value of one of its fields, and the condition either
- "less than <N> <word>": its number field whose name holds the word (`credit` -> `credit_balance`) is below N, or
- "a(n) <state> <other>": a record of the other noun's collection that names it (`boat_id`) holds that state.
Each becomes a `refused_for` check (list_runtime.fg_list_rule) under `when` (the argument holds the value).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.arg_limits import valued_param
from synth.envsynth.create_checks import noun_link
from synth.spec import known_values, record_props
from synth.words import plural, singular

SAID = re.compile(
    r"[`'\"]?(?P<value>[\w-]+)[`'\"]?\s+is\s+(?:refused|rejected|not\s+allowed)\s+(?P<clauses>for\s+(?:[^.;]|\.\d)+)",
    re.I,
)
CLAUSE = re.compile(
    r"^for\s+(?:an?\s+)?(?P<kind>[\w-]+)\s+(?P<noun>[a-z]+)\s+with\s+(?:(?:less|fewer)\s+than\s+(?:[£$€]\s*)?"
    r"(?P<n>\d[\d,]*(?:\.\d+)?)\s+(?:of\s+)?(?P<word>[a-z]+)|(?:an?\s+)?(?P<state>[\w-]+)\s+(?P<other>[a-z]+))$",
    re.I,
)


def _holder(noun: str, own: dict[str, Any], cols: dict[str, Any]) -> tuple[str | None, str] | None:
    """(link field, collection) of the record the noun names: one the call's record links, else its own."""
    link = noun_link(singular(noun.lower()), own, cols)
    if link is not None:
        return link
    mine = [c for c in sorted(cols) if record_props(cols, c) == own and singular(c) == singular(noun.lower())]
    return (None, mine[0]) if len(mine) == 1 else None


def _condition(m: re.Match, collection: str, props: dict[str, Any], cols: dict[str, Any]) -> dict | None:
    if m.group("n"):
        fields = [
            f
            for f, s in sorted(props.items())
            if isinstance(s, dict)
            and s.get("type") in ("number", "integer")
            and m.group("word").lower() in f.split("_")
        ]
        return {"field": fields[0], "below": float(m.group("n").replace(",", ""))} if len(fields) == 1 else None
    other = plural(singular(m.group("other").lower()))
    theirs = record_props(cols, other)
    naming = [
        f
        for f, s in sorted(theirs.items())
        if isinstance(s, dict) and (s.get("x-references") == collection or f == f"{singular(collection)}_id")
    ]
    states = [f for f, s in sorted(theirs.items()) if m.group("state").lower() in [v.lower() for v in known_values(s)]]
    if len(naming) != 1 or len(states) != 1:
        return None
    return {"collection": other, "by": naming[0], "field": states[0], "value": m.group("state").lower()}


def refused_for(text: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict]:
    """The `refused_for` checks of the sentences above whose value, records and conditions are known."""
    out: list[dict[str, Any]] = []
    for m in SAID.finditer(text):
        param = valued_param(m.group("value"), params)
        if param is None:
            continue
        for clause in re.split(r"\s*,?\s+(?:and|or)\s+(?=for\s)", m.group("clauses").strip()):
            said = CLAUSE.match(clause.strip())
            held = _holder(said.group("noun"), own, cols) if said else None
            if held is None or held[0] is None and said.group("state"):
                continue  # a record of another collection naming the call's own record: not read
            props = record_props(cols, held[1])
            kinds = [f for f, s in sorted(props.items()) if said.group("kind").lower() in known_values(s)]
            cond = _condition(said, held[1], props, cols) if len(kinds) == 1 else None
            if cond is None:
                continue
            check = {"op": "refused_for", "via": held[0], "collection": held[1], "field": kinds[0]}
            check.update(value=said.group("kind").lower(), cond=cond, when={"arg": param, "in": [m.group("value")]})
            out += [check] if check not in out else []
    return out


__all__ = ["refused_for"]
