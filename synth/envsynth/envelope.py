"""The documented response envelope: a tool whose documented response is an object with one property returns
its result under that property (`{"file_content": ...}`), unless the result is a record that has that field."""

from __future__ import annotations

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


def with_envelope(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The plan with `output_key` set from the docs' response (unchanged when it has one or the docs give none)."""
    if plan.output_key or plan.kind == "unsupported":
        return plan
    key = response_key(spec, plan, state_schema)
    return ToolPlan.from_dict({**plan.to_dict(), "output_key": key}) if key else plan


__all__ = ["response_key", "with_envelope"]
