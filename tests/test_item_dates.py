"""A value's own bullet item that allows it only on or after (before) a date of the record ("- `landed`: the voyage
can only be recorded on or after its `eta`") gives a `dated` check guarded on the argument holding that value
(param_dates.value_dates); a `by_mode` plan (mode_rules.mode_transition) puts it on that value's sub-plan only, so
the rendered tool refuses `landed` for a voyage still due after the business date and accepts the other value."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.mode_rules import mode_transition
from synth.envsynth.param_dates import value_dates
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

TODAY = "2026-04-14"
S = {"type": "string"}
OWN = {"voyage_id": S, "boat_id": S, "eta": S, "status": S}
BY_ENUM = {"voyage_id": S, "outcome": {"type": "string", "enum": ["landed", "lost"]}}
BY_WORDS = {"voyage_id": S, "outcome": {"type": "string", "description": "Either `landed` or `lost`."}}
LANDED = "- `landed`: the voyage can only be recorded on or after its `eta`."


def _dated(field: str, cmp: str, value: str) -> dict[str, Any]:
    when = {"arg": "outcome", "in": [value]}
    return {"op": "dated", "field": field, "cmp": cmp, "value": TODAY, "when": when}


def test_an_item_allows_its_value_on_or_after_or_on_or_before_a_date() -> None:
    assert value_dates(LANDED, BY_ENUM, OWN, TODAY) == [_dated("eta", "<=", "landed")]
    before = "- `lost`: the boat can only be declared on or before the voyage's `eta`."
    assert value_dates(before, BY_ENUM, OWN, TODAY) == [_dated("eta", ">=", "lost")]
    shouted = "- `landed`: the voyage can only be recorded ON OR AFTER its `eta`."
    assert value_dates(shouted, BY_ENUM, OWN, TODAY) == [_dated("eta", "<=", "landed")]


def test_an_argument_without_an_enum_takes_the_values_its_description_quotes() -> None:
    assert value_dates(LANDED, BY_WORDS, OWN, TODAY) == [_dated("eta", "<=", "landed")]
    unquoted = {"voyage_id": S, "outcome": {"type": "string", "description": "Either landed or lost."}}
    assert value_dates(LANDED, unquoted, OWN, TODAY) == []  # no value named: no argument holds `landed`


def test_the_item_that_says_it_gets_the_check_and_not_its_neighbour() -> None:
    text = (
        "Closes a voyage.\n\n- `lost`: the skipper files a report.\n"
        "- `landed`: the boat is moored in the harbour; it can only be recorded on or\n  after its `eta`.\n"
    )
    assert value_dates(text, BY_ENUM, OWN, TODAY) == [_dated("eta", "<=", "landed")]
    flipped = (
        "- `landed`: the boat is moored in the harbour.\n"
        "- `lost`: the boat can only be declared on or before its `eta`; the skipper files a report.\n"
    )
    assert value_dates(flipped, BY_ENUM, OWN, TODAY) == [_dated("eta", ">=", "lost")]


def test_no_check_without_a_business_date_a_field_of_the_record_or_a_single_holder() -> None:
    assert value_dates(LANDED, BY_ENUM, OWN, None) == []
    assert value_dates(LANDED, BY_ENUM, {"voyage_id": S, "status": S}, TODAY) == []  # the record has no `eta`
    two = {**BY_ENUM, "berth_state": {"type": "string", "description": "`landed` or `moored`."}}
    assert value_dates(LANDED, two, OWN, TODAY) == []  # which argument the item speaks of is not said
    assert value_dates("- `moored`: can only be recorded on or after its `eta`.", BY_ENUM, OWN, TODAY) == []


def test_a_paragraph_after_the_items_belongs_to_no_item() -> None:
    text = (
        "- `landed`: the boat is moored in the harbour.\n- `lost`: the skipper files a report.\n\n"
        "A voyage can only be closed on or after its `eta`."
    )
    assert value_dates(text, BY_ENUM, OWN, TODAY) == []


def test_the_dated_check_compares_the_records_date_with_the_business_date() -> None:
    after = {"op": "dated", "field": "eta", "cmp": "<=", "value": TODAY}  # "on or after its `eta`"
    assert fg_check(after, {}, {"eta": "2026-04-10"}, {})
    assert fg_check(after, {}, {"eta": TODAY}, {})
    assert not fg_check(after, {}, {"eta": "2026-04-15"}, {})
    assert fg_check(after, {}, {"boat_id": "B1"}, {})  # no date: nothing to hold it to
    before = {**after, "cmp": ">="}  # "on or before its `eta`"
    assert not fg_check(before, {}, {"eta": "2026-04-13"}, {})
    assert fg_check(before, {}, {"eta": TODAY}, {})
    assert fg_check(before, {}, {"eta": "2026-05-01"}, {})


VOYAGE = {**OWN, "status": {"type": "string", "x-enum": ["at_sea", "landed", "lost"]}}
SCHEMA = {"type": "object", "properties": {"voyages": collection(VOYAGE)}}
ITEMS = (
    "\n\n- `landed`: the voyage can only be recorded on or after its `eta`; the status becomes `landed`.\n"
    "- `lost`: the status becomes `lost`.\n\nReturns the voyage."
)
CLOSE_ARGS = {
    "type": "object",
    "properties": {"voyage_id": S, "status": {"type": "string", "enum": ["landed", "lost"]}},
    "required": ["voyage_id", "status"],
}
CLOSE = ToolSpec("close_voyage", f"Closes a voyage at sea. The business date is {TODAY}." + ITEMS, CLOSE_ARGS)
PLAN = ToolPlan(kind="update", collection="voyages", key_field="voyage_id", key_param="voyage_id")
STATE = {
    "voyages": {
        "V1": {"voyage_id": "V1", "boat_id": "B1", "eta": "2026-04-20", "status": "at_sea"},  # still due
        "V2": {"voyage_id": "V2", "boat_id": "B2", "eta": TODAY, "status": "at_sea"},
        "V3": {"voyage_id": "V3", "boat_id": "B3", "eta": "2026-04-02", "status": "at_sea"},
        "V4": {"voyage_id": "V4", "boat_id": "B4", "status": "at_sea"},  # no eta stored
    }
}


def test_the_landed_mode_alone_holds_the_check() -> None:
    plan = mode_transition(CLOSE, PLAN, SCHEMA, "")
    assert plan is not None and plan.kind == "by_mode" and plan.op_param == "status"
    dated = {"op": "dated", "field": "eta", "cmp": "<=", "value": TODAY}  # no `when`: the mode is the guard
    assert plan.modes["landed"]["plan"]["checks"] == [dated]
    assert not [c for c in plan.modes["lost"]["plan"]["checks"] if c["op"] == "dated"]
    undated = ToolSpec("close_voyage", "Closes a voyage at sea." + ITEMS, CLOSE_ARGS)
    plain = mode_transition(undated, PLAN, SCHEMA, "")
    assert plain is not None and plain.modes["landed"]["plan"]["checks"] == []  # no business date stated
    told = mode_transition(undated, PLAN, SCHEMA, f"The harbour's business date is {TODAY}.")
    assert told is not None and told.modes["landed"]["plan"]["checks"] == [dated]  # the policy states it


def test_the_rendered_tool_refuses_landing_before_the_eta_and_takes_the_rest() -> None:
    plan = mode_transition(CLOSE, PLAN, SCHEMA, "")
    assert plan is not None
    calls: list[tuple[str, str, bool]] = [
        ("V1", "landed", False),  # the eta is after the business date
        ("V2", "landed", True),  # on the eta
        ("V3", "landed", True),  # after the eta
        ("V4", "landed", True),  # no eta to hold it to
        ("V1", "lost", True),  # the other value, whatever the date
        ("V3", "lost", True),
    ]
    cases = []
    for key, status, accepted in calls:
        case = Case(CLOSE.name, "x", STATE, {"voyage_id": key, "status": status}, expect_error=not accepted)
        if accepted:
            after = copy.deepcopy(STATE)
            after["voyages"][key]["status"] = status
            case.state_checks = [{"op": "equals", "state": after}]
        else:
            case.state_checks = [{"op": "unchanged"}]
        cases.append(case)
    res, err = run_cases(render_tool(CLOSE, plan, SCHEMA), CLOSE.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases), [(calls[f.index], f.message) for f in res.failures]
