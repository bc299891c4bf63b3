"""Values a new record or list entry starts with when the call does not give them: the state its docs say it starts
in ("is stored with status "pending""), the business date for a date every record holds, nested objects with their
own required fields; an entry list named by its last word (`spare_parts` for `add_part`); and a removal tested on a
record holding an entry when the sample record's list is empty (a bicycle workshop)."""

from __future__ import annotations

from synth.envsynth.codegen import _defaults
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.create_rules import refine_create
from synth.envsynth.item_plan import item_edit_plan
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.priors import tool_priors
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

PART = {"type": "object", "properties": {"part_no": {"type": "string"}, "cost": {"type": "number"}}}
JOB = {
    "job_id": {"type": "string"},
    "bike_id": {"type": "string"},
    "status": {"type": "string", "x-enum": ["pending", "repairing", "done"]},
    "logged_on": {"type": "string", "format": "date"},
    "finished_on": {"type": ["string", "null"], "format": "date"},
    "bill": {
        "type": "object",
        "required": ["labour", "parts"],
        "properties": {"labour": {"type": "number"}, "parts": {"type": "number"}},
    },
    "spare_parts": {"type": "array", "items": PART},
}
SCHEMA = {
    "type": "object",
    "properties": {"jobs": collection(JOB), "bikes": collection({"bike_id": {"type": "string"}})},
}
OPEN_JOB = ToolSpec(
    "open_job",
    'Opens a repair job for a bike. The job is stored with status "pending". The workshop works on 2032-04-09.',
    {"type": "object", "properties": {"bike_id": {"type": "string"}}},
)


def test_the_state_a_new_record_starts_in_and_the_day_it_was_made() -> None:
    plan = ToolPlan(kind="create", collection="jobs", key_field="job_id", fields=["bike_id"])
    plan = refine_create(OPEN_JOB, plan, SCHEMA, OPEN_JOB.description, today="2032-04-09")
    assert plan.initial_values == {"status": "pending", "logged_on": "2032-04-09"}  # not the nullable finished_on
    quiet = ToolSpec(OPEN_JOB.name, "Opens a repair job for a bike.", OPEN_JOB.parameters)
    plan = refine_create(
        quiet, ToolPlan(kind="create", collection="jobs", key_field="job_id"), SCHEMA, quiet.description
    )
    assert "logged_on" not in plan.initial_values and "status" not in plan.initial_values  # no date, no state said


def test_a_nested_object_starts_with_its_required_fields() -> None:
    record = {"type": "object", "required": ["job_id", "bill", "status"], "properties": JOB}
    assert _defaults(record, {"job_id"}) == {"bill": {"labour": 0, "parts": 0}, "status": ""}


def test_an_entry_list_named_by_its_last_word() -> None:
    col = CollectionDraft(name="jobs", resource="job", fields=JOB, key_field="job_id")
    ctx = PlanContext(collections={"jobs": col}, singletons={}, client=None)
    props = {"job_id": {"type": "string"}, "part_no": {"type": "string"}}
    spec = ToolSpec("remove_part", "Takes a part off a job.", {"type": "object", "properties": props})
    plan = item_edit_plan(spec, tool_priors(spec), ctx, mutates=True)
    assert plan is not None and (plan.kind, plan.list_field, plan.item_key) == ("item_remove", "spare_parts", "part_no")


def test_a_removal_case_borrows_an_entry_when_the_record_has_none() -> None:
    plan = ToolPlan(
        kind="item_remove",
        collection="jobs",
        key_field="job_id",
        key_param="job_id",
        op_param="part_no",
        list_field="spare_parts",
        item_key="part_no",
    )
    state = {
        "jobs": {
            "J-1": {"job_id": "J-1", "spare_parts": []},
            "J-2": {"job_id": "J-2", "spare_parts": [{"part_no": "P-7", "cost": 4.0}]},
        }
    }
    cases = existing_key_cases(plan, [Case("remove_part", "x", state, {"job_id": "J-9", "part_no": "P-1"})])
    assert cases and cases[0].arguments == {"job_id": "J-1", "part_no": "P-7"}
    assert cases[0].state["jobs"]["J-1"]["spare_parts"] == [{"part_no": "P-7", "cost": 4.0}]


def test_a_change_that_gives_the_record_a_bare_state() -> None:
    from synth.envsynth.policy_rules import transition_rules

    record = {"type": "object", "properties": JOB}
    spec = ToolSpec(
        "finish_job",
        "Closes a repair. The job gets status done; only repairing jobs can be finished.",
        {"type": "object", "properties": {"job_id": {"type": "string"}}},
    )
    sets, allowed = transition_rules(spec, record, "")
    assert sets == {"status": "done"} and allowed == {"status": ["repairing"]}
    vague = ToolSpec("finish_job", "Closes a repair. The job gets status updates by mail.", spec.parameters)
    assert transition_rules(vague, record, "")[0] == {}  # `updates` is no state of a job
