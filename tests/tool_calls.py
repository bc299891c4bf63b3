"""Running a rendered tool on calls and checking each one's outcome (not a test module)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase
from synth.spec import ToolSpec


def run_calls(
    spec: ToolSpec,
    plan: ToolPlan,
    schema: dict[str, Any],
    state: Callable[[], dict[str, Any]],
    calls: list[tuple[dict[str, Any], dict[str, Any] | None]],
) -> None:
    """Each (arguments, state after) call on a fresh `state()` passes: it fails when the state after is None,
    else it succeeds and leaves exactly that state."""
    cases = []
    for arguments, after in calls:
        case = TestCase(spec.name, "x", state(), arguments, expect_error=after is None)
        if after is not None:
            case.expect_state, case.has_expected_state = after, True
        cases.append(case)
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, cases, SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == len(calls), (err, [f.message for f in res.failures])
