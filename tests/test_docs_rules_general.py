"""Docs rules in the phrasings vendors use beyond the two references: backtick values, "Sets status `x`",
"Allowed only from status `y`", refusals listed under Errors, appended elements written out, one-value list
edits, and optional arguments learned from recorded calls."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.docs_appends import docs_appends
from synth.envsynth.item_plan import item_edit_plan
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_learn import _source
from synth.spec import ToolSpec

VISIT = {
    "type": "object",
    "properties": {
        "visit_id": {"type": "string"},
        "status": {"type": "string", "x-enum": ["booked", "confirmed", "done", "cancelled"]},
        "reason": {"type": "string"},
        "history": {"type": "array", "items": {"type": "object"}},
        "extras": {"type": "array", "items": {"type": "string"}},
    },
}
SCHEMA = {"type": "object", "properties": {"visits": {"type": "object", "additionalProperties": VISIT}}}
STATE = {
    "visits": {
        "V1": {"visit_id": "V1", "status": "booked", "reason": "limp", "history": [], "extras": ["xray"]},
        "V2": {"visit_id": "V2", "status": "done", "reason": "cough", "history": [], "extras": []},
    }
}


def _spec(name: str, description: str, params: list[str]) -> ToolSpec:
    props = {p: {"type": "string"} for p in params}
    return ToolSpec(name, description, {"type": "object", "properties": props, "required": params[:1]})


def test_backtick_transition_with_its_written_element_and_refusals_from_errors() -> None:
    cancel = _spec(
        "cancelVisit",
        "Cancels a visit. Sets status `cancelled` and appends "
        '`{"status": "cancelled", "note": <reason>}` to the history. Errors: 404: Not found.; '
        "409: Visit is not booked or confirmed.",
        ["visit_id", "reason"],
    )
    plan = docs_transition(cancel, ToolPlan(kind="update", collection="visits", key_param="visit_id"), SCHEMA, "")
    assert plan is not None and plan.preconditions == {"status": ["booked", "confirmed"]}
    assert plan.effects == [
        {"op": "set", "field": "status", "source": {"from": "const", "value": "cancelled"}},
        {
            "op": "append",
            "field": "history",
            "items": [
                {
                    "fields": {
                        "status": {"from": "const", "value": "cancelled"},
                        "note": {"from": "arg", "name": "reason"},
                    }
                }
            ],
        },
    ]  # `reason` goes to the history, not over the visit's own reason
    schema = SchemaResult(SCHEMA, {}, {}, "docs")
    cases = [
        Case("cancelVisit", "x", STATE, {"visit_id": "V1", "reason": "better"}, expect_error=False),
        Case("cancelVisit", "x", STATE, {"visit_id": "V2", "reason": "late"}, expect_error=True),
    ]
    res, err = run_cases(render_tool(cancel, plan, SCHEMA), "cancelVisit", cases, schema)
    assert err == "" and res.passed == 2


def test_allowed_only_from_and_an_optional_placeholder() -> None:
    confirm = _spec(
        "confirmVisit",
        "Allowed only from status `booked`. Sets status `confirmed`, appends "
        '`{"status": "confirmed", "note": <note or "">}` to the history.',
        ["visit_id", "note"],
    )
    plan = docs_transition(confirm, ToolPlan(kind="update", collection="visits", key_param="visit_id"), SCHEMA, "")
    assert plan is not None and plan.preconditions == {"status": ["booked"]}
    note = plan.effects[1]["items"][0]["fields"]["note"]
    assert note == {"from": "arg", "name": "note", "default": ""}
    source = render_tool(confirm, plan, SCHEMA)
    assert "arguments.get('note', '')" in source


def test_written_elements_need_known_lists_and_parameters() -> None:
    props = VISIT["properties"]
    text = 'It appends `{"by": <clerk>}` to the history.'
    assert docs_appends(text, props, {"clerk": {}})[0]["field"] == "history"
    assert docs_appends(text, props, {}) == []  # <clerk> is no parameter
    assert docs_appends('It appends `{"by": 1}` to the ledger.', props, {}) == []  # no such list field
    assert docs_appends("It appends `{not json}` to the history.", props, {}) == []


def _ctx() -> PlanContext:
    draft = CollectionDraft(name="visits", resource="visit", fields=dict(VISIT["properties"]), key_field="visit_id")
    return PlanContext(collections={"visits": draft}, singletons={}, client=None, votes=1, trees={})


def test_one_value_list_edits_are_planned_rendered_and_reach_success() -> None:
    remove = _spec("removeVisitExtra", "Remove an extra from a visit.", ["visit_id", "extra_code"])
    plan = item_edit_plan(remove, tool_priors(remove), _ctx(), mutates=True)
    assert plan is not None and (plan.kind, plan.list_field, plan.op_param) == ("item_remove", "extras", "extra_code")
    add = _spec("addVisitExtra", "Add an extra to a visit.", ["visit_id", "extra_code"])
    assert item_edit_plan(add, tool_priors(add), _ctx(), mutates=True).kind == "item_add"
    other = _spec("addVisitExtra", "Add an extra to a visit.", ["visit_id", "colour"])
    assert item_edit_plan(other, tool_priors(other), _ctx(), mutates=True) is None  # no word of `extras`
    schema = SchemaResult(SCHEMA, {}, {}, "docs")
    generated = [Case("removeVisitExtra", "x", STATE, {"visit_id": "nope", "extra_code": "zz"}, expect_error=True)]
    reached = existing_key_cases(plan, generated)
    assert reached and reached[0].arguments == {"visit_id": "V1", "extra_code": "xray"}
    reached[0].expect_error = False
    res, err = run_cases(render_tool(remove, plan, SCHEMA), "removeVisitExtra", generated + reached, schema)
    assert err == "" and res.passed == 2
    again = Case("removeVisitExtra", "x", STATE, {"visit_id": "V2", "extra_code": "xray"}, expect_error=True)
    res, err = run_cases(render_tool(remove, plan, SCHEMA), "removeVisitExtra", [again], schema)
    assert err == ""  # not on the visit: refused


def test_an_optional_argument_is_learned_with_its_default() -> None:
    samples = [("Owner arrived", {"id": "a", "note": "Owner arrived"}, {}, {}), ("", {"id": "b"}, {}, {})]
    assert _source(samples, "id") == {"from": "arg", "name": "note", "default": ""}
    always = [("x", {"id": "a", "note": "x"}, {}, {}), ("y", {"id": "b", "note": "y"}, {}, {})]
    assert _source(always, "id") == {"from": "arg", "name": "note"}
