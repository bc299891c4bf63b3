"""What a list or search tool's docs say about which records it answers and in which order, beyond its parameters:

- a state it keeps or leaves out: "Lists appointment slots that are open for booking (slots that are booked or
  blocked are never returned)" keeps records whose closed text field (known values in the data) is `open`;
- its order: "Results are sorted by date, start time, then slot id" / "ordered by title_id" sorts by those fields
  (a phrase names a field by its words joined with `_`, or by its first word when that is a field).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec

SORTED = re.compile(r"\b(?:sorted|ordered)\s+by\s+([^.;()]{1,120})", re.IGNORECASE)
NEVER = re.compile(r"([^.;()]{1,120}?)\s+(?:are|is)\s+(?:never|not)\s+(?:returned|listed|included|shown)", re.I)
THAT_ARE = re.compile(r"\b(?:lists?|returns?|finds?|searches?)\b[^.;()]{0,80}?\bthat\s+are\s+[`'\"]?(\w+)", re.I)


def _closed_fields(record: dict[str, Any]) -> dict[str, list[str]]:
    return {
        f: [str(v) for v in (s.get("enum") or s.get("x-enum") or [])]
        for f, s in record.items()
        if isinstance(s, dict) and s.get("type") == "string" and (s.get("enum") or s.get("x-enum"))
    }


def list_scope(description: str, record: dict[str, Any]) -> dict[str, list[str]]:
    """{field: values kept} the description fixes for every call (empty when it fixes none)."""
    closed = _closed_fields(record)
    out: dict[str, list[str]] = {}
    for field, known in closed.items():
        dropped = set()
        for m in NEVER.finditer(description):
            dropped |= {w for w in re.findall(r"\w+", m.group(1)) if w in known}
        kept = [m.group(1) for m in THAT_ARE.finditer(description) if m.group(1) in known]
        if kept and not dropped & set(kept):
            out[field] = sorted(set(kept))
        elif dropped and len(dropped) < len(known):
            out[field] = [v for v in known if v not in dropped]
    return out if len(out) == 1 else {}


def _field_of(phrase: str, record: dict[str, Any]) -> str | None:
    words = [w.lower() for w in re.findall(r"[A-Za-z]\w*", phrase) if w.lower() not in ("the", "its", "their")]
    for name in ("_".join(words), words[0] if words else ""):
        if name in record:
            return name
    return None


def sort_fields(description: str, record: dict[str, Any]) -> list[str]:
    """The fields the docs order the answer by, when every phrase names one."""
    found = SORTED.search(description)
    if not found:
        return []
    phrases = [p for p in re.split(r",\s*(?:and\s+|then\s+)?|\s+then\s+|\s+and\s+then\s+", found.group(1)) if p]
    fields = [_field_of(p, record) for p in phrases]
    return [f for f in fields if f] if fields and all(fields) else []


def refine_list(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The filter / list plan with the states and order its docs fix (unchanged when they fix none)."""
    if plan.kind not in ("filter", "list") or not plan.collection:
        return plan
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    record = ((col.get("additionalProperties") if isinstance(col, dict) else None) or {}).get("properties") or {}
    params = set(spec.parameters.get("properties") or {})
    scope = {f: v for f, v in list_scope(spec.description, record).items() if f not in params}
    order = sort_fields(spec.description, record)
    if not scope and not order:
        return plan
    return ToolPlan.from_dict({**plan.to_dict(), "list_scope": scope, "sort_fields": order})


__all__ = ["list_scope", "refine_list", "sort_fields"]
