"""Boolean filter flags keep what their docs say: a boolean field, a closed field's value, two numbers compared, a
count below its cap ("at least one place free")."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.flag_rules import flag_conditions
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

BERTH = {
    "berth_id": {"type": "string"},
    "pier": {"type": "string", "x-enum": ["north", "OR"]},
    "usable": {"type": "boolean"},
    "moored": {"type": "integer"},
    "size": {"type": "integer"},
}
SCHEMA = {
    "type": "object",
    "properties": {"berths": {"type": "object", "additionalProperties": {"type": "object", "properties": BERTH}}},
}


def test_conditions_are_read_from_the_flags_sentence() -> None:
    text = "only_free=true keeps only berths that are usable and have moored < size."
    assert flag_conditions("only_free", text, BERTH) == [
        {"left": "moored", "op": "<", "right": "size"},
        {"field": "usable", "equals": True},
    ]
    assert flag_conditions("x", "If true, only berths on the north pier or nearby.", BERTH) == [
        {"field": "pier", "equals": "north"}  # "or" is no value `OR`
    ]
    assert flag_conditions("x", "Include archived berths.", BERTH) == []
    # "with at least one place free": the berth's other whole number stays below its cap (`size`)
    sized = {k: v for k, v in BERTH.items() if k != "pier"}
    assert flag_conditions("x", "If true, only usable berths with at least one place free.", sized) == [
        {"left": "moored", "op": "<", "right": "size"},
        {"field": "usable", "equals": True},
    ]


def test_a_true_flag_filters_and_a_false_one_does_not() -> None:
    props = {"pier": {"type": "string"}, "only_free": {"type": "boolean", "description": "Only berths with room."}}
    spec = ToolSpec(
        "list_berths",
        "List berths. only_free=true keeps only berths that are usable and have moored below size.",
        {"type": "object", "properties": props},
    )
    plan = refine_filter(spec, ToolPlan(kind="filter", collection="berths", filter_params=["pier"]), SCHEMA)
    assert set(plan.flag_filters) == {"only_free"}
    berths = {
        "B1": {"berth_id": "B1", "pier": "north", "usable": True, "moored": 1, "size": 2},
        "B2": {"berth_id": "B2", "pier": "north", "usable": True, "moored": 2, "size": 2},
        "B3": {"berth_id": "B3", "pier": "north", "usable": False, "moored": 0, "size": 2},
    }
    state = {"berths": berths}
    free = Case("list_berths", "x", state, {"only_free": True}, expect_error=False, expect_result=[berths["B1"]])
    every = Case(
        "list_berths", "x", state, {"only_free": False}, expect_error=False, expect_result=list(berths.values())
    )
    for c in (free, every):
        c.has_expected_result = True
    res, err = run_cases(
        render_tool(spec, plan, SCHEMA), "list_berths", [free, every], SchemaResult(SCHEMA, {}, {}, "docs")
    )
    assert err == "" and res.passed == 2


def test_a_list_whose_parameters_map_becomes_a_filter() -> None:
    # "at least one <unit> in `moored`": a number of the record bounded by a count; the list plan the call's verb
    # suggested ignores its parameters, so it becomes a filter once the flag's condition is read
    assert flag_conditions("x", "If true, only berths with at least one boat in `moored`.", BERTH) == [
        {"left": "moored", "op": ">=", "value": 1}
    ]
    assert flag_conditions("x", "Only berths with at least 2 boats in the moored count.", BERTH) == [
        {"left": "moored", "op": ">=", "value": 2}
    ]
    props = {"occupied": {"type": "boolean", "description": "Only berths with at least one boat in `moored`."}}
    spec = ToolSpec("list_berths", "List the berths.", {"type": "object", "properties": props})
    plan = refine_filter(spec, ToolPlan(kind="list", collection="berths"), SCHEMA)
    assert plan.kind == "filter" and set(plan.flag_filters) == {"occupied"}
    unmapped = ToolSpec(
        "list_berths", "List the berths.", {"type": "object", "properties": {"page": {"type": "integer"}}}
    )
    assert refine_filter(unmapped, ToolPlan(kind="list", collection="berths"), SCHEMA).kind == "list"
    berths = {
        "B1": {"berth_id": "B1", "pier": "north", "usable": True, "moored": 1, "size": 2},
        "B2": {"berth_id": "B2", "pier": "north", "usable": True, "moored": 0, "size": 2},
    }
    state = {"berths": berths}
    some = Case("list_berths", "x", state, {"occupied": True}, expect_error=False, expect_result=[berths["B1"]])
    every = Case("list_berths", "x", state, {}, expect_error=False, expect_result=list(berths.values()))
    for c in (some, every):
        c.has_expected_result = True
    res, err = run_cases(
        render_tool(spec, plan, SCHEMA), "list_berths", [some, every], SchemaResult(SCHEMA, {}, {}, "d")
    )
    assert err == "" and res.passed == 2
