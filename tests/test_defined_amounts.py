"""An amount a change's docs define by a rule ("the refund is the berthing's `fee` in full if it has no failed lifts,
otherwise half of it"), moved onto a linked number only in the state an "If ..." names, and answered as the docs
spell the answer; planned from the docs and run."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.defined_amounts import amount_moves, defined_amounts
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.quote_effects import priced_plan
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S, N = {"type": "string"}, {"type": "number"}
BERTHING = {
    "berthing_id": S,
    "skipper_id": {**S, "x-references": "skippers"},
    "status": {"type": "string", "x-enum": ["booked", "cancelled"]},
    "fee": N,
    "failed_lifts": {"type": "integer"},
    "paid_by": {"type": "string", "x-enum": ["purse", "cash"]},
}
COLS = {"berthings": collection(BERTHING), "skippers": collection({"skipper_id": S, "credit": N})}
SCHEMA = {"type": "object", "properties": COLS}
CANCEL = ToolSpec(
    "cancel_berthing",
    "Cancel a berthing at the skipper's request. The berthing must be 'booked'. The refund is the berthing's `fee` "
    "in full if it has no failed lifts, otherwise half of it (rounded half up to the penny). If the fee was paid "
    "from the purse (`paid_by` 'purse'), the refund is added to the skipper's `credit`; cash payments are refunded "
    "at the desk and no balance changes. The berthing's `status` becomes 'cancelled'. Returns {berthing_id, status: "
    "'cancelled', refund, refunded_to ('purse' or 'cash'), credit (the skipper's new credit, or null for cash "
    "refunds)}.",
    {"type": "object", "properties": {"berthing_id": S}, "required": ["berthing_id"]},
)
STATE = {
    "berthings": {
        "BE-1": {
            "berthing_id": "BE-1",
            "skipper_id": "S1",
            "status": "booked",
            "fee": 22.0,
            "failed_lifts": 0,
            "paid_by": "purse",
        },
        "BE-2": {
            "berthing_id": "BE-2",
            "skipper_id": "S1",
            "status": "booked",
            "fee": 8.05,
            "failed_lifts": 1,
            "paid_by": "purse",
        },
        "BE-3": {
            "berthing_id": "BE-3",
            "skipper_id": "S1",
            "status": "booked",
            "fee": 10.0,
            "failed_lifts": 2,
            "paid_by": "cash",
        },
    },
    "skippers": {"S1": {"skipper_id": "S1", "credit": 5.0}},
}
PLAN = ToolPlan(kind="update", collection="berthings", key_field="berthing_id", key_param="berthing_id")


def test_the_amount_and_where_it_goes() -> None:
    own = COLS["berthings"]["additionalProperties"]["properties"]
    [(name, node)] = defined_amounts(CANCEL.description, own, "berthing_id").items()
    assert name == "refund"
    assert node["if_field"] == {"param": "berthing_id", "field": "failed_lifts", "in": [0, 0.0]}
    assert node["else"] == {
        "round": {"op": "*", "args": [{"field": "fee", "param": "berthing_id"}, {"num": 0.5}]},
        "digits": 2,
        "way": "half_up",
    }
    [move] = amount_moves(CANCEL.description, ["refund"], own, COLS)
    assert move["collection"] == "skippers" and move["when"] == {"field": "paid_by", "in": ["purse"]}
    assert (
        defined_amounts(
            "The refund is the berthing's `fee` in full if it is raining, otherwise half of it.", own, "berthing_id"
        )
        == {}
    )


def test_a_cancellation_refunds_by_the_rule_and_answers_as_spelt() -> None:
    moved = docs_transition(CANCEL, PLAN, SCHEMA, "", list(STATE["berthings"].values()), STATE)
    assert moved is not None
    plan = priced_plan(CANCEL, moved, SCHEMA, [CANCEL], {}, CANCEL.description)
    assert plan.output_fields == ["berthing_id", "status", "refund", "refunded_to", "credit"]
    full = copy.deepcopy(STATE)
    full["berthings"]["BE-1"]["status"] = "cancelled"
    full["skippers"]["S1"]["credit"] = 27.0
    cases = [
        Case(CANCEL.name, "x", STATE, {"berthing_id": "BE-1"}, expect_error=False),
        Case(CANCEL.name, "x", STATE, {"berthing_id": "BE-2"}, expect_error=False),
        Case(CANCEL.name, "x", STATE, {"berthing_id": "BE-3"}, expect_error=False),
    ]
    cases[0].state_checks = [{"op": "equals", "state": full}]
    cases[0].expect_result = {
        "berthing_id": "BE-1",
        "status": "cancelled",
        "refund": 22.0,
        "refunded_to": "purse",
        "credit": 27.0,
    }
    cases[1].expect_result = {
        "berthing_id": "BE-2",
        "status": "cancelled",
        "refund": 4.03,
        "refunded_to": "purse",
        "credit": 9.03,
    }
    cases[2].expect_result = {
        "berthing_id": "BE-3",
        "status": "cancelled",
        "refund": 5.0,
        "refunded_to": "cash",
        "credit": None,
    }
    res, err = run_cases(render_tool(CANCEL, plan, SCHEMA), CANCEL.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)
