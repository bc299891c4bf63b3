"""A list or search answers the states and the order its docs fix: "Lists berths that are free (berths that are taken
or closed are never returned)", "Results are sorted by date, start time, then berth id"."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.list_rules import list_scope, refine_list, sort_fields
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

SLOT = {
    "slot_id": {"type": "string"},
    "date": {"type": "string"},
    "start": {"type": "string"},
    "city": {"type": "string"},
    "status": {"type": "string", "x-enum": ["open", "booked", "blocked"]},
}
SCHEMA = {
    "type": "object",
    "properties": {"slots": {"type": "object", "additionalProperties": {"type": "object", "properties": SLOT}}},
}
TEXT = (
    "Lists slots that are open to reserve (taken or blocked slots are not listed). "
    "Answers are ordered by date, start time, then slot id."
)


def test_the_states_and_order_are_read_from_the_description() -> None:
    assert list_scope(TEXT, SLOT) == {"status": ["open"]}
    assert list_scope("Slots that are booked or blocked are never returned.", SLOT) == {"status": ["open"]}
    assert list_scope("Lists every slot.", SLOT) == {}
    assert sort_fields(TEXT, SLOT) == ["date", "start", "slot_id"]
    assert sort_fields("Ordered by title_id.", SLOT) == []  # a phrase naming no field: no order


def test_a_filter_keeps_the_open_slots_in_the_documented_order() -> None:
    spec = ToolSpec("search_slots", TEXT, {"type": "object", "properties": {"city": {"type": "string"}}})
    plan = refine_list(spec, ToolPlan(kind="filter", collection="slots", filter_params=["city"]), SCHEMA)
    assert plan.list_scope == {"status": ["open"]} and plan.sort_fields == ["date", "start", "slot_id"]
    slots = {
        "S1": {"slot_id": "S1", "date": "2026-12-04", "start": "09:00", "city": "Oslo", "status": "open"},
        "S2": {"slot_id": "S2", "date": "2026-12-03", "start": "14:00", "city": "Oslo", "status": "open"},
        "S3": {"slot_id": "S3", "date": "2026-12-03", "start": "09:00", "city": "Oslo", "status": "booked"},
        "S4": {"slot_id": "S4", "date": "2026-12-03", "start": "10:00", "city": "Rome", "status": "open"},
    }
    state = {"slots": slots}
    case = Case(
        "search_slots", "x", state, {"city": "Oslo"}, expect_error=False, expect_result=[slots["S2"], slots["S1"]]
    )
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, plan, SCHEMA), "search_slots", [case], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_scope_phrasings_that_must_not_mislead() -> None:
    slot = {"status": {"type": "string", "x-enum": ["open", "booked", "blocked", "held"]}}
    both = "Lists slots that are open, and booked or blocked slots are never returned."
    assert list_scope(both, slot) == {"status": ["open"]}
    assert list_scope("Returns an error for slots that are held. Lists all slots.", slot) == {}
    assert list_scope("Booked, blocked and held slots are never returned.", slot) == {"status": ["open"]}
    assert list_scope("Returns slots that are open or held.", slot) == {"status": ["held", "open"]}
    assert list_scope(
        "Booked slots are never returned.", {"status": {**slot["status"], "x-enum": ["Open", "Booked"]}}
    ) == {"status": ["Open"]}


def test_sort_directions_and_phrasings() -> None:
    record = {"date": {}, "name": {}, "slot_id": {}}
    assert sort_fields("Sorted by date and name.", record) == ["date", "name"]
    assert sort_fields("Sorted by date, newest first.", {"date": {}}) == ["-date"]
    assert sort_fields("Sorted by date descending, then by name.", record) == []  # mixed directions: no claim
    assert sort_fields("Ordered by the slot id.", record) == ["slot_id"]
