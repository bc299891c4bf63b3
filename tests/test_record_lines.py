"""A quote built from a list the quoted record holds (a bike workshop's job estimate): a leading line at a linked
record's rate, one line per listed task at its list price (prose or table), the subtotal over the lines, a capped
share of a linked record's positive balance, "the rest" as the amount due, and the states the quote is given in."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.record_lines import _prose
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S, N = {"type": "string"}, {"type": "number"}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {
    "type": "object",
    "properties": {
        "jobs": _collection(
            {
                "job_id": S,
                "rider_id": {"type": "string", "x-references": "riders"},
                "mechanic_id": {"type": "string", "x-references": "mechanics"},
                "state": {"type": "string", "x-enum": ["open", "quoted", "done"]},
                "tasks": {"type": "array", "items": S},
            }
        ),
        "riders": _collection({"rider_id": S, "voucher_balance": N}),
        "mechanics": _collection({"mechanic_id": S, "bench_rate": N}),
    },
}
STATE = {
    "jobs": {
        "J1": {
            "job_id": "J1",
            "rider_id": "R1",
            "mechanic_id": "M1",
            "state": "open",
            "tasks": ["true_wheel", "bleed"],
        },
        "J2": {"job_id": "J2", "rider_id": "R2", "mechanic_id": "M1", "state": "quoted", "tasks": ["chain"]},
        "J3": {"job_id": "J3", "rider_id": "R1", "mechanic_id": "M1", "state": "done", "tasks": []},
    },
    "riders": {"R1": {"rider_id": "R1", "voucher_balance": 50.0}, "R2": {"rider_id": "R2", "voucher_balance": -5.0}},
    "mechanics": {"M1": {"mechanic_id": "M1", "bench_rate": 20.0}},
}
POLICY = "## Prices\n- Task prices (EUR): true_wheel 15.00, bleed 22.50, chain 9.00, tubeless 30.00.\n"
TEXT = (
    "Estimates a job without changing it: the bench line at the mechanic's `bench_rate`, one line per task at its "
    "price, the `subtotal`, the voucher that would be used (the rider's positive `voucher_balance`, up to the "
    "subtotal) and the `amount_due`; the rest is the amount due. Only for jobs that are `open` or `quoted`."
)
LINE = {"type": "object", "properties": {"code": S, "amount": N}}
SPEC = ToolSpec(
    "estimate_job",
    TEXT,
    {"type": "object", "properties": {"job_id": S}, "required": ["job_id"]},
    returns={
        "type": "object",
        "properties": {
            "job_id": S,
            "lines": {"type": "array", "items": LINE},
            "subtotal": N,
            "voucher_used": N,
            "amount_due": N,
        },
    },
)


def test_the_estimate_is_planned_from_the_job_its_links_and_the_price_list() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get", collection="jobs"), SCHEMA, STATE, POLICY)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    lines = steps["lines"]["record_lines"]
    assert (lines["holder"], lines["list"], lines["text"], lines["number"]) == ("job_id", "tasks", "code", "amount")
    assert lines["lead"] == {"text": "bench", "number": {"field": "bench_rate", "param": "mechanic_id"}}
    assert lines["prices"]["bleed"] == 22.5 and steps["subtotal"] == {"sum": "lines", "of": "amount"}
    assert steps["voucher_used"]["op"] == "min" and steps["amount_due"]["op"] == "-"
    assert plan.quote["states"] == {"job_id": {"state": ["open", "quoted"]}}


def test_the_estimate_runs() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get", collection="jobs"), SCHEMA, STATE, POLICY)
    one = {
        "job_id": "J1",
        "lines": [
            {"code": "bench", "amount": 20.0},
            {"code": "true_wheel", "amount": 15.0},
            {"code": "bleed", "amount": 22.5},
        ],
        "subtotal": 57.5,
        "voucher_used": 50.0,
        "amount_due": 7.5,
    }
    two = {  # a negative balance uses nothing
        "job_id": "J2",
        "lines": [{"code": "bench", "amount": 20.0}, {"code": "chain", "amount": 9.0}],
        "subtotal": 29.0,
        "voucher_used": 0,
        "amount_due": 29.0,
    }
    cases = []
    for arguments, expected in (({"job_id": "J1"}, one), ({"job_id": "J2"}, two), ({"job_id": "J3"}, None)):
        case = Case(SPEC.name, "x", STATE, arguments, expect_error=expected is None)
        case.expect_result, case.has_expected_result = expected, expected is not None
        cases.append(case)
    res, err = run_cases(render_tool(SPEC, plan, SCHEMA), SPEC.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 3, (err, [f.message for f in res.failures])


def test_what_stays_unplanned() -> None:
    assert _prose("Prices: true_wheel 15.00, bleed 22.50") == {}  # two pairs are no list
    assert _prose("Prices: true_wheel 15.00, bleed soon, chain 9.00") == {}  # a pair without a number
    missing = POLICY.replace("chain 9.00, ", "")  # a task the sample holds has no price
    assert quote_plan(SPEC, ToolPlan(kind="get", collection="jobs"), SCHEMA, STATE, missing).kind == "get"
    no_rest = TEXT.replace("; the rest is the amount due", "")
    spec = ToolSpec(SPEC.name, no_rest, SPEC.parameters, returns=SPEC.returns)
    assert quote_plan(spec, ToolPlan(kind="get", collection="jobs"), SCHEMA, STATE, POLICY).kind == "get"
