"""Refusals said in passing: the states an opening sentence gives with "whose status is `a` or `b`", and an added
entry refused for one argument value while another entry of the list is still in a state ("the type is `final`
while any other survey on the boat is still `booked`"); read from the docs and run."""

from __future__ import annotations

from synth.envsynth.allowed_states import described_states
from synth.envsynth.codegen import render_tool
from synth.envsynth.conditional_refusals import while_entries
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

KNOWN = ["submitted", "in_review", "on_hold", "approved"]


def test_whose_status_names_the_states_a_call_acts_on() -> None:
    said = "Approves a charter whose status is `submitted` or `in_review` (`on_hold` ones need a supervisor)."
    assert described_states(said, KNOWN, "approved") == ["submitted", "in_review"]
    assert described_states("Approve it\n\n" + said, KNOWN, "approved") == ["submitted", "in_review"]
    assert described_states(said.replace("`in_review`", "`lost`"), KNOWN, "approved") == []  # an unknown state
    assert described_states(said, KNOWN, "in_review") == []  # the state it leads to is no state it leaves


S = {"type": "string"}
SURVEY = {
    "type": "object",
    "properties": {"kind": S, "date": S, "state": {"type": "string", "x-enum": ["booked", "done"]}},
}
BOAT = {"boat_id": S, "surveys": {"type": "array", "items": SURVEY}}
SCHEMA = {"type": "object", "properties": {"boats": _collection(BOAT)}}
PARAMS = {"boat_id": S, "survey_type": S, "date": S}
BOOK = ToolSpec(
    "book_survey",
    "Adds a survey to the boat's `surveys`.\n\nRefused when:\n- the boat is not found;\n- the type is `final` while "
    "any other survey on the boat is still `booked`.",
    {"type": "object", "properties": PARAMS, "required": list(PARAMS)},
)


def test_a_value_refused_while_another_entry_is_in_a_state() -> None:
    checks = while_entries(BOOK.description, BOAT, PARAMS)
    cond = {"list": "surveys", "field": "state", "held": ["booked"]}
    assert checks == [{"op": "refused_if", "arg": "survey_type", "in": ["final"], "if": cond}]
    state = {
        "boats": {
            "B1": {"boat_id": "B1", "surveys": [{"kind": "hull", "date": "2031-01-02", "state": "booked"}]},
            "B2": {"boat_id": "B2", "surveys": [{"kind": "hull", "date": "2031-01-02", "state": "done"}]},
        }
    }
    plan = ToolPlan(
        kind="item_add",
        collection="boats",
        key_field="boat_id",
        key_param="boat_id",
        list_field="surveys",
        fields=["survey_type", "date"],
        checks=checks,
    )
    cases = [
        Case(BOOK.name, "x", state, {"boat_id": "B1", "survey_type": "final", "date": "2031-02-01"}, expect_error=True),
        Case(BOOK.name, "x", state, {"boat_id": "B2", "survey_type": "final", "date": "2031-02-01"}),
        Case(BOOK.name, "x", state, {"boat_id": "B1", "survey_type": "rig", "date": "2031-02-01"}),
    ]
    for case in cases[1:]:
        case.expect_error = False
    res, err = run_cases(render_tool(BOOK, plan, SCHEMA), BOOK.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)
    assert while_entries(BOOK.description.replace("`booked`", "`lost`"), BOAT, PARAMS) == []  # no entry state
    assert while_entries(BOOK.description, BOAT, {"boat_id": S, "date": S}) == []  # no parameter the words name


def test_refused_for_states_keeps_the_others() -> None:
    from synth.envsynth.refusals import refused_for

    props = {"status": {"type": "string", "x-enum": KNOWN}, "kind": {"type": "string", "x-enum": ["sail", "motor"]}}
    said = "Computes the fee. Nothing is stored. Refused for `on_hold` and `approved` charters."
    assert refused_for(said, "charter", props) == {"status": ["submitted", "in_review"]}
    assert refused_for(said, "mooring", props) == {}  # said of another record
    assert refused_for(said.replace("`approved`", "`sunk`"), "charter", props) == {}  # a value no field knows
