"""A boolean filter flag that keeps records by the records of another collection naming them: "free_only keeps
piers with at least one free mooring (at the given harbour, if any)"."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.flag_counts import flag_count
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

PIER = {"pier_id": {"type": "string"}, "name": {"type": "string"}}
MOORING = {
    "mooring_id": {"type": "string"},
    "pier_id": {"type": "string", "x-references": "piers"},
    "harbour": {"type": "string", "x-enum": ["north", "south"]},
    "status": {"type": "string", "x-enum": ["free", "taken", "closed"]},
}


def _col(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {"type": "object", "properties": {"piers": _col(PIER), "moorings": _col(MOORING)}}
COLS = SCHEMA["properties"]
PARAMS = {"harbour": {"type": "string"}, "free_only": {"type": "boolean"}}
SENTENCE = "free_only keeps piers with at least one free mooring (at the given harbour, if any)."


def test_the_count_is_read_from_the_flags_sentence() -> None:
    assert flag_count(SENTENCE, "piers", COLS, PARAMS) == {
        "count": {
            "op": "count",
            "collection": "moorings",
            "ref": "pier_id",
            "where": {"status": "free"},
            "where_args": {"harbour": "harbour"},
        },
        "least": 1,
    }
    plain = flag_count("If true, only piers with at least one free mooring.", "piers", COLS, PARAMS)
    assert plain is not None and "where_args" not in plain["count"]


def test_what_is_not_read_keeps_no_count() -> None:
    assert flag_count("Only piers with at least one sunny mooring.", "piers", COLS, PARAMS) is None  # no such value
    assert flag_count("Only piers with at least one free dinghy.", "piers", COLS, PARAMS) is None  # no such records
    aside = "Only piers with at least one free mooring (at the given quay, if any)."
    assert flag_count(aside, "piers", COLS, PARAMS) is None  # the aside names no argument of the tool
    assert flag_count("Include closed piers too.", "piers", COLS, PARAMS) is None


def test_a_true_flag_keeps_the_records_with_a_linked_record_at_the_given_place() -> None:
    props = {**PARAMS, "free_only": {"type": "boolean", "description": "Only piers with a mooring to let now."}}
    spec = ToolSpec("search_piers", "Search piers. " + SENTENCE, {"type": "object", "properties": props})
    plan = refine_filter(spec, ToolPlan(kind="list", collection="piers", key_field="pier_id"), SCHEMA)
    assert plan.kind == "filter" and set(plan.flag_counts) == {"free_only"}
    piers = {"P1": {"pier_id": "P1", "name": "Long"}, "P2": {"pier_id": "P2", "name": "Short"}}
    moorings = {
        "M1": {"mooring_id": "M1", "pier_id": "P1", "harbour": "north", "status": "free"},
        "M2": {"mooring_id": "M2", "pier_id": "P2", "harbour": "south", "status": "free"},
        "M3": {"mooring_id": "M3", "pier_id": "P2", "harbour": "north", "status": "taken"},
    }
    state = {"piers": piers, "moorings": moorings}
    cases = [
        Case("search_piers", "a", state, {"free_only": True}, expect_error=False, expect_result=list(piers.values())),
        Case(
            "search_piers",
            "b",
            state,
            {"free_only": True, "harbour": "north"},
            expect_error=False,
            expect_result=[piers["P1"]],  # P2's free mooring is in the south
        ),
        Case("search_piers", "c", state, {"free_only": False}, expect_error=False, expect_result=list(piers.values())),
    ]
    for c in cases:
        c.has_expected_result = True
    res, err = run_cases(render_tool(spec, plan, SCHEMA), "search_piers", cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 3
