"""Searches read as filters: the collection the documented answer's fields belong to, the free-text parameter on
the field its docs name, the other parameters as filters, and answer fields that count another collection's
records naming each one."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.envelope import with_envelope
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.plan import PlanContext, ToolPlan, decide_plan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.search_rules import answer_collection, search_as_filter
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

PIERS = {
    "pier_id": {"type": "string"},
    "name": {"type": "string"},
    "harbours": {"type": "array", "items": {"type": "string"}},
    "depth": {"type": "number"},
}
BERTHS = {
    "berth_id": {"type": "string"},
    "pier_id": {"type": "string", "x-references": "piers"},
    "status": {"type": "string", "enum": ["free", "taken"]},
}
SCHEMA = {
    "type": "object",
    "properties": {
        name: {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
        for name, props in (("piers", PIERS), ("berths", BERTHS))
    },
}
STATE = {
    "piers": {
        "P1": {"pier_id": "P1", "name": "North Mole", "harbours": ["Inner", "Outer"], "depth": 4.0},
        "P2": {"pier_id": "P2", "name": "South Quay", "harbours": ["Inner"], "depth": 6.5},
        "P3": {"pier_id": "P3", "name": "North Arm", "harbours": ["Outer"], "depth": 3.0},
    },
    "berths": {
        "B1": {"berth_id": "B1", "pier_id": "P1", "status": "free"},
        "B2": {"berth_id": "B2", "pier_id": "P1", "status": "taken"},
        "B3": {"berth_id": "B3", "pier_id": "P3", "status": "free"},
        "B4": {"berth_id": "B4", "pier_id": "P1", "status": "free"},
    },
}
SEARCH = ToolSpec(
    "search_directory",
    "Looks up piers in the harbour directory; every filter may be left out. The text in query is looked for in "
    "the pier's name; harbour is compared with each of the pier's harbours and is case-insensitive. Returns "
    "{pier_id, name, depth, free_berths} for each hit; free_berths is the number of berths with status `free`.",
    {
        "type": "object",
        "properties": {"query": {"type": "string"}, "harbour": {"type": "string"}, "page_size": {"type": "integer"}},
    },
)


def _drafts() -> dict[str, CollectionDraft]:
    return {
        "piers": CollectionDraft("piers", "pier", dict(PIERS), "pier_id"),
        "berths": CollectionDraft("berths", "berth", dict(BERTHS), "berth_id"),
    }


def _plan() -> ToolPlan:
    plan = decide_plan(SEARCH, tool_priors(SEARCH), PlanContext(collections=_drafts(), singletons=[], client=None))
    plan = refine_filter(SEARCH, search_as_filter(SEARCH, plan, SCHEMA), SCHEMA)
    return with_envelope(SEARCH, plan, SCHEMA)


def _row(pier: str, free: int) -> dict:
    record = STATE["piers"][pier]
    return {"pier_id": pier, "name": record["name"], "depth": record["depth"], "free_berths": free}


def test_the_answers_fields_pick_the_collection_only_when_one_holds_most_of_them() -> None:
    assert answer_collection(SEARCH, _drafts()) == "piers"
    vague = ToolSpec("search_directory", "Returns a list of {name, status, colour, size}.", SEARCH.parameters)
    assert answer_collection(vague, _drafts()) is None  # one field each: no collection holds most of them
    assert answer_collection(ToolSpec("x", "Returns the pier.", {}), _drafts()) is None


def test_a_search_filters_by_its_query_field_and_other_parameters_and_counts_naming_records() -> None:
    plan = _plan()
    assert plan.kind == "filter" and plan.collection == "piers"
    assert plan.param_map["query"]["path"] == ["name"] and plan.param_map["harbour"]["path"] == ["harbours"]
    assert plan.output_map["free_berths"] == {
        "op": "count",
        "collection": "berths",
        "ref": "pier_id",
        "where": {"status": "free"},
    }
    cases = [
        ({"query": "north"}, [_row("P1", 2), _row("P3", 1)]),
        ({"query": "north", "harbour": "OUTER"}, [_row("P1", 2), _row("P3", 1)]),
        ({"harbour": "inner"}, [_row("P1", 2), _row("P2", 0)]),
        ({"query": "quay", "harbour": "outer"}, []),
    ]
    tests = []
    for arguments, expected in cases:
        case = Case(SEARCH.name, "x", STATE, arguments, expect_error=False, expect_result=expected)
        case.has_expected_result = True
        tests.append(case)
    res, err = run_cases(render_tool(SEARCH, plan, SCHEMA), SEARCH.name, tests, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)


def test_a_query_alone_that_names_no_single_field_stays_a_whole_record_search() -> None:
    spec = ToolSpec(
        "search_piers",
        "Search piers; the query matches the name or the harbours.",
        {"type": "object", "properties": {"query": {"type": "string"}}},
    )
    plan = ToolPlan(kind="search", collection="piers", key_field="pier_id", key_param="query")
    assert search_as_filter(spec, plan, SCHEMA) is plan
    own = {"type": "object", "properties": {"query": {"type": "string", "description": "Words of the name."}}}
    one = ToolSpec("search_piers", "Search piers.", own)
    assert search_as_filter(one, plan, SCHEMA).param_map == {
        "query": {"path": ["name"], "via": None, "collection": None, "op": "eq"}
    }


def test_a_count_held_to_the_given_argument_when_it_is_passed() -> None:
    berths = dict(BERTHS, dock={"type": "string"})
    schema = {
        "type": "object",
        "properties": {
            "piers": SCHEMA["properties"]["piers"],
            "berths": {"type": "object", "additionalProperties": {"type": "object", "properties": berths}},
        },
    }
    spec = ToolSpec(
        "search_directory",
        SEARCH.description.replace(
            "status `free`.", "status `free` (at the given dock only, when dock is set). dock filters nothing else."
        ),
        {"type": "object", "properties": {"query": {"type": "string"}, "dock": {"type": "string"}}},
    )
    drafts = {"piers": _drafts()["piers"], "berths": CollectionDraft("berths", "berth", berths, "berth_id")}
    plan = decide_plan(spec, tool_priors(spec), PlanContext(collections=drafts, singletons=[], client=None))
    plan = with_envelope(spec, refine_filter(spec, search_as_filter(spec, plan, schema), schema), schema)
    assert plan.output_map["free_berths"]["where_args"] == {"dock": "dock"}
    state = {"piers": {"P1": STATE["piers"]["P1"]}, "berths": {k: dict(v) for k, v in STATE["berths"].items()}}
    state["berths"]["B1"]["dock"], state["berths"]["B4"]["dock"] = "east", "west"
    row = {"pier_id": "P1", "name": "North Mole", "depth": 4.0}
    calls = [
        ({"query": "mole"}, [{**row, "free_berths": 2}]),  # B1 and B4
        ({"query": "mole", "dock": "east"}, [{**row, "free_berths": 1}]),  # B1 only
    ]
    tests = []
    for arguments, expected in calls:
        case = Case(spec.name, "x", state, arguments, expect_error=False, expect_result=expected)
        case.has_expected_result = True
        tests.append(case)
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, tests, SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == len(calls), [f.message for f in res.failures]
