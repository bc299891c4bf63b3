"""A bike-hire quote worded as a vendor writes its price list: a percent table after a colon keyed by the rider's
tier (and the tier a quote without a rider is priced at), a day-rate table keyed by an argument, extras lines whose
charge is capped per unit by the extra's record (no cap when the record leaves it empty, a quantity that defaults
to 1), their total, a fee when two stations differ, a deposit table in the policy ("20.00 for city and road")
waived for one tier, a currency the schema's example and the docs both give, and the hire's bounds ("Between 1 and
14 days", "may not be before the business date"). Then the test arguments a quote with two dates gets."""

from __future__ import annotations

import random
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.keyed_tables import absent_values, listed_tables
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.sampling import sample_arguments
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S, NUM = {"type": "string"}, {"type": "number"}
DATE = {"type": "string", "format": "date"}
SCHEMA = {
    "type": "object",
    "properties": {
        "riders": collection({"rider_id": S, "name": S, "tier": S, "wallet": NUM}),
        "extras": collection(
            {"extra_id": S, "name": S, "day_price": NUM, "max_charge_per_unit": {"type": ["number", "null"]}}
        ),
    },
}
STATE = {
    "riders": {
        "R1": {"rider_id": "R1", "name": "Ines", "tier": "club", "wallet": 10.0},
        "R2": {"rider_id": "R2", "name": "Tove", "tier": "gold", "wallet": 0.0},
        "R3": {"rider_id": "R3", "name": "Ode", "tier": "basic", "wallet": 5.0},
    },
    "extras": {
        "X1": {"extra_id": "X1", "name": "Child seat", "day_price": 4.0, "max_charge_per_unit": 10.0},
        "X2": {"extra_id": "X2", "name": "Pannier", "day_price": 1.5, "max_charge_per_unit": None},
    },
}
EXTRA = {"type": "object", "properties": {"extra_id": S, "quantity": {"type": "integer", "default": 1}}}
PARAMS = {
    "type": "object",
    "properties": {
        "bike_type": {"type": "string", "enum": ["city", "road", "cargo"]},
        "start_date": DATE,
        "end_date": DATE,
        "rider_id": {"type": "string", "description": "Price at this rider's tier."},
        "from_station_id": S,
        "to_station_id": S,
        "extras": {"type": "array", "items": EXTRA},
    },
    "required": ["bike_type", "start_date", "end_date"],
}
LINE = {"extra_id": S, "name": S, "day_price": NUM, "quantity": {"type": "integer"}, "charge": NUM}
RETURNS = {
    "type": "object",
    "properties": {
        "bike_type": S,
        "hire_days": {"type": "integer"},
        "day_rate": NUM,
        "base_charge": NUM,
        "tier": S,
        "member_discount": NUM,
        "extras": {"type": "array", "items": {"type": "object", "properties": LINE}},
        "extras_total": NUM,
        "transfer_fee": NUM,
        "total": NUM,
        "deposit_required": NUM,
        "currency": {"type": "string", "examples": ["EUR"]},
    },
}
DOCS = """Prices a bike hire; nothing is booked.

1. **Hire days** = end_date - start_date. Between 1 and 14 hire_days; the start date may not be before the
   business date.
2. **Base charge** = day rate x hire days. Day rates: city 12.00, road 18.00, cargo 25.00.
3. **Member discount** on base charge, by the rider's tier: basic 0%, club 5%, gold 12.5% (rounded to the cent).
   Without `rider_id` the hire is priced at the basic tier.
4. **Extras**: each line costs day price x hire days per unit, but never more than the extra's
   per-unit cap for the whole hire, times quantity.
5. **Transfer fee** of 6.50 when both stations are given and differ.

`total` = base charge - member discount + extras + transfer fee. The response also states the deposit the hire
would require (waived for gold riders)."""
POLICY = (
    "Today's business date is 2031-04-10.\n\n"
    "A deposit is taken when booking: 20.00 for city and road, 60.00 cargo. Prices are in EUR."
)
QUOTE = ToolSpec("quote_hire", DOCS, PARAMS, returns=RETURNS)
SAMPLE = {**STATE}


def _plan() -> ToolPlan:
    return quote_plan(QUOTE, ToolPlan(kind="get"), SCHEMA, SAMPLE, POLICY)


def _run(cases: list[tuple[dict[str, Any], Any]]) -> None:
    tests = []
    for arguments, expected in cases:
        case = Case(QUOTE.name, "x", STATE, arguments, expect_error=expected is None)
        if expected is not None:
            case.expect_result, case.has_expected_result = expected, True
        tests.append(case)
    res, err = run_cases(render_tool(QUOTE, _plan(), SCHEMA), QUOTE.name, tests, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases), (err, [f.message for f in res.failures])


def test_a_table_after_a_colon_is_keyed_by_the_record_field_holding_its_keys() -> None:
    named, fields = (
        {"rider_id": "riders"},
        {"rider_id": SCHEMA["properties"]["riders"]["additionalProperties"]["properties"]},
    )
    (table,) = [t for t in listed_tables(DOCS, PARAMS["properties"], named, fields, SAMPLE) if "field" in t]
    assert (table["param"], table["field"], table["values"]) == (
        "rider_id",
        "tier",
        {"basic": 0, "club": 5, "gold": 12.5},
    )
    assert absent_values(DOCS, PARAMS["properties"], named, fields, SAMPLE) == {"rider_id": {"tier": "basic"}}
    (deposit,) = listed_tables(POLICY, PARAMS["properties"], named, fields, SAMPLE)
    assert deposit["arg"] == "bike_type" and deposit["values"] == {"city": 20.0, "road": 20.0, "cargo": 60.0}


def test_the_quote_computes_every_figure_the_docs_define() -> None:
    plan = _plan()
    assert plan.kind == "quote"
    assert {"figure": "hire_days", "op": "<=", "value": 14.0} in plan.quote["guards"]
    assert "extras" not in plan.quote["named"]  # the lines read the list; it names no one record
    one = {"extra_id": "X1", "name": "Child seat", "day_price": 4.0, "quantity": 2, "charge": 20.0}
    two = {"extra_id": "X2", "name": "Pannier", "day_price": 1.5, "quantity": 1, "charge": 4.5}
    club = {
        "bike_type": "road",
        "hire_days": 3,
        "day_rate": 18.0,
        "base_charge": 54.0,
        "tier": "club",
        "member_discount": 2.7,
        "extras": [one, two],
        "extras_total": 24.5,
        "transfer_fee": 6.5,
        "total": 82.3,
        "deposit_required": 20.0,
        "currency": "EUR",
    }
    extras = [{"extra_id": "X1", "quantity": 2}, {"extra_id": "X2"}]
    trip = {"start_date": "2031-04-12", "end_date": "2031-04-15", "from_station_id": "A", "to_station_id": "B"}
    walk_in = {"bike_type": "cargo", "start_date": "2031-04-10", "end_date": "2031-04-11"}
    gold = {**walk_in, "rider_id": "R2", "bike_type": "city", "end_date": "2031-04-13"}
    _run(
        [
            ({"bike_type": "road", "rider_id": "R1", "extras": extras, **trip}, club),
            (
                walk_in,
                {
                    **{k: club[k] for k in ("currency",)},
                    "bike_type": "cargo",
                    "hire_days": 1,
                    "day_rate": 25.0,
                    "base_charge": 25.0,
                    "tier": "basic",  # no rider: the basic tier
                    "member_discount": 0.0,
                    "extras": [],
                    "extras_total": 0,
                    "transfer_fee": 0.0,
                    "total": 25.0,
                    "deposit_required": 60.0,
                },
            ),
            (
                gold,  # 12.5% of 36.00 is 4.50; gold riders leave no deposit
                {
                    "bike_type": "city",
                    "hire_days": 3,
                    "day_rate": 12.0,
                    "base_charge": 36.0,
                    "tier": "gold",
                    "member_discount": 4.5,
                    "extras": [],
                    "extras_total": 0,
                    "transfer_fee": 0.0,
                    "total": 31.5,
                    "deposit_required": 0,
                    "currency": "EUR",
                },
            ),
            ({**walk_in, "end_date": "2031-04-30"}, None),  # 20 days: more than 14
            ({**walk_in, "start_date": "2031-04-09"}, None),  # before the business date
        ]
    )


def test_a_half_cent_share_rounds_up() -> None:
    plan = _plan()
    (node,) = [n for name, n in plan.quote["steps"] if name == "member_discount"]
    assert node["way"] == "half_up"


def test_two_dates_drawn_for_a_test_make_a_short_span() -> None:
    from synth.envsynth.date_runtime import fg_day_number

    for seed in range(20):
        args = sample_arguments(PARAMS, random.Random(seed), STATE, SCHEMA)
        span = fg_day_number(args["end_date"]) - fg_day_number(args["start_date"])
        assert 1 <= span <= 30


def test_what_the_docs_do_not_say_gives_no_table_fee_waiver_or_constant() -> None:
    from synth.envsynth.keyed_tables import differ_fee_node, documented_constant, share_node, waived_node

    named = {"rider_id": "riders"}
    fields = {"rider_id": SCHEMA["properties"]["riders"]["additionalProperties"]["properties"]}
    # keys no record field holds (nor any enum argument): no table
    assert listed_tables("Surcharges: rain 2.00, wind 3.00.", PARAMS["properties"], named, fields, SAMPLE) == []
    # a rider left out but no value named: nothing read as absent
    assert absent_values("Without `rider_id` no discount applies.", PARAMS["properties"], named, fields, SAMPLE) == {}
    # a fee whose condition names one station parameter only (or none) is not a difference of two
    said = "Transfer fee of 6.50 when both bikes are given and differ."  # one parameter is named for bikes
    assert differ_fee_node("transfer_fee", said, PARAMS["properties"]) is None
    stations = differ_fee_node("transfer_fee", said.replace("bikes", "stations"), PARAMS["properties"])
    assert stations is not None and stations["args"][0] == {"num": 6.5}
    # a share with no table in its sentence
    assert (
        share_node("member_discount", "Member discount on base charge, by the rider's mood.", [], lambda t: None)
        is None
    )
    # a waiver for a value no named record holds leaves the figure as it is
    node = {"num": 20}
    assert waived_node("deposit", node, "The deposit is waived for wizards.", named, fields, SAMPLE) == node
    # an example the docs never write is no constant; nor is a number's
    assert documented_constant({"type": "string", "examples": ["GBP"]}, DOCS + POLICY) is None
    assert documented_constant({"type": "number", "example": 3}, "3 days") is None
