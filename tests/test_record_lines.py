"""A boatyard pricing a lift-out from the chores the lift holds: an opening row at a linked yard's fee, a row for
every listed chore at its tariff price (prose or table), the total over the rows, a capped share of a linked
skipper's credit when above zero, what remains as the figure to pay, and the states a price is given in."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.record_lines import _prose
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S, N = {"type": "string"}, {"type": "number"}


SCHEMA = {
    "type": "object",
    "properties": {
        "lifts": _collection(
            {
                "lift_id": S,
                "skipper_id": {"type": "string", "x-references": "skippers"},
                "yard_id": {"type": "string", "x-references": "yards"},
                "phase": {"type": "string", "x-enum": ["waiting", "raised", "relaunched"]},
                "chores": {"type": "array", "items": S},
            }
        ),
        "skippers": _collection({"skipper_id": S, "store_credit": N}),
        "yards": _collection({"yard_id": S, "crane_fee": N}),
    },
}
STATE = {
    "lifts": {
        "L1": {
            "lift_id": "L1",
            "skipper_id": "K1",
            "yard_id": "Y1",
            "phase": "waiting",
            "chores": ["antifoul", "zincs"],
        },
        "L2": {"lift_id": "L2", "skipper_id": "K2", "yard_id": "Y1", "phase": "raised", "chores": ["polish"]},
        "L3": {"lift_id": "L3", "skipper_id": "K1", "yard_id": "Y1", "phase": "relaunched", "chores": []},
    },
    "skippers": {"K1": {"skipper_id": "K1", "store_credit": 200.0}, "K2": {"skipper_id": "K2", "store_credit": -12.0}},
    "yards": {"Y1": {"yard_id": "Y1", "crane_fee": 80.0}},
}
POLICY = "## Yard tariff\n- Chore tariff (GBP): antifoul 140.00, polish 60.00, zincs 35.50, osmosis 400.00.\n"
TEXT = (
    "Works out a price for a lift and stores nothing. `rows` opens with a `crane` row charged at the yard's "
    "`crane_fee` and continues with a row for every chore, priced from the chore tariff. `total` adds up the rows. "
    "`credit_spent` (the skipper's `store_credit` when above zero, never more than the total) is taken off, and "
    "what remains is `to_pay`. A lift must be `waiting` or `raised` to be priced."
)
ROW = {"type": "object", "properties": {"item": S, "cost": N}}
SPEC = ToolSpec(
    "price_lift",
    TEXT,
    {"type": "object", "properties": {"lift_id": S}, "required": ["lift_id"]},
    returns={
        "type": "object",
        "properties": {
            "lift_id": S,
            "rows": {"type": "array", "items": ROW},
            "total": N,
            "credit_spent": N,
            "to_pay": N,
        },
    },
)


def test_the_price_is_planned_from_the_lift_its_links_and_the_tariff() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get", collection="lifts"), SCHEMA, STATE, POLICY)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    rows = steps["rows"]["record_lines"]
    assert (rows["holder"], rows["list"], rows["text"], rows["number"]) == ("lift_id", "chores", "item", "cost")
    assert rows["lead"] == {"text": "crane", "number": {"field": "crane_fee", "param": "yard_id"}}
    assert rows["prices"]["zincs"] == 35.5 and steps["total"] == {"sum": "rows", "of": "cost"}
    credit = {"op": "max", "args": [{"field": "store_credit", "param": "skipper_id"}, {"num": 0}]}
    assert steps["credit_spent"] == {"op": "min", "args": [credit, {"val": "total"}]}
    assert steps["to_pay"] == {"op": "-", "args": [{"val": "total"}, {"val": "credit_spent"}]}
    assert plan.quote["states"] == {"lift_id": {"phase": ["waiting", "raised"]}}


def test_the_price_runs() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get", collection="lifts"), SCHEMA, STATE, POLICY)
    one = {
        "lift_id": "L1",
        "rows": [
            {"item": "crane", "cost": 80.0},
            {"item": "antifoul", "cost": 140.0},
            {"item": "zincs", "cost": 35.5},
        ],
        "total": 255.5,
        "credit_spent": 200.0,
        "to_pay": 55.5,
    }
    two = {  # credit below zero spends nothing
        "lift_id": "L2",
        "rows": [{"item": "crane", "cost": 80.0}, {"item": "polish", "cost": 60.0}],
        "total": 140.0,
        "credit_spent": 0,
        "to_pay": 140.0,
    }
    cases = []
    for arguments, expected in (({"lift_id": "L1"}, one), ({"lift_id": "L2"}, two), ({"lift_id": "L3"}, None)):
        case = Case(SPEC.name, "x", STATE, arguments, expect_error=expected is None)
        case.expect_result, case.has_expected_result = expected, expected is not None
        cases.append(case)
    res, err = run_cases(render_tool(SPEC, plan, SCHEMA), SPEC.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 3, (err, [f.message for f in res.failures])


def test_an_error_naming_the_refused_state() -> None:
    said = TEXT.replace(
        "A lift must be `waiting` or `raised` to be priced.",
        "Errors: 'Error: lift <id> not found'; 'Error: lift <id> is relaunched'.",
    )
    spec = ToolSpec(SPEC.name, said, SPEC.parameters, returns=SPEC.returns)
    plan = quote_plan(spec, ToolPlan(kind="get", collection="lifts"), SCHEMA, STATE, POLICY)
    assert plan.quote["states"] == {"lift_id": {"phase": ["waiting", "raised"]}}
    unsaid = said.replace("is relaunched'", "is <phase>'")  # a placeholder names no state
    spec = ToolSpec(SPEC.name, unsaid, SPEC.parameters, returns=SPEC.returns)
    assert "states" not in quote_plan(spec, ToolPlan(kind="get", collection="lifts"), SCHEMA, STATE, POLICY).quote


def test_what_stays_unplanned() -> None:
    assert _prose("Tariff: antifoul 140.00, polish 60.00") == {}  # two pairs are no list
    assert _prose("Tariff: antifoul 140.00, polish later, zincs 35.50") == {}  # a pair without a number
    missing = POLICY.replace("polish 60.00, ", "")  # a chore the sample holds has no price
    assert quote_plan(SPEC, ToolPlan(kind="get", collection="lifts"), SCHEMA, STATE, missing).kind == "get"
    no_rest = TEXT.replace(", and what remains is `to_pay`", "")
    spec = ToolSpec(SPEC.name, no_rest, SPEC.parameters, returns=SPEC.returns)
    assert quote_plan(spec, ToolPlan(kind="get", collection="lifts"), SCHEMA, STATE, POLICY).kind == "get"
