"""Traces as examples: a change that also sets a field of the record its record names (starting a repair sends the
bike its ticket names to the workshop and clears the bike's dock) is learned from the recorded calls as `ref_set`
effects, read through the ticket's link as it was before the call, and the learned plan reproduces the calls."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_learn import learned_variants
from synth.envsynth.trace_links import linked_sets
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "bikes": _collection({"bike_id": S, "state": S, "dock": {"type": ["string", "null"]}}),
        "tickets": _collection({"ticket_id": S, "bike_id": S, "state": S}),
    },
}
SPEC = ToolSpec(
    "start_repair",
    "Starts the repair of a ticket.",
    {"type": "object", "properties": {"ticket_id": S}, "required": ["ticket_id"]},
    mutates=True,
)


def _state() -> dict:
    return {
        "bikes": {
            "B1": {"bike_id": "B1", "state": "docked", "dock": "D4"},
            "B2": {"bike_id": "B2", "state": "docked", "dock": "D7"},
        },
        "tickets": {
            "T1": {"ticket_id": "T1", "bike_id": "B1", "state": "open"},
            "T2": {"ticket_id": "T2", "bike_id": "B2", "state": "open"},
        },
    }


def _recorded(ticket: str, bike: str) -> Case:
    changes = [
        {"path": f"/tickets/{ticket}/state", "value": "in_progress"},
        {"path": f"/bikes/{bike}/state", "value": "in_workshop"},
        {"path": f"/bikes/{bike}/dock", "value": None},
    ]
    return Case(
        SPEC.name,
        "trace",
        _state(),
        {"ticket_id": ticket},
        expect_error=False,
        state_checks=[{"op": "changes", "changes": changes}],
    )


def test_the_linked_records_fields_every_call_sets_are_learned() -> None:
    plan = ToolPlan(kind="recorded_update", collection="tickets", key_field="ticket_id", key_param="ticket_id")
    recorded = [_recorded("T1", "B1"), _recorded("T2", "B2")]
    assert linked_sets(plan, recorded) == [
        {"op": "ref_set", "collection": "bikes", "via": "bike_id", "field": "dock", "value": None},
        {"op": "ref_set", "collection": "bikes", "via": "bike_id", "field": "state", "value": "in_workshop"},
    ]
    odd = _recorded("T2", "B2")
    odd.state_checks[0]["changes"][1]["value"] = "lost"  # calls disagree on the value: no rule
    assert [e["field"] for e in linked_sets(plan, [_recorded("T1", "B1"), odd])] == ["dock"]
    learned = [p for p in learned_variants(SPEC, plan, recorded) if any(e["op"] == "ref_set" for e in p.effects)]
    assert learned
    after = copy.deepcopy(_state())
    after["tickets"]["T2"]["state"] = "in_progress"
    after["bikes"]["B2"].update(state="in_workshop", dock=None)
    case = Case(SPEC.name, "x", _state(), {"ticket_id": "T2"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(SPEC, learned[0], SCHEMA), SPEC.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1, [f.message for f in res.failures]
