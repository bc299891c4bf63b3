"""Changes the docs make only from one state ("if the berth is `crowded`, its status becomes `calm`"), an entry of a
quoted kind the data has never logged (its shape read off the list's other entries), and name verbs that always
write."""

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

STATUS = {"type": "string", "x-enum": ["calm", "crowded", "shut"]}
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
        "B1": {"berth_id": "B1", "status": "crowded", "crew": ["S1", "S2"], "log": list(ENTRIES)},
        "B2": {"berth_id": "B2", "status": "shut", "crew": ["S1"], "log": list(ENTRIES[:1])},
    },
    "sailors": {"S1": {}, "S2": {}},
}
STRIKE = ToolSpec(
    "strike_sailor",
    "Strikes a sailor from a berth's crew (business date 2031-02-03). One `struck` line (the reason as its note) "
    "gets written to its log; if the berth is `crowded`, its status becomes `calm`.",
    {
        "type": "object",
        "properties": {"berth_id": {"type": "string"}, "sailor_id": {"type": "string"}, "reason": {"type": "string"}},
        "required": ["berth_id", "sailor_id"],
    },
)


def test_a_change_made_only_from_one_state_of_the_record_itself() -> None:
    assert conditional_sets(STRIKE.description, BERTH, "berth") == [
        {"op": "set_if", "field": "status", "when": ["crowded"], "value": "calm"}
    ]
    assert conditional_sets("if the berth is `crowded`, it moves to `free`.", BERTH, "berth") == []  # no such state
    assert conditional_sets("The berth returns to `calm`.", BERTH, "berth") == []  # no condition: not this rule
    assert conditional_sets("if the pier is `crowded`, the berth becomes `calm`.", BERTH, "berth") == []


def test_an_entry_of_a_quoted_kind_the_data_never_logged() -> None:
    records = list(STATE["berths"].values())
    (effect,) = named_entries(STRIKE.description, "berth", BERTH, STRIKE.parameters, records, "X")
    assert effect["items"][0]["fields"] == {
        "on": {"from": "const", "value": "X"},
        "event": {"from": "const", "value": "struck"},
        "sailor_id": {"from": "arg", "name": "sailor_id"},
        "note": {"from": "arg", "name": "reason", "default": ""},
    }
    unquoted = "One new line gets written to its log."  # no kind the docs name
    assert named_entries(unquoted, "berth", BERTH, STRIKE.parameters, records, "X") == []


def test_the_list_edit_logs_and_calms_a_crowded_berth_only() -> None:
    base = ToolPlan(
        kind="item_remove", collection="berths", key_param="berth_id", op_param="sailor_id", list_field="crew"
    )
    plan = refine_item(STRIKE, base, SCHEMA, STRIKE.description, STATE, "2031-02-03")
    crowded = Case("strike_sailor", "x", STATE, {"berth_id": "B1", "sailor_id": "S2"}, expect_error=False)
    status = {"op": "field_equals", "collection": "berths", "field": "status"}
    crowded.state_checks = [{**status, "key": "B1", "value": "calm"}]
    shut = Case("strike_sailor", "x", STATE, {"berth_id": "B2", "sailor_id": "S1"}, expect_error=False)
    log = ENTRIES[:1] + [{"on": "2031-02-03", "event": "struck", "sailor_id": "S1", "note": ""}]
    shut.state_checks = [
        {**status, "key": "B2", "value": "shut"},
        {"op": "field_equals", "collection": "berths", "key": "B2", "field": "log", "value": log},
    ]
    cases = [crowded, shut]
    res, err = run_cases(render_tool(STRIKE, plan, SCHEMA), "strike_sailor", cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 2


def test_verbs_of_a_name_that_always_write() -> None:
    params = {"type": "object", "properties": {"berth_id": {"type": "string"}}}
    assert tool_priors(ToolSpec("cancel_mooring", "Ends a mooring.", params)).mutates is True
    assert tool_priors(ToolSpec("issue_notes", "Lists the notes of a mooring.", params)).mutates is None  # a noun
    assert tool_priors(ToolSpec("mooring_berth", "Ends a mooring.", params)).mutates is None  # no verb: the LLM says


def test_open_reads_unless_its_docs_say_what_it_changes() -> None:
    params = {"type": "object", "properties": {"names": {"type": "array", "items": {"type": "string"}}}}
    opened = tool_priors(ToolSpec("open_nodes", "Open specific nodes in the graph by their names.", params))
    assert opened.verb_kind == "get" and opened.mutates is False
    ticket = ToolSpec("open_ticket", "Opens a ticket for a berth; the berth's status becomes `flagged`.", params)
    assert tool_priors(ticket).verb_kind == "create" and tool_priors(ticket).mutates is True
