"""A state an object of the record moves to once the record's number is settled ("If the balance is now zero or
less: ..., and a `running` berth plan becomes `finished`" where the boat holds its `berth_plan`), the object's field
known from the sample objects; planned and run."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_thresholds import listed_thresholds
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
N = {"type": "number"}
PLAN = {"type": ["object", "null"], "properties": {"plan_id": S, "status": S, "total": N}}
BOAT = {"boat_id": S, "status": {"type": "string", "x-enum": ["afloat", "suspended"]}, "balance": N, "berth_plan": PLAN}
SCHEMA = {"type": "object", "properties": {"boats": collection(BOAT)}}
TEXT = (
    "Takes a payment. The boat's `balance` goes down by `amount`. If the balance is now zero or less: a `suspended` "
    "boat becomes `afloat`, and a `running` berth plan becomes `finished`."
)
PAY = ToolSpec("pay_boat", TEXT, {"type": "object", "properties": {"boat_id": S, "amount": N}, "required": ["boat_id"]})
STATE = {
    "boats": {
        "B1": {
            "boat_id": "B1",
            "status": "suspended",
            "balance": 50.0,
            "berth_plan": {"plan_id": "BP-1", "status": "running", "total": 300.0},
        },
        "B2": {"boat_id": "B2", "status": "afloat", "balance": 10.0, "berth_plan": None},
    }
}


def test_an_object_of_the_record_moves_once_the_balance_is_settled() -> None:
    moves = listed_thresholds(TEXT, "boats", SCHEMA, STATE)
    assert [(m["field"], m.get("inside"), m["from"], m["value"]) for m in moves] == [
        ("status", None, ["suspended"], "afloat"),
        ("status", "berth_plan", ["running"], "finished"),
    ]
    assert [m.get("inside") for m in listed_thresholds(TEXT, "boats", SCHEMA)] == [None]  # no sample: unknown states
    paid = {"from": "expr", "expr": {"minus": [{"arg": "amount"}]}}
    path = [{"from": "record", "path": ["boat_id"]}, {"from": "const", "value": "balance"}]
    plan = ToolPlan(
        kind="recorded_update",
        collection="boats",
        key_field="boat_id",
        key_param="boat_id",
        effects=[{"op": "adjust", "collection": "boats", "path": path, "delta": paid}, *moves],
    )
    settled = copy.deepcopy(STATE)
    settled["boats"]["B1"].update(status="afloat", balance=0.0)
    settled["boats"]["B1"]["berth_plan"]["status"] = "finished"
    owing = copy.deepcopy(STATE)
    owing["boats"]["B1"]["balance"] = 20.0
    cases = [
        Case(PAY.name, "x", STATE, {"boat_id": "B1", "amount": 50.0}, expect_error=False),
        Case(PAY.name, "x", STATE, {"boat_id": "B1", "amount": 30.0}, expect_error=False),
        Case(PAY.name, "x", STATE, {"boat_id": "B2", "amount": 10.0}, expect_error=False),  # no plan to move
    ]
    cleared = copy.deepcopy(STATE)
    cleared["boats"]["B2"]["balance"] = 0.0
    for case, after in zip(cases, (settled, owing, cleared)):
        case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(PAY, plan, SCHEMA), PAY.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)
