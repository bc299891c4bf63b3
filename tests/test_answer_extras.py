"""A read's "Returns the X ... plus ..." additions: another record's fields through a reference, a figure from two
numbers, and the keys of the records that name this one; planned from the docs and rendered."""

from __future__ import annotations

from synth.envsynth.answer_extras import answer_extras
from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import with_envelope
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

ROUTES = {"route_id": {"type": "string"}, "name": {"type": "string"}, "fare": {"type": "number"}}
TRIPS = {
    "trip_id": {"type": "string"},
    "line": {"type": "string", "x-references": "routes"},
    "seats": {"type": "integer"},
    "sold": {"type": "integer"},
}
SCHEMA = {
    "type": "object",
    "properties": {
        name: {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
        for name, props in (("routes", ROUTES), ("trips", TRIPS))
    },
}
STATE = {
    "routes": {"R1": {"route_id": "R1", "name": "Harbour", "fare": 2.5}},
    "trips": {
        "T1": {"trip_id": "T1", "line": "R1", "seats": 40, "sold": 12},
        "T2": {"trip_id": "T2", "line": "R1", "seats": 10, "sold": 11},
    },
}


def _spec(name: str, description: str, key: str) -> ToolSpec:
    props = {key: {"type": "string"}}
    return ToolSpec(name=name, description=description, parameters={"type": "object", "properties": props})


def _answers(spec: ToolSpec, plan: ToolPlan, arguments: dict, expected: dict) -> bool:
    case = Case(spec.name, "x", STATE, arguments, expect_error=False, expect_result=expected)
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, [case], SchemaResult(SCHEMA, {}, {}, "docs"))
    return err == "" and res.passed == 1


def test_a_trip_answers_its_routes_fields_and_a_figure_never_below_zero() -> None:
    get = _spec(
        "get_trip",
        "Get one trip (e.g. T1). Returns the trip: trip_id, line, seats, sold, plus the route's name and fare and "
        "seats_left (seats minus sold, never below 0). Fails if the trip does not exist.",
        "trip_id",
    )
    plan = ToolPlan(kind="get", collection="trips", key_field="trip_id", key_param="trip_id")
    assert answer_extras(get, plan, SCHEMA) == {
        "name": {"op": "eq", "via": "line", "collection": "routes", "path": ["name"]},
        "fare": {"op": "eq", "via": "line", "collection": "routes", "path": ["fare"]},
        "seats_left": {"op": "calc", "left": "seats", "operator": "-", "right": "sold", "floor": 0},
    }
    shaped = with_envelope(get, plan, SCHEMA)
    over = {**STATE["trips"]["T2"], "name": "Harbour", "fare": 2.5, "seats_left": 0}
    assert _answers(get, shaped, {"trip_id": "T2"}, over)
    assert _answers(
        get, shaped, {"trip_id": "T1"}, {**STATE["trips"]["T1"], "name": "Harbour", "fare": 2.5, "seats_left": 28}
    )


def test_a_route_answers_the_keys_of_its_trips_and_plain_reads_stay_as_they_were() -> None:
    get = _spec("get_route", "Returns the route plus trip_ids: the ids of all trips of the route, sorted.", "route_id")
    plan = ToolPlan(kind="get", collection="routes", key_field="route_id", key_param="route_id")
    assert answer_extras(get, plan, SCHEMA) == {"trip_ids": {"op": "ids", "collection": "trips", "ref": "line"}}
    assert _answers(
        get, with_envelope(get, plan, SCHEMA), {"route_id": "R1"}, {**STATE["routes"]["R1"], "trip_ids": ["T1", "T2"]}
    )
    plain = _spec("get_route", "Returns the route. A fare plus tax is charged on board.", "route_id")
    assert answer_extras(plain, plan, SCHEMA) == {}  # "plus" outside a Returns sentence's list
    assert with_envelope(plain, plan, SCHEMA) == plan


def test_list_answers_derive_listed_fields_from_the_record_a_reference_and_another_tools_definition() -> None:
    from synth.envsynth.envelope import projection

    trips = {**TRIPS, "riders": {"type": "array", "items": {"type": "string"}}}
    schema = {
        "type": "object",
        "properties": {
            **SCHEMA["properties"],
            "trips": {"type": "object", "additionalProperties": {"type": "object", "properties": trips}},
        },
    }
    search = _spec("search_trips", "Returns a list of summaries {trip_id, name, seats_left, riders_count}.", "line")
    plan = ToolPlan(kind="filter", collection="trips", key_field="trip_id")
    assert projection(search, plan, schema) == ([], {})  # seats_left is defined nowhere in its own docs
    glossary = "get_trip: Returns the trip plus seats_left (seats minus sold, never below 0)."
    fields, mapped = projection(search, plan, schema, glossary)
    assert fields == ["trip_id", "name", "seats_left", "riders_count"]
    assert mapped["name"] == {"path": ["name"], "via": "line", "collection": "routes", "op": "eq"}  # not a `_id`
    assert mapped["riders_count"] == {"op": "len", "path": ["riders"]}
    assert mapped["seats_left"]["op"] == "calc" and mapped["seats_left"]["floor"] == 0
