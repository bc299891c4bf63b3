"""Answer fields learned from recorded calls (an allotment society): a plot's answer carries its field's `soil`
(the field its `field_code` names) and the ids of the plot's open tasks; rendered, the plan answers so."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_outputs import answered_fields
from synth.spec import ToolSpec
from tests.schemas import collection

SCHEMA = {
    "type": "object",
    "properties": {
        "plots": collection(
            {"plot_id": {"type": "string"}, "field_code": {"type": "string"}, "size": {"type": "number"}}
        ),
        "fields": collection({"field_code": {"type": "string"}, "soil": {"type": "string"}}),
        "tasks": collection(
            {"task_id": {"type": "string"}, "plot_id": {"type": "string"}, "state": {"type": "string"}}
        ),
    },
}
STATE = {
    "fields": {"NF": {"field_code": "NF", "soil": "clay"}, "SF": {"field_code": "SF", "soil": "loam"}},
    "plots": {
        "P-1": {"plot_id": "P-1", "field_code": "NF", "size": 120.0},
        "P-2": {"plot_id": "P-2", "field_code": "SF", "size": 90.0},
        "P-3": {"plot_id": "P-3", "field_code": "SF", "size": 60.0},
    },
    "tasks": {
        "T-1": {"task_id": "T-1", "plot_id": "P-1", "state": "open"},
        "T-2": {"task_id": "T-2", "plot_id": "P-1", "state": "done"},
        "T-3": {"task_id": "T-3", "plot_id": "P-2", "state": "open"},
        "T-4": {"task_id": "T-4", "plot_id": "P-1", "state": "open"},
        "T-5": {"task_id": "T-5", "plot_id": "P-2", "state": "done"},
    },
}
GET = ToolSpec("get_plot", "A plot.", {"type": "object", "properties": {"plot_id": {"type": "string"}}})
PLAN = ToolPlan(kind="get", collection="plots", key_field="plot_id", key_param="plot_id")


def _recorded(plot: str, answer: dict) -> Case:
    case = Case(GET.name, "trace", STATE, {"plot_id": plot}, expect_error=False)
    case.expect_result, case.has_expected_result = answer, True
    return case


def _answer(plot: str, open_tasks: list[str]) -> dict:
    record = STATE["plots"][plot]
    soil = STATE["fields"][record["field_code"]]["soil"]
    return {"plot_id": plot, "size": record["size"], "soil": soil, "open_tasks": open_tasks}


def test_linked_fields_and_id_lists_from_recorded_answers() -> None:
    recorded = [_recorded("P-1", _answer("P-1", ["T-1", "T-4"])), _recorded("P-2", _answer("P-2", ["T-3"]))]
    plan = answered_fields(PLAN, recorded)
    assert plan is not None and plan.output_fields == ["plot_id", "size", "soil", "open_tasks"]
    assert plan.output_map["soil"] == {"op": "eq", "via": "field_code", "collection": "fields", "path": ["soil"]}
    assert plan.output_map["open_tasks"] == {
        "op": "ids",
        "collection": "tasks",
        "ref": "plot_id",
        "where": {"state": ["open"]},
    }
    unseen = _recorded("P-3", _answer("P-3", []))  # a plot no recording showed
    res, err = run_cases(render_tool(GET, plan, SCHEMA), GET.name, [unseen], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_no_rule_from_one_recording_or_disagreeing_answers() -> None:
    assert answered_fields(PLAN, [_recorded("P-1", _answer("P-1", ["T-1", "T-4"]))]) is None
    odd = _answer("P-2", ["T-3"])
    odd["soil"] = "sand"  # no linked record holds it
    assert answered_fields(PLAN, [_recorded("P-1", _answer("P-1", ["T-1", "T-4"])), _recorded("P-2", odd)]) is None
    whole = [_recorded(p, copy.deepcopy(STATE["plots"][p])) for p in ("P-1", "P-2")]
    assert answered_fields(PLAN, whole) is None  # the record as stored: nothing to learn
    listed = [_answer(p, []) for p in ("P-1", "P-2")]
    for answer in listed:  # a list of objects no stored record holds: no rule, and no crash
        answer["open_tasks"] = [{"task_id": "T-1"}]
    assert answered_fields(PLAN, [_recorded(p, a) for p, a in zip(("P-1", "P-2"), listed)]) is None
