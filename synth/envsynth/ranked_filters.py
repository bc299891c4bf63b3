"""Filters on an ordered scale: "size returns berths able to take a boat of that size", where `size` is one of
'small', 'medium', 'large' (in that order) and a berth's own `size` is the largest boat it takes.

A filter parameter that is a text field of the records, whose enum lists three or more values in order and holds
every value the records hold, and which a clause of the docs says finds the records "able to take" / "that can
take" / "big enough for" / "large enough for" / "that fit" a thing of that value, keeps the records whose value
comes at or after the argument's in that order (a large berth takes small, medium and large boats).

`ranked_params` gives {parameter: param_map entry} ({"op": "rank_min", "order": [...]}), rendered by filter.py.j2.
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import ToolSpec

ABLE = re.compile(
    r"\b(?:able\s+to\s+(?:take|hold|fit|carry|seat|house|accommodate)|(?:that|which)\s+can\s+(?:take|hold|fit|"
    r"carry|seat|house|accommodate)|(?:big|large|long|wide)\s+enough\s+for|(?:that|which)\s+(?:fits?|accommodates?)|"
    r"suitable\s+for)\b",
    re.I,
)
NOT_RANKED = re.compile(r"\bexact(?:ly)?\b|\bnot\s+(?:included|returned|listed|shown)\b|\bexcluded\b", re.I)


def ranked_params(
    spec: ToolSpec, filter_params: list[str], record: dict[str, Any], clauses: dict[str, list[str]]
) -> dict[str, dict[str, Any]]:
    """{parameter: its rank filter} for the filter parameters the docs say keep the records able to take that value
    (`clauses`: what the docs say of each parameter, filter_rules.param_clauses)."""
    props = spec.parameters.get("properties") or {}
    out = {}
    for name in filter_params:
        order = (props.get(name) or {}).get("enum") or []
        field = record.get(name) or {}
        held = (field.get("enum") or field.get("x-enum") or []) if isinstance(field, dict) else []
        if len(order) < 3 or not all(isinstance(v, str) for v in order) or not set(held) <= set(order):
            continue
        if any(ABLE.search(text) and not NOT_RANKED.search(text) for text in clauses.get(name, [])):
            out[name] = {"path": [name], "via": None, "collection": None, "op": "rank_min", "order": list(order)}
    return out


__all__ = ["ranked_params"]
