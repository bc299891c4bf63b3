"""One tool, a documented behaviour per value of one parameter ("accept: ...; refuse: ..."): a docs transition per
value, dispatched on the value, with the parameters a value requires; planned and rendered."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.mode_rules import mode_segments, mode_transition
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

LOG = {"type": "object", "properties": {"event": {"type": "string"}, "detail": {"type": "string"}}}
REQUEST = {
    "request_id": {"type": "string"},
    "status": {"type": "string", "x-enum": ["pending", "accepted", "refused"]},
    "pilot_id": {"type": "string", "x-references": "pilots"},
    "log": {"type": "array", "items": LOG},
}
PILOT = {"pilot_id": {"type": "string"}, "workload": {"type": "integer"}}
SCHEMA = {
    "type": "object",
    "properties": {
        name: {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
        for name, props in (("requests", REQUEST), ("pilots", PILOT))
    },
}
STATE = {
    "requests": {
        "R1": {"request_id": "R1", "status": "pending", "pilot_id": "P1", "log": []},
        "R2": {"request_id": "R2", "status": "accepted", "pilot_id": "P1", "log": []},
    },
    "pilots": {"P1": {"pilot_id": "P1", "workload": 3}},
}
DECIDE = ToolSpec(
    "settle_request",
    "Settles a pilotage request; only pending requests can be settled.\n\n"
    "- `accept`: the status becomes 'accepted'.\n"
    "- `refuse`: the note is required; the status becomes 'refused', the pilot's workload goes down by 1 and the "
    "log gets {event: 'refused', detail: <note>}.\n\nUnknown requests are refused.",
    {
        "type": "object",
        "properties": {
            "request_id": {"type": "string"},
            "decision": {"type": "string", "enum": ["accept", "refuse"]},
            "note": {"type": "string"},
        },
        "required": ["request_id", "decision"],
    },
)
PLAN = ToolPlan(kind="update", collection="requests", key_field="request_id", key_param="request_id")


def test_the_segments_of_each_value_and_the_text_they_share() -> None:
    param, segments, shared = mode_segments(DECIDE)
    assert param == "decision" and list(segments) == ["accept", "refuse"]
    assert segments["accept"] == "the status becomes 'accepted'."
    assert segments["refuse"].startswith("the note is required;") and segments["refuse"].endswith("<note>}.")
    assert shared.startswith("Settles a pilotage request;") and shared.endswith("Unknown requests are refused.")
    inline = ToolSpec(
        "settle_request",
        "Settle a request. accept: it is accepted. refuse: it is refused. Returns the request.",
        DECIDE.parameters,
    )
    assert mode_segments(inline)[1] == {"accept": "it is accepted.", "refuse": "it is refused."}
    bullets = ToolSpec(
        "set_request_status",
        "Moves a pending request to `accepted` or `refused`.\n\n- `accepted`: the pilot is told.\n"
        "- `refused`: the pilot's workload goes down by 1.\n\nReturns the request.",
        {"type": "object", "properties": {"status": {"type": "string", "description": "`accepted` or `refused`."}}},
    )
    assert mode_segments(bullets)[1] == {
        "accepted": "the pilot is told.",
        "refused": "the pilot's workload goes down by 1.",
    }
    plain = ToolSpec("settle_request", "Accept or refuse a request.", DECIDE.parameters)
    assert mode_segments(plain) is None


def test_each_value_makes_its_own_change_and_others_are_refused() -> None:
    plan = mode_transition(DECIDE, PLAN, SCHEMA, "")
    assert plan is not None and plan.kind == "by_mode" and plan.op_param == "decision"
    assert plan.modes["refuse"]["requires"] == ["note"] and plan.modes["accept"]["requires"] == []
    refused = copy.deepcopy(STATE)
    refused["requests"]["R1"].update(status="refused", log=[{"event": "refused", "detail": "fog"}])
    refused["pilots"]["P1"]["workload"] = 2
    accepted = copy.deepcopy(STATE)
    accepted["requests"]["R1"]["status"] = "accepted"
    cases = [
        Case(DECIDE.name, "x", STATE, {"request_id": "R1", "decision": "refuse", "note": "fog"}, expect_error=False),
        Case(DECIDE.name, "x", STATE, {"request_id": "R1", "decision": "accept"}, expect_error=False),
        Case(DECIDE.name, "x", STATE, {"request_id": "R1", "decision": "refuse"}, expect_error=True),  # no note
        Case(DECIDE.name, "x", STATE, {"request_id": "R1", "decision": "defer"}, expect_error=True),
        Case(DECIDE.name, "x", STATE, {"request_id": "R2", "decision": "accept"}, expect_error=True),  # not pending
    ]
    cases[0].state_checks = [{"op": "equals", "state": refused}]
    cases[1].state_checks = [{"op": "equals", "state": accepted}]
    res, err = run_cases(render_tool(DECIDE, plan, SCHEMA), DECIDE.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)
