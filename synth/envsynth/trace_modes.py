"""Variants of a `by_mode` plan with one value's behaviour learned from its recorded calls (--traces).

A tool whose docs describe each value of one parameter on its own ("accept: ...; revise: ...") gets one sub-plan
per value from the docs (mode_rules.py). Where the docs leave out what a value writes (an entry the data never
logs), the recorded calls with that value show it: their changes are read as any keyed write's are
(trace_learn.learned_variants), and each plan so learned replaces that value's sub-plan in a variant of the whole,
the other values keeping theirs. The variants compete with the docs' plan on every recorded call
(plan_choice.choose_plan), so one is kept only where it reproduces more.
"""

from __future__ import annotations

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.spec import ToolSpec

MIN_CALLS = 2  # recorded successful calls of one value needed to learn it (texts need two to agree)
MAX_PER_VALUE = 3  # learned sub-plans tried per value


def mode_variants(spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase]) -> list[ToolPlan]:
    """The plan with one value's sub-plan replaced by a plan learned from that value's recorded calls, for each
    value with MIN_CALLS successful calls at least."""
    from synth.envsynth.trace_learn import learned_variants

    if plan.kind != "by_mode" or not plan.op_param or not plan.modes or not recorded:
        return []
    out: list[ToolPlan] = []
    for value, mode in sorted(plan.modes.items()):
        mine = [c for c in recorded if c.arguments.get(plan.op_param) == value]
        if sum(1 for c in mine if not c.expect_error) < MIN_CALLS:
            continue
        sub = ToolPlan.from_dict(mode.get("plan") or {})
        learned = [v for v in learned_variants(spec, sub, mine) if v.kind == "recorded_update" and v.effects]
        for variant in learned[:MAX_PER_VALUE]:
            modes = {**plan.modes, value: {**mode, "plan": variant.to_dict()}}
            evidence = plan.evidence + [f"`{plan.op_param}` = {value!r} learned from its recorded calls"]
            out.append(ToolPlan.from_dict({**plan.to_dict(), "modes": modes, "evidence": evidence}))
    return out


__all__ = ["mode_variants"]
