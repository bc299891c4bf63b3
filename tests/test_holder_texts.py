"""An entry appended to both the call's record and the record it links, whose text on the linked one is written from
that record's values after the call and the key of the call's record ("H-7001; 4 lifts remaining"); planned from the
docs and the data's entries, and run."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.linked_logs import linked_entries
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S = {"type": "string"}
ENTRY = {"type": "object", "properties": {"date": S, "event": {"type": "string", "x-enum": ["lifted"]}, "detail": S}}
SCHEMA = {
    "type": "object",
    "properties": {
        "haulouts": _collection({"haulout_id": S, "boat_id": S, "status": S, "log": {"type": "array", "items": ENTRY}}),
        "boats": _collection(
            {"boat_id": S, "lifts_remaining": {"type": "integer"}, "log": {"type": "array", "items": ENTRY}}
        ),
    },
}
TODAY = "2031-05-02"


def _boat(key: str, left: int, logged: list[str]) -> dict:
    entries = [{"date": "2031-04-01", "event": "lifted", "detail": d} for d in logged]
    return {"boat_id": key, "lifts_remaining": left, "log": entries}


def _haulout(key: str, boat: str, status: str) -> dict:
    return {"haulout_id": key, "boat_id": boat, "status": status, "log": []}


STATE = {
    "haulouts": {
        "H-7001": _haulout("H-7001", "B1", "done"),
        "H-7002": _haulout("H-7002", "B2", "done"),
        "H-7003": _haulout("H-7003", "B3", "waiting"),
        "H-7004": _haulout("H-7004", "B2", "waiting"),
    },
    "boats": {
        "B1": _boat("B1", 4, ["H-7001; 4 lifts remaining"]),
        "B2": _boat("B2", 2, ["H-7002; 2 lifts remaining"]),
        "B3": _boat("B3", 1, ["H-6990; 1 lifts remaining"]),  # its haul-out is gone: left out
    },
}
LIFT = ToolSpec(
    "lift_boat",
    'Lifts the boat of a waiting haul-out. The boat\'s lifts_remaining drops by one, and a "lifted" entry is '
    "appended to both the haulout's and the boat's log.",
    {"type": "object", "properties": {"haulout_id": S}, "required": ["haulout_id"]},
)


def test_the_linked_entry_text_reads_the_holder_after_the_call_and_the_calls_key() -> None:
    [entry] = linked_entries(LIFT.description, "haulouts", SCHEMA, LIFT.parameters, STATE, TODAY)
    assert entry["collection"] == "boats" and entry["via"] == "boat_id"
    detail = entry["items"][0]["fields"]["detail"]
    assert detail == {
        "from": "concat",
        "parts": [{"from": "own_key"}, "; ", {"from": "holder", "path": ["lifts_remaining"]}, " lifts remaining"],
    }
    drop = {
        "op": "adjust",
        "collection": "boats",
        "path": [{"from": "record", "path": ["boat_id"]}, {"from": "const", "value": "lifts_remaining"}],
        "delta": {"from": "expr", "expr": {"minus": [{"const": 1}]}},
    }
    plan = ToolPlan(
        kind="recorded_update",
        collection="haulouts",
        key_field="haulout_id",
        key_param="haulout_id",
        effects=[{"op": "set", "field": "status", "source": {"from": "const", "value": "done"}}, drop, entry],
    )
    after = copy.deepcopy(STATE)
    after["haulouts"]["H-7004"]["status"] = "done"
    after["boats"]["B2"]["lifts_remaining"] = 1
    after["boats"]["B2"]["log"].append({"date": TODAY, "event": "lifted", "detail": "H-7004; 1 lifts remaining"})
    case = Case(LIFT.name, "x", STATE, {"haulout_id": "H-7004"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(LIFT, plan, SCHEMA), LIFT.name, [case], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_no_text_from_one_entry_or_one_no_record_explains() -> None:
    one = copy.deepcopy(STATE)
    one["boats"]["B2"]["log"] = []
    assert "detail" not in str(linked_entries(LIFT.description, "haulouts", SCHEMA, LIFT.parameters, one, TODAY))
    odd = copy.deepcopy(STATE)
    odd["boats"]["B2"]["log"][0]["detail"] = "H-7002 lifted"  # the two texts share no template
    assert linked_entries(LIFT.description, "haulouts", SCHEMA, LIFT.parameters, odd, TODAY) == []
