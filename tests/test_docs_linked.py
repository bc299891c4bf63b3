"""A transition's changes to the records its record names: "frees the berth (`status` `free`, `boat_id` null)",
"the berth becomes `free`", "the berth's status becomes 'free'"; read from the docs and rendered."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_linked import linked_sets
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

TEXT = {"type": "string"}
BERTHS = {
    "berth_id": {"type": "string"},
    "status": {"type": "string", "enum": ["free", "taken", "closed"]},
    "boat_id": {"type": ["string", "null"]},
}
MOORINGS = {
    "mooring_id": {"type": "string"},
    "berth_id": {"type": "string", "x-references": "berths"},
    "status": {"type": "string", "enum": ["active", "ended"]},
}
SCHEMA = {
    "type": "object",
    "properties": {
        name: {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
        for name, props in (("berths", BERTHS), ("moorings", MOORINGS))
    },
}
STATE = {
    "berths": {"B1": {"berth_id": "B1", "status": "taken", "boat_id": "BT9"}},
    "moorings": {"M1": {"mooring_id": "M1", "berth_id": "B1", "status": "active"}},
}
FREE = {"op": "ref_set", "collection": "berths", "via": "berth_id", "field": "status", "value": "free"}
UNNAMED = {"op": "ref_set", "collection": "berths", "via": "berth_id", "field": "boat_id", "value": None}


def test_the_forms_the_docs_state_a_named_records_change_in() -> None:
    assert linked_sets("Ends it and frees the berth (`status` `free`, `boat_id` null).", "moorings", SCHEMA) == [
        FREE,
        UNNAMED,
    ]
    assert linked_sets("The status becomes 'ended'; the berth becomes `free`.", "moorings", SCHEMA) == [FREE]
    assert linked_sets("The berth's status becomes 'free' again.", "moorings", SCHEMA) == [FREE]
    assert linked_sets("The berth is released and becomes `free`.", "moorings", SCHEMA) == [FREE]


def test_a_list_headed_by_the_named_record_says_its_changes_with_its() -> None:
    text = "The mooring ends. The berth is released: its `boat_id` is cleared and its status returns to 'free'."
    assert linked_sets(text, "moorings", SCHEMA) == [FREE, UNNAMED]
    assert linked_sets("The berth's boat_id is cleared.", "moorings", SCHEMA) == [UNNAMED]
    assert linked_sets("The berth's status is cleared.", "moorings", SCHEMA) == []  # a status may not be null
    elided = "The mooring ends; the berth's status becomes 'free' and its boat_id null."
    assert linked_sets(elided, "moorings", SCHEMA) == [FREE, UNNAMED]
    assert linked_sets("The berth is released: its `boat_id` is cleared if it was taken.", "moorings", SCHEMA) == []
    assert linked_sets("The mooring is closed: its `boat_id` is cleared.", "moorings", SCHEMA) == []  # not the berth


def test_values_that_do_not_fit_and_other_states_are_not_read() -> None:
    assert linked_sets("The berth must be `taken`.", "moorings", SCHEMA) == []  # a check, not a change
    assert linked_sets("The berth becomes `sunk`.", "moorings", SCHEMA) == []  # no field holds that value
    assert linked_sets("The mooring becomes `ended`.", "moorings", SCHEMA) == []  # the record itself
    assert linked_sets("The berth becomes `free`.", "berths", SCHEMA) == []  # no record it names


def test_a_transition_changes_the_named_record_with_it() -> None:
    end = ToolSpec(
        "end_mooring",
        "Ends an active mooring. Sets status `ended` and frees the berth (`status` `free`, `boat_id` null). "
        "Errors: the mooring is not active.",
        {"type": "object", "properties": {"mooring_id": {"type": "string"}}, "required": ["mooring_id"]},
    )
    plan = docs_transition(end, ToolPlan(kind="update", collection="moorings", key_param="mooring_id"), SCHEMA, "")
    assert plan is not None and plan.effects[-2:] == [FREE, UNNAMED]
    after = copy.deepcopy(STATE)
    after["moorings"]["M1"]["status"] = "ended"
    after["berths"]["B1"] = {"berth_id": "B1", "status": "free", "boat_id": None}
    case = Case("end_mooring", "x", STATE, {"mooring_id": "M1"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(end, plan, SCHEMA), "end_mooring", [case], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_an_entry_field_of_text_takes_an_empty_text_when_its_optional_parameter_is_left_out() -> None:
    from synth.envsynth.docs_appends import docs_appends

    log = {"type": "object", "properties": {"event": {"type": "string"}, "note": {"type": "string"}}}
    props = {"log": {"type": "array", "items": log}}
    params = {"mooring_id": {"type": "string"}, "reason": {"type": "string"}}
    [effect] = docs_appends("A log entry {event: 'ended', note: reason} is appended.", props, params)
    assert effect["items"][0]["fields"]["note"] == {"from": "arg", "name": "reason", "default": ""}
    loose = {"type": "array", "items": {"type": "object"}}  # nothing says the note is text: left as it is
    [effect] = docs_appends("A log entry {event: 'ended', note: reason} is appended.", {"log": loose}, params)
    assert effect["items"][0]["fields"]["note"] == {"from": "arg", "name": "reason"}


def test_conditions_and_errors_about_a_named_record_change_nothing() -> None:
    text = "Ends a mooring (status becomes `ended`). Fails if the berth is marked `closed`."
    assert linked_sets(text, "moorings", SCHEMA) == []
    assert linked_sets("Only when the berth becomes `free` may it end.", "moorings", SCHEMA) == []


def test_an_optional_argument_kept_on_the_record_is_kept_only_when_given() -> None:
    end = ToolSpec(
        "end_mooring",
        "Ends an active mooring. Sets status `ended`.",
        {
            "type": "object",
            "properties": {"mooring_id": {"type": "string"}, "remark": {"type": "string"}},
            "required": ["mooring_id"],
        },
    )
    plan = docs_transition(end, ToolPlan(kind="update", collection="moorings", key_param="mooring_id"), SCHEMA, "")
    assert plan is not None and plan.effects[-1] == {
        "op": "set",
        "field": "end_remark",
        "source": {"from": "arg", "name": "remark"},
        "if_given": True,
    }
    bare = copy.deepcopy(STATE)
    bare["moorings"]["M1"]["status"] = "ended"
    given = copy.deepcopy(bare)
    given["moorings"]["M1"]["end_remark"] = "gale"
    cases = [
        Case("end_mooring", "x", STATE, {"mooring_id": "M1"}, expect_error=False),
        Case("end_mooring", "x", STATE, {"mooring_id": "M1", "remark": "gale"}, expect_error=False),
    ]
    cases[0].state_checks = [{"op": "equals", "state": bare}]
    cases[1].state_checks = [{"op": "equals", "state": given}]
    res, err = run_cases(render_tool(end, plan, SCHEMA), "end_mooring", cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 2


def _logged() -> dict:
    """SCHEMA with a `log` of {date, status, note} entries on the moorings."""
    entry = {"type": "object", "properties": {"date": TEXT, "status": MOORINGS["status"], "note": TEXT}}
    logged = copy.deepcopy(SCHEMA)
    logged["properties"]["moorings"]["additionalProperties"]["properties"]["log"] = {"type": "array", "items": entry}
    return logged


def _end(text: str, schema: dict) -> tuple[ToolSpec, ToolPlan]:
    """An `end_mooring` tool of these docs and the transition plan read from them."""
    end = ToolSpec(
        "end_mooring", text, {"type": "object", "properties": {"mooring_id": TEXT}, "required": ["mooring_id"]}
    )
    plan = docs_transition(end, ToolPlan(kind="update", collection="moorings", key_param="mooring_id"), schema, "")
    assert plan is not None
    return end, plan


def _logged_state() -> dict:
    return {**copy.deepcopy(STATE), "moorings": {"M1": {**STATE["moorings"]["M1"], "log": []}}}


def test_a_written_entry_shows_a_field_of_the_named_record_as_the_call_found_it() -> None:
    from tests.tool_calls import run_calls

    logged = _logged()
    end, plan = _end(
        "Ends the mooring. Its status becomes `ended` with a log entry {date, status: 'ended', note: 'left by "
        "<boat_id>'}; the berth's status becomes 'free' and its boat_id null. The business date is 2031-05-02.",
        logged,
    )
    after = _logged_state()
    after["moorings"]["M1"]["status"] = "ended"
    after["moorings"]["M1"]["log"] = [{"date": "2031-05-02", "status": "ended", "note": "left by BT9"}]
    after["berths"]["B1"].update(status="free", boat_id=None)
    run_calls(end, plan, logged, _logged_state, [({"mooring_id": "M1"}, after)])


def test_the_states_a_transition_acts_on_said_of_its_own_noun() -> None:
    text = (
        "Assigns a crew to a mooring. The mooring must be 'active' or 'ended'. The mooring's crew is set, its "
        "status becomes 'active' and a note is kept."
    )
    spec = ToolSpec("assign_crew", text, {"type": "object", "properties": {"mooring_id": {"type": "string"}}})
    plan = docs_transition(spec, ToolPlan(kind="update", collection="moorings", key_param="mooring_id"), SCHEMA, "")
    assert plan is not None and plan.preconditions == {"status": ["active", "ended"]}
    other = text.replace("The mooring must be", "The berth must be")  # another record's state: no precondition
    plan = docs_transition(
        ToolSpec("assign_crew", other, spec.parameters),
        ToolPlan(kind="update", collection="moorings", key_param="mooring_id"),
        SCHEMA,
        "",
    )
    assert plan is not None and plan.preconditions == {}


def test_the_records_own_field_cleared_and_a_note_showing_what_it_held() -> None:
    from synth.envsynth.docs_linked import own_cleared, record_links
    from tests.tool_calls import run_calls

    logged = _logged()
    own = logged["properties"]["moorings"]["additionalProperties"]["properties"]
    own["berth_id"] = {"type": ["string", "null"], "x-references": "berths"}
    links = record_links(own, logged["properties"], "moorings")
    assert own_cleared("Its `berth_id` is cleared to null.", own, "mooring", links, logged["properties"]) == [
        "berth_id"
    ]
    assert own_cleared("Its `status` is cleared.", own, "mooring", links, logged["properties"]) == []  # not nullable
    headed = "The berth is released: its `berth_id` is cleared."  # the berth's, were it to have one
    assert own_cleared(headed, own, "mooring", links, logged["properties"]) == []
    end, plan = _end(
        "Ends the mooring. Its `berth_id` is cleared to null, its status becomes 'ended' and a log entry "
        "{date, status: 'ended', note: 'left <berth_id>'} is appended. The business date is 2031-05-02.",
        logged,
    )
    after = _logged_state()
    after["moorings"]["M1"].update(status="ended", berth_id=None)
    after["moorings"]["M1"]["log"] = [{"date": "2031-05-02", "status": "ended", "note": "left B1"}]
    run_calls(end, plan, logged, _logged_state, [({"mooring_id": "M1"}, after)])


def test_a_named_record_freed_with_its_fields_in_brackets_unquoted() -> None:
    text = "The mooring ends. On success the berth is freed (status 'free', boat_id null)."
    assert linked_sets(text, "moorings", SCHEMA) == [FREE, UNNAMED]
