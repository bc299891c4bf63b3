"""Changes the docs make only from one state ("If the berth was `full`, it goes back to `open`"), an entry of a kind
the data has never logged (its shape read off the list's other entries), and name verbs that always write."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_conditions import conditional_sets
from synth.envsynth.docs_entries import named_entries
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

STATUS = {"type": "string", "x-enum": ["open", "full", "closed"]}
LOG = {
    "type": "object",
    "properties": {
        "on": {"type": "string"},
        "event": {"type": "string", "x-enum": ["joined", "closed"]},
        "sailor_id": {"type": "string"},
        "note": {"type": "string", "x-enum": ["", "Storm warning"]},
    },
}
BERTH = {
    "berth_id": {"type": "string"},
    "status": STATUS,
    "crew": {"type": "array", "items": {"type": "string"}},
    "log": {"type": "array", "items": LOG},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "berths": {"type": "object", "additionalProperties": {"type": "object", "properties": BERTH}},
        "sailors": {"type": "object", "additionalProperties": {"type": "object", "properties": {}}},
    },
}
ENTRIES = [
    {"on": "2031-01-02", "event": "joined", "sailor_id": "S1", "note": ""},
    {"on": "2031-01-03", "event": "joined", "sailor_id": "S2", "note": ""},
]
STATE = {
    "berths": {
        "B1": {"berth_id": "B1", "status": "full", "crew": ["S1", "S2"], "log": list(ENTRIES)},
        "B2": {"berth_id": "B2", "status": "open", "crew": ["S1"], "log": list(ENTRIES[:1])},
    },
    "sailors": {"S1": {}, "S2": {}},
}
LEAVE = ToolSpec(
    "leave_berth",
    "Takes a sailor off a berth's crew; the business date is 2031-02-03. A `left` entry (with the reason as its "
    "note) is appended to the berth's log. If the berth was `full`, it goes back to `open`.",
    {
        "type": "object",
        "properties": {"berth_id": {"type": "string"}, "sailor_id": {"type": "string"}, "reason": {"type": "string"}},
        "required": ["berth_id", "sailor_id"],
    },
)


def test_a_change_made_only_from_one_state() -> None:
    assert conditional_sets(LEAVE.description, BERTH) == [
        {"op": "set_if", "field": "status", "when": ["full"], "value": "open"}
    ]
    assert conditional_sets("If the berth was `full`, it goes back to `free`.", BERTH) == []  # no such state
    assert conditional_sets("The berth goes back to `open`.", BERTH) == []  # no condition: not this rule


def test_an_entry_of_a_kind_the_data_never_logged() -> None:
    (effect,) = named_entries(LEAVE.description, "berth", BERTH, LEAVE.parameters, list(STATE["berths"].values()), "X")
    assert effect["items"][0]["fields"] == {
        "on": {"from": "const", "value": "X"},
        "event": {"from": "const", "value": "left"},
        "sailor_id": {"from": "arg", "name": "sailor_id"},
        "note": {"from": "arg", "name": "reason", "default": ""},
    }


def test_the_list_edit_logs_and_reopens_a_full_berth_only() -> None:
    base = ToolPlan(
        kind="item_remove", collection="berths", key_param="berth_id", op_param="sailor_id", list_field="crew"
    )
    plan = refine_item(LEAVE, base, SCHEMA, LEAVE.description, STATE, "2031-02-03")
    full = Case("leave_berth", "x", STATE, {"berth_id": "B1", "sailor_id": "S2"}, expect_error=False)
    full.state_checks = [
        {"op": "field_equals", "collection": "berths", "key": "B1", "field": "status", "value": "open"}
    ]
    closed_state = {**STATE, "berths": {**STATE["berths"], "B2": {**STATE["berths"]["B2"], "status": "closed"}}}
    kept = Case("leave_berth", "x", closed_state, {"berth_id": "B2", "sailor_id": "S1"}, expect_error=False)
    log = ENTRIES[:1] + [{"on": "2031-02-03", "event": "left", "sailor_id": "S1", "note": ""}]
    kept.state_checks = [
        {"op": "field_equals", "collection": "berths", "key": "B2", "field": "status", "value": "closed"},
        {"op": "field_equals", "collection": "berths", "key": "B2", "field": "log", "value": log},
    ]
    res, err = run_cases(
        render_tool(LEAVE, plan, SCHEMA), "leave_berth", [full, kept], SchemaResult(SCHEMA, {}, {}, "d")
    )
    assert err == "" and res.passed == 2


def test_verbs_of_a_name_that_always_write() -> None:
    params = {"type": "object", "properties": {"berth_id": {"type": "string"}}}
    assert tool_priors(ToolSpec("cancel_mooring", "Ends a mooring.", params)).mutates is True
    assert tool_priors(ToolSpec("mooring_berth", "Ends a mooring.", params)).mutates is None  # no verb: the LLM says
