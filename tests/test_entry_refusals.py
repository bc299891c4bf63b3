"""A line voided off a boat's tab, read from its docs: the tool's verb names no removal, but its HTTP method and its
description ("Removes an extra charge from the tab of ...") do; lines the harbour posts itself (`mooring`, `crane`)
"cannot be voided", so a call naming one is refused while the others go, and the existing-key case names a line the
call may take, so the publish gate sees it succeed. Planned, read, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.collections import CollectionDraft
from synth.envsynth.item_plan import item_edit_plan
from synth.envsynth.item_rules import refine_item
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.priors import tool_priors
from synth.envsynth.refusals import refused_entries
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
KINDS = ["mooring", "crane", "fuel", "chandlery"]
LINE = {"type": "object", "properties": {"line_id": S, "kind": {"type": "string", "enum": KINDS}, "amount": N}}
BOAT = {
    "boat_id": S,
    "status": {"type": "string", "x-enum": ["docked", "away"]},
    "tab": {"type": "array", "items": LINE},
}
SCHEMA = {"type": "object", "properties": {"boats": collection(BOAT)}}
TEXT = (
    "Void a tab line\n\nRemoves an extra charge from the tab of a `docked` boat. Lines the harbour posts itself "
    "(`mooring`, `crane`) cannot be voided.\n\nErrors: 404: Unknown boat or line; 409: Not docked, or a harbour line."
)
PARAMS = {"type": "object", "properties": {"boat_id": S, "line_id": S}, "required": ["boat_id", "line_id"]}
SPEC = ToolSpec(
    "void_tab_line", TEXT, PARAMS, mutates=True, http={"method": "delete", "path": "/boats/{boat_id}/tab/{line_id}"}
)


def _ctx() -> PlanContext:
    boats = CollectionDraft(name="boats", resource="boat", fields=dict(BOAT), key_field="boat_id")
    return PlanContext(collections={"boats": boats}, singletons={}, client=None, votes=1, trees={})


def _state() -> dict[str, Any]:
    tab = [
        {"line_id": "L1", "kind": "mooring", "amount": 40.0},
        {"line_id": "L2", "kind": "fuel", "amount": 12.5},
        {"line_id": "L3", "kind": "crane", "amount": 30.0},
    ]
    return {"boats": {"B1": {"boat_id": "B1", "status": "docked", "tab": tab}}}


def _plan() -> ToolPlan:
    plan = item_edit_plan(SPEC, tool_priors(SPEC), _ctx(), mutates=True)
    assert plan is not None and plan.kind == "item_remove" and plan.item_key == "line_id"
    return refine_item(SPEC, plan, SCHEMA, TEXT, _state(), None)


def test_the_refusal_is_read_for_the_field_whose_values_it_quotes() -> None:
    assert refused_entries(TEXT, LINE["properties"], "tab", "line_id", "line_id") == [
        {"op": "entry_refused", "list": "tab", "match": "line_id", "arg": "line_id", "field": "kind", "in": KINDS[:2]}
    ]
    assert refused_entries(TEXT.replace("`crane`", "`winch`"), LINE["properties"], "tab", "line_id", "line_id") == []
    assert refused_entries(TEXT.replace("cannot be", "can be"), LINE["properties"], "tab", "line_id", "line_id") == []


def test_a_harbour_line_is_refused_and_an_extra_goes() -> None:
    plan = _plan()
    after = copy.deepcopy(_state())
    del after["boats"]["B1"]["tab"][1]
    calls = [
        ({"boat_id": "B1", "line_id": "L2"}, after),
        ({"boat_id": "B1", "line_id": "L1"}, None),  # mooring: posted by the harbour
        ({"boat_id": "B1", "line_id": "L3"}, None),  # crane: the same
        ({"boat_id": "B1", "line_id": "L9"}, None),  # no such line
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)


def test_the_existing_key_case_names_a_line_the_call_may_take() -> None:
    (case,) = existing_key_cases(_plan(), [Case(SPEC.name, "x", _state(), {"boat_id": "Z9", "line_id": "L7"})])
    assert case.arguments == {"boat_id": "B1", "line_id": "L2"}
