"""Availability searches (availability.py), on a market's pitches: with both dates given, a pitch that a held or
live booking overlaps is left out (one ending on the first day does not block it), and so are shut pitches; without
the dates the filter is a plain one."""

from __future__ import annotations

from synth.envsynth.availability import availability
from synth.envsynth.codegen import render_tool
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

SCHEMA = {
    "type": "object",
    "properties": {
        "pitches": collection(
            {
                "pitch_id": {"type": "string"},
                "row": {"type": "string"},
                "status": {"type": "string", "x-enum": ["free", "shut"]},
            }
        ),
        "bookings": collection(
            {
                "booking_id": {"type": "string"},
                "pitch_id": {"type": "string", "x-references": "pitches"},
                "start_date": {"type": "string"},
                "end_date": {"type": "string"},
                "status": {"type": "string", "x-enum": ["held", "live", "void"]},
            }
        ),
    },
}
STATE = {
    "pitches": {
        "P1": {"pitch_id": "P1", "row": "A", "status": "free"},
        "P2": {"pitch_id": "P2", "row": "A", "status": "free"},
        "P3": {"pitch_id": "P3", "row": "A", "status": "shut"},
        "P4": {"pitch_id": "P4", "row": "B", "status": "free"},
    },
    "bookings": {
        "B1": {
            "booking_id": "B1",
            "pitch_id": "P1",
            "start_date": "2031-05-01",
            "end_date": "2031-05-04",
            "status": "live",
        },
        "B2": {
            "booking_id": "B2",
            "pitch_id": "P2",
            "start_date": "2031-05-05",
            "end_date": "2031-05-07",
            "status": "void",
        },
        "B3": {
            "booking_id": "B3",
            "pitch_id": "P4",
            "start_date": "2031-04-28",
            "end_date": "2031-05-02",
            "status": "held",
        },
    },
}
SPEC = ToolSpec(
    "find_pitches",
    "Find market pitches by row.\n\nAvailability: give start_date and end_date together to see only pitches that "
    "can be let for those days. Shut pitches are dropped, and so is any pitch with a held or live booking that "
    "overlaps the requested days (a booking ending on a day does not block one starting that day).",
    {
        "type": "object",
        "properties": {
            "row": {"type": "string"},
            "start_date": {"type": "string", "description": "First day, YYYY-MM-DD."},
            "end_date": {"type": "string", "description": "Day after the last, YYYY-MM-DD."},
        },
    },
)


def test_the_rule_read_from_the_docs() -> None:
    plan = ToolPlan(kind="filter", collection="pitches", key_field="pitch_id", filter_params=["row"])
    rule = availability(SPEC, plan, SCHEMA)
    assert rule == {
        "from": "start_date",
        "to": "end_date",
        "collection": "bookings",
        "ref": "pitch_id",
        "start": "start_date",
        "end": "end_date",
        "where": {"status": ["held", "live"]},
        "drop": {"status": ["shut"]},
    }
    plain = ToolSpec(SPEC.name, "Find market pitches by row.", SPEC.parameters)
    assert availability(plain, plan, SCHEMA) is None  # nothing said about bookings


def test_the_search_keeps_what_can_be_let() -> None:
    plan = ToolPlan(kind="filter", collection="pitches", key_field="pitch_id", filter_params=["row"])
    plan = ToolPlan.from_dict(
        {**refine_filter(SPEC, plan, SCHEMA).to_dict(), "availability": availability(SPEC, plan, SCHEMA)}
    )
    cases = []
    for arguments, keys in (
        ({"row": "A", "start_date": "2031-05-04", "end_date": "2031-05-06"}, ["P1", "P2"]),  # B1 ends as it starts
        ({"row": "A", "start_date": "2031-05-03", "end_date": "2031-05-06"}, ["P2"]),  # B2 is void
        ({"start_date": "2031-05-01", "end_date": "2031-05-02"}, ["P2"]),  # P4 held on the 1st
        ({"row": "A"}, ["P1", "P2", "P3"]),  # no dates: no availability rule
    ):
        case = Case(SPEC.name, "x", STATE, arguments, expect_error=False)
        case.expect_result, case.has_expected_result = [STATE["pitches"][k] for k in keys], True
        cases.append(case)
    res, err = run_cases(render_tool(SPEC, plan, SCHEMA), SPEC.name, cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 4
