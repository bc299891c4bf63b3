"""Searches read as filters. A search tool answers the collection whose fields its docs list ("Returns a list of
{berth_id, pier, length}"), when its name names none. Its free-text parameter matches part of the one field its
docs name ("query matches part of the pier's name", "Words of the name"), or of the whole record when they name
none or several, and its other parameters filter as a filter's do (filter_rules.py): a search that ignored them
would answer the same list for different filters."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.filter_rules import param_clauses
from synth.envsynth.plan import QUERY_PARAMS, ToolPlan
from synth.spec import ToolSpec

TEXT_TYPES = ("string", "array")


def answer_collection(spec: ToolSpec, collections: dict[str, Any]) -> str | None:
    """The one collection whose records hold most of the fields the docs say the tool answers (two or more, and
    at least half of them), its key field among them, or None."""
    from synth.envsynth.envelope import documented_fields

    listed = set(documented_fields(spec))
    if len(listed) < 2:
        return None
    scores = {
        name: len(listed & set(draft.fields)) if draft.key_field in listed else 0 for name, draft in collections.items()
    }
    best = max(scores.values(), default=0)
    top = [name for name, score in scores.items() if score == best]
    return top[0] if best >= 2 and 2 * best >= len(listed) and len(top) == 1 else None


def _named_fields(spec: ToolSpec, param: str, record: dict[str, Any]) -> list[str]:
    """The text fields of the records that the parameter's docs, or the description's clauses naming it, name."""
    text = " ".join(param_clauses(spec, param))
    named = []
    for field, schema in sorted(record.items()):
        if not isinstance(schema, dict) or schema.get("type") not in TEXT_TYPES or field == param:
            continue
        if re.search(rf"\b{re.escape(field.replace('_', ' '))}\b|\b{re.escape(field)}\b", text, re.IGNORECASE):
            named.append(field)
    return named


def search_as_filter(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The search plan as a filter whose free-text parameter matches part of the field its docs name (the whole
    record when none or several), when the docs name one or the tool takes other parameters; else unchanged."""
    if plan.kind != "search" or not plan.collection or not plan.key_param:
        return plan
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    record = ((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {}
    query = plan.key_param
    props = spec.parameters.get("properties") or {}
    others = [p for p in props if p != query and p.lower() not in QUERY_PARAMS]
    named = _named_fields(spec, query, record)
    if not others and len(named) != 1:
        return plan
    path = named if len(named) == 1 else []
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "filter",
            "key_param": None,
            "filter_params": [p for p in others if p in record],
            "param_map": {query: {"path": path, "via": None, "collection": None, "op": "eq"}},
            "partial_params": [query],
            "evidence": plan.evidence + [f"`{query}` matches part of {path[0] if path else 'the whole record'}"],
        }
    )


__all__ = ["answer_collection", "search_as_filter"]
