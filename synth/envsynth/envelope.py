"""The documented response envelope: a tool whose documented response is an object with one property returns
its result under that property (`{"file_content": ...}`), unless the result is a record that has that field.
A tool that answers a record but whose docs list fewer of the record's fields (its response schema's properties,
or "Returns {title_id, holds_queue}") answers those fields only."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec


def response_key(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> str | None:
    """The one property of the documented response object, or None."""
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    props = returns.get("properties") if returns.get("type", "object") == "object" else None
    if not isinstance(props, dict) or len(props) != 1:
        return None
    key = next(iter(props))
    col = (state_schema.get("properties") or {}).get(plan.collection or "") or {}
    record = col.get("additionalProperties") if isinstance(col, dict) else None
    if isinstance(record, dict) and key in (record.get("properties") or {}):
        return None  # the result is a record that holds this field itself
    return key


RECORD_KINDS = {"get", "update", "recorded_update", "item_add", "item_remove", "create"}
RETURNS_BRACES = re.compile(r"\bReturns?\b[^{.]{0,40}\{\s*([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_][\w]*)+)\s*\}")


def documented_fields(spec: ToolSpec) -> list[str]:
    """The response's field names: its schema's properties, else a "Returns {a, b}" in the description."""
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    props = returns.get("properties") if returns.get("type", "object") == "object" else None
    if isinstance(props, dict) and props:
        return list(props)
    found = RETURNS_BRACES.search(spec.description)
    return [w.strip() for w in found.group(1).split(",")] if found else []


def projection(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> list[str]:
    """The record fields a record-answering tool's docs list, when they are two or more and fewer than all."""
    if plan.kind not in RECORD_KINDS or plan.output_key:
        return []
    col = (state_schema.get("properties") or {}).get(plan.collection or "") or {}
    fields = set(((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {})
    listed = documented_fields(spec)
    if len(listed) >= 2 and set(listed) < fields:
        return listed
    return []


def with_envelope(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The plan with `output_key` set from the docs' response (unchanged when it has one or the docs give none),
    or the record fields the docs list as `output_fields`."""
    if plan.output_key or plan.kind == "unsupported":
        return plan
    key = response_key(spec, plan, state_schema)
    if key:
        return ToolPlan.from_dict({**plan.to_dict(), "output_key": key})
    fields = projection(spec, plan, state_schema)
    return ToolPlan.from_dict({**plan.to_dict(), "output_fields": fields}) if fields else plan


__all__ = ["documented_fields", "projection", "response_key", "with_envelope"]
