"""A computed answer learned from recorded calls (a bike hire's quote): the bike's rate, the rate times the hours,
a fee by the bike's kind shared by two bikes, and the total; the learned plan prices a bike no call showed, fills
in only what the docs' own partial quote lacks (ordered so the total comes after the fee it adds), and nothing is
learned from too few calls or from answers that only a table of the recorded bikes would give."""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_quotes import learned_quote
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "bikes": collection({"bike_id": S, "kind": S, "rate": {"type": "number"}, "frame": S}),
    },
}
BIKES = {
    "B1": {"bike_id": "B1", "kind": "city", "rate": 4.5, "frame": "steel"},
    "B2": {"bike_id": "B2", "kind": "city", "rate": 6.0, "frame": "alloy"},
    "B3": {"bike_id": "B3", "kind": "cargo", "rate": 9.25, "frame": "steel"},
    "B4": {"bike_id": "B4", "kind": "cargo", "rate": 7.0, "frame": "alloy"},
}
FEES = {"city": 0.0, "cargo": 3.0}
SPEC = ToolSpec(
    "quote_hire",
    "Price a hire without booking it.",
    {"type": "object", "properties": {"bike_id": S, "hours": {"type": "integer"}}, "required": ["bike_id", "hours"]},
)


def _answer(bike: str, hours: int) -> dict[str, Any]:
    rec = BIKES[bike]
    base = round(rec["rate"] * hours, 2)
    return {
        "bike_id": bike,
        "hours": hours,
        "rate": rec["rate"],
        "base": base,
        "fee": FEES[rec["kind"]],
        "total": round(base + FEES[rec["kind"]], 2),
    }


def _call(bike: str, hours: int, state: dict | None = None) -> Case:
    case = Case(SPEC.name, "trace", state or {"bikes": BIKES}, {"bike_id": bike, "hours": hours}, expect_error=False)
    case.expect_result, case.has_expected_result = _answer(bike, hours), True
    return case


def _reproduced(plan: ToolPlan, cases: list[Case]) -> int:
    schema = SchemaResult(SCHEMA, {}, {}, "docs")
    res, err = run_cases(render_tool(SPEC, plan, SCHEMA), SPEC.name, cases, schema)
    assert err == "" or res.passed < len(cases)
    return res.passed


def test_every_figure_is_learned_and_prices_an_unseen_bike() -> None:
    recorded = [_call("B1", 3), _call("B3", 2), _call("B2", 5)]
    plan = learned_quote(SPEC, ToolPlan(kind="get"), recorded)
    assert plan is not None and plan.kind == "quote"
    steps = dict((name, node) for name, node in plan.quote["steps"])
    assert steps["rate"] == {"field": "rate", "param": "bike_id"}
    assert steps["fee"] == {"table": "kind", "param": "bike_id", "values": {"city": 0.0, "cargo": 3.0}}
    assert _reproduced(plan, recorded) == 3
    assert _reproduced(plan, [_call("B4", 7)]) == 1  # a cargo bike no call priced


def test_the_docs_figures_stay_and_only_the_rest_is_learned_in_order() -> None:
    recorded = [_call("B1", 3), _call("B3", 2), _call("B2", 5)]
    partial = ToolPlan(
        kind="quote",
        quote={
            "named": {"bike_id": "bikes"},
            "select": {},
            "steps": [
                ["total", {"op": "+", "args": [{"val": "base"}, {"val": "fee"}]}],
                [
                    "base",
                    {
                        "round": {"op": "*", "args": [{"field": "rate", "param": "bike_id"}, {"arg": "hours"}]},
                        "digits": 2,
                    },
                ],
            ],
            "fields": ["total", "base"],
        },
    )
    plan = learned_quote(SPEC, ToolPlan(kind="get"), recorded, partial)
    assert plan is not None
    order = [name for name, _ in plan.quote["steps"]]
    assert order.index("fee") < order.index("total") and order.index("base") < order.index("total")
    assert dict(plan.quote["steps"])["total"] == partial.quote["steps"][0][1]  # the docs' own formula
    assert _reproduced(plan, recorded) == 3


def test_no_quote_from_two_calls_or_from_answers_only_the_recorded_bikes_give() -> None:
    assert learned_quote(SPEC, ToolPlan(kind="get"), [_call("B1", 3), _call("B3", 2)]) is None
    odd = [_call("B1", 3), _call("B3", 2), _call("B2", 5), _call("B1", 1)]
    for case, fee in zip(odd, [1.0, 2.0, 5.0, 1.0]):  # a fee no shared value explains: only each bike's own
        case.expect_result["fee"] = fee
        case.expect_result["total"] = round(case.expect_result["base"] + fee, 2)
    assert learned_quote(SPEC, ToolPlan(kind="get"), odd) is None
