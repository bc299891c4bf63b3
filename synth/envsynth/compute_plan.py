"""Computation tools: a tool whose documented purpose is to calculate an arithmetic expression computes it
(numbers, + - * /, parentheses; `compute.py.j2`), instead of a plan that returns the same output for every input."""

from __future__ import annotations

import re

from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec

PURPOSE = re.compile(r"\b(calculat\w*|comput\w*|evaluat\w*)\b", re.IGNORECASE)
EXPRESSION = re.compile(r"\b(expression|formula|equation)\b", re.IGNORECASE)


def compute_plan(spec: ToolSpec, plan: ToolPlan) -> ToolPlan | None:
    """A `compute` plan when the docs say the tool calculates an expression given as its one string parameter."""
    if plan.kind not in ("action", "get", "unsupported", "singleton_get"):
        return None
    props = spec.parameters.get("properties") or {}
    strings = [p for p, s in props.items() if isinstance(s, dict) and s.get("type") == "string"]
    if len(strings) != 1 or not PURPOSE.search(spec.description):
        return None
    where = spec.description + " " + str(props[strings[0]].get("description", "")) + " " + strings[0]
    if not EXPRESSION.search(where):
        return None
    return ToolPlan(
        kind="compute", key_param=strings[0], evidence=plan.evidence + ["computes an arithmetic expression"]
    )


__all__ = ["compute_plan"]
