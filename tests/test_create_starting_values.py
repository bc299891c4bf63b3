"""A create whose docs list the new record's starting values in one sentence: two fields sharing a number ("`fee`
and `paid` 0"), a status, today's date, an empty list and a one-entry log whose date is today; read by
create_rules.refine_create, rendered and run."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S, N, LIST = {"type": "string"}, {"type": "number"}, {"type": "array"}
BOOKING = {"booking_id": S, "cone": S, "status": S, "filed_on": S, "fee": N, "paid": N, "notes": LIST, "log": LIST}
SCHEMA = {"type": "object", "properties": {"bookings": collection(BOOKING)}}
TODAY = "2025-06-02"
SAID = (
    "Books a firing. The booking gets the next id, status `pending`, `filed_on` today, `fee` and `paid` 0, an empty "
    '`notes` list and one `log` entry `{"date": today, "event": "filed", "note": ""}`. Returns the booking.'
)
SPEC = ToolSpec("book_firing", SAID, {"type": "object", "properties": {"cone": S}, "required": ["cone"]})
PLAN = ToolPlan(
    kind="create",
    collection="bookings",
    key_field="booking_id",
    fields=["cone"],
    id_type="pattern",
    key_format={"prefix": "B", "digits": 1},
)


def test_every_starting_value_the_sentence_lists() -> None:
    refined = refine_create(SPEC, PLAN, SCHEMA, SAID, today=TODAY)
    assert refined.initial_values == {
        "status": "pending",
        "filed_on": TODAY,
        "fee": 0,
        "paid": 0,
        "notes": [],
        "log": [{"date": TODAY, "event": "filed", "note": ""}],
    }
    new = {"booking_id": "B1", "cone": "6", **refined.initial_values}
    case = Case(SPEC.name, "x", {"bookings": {}}, {"cone": "6"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": {"bookings": {"B1": new}}}]
    res, err = run_cases(render_tool(SPEC, refined, SCHEMA), SPEC.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_a_value_named_for_another_field_only_is_not_shared() -> None:
    said = "The booking gets `fee` and a `paid` flag of 0 and status `pending`."
    refined = refine_create(SPEC, PLAN, SCHEMA, said, today=TODAY)
    assert "fee" not in refined.initial_values and refined.initial_values["status"] == "pending"


ENTRY = {"type": "object", "properties": {"date": S, "from": {"type": ["string", "null"]}, "to": S}}
KEPT = {
    "booking_id": S,
    "status": S,
    "owed": N,
    "extras": LIST,
    "payments": LIST,
    "log": {"type": "array", "items": ENTRY},
}
KEPT_SCHEMA = {"type": "object", "properties": {"bookings": collection(KEPT)}}
LISTED = (
    "Books a firing. The new booking gets the next id, status `held`, empty extras and payments, `owed` 0, and a "
    "first log entry (`from` null, `to` `held`, dated the business date). Returns the booking."
)


def test_lists_named_empty_together_and_a_first_entry_written_in_brackets() -> None:
    spec = ToolSpec("book_firing", LISTED, {"type": "object", "properties": {}})
    refined = refine_create(spec, PLAN, KEPT_SCHEMA, LISTED, today=TODAY)
    assert refined.initial_values == {
        "status": "held",
        "extras": [],
        "payments": [],
        "owed": 0,
        "log": [{"from": None, "to": "held", "date": TODAY}],
    }
    unknown_key = LISTED.replace("`to` `held`", "`state` `held`")  # a key the entry's schema does not have
    assert "log" not in refine_create(spec, PLAN, KEPT_SCHEMA, unknown_key, today=TODAY).initial_values
