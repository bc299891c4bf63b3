"""The rules a change's docs give for every value of its mode argument alike ("Only reserved berths whose hold has
not expired can be taken up", before the per-method paragraphs): allowed_when.py reads them on a plain change; for
a `by_mode` plan they are read on the change as one and added to each value's sub-plan (and to the plan itself,
where the cases that meet checks look for them)."""

from __future__ import annotations

from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec


def allowed_for_modes(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    today: str | None,
    sample: dict[str, Any] | None = None,
) -> ToolPlan:
    """allowed_when.allowed_checks, with a `by_mode` plan's shared checks given to every mode."""
    if plan.kind != "by_mode" or not plan.modes:
        return allowed_checks(spec, plan, state_schema, text, today, sample)
    flat = ToolPlan.from_dict({**plan.to_dict(), "kind": "recorded_update", "modes": {}})
    added = [c for c in allowed_checks(spec, flat, state_schema, text, today, sample).checks if c not in flat.checks]
    if not added:
        return plan
    modes = {}
    for value, mode in plan.modes.items():
        sub = dict(mode.get("plan") or {})
        sub["checks"] = list(sub.get("checks") or []) + [c for c in added if c not in (sub.get("checks") or [])]
        modes[value] = {**mode, "plan": sub}
    return ToolPlan.from_dict({**plan.to_dict(), "modes": modes, "checks": list(plan.checks) + added})


__all__ = ["allowed_for_modes"]
