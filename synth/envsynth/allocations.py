"""An amount spread over the records of another collection that name the call's record, in date order: "The
money is applied to the boat's `open` and `partial` invoices, oldest due date first: each invoice's `settled`
grows until the invoice is covered (status `cleared`), and an invoice left partly covered becomes `partial`".

The records are those of the one collection the noun names whose reference names the call's record and whose
state field holds one of the listed values; they are taken oldest first (newest with "newest" / "latest") by the
date field the words before "first" name ("due date" -> `due_date`), then by key. The growing number is the quoted
number field; what covers a record is its one other number field (or the one the sentence quotes). A record
reaching it takes the state in brackets after "covered"; one left short takes the state after "partly covered".
The amount is the call's one number parameter (or the one called `amount`). The effect is an `allocate` effect
(recorded_update.py.j2, list_runtime.fg_allocate); the answer may list what went where (envelope.allocated).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.arg_limits import amount_param
from synth.envsynth.docs_appends import is_number
from synth.envsynth.prose import unwrap
from synth.envsynth.refusals import _known
from synth.spec import record_props as _props
from synth.words import singular

QUOTED = r"[`'\"]([\w-]+)[`'\"]"
ONE = r"[`'\"][\w-]+[`'\"]"
STATES = rf"(?P<states>{ONE}(?:(?:\s*,\s*|\s+and\s+|\s+or\s+|,\s+(?:and|or)\s+){ONE})*)"
APPLIED = re.compile(
    r"\b(?:is|are|gets|get)\s+(?:applied|allocated|spread)\s+(?:to|over|across)\s+(?:the\s+|its\s+)?"
    rf"(?:(?P<owner>\w+)['\u2019]s\s+)?{STATES}\s+(?P<noun>\w+),?\s+"
    r"(?P<order>oldest|earliest|newest|latest)\s+(?P<by>(?:[a-z]+\s+){0,2}?)first\b(?P<rest>[^.]*)",
    re.IGNORECASE,
)


def _dated(name: str, schema: Any) -> bool:
    return isinstance(schema, dict) and (
        schema.get("format") == "date" or bool(re.search(r"(?:^|_)(?:date|on)$", name))
    )


def _child(noun: str, collection: str, cols: dict[str, Any]) -> tuple[str, str] | None:
    """(collection, reference field) of the records the noun names that name the call's record."""
    word = singular(noun.lower())
    named = [c for c in cols if singular(c) == word or singular(c).split("_")[-1] == word]
    if len(named) != 1:
        return None
    own = singular(collection)
    refs = [
        f
        for f, s in _props(cols, named[0]).items()
        if (isinstance(s, dict) and s.get("x-references") == collection) or f == f"{own}_id"
    ]
    return (named[0], refs[0]) if len(refs) == 1 else None


def _order_field(by: str, theirs: dict[str, Any]) -> str | None:
    """The date field the words name ("due date" -> `due_date`, "due" -> `due_on`), or the one date field."""
    dated = [f for f, s in theirs.items() if _dated(f, s)]
    words = by.lower().split()
    if words:
        named = [f for f in dated if set(words) - {"date"} <= set(f.lower().split("_")) and words[0] in f.lower()]
        return named[0] if len(named) == 1 else None
    return dated[0] if len(dated) == 1 else None


def allocations(
    text: str, collection: str, state_schema: dict[str, Any], params: dict[str, Any]
) -> list[dict[str, Any]]:
    """The `allocate` effects the text gives a change of a `collection` record called with `params`."""
    cols = state_schema.get("properties") or {}
    out: list[dict[str, Any]] = []
    amount = amount_param(params)
    for m in APPLIED.finditer(unwrap(text)):
        owner = singular((m.group("owner") or collection).lower())
        child = _child(m.group("noun"), collection, cols)
        if amount is None or owner not in (singular(collection), singular(collection).split("_")[-1]) or not child:
            continue
        theirs = _props(cols, child[0])
        states = re.findall(QUOTED, m.group("states"))
        holders = [f for f, s in sorted(theirs.items()) if set(states) <= {str(v) for v in _known(s)}]
        rest = m.group("rest")
        numbers = [f for f, s in theirs.items() if is_number(s)]
        quoted = [w for w in re.findall(QUOTED, rest) if w in numbers]
        covered = re.search(rf"(?<!partly )(?<!partially )\bcovered\b[^`'\"]{{0,30}}?{QUOTED}", rest)
        partial = re.search(rf"\bpart(?:ly|ially)\s+(?:covered|paid|settled)\b[^`'\"]{{0,30}}?{QUOTED}", rest)
        order = _order_field(m.group("by"), theirs)
        if len(holders) != 1 or not quoted or not covered or order is None:
            continue
        paid = quoted[0]
        others = [f for f in quoted[1:] if f != paid] or [f for f in numbers if f != paid]
        known = {str(v) for v in _known(theirs[holders[0]])}
        if len(others) != 1 or covered.group(1) not in known or (partial and partial.group(1) not in known):
            continue
        out.append(
            {
                "op": "allocate",
                "collection": child[0],
                "ref": child[1],
                "field": holders[0],
                "in": states,
                "order": order,
                "newest": m.group("order").lower() in ("newest", "latest"),
                "paid": paid,
                "total": others[0],
                "covered": covered.group(1),
                "partial": partial.group(1) if partial else None,
                "amount": amount,
            }
        )
    return out


__all__ = ["allocations"]
