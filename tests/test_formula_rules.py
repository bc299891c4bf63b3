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
from tests.schemas import collection as _collection

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
        "vouchers": _collection({"voucher": {"type": "string"}, "rebate_percent": {"type": "integer"}}),
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
    "vouchers": {"SPRING": {"voucher": "SPRING", "rebate_percent": 15}},
}
NIGHTLY = ToolSpec(
    "estimate_mooring",
    "Estimates what a stay costs and reserves nothing; the figure: nightly_rate times nights, minus the owner's "
    "club rebate (none 0%, silver 5%, gold 12%), rounded to 1 decimal. Returns {owner_id, berth_id, nights, "
    "nightly_rate, rebate_pct, charge}. Unknown owners and berths are refused.",
    {
        "type": "object",
        "properties": {"owner_id": {"type": "string"}, "berth_id": {"type": "string"}, "nights": {"type": "integer"}},
        "required": ["owner_id", "berth_id", "nights"],
    },
)
SEASON = ToolSpec(
    "price_season_stay",
    "Prices a stay in one season and changes nothing. base (season price times nights); rebate (voucher percent "
    "of the base, rounded to cents); levy (3.00 per night); due = base - rebate + levy.",
    {
        "type": "object",
        "properties": {
            "berth_id": {"type": "string"},
            "season": {"type": "string"},
            "nights": {"type": "integer", "default": 1, "description": "How many nights."},
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
            "season_price": {"type": "number"},
            "base": {"type": "number"},
            "rebate": {"type": "number"},
            "levy": {"type": "number"},
            "due": {"type": "number"},
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
    assert steps["rebate_pct"]["values"] == {"none": 0, "silver": 5, "gold": 12}
    gold = {"owner_id": "O1", "berth_id": "B1", "nights": 3, "nightly_rate": 30.0, "rebate_pct": 12}
    assert _runs(
        NIGHTLY,
        plan,
        [
            ({"owner_id": "O1", "berth_id": "B1", "nights": 3}, {**gold, "charge": 79.2}),
            (
                {"owner_id": "O2", "berth_id": "B1", "nights": 1},
                {**gold, "owner_id": "O2", "nights": 1, "rebate_pct": 0, "charge": 30.0},
            ),
            ({"owner_id": "O9", "berth_id": "B1", "nights": 1}, None),
        ],
    )


def test_named_figures_a_picked_entry_an_optional_record_and_the_fields_own_formula() -> None:
    plan = quote_plan(SEASON, ToolPlan(kind="get", collection="berths", key_param="berth_id"), SCHEMA, STATE)
    assert plan.kind == "quote" and plan.quote["select"] == {"season": ["berth_id", "rates", "season"]}
    assert tool_priors(SEASON).mutates is False  # "changes nothing"
    common = {"berth_id": "B1", "season": "high", "nights": 2, "season_price": 55.0, "base": 110.0}
    assert _runs(
        SEASON,
        plan,
        [
            (
                {"berth_id": "B1", "season": "high", "nights": 2},
                {**common, "rebate": 0.0, "levy": 6.0, "due": 116.0, "free_length": 7},
            ),
            (
                {"berth_id": "B1", "season": "high", "nights": 2, "voucher": "SPRING"},
                {**common, "rebate": 16.5, "levy": 6.0, "due": 99.5, "free_length": 7},
            ),
            ({"berth_id": "B1", "season": "winter"}, None),  # no such entry
            ({"berth_id": "B1", "season": "high", "voucher": "NOPE"}, None),
        ],
    )


def test_answers_with_a_figure_nothing_defines_keep_their_plan() -> None:
    vague = ToolSpec(
        "price_stay",
        "Price a stay. Returns {berth_id, nights, charge}.",
        {"type": "object", "properties": {"berth_id": {"type": "string"}, "nights": {"type": "integer"}}},
    )
    plan = ToolPlan(kind="get", collection="berths", key_param="berth_id")
    assert quote_plan(vague, plan, SCHEMA, STATE) is plan
    write = ToolPlan(kind="update", collection="berths", key_param="berth_id")
    assert quote_plan(NIGHTLY, write, SCHEMA, STATE) is write


def test_only_a_tool_that_computes_is_read_as_changing_nothing() -> None:
    params = {"type": "object", "properties": {"berth_id": {"type": "string"}}}
    assert tool_priors(ToolSpec("price_berth", "Prices a berth without booking it.", params)).mutates is False
    free = ToolSpec("release_berth", "Releases a berth without charging anything.", params)
    assert tool_priors(free).mutates is True  # not a read: `release` always writes
    assert tool_priors(ToolSpec("free_berth", free.description, params)).mutates is None  # the LLM says


def test_side_remarks_other_counts_and_list_answers_are_not_read_as_figures() -> None:
    from synth.envsynth.formula_rules import _definition

    assert _definition("charge", NIGHTLY, "What is owed (after the rebate).") == []
    guests = ToolSpec(
        "price_party",
        "Prices a party and changes nothing. levy (3.00 per night). Returns {berth_id, guests, levy}.",
        {"type": "object", "properties": {"berth_id": {"type": "string"}, "guests": {"type": "integer"}}},
    )
    plan = ToolPlan(kind="get", collection="berths", key_param="berth_id")
    assert quote_plan(guests, plan, SCHEMA, STATE) is plan  # nights are no parameter: guests do not count them
    listed = ToolSpec(
        "price_many",
        "Prices stays and changes nothing. Returns a list of {berth_id, nightly_rate, charge}; charge (nightly_rate "
        "times 2).",
        {"type": "object", "properties": {"berth_id": {"type": "string"}}},
    )
    assert quote_plan(listed, plan, SCHEMA, STATE) is plan
    down = ToolSpec(
        "price_night",
        "Prices one night and changes nothing. charge (nightly_rate times 1.019, rounded down to 1 decimal). "
        "Returns {berth_id, nightly_rate, charge}.",
        {"type": "object", "properties": {"berth_id": {"type": "string"}}},
    )
    rounded = quote_plan(down, plan, SCHEMA, STATE)
    assert rounded.kind == "quote" and dict(rounded.quote["steps"])["charge"]["way"] == "down"
    assert _runs(down, rounded, [({"berth_id": "B1"}, {"berth_id": "B1", "nightly_rate": 30.0, "charge": 30.5})])
