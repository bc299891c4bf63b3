"""Reads as their docs describe them: answer fields listed bare ("Returns: a, b (remark) and c."), rows cut to a
summary, a list answered inside a `{count, <records>}` envelope, filters whose parameters carry the records' noun
(`hall_kind`), another form of the field's word (`opening_from` for `opening`) or a bound stated in their own
description, and a POST that only looks something up (a mooring office's lookup and quote)."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import list_envelope, with_envelope
from synth.envsynth.filter_map import map_param
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.returns_shape import returned_fields
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

HALL = {
    "hall_id": {"type": "string"},
    "kind": {"type": "string", "x-enum": ["ballroom", "studio"]},
    "seats": {"type": "integer"},
    "opening": {"type": "string", "format": "date"},
    "rent": {"type": "number"},
    "venue_id": {"type": "string", "x-references": "venues"},
}
SCHEMA = {
    "type": "object",
    "properties": {"halls": collection(HALL), "venues": collection({"venue_id": {"type": "string"}})},
}
STATE = {
    "venues": {"V-1": {"venue_id": "V-1"}},
    "halls": {
        "H-1": {
            "hall_id": "H-1",
            "kind": "ballroom",
            "seats": 300,
            "opening": "2031-02-01",
            "rent": 900.0,
            "venue_id": "V-1",
        },
        "H-2": {
            "hall_id": "H-2",
            "kind": "studio",
            "seats": 40,
            "opening": "2031-05-10",
            "rent": 120.0,
            "venue_id": "V-1",
        },
        "H-3": {
            "hall_id": "H-3",
            "kind": "studio",
            "seats": 25,
            "opening": "2031-08-20",
            "rent": 80.0,
            "venue_id": "V-1",
        },
    },
}


def test_bare_field_lists_after_a_lead_in() -> None:
    got = returned_fields(
        "Fetch one hall.\n\nReturns: hall_id, kind (ballroom or studio), seats and rent.\n\nErrors: x."
    )
    assert [f.name for f in got] == ["hall_id", "kind", "seats", "rent"]
    got = returned_fields(
        "The response has hall_id, opening (the first day, YYYY-MM-DD) and seats. Fails when unknown."
    )
    assert [f.name for f in got] == ["hall_id", "opening", "seats"]
    assert returned_fields("Returns: the hall, if any.") == []  # words, not a list of fields
    rows = returned_fields("Lists halls. Each row is a summary: {hall_id, kind, seats}.")
    assert [f.name for f in rows] == ["hall_id", "kind", "seats"]


def test_a_count_and_records_envelope() -> None:
    spec = ToolSpec(
        "list_halls",
        'Lists halls. Returns {"count", "halls": [{hall_id, kind, seats}]} with the number of halls found.',
        {"type": "object", "properties": {"kind": {"type": "string"}}},
    )
    plan = ToolPlan(kind="filter", collection="halls", key_field="hall_id", filter_params=["kind"])
    assert list_envelope(spec, plan) == ("halls", "count", ["hall_id", "kind", "seats"])
    shaped = with_envelope(spec, plan, SCHEMA)
    assert (shaped.output_key, shaped.count_key, shaped.output_fields) == (
        "halls",
        "count",
        ["hall_id", "kind", "seats"],
    )
    case = Case(spec.name, "x", STATE, {"kind": "studio"}, expect_error=False)
    case.expect_result = {
        "count": 2,
        "halls": [{"hall_id": "H-2", "kind": "studio", "seats": 40}, {"hall_id": "H-3", "kind": "studio", "seats": 25}],
    }
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, shaped, SCHEMA), spec.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1
    three = ToolSpec(spec.name, 'Returns {"count", "pages", "halls": [...]}.', spec.parameters)
    assert list_envelope(three, plan) is None  # not the two-field shape


def test_filter_parameters_mapped_onto_the_records_fields() -> None:
    cols = SCHEMA["properties"]
    assert map_param("hall_kind", "halls", cols) == {"path": ["kind"], "via": None, "collection": None, "op": "eq"}
    assert map_param("opening_from", "halls", cols)["op"] == "min"  # `opening`, compared as a date
    assert map_param("openings_until", "halls", cols)["path"] == ["opening"]
    assert map_param("room_kind", "halls", cols) is None  # `room` is not the records' noun
    spec = ToolSpec(
        "find_halls",
        "Find halls. Fails with 'venue V-9 not found' for an unknown venue.",
        {
            "type": "object",
            "properties": {
                "capacity": {"type": "integer", "description": "Only halls whose seats are at least this many."},
                "budget": {"type": "number", "description": "Halls with a rent of at most this."},
                "venue_id": {"type": "string"},
            },
        },
    )
    plan = refine_filter(spec, ToolPlan(kind="filter", collection="halls", key_field="hall_id"), SCHEMA)
    assert plan.param_map["capacity"] == {"path": ["seats"], "via": None, "collection": None, "op": "min"}
    assert plan.param_map["budget"]["op"] == "max" and plan.param_map["budget"]["path"] == ["rent"]
    case = Case(spec.name, "x", STATE, {"capacity": 30, "budget": 500}, expect_error=False)
    case.expect_result, case.has_expected_result = [STATE["halls"]["H-2"]], True
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_a_post_that_only_reads() -> None:
    http = {"method": "post", "path": "/halls/lookup"}
    lookup = ToolSpec(
        "get_hall", "Fetch a hall by id or by name.", {"type": "object", "properties": {}}, http=http, mutates=True
    )
    assert tool_priors(lookup).mutates is False
    quote = ToolSpec(
        "quote_hire", "Prices a hire without booking it.", {"type": "object", "properties": {}}, http=http, mutates=True
    )
    assert tool_priors(quote).mutates is False
    book = ToolSpec(
        "book_hall",
        "Books a hall; the hall becomes `taken`.",
        {"type": "object", "properties": {}},
        http=http,
        mutates=True,
    )
    assert tool_priors(book).mutates is True


def test_a_record_looked_up_by_another_of_its_fields() -> None:
    from synth.envsynth.get_rules import lookup_keys

    schema = {
        "type": "object",
        "properties": {
            "tenants": collection(
                {"tenant_id": {"type": "string"}, "email": {"type": "string"}, "floor": {"type": "integer"}}
            )
        },
    }
    state = {
        "tenants": {
            "T-1": {"tenant_id": "T-1", "email": "ana@example.org", "floor": 2},
            "T-2": {"tenant_id": "T-2", "email": "bo@example.org", "floor": 5},
        }
    }
    params = {
        "tenant_id": {"type": "string"},
        "email": {"type": "string", "description": "Matched case-insensitively."},
    }
    spec = ToolSpec("get_tenant", "Look a tenant up by id or by email.", {"type": "object", "properties": params})
    plan = lookup_keys(
        spec, ToolPlan(kind="get", collection="tenants", key_field="tenant_id", key_param="tenant_id"), schema
    )
    assert plan.lookup_params == {"email": {"field": "email", "caseless": True}}
    by_mail = Case(spec.name, "x", state, {"email": "BO@example.org"}, expect_error=False)
    by_mail.expect_result, by_mail.has_expected_result = state["tenants"]["T-2"], True
    by_id = Case(spec.name, "x", state, {"tenant_id": "T-1"}, expect_error=False)
    by_id.expect_result, by_id.has_expected_result = state["tenants"]["T-1"], True
    unknown = Case(spec.name, "x", state, {"email": "cy@example.org"}, expect_error=True)
    res, err = run_cases(
        render_tool(spec, plan, schema), spec.name, [by_mail, by_id, unknown], SchemaResult(schema, {}, {}, "d")
    )
    assert err == "" and res.passed == 3
    options = {**params, "verbose": {"type": "boolean"}}  # another parameter that is no field: options, not keys
    spec = ToolSpec("get_tenant", "Look a tenant up.", {"type": "object", "properties": options})
    assert (
        lookup_keys(
            spec, ToolPlan(kind="get", collection="tenants", key_field="tenant_id", key_param="tenant_id"), schema
        ).lookup_params
        == {}
    )


def test_a_filter_on_a_field_of_the_records_that_name_them() -> None:
    """`lamp_serial` (or `serial`) finds the venue a lamp with that serial (any case) names; a date of the lamps
    does not filter venues."""
    schema = {
        "type": "object",
        "properties": {
            "venues": collection({"venue_id": {"type": "string"}, "city": {"type": "string"}}),
            "lamps": collection(
                {
                    "lamp_id": {"type": "string"},
                    "serial": {"type": "string"},
                    "venue_id": {"type": "string"},
                    "fitted": {"type": "string", "format": "date"},
                }
            ),
        },
    }
    cols = schema["properties"]
    assert map_param("lamp_serial", "venues", cols) == {
        "path": ["serial"],
        "via": None,
        "collection": "lamps",
        "reverse": "venue_id",
        "op": "eq",
    }
    assert map_param("serial", "venues", cols)["reverse"] == "venue_id"  # a text field of theirs, by its name
    assert map_param("fitted", "venues", cols) is None  # a date of theirs is no filter on the venue
    state = {
        "venues": {"V-1": {"venue_id": "V-1", "city": "Oslo"}, "V-2": {"venue_id": "V-2", "city": "Rome"}},
        "lamps": {
            "L-1": {"lamp_id": "L-1", "serial": "AB-77", "venue_id": "V-2"},
            "L-2": {"lamp_id": "L-2", "serial": "CD-12", "venue_id": "V-1"},
        },
    }
    spec = ToolSpec(
        "search_venues",
        "Searches venues; all filters are optional.",
        {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "lamp_serial": {"type": "string", "description": "the serial on a lamp (case-insensitive)"},
            },
        },
    )
    plan = refine_filter(spec, ToolPlan(kind="filter", collection="venues", key_field="venue_id"), schema)
    assert plan.param_map["lamp_serial"]["reverse"] == "venue_id"
    case = Case(spec.name, "x", state, {"lamp_serial": "ab-77"}, expect_error=False)
    case.expect_result, case.has_expected_result = [state["venues"]["V-2"]], True
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, [case], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 1
