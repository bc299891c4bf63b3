"""in_use: a list entry another record uses cannot be removed ("... while any of the skipper's trips in status
`booked` uses it"), read into paired_lists' removal and run in the rendered tool."""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.in_use import in_use
from synth.envsynth.paired_lists import paired_lists
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
STATUS = {"type": "string", "x-enum": ["booked", "sailed", "cancelled"]}
MOORING = {"type": "object", "properties": {"label": S, "pier": S}}
DOCS = (
    "Edits the skipper's moorings. Labels listed in `remove` are taken out first, then the entries in `add` are "
    "appended. A mooring cannot be removed while any of the skipper's trips in status `booked` uses it."
)


def _cols(trip: dict[str, Any] | None = None) -> dict[str, Any]:
    cols = {
        "skippers": {"skipper_id": S, "mooring_points": {"type": "array", "items": MOORING}},
        "trips": trip or {"trip_id": S, "skipper_id": S, "mooring": S, "status": STATUS},
        "boats": {"boat_id": S, "skipper_id": S, "status": STATUS},
    }
    return {n: {"type": "object", "additionalProperties": {"type": "object", "properties": p}} for n, p in cols.items()}


def test_the_records_that_use_an_entry_are_found_by_their_link_and_the_entrys_name() -> None:
    used = in_use(DOCS, "skippers", "mooring_points", "label", _cols())
    assert used == {
        "collection": "trips",
        "via": "skipper_id",
        "field": "mooring",
        "state_field": "status",
        "states": ["booked"],
    }
    other = "A mooring used by any booked trip cannot be removed."
    assert in_use(other, "skippers", "mooring_points", "label", _cols()) == used


def test_no_fitting_collection_or_no_such_sentence_reads_as_nothing() -> None:
    assert in_use("Moorings are edited in one request.", "skippers", "mooring_points", "label", _cols()) is None
    unlinked = _cols({"trip_id": S, "mooring": S, "status": STATUS})  # trips name no skipper
    assert in_use(DOCS, "skippers", "mooring_points", "label", unlinked) is None
    stateless = _cols({"trip_id": S, "skipper_id": S, "mooring": S})  # no field lists `booked`
    assert in_use(DOCS, "skippers", "mooring_points", "label", stateless) is None


def test_the_edit_refuses_removing_an_entry_a_booked_trip_uses_and_allows_the_rest() -> None:
    params = {
        "skipper_id": S,
        "add": {"type": "array", "items": MOORING},
        "remove": {"type": "array", "items": S, "description": "Labels to remove."},
    }
    spec = ToolSpec("update_moorings", DOCS, {"type": "object", "properties": params})
    schema = {"type": "object", "properties": _cols()}
    base = ToolPlan(kind="update", collection="skippers", key_param="skipper_id", fields=[])
    plan = paired_lists(spec, base, schema)
    assert plan is not None
    held = [{"label": "east", "pier": "P1"}, {"label": "west", "pier": "P2"}]
    trips = {
        "T1": {"trip_id": "T1", "skipper_id": "SK1", "mooring": "east", "status": "booked"},
        "T2": {"trip_id": "T2", "skipper_id": "SK1", "mooring": "west", "status": "sailed"},
        "T3": {"trip_id": "T3", "skipper_id": "SK2", "mooring": "west", "status": "booked"},
    }
    state = {"skippers": {"SK1": {"skipper_id": "SK1", "mooring_points": held}}, "trips": trips, "boats": {}}
    refused = Case(spec.name, "in use", state, {"skipper_id": "SK1", "remove": ["east"]}, expect_error=True)
    allowed = Case(spec.name, "free", state, {"skipper_id": "SK1", "remove": ["west"]}, expect_error=False)
    allowed.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "SK1", "field": "mooring_points", "value": held[:1]}
    ]
    res, err = run_cases(
        render_tool(spec, plan, schema), spec.name, [refused, allowed], SchemaResult(schema, {}, {}, "d")
    )
    assert res.passed == 2, err
