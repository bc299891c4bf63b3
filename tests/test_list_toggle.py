"""A firing's extras added or removed by the action argument ("add: refused if the extra is already there or the
firing already has 3 extras; the extra is appended to the end of extras. remove: refused if absent."), allowed from
the states the docs list: planned by list_toggle.toggle_plan as a `by_mode` plan, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.list_toggle import toggle_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import allowed_cases
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S = {"type": "string"}
STATUS = {"type": "string", "x-enum": ["open", "loaded", "queued", "fired"]}
SCHEMA = {
    "type": "object",
    "properties": {"firings": collection({"firing_id": S, "status": STATUS, "extras": {"type": "array", "items": S}})},
}
DOC = (
    "Add or remove one extra on a firing. Checks, in this order: the firing exists; action is 'add' or 'remove'; the "
    "extra is one of the catalogue; the firing is 'open', 'loaded' or 'queued' ('Error: extras of firing <id> "
    "cannot be changed once it is <status>').\n\n"
    "add: refused if the extra is already there ('Error: firing <id> already has extra <extra>') or the firing "
    "already has 3 extras; the extra is appended to the end of extras.\n"
    "remove: refused if absent ('Error: firing <id> has no extra <extra>').\n\n"
    "No history entry is written. Returns the updated firing record."
)
PARAMS = {
    "firing_id": S,
    "action": {"type": "string", "enum": ["add", "remove"]},
    "extra": {"type": "string", "enum": ["glaze_test", "cone_pack", "photo", "witness"]},
}
SPEC = ToolSpec("toggle_extra", DOC, {"type": "object", "properties": PARAMS, "required": list(PARAMS)})
PLAN = ToolPlan(kind="update", collection="firings", key_field="firing_id", key_param="firing_id")


def _state() -> dict[str, Any]:
    def firing(key: str, status: str, extras: list[str]) -> dict[str, Any]:
        return {"firing_id": key, "status": status, "extras": extras}

    return {
        "firings": {
            "F1": firing("F1", "open", ["photo"]),
            "F2": firing("F2", "fired", ["photo"]),
            "F3": firing("F3", "queued", ["photo", "cone_pack", "witness"]),
        }
    }


def _with(key: str, extras: list[str]) -> dict[str, Any]:
    after = copy.deepcopy(_state())
    after["firings"][key]["extras"] = extras
    return after


def test_the_plan_adds_and_removes_the_argument_from_the_list() -> None:
    plan = toggle_plan(SPEC, PLAN, SCHEMA)
    assert plan is not None and plan.kind == "by_mode" and plan.op_param == "action"
    assert plan.modes["add"]["plan"]["effects"] == [{"op": "list_add", "field": "extras", "arg": "extra", "most": 3}]
    assert plan.modes["remove"]["plan"]["effects"] == [{"op": "list_drop", "field": "extras", "arg": "extra"}]
    assert plan.preconditions == {"status": ["open", "loaded", "queued"]}
    other = ToolSpec("toggle_extra", DOC.replace("add:", "grow:").replace("'add'", "'grow'"), SPEC.parameters)
    assert toggle_plan(other, PLAN, SCHEMA) is None  # no value the docs read as adding


def test_calls_add_remove_and_are_refused_as_documented() -> None:
    plan = toggle_plan(SPEC, PLAN, SCHEMA)
    assert plan is not None

    def call(key: str, action: str, extra: str) -> dict[str, Any]:
        return {"firing_id": key, "action": action, "extra": extra}

    calls = [
        (call("F1", "add", "glaze_test"), _with("F1", ["photo", "glaze_test"])),
        (call("F1", "remove", "photo"), _with("F1", [])),
        (call("F1", "add", "photo"), None),  # already there
        (call("F1", "remove", "witness"), None),  # absent
        (call("F3", "add", "glaze_test"), None),  # three already
        (call("F2", "add", "glaze_test"), None),  # fired: the docs allow no change
        (call("F9", "add", "glaze_test"), None),
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)


def test_the_case_the_docs_allow_leaves_the_refusals_open() -> None:
    plan = toggle_plan(SPEC, PLAN, SCHEMA)
    assert plan is not None
    seed = Case(SPEC.name, "x", _state(), {"firing_id": "F2", "action": "add", "extra": "photo"})
    [case] = allowed_cases(plan, [seed])
    assert case.origin == "docs-rule" and case.expect_error is None  # "photo" is listed already: either outcome
