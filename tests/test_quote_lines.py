"""Quotes with lines: the answer's shape read from nested braces, one line per element of a list parameter (ids of
records, or objects naming them), line fields from the element, its record and a record it links, formulas with a
"doubled when <value>" modifier, an "is added unless <value>" term, line totals and sums over the lines; maps
grouped by a list field, with linked records, keyed fields and max(); and what is left alone (a nested object, a
map with no definitions, a total the docs define otherwise, an exception no parameter can hold)."""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.figure_terms import param_default, stated_formulas
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.returns_shape import returned_fields
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": _collection({"skipper_id": {"type": "string"}, "tier": {"type": "string"}}),
        "piers": _collection({"pier_id": {"type": "string"}, "levy": {"type": "number"}}),
        "moorings": _collection(
            {
                "mooring_id": {"type": "string"},
                "pier_id": {"type": "string", "x-references": "piers"},
                "metres": {"type": "number"},
            }
        ),
    },
}
STATE = {
    "skippers": {"S1": {"skipper_id": "S1", "tier": "club"}, "S2": {"skipper_id": "S2", "tier": "basic"}},
    "piers": {"P1": {"pier_id": "P1", "levy": 4.0}, "P2": {"pier_id": "P2", "levy": 0.0}},
    "moorings": {
        "M1": {"mooring_id": "M1", "pier_id": "P1", "metres": 10},
        "M2": {"mooring_id": "M2", "pier_id": "P2", "metres": 12.5},
    },
}
STAY = {"type": "string", "enum": ["daytime", "overnight"], "description": "Length of stay; defaults to daytime."}
PARAMS = {
    "type": "object",
    "properties": {
        "skipper_id": {"type": "string"},
        "mooring_ids": {"type": "array", "items": {"type": "string"}},
        "stay": STAY,
    },
    "required": ["skipper_id", "mooring_ids"],
}


def _spec(text: str) -> ToolSpec:
    return ToolSpec("price_moorings", text, PARAMS)


PRICE = _spec(
    "Works out what a set of moorings would cost a skipper; nothing is booked. Answers with {skipper_id, stay, "
    "rate, moorings: [{mooring_id, pier_id, metres, charge, levy, berth_total}], total_metres, total}, the "
    "moorings in the order asked. charge = metres x the berthing rate of the skipper's tier (basic 2.40, club "
    "1.80), doubled when overnight. A pier levy is added unless daytime. Unknown skippers or moorings: an error."
)


def _runs(spec: ToolSpec, plan: ToolPlan, cases: list[tuple[dict, object]]) -> None:
    tests = []
    for arguments, expected in cases:
        case = Case(spec.name, "x", STATE, arguments, expect_error=expected is None)
        if expected is not None:
            case.expect_result, case.has_expected_result = expected, True
        tests.append(case)
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, tests, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases), err


def _plan(spec: ToolSpec) -> ToolPlan:
    return quote_plan(spec, ToolPlan(kind="get_many", collection="moorings", batch_param="mooring_ids"), SCHEMA, STATE)


def test_the_answer_shape_reads_lists_maps_objects_remarks_and_entries_given_elsewhere() -> None:
    text = (
        "Gives a pier's season. Answers with {pier_id, arrivals: [{boat_id, nights}], per_class: {<class>: "
        "{boats, metres}}, harbour_master: {name, phone}, busiest (the longest stay), departures}. Every departure "
        "has {boat_id, left}. Logs {event: 'viewed'}."
    )
    fields = {f.name: f for f in returned_fields(text)}
    assert list(fields) == ["pier_id", "arrivals", "per_class", "harbour_master", "busiest", "departures"]
    assert [e.name for e in fields["arrivals"].entries] == ["boat_id", "nights"] and fields["arrivals"].is_list
    assert fields["per_class"].keyed_by == "class" and not fields["per_class"].is_list
    assert [e.name for e in fields["harbour_master"].entries] == ["name", "phone"]
    assert not fields["harbour_master"].is_list and fields["busiest"].remark == "the longest stay"
    assert [e.name for e in fields["departures"].entries] == ["boat_id", "left"] and fields["departures"].is_list
    assert returned_fields("Returns {a, b}")[1].name == "b" and returned_fields("Returns {only}") == []
    # a value written in braces is no shape; a later answer group still is
    assert [f.name for f in returned_fields("Returns the trip with log [{event: 'left'}]. Returns {a, b}.")] == [
        "a",
        "b",
    ]


def test_a_default_the_description_names_and_a_sum_term_that_is_no_write() -> None:
    assert param_default(STAY) == "daytime"
    assert param_default({"enum": ["a", "b"], "description": "'b' (default)."}) == "b"
    assert param_default({"enum": ["day", "midday"], "description": "'midday' (default)"}) == "midday"
    assert param_default({"enum": ["a", "b"], "description": "Either."}) is None
    assert tool_priors(PRICE).mutates is False  # "a levy is added" is a term of the total, not a write


def test_lines_from_ids_with_linked_records_modifiers_and_totals() -> None:
    plan = _plan(PRICE)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["rate"]["values"] == {"basic": 2.4, "club": 1.8}
    assert steps["total_metres"] == {"sum": "moorings", "of": "metres"} and steps["total"]["of"] == "berth_total"
    lines = steps["moorings"]["lines"]
    assert lines["collection"] == "moorings" and lines["links"] == {"pier_id": "piers"}
    day = [
        {"mooring_id": "M1", "pier_id": "P1", "metres": 10, "charge": 18.0, "levy": 0.0, "berth_total": 18.0},
        {"mooring_id": "M2", "pier_id": "P2", "metres": 12.5, "charge": 22.5, "levy": 0.0, "berth_total": 22.5},
    ]
    night = [
        {**day[0], "charge": 36.0, "levy": 4.0, "berth_total": 40.0},
        {**day[1], "charge": 45.0, "berth_total": 45.0},
    ]
    head = {"skipper_id": "S1", "rate": 1.8}
    _runs(
        PRICE,
        plan,
        [
            (
                {"skipper_id": "S1", "mooring_ids": ["M1", "M2"]},
                {**head, "stay": "daytime", "moorings": day, "total_metres": 22.5, "total": 40.5},
            ),
            (
                {"skipper_id": "S1", "mooring_ids": ["M1", "M2"], "stay": "overnight"},
                {**head, "stay": "overnight", "moorings": night, "total_metres": 22.5, "total": 85.0},
            ),
            ({"skipper_id": "S1", "mooring_ids": ["M1", "M9"]}, None),
            ({"skipper_id": "S9", "mooring_ids": ["M1"]}, None),
        ],
    )


def test_a_total_the_docs_define_wins_over_the_sum_and_a_discount_is_taken_off() -> None:
    text = PRICE.description.replace("moorings in the order asked.", "moorings in the order asked; total = 7 x 3.")
    steps = dict(_plan(_spec(text)).quote["steps"])
    assert steps["total"] == {"op": "*", "args": [{"num": 7}, {"num": 3}]}
    rebated = PRICE.description.replace("charge, levy, berth_total", "charge, rebate, berth_total").replace(
        "A pier levy is added unless daytime.", "rebate = charge x 0.1."
    )
    line = dict(dict(_plan(_spec(rebated)).quote["steps"])["moorings"]["lines"]["steps"])
    assert line["berth_total"]["round"] == {"op": "-", "args": [{"val": "charge"}, {"val": "rebate"}]}


def test_what_is_left_alone_a_nested_object_a_map_with_no_definitions_and_an_exception_no_parameter_holds() -> None:
    nested = _spec(
        "Shows a skipper without booking anything. Answers with {skipper_id, boat: {metres, pier_id}, tier}. "
        "Each mooring reads {mooring_id, metres}."
    )
    assert _plan(nested).kind != "quote"  # `boat` is one object, not lines over mooring_ids
    keyed = _spec("Prices nothing. Answers with {skipper_id, per_pier: {<pier>: {metres, levy}}, tier}.")
    assert _plan(keyed).kind != "quote"
    odd = _spec(PRICE.description.replace("unless daytime", "unless stormy"))
    assert _plan(odd).kind != "quote"  # the levy's exception names no value a parameter holds


def test_lines_from_objects_that_name_their_record_and_a_total_of_a_line_field() -> None:
    visits: dict[str, Any] = {
        "type": "array",
        "items": {"type": "object"},
        "description": 'Each visit as an object such as {"mooring_id": "M1", "nights": 2}.',
    }
    spec = ToolSpec(
        "price_visits",
        "Sums up visits for a skipper and books nothing. Returns {skipper_id, visits (list of {mooring_id, nights, "
        "levy, fee}), nights_booked}: fee is nights times the pier's levy, and nights_booked totals the nights of "
        "all visits.",
        {"type": "object", "properties": {"skipper_id": {"type": "string"}, "visits": visits}},
    )
    plan = quote_plan(spec, ToolPlan(kind="get"), SCHEMA, STATE)
    assert plan.kind == "quote", plan.evidence
    lines = dict(plan.quote["steps"])["visits"]["lines"]
    assert lines["key"] == "mooring_id" and lines["names"] == {"element": "visit", "record": "mooring"}
    args = {"skipper_id": "S2", "visits": [{"mooring_id": "M1", "nights": 2}, {"mooring_id": "M2", "nights": 1}]}
    expected = {
        "skipper_id": "S2",
        "visits": [
            {"mooring_id": "M1", "nights": 2, "levy": 4.0, "fee": 8.0},
            {"mooring_id": "M2", "nights": 1, "levy": 0.0, "fee": 0.0},
        ],
        "nights_booked": 3,
    }
    _runs(spec, plan, [(args, expected)])


def test_quote_cases_name_the_test_states_records_so_the_gate_sees_a_success() -> None:
    plan = _plan(PRICE)
    unknown = Case(PRICE.name, "x", STATE, {"skipper_id": "S7", "mooring_ids": ["M7"]}, expect_error=True)
    made = existing_key_cases(plan, [unknown])
    assert [c.arguments for c in made] == [{"skipper_id": "S1", "mooring_ids": ["M1"]}]


GROUPED_SCHEMA = {
    "type": "object",
    "properties": {
        "harbours": _collection(
            {
                "harbour_id": {"type": "string"},
                "floor": {"type": "object"},
                "harbour_fee": {"type": "number"},
            }
        ),
        "visits": _collection(
            {
                "visit_id": {"type": "string"},
                "harbour_id": {"type": "string", "x-references": "harbours"},
                "stops": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"pier": {"type": "string"}, "metres": {"type": "number"}},
                    },
                },
            }
        ),
    },
}
GROUPED_STATE = {
    "harbours": {"H1": {"harbour_id": "H1", "floor": {"north": 20, "south": 5}, "harbour_fee": 12.5}},
    "visits": {
        "V1": {
            "visit_id": "V1",
            "harbour_id": "H1",
            "stops": [{"pier": "north", "metres": 8}, {"pier": "south", "metres": 6.5}, {"pier": "north", "metres": 4}],
        }
    },
}


TALLY = ToolSpec(
    "tally_visit",
    "Tallies a visit pier by pier; it saves nothing. Answers with {visit_id, harbour_fee, piers: {<pier>: {metres, "
    "dues}}, dues_total, owed}. Within a pier: metres is the total of its stops; dues is max(metres, the harbour's "
    "floor for that pier). owed = dues_total + harbour_fee.",
    {"type": "object", "properties": {"visit_id": {"type": "string"}}, "required": ["visit_id"]},
)


def _tally(state: dict, expected: object) -> None:
    plan = quote_plan(TALLY, ToolPlan(kind="get", collection="visits", key_param="visit_id"), GROUPED_SCHEMA, {})
    assert plan.kind == "quote", plan.evidence
    case = Case(TALLY.name, "x", state, {"visit_id": "V1"}, expect_error=False)
    case.expect_result, case.has_expected_result = expected, True
    schema = SchemaResult(GROUPED_SCHEMA, {}, {}, "docs")
    res, err = run_cases(render_tool(TALLY, plan, GROUPED_SCHEMA), TALLY.name, [case], schema)
    assert err == "" and res.passed == 1, err


def test_a_map_grouped_by_a_list_field_with_a_keyed_field_of_a_linked_record_and_max() -> None:
    plan = quote_plan(TALLY, ToolPlan(kind="get", collection="visits", key_param="visit_id"), GROUPED_SCHEMA, {})
    assert plan.quote["linked"] == {"harbour_id": ["visit_id", "harbour_id", "harbours"]}
    steps = dict(plan.quote["steps"])
    assert steps["piers"]["groups"]["by"] == "pier" and steps["harbour_fee"]["param"] == "harbour_id"
    assert steps["piers"]["groups"]["steps"][1][1]["op"] == "max"
    expected = {
        "visit_id": "V1",
        "harbour_fee": 12.5,
        "piers": {"north": {"metres": 12, "dues": 20}, "south": {"metres": 6.5, "dues": 6.5}},
        "dues_total": 26.5,
        "owed": 39.0,
    }
    _tally(GROUPED_STATE, expected)
    dangling = {**GROUPED_STATE, "visits": {"V1": {**GROUPED_STATE["visits"]["V1"], "harbour_id": "H9"}}}
    no_harbour = {"harbour_fee": None, "owed": None, "dues_total": None}  # a link to nothing is no 0
    gone = {"north": {"metres": 12, "dues": None}, "south": {"metres": 6.5, "dues": None}}
    _tally(dangling, {**expected, **no_harbour, "piers": gone})
    unlinked = TALLY.description.replace("max(metres, the harbour's floor for that pier)", "min(metres, 10)")
    unlinked = unlinked.replace("harbour_fee, piers", "piers").replace(", owed}", "}")
    plan = quote_plan(ToolSpec(TALLY.name, unlinked, TALLY.parameters), ToolPlan(kind="get"), GROUPED_SCHEMA, {})
    assert plan.kind == "quote" and "linked" not in plan.quote  # no figure reads the harbour


def test_min_and_a_keyed_field_needs_an_object_and_assignments_joined_by_and() -> None:
    assert stated_formulas("dues", "metres = 3 and dues = min(metres, 4). Other.") == ["min(metres, 4)"]
    spec = ToolSpec(
        TALLY.name,
        TALLY.description.replace("max(metres, the harbour's floor for that pier)", "min(metres, 10)"),
        TALLY.parameters,
    )
    plan = quote_plan(spec, ToolPlan(kind="get"), GROUPED_SCHEMA, {})
    assert dict(plan.quote["steps"])["piers"]["groups"]["steps"][1][1] == {
        "op": "min",
        "args": [{"val": "metres"}, {"num": 10}],
    }
    flat = TALLY.description.replace("the harbour's floor for that pier", "the harbour's floor")
    plan = quote_plan(ToolSpec(TALLY.name, flat, TALLY.parameters), ToolPlan(kind="get"), GROUPED_SCHEMA, {})
    assert plan.kind != "quote"  # an object is no number to compare with
