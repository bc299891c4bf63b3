"""A status parameter whose values the docs describe one by one: each value leaves only the states the errors
allow ("only underway voyages can end"), writes "one journey entry" holding the new state, the business date and
the note, and moves the numbers its own segment names ("... grows by the voyage's `miles`", "go back to ...")."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_entries import state_entries
from synth.envsynth.mode_rules import mode_transition
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
STATES = ["underway", "docked", "lost"]
ENTRY = {
    "type": "object",
    "properties": {
        "on": {"type": "string", "format": "date"},
        "state": {"type": "string", "x-enum": STATES},
        "note": S,
    },
}
VOYAGE = {
    "voyage_id": S,
    "skipper_id": S,
    "state": {"type": "string", "x-enum": STATES},
    "miles": {"type": "integer"},
    "journey": {"type": "array", "items": ENTRY},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "voyages": {"type": "object", "additionalProperties": {"type": "object", "properties": VOYAGE}},
        "skippers": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {"skipper_id": S, "miles_logged": {"type": "integer"}, "miles_left": {"type": "integer"}},
            },
        },
    },
}
START = [{"on": "2031-01-02", "state": "underway", "note": ""}]
STATE = {
    "voyages": {
        "V1": {"voyage_id": "V1", "skipper_id": "K1", "state": "underway", "miles": 40, "journey": list(START)},
        "V2": {
            "voyage_id": "V2",
            "skipper_id": "K1",
            "state": "docked",
            "miles": 10,
            "journey": START + [{"on": "2031-01-05", "state": "docked", "note": "calm sea"}],
        },
    },
    "skippers": {"K1": {"skipper_id": "K1", "miles_logged": 100, "miles_left": 5}},
}
SPEC = ToolSpec(
    "set_voyage_state",
    "Ends a voyage (business date 2031-02-03) and writes one journey entry (state and remark).\n\n"
    "Per outcome:\n- `docked`: `miles_logged` of the skipper grows by the voyage's `miles`.\n- `lost`: its `miles` "
    "go back to `miles_left`.\n\nErrors: 409 when the voyage has ended: only underway voyages can end.",
    {
        "type": "object",
        "properties": {"voyage_id": S, "state": {"type": "string", "enum": ["docked", "lost"]}, "note": S},
        "required": ["voyage_id", "state"],
    },
)


def test_a_log_entry_takes_the_state_the_call_sets() -> None:
    records = list(STATE["voyages"].values())
    (entry,) = state_entries(SPEC.description, VOYAGE, SPEC.parameters, records, "2031-02-03", {"state": "lost"})
    assert entry["field"] == "journey" and entry["items"][0]["fields"] == {
        "on": {"from": "const", "value": "2031-02-03"},
        "state": {"from": "const", "value": "lost"},
        "note": {"from": "arg", "name": "note", "default": ""},
    }
    assert state_entries(SPEC.description, VOYAGE, SPEC.parameters, records, "2031-02-03", {}) == []


def test_each_value_leaves_only_the_allowed_state_logs_and_moves_its_numbers() -> None:
    base = ToolPlan(kind="update", collection="voyages", key_field="voyage_id", key_param="voyage_id")
    plan = mode_transition(SPEC, base, SCHEMA, "", list(STATE["voyages"].values()), STATE)
    assert plan is not None and plan.preconditions == {"state": ["underway"]}
    docked = Case(SPEC.name, "x", STATE, {"voyage_id": "V1", "state": "docked", "note": "fog"}, expect_error=False)
    docked.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "miles_logged", "value": 140},
        {
            "op": "field_equals",
            "collection": "voyages",
            "key": "V1",
            "field": "journey",
            "value": START + [{"on": "2031-02-03", "state": "docked", "note": "fog"}],
        },
    ]
    lost = Case(SPEC.name, "x", STATE, {"voyage_id": "V1", "state": "lost"}, expect_error=False)
    lost.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "miles_left", "value": 45},
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "miles_logged", "value": 100},
    ]
    again = Case(SPEC.name, "x", STATE, {"voyage_id": "V2", "state": "lost"}, expect_error=True)  # docked already
    res, err = run_cases(
        render_tool(SPEC, plan, SCHEMA), SPEC.name, [docked, lost, again], SchemaResult(SCHEMA, {}, {}, "d")
    )
    assert err == "" and res.passed == 3
