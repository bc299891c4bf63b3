"""Quotes over two dates (date_spans.py, switched_figures.py), on a canal-boat hire: the days between the dates, a
surcharge by the month or weekday of each day, a discount a yes/no parameter switches on (never for the boat
kinds the docs leave out), a fee read through the record the boat links, and defaults given only in words."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.date_spans import calendar_node, date_pair, span_node
from synth.envsynth.figure_terms import param_default
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

SCHEMA = {
    "type": "object",
    "properties": {
        "boats": collection(
            {
                "boat_id": {"type": "string"},
                "class": {"type": "string", "x-references": "boat_classes"},
                "day_rate": {"type": "number"},
            }
        ),
        "boat_classes": collection({"class": {"type": "string"}, "mooring_fee": {"type": "number"}}),
    },
}
STATE = {
    "boats": {
        "NB-1": {"boat_id": "NB-1", "class": "narrowboat", "day_rate": 100.0},
        "WB-2": {"boat_id": "WB-2", "class": "widebeam", "day_rate": 150.0},
    },
    "boat_classes": {
        "narrowboat": {"class": "narrowboat", "mooring_fee": 4.0},
        "widebeam": {"class": "widebeam", "mooring_fee": 7.0},
    },
}
PARAMS = {
    "type": "object",
    "properties": {
        "boat_id": {"type": "string"},
        "start_date": {"type": "string", "description": "First day aboard, YYYY-MM-DD."},
        "end_date": {"type": "string", "description": "Hand-back day, YYYY-MM-DD; not charged."},
        "moorings": {"type": "integer", "description": "Paid overnight moorings. Default 0."},
        "crew_card": {"type": "boolean", "description": "Holder of a Crew Card. Default false."},
    },
    "required": ["boat_id", "start_date", "end_date"],
}
QUOTE = ToolSpec(
    "quote_hire",
    "Price a hire without booking it.\n\n"
    "- base = days x the boat's day_rate.\n"
    "- high_season: each day is surcharged by its month: 25% of the day rate for days in July and August; 10% "
    "for days in June; nothing otherwise.\n"
    "- crew_discount: with a Crew Card, 20% off the base. Widebeams are excluded from the Crew Card discount.\n"
    "- mooring_fees = moorings x the boat class's mooring_fee.\n"
    "- total = base + high_season - crew_discount + mooring_fees, rounded to cents.\n\n"
    "Returns {boat_id, start_date, end_date, days, base, high_season, crew_discount, mooring_fees, total}.",
    PARAMS,
)


def _ask(arguments: dict, expected: dict) -> Case:
    case = Case(QUOTE.name, "x", STATE, arguments, expect_error=False)
    case.expect_result, case.has_expected_result = expected, True
    return case


def test_the_days_between_two_dates_and_a_calendar_surcharge() -> None:
    params = PARAMS["properties"]
    assert date_pair(params) == ("start_date", "end_date")
    swapped = {"departure": {"type": "string", "format": "date"}, "arrival": {"type": "string", "format": "date"}}
    assert date_pair(swapped) == ("arrival", "departure")  # by the words, not the order
    days = span_node("days", params, QUOTE.description)
    assert fg_formula(days, {"start_date": "2031-02-27", "end_date": "2031-03-02"}, {}, {}) == 3
    assert span_node("rental_days", params, "") == days
    weekend = span_node("weekend_days", params, "")  # how many of the days are Saturdays or Sundays
    assert fg_formula(weekend, {"start_date": "2031-03-07", "end_date": "2031-03-17"}, {}, {}) == 4
    assert span_node("boat_days", params, "") is None  # a kind of day it does not know
    assert span_node("days", {"start_date": params["start_date"]}, "") is None  # one date bounds no span
    rate = {"num": 100.0}
    node = calendar_node("high_season", QUOTE.description, params, lambda phrase: rate)
    assert node["calendar"]["months"] == {"7": 25, "8": 25, "6": 10}
    june_into_july = {"start_date": "2031-06-29", "end_date": "2031-07-02"}  # two June days, one July day
    assert fg_formula(node, june_into_july, {}, {}) == 45.0
    weekend = "- weekend_extra: every day that falls on a Saturday or Sunday costs 15% more, i.e. 15% of the rate."
    node = calendar_node("weekend_extra", weekend, params, lambda phrase: rate)
    assert node["calendar"]["weekdays"] == {"5": 15, "6": 15}
    assert fg_formula(node, {"start_date": "2031-03-07", "end_date": "2031-03-11"}, {}, {}) == 30.0  # Fri-Mon
    assert calendar_node("base", QUOTE.description, params, lambda phrase: rate) is None  # no days named
    assert fg_formula(node, {"start_date": "1900-01-01", "end_date": "9999-01-01"}, {}, {}) is None  # no stay


def test_defaults_given_in_words() -> None:
    assert param_default({"type": "integer", "description": "Paid moorings. Default 0."}) == 0
    assert param_default({"type": "boolean", "description": "Defaults to false."}) is False
    assert param_default({"type": "number", "description": "Tip, defaults to 2.5 euros."}) == 2.5
    assert param_default({"type": "integer", "description": "At least 1."}) is None


def test_the_quote_is_planned_and_computes() -> None:
    plan = quote_plan(QUOTE, ToolPlan(kind="get"), SCHEMA, STATE)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["crew_discount"]["if_field"] == {"param": "boat_id", "field": "class", "in": ["widebeam"]}
    summer = {"boat_id": "NB-1", "start_date": "2031-07-30", "end_date": "2031-08-02", "moorings": 2}
    carded = {**summer, "crew_card": True}
    wide = {**carded, "boat_id": "WB-2"}
    cases = [
        _ask(summer, {**summer, "days": 3, "base": 300.0, "high_season": 75.0, "crew_discount": 0, "total": 383.0}),
        _ask(carded, {**carded, "days": 3, "base": 300.0, "high_season": 75.0, "crew_discount": 60.0, "total": 323.0}),
        _ask(wide, {**wide, "days": 3, "base": 450.0, "high_season": 112.5, "crew_discount": 0, "total": 576.5}),
    ]
    for case, fee in zip(cases, (8.0, 8.0, 14.0)):
        case.expect_result = {
            k: v for k, v in {**case.expect_result, "mooring_fees": fee}.items() if k not in ("moorings", "crew_card")
        }
    res, err = run_cases(render_tool(QUOTE, plan, SCHEMA), QUOTE.name, cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 3


def test_a_listed_rate_table_keyed_by_an_argument_and_emphasised_names() -> None:
    spec = ToolSpec(
        "price_hire",
        "Price a hire by boat kind; nothing is booked.\n\n1. **Days** = end_date - start_date.\n2. **Base** = hire "
        "rate x days. Hire rates: narrowboat 100.00, widebeam\n   150.00 and cruiser 90.00.\n3. **Weekend extra**: "
        "every day that falls on a Saturday or Sunday costs 10% more, i.e. 10% of the hire rate.\n\n"
        "Returns {boat_id, kind, days, weekend_days, hire_rate, base, weekend_extra}.",
        {
            "type": "object",
            "properties": {
                "boat_id": {"type": "string"},
                "kind": {"type": "string", "enum": ["narrowboat", "widebeam", "cruiser"]},
                "start_date": {"type": "string", "format": "date"},
                "end_date": {"type": "string", "format": "date"},
                "tier": {"type": "string", "enum": ["plain", "gold"]},
            },
        },
    )
    plan = quote_plan(spec, ToolPlan(kind="get"), SCHEMA, STATE)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["hire_rate"] == {
        "table_arg": "kind",
        "values": {"narrowboat": 100.0, "widebeam": 150.0, "cruiser": 90.0},
    }
    arguments = {"boat_id": "WB-2", "kind": "widebeam", "start_date": "2031-03-07", "end_date": "2031-03-10"}
    case = Case(spec.name, "x", STATE, arguments, expect_error=False)
    case.expect_result = {**arguments, "days": 3, "weekend_days": 2, "hire_rate": 150.0, "base": 450.0}
    case.expect_result = {k: v for k, v in case.expect_result.items() if k not in ("start_date", "end_date")}
    case.expect_result["weekend_extra"] = 30.0  # Friday, Saturday, Sunday: two weekend days at 10% of 150
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1
