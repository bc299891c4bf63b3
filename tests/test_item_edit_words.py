"""How a caterer's docs word its list edits and changes (orders it calls bookings): an added dish line takes the
documented default portions, a dish the booking already carries has its portions raised instead of a second line,
the edit is allowed from the states quoted before the docs' own word for the record, a removal takes that many
portions off (the whole line when none are given, an error beyond what the line holds), an "Effects:" list sets the
status, and a "... goes back to `free`" about another record sets nothing on this one."""

from __future__ import annotations

from typing import Any

from synth.envsynth.collections import CollectionDraft
from synth.envsynth.item_plan import item_edit_plan
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.policy_rules import transition_rules
from synth.envsynth.priors import tool_priors
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
LINE = {"type": "object", "properties": {"dish_id": S, "name": S, "unit_price": N, "portions": INT}}
ORDER = {
    "order_id": S,
    "status": {"type": "string", "x-enum": ["draft", "confirmed", "served", "void"]},
    "dishes": {"type": "array", "items": LINE},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "menu": collection({"dish_id": S, "name": S, "unit_price": N}),
        "orders": collection(ORDER),
    },
}
ADD = ToolSpec(
    "add_order_dish",
    "Adds portions of a menu dish to a `draft` or `confirmed` booking. The line's name and unit price are copied "
    "from the menu. If the booking already carries that dish the portions are increased instead of adding a "
    "second line.",
    {
        "type": "object",
        "properties": {"order_id": S, "dish_id": S, "portions": {"type": "integer", "default": 1}},
        "required": ["order_id", "dish_id"],
    },
)
REMOVE = ToolSpec(
    "remove_order_dish",
    "Takes portions of a dish off a booking. Omit `portions` to drop the whole line.",
    {
        "type": "object",
        "properties": {"order_id": S, "dish_id": S, "portions": {"type": "integer", "description": "all when omitted"}},
        "required": ["order_id", "dish_id"],
    },
)


def _ctx() -> PlanContext:
    drafts = {
        "orders": CollectionDraft(name="orders", resource="order", fields=dict(ORDER), key_field="order_id"),
        "menu": CollectionDraft(
            name="menu",
            resource="dish",
            fields=dict(SCHEMA["properties"]["menu"]["additionalProperties"]["properties"]),
            key_field="dish_id",
        ),
    }
    return PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})


def _state() -> dict[str, Any]:
    return {
        "menu": {
            "D1": {"dish_id": "D1", "name": "Soup", "unit_price": 4.0},
            "D2": {"dish_id": "D2", "name": "Pie", "unit_price": 6.5},
        },
        "orders": {
            "O1": {
                "order_id": "O1",
                "status": "draft",
                "dishes": [{"dish_id": "D1", "name": "Soup", "unit_price": 4.0, "portions": 3}],
            },
            "O2": {"order_id": "O2", "status": "served", "dishes": []},
        },
    }


def _run(spec: ToolSpec, plan: ToolPlan, calls: list[tuple[dict, dict | None]]) -> None:
    run_calls(spec, plan, SCHEMA, _state, calls)


def test_an_added_line_defaults_merges_and_checks_the_state_before_the_docs_word() -> None:
    plan = item_edit_plan(ADD, tool_priors(ADD), _ctx(), mutates=True)
    assert plan.kind == "item_add" and plan.initial_values == {"portions": 1}
    sample = _state()
    sample["orders"]["O3"] = {"order_id": "O3", "status": "void", "dishes": [dict(sample["orders"]["O1"]["dishes"][0])]}
    sample["orders"]["O4"] = {"order_id": "O4", "status": "void", "dishes": [dict(sample["orders"]["O1"]["dishes"][0])]}
    sample["orders"]["O2"]["dishes"] = [{"dish_id": "D2", "name": "Pie", "unit_price": 6.5, "portions": 1}]
    plan = refine_item(ADD, plan, SCHEMA, ADD.description, sample)
    assert plan.preconditions == {"status": ["draft", "confirmed"]}
    assert {"op": "merge", "match": ["dish_id"], "sum": ["portions"]} in plan.effects
    merged, added = _state(), _state()
    merged["orders"]["O1"]["dishes"][0]["portions"] = 5
    added["orders"]["O1"]["dishes"].append({"dish_id": "D2", "name": "Pie", "unit_price": 6.5, "portions": 1})
    _run(
        ADD,
        plan,
        [
            ({"order_id": "O1", "dish_id": "D1", "portions": 2}, merged),
            ({"order_id": "O1", "dish_id": "D2"}, added),  # one portion when none are given
            ({"order_id": "O2", "dish_id": "D2"}, None),  # served: no more edits
        ],
    )


def test_a_removal_takes_portions_off_or_the_whole_line() -> None:
    plan = item_edit_plan(REMOVE, tool_priors(REMOVE), _ctx(), mutates=True)
    assert (plan.kind, plan.op_param, plan.count_field) == ("item_remove", "dish_id", "portions")
    fewer, gone = _state(), _state()
    fewer["orders"]["O1"]["dishes"][0]["portions"] = 1
    gone["orders"]["O1"]["dishes"] = []
    _run(
        REMOVE,
        plan,
        [
            ({"order_id": "O1", "dish_id": "D1", "portions": 2}, fewer),
            ({"order_id": "O1", "dish_id": "D1", "portions": 3}, gone),
            ({"order_id": "O1", "dish_id": "D1"}, gone),
            ({"order_id": "O1", "dish_id": "D1", "portions": 4}, None),  # more than the line holds
        ],
    )


def test_an_effects_list_sets_the_status_and_another_records_state_is_not_taken() -> None:
    spec = ToolSpec(
        "void_order",
        "Voids a booking that is still `draft`; served bookings cannot be voided.\n\n"
        "Effects: status `void`, the table goes back to `free` if it was held, and a log entry.",
        {"type": "object", "properties": {"order_id": S}},
    )
    sets, allowed = transition_rules(spec, {"properties": {"status": ORDER["status"]}}, "")
    assert sets == {"status": "void"} and allowed == {"status": ["draft"]}


def test_a_hyphenated_state_after_only_a_allows_the_call() -> None:
    spec = ToolSpec(
        "serve_order",
        'Only a part-paid booking can be served. The booking becomes "served".',
        {"type": "object", "properties": {"order_id": S}},
    )
    status = {"type": "string", "x-enum": ["draft", "part_paid", "served"]}
    assert transition_rules(spec, {"properties": {"status": status}}, "") == (
        {"status": "served"},
        {"status": ["part_paid"]},
    )


def test_the_merge_said_of_a_dish_already_on_the_booking() -> None:
    said = ADD.description.replace(
        "If the booking already carries that dish the portions are increased instead of adding a second line.",
        "If the dish is already on the booking its portions are increased, otherwise a line is appended.",
    )
    spec = ToolSpec(ADD.name, said, ADD.parameters)
    plan = refine_item(spec, item_edit_plan(spec, tool_priors(spec), _ctx(), mutates=True), SCHEMA, said, _state())
    assert {"op": "merge", "match": ["dish_id"], "sum": ["portions"]} in plan.effects
    unsaid = said.replace("already on the booking", "on the menu")
    plan = refine_item(spec, item_edit_plan(spec, tool_priors(spec), _ctx(), mutates=True), SCHEMA, unsaid, _state())
    assert not [e for e in plan.effects if e["op"] == "merge"]
