"""A removal that takes only the entry in the state its docs name: "Removes the pending (`pending`) survey of this
type from the boat's `surveys` list"; a survey of that type with a result is kept and the call refused. The
existing-key cases put the named entry in that state, so the publish gate sees a call succeed. Read, rendered and
run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.item_rules import refine_item
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S = {"type": "string"}
SURVEY = {
    "type": "object",
    "properties": {"kind": S, "result": {"type": "string", "x-enum": ["pending", "passed", "failed"]}},
}
SCHEMA = {
    "type": "object",
    "properties": {"boats": collection({"boat_id": S, "surveys": {"type": "array", "items": SURVEY}})},
}
TEXT = (
    "Cancel a pending survey.\n\nRemoves the pending (`pending`) survey of this type from the boat's `surveys` list. "
    "Surveys with a result (`passed` or `failed`) are part of the record and cannot be removed."
)
PARAMS = {"type": "object", "properties": {"boat_id": S, "kind": S}, "required": ["boat_id", "kind"]}
SPEC = ToolSpec("cancel_survey", TEXT, PARAMS)
BASE = ToolPlan(
    kind="item_remove",
    collection="boats",
    key_field="boat_id",
    key_param="boat_id",
    list_field="surveys",
    item_key="kind",
    op_param="kind",
)


def _state() -> dict[str, Any]:
    surveys = [
        {"kind": "hull", "result": "passed"},
        {"kind": "hull", "result": "pending"},
        {"kind": "mast", "result": "failed"},
    ]
    return {"boats": {"B1": {"boat_id": "B1", "surveys": surveys}}}


def test_only_the_pending_entry_goes() -> None:
    plan = refine_item(SPEC, BASE, SCHEMA, TEXT, _state(), None)
    assert [e for e in plan.effects if e["op"] == "element_state"] == [
        {"op": "element_state", "field": "result", "in": ["pending"]}
    ]
    after = copy.deepcopy(_state())
    del after["boats"]["B1"]["surveys"][1]
    calls = [
        ({"boat_id": "B1", "kind": "hull"}, after),  # the passed hull survey stays
        ({"boat_id": "B1", "kind": "mast"}, None),  # it has a result
        ({"boat_id": "B1", "kind": "keel"}, None),  # none of that type
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)
    unsaid = refine_item(
        SPEC, BASE, SCHEMA, TEXT.replace("the pending (`pending`) survey", "the survey"), _state(), None
    )
    assert not [e for e in unsaid.effects if e["op"] == "element_state"]


def test_the_existing_key_case_names_an_entry_in_that_state() -> None:
    plan = refine_item(SPEC, BASE, SCHEMA, TEXT, _state(), None)
    state = {"boats": {"B1": {"boat_id": "B1", "surveys": [{"kind": "mast", "result": "failed"}]}}}
    (case,) = existing_key_cases(plan, [Case(SPEC.name, "x", state, {"boat_id": "Z9", "kind": "keel"})])
    assert case.arguments == {"boat_id": "B1", "kind": "mast"}
    assert case.state["boats"]["B1"]["surveys"] == [{"kind": "mast", "result": "pending"}]
