"""Number limits a create's docs put on the records it names (a kayak club's rentals): each "less / fewer than N
<words>" picks the named record's one number field sharing a word, and the rendered create refuses the call past
the limit; limits on other nouns, or words no single field shares, are left alone."""

from __future__ import annotations

from synth.envsynth.bound_checks import bound_checks
from synth.envsynth.expr_runtime import fg_check

S, N = {"type": "string"}, {"type": "number"}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


COLS = {
    "paddlers": _collection({"paddler_id": S, "dues_owed": N, "boats_afloat": {"type": "integer"}, "age": N}),
    "kayaks": _collection({"kayak_id": S, "seats": {"type": "integer"}}),
}
REFS = {"paddler_id": "paddlers", "kayak_id": "kayaks"}
TEXT = (
    "Rents a kayak. The paddler must be 'active', owe less than 40.00 in dues and have fewer than 3 boats afloat; "
    "the kayak must be 'docked'. Afterwards the paddler has more than 2 things to carry."
)


def test_limits_on_the_named_record_become_bound_checks() -> None:
    checks = bound_checks(TEXT, REFS, COLS)
    assert [(c["via"], c["field"], c["cmp"], c["value"]) for c in checks] == [
        ("paddler_id", "dues_owed", "<", 40.0),
        ("paddler_id", "boats_afloat", "<", 3),
    ]
    state = {"paddlers": {"P1": {"dues_owed": 39.99, "boats_afloat": 2}, "P2": {"dues_owed": 40.0, "boats_afloat": 0}}}
    assert fg_check(checks[0], {"paddler_id": "P1"}, {}, state)
    assert not fg_check(checks[0], {"paddler_id": "P2"}, {}, state)
    assert fg_check(checks[1], {"paddler_id": "P2"}, {}, state) and fg_check(checks[0], {"paddler_id": "P9"}, {}, state)
    at_most = bound_checks("The paddler must have at most 2 boats afloat.", REFS, COLS)
    assert at_most[0]["cmp"] == "<=" and fg_check(at_most[0], {"paddler_id": "P1"}, {}, state)


def test_what_is_no_limit_on_a_named_record() -> None:
    assert bound_checks("The paddler owes less than 40.00 in dues.", REFS, COLS) == []  # no "must"
    assert bound_checks("The paddler must carry fewer than 3 paddles.", REFS, COLS) == []  # no field shares a word
    assert bound_checks("The club must have fewer than 3 boats afloat.", REFS, COLS) == []  # names no record


def test_a_cap_the_named_record_holds_itself() -> None:
    cols = {"crews": _collection({"crew_id": S, "boats": {"type": "integer"}, "max_boats": {"type": "integer"}})}
    text = "Puts a boat in a crew's care. The crew must be active and below max_boats."
    checks = bound_checks(text, {"crew_id": "crews"}, cols)
    assert checks == [
        {
            "op": "bound",
            "collection": "crews",
            "via": "crew_id",
            "field": "boats",
            "cmp": "<",
            "value": {"field": "max_boats"},
        }
    ]
    state = {"crews": {"C1": {"boats": 2, "max_boats": 3}, "C2": {"boats": 3, "max_boats": 3}}}
    assert fg_check(checks[0], {"crew_id": "C1"}, {}, state) and not fg_check(checks[0], {"crew_id": "C2"}, {}, state)
    assert bound_checks("The crew must be below max_oars.", {"crew_id": "crews"}, cols) == []  # no such cap


def test_a_docs_rule_case_the_limit_refuses_yields_to_it() -> None:
    from synth.envsynth.plan import ToolPlan
    from synth.envsynth.testgen import TestCase
    from synth.envsynth.tool_stage import _refused_by_checks

    cols = {"crews": _collection({"crew_id": S, "boats": {"type": "integer"}, "max_boats": {"type": "integer"}})}
    checks = bound_checks("The crew must be below max_boats.", {"crew_id": "crews"}, cols)
    state = {"crews": {"C2": {"boats": 3, "max_boats": 3}}, "boats": {"B1": {"boat_id": "B1"}}}
    plan = ToolPlan(kind="recorded_update", collection="boats", key_param="boat_id", checks=checks)
    rule = TestCase("assign_boat", "docs-rule", state, {"boat_id": "B1", "crew_id": "C2"}, expect_error=False)
    assert _refused_by_checks(plan, checks, rule)
    written = TestCase("assign_boat", "llm-questions", state, {"boat_id": "B1", "crew_id": "C2"}, expect_error=False)
    assert not _refused_by_checks(plan, checks, written)  # only the docs' own cases yield here
