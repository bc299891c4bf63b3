"""One argument's record must belong to another argument's: "`buoy_id`: must be a buoy of that mooring", "buoy <id>
does not belong to mooring <id>", "buoy <id> is not on mooring <id>".

Two parameters name records of two collections (`<noun>_id`, or a field referencing the collection); the docs say
the first's record belongs to the second's, in the first parameter's description ("must be a <noun> of that
<owner>", "must belong to the <owner>") or in an error ("<noun> <id> is not on <owner> <id>", "... does not belong to
<owner> <id>"). The ownership is what the state holds: a field of the first record naming the owner collection
(`mooring_id` of a buoy), or else a list field of the owner holding the first's ids (`buoy_ids` of a mooring). Each
becomes an `owned` check (expr_runtime.fg_check): the named record's field is the owner argument, or the owner's list
holds the argument; a record either argument fails to name is left to the existence checks.
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import record_props as _props
from synth.words import plural, singular

IN_DESCRIPTION = re.compile(
    r"\bmust\s+(?:be\s+(?:a|an|one)\s+(?:of\s+the\s+)?(?P<a>\w+?)s?\s+of\s+(?:that|the|this)\s+(?P<b>\w+)"
    r"|belong\s+to\s+(?:that|the|this)\s+(?P<b2>\w+))\b",
    re.I,
)
IN_ERROR = re.compile(
    r"\b(?P<a>\w+)\s+<id>\s+(?:is\s+not\s+(?:on|of|under|in)|does\s+not\s+belong\s+to)\s+(?P<b>\w+)\s+<id>", re.I
)


def _collection_of(param: str, params: dict[str, Any], cols: dict[str, Any]) -> str | None:
    if not param.endswith("_id"):
        return None
    col = plural(param[:-3])
    return col if col in cols else None


def _ownership(col_a: str, col_b: str, cols: dict[str, Any]) -> dict[str, str] | None:
    """{"field": ...} when a record of `col_a` names its `col_b` owner, {"list": ...} when the owner lists them."""
    theirs = _props(cols, col_a)
    naming = [
        f
        for f, s in sorted(theirs.items())
        if isinstance(s, dict) and (s.get("x-references") == col_b or f == f"{singular(col_b)}_id")
    ]
    if len(naming) == 1:
        return {"field": naming[0]}
    listing = [f for f in sorted(_props(cols, col_b)) if f == f"{singular(col_a)}_ids"]
    return {"list": listing[0]} if len(listing) == 1 else None


def owned_checks(text: str, params: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`owned` checks for the argument pairs the docs say belong together."""
    named = {p: c for p in sorted(params) if (c := _collection_of(p, params, cols))}
    pairs: list[tuple[str, str]] = []
    for p, schema in sorted(params.items()):
        said = IN_DESCRIPTION.search(str((schema or {}).get("description") or "")) if p in named else None
        if said:
            owner = singular((said.group("b") or said.group("b2")).lower())
            pairs += [(p, q) for q, c in named.items() if q != p and singular(c) == owner]
    for m in IN_ERROR.finditer(text):
        a, b = singular(m.group("a").lower()), singular(m.group("b").lower())
        pairs += [(p, q) for p, c in named.items() for q, d in named.items() if singular(c) == a and singular(d) == b]
    out: list[dict[str, Any]] = []
    for p, q in dict.fromkeys(pairs):
        how = _ownership(named[p], named[q], cols)
        if how and p != q:
            check = {"op": "owned", "arg": p, "collection": named[p], "owner_arg": q, "owner": named[q], **how}
            out += [check] if check not in out else []
    return out


__all__ = ["owned_checks"]
