"""A keyed write that logs what the call gives and keeps the record's latest figures in step, with no status change
(a buoy's depth sounding): the spelt-out entry, the fields "are updated" from it, the rules that refuse the call,
an argument's quoted default, and the answer its docs' example response shows; planned from the docs and run."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.example_answers import example_answer
from synth.envsynth.figure_terms import param_default
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.logged_updates import logged_checks, updated_fields
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

TODAY = "2026-04-14"
SOUNDING = {
    "type": "object",
    "properties": {"date": {"type": "string"}, "depth": {"type": "integer"}, "by": {"type": "string"}},
}
BUOY = {
    "buoy_id": {"type": "string"},
    "status": {"type": "string", "x-enum": ["moored", "adrift"]},
    "last_depth": {"type": "integer"},
    "last_sounded_on": {"type": "string", "x-enum": ["2026-04-01", "2026-04-14"]},
    "soundings": {"type": "array", "items": SOUNDING},
}
SCHEMA = {"type": "object", "properties": {"buoys": _collection(BUOY)}}
PARAMS = {
    "type": "object",
    "properties": {
        "buoy_id": {"type": "string"},
        "depth": {"type": "integer", "description": "the depth read, in whole metres"},
        "by": {"type": "string", "description": "`harbour` (default), `crew` or `yard`"},
    },
    "required": ["buoy_id", "depth"],
}
EXAMPLE = {"buoy_id": "B-1", "previous_depth": 40, "depth": 44, "change": 4, "date": TODAY, "by": "harbour"}
LOG = ToolSpec(
    "log_sounding",
    "Records a depth sounding taken today.\n\nRules: the buoy must be `moored`; the depth cannot be lower than the "
    "buoy's `last_depth`; a buoy takes at most one sounding per day (refused if `last_sounded_on` is already "
    'today).\n\nOn success `{"date": <today>, "depth": <depth>, "by": <by>}` is appended to `soundings`, and '
    "`last_depth` / `last_sounded_on` are updated.",
    PARAMS,
    returns={"type": "object", "properties": {k: {} for k in EXAMPLE}, "example": EXAMPLE},
)
POLICY = f"The business date is {TODAY}."
STATE = {
    "buoys": {
        "B-1": {
            "buoy_id": "B-1",
            "status": "moored",
            "last_depth": 40,
            "last_sounded_on": "2026-04-01",
            "soundings": [],
        },
        "B-2": {
            "buoy_id": "B-2",
            "status": "adrift",
            "last_depth": 12,
            "last_sounded_on": "2026-04-01",
            "soundings": [],
        },
        "B-3": {"buoy_id": "B-3", "status": "moored", "last_depth": 30, "last_sounded_on": TODAY, "soundings": []},
    }
}
PLAN = ToolPlan(kind="update", collection="buoys", key_field="buoy_id", key_param="buoy_id")
SCHEMA_RESULT = SchemaResult(SCHEMA, {}, {}, "docs")


def _planned() -> ToolPlan:
    plan = docs_transition(LOG, PLAN, SCHEMA, POLICY, list(STATE["buoys"].values()), STATE)
    assert plan is not None and plan.kind == "recorded_update"
    return plan


def test_the_fields_kept_in_step_and_the_rules() -> None:
    params = PARAMS["properties"]
    assert param_default(params["by"]) == "harbour" and param_default(params["depth"]) is None
    written = [
        {
            "op": "append",
            "field": "soundings",
            "items": [
                {
                    "fields": {
                        "date": {"from": "const", "value": TODAY},
                        "depth": {"from": "arg", "name": "depth"},
                        "by": {"from": "arg", "name": "by", "default": "harbour"},
                    }
                }
            ],
        }
    ]
    said = "`last_depth` / `last_sounded_on` are updated."
    assert updated_fields(said, BUOY, written, params) == [
        {"op": "set", "field": "last_depth", "source": {"from": "arg", "name": "depth"}},
        {"op": "set", "field": "last_sounded_on", "source": {"from": "const", "value": TODAY}},
    ]
    assert updated_fields("`last_depth` is updated to 3.", BUOY, written, params) == []  # a value it names instead
    assert updated_fields("`soundings` is updated.", BUOY, written, params) == []  # the list itself
    checks = logged_checks(LOG.description, BUOY, params, "buoys", TODAY)
    assert checks == [
        {"op": "arg_limit", "arg": "depth", "cmp": ">=", "expr": {"plus": [{"path": ["last_depth"]}]}},
        {"op": "differs", "a": {"from": "record", "path": ["last_sounded_on"]}, "b": {"from": "const", "value": TODAY}},
    ]
    higher = logged_checks("The depth cannot be higher than the buoy's `last_depth`.", BUOY, params, "buoys", None)
    assert higher[0]["cmp"] == "<="
    assert logged_checks("The depth cannot be lower than the pier's `last_depth`.", BUOY, params, "buoys", None) == []


def test_a_logged_write_appends_updates_and_refuses_as_its_docs_say() -> None:
    plan = _planned()
    assert plan.preconditions == {"status": ["moored"]}
    logged = copy.deepcopy(STATE)
    logged["buoys"]["B-1"].update(
        last_depth=44, last_sounded_on=TODAY, soundings=[{"date": TODAY, "depth": 44, "by": "harbour"}]
    )
    cases = [
        Case(LOG.name, "x", STATE, {"buoy_id": "B-1", "depth": 44}, expect_error=False),
        Case(LOG.name, "x", STATE, {"buoy_id": "B-1", "depth": 39}, expect_error=True),  # below the last depth
        Case(LOG.name, "x", STATE, {"buoy_id": "B-2", "depth": 50}, expect_error=True),  # adrift
        Case(LOG.name, "x", STATE, {"buoy_id": "B-3", "depth": 50}, expect_error=True),  # already sounded today
        Case(LOG.name, "x", STATE, {"buoy_id": "B-1", "depth": 40, "by": "crew"}, expect_error=False),
    ]
    cases[0].state_checks = [{"op": "equals", "state": logged}]
    res, err = run_cases(render_tool(LOG, plan, SCHEMA), LOG.name, cases, SCHEMA_RESULT)
    assert err == "" and res.passed == len(cases)
    unlogged = ToolSpec(LOG.name, LOG.description.replace("<depth>", "40"), LOG.parameters)
    unlogged = ToolSpec(LOG.name, unlogged.description.replace("<by>", "'yard'"), LOG.parameters)
    assert docs_transition(unlogged, PLAN, SCHEMA, POLICY) is None  # an entry holding no argument: no logged write


def test_a_key_case_meets_the_rules_so_the_gate_sees_a_success() -> None:
    plan = _planned()
    stale = copy.deepcopy(STATE)
    stale["buoys"] = {"B-3": stale["buoys"]["B-3"]}  # sounded today, and the generated depth is too low
    (case,) = existing_key_cases(plan, [Case(LOG.name, "x", stale, {"buoy_id": "Z", "depth": 1}, expect_error=True)])
    assert case.arguments == {"buoy_id": "B-3", "depth": 30}
    assert case.state["buoys"]["B-3"]["last_sounded_on"] == "2026-04-13"
    res, _ = run_cases(render_tool(LOG, plan, SCHEMA), LOG.name, [case], SCHEMA_RESULT)
    assert res.passed == 1


def test_the_answer_the_example_response_shows() -> None:
    plan = example_answer(LOG, _planned(), SCHEMA, STATE, TODAY)
    assert plan.output_fields == ["buoy_id", "previous_depth", "depth", "date", "by", "change"]
    assert plan.output_map == {
        "previous_depth": {"op": "before", "path": ["last_depth"]},
        "depth": {"op": "arg", "name": "depth"},
        "date": {"op": "const", "value": TODAY},
        "by": {"op": "arg", "name": "by", "default": "harbour"},
        "change": {"op": "answer_calc", "left": "depth", "operator": "-", "right": "previous_depth"},
    }
    cases = [Case(LOG.name, "x", STATE, {"buoy_id": "B-1", "depth": 47}, expect_error=False)]
    cases[0].expect_result = {
        "buoy_id": "B-1",
        "previous_depth": 40,
        "depth": 47,
        "date": TODAY,
        "by": "harbour",
        "change": 7,
    }
    res, err = run_cases(render_tool(LOG, plan, SCHEMA), LOG.name, cases, SCHEMA_RESULT)
    assert err == "" and res.passed == 1
    odd = ToolSpec(LOG.name, LOG.description, PARAMS, returns={"example": {**EXAMPLE, "change": 5}})
    assert example_answer(odd, _planned(), SCHEMA, STATE, TODAY).output_fields == []  # 5 is no combination
    whole = ToolSpec(LOG.name, LOG.description, PARAMS, returns={"example": {"buoy_id": "B-1", "last_depth": 44}})
    assert example_answer(whole, _planned(), SCHEMA, STATE, TODAY).output_fields == []  # the record's own shape
