"""Readers added in session 57 from the docs alone, on harbour words: answer fields a response schema lists that
the record keeps in another form (the rows of another collection the record lists by id, a name kept in parts, a
yes/no for whether a field holds a value), a list said "cheapest first (ties by berth_id)", and a business date
written in words after "for all desk work is"."""

from __future__ import annotations

from typing import Any

from synth.envsynth.business_dates import business_date
from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import projection
from synth.envsynth.list_rules import priced_order
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_rows import schema_reading
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
N = {"type": "number"}
LIST = {"type": "array", "items": S}
COLS = {
    "skippers": collection(
        {"skipper_id": S, "first_name": S, "last_name": S, "permit": {"type": ["object", "null"]}, "berth_ids": LIST}
    ),
    "berths": collection({"berth_id": S, "pier": S, "status": S, "nightly_fee": N, "length_m": N}),
}
STATE_SCHEMA = {"type": "object", "properties": COLS}
ROW = {
    "type": "object",
    "properties": {
        "skipper_id": S,
        "name": S,
        "permit_on_file": {"type": "boolean"},
        "berths": {"type": "array", "items": {"type": "object", "properties": {"berth_id": S, "status": S}}},
    },
}
FIND = ToolSpec(
    "find_skippers",
    "Looks up skippers by last name.",
    {"type": "object", "properties": {"last_name": S}},
    returns={
        "type": "object",
        "properties": {"count": {"type": "integer"}, "skippers": {"type": "array", "items": ROW}},
    },
)
OWN = COLS["skippers"]["additionalProperties"]["properties"]


def test_each_listed_field_is_read_from_the_form_the_record_keeps_it_in() -> None:
    assert schema_reading("name", FIND, OWN, COLS, "skippers") == {
        "op": "own_join",
        "paths": ["first_name", "last_name"],
        "sep": " ",
    }
    assert schema_reading("permit_on_file", FIND, OWN, COLS, "skippers") == {"op": "is_set", "path": ["permit"]}
    rows = {"op": "rows", "collection": "berths", "list": "berth_ids", "fields": ["berth_id", "status"]}
    assert schema_reading("berths", FIND, OWN, COLS, "skippers") == rows
    assert schema_reading("skipper_id", FIND, OWN, COLS, "skippers") is None  # not listed in another form
    assert schema_reading("harbour_name", FIND, OWN, COLS, "skippers") is None  # the schema does not list it


def test_no_reading_for_a_number_a_missing_field_or_rows_of_unknown_fields() -> None:
    odd = {
        "type": "object",
        "properties": {
            "name": {"type": "integer"},  # a number is no joined text
            "licence_on_file": {"type": "boolean"},  # the record keeps no licence
            "berths": {"type": "array", "items": {"type": "object", "properties": {"berth_id": S, "colour": S}}},
        },
    }
    spec = ToolSpec("get_skipper", "Get a skipper.", {"type": "object", "properties": {"skipper_id": S}}, returns=odd)
    for name in ("name", "licence_on_file", "berths"):
        assert schema_reading(name, spec, OWN, COLS, "skippers") is None, name


def test_a_list_of_skippers_answers_the_documented_rows() -> None:
    plan = ToolPlan(kind="filter", collection="skippers", key_field="skipper_id", filter_params=["last_name"])
    listed, mapped = projection(FIND, plan, STATE_SCHEMA, rows=["skipper_id", "name", "permit_on_file", "berths"])
    assert listed == ["skipper_id", "name", "permit_on_file", "berths"]
    shaped = ToolPlan.from_dict({**plan.to_dict(), "output_fields": listed, "output_map": mapped})
    state: dict[str, Any] = {
        "skippers": {
            "SK-1": {
                "skipper_id": "SK-1",
                "first_name": "Ada",
                "last_name": "Quill",
                "permit": {"no": "P-7"},
                "berth_ids": ["B2", "B1"],
            },
            "SK-2": {"skipper_id": "SK-2", "first_name": "Bo", "last_name": "Quill", "permit": None, "berth_ids": []},
        },
        "berths": {
            "B1": {"berth_id": "B1", "pier": "N", "status": "taken", "nightly_fee": 30.0, "length_m": 12.0},
            "B2": {"berth_id": "B2", "pier": "S", "status": "open", "nightly_fee": 22.0, "length_m": 9.0},
        },
    }
    case = Case(FIND.name, "docs", state, {"last_name": "Quill"}, expect_error=False)
    case.expect_result, case.has_expected_result = (
        [
            {
                "skipper_id": "SK-1",
                "name": "Ada Quill",
                "permit_on_file": True,
                "berths": [{"berth_id": "B2", "status": "open"}, {"berth_id": "B1", "status": "taken"}],
            },
            {"skipper_id": "SK-2", "name": "Bo Quill", "permit_on_file": False, "berths": []},
        ],
        True,
    )
    res, err = run_cases(
        render_tool(FIND, shaped, STATE_SCHEMA), FIND.name, [case], SchemaResult(STATE_SCHEMA, {}, {}, "docs")
    )
    assert res.passed == 1, err


def test_cheapest_first_with_ties_orders_by_the_price_then_the_tie_field() -> None:
    record = COLS["berths"]["additionalProperties"]["properties"]
    said = "Lists berths matching the filters, cheapest first (ties by berth_id). Only open berths are listed."
    assert priced_order(said, record) == ["nightly_fee", "berth_id"]
    assert priced_order("Lists berths, most expensive first.", record) == ["-nightly_fee"]
    assert priced_order("Lists berths, longest first.", record) == []
    two = {**record, "deposit_fee": N}  # two price-like numbers: which one is not said
    assert priced_order(said, two) == []


def test_a_business_date_in_words_after_a_few_words_of_scope() -> None:
    said = "- The business date for all desk work is **Thursday, 18 September 2031**. Every charge is dated with it."
    assert business_date(said) == "2031-09-18"
    assert business_date("The business date for the front desk is 2031-02-03.") == "2031-02-03"
    assert business_date("The business date for all desk work is shown on the till.") is None


def test_a_new_records_example_gives_its_state_its_deposit_and_a_field_of_the_named_berth() -> None:
    from synth.envsynth.example_creates import example_values

    spec = ToolSpec(
        "reserve_berth",
        "Holds a berth for a skipper's arrival. A $25.00 booking deposit is taken. The berth becomes `held`.",
        {
            "type": "object",
            "properties": {
                "skipper_id": {"type": "string", "examples": ["SK-2"]},
                "berth_id": {"type": "string", "examples": ["B2"]},
            },
            "required": ["skipper_id", "berth_id"],
        },
        returns={
            "type": "object",
            "properties": {"state": {"type": "string", "enum": ["held", "converted", "cancelled"]}},
            "example": {
                "hold_id": "HD-0009",
                "skipper_id": "SK-2",
                "berth_id": "B2",
                "state": "held",
                "deposit": 25.0,
                "rate": 22.0,
                "total": 47.0,
                "created_on": "2031-09-18",
            },
        },
    )
    own = {
        f: {"type": "number" if f in ("deposit", "rate", "total") else "string"}
        for f in ("hold_id", "skipper_id", "berth_id", "state", "deposit", "rate", "total", "created_on")
    }
    sample = {
        "berths": {"B2": {"berth_id": "B2", "nightly_fee": 22.0, "length_m": 9.0}},
        "skippers": {"SK-2": {"skipper_id": "SK-2"}},
    }
    plan = ToolPlan(
        kind="create",
        collection="holds",
        key_field="hold_id",
        fields=["skipper_id", "berth_id"],
        ref_checks={"skipper_id": "skippers", "berth_id": "berths"},
        initial_values={"created_on": "2031-09-18"},
    )
    read = example_values(spec, plan, own, sample)
    assert read.initial_values == {"created_on": "2031-09-18", "state": "held", "deposit": 25.0}
    assert read.inherits == {"rate": ("berth_id", "berths", "nightly_fee")}  # 22.00: the named berth's fee
    assert "total" not in read.initial_values  # 47.00 is written nowhere in the description: computed, not read
    bare = ToolSpec(spec.name, spec.description, spec.parameters, returns={"type": "object"})
    assert example_values(bare, plan, own, sample) == plan  # no example record: nothing read


def test_a_create_appends_its_key_to_the_list_the_data_shows_the_named_skipper_keeps() -> None:
    from synth.envsynth.back_lists import with_back_lists

    cols = {
        "skippers": collection(
            {"skipper_id": S, "hold_ids": {"type": "array", "items": S}, "tags": {"type": "array", "items": S}}
        ),
        "holds": collection({"hold_id": S, "skipper_id": S, "berth_id": S}),
    }
    sample = {
        "skippers": {
            "SK-1": {"skipper_id": "SK-1", "hold_ids": ["HD-1", "HD-3"], "tags": ["HD-1"]},
            "SK-2": {"skipper_id": "SK-2", "hold_ids": [], "tags": []},
        },
        "holds": {k: {"hold_id": k, "skipper_id": "SK-1", "berth_id": "B1"} for k in ("HD-1", "HD-3")},
    }
    plan = ToolPlan(
        kind="create",
        collection="holds",
        key_field="hold_id",
        fields=["skipper_id", "berth_id"],
        ref_checks={"skipper_id": "skippers", "berth_id": "berths"},
    )
    read = with_back_lists(plan, cols, sample)
    assert read.ref_sets == [
        {"param": "skipper_id", "collection": "skippers", "field": "hold_ids", "append_new_key": True}
    ]
    sample["skippers"]["SK-2"]["hold_ids"] = ["HD-9"]  # a list the holds do not explain: no such rule
    assert with_back_lists(plan, cols, sample).ref_sets == []


def test_a_create_points_the_named_berth_at_the_new_hold_when_the_data_shows_that_pointer() -> None:
    from synth.envsynth.back_lists import with_back_lists

    cols = {
        "berths": collection({"berth_id": S, "current_hold_id": {"type": ["string", "null"]}}),
        "holds": collection({"hold_id": S, "berth_id": S, "state": S}),
    }
    holds = {"HD-1": ("B1", "held"), "HD-2": ("B2", "expired"), "HD-3": ("B2", "converted")}
    sample = {
        "berths": {
            "B1": {"berth_id": "B1", "current_hold_id": "HD-1"},
            "B2": {"berth_id": "B2", "current_hold_id": None},
            "B3": {"berth_id": "B3", "current_hold_id": None},
        },
        "holds": {k: {"hold_id": k, "berth_id": b, "state": st} for k, (b, st) in holds.items()},
    }
    plan = ToolPlan(
        kind="create",
        collection="holds",
        key_field="hold_id",
        fields=["berth_id"],
        ref_checks={"berth_id": "berths"},
        initial_values={"state": "held"},
    )
    pointer = {"param": "berth_id", "collection": "berths", "field": "current_hold_id", "new_key": True}
    assert with_back_lists(plan, cols, sample).ref_sets == [pointer]
    starts_other = ToolPlan.from_dict({**plan.to_dict(), "initial_values": {"state": "pending"}})
    assert with_back_lists(starts_other, cols, sample).ref_sets == []  # no pending hold is pointed at
    sample["berths"]["B3"]["current_hold_id"] = "HD-2"  # a pointer the held holds do not explain
    assert with_back_lists(plan, cols, sample).ref_sets == []
