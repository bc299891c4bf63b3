"""Quotes with lines: the answer's shape read from nested braces, one line per element of a list parameter (ids of
records, or objects naming them), line fields from the element, its record and a record it links, formulas with a
"doubled for <value>" modifier, an "is added except for <value>" term, line totals and sums over the lines."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.formula_rules import param_default, quote_plan
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.returns_shape import returned_fields
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


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
PRICE = ToolSpec(
    "price_moorings",
    "Prices several moorings for one skipper, without booking or charging anything. For each mooring the line is "
    "{mooring_id, pier_id, metres, charge, levy, line_total}: charge is metres times the berthing rate of the "
    "skipper's tier (basic 2.40, club 1.80 EUR), doubled for overnight; the pier's levy is added except for "
    "daytime. Returns {skipper_id, stay, rate, lines (same order as asked), total_metres, total}. Unknown "
    "skippers and moorings are refused.",
    {
        "type": "object",
        "properties": {
            "skipper_id": {"type": "string"},
            "mooring_ids": {"type": "array", "items": {"type": "string"}},
            "stay": {
                "type": "string",
                "enum": ["daytime", "overnight"],
                "description": "'daytime' (default) or 'overnight'.",
            },
        },
        "required": ["skipper_id", "mooring_ids"],
    },
)


def _runs(spec: ToolSpec, plan: ToolPlan, cases: list[tuple[dict, object]]) -> bool:
    tests = []
    for arguments, expected in cases:
        case = Case(spec.name, "x", STATE, arguments, expect_error=expected is None)
        if expected is not None:
            case.expect_result, case.has_expected_result = expected, True
        tests.append(case)
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, tests, SchemaResult(SCHEMA, {}, {}, "docs"))
    return err == "" and res.passed == len(cases)


def test_the_answer_shape_reads_nested_braces_remarks_placeholders_and_entries_given_elsewhere() -> None:
    text = (
        "Sums up a season. Returns {pier_id, boats (list of {boat_id, nights}, by arrival), by_kind: {<kind>: "
        "{boats, metres}}, stays, total (boats + stays)}. Each stay is {boat_id, arrived, left}."
    )
    fields = {f.name: f for f in returned_fields(text)}
    assert list(fields) == ["pier_id", "boats", "by_kind", "stays", "total"]
    assert [e.name for e in fields["boats"].entries] == ["boat_id", "nights"]
    assert fields["by_kind"].keyed_by == "kind" and [e.name for e in fields["by_kind"].entries] == ["boats", "metres"]
    assert [e.name for e in fields["stays"].entries] == ["boat_id", "arrived", "left"]
    assert fields["total"].remark == "boats + stays" and not fields["total"].entries
    assert returned_fields("Returns {a, b}")[1].name == "b" and returned_fields("Returns {only}") == []


def test_a_default_the_description_names_and_a_sum_term_that_is_no_write() -> None:
    assert param_default(PRICE.parameters["properties"]["stay"]) == "daytime"
    assert param_default({"enum": ["a", "b"], "description": "Defaults to b."}) == "b"
    assert param_default({"enum": ["a", "b"], "description": "Either."}) is None
    assert tool_priors(PRICE).mutates is False  # "the levy is added" is a term of the total, not a write


def test_lines_from_ids_with_linked_records_modifiers_and_totals() -> None:
    plan = quote_plan(PRICE, ToolPlan(kind="get_many", collection="moorings", batch_param="mooring_ids"), SCHEMA, STATE)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["rate"]["values"] == {"basic": 2.4, "club": 1.8}
    assert steps["total_metres"] == {"sum": "lines", "of": "metres"} and steps["total"]["of"] == "line_total"
    lines = steps["lines"]["lines"]
    assert lines["collection"] == "moorings" and lines["links"] == {"pier_id": "piers"}
    day = [
        {"mooring_id": "M1", "pier_id": "P1", "metres": 10, "charge": 18.0, "levy": 0.0, "line_total": 18.0},
        {"mooring_id": "M2", "pier_id": "P2", "metres": 12.5, "charge": 22.5, "levy": 0.0, "line_total": 22.5},
    ]
    night = [
        {**day[0], "charge": 36.0, "levy": 4.0, "line_total": 40.0},
        {**day[1], "charge": 45.0, "line_total": 45.0},
    ]
    head = {"skipper_id": "S1", "rate": 1.8}
    assert _runs(
        PRICE,
        plan,
        [
            (
                {"skipper_id": "S1", "mooring_ids": ["M1", "M2"]},
                {**head, "stay": "daytime", "lines": day, "total_metres": 22.5, "total": 40.5},
            ),
            (
                {"skipper_id": "S1", "mooring_ids": ["M1", "M2"], "stay": "overnight"},
                {**head, "stay": "overnight", "lines": night, "total_metres": 22.5, "total": 85.0},
            ),
            ({"skipper_id": "S1", "mooring_ids": ["M1", "M9"]}, None),
            ({"skipper_id": "S9", "mooring_ids": ["M1"]}, None),
        ],
    )


def test_lines_from_objects_that_name_their_record_and_a_sum_the_docs_describe() -> None:
    spec = ToolSpec(
        "price_visits",
        "Prices visits without charging anything; the fee is nights times the pier's levy. Returns {skipper_id, "
        "visits (list of {mooring_id, nights, levy, fee}), nights_booked}. nights_booked is the sum of the "
        "visits' nights.",
        {
            "type": "object",
            "properties": {
                "skipper_id": {"type": "string"},
                "visits": {
                    "type": "array",
                    "items": {"type": "object"},
                    "description": 'Entries of `{"mooring_id": string, "nights": integer}`.',
                },
            },
        },
        returns=None,
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
    assert _runs(spec, plan, [(args, expected)])


def test_quote_cases_name_the_test_states_records_so_the_gate_sees_a_success() -> None:
    plan = quote_plan(PRICE, ToolPlan(kind="get"), SCHEMA, STATE)
    unknown = Case(PRICE.name, "x", STATE, {"skipper_id": "S7", "mooring_ids": ["M7"]}, expect_error=True)
    made = existing_key_cases(plan, [unknown])
    assert [c.arguments for c in made] == [{"skipper_id": "S1", "mooring_ids": ["M1"]}]
