"""A new list entry copies the fields the call does not give from another record, as every sample entry shows: from
the record an entry field names (a workshop job's part line takes the catalogue's `unit_cost` for its `sku`), or
from the matching element of a list on the record the parent names (a voyage booking's berth takes the `fare` its
ship lists for that `grade`); and an item edit's record must be in the state quoted before its noun."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.entry_copies import entry_copies
from synth.envsynth.item_rules import refine_item, stated_states
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

LINE = {
    "type": "object",
    "properties": {"line_no": {"type": "string"}, "sku": {"type": "string"}, "unit_cost": {"type": "number"}},
}
JOB = {
    "job_id": {"type": "string"},
    "state": {"type": "string", "x-enum": ["open", "closed", "invoiced"]},
    "lines": {"type": "array", "items": LINE},
}
WORKSHOP = {
    "type": "object",
    "properties": {
        "catalogue": collection(
            {"sku": {"type": "string"}, "unit_cost": {"type": "number"}, "stock": {"type": "integer"}}
        ),
        "jobs": collection(JOB),
    },
}
SAMPLE = {
    "catalogue": {
        "SK-1": {"sku": "SK-1", "unit_cost": 4.5, "stock": 9},
        "SK-2": {"sku": "SK-2", "unit_cost": 12.0, "stock": 3},
        "SK-3": {"sku": "SK-3", "unit_cost": 0.8, "stock": 40},
    },
    "jobs": {
        "J-1": {"job_id": "J-1", "state": "open", "lines": [{"line_no": "L-1", "sku": "SK-1", "unit_cost": 4.5}]},
        "J-2": {
            "job_id": "J-2",
            "state": "closed",
            "lines": [
                {"line_no": "L-2", "sku": "SK-2", "unit_cost": 12.0},
                {"line_no": "L-3", "sku": "SK-3", "unit_cost": 0.8},
            ],
        },
    },
}
ADD_PART = ToolSpec(
    "add_part",
    "Puts one part on an `open` job; the line is priced from the catalogue.",
    {"type": "object", "properties": {"job_id": {"type": "string"}, "sku": {"type": "string"}}},
)
PLAN = ToolPlan(
    kind="item_add",
    collection="jobs",
    key_field="job_id",
    key_param="job_id",
    list_field="lines",
    fields=["sku"],
    item_key="line_no",
    key_format={"prefix": "L-"},
)


def test_a_field_copied_from_the_record_an_entry_field_names() -> None:
    found = entry_copies(SAMPLE, "jobs", "lines", ["sku"], ["line_no", "sku", "unit_cost"])
    assert found == [
        {"op": "entry_copied", "field": "unit_cost", "from": "record", "collection": "catalogue", "by": "sku"}
    ]


def test_no_copy_without_enough_varied_agreeing_entries() -> None:
    two = copy.deepcopy(SAMPLE)
    del two["jobs"]["J-2"]["lines"][1]  # two entries are not enough to call it a rule
    assert entry_copies(two, "jobs", "lines", ["sku"], ["line_no", "sku", "unit_cost"]) == []
    off = copy.deepcopy(SAMPLE)
    off["jobs"]["J-2"]["lines"][1]["unit_cost"] = 0.9  # one entry disagrees with the catalogue
    assert entry_copies(off, "jobs", "lines", ["sku"], ["line_no", "sku", "unit_cost"]) == []


def test_the_added_line_is_priced_and_an_unknown_sku_refused() -> None:
    plan = refine_item(ADD_PART, PLAN, WORKSHOP, ADD_PART.description, SAMPLE)
    assert plan.preconditions == {"state": ["open"]}
    source = render_tool(ADD_PART, plan, WORKSHOP)
    ok = Case(ADD_PART.name, "x", SAMPLE, {"job_id": "J-1", "sku": "SK-2"}, expect_error=False)
    ok.state_checks = [
        {
            "op": "field_equals",
            "collection": "jobs",
            "key": "J-1",
            "field": "lines",
            "value": [
                {"line_no": "L-1", "sku": "SK-1", "unit_cost": 4.5},
                {"line_no": "L-4", "sku": "SK-2", "unit_cost": 12.0},  # line numbers run across jobs
            ],
        }
    ]
    unknown = Case(ADD_PART.name, "x", SAMPLE, {"job_id": "J-1", "sku": "SK-9"}, expect_error=True)
    closed = Case(ADD_PART.name, "x", SAMPLE, {"job_id": "J-2", "sku": "SK-1"}, expect_error=True)
    res, err = run_cases(source, ADD_PART.name, [ok, unknown, closed], SchemaResult(WORKSHOP, {}, {}, "d"))
    assert err == "" and res.passed == 3


VOYAGES = {
    "ships": {
        "SH-1": {"ship_id": "SH-1", "grades": [{"grade": "deck", "fare": 40.0}, {"grade": "cabin", "fare": 95.0}]},
        "SH-2": {"ship_id": "SH-2", "grades": [{"grade": "deck", "fare": 55.0}, {"grade": "cabin", "fare": 130.0}]},
    },
    "bookings": {
        "B-1": {"booking_id": "B-1", "ship_id": "SH-1", "berths": [{"grade": "deck", "fare": 40.0}]},
        "B-2": {"booking_id": "B-2", "ship_id": "SH-2", "berths": [{"grade": "cabin", "fare": 130.0}]},
        "B-3": {"booking_id": "B-3", "ship_id": "SH-2", "berths": [{"grade": "deck", "fare": 55.0}]},
    },
}


def test_a_field_copied_from_the_matching_element_of_the_parents_linked_record() -> None:
    found = entry_copies(VOYAGES, "bookings", "berths", ["grade"], ["fare", "grade"])
    assert found == [
        {
            "op": "entry_copied",
            "field": "fare",
            "from": "linked_element",
            "via": "ship_id",
            "collection": "ships",
            "list": "grades",
            "by": "grade",
        }
    ]
    discounted = copy.deepcopy(VOYAGES)
    discounted["bookings"]["B-3"]["berths"][0]["fare"] = 50.0  # one booking paid less than its ship lists
    assert entry_copies(discounted, "bookings", "berths", ["grade"], ["fare", "grade"]) == []


def test_the_state_quoted_before_the_records_noun() -> None:
    props = {"state": JOB["state"]}
    assert stated_states("Takes a line off an `open` or `closed` job.", "job", props) == {"state": ["open", "closed"]}
    assert stated_states("Takes a line off a job.", "job", props) == {}
    assert stated_states("Takes a line off the `urgent` job.", "job", props) == {}  # not one of its states
