"""A create priced as a sibling read computes ("bills the club for the quoted fee"), its list parameter led by the
record another parameter names ("Crew: the skipper first"), and refused when the payer's balance is short; planned
and rendered."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import leading, refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.quote_reuse import priced_fields, sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

CLUB = {"club_id": {"type": "string"}, "standing": {"type": "string"}, "purse": {"type": "number"}}
SCHEMA = {
    "type": "object",
    "properties": {
        "clubs": _collection(CLUB),
        "piers": _collection({"pier_id": {"type": "string"}, "night_rate": {"type": "number"}}),
        "sailors": _collection({"skipper_id": {"type": "string"}}),
        "stays": _collection(
            {
                "stay_id": {"type": "string"},
                "club_id": {"type": "string"},
                "pier_id": {"type": "string"},
                "nights": {"type": "integer"},
                "crew": {"type": "array", "items": {"type": "string"}},
                "fee": {"type": "number"},
            }
        ),
    },
}
STATE = {
    "clubs": {
        "C1": {"club_id": "C1", "standing": "patron", "purse": 100.0},
        "C2": {"club_id": "C2", "standing": "plain", "purse": 10.0},
    },
    "piers": {"P1": {"pier_id": "P1", "night_rate": 20.0}},
    "sailors": {"S1": {"skipper_id": "S1"}, "S2": {"skipper_id": "S2"}},
    "stays": {},
}
COMMON = {"club_id": {"type": "string"}, "pier_id": {"type": "string"}, "nights": {"type": "integer"}}
PRICE = ToolSpec(
    "price_stay",
    "Prices a stay without mooring it: night_rate x nights, less the club's standing rebate (plain 0%, patron 25%), "
    "rounded to 2 decimals. Returns {club_id, pier_id, nights, night_rate, rebate_percent, amount}.",
    {"type": "object", "properties": COMMON, "required": ["club_id", "pier_id", "nights"]},
)
MOOR = ToolSpec(
    "moor_stay",
    "Moors a club's boat at a pier and bills the club for the quoted fee: the club's purse drops by the fee, and "
    "the call is refused when the purse holds less than the fee. Crew: the skipper first, then the rest; repeated "
    "ids are dropped.",
    {
        "type": "object",
        "properties": {
            **COMMON,
            "skipper_id": {"type": "string"},
            "crew": {"type": "array", "items": {"type": "string"}, "description": "Sailor ids aboard."},
        },
        "required": ["club_id", "pier_id", "nights", "skipper_id"],
    },
)


def _plan() -> ToolPlan:
    create = ToolPlan(
        kind="create",
        collection="stays",
        key_field="stay_id",
        fields=["club_id", "pier_id", "nights", "crew"],
        id_type="pattern",
        key_format={"prefix": "ST-", "digits": 2},
    )
    refined = refine_create(MOOR, create, SCHEMA, MOOR.description, None, STATE)
    quotes = sibling_quotes([PRICE, MOOR], SCHEMA, STATE)
    return priced_fields(MOOR, refined, SCHEMA, [PRICE, MOOR], quotes, MOOR.description)


def test_the_quoted_fee_is_the_siblings_total_and_the_purse_must_hold_it() -> None:
    assert list(sibling_quotes([PRICE, MOOR], SCHEMA, STATE)) == ["price_stay"]  # a write is no sibling
    plan = _plan()
    assert plan.quote["assign"] == {"fee": "amount"}
    assert [c["op"] for c in plan.checks] == ["enough"]
    args = {"club_id": "C1", "pier_id": "P1", "nights": 3, "skipper_id": "S1", "crew": ["S2", "S1", "S2"]}
    stay = {"stay_id": "ST-01", "club_id": "C1", "pier_id": "P1", "nights": 3, "crew": ["S1", "S2"], "fee": 45.0}
    ok = Case("moor_stay", "x", STATE, args, expect_error=False)
    ok.expect_result, ok.has_expected_result = stay, True
    ok.state_checks = [{"op": "field_equals", "collection": "clubs", "key": "C1", "field": "purse", "value": 55.0}]
    short = Case("moor_stay", "x", STATE, {**args, "club_id": "C2"}, expect_error=True)  # 60.00 > 10.00
    res, err = run_cases(render_tool(MOOR, plan, SCHEMA), "moor_stay", [ok, short], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 2


def test_no_sibling_prices_a_field_the_docs_do_not_tie_to_it() -> None:
    plain = ToolSpec("moor_stay", "Moors a club's boat at a pier.", MOOR.parameters)
    create = ToolPlan(kind="create", collection="stays", key_field="stay_id")
    quotes = sibling_quotes([PRICE, plain], SCHEMA, STATE)
    assert priced_fields(plain, create, SCHEMA, [PRICE, plain], quotes, plain.description).quote == {}
    fewer = ToolSpec("moor_stay", MOOR.description, {"type": "object", "properties": {"club_id": COMMON["club_id"]}})
    assert priced_fields(fewer, create, SCHEMA, [PRICE, fewer], quotes, fewer.description).quote == {}


def test_a_list_led_by_the_record_another_parameter_names() -> None:
    own = SCHEMA["properties"]["stays"]["additionalProperties"]["properties"]
    assert leading(MOOR, own, MOOR.description) == [
        {"op": "lead", "field": "crew", "param": "skipper_id", "unique": True}
    ]
    once = ToolSpec("moor_stay", "Keeps the crew with the skipper first.", MOOR.parameters)
    assert leading(once, own, once.description)[0]["unique"] is False
    glossed = {
        **MOOR.parameters["properties"],
        "crew": {"type": "array", "description": "Sailor ids; the master goes first."},
    }
    by_gloss = ToolSpec(
        "moor_stay", "Moors a boat for the master (skipper_id).", {"type": "object", "properties": glossed}
    )
    assert leading(by_gloss, own, by_gloss.description)[0]["param"] == "skipper_id"
    other = ToolSpec("moor_stay", "Moors a boat; the club first.", MOOR.parameters)  # says nothing of the crew
    assert leading(other, own, other.description) == []
