"""The rules a change's docs give for every value of its mode argument alike ("Only reserved berths whose hold has
not expired can be taken up", before the per-method paragraphs): allowed_when.py reads them on a plain change; for
a `by_mode` plan they are read on the change as one and added to each value's sub-plan (and to the plan itself,
where the cases that meet checks look for them)."""

from __future__ import annotations

from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.start_times import started_checks
from synth.spec import ToolSpec
from synth.spec import record_props as _props


def _allowed(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], text: str, today: str | None, sample: Any, policy: str
) -> ToolPlan:
    """allowed_checks, and a check that the record's start time is ahead or has come (start_times.py; its clock
    read from the docs or the whole policy)."""
    plan = allowed_checks(spec, plan, state_schema, text, today, sample)
    if plan.kind not in ("recorded_update", "item_add", "item_remove") or not plan.collection:
        return plan
    own = _props(state_schema.get("properties") or {}, plan.collection)
    started = [c for c in started_checks(spec.description, text + "\n" + policy, own, today) if c not in plan.checks]
    return ToolPlan.from_dict({**plan.to_dict(), "checks": list(plan.checks) + started}) if started else plan


def allowed_for_modes(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    today: str | None,
    sample: dict[str, Any] | None = None,
    policy: str = "",
) -> ToolPlan:
    """allowed_when.allowed_checks (and start_times.py's check), with a `by_mode` plan's shared checks given to every
    mode."""
    if plan.kind != "by_mode" or not plan.modes:
        return _allowed(spec, plan, state_schema, text, today, sample, policy)
    flat = ToolPlan.from_dict({**plan.to_dict(), "kind": "recorded_update", "modes": {}})
    added = [c for c in _allowed(spec, flat, state_schema, text, today, sample, policy).checks if c not in flat.checks]
    if not added:
        return plan
    modes = {}
    for value, mode in plan.modes.items():
        sub = dict(mode.get("plan") or {})
        sub["checks"] = list(sub.get("checks") or []) + [c for c in added if c not in (sub.get("checks") or [])]
        modes[value] = {**mode, "plan": sub}
    return ToolPlan.from_dict({**plan.to_dict(), "modes": modes, "checks": list(plan.checks) + added})


__all__ = ["allowed_for_modes"]
