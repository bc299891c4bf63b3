"""Answer fields made from other records as the docs' remarks say (linked_answers.py), on a kennel's records: the
keys of the visits that name a dog (all, those in the states the remark names, or all but those it denies), the
one open visit, a label joined from the breed's fields, and fields an answer "also carries" after its first list."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import with_envelope
from synth.envsynth.linked_answers import id_list_rule, joined_rule, remark_of
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.returns_shape import returned_fields
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

DOG = {
    "dog_id": {"type": "string"},
    "name": {"type": "string"},
    "breed_id": {"type": "string", "x-references": "breeds"},
}
BREED = {"breed_id": {"type": "string"}, "name": {"type": "string"}, "size": {"type": "string"}}
VISIT = {
    "visit_id": {"type": "string"},
    "dog_id": {"type": "string", "x-references": "dogs"},
    "status": {"type": "string", "x-enum": ["booked", "collected", "in_progress", "no_show"]},
}
SCHEMA = {
    "type": "object",
    "properties": {"dogs": collection(DOG), "breeds": collection(BREED), "grooming_visits": collection(VISIT)},
}
COLS = SCHEMA["properties"]
STATE = {
    "breeds": {"B-1": {"breed_id": "B-1", "name": "Whippet", "size": "medium"}},
    "dogs": {
        "D-1": {"dog_id": "D-1", "name": "Pip", "breed_id": "B-1"},
        "D-2": {"dog_id": "D-2", "name": "Rue", "breed_id": "B-1"},
    },
    "grooming_visits": {
        "V-3": {"visit_id": "V-3", "dog_id": "D-1", "status": "collected"},
        "V-1": {"visit_id": "V-1", "dog_id": "D-1", "status": "in_progress"},
        "V-2": {"visit_id": "V-2", "dog_id": "D-2", "status": "booked"},
        "V-4": {"visit_id": "V-4", "dog_id": "D-1", "status": "no_show"},
    },
}
GET_DOG = ToolSpec(
    "get_dog",
    "Fetch one dog.\n\nReturns: dog_id, name, breed_label (name and size), plus two computed lists: visit_ids "
    "(every visit on file for the dog, any status) and open_visit_ids (grooming visits that are booked or in "
    "progress and not yet collected). It also has current_visit_id (the in progress visit of this dog, or null).",
    {"type": "object", "properties": {"dog_id": {"type": "string"}}, "required": ["dog_id"]},
)


def test_remarks_name_the_records_and_their_states() -> None:
    text = GET_DOG.description
    assert remark_of("breed_label", text) == "name and size"
    assert id_list_rule("visit_ids", text, COLS, "dogs") == {
        "op": "ids",
        "collection": "grooming_visits",
        "ref": "dog_id",
    }
    assert id_list_rule("open_visit_ids", text, COLS, "dogs") == {
        "op": "ids",
        "collection": "grooming_visits",
        "ref": "dog_id",
        "where": {"status": ["booked", "in_progress"]},  # "not yet collected" is denied, not kept
    }
    denied = "waiting_visit_ids (visits not collected and never a no_show)"
    assert id_list_rule("waiting_visit_ids", denied, COLS, "dogs")["where"] == {"status": ["booked", "in_progress"]}
    one = id_list_rule("current_visit_id", text, COLS, "dogs")
    assert one == {**one, "one": True, "where": {"status": ["in_progress"]}}
    assert id_list_rule("current_visit_id", "Returns current_visit_id.", COLS, "dogs") is None  # nothing said
    assert id_list_rule("owner_ids", "owner_ids (every owner)", COLS, "dogs") is None  # no such records
    joined = joined_rule("breed_label", text, COLS, "dogs")
    assert joined == {
        "op": "join",
        "via": "breed_id",
        "collection": "breeds",
        "paths": [["name"], ["size"]],
        "sep": " ",
    }
    assert joined_rule("breed_label", "breed_label (the breed's name)", COLS, "dogs") is None
    assert joined_rule("breed_label", "breed_label (name and colour)", COLS, "dogs") is None  # no such field


def test_the_read_answers_them() -> None:
    fields = [f.name for f in returned_fields(GET_DOG.description)]
    assert fields == ["dog_id", "name", "breed_label", "visit_ids", "open_visit_ids", "current_visit_id"]
    plan = ToolPlan(kind="get", collection="dogs", key_param="dog_id", key_field="dog_id")
    shaped = with_envelope(GET_DOG, plan, SCHEMA)
    case = Case(GET_DOG.name, "x", STATE, {"dog_id": "D-1"}, expect_error=False)
    case.expect_result = {
        "dog_id": "D-1",
        "name": "Pip",
        "breed_label": "Whippet medium",
        "visit_ids": ["V-1", "V-3", "V-4"],
        "open_visit_ids": ["V-1"],
        "current_visit_id": "V-1",
    }
    case.has_expected_result = True
    idle = Case(GET_DOG.name, "x", STATE, {"dog_id": "D-2"}, expect_error=False)
    idle.expect_result = {**case.expect_result, "dog_id": "D-2", "name": "Rue", "visit_ids": ["V-2"]}
    idle.expect_result.update({"open_visit_ids": ["V-2"], "current_visit_id": None})
    idle.has_expected_result = True
    schema = SchemaResult(SCHEMA, {}, {}, "d")
    res, err = run_cases(render_tool(GET_DOG, shaped, SCHEMA), GET_DOG.name, [case, idle], schema)
    assert err == "" and res.passed == 2


def test_fields_an_answer_also_carries() -> None:
    got = returned_fields(
        "Look up a run.\n\nResponse fields: run_id, length (metres) and surface. The response also carries two "
        "values from the run's price band: day_fee (per dog) and max_dogs.\n\nFails for an unknown run."
    )
    assert [f.name for f in got] == ["run_id", "length", "surface", "day_fee", "max_dogs"]
    plain = returned_fields("Response fields: run_id, length and surface. Nothing else is returned.")
    assert [f.name for f in plain] == ["run_id", "length", "surface"]
