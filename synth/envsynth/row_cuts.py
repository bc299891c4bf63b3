"""The fields of each record a list answers under its documented key, as the response's rows show them: `{"total":
3, "berths": [{"berth_id", "pier", "status", "overdue"}]}` cuts each berth to those fields. A row field that is no
field of the records is the record's key (kept only as the map key) or a yes/no the docs define by states and a
passed date (passed_flags.py); any other leaves the rows whole.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.keyed_views import key_names
from synth.envsynth.passed_flags import passed_params
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, record_props


def _row_fields(spec: ToolSpec, key: str) -> list[str]:
    """The fields of the rows under `key` in the documented response (its schema, else its example's rows)."""
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    items = (((returns.get("properties") or {}).get(key) or {}).get("items") or {}).get("properties")
    if isinstance(items, dict) and items:
        return list(items)
    rows = (returns.get("example") or {}).get(key) if isinstance(returns.get("example"), dict) else None
    shown = [r for r in rows or [] if isinstance(r, dict)] if isinstance(rows, list) else []
    return list(dict.fromkeys(k for r in shown for k in r))


def cut_rows(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], today: str | None, clock: str | None, docs: str = ""
) -> ToolPlan:
    """The list plan answering each record cut to its documented row fields; unchanged when the rows are the whole
    record or one of their fields cannot be read."""
    if plan.kind not in ("filter", "list") or not plan.output_key or plan.output_fields or not plan.collection:
        return plan
    props = record_props(state_schema.get("properties") or {}, plan.collection)
    rows = _row_fields(spec, plan.output_key)
    if len(rows) < 2 or not props:
        return plan
    flags = passed_params(spec, props, today, clock, docs)
    keys = key_names(plan.collection, state_schema)
    mapped: dict[str, dict[str, Any]] = {}
    for name in rows:
        if name in props:
            continue
        if name in flags:
            mapped[name] = {"op": "passed", "conditions": flags[name]}
        elif name in keys:
            mapped[name] = {"op": "map_key", "collection": plan.collection}
        else:
            return plan
    if not mapped and set(rows) >= set(props):
        return plan
    evidence = plan.evidence + ["rows cut to the fields the response shows"]
    return ToolPlan.from_dict({**plan.to_dict(), "output_fields": rows, "output_map": mapped, "evidence": evidence})


__all__ = ["cut_rows"]
