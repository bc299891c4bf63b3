"""Cases the docs refuse (a glider club's launches): the docs' own looser cases yield to a stricter reading of the
same docs, and each one dropped is recorded with why; the arbiter's budget does not count them."""

from __future__ import annotations

from synth.envsynth.case_filters import YIELDED, outside_states, yield_to_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case

STATE = {
    "gliders": {"G1": {"status": "parked", "launches": 2, "launch_cap": 2}, "G2": {"status": "parked", "launches": 0}},
}
CAP = {"op": "bound", "from": "self", "field": "launches", "cmp": "<", "value": {"field": "launch_cap"}}


def _case(glider: str, origin: str = "docs-rule", error: bool = False) -> Case:
    return Case("launch_glider", origin, STATE, {"glider_id": glider}, expect_error=error)


def test_docs_rule_cases_outside_the_states_or_past_a_check_are_dropped_with_a_reason() -> None:
    plan = ToolPlan(kind="update", collection="gliders", key_param="glider_id", preconditions={"status": ["ready"]})
    dropped: list[dict] = []
    kept = yield_to_checks(plan, [], [_case("G2"), _case("G2", error=True), _case("G2", "llm-cases")], dropped)
    assert [(c.origin, c.expect_error) for c in kept] == [("docs-rule", True), ("llm-cases", False)]
    assert len(dropped) == 1 and dropped[0]["verdict"] == {"decision": YIELDED}
    assert "other states" in dropped[0]["failure"] and dropped[0]["case"]["arguments"] == {"glider_id": "G2"}
    assert not outside_states(ToolPlan(kind="update", collection="gliders", key_param="glider_id"), _case("G2"))


def test_a_check_the_docs_add_drops_only_the_cases_it_refuses() -> None:
    from synth.envsynth.expr_runtime import fg_check

    plan = ToolPlan(kind="update", collection="gliders", key_param="glider_id", checks=[CAP])
    if fg_check(CAP, {"glider_id": "G1"}, STATE["gliders"]["G1"], STATE):  # the check form this test relies on
        raise AssertionError("a glider at its launch cap passes the bound check")
    dropped: list[dict] = []
    kept = yield_to_checks(plan, [CAP], [_case("G1"), _case("G2")], dropped)
    assert [c.arguments["glider_id"] for c in kept] == ["G2"]
    assert [d["case"]["arguments"]["glider_id"] for d in dropped] == ["G1"]
    assert "check" in dropped[0]["failure"]


class _AlwaysTest:
    """A fake arbiter that always blames the test (not the real model)."""

    def chat(self, messages: list[dict], **kw: object) -> object:
        from types import SimpleNamespace

        return SimpleNamespace(text="test")


def test_yielded_cases_do_not_use_up_the_arbiters_budget() -> None:
    from synth.envsynth.tool_stage import _arbitrate
    from synth.envsynth.tool_tests import CaseFailure, ToolTestResult
    from synth.spec import ToolSpec

    spec = ToolSpec("launch_glider", "Launches a glider.", {"type": "object", "properties": {}})
    cases = [_case(g, "llm-cases") for g in ("G1", "G2", "G1", "G2")]
    res = ToolTestResult(0, 4, [CaseFailure(i, "llm-cases", "wrong_state", "differs") for i in range(4)])
    yielded = [{"case": {}, "failure": "x", "verdict": {"decision": YIELDED}}] * 2
    assert len(_arbitrate(spec, "", cases, res, _AlwaysTest(), list(yielded))) == 2  # half of four may go
    other = [{"reason": "an LLM answer that did not parse"}] * 2  # earlier drops of any other kind count
    assert len(_arbitrate(spec, "", cases, res, _AlwaysTest(), list(other))) == 4
