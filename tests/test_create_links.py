"""What a create's docs say it does to the records it names: numbers that move ("the skipper's trips_out goes up by
1"), dates counted from the business date ("return_by today plus the boat's hire_days"), a state the named record
takes ("the boat becomes 'hired'", read per clause), and an entry named by its kind on the named record's list ("a
'hire' event is added to the skipper's log", its fields read off the data's entries); planned and rendered."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

LOG = {
    "type": "object",
    "properties": {
        "date": {"type": "string"},
        "action": {"type": "string", "x-enum": ["hire", "return"]},
        "ref": {"type": "string"},
        "amount": {"type": "number"},
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": _collection(
            {
                "skipper_id": {"type": "string"},
                "status": {"type": "string", "x-enum": ["active", "barred"]},
                "trips_out": {"type": "integer"},
                "log": {"type": "array", "items": LOG},
            }
        ),
        "boats": _collection(
            {
                "boat_id": {"type": "string"},
                "status": {"type": "string", "x-enum": ["free", "hired"]},
                "hire_days": {"type": "integer"},
            }
        ),
        "hires": _collection(
            {
                "hire_id": {"type": "string"},
                "skipper_id": {"type": "string"},
                "boat_id": {"type": "string"},
                "status": {"type": "string", "x-enum": ["open", "closed"]},
                "return_by": {"type": "string", "format": "date"},
            }
        ),
    },
}
SAMPLE = {
    "skippers": {
        "S1": {
            "skipper_id": "S1",
            "status": "active",
            "trips_out": 1,
            "log": [
                {"date": "2031-01-02", "action": "hire", "ref": "H01", "amount": 0.0},
                {"date": "2031-01-09", "action": "return", "ref": "H01", "amount": 4.5},
            ],
        },
        "S2": {
            "skipper_id": "S2",
            "status": "active",
            "trips_out": 0,
            "log": [{"date": "2031-01-05", "action": "hire", "ref": "H02", "amount": 0.0}],
        },
    },
    "boats": {"B1": {"boat_id": "B1", "status": "free", "hire_days": 10}},
    "hires": {
        "H01": {"hire_id": "H01", "skipper_id": "S1", "boat_id": "B1", "status": "closed", "return_by": "2031-01-12"},
        "H02": {"hire_id": "H02", "skipper_id": "S2", "boat_id": "B1", "status": "closed", "return_by": "2031-01-15"},
    },
}
HIRE = ToolSpec(
    "hire_boat",
    "Hires out a boat; the business date is 2031-02-03. The skipper must be 'active' and the boat 'free'. Makes a "
    "hire with status 'open' and return_by today plus the boat's hire_days. The boat becomes 'hired'. The skipper's "
    "trips_out goes up by 1, and a 'hire' event is added to the skipper's log. Unknown skippers or boats are "
    "not found.",
    {
        "type": "object",
        "properties": {"skipper_id": {"type": "string"}, "boat_id": {"type": "string"}},
        "required": ["skipper_id", "boat_id"],
    },
)


def test_a_create_moves_dates_and_logs_on_the_records_it_names() -> None:
    base = ToolPlan(kind="create", collection="hires", key_field="hire_id", fields=["skipper_id", "boat_id"])
    base.id_type, base.key_format = "pattern", {"prefix": "H", "digits": 2}
    plan = refine_create(HIRE, base, SCHEMA, HIRE.description, "2031-02-03", SAMPLE)
    assert plan.ref_sets == [{"param": "boat_id", "collection": "boats", "field": "status", "value": "hired"}]
    ops = sorted(e["op"] for e in plan.effects)
    assert ops == ["adjust", "days_later", "ref_append"]
    [entry] = [e for e in plan.effects if e["op"] == "ref_append"]
    assert entry["items"][0]["fields"]["ref"] == {"from": "own_key"}  # every hire entry names a hire
    after = copy.deepcopy(SAMPLE)
    after["hires"]["H03"] = {
        "hire_id": "H03",
        "skipper_id": "S2",
        "boat_id": "B1",
        "status": "open",
        "return_by": "2031-02-13",
    }
    after["boats"]["B1"]["status"] = "hired"
    after["skippers"]["S2"]["trips_out"] = 1
    after["skippers"]["S2"]["log"].append({"date": "2031-02-03", "action": "hire", "ref": "H03", "amount": 0.0})
    case = Case(HIRE.name, "x", SAMPLE, {"skipper_id": "S2", "boat_id": "B1"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    missing = Case(HIRE.name, "x", SAMPLE, {"skipper_id": "S9", "boat_id": "B1"}, expect_error=True)
    schema = SchemaResult(SCHEMA, {}, {}, "docs")
    res, err = run_cases(render_tool(HIRE, plan, SCHEMA), HIRE.name, [case, missing], schema)
    assert err == "" and res.passed == 2


def test_dates_need_a_number_to_count_and_apostrophes_are_not_quotes() -> None:
    from synth.envsynth.lasting_dates import days_later

    own = SCHEMA["properties"]["hires"]["additionalProperties"]["properties"]
    cols = SCHEMA["properties"]
    assert days_later("return_by today plus 7 days", "return_by", own, cols, "2031-02-03")["days"] == 7
    assert days_later("return_by today plus the boat's status", "return_by", own, cols, "2031-02-03") is None
    assert days_later("return_by today plus 7 days", "return_by", own, cols, None) is None  # no business date
    text = "A new hire is created, return_by today plus the boat's hire_days, status 'open'; the boat becomes 'hired'."
    base = ToolPlan(kind="create", collection="hires", key_field="hire_id", fields=["skipper_id", "boat_id"])
    plan = refine_create(HIRE, base, SCHEMA, text, "2031-02-03", SAMPLE)
    assert plan.initial_values["status"] == "open"
    assert [s["value"] for s in plan.ref_sets] == ["hired"]


def test_a_condition_holds_back_only_the_change_it_leads_up_to() -> None:
    base = ToolPlan(kind="create", collection="hires", key_field="hire_id", fields=["skipper_id", "boat_id"])
    later = "A new hire is made; the boat becomes 'hired', and the skipper is told if the weather turns."
    plan = refine_create(HIRE, base, SCHEMA, later, "2031-02-03", SAMPLE)
    assert [s["value"] for s in plan.ref_sets] == ["hired"]  # the 'if' is about a later clause
    before = "A new hire is made; if the skipper asks twice, the boat becomes 'hired'."
    plan = refine_create(HIRE, base, SCHEMA, before, "2031-02-03", SAMPLE)
    assert plan.ref_sets == []  # a condition it cannot read leads up to the change
    for own in ("When the hire is made, the boat becomes 'hired'.", "Once booked, the boat becomes 'hired'."):
        plan = refine_create(HIRE, base, SCHEMA, own, "2031-02-03", SAMPLE)
        assert [s["value"] for s in plan.ref_sets] == ["hired"], own  # the call itself is no condition


def test_a_transition_logs_on_the_record_its_record_names() -> None:
    from synth.envsynth.policy_rules import docs_transition

    close = ToolSpec(
        "close_hire",
        "Closes an open hire as of the business date (2031-02-03). Sets status `closed`; a 'return' event is added "
        "to the skipper's log. Errors: hire not found; the hire is not open.",
        {"type": "object", "properties": {"hire_id": {"type": "string"}}, "required": ["hire_id"]},
    )
    base = ToolPlan(kind="update", collection="hires", key_field="hire_id", key_param="hire_id")
    plan = docs_transition(close, base, SCHEMA, "", list(SAMPLE["hires"].values()), SAMPLE)
    assert plan is not None and not [e for e in plan.effects if e["op"] == "ref_append"]  # one entry: no guess
    sample = copy.deepcopy(SAMPLE)
    sample["skippers"]["S1"]["log"][1]["amount"] = 0.0
    sample["skippers"]["S2"]["log"].append({"date": "2031-01-20", "action": "return", "ref": "H02", "amount": 0.0})
    plan = docs_transition(close, base, SCHEMA, "", list(sample["hires"].values()), sample)
    [entry] = [e for e in plan.effects if e["op"] == "ref_append"]
    assert entry["via"] == "skipper_id" and entry["field"] == "log"
    state = copy.deepcopy(sample)
    state["hires"]["H02"]["status"] = "open"
    after = copy.deepcopy(state)
    after["hires"]["H02"]["status"] = "closed"
    after["skippers"]["S2"]["log"].append({"date": "2031-02-03", "action": "return", "ref": "H02", "amount": 0.0})
    case = Case(close.name, "x", state, {"hire_id": "H02"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(close, plan, SCHEMA), close.name, [case], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_a_list_of_allowed_states_stays_whole_and_counts_keep_their_condition() -> None:
    from synth.envsynth.answer_extras import derived_field
    from synth.envsynth.priors import tool_priors

    text = "The boat must be 'free', 'hired' or 'free'; a new hire is made."
    base = ToolPlan(kind="create", collection="hires", key_field="hire_id", fields=["skipper_id", "boat_id"])
    plan = refine_create(HIRE, base, SCHEMA, text + " Unknown boats are not found.", "2031-02-03", SAMPLE)
    assert plan.ref_requires["boat_id"]["status"] == ["free", "hired", "free"]
    cols = SCHEMA["properties"]
    own = cols["skippers"]["additionalProperties"]["properties"]
    quoted = "`open_hires` counts hires with status `open`."
    assert derived_field("open_hires", own, quoted, cols, "skippers")["where"] == {"status": "open"}
    unread = "`open_hires` counts hires with status `open` whose boat is free."
    assert derived_field("open_hires", own, unread, cols, "skippers") is None
    params = {"type": "object", "properties": {"boat_id": {"type": "string"}}}
    check_in = ToolSpec("check_in_boat", "Checks a boat in without charging anything; it becomes 'free'.", params)
    assert tool_priors(check_in).mutates is None


def test_an_entry_on_the_record_an_argument_names_when_the_record_holds_no_link() -> None:
    from synth.envsynth.linked_logs import linked_entries

    text = "Adds the skipper to the boat's queue. A 'hire' event is added to the skipper's log."
    params = {"type": "object", "properties": {"boat_id": {"type": "string"}, "skipper_id": {"type": "string"}}}
    assert linked_entries(text, "boats", SCHEMA, params, SAMPLE, "2031-02-03") == []  # refs to hires: unexplained
    sample = copy.deepcopy(SAMPLE)
    for skipper in sample["skippers"].values():
        for entry in skipper["log"]:
            entry["ref"] = "B1"  # every hire entry names a boat, the call's record
    [entry] = linked_entries(text, "boats", SCHEMA, params, sample, "2031-02-03")
    assert entry["via_arg"] == "skipper_id" and "via" not in entry
    assert entry["items"][0]["fields"]["ref"] == {"from": "own_key"}
    assert linked_entries(text, "boats", SCHEMA, {"type": "object", "properties": {}}, sample, "2031-02-03") == []


def test_an_entry_dated_from_the_record_brings_its_path_reader() -> None:
    source = {"from": "days", "base": ["return_by"], "collection": "boats", "via": "boat_id", "source": "hire_days"}
    effect = {"op": "append", "field": "notes", "items": [{"fields": {"due": source}}]}
    plan = ToolPlan(kind="create", collection="hires", key_field="hire_id", fields=["boat_id"], effects=[effect])
    code = render_tool(HIRE, plan, SCHEMA)
    assert "dig_hire_boat(record" in code and "def dig_hire_boat(node, path)" in code
    compile(code, "<hire>", "exec")
