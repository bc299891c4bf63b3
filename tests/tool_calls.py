"""Running a rendered tool on calls and checking each one's outcome (not a test module)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase
from synth.fidelity.diff import leaf_changes
from synth.sandbox import run_cases as run_in_sandbox
from synth.spec import ToolSpec


def run_calls(
    spec: ToolSpec,
    plan: ToolPlan,
    schema: dict[str, Any],
    state: Callable[[], dict[str, Any]],
    calls: list[tuple[dict[str, Any], dict[str, Any] | None]],
) -> None:
    """Each (arguments, state after) call on a fresh `state()` passes: it fails when the state after is None,
    else it succeeds and leaves exactly that state (a failure names the leaves that differ)."""
    cases = []
    for arguments, after in calls:
        checks = [] if after is None else [{"op": "equals", "state": after}]
        cases.append(TestCase(spec.name, "x", state(), arguments, expect_error=after is None, state_checks=checks))
    source = render_tool(spec, plan, schema)
    res, err = run_cases(source, spec.name, cases, SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == len(calls), (err, _differences(source, spec.name, cases, calls))


def answers_pass(
    spec: ToolSpec,
    plan: ToolPlan,
    schema: dict[str, Any],
    state: dict[str, Any],
    calls: list[tuple[dict[str, Any], Any]],
) -> bool:
    """Whether each (arguments, answer) call on `state` gives exactly that answer; an answer of None: it fails."""
    cases = []
    for arguments, expected in calls:
        case = TestCase(spec.name, "x", state, arguments, expect_error=expected is None)
        if expected is not None:
            case.expect_result, case.has_expected_result = expected, True
        cases.append(case)
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, cases, SchemaResult(schema, {}, {}, "docs"))
    return err == "" and res.passed == len(calls)


def _differences(source: str, function: str, cases: list[TestCase], calls: list[tuple[dict, dict | None]]) -> list:
    """For each call expected to succeed, the leaves where the state it leaves differs from the expected one."""
    payload = [{"function": function, "state": c.state, "arguments": c.arguments} for c in cases]
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    out = []
    for (_, after), outcome in zip(calls, run_in_sandbox(module, payload)):
        if after is not None and outcome.state_after is not None and outcome.state_after != after:
            out.append({"got": leaf_changes(after, outcome.state_after)})
    return out
