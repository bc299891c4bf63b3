"""A create that copies fields from the records it names as the sample data shows (a stay's `pier_code` is its
berth's, its `night_rate` that pier's), opens its log with the entry its docs spell out, is priced by a sibling
read that takes a list of the ids the create names one of, takes parameters' documented defaults, and goes to the
collection its docs say it adds a record to; planned and rendered."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.create_rules import refine_create
from synth.envsynth.data_copies import data_copies
from synth.envsynth.docs_appends import first_entry
from synth.envsynth.link_plan import created_collection
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.quote_reuse import fits_parameters, priced_fields, sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

ENTRY = {
    "type": "object",
    "properties": {"day": {"type": "string"}, "what": {"type": "string"}, "remark": {"type": "string"}},
}
STAY = {
    "stay_id": {"type": "string"},
    "skipper_id": {"type": "string"},
    "berth_id": {"type": "string"},
    "pier_code": {"type": "string"},
    "night_rate": {"type": "number"},
    "state": {"type": "string", "x-enum": ["afloat", "ashore"]},
    "charged": {"type": "number"},
    "log": {"type": "array", "items": ENTRY},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": _collection({"skipper_id": {"type": "string"}, "rank": {"type": "string"}}),
        "berths": _collection(
            {"berth_id": {"type": "string"}, "pier_code": {"type": "string", "x-references": "piers"}}
        ),
        "piers": _collection({"pier_code": {"type": "string"}, "night_rate": {"type": "number"}}),
        "stays": _collection(STAY),
    },
}


def _stay(n: int, berth: str, pier: str, rate: float) -> dict:
    return {
        "stay_id": f"ST-0{n}",
        "skipper_id": "K1",
        "berth_id": berth,
        "pier_code": pier,
        "night_rate": rate,
        "state": "afloat",
        "charged": 0.0,
        "log": [],
    }


STATE = {
    "skippers": {"K1": {"skipper_id": "K1", "rank": "mate"}, "K2": {"skipper_id": "K2", "rank": "master"}},
    "berths": {
        "B1": {"berth_id": "B1", "pier_code": "NORTH"},
        "B2": {"berth_id": "B2", "pier_code": "SOUTH"},
        "B3": {"berth_id": "B3", "pier_code": "NORTH"},
    },
    "piers": {"NORTH": {"pier_code": "NORTH", "night_rate": 20.0}, "SOUTH": {"pier_code": "SOUTH", "night_rate": 35.5}},
    "stays": {
        "ST-01": _stay(1, "B1", "NORTH", 20.0),
        "ST-02": _stay(2, "B2", "SOUTH", 35.5),
        "ST-03": _stay(3, "B3", "NORTH", 20.0),
    },
}
IDS = {"skipper_id": {"type": "string"}, "berth_id": {"type": "string"}}
PRICE = ToolSpec(
    "price_berths",
    "Works out what berths would cost a skipper; nothing is booked. Answers with {skipper_id, berths: [{berth_id, "
    "pier_code, rate}], total}. rate is the pier's night_rate. total is the sum of the berths' rate.",
    {
        "type": "object",
        "properties": {"skipper_id": IDS["skipper_id"], "berth_ids": {"type": "array", "items": {"type": "string"}}},
        "required": ["skipper_id", "berth_ids"],
    },
)
MOOR = ToolSpec(
    "moor_skipper",
    "Moors a skipper at a berth, making a stay record for it.\n\n* Ids: each new stay receives the next id.\n"
    "* State: 'afloat' from the start.\n* Price: charged holds what price_berths totals for the berth.\n"
    "* Log: one log entry {day: today, what: 'afloat' or 'ashore', remark}, where remark is 'none'.\n\n"
    "The desk works on 2031-05-06. It returns the new stay.",
    {"type": "object", "properties": IDS, "required": ["skipper_id", "berth_id"]},
)


def test_fields_every_sample_record_copies_from_the_records_it_names() -> None:
    own = STAY
    copies = data_copies(STATE, "stays", own, {"berth_id": "berths"}, {"stay_id", "skipper_id", "berth_id"})
    assert copies == [
        {"op": "copied", "field": "pier_code", "via": "berth_id", "collection": "berths", "source": "pier_code"},
        {"op": "copied", "field": "night_rate", "via": "pier_code", "collection": "piers", "source": "night_rate"},
    ]
    odd = {"stays": {**STATE["stays"], "ST-03": {**STATE["stays"]["ST-03"], "pier_code": "SOUTH"}}}
    assert data_copies({**STATE, **odd}, "stays", own, {"berth_id": "berths"}, set()) == []  # one disagrees
    one = {"berths": {k: {**b, "pier_code": "NORTH"} for k, b in STATE["berths"].items()}}
    flat = {"stays": {k: {**r, "pier_code": "NORTH"} for k, r in STATE["stays"].items()}}
    same = data_copies({**STATE, **one, **flat}, "stays", own, {"berth_id": "berths"}, set())
    assert all(c["field"] != "pier_code" for c in same)  # one value everywhere is no evidence of a copy
    few = {"stays": {"ST-01": STATE["stays"]["ST-01"]}}
    assert data_copies({**STATE, **few}, "stays", own, {"berth_id": "berths"}, set()) == []  # too few to tell


def test_the_first_entry_the_docs_write_out() -> None:
    assert first_entry(MOOR.description, "log", ["afloat"]) == "{day: today, what: 'afloat', remark: 'none'}"
    assert first_entry(MOOR.description, "log", ["ashore"]) == "{day: today, what: 'ashore', remark: 'none'}"
    assert first_entry(MOOR.description, "log", []) == "{day: today, what: 'afloat', remark: 'none'}"  # the first
    assert first_entry("Moors a skipper.", "log", []) is None


def test_the_collection_a_new_record_is_created_in() -> None:
    drafts = {
        name: CollectionDraft(name=name, resource=name[:-1], fields={}, key_field=f"{name[:-1]}_id")
        for name in ("skippers", "berths", "stays")
    }
    ctx = PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})
    assert created_collection(MOOR, ctx) == "stays"
    for text in ("The stay is created.", "New stays take the next id.", "Returns the new stay."):
        assert created_collection(ToolSpec("moor_skipper", text, MOOR.parameters), ctx) == "stays"
    assert created_collection(ToolSpec("moor_skipper", "Returns the new rank.", MOOR.parameters), ctx) is None
    keyed = {"type": "object", "properties": {"stay_id": {"type": "string"}, "berth_id": {"type": "string"}}}
    swap = ToolSpec("move_stay", "Moves a stay to another berth. Returns the new stay.", keyed)
    assert created_collection(swap, ctx) is None  # the call names the stay it changes
    made = ToolSpec("log_stay", "Logs a stay under the id given. A new stay is created.", keyed)
    assert created_collection(made, ctx) == "stays"  # "a new stay" says so, whoever picks the id


def test_a_sibling_that_takes_a_list_of_the_ids_the_create_names_one_of() -> None:
    assert fits_parameters(MOOR, PRICE) == {"berth_ids": "berth_id"}
    assert fits_parameters(ToolSpec("x", "", {"type": "object", "properties": {"skipper_id": {}}}), PRICE) is None
    plan = ToolPlan(
        kind="create",
        collection="stays",
        key_field="stay_id",
        fields=["skipper_id", "berth_id"],
        id_type="pattern",
        key_format={"prefix": "ST-0", "digits": 1},
    )
    refined = refine_create(MOOR, plan, SCHEMA, MOOR.description, "2031-05-06", STATE)
    priced = priced_fields(
        MOOR, refined, SCHEMA, [PRICE, MOOR], sibling_quotes([PRICE, MOOR], SCHEMA, STATE), MOOR.description
    )
    assert priced.quote["assign"] == {"charged": "total"} and priced.quote["wrap"] == {"berth_ids": "berth_id"}
    new = {
        "stay_id": "ST-04",
        "skipper_id": "K2",
        "berth_id": "B2",
        "pier_code": "SOUTH",
        "night_rate": 35.5,
        "state": "afloat",
        "charged": 35.5,
        "log": [{"day": "2031-05-06", "what": "afloat", "remark": "none"}],
    }
    case = Case(MOOR.name, "x", STATE, {"skipper_id": "K2", "berth_id": "B2"}, expect_error=False)
    case.expect_result, case.has_expected_result = new, True
    res, err = run_cases(render_tool(MOOR, priced, SCHEMA), MOOR.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_a_field_the_call_leaves_out_takes_its_parameters_documented_default() -> None:
    schema = {
        "type": "object",
        "properties": {
            "visits": _collection(
                {"visit_id": {"type": "string"}, "berth_id": {"type": "string"}, "plan": {"type": "string"}}
            )
        },
    }
    params = {
        "berth_id": {"type": "string"},
        "plan": {"type": "string", "enum": ["nightly", "weekly"], "description": "'nightly' (default) or 'weekly'."},
    }
    spec = ToolSpec("log_visit", "Logs a visit.", {"type": "object", "properties": params, "required": ["berth_id"]})
    plan = refine_create(
        spec,
        ToolPlan(kind="create", collection="visits", key_field="visit_id", fields=["berth_id", "plan"]),
        schema,
        spec.description,
    )
    assert {"op": "param_default", "field": "plan", "value": "nightly"} in plan.effects
    cases = [
        Case(spec.name, "x", {"visits": {}}, {"berth_id": "B1"}, expect_error=False),
        Case(spec.name, "x", {"visits": {}}, {"berth_id": "B1", "plan": "weekly"}, expect_error=False),
    ]
    cases[0].state_checks = [{"op": "some_record_has", "collection": "visits", "fields": {"plan": "nightly"}}]
    cases[1].state_checks = [{"op": "some_record_has", "collection": "visits", "fields": {"plan": "weekly"}}]
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, cases, SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 2
