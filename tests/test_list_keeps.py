"""A list edit that must leave at least one element ("every crew has to keep at least one hand") refuses to remove
the last; an error's variants ("(the same for ...)") are not states the record may be in."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
CREW = {"type": "array", "items": S}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "boat_id": S,
                    "status": {"type": "string", "x-enum": ["moored", "sailing", "sunk"]},
                    "crew": CREW,
                },
            },
        }
    },
}
SPEC = ToolSpec(
    "drop_hand",
    "Takes a hand off a moored boat's crew. The last hand cannot be dropped: every crew has to keep at least one "
    "hand. Errors: only moored boats change crew (the same for `sunk`).",
    {"type": "object", "properties": {"boat_id": S, "hand": S}, "required": ["boat_id", "hand"]},
)
STATE = {
    "boats": {
        "B1": {"boat_id": "B1", "status": "moored", "crew": ["ann", "bo"]},
        "B2": {"boat_id": "B2", "status": "moored", "crew": ["cy"]},
        "B3": {"boat_id": "B3", "status": "sunk", "crew": ["di", "ed"]},
    }
}


def test_the_last_hand_stays_and_only_moored_boats_change_crew() -> None:
    base = ToolPlan(kind="item_remove", collection="boats", key_param="boat_id", op_param="hand", list_field="crew")
    plan = refine_item(SPEC, base, SCHEMA, SPEC.description)
    assert plan.checks == [{"op": "keeps", "least": 1}] and plan.preconditions == {"status": ["moored"]}
    ok = Case(SPEC.name, "x", STATE, {"boat_id": "B1", "hand": "bo"}, expect_error=False)
    ok.state_checks = [{"op": "field_equals", "collection": "boats", "key": "B1", "field": "crew", "value": ["ann"]}]
    last = Case(SPEC.name, "x", STATE, {"boat_id": "B2", "hand": "cy"}, expect_error=True)
    sunk = Case(SPEC.name, "x", STATE, {"boat_id": "B3", "hand": "di"}, expect_error=True)
    res, err = run_cases(
        render_tool(SPEC, plan, SCHEMA), SPEC.name, [ok, last, sunk], SchemaResult(SCHEMA, {}, {}, "d")
    )
    assert err == "" and res.passed == 3
    loose = ToolSpec(SPEC.name, "Takes a hand off a boat's crew.", SPEC.parameters)
    assert refine_item(loose, base, SCHEMA, loose.description).checks == []
