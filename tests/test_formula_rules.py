"""Computed answers read from the docs: echoes, fields of named records and picked list entries, bracketed tables,
and prose formulas ("x", "less the ... discount", "percent of", "per night", "rounded to cents"); planned and
rendered, with the errors for records that do not exist."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


RATE = {"type": "object", "properties": {"season": {"type": "string"}, "price": {"type": "number"}}}
SCHEMA = {
    "type": "object",
    "properties": {
        "owners": _collection({"owner_id": {"type": "string"}, "club": {"type": "string"}}),
        "berths": _collection(
            {
                "berth_id": {"type": "string"},
                "nightly_rate": {"type": "number"},
                "rates": {"type": "array", "items": RATE},
                "length": {"type": "integer"},
                "taken": {"type": "integer"},
            }
        ),
        "vouchers": _collection({"voucher": {"type": "string"}, "percent_off": {"type": "integer"}}),
    },
}
STATE = {
    "owners": {"O1": {"owner_id": "O1", "club": "gold"}, "O2": {"owner_id": "O2", "club": "none"}},
    "berths": {
        "B1": {
            "berth_id": "B1",
            "nightly_rate": 30.0,
            "rates": [{"season": "high", "price": 55.0}, {"season": "low", "price": 21.5}],
            "length": 12,
            "taken": 5,
        }
    },
    "vouchers": {"SPRING": {"voucher": "SPRING", "percent_off": 15}},
}
NIGHTLY = ToolSpec(
    "price_stay",
    "Price a stay without booking it: nightly_rate x nights, less the owner's club discount (none 0%, silver 5%, "
    "gold 12%), rounded to 2 decimals. Returns {owner_id, berth_id, nights, nightly_rate, discount_percent, total}. "
    "Errors if the owner or berth does not exist.",
    {
        "type": "object",
        "properties": {"owner_id": {"type": "string"}, "berth_id": {"type": "string"}, "nights": {"type": "integer"}},
        "required": ["owner_id", "berth_id", "nights"],
    },
)
SEASON = ToolSpec(
    "quote_season",
    "Computes subtotal (unit price x nights), discount (voucher percent of the subtotal, rounded to cents), "
    "fees (4.50 per night) and total = subtotal - discount + fees. A quote reserves nothing.",
    {
        "type": "object",
        "properties": {
            "berth_id": {"type": "string"},
            "season": {"type": "string"},
            "nights": {"type": "integer", "default": 1},
            "voucher": {"type": "string"},
        },
        "required": ["berth_id", "season"],
    },
    returns={
        "type": "object",
        "properties": {
            "berth_id": {"type": "string"},
            "season": {"type": "string"},
            "nights": {"type": "integer"},
            "unit_price": {"type": "number"},
            "subtotal": {"type": "number"},
            "discount": {"type": "number"},
            "fees": {"type": "number"},
            "total": {"type": "number"},
            "free_length": {"type": "integer", "description": "Metres still free (length - taken)."},
        },
    },
)


def _runs(spec: ToolSpec, plan: ToolPlan, cases: list[tuple[dict, object]]) -> bool:
    tests = []
    for arguments, expected in cases:
        case = Case(spec.name, "x", STATE, arguments, expect_error=expected is None)
        if expected is not None:
            case.expect_result, case.has_expected_result = expected, True
        tests.append(case)
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, tests, SchemaResult(SCHEMA, {}, {}, "docs"))
    return err == "" and res.passed == len(cases)


def test_a_table_by_a_named_records_field_and_a_formula_no_field_name_opens() -> None:
    plan = quote_plan(NIGHTLY, ToolPlan(kind="get", collection="berths", key_param="berth_id"), SCHEMA, STATE)
    assert plan.kind == "quote" and tool_priors(NIGHTLY).mutates is False
    steps = dict(plan.quote["steps"])
    assert steps["nightly_rate"] == {"field": "nightly_rate", "param": "berth_id"}
    assert steps["discount_percent"]["values"] == {"none": 0, "silver": 5, "gold": 12}
    gold = {"owner_id": "O1", "berth_id": "B1", "nights": 3, "nightly_rate": 30.0, "discount_percent": 12}
    assert _runs(
        NIGHTLY,
        plan,
        [
            ({"owner_id": "O1", "berth_id": "B1", "nights": 3}, {**gold, "total": 79.2}),
            (
                {"owner_id": "O2", "berth_id": "B1", "nights": 1},
                {**gold, "owner_id": "O2", "nights": 1, "discount_percent": 0, "total": 30.0},
            ),
            ({"owner_id": "O9", "berth_id": "B1", "nights": 1}, None),
        ],
    )


def test_named_figures_a_picked_entry_an_optional_record_and_the_fields_own_formula() -> None:
    plan = quote_plan(SEASON, ToolPlan(kind="get", collection="berths", key_param="berth_id"), SCHEMA, STATE)
    assert plan.kind == "quote" and plan.quote["select"] == {"season": ["berth_id", "rates", "season"]}
    assert tool_priors(SEASON).mutates is False  # "reserves nothing"
    base = {"berth_id": "B1", "season": "high", "nights": 2, "unit_price": 55.0, "subtotal": 110.0}
    assert _runs(
        SEASON,
        plan,
        [
            (
                {"berth_id": "B1", "season": "high", "nights": 2},
                {**base, "discount": 0.0, "fees": 9.0, "total": 119.0, "free_length": 7},
            ),
            (
                {"berth_id": "B1", "season": "high", "nights": 2, "voucher": "SPRING"},
                {**base, "discount": 16.5, "fees": 9.0, "total": 102.5, "free_length": 7},
            ),
            ({"berth_id": "B1", "season": "winter"}, None),  # no such entry
            ({"berth_id": "B1", "season": "high", "voucher": "NOPE"}, None),
        ],
    )


def test_answers_with_a_figure_nothing_defines_keep_their_plan() -> None:
    vague = ToolSpec(
        "price_stay",
        "Price a stay. Returns {berth_id, nights, total}.",
        {"type": "object", "properties": {"berth_id": {"type": "string"}, "nights": {"type": "integer"}}},
    )
    plan = ToolPlan(kind="get", collection="berths", key_param="berth_id")
    assert quote_plan(vague, plan, SCHEMA, STATE) is plan
    write = ToolPlan(kind="update", collection="berths", key_param="berth_id")
    assert quote_plan(NIGHTLY, write, SCHEMA, STATE) is write


def test_only_a_tool_that_computes_is_read_as_changing_nothing() -> None:
    params = {"type": "object", "properties": {"berth_id": {"type": "string"}}}
    assert tool_priors(ToolSpec("price_berth", "Prices a berth without booking it.", params)).mutates is False
    assert tool_priors(ToolSpec("release_berth", "Releases a berth without charging anything.", params)).mutates is None
