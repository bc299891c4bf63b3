"""A count capped by a number of the call's record for one kind of entry only: "per-night extras cannot exceed the
nights of the mooring", "per-day hires may not exceed the days of the charter".

The kind's words ("per-night") are a value of a field (`per_night` of `basis`) of the collection an argument names
(the entry field it fills references that collection, or the argument is `<noun>_id`); the number ("nights") is a
number field of the call's record, whose noun the sentence names; the capped argument is the call's one whole-number
parameter. The check is an `arg_limit` under `while_named` (expr_runtime.fg_check): the argument is at most the record's
number while the record the other argument names holds that value, and a call naming another kind passes.
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import record_props
from synth.words import plural, singular

CAPPED = re.compile(
    r"\b(?P<kind>[a-z]+(?:[- ][a-z]+)?)\s+(?P<items>[a-z]+)\s+(?:cannot|can\s*not|may\s+not|must\s+not)\s+"
    r"(?:exceed|be\s+more\s+than)\s+the\s+(?:number\s+of\s+)?(?P<field>[a-z]+)\s+(?:of|in)\s+the\s+(?P<noun>[a-z]+)\b",
    re.I,
)


def _values(schema: Any) -> list[str]:
    return [str(v) for v in (schema.get("enum") or schema.get("x-enum") or [])] if isinstance(schema, dict) else []


def _named_collections(params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> dict[str, str]:
    """{parameter: the collection it names}: by the reference of a field of that name (on the record or in an entry
    of one of its lists), else by `<noun>_id`."""
    refs: dict[str, str] = {}
    for field, schema in own.items():
        if not isinstance(schema, dict):
            continue
        entry = (schema.get("items") or {}).get("properties") if schema.get("type") == "array" else None
        for name, sub in [(field, schema)] + sorted((entry or {}).items()):
            if isinstance(sub, dict) and isinstance(sub.get("x-references"), str):
                refs.setdefault(name, sub["x-references"])
    out = {}
    for p in params:
        col = refs.get(p) or (plural(p[:-3]) if p.endswith("_id") else None)
        if col in cols:
            out[p] = col
    return out


def kind_caps(text: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """The `arg_limit` checks, each under `while_named`, of the sentences above whose kind, number and arguments
    are known (the noun names the collection whose records are the call's `own`)."""
    mine = [c for c in sorted(cols) if record_props(cols, c) == own]
    counts = [p for p, s in params.items() if isinstance(s, dict) and s.get("type") in ("integer", "number")]
    named = _named_collections(params, own, cols)
    out: list[dict[str, Any]] = []
    for m in CAPPED.finditer(text):
        field, noun = m.group("field").lower(), m.group("noun").lower()
        if [singular(c) for c in mine] != [singular(noun)] or own.get(field, {}).get("type") not in (
            "integer",
            "number",
        ):
            continue
        kind = re.sub(r"[- ]", "_", m.group("kind").lower())
        holders = [
            (p, col, f)
            for p, col in sorted(named.items())
            for f, s in sorted(record_props(cols, col).items())
            if kind in _values(s)
        ]
        capped = [p for p in counts if p not in named]
        if len(holders) != 1 or len(capped) != 1:
            continue
        arg, col, f = holders[0]
        when = {"collection": col, "arg": arg, "field": f, "in": [kind]}
        check = {
            "op": "arg_limit",
            "arg": capped[0],
            "cmp": "<=",
            "expr": {"plus": [{"path": [field]}]},
            "while_named": when,
        }
        if check not in out:
            out.append(check)
    return out


__all__ = ["kind_caps"]
