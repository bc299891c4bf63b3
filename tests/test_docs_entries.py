"""Entries the docs name by kind only ("A `joined` entry is appended to the crew's log"), read off the sample
data's entries of that kind, with the business date the docs state; and entries of a new state the docs never
mention but the data logs (a crew that goes `docked` logs a `docked` entry)."""

from __future__ import annotations

from synth.envsynth.docs_entries import business_date, named_entries, seen_entries

LOG = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"day": {"type": "string"}, "event": {"type": "string", "x-enum": ["joined", "left"]}},
    },
}
PROPS = {"crew_id": {"type": "string"}, "log": LOG}
RECORDS = [
    {"crew_id": "C1", "log": [{"day": "2025-01-02", "event": "joined", "sailor_id": "S1", "note": ""}]},
    {"crew_id": "C2", "log": [{"day": "2025-01-05", "event": "joined", "sailor_id": "S4", "note": ""}]},
    {"crew_id": "C3", "log": [{"day": "2025-01-06", "event": "left", "sailor_id": "S2", "note": "moved"}]},
]
PARAMS = {"type": "object", "properties": {"crew_id": {}, "sailor_id": {}, "why": {}}, "required": ["crew_id"]}


def test_the_business_date_is_read_when_the_docs_state_one() -> None:
    assert business_date("All rules use the current date (today) **2031-07-04**.") == "2031-07-04"
    assert business_date("Fees are counted as of the business date 2031-07-05.") == "2031-07-05"
    assert business_date("Created on 2031-07-05 and changed 2031-08-01.") is None
    assert business_date("The due date must be after the current date and before 2032-01-01.") is None


def test_a_named_entry_takes_arguments_constants_of_its_kind_and_the_business_date() -> None:
    text = "Adds a sailor. A `joined` entry is appended to the crew's log."
    effects = named_entries(text, "crew", PROPS, PARAMS, RECORDS, "2025-03-10")
    assert effects == [
        {
            "op": "append",
            "field": "log",
            "items": [
                {
                    "fields": {
                        "day": {"from": "const", "value": "2025-03-10"},
                        "event": {"from": "const", "value": "joined"},
                        "sailor_id": {"from": "arg", "name": "sailor_id", "default": ""},
                        "note": {"from": "const", "value": ""},
                    }
                }
            ],
        }
    ]
    # one entry of its kind in the data: its note is not known to be constant, unless the docs name its source
    left = "Removes a sailor. A 'left' entry (with the why as its note) is appended to the log."
    assert named_entries(left, "crew", PROPS, PARAMS, RECORDS, "2025-03-10")[0]["items"][0]["fields"]["note"] == {
        "from": "arg",
        "name": "why",
        "default": "",
    }
    assert (
        named_entries(left.replace("(with the why as its note) ", ""), "crew", PROPS, PARAMS, RECORDS, "2025-03-10")
        == []
    )
    assert named_entries(text.replace("crew's", "sailor's"), "crew", PROPS, PARAMS, RECORDS, "2025-03-10") == []


def test_a_state_the_data_logs_is_logged_though_the_docs_say_nothing() -> None:
    states = {"type": "string", "x-enum": ["sailing", "docked"]}
    log = {"type": "array", "items": {"type": "object", "properties": {"day": {}, "event": states, "note": {}}}}
    props = {"crew_id": {"type": "string"}, "phase": states, "log": log}
    records = [
        {"crew_id": "C1", "phase": "docked", "log": [{"day": "2025-01-02", "event": "docked", "note": "at quay"}]},
        {"crew_id": "C2", "phase": "docked", "log": [{"day": "2025-01-04", "event": "docked", "note": "at quay"}]},
        {"crew_id": "C3", "phase": "sailing", "log": []},
    ]
    params = {"type": "object", "properties": {"crew_id": {}}, "required": ["crew_id"]}
    found = seen_entries(props, params, records, "2025-03-10", {"phase": "docked"}, set())
    assert found == [
        {
            "op": "append",
            "field": "log",
            "items": [
                {
                    "fields": {
                        "day": {"from": "const", "value": "2025-03-10"},
                        "event": {"from": "const", "value": "docked"},
                        "note": {"from": "const", "value": "at quay"},
                    }
                }
            ],
        }
    ]
    assert seen_entries(props, params, records, "2025-03-10", {"phase": "docked"}, {"log"}) == []  # the docs fill it
    assert seen_entries(props, params, records, "2025-03-10", {"phase": "sailing"}, set()) == []  # never logged


def test_a_transition_log_takes_the_state_left_and_the_state_entered() -> None:
    phases = ["sailing", "docked", "refit"]
    entry = {
        "type": "object",
        "properties": {
            "day": {"type": "string"},
            "from": {"type": "string", "x-enum": phases},
            "to": {"type": "string", "x-enum": phases},
        },
    }
    props = {"crew_id": {"type": "string"}, "phase": {"type": "string", "x-enum": phases}}
    props["log"] = {"type": "array", "items": entry}
    records = [
        {"crew_id": "C1", "phase": "docked", "log": [{"day": "2025-01-02", "from": "sailing", "to": "docked"}]},
        {"crew_id": "C2", "phase": "refit", "log": [{"day": "2025-01-04", "from": "docked", "to": "refit"}]},
        {"crew_id": "C3", "phase": "docked", "log": [{"day": "2025-01-05", "from": "refit", "to": "docked"}]},
    ]
    params = {"type": "object", "properties": {"crew_id": {}}, "required": ["crew_id"]}
    (found,) = seen_entries(props, params, records, "2025-03-10", {"phase": "docked"}, set())
    assert found["items"][0]["fields"] == {
        "day": {"from": "const", "value": "2025-03-10"},
        "from": {"from": "record", "path": ["phase"], "before": True},  # the phase before the call
        "to": {"from": "const", "value": "docked"},
    }
    records[0]["log"][0]["to"] = "refit"  # the last entries no longer tell which field the record's phase is in
    assert seen_entries(props, params, records, "2025-03-10", {"phase": "docked"}, set()) == []


def test_the_logged_state_left_is_the_one_before_the_call() -> None:
    from synth.envsynth.plan import ToolPlan
    from synth.envsynth.policy_rules import docs_transition
    from synth.spec import ToolSpec
    from tests.schemas import collection
    from tests.tool_calls import run_calls

    phases = {"type": "string", "x-enum": ["sailing", "docked"]}
    entry = {"type": "object", "properties": {"day": {"type": "string"}, "from": phases, "to": phases}}
    crew = {"crew_id": {"type": "string"}, "phase": phases, "log": {"type": "array", "items": entry}}
    schema = {"type": "object", "properties": {"crews": collection(crew)}}
    records = [
        {"crew_id": "C1", "phase": "docked", "log": [{"day": "2025-01-02", "from": "sailing", "to": "docked"}]},
        {"crew_id": "C2", "phase": "sailing", "log": [{"day": "2025-01-04", "from": "docked", "to": "sailing"}]},
    ]
    spec = ToolSpec(
        "dock_crew",
        "Dock a sailing crew; its phase becomes `docked`. The business date is 2025-03-10.",
        {"type": "object", "properties": {"crew_id": {"type": "string"}}, "required": ["crew_id"]},
    )
    plan = docs_transition(spec, ToolPlan(kind="update", collection="crews", key_param="crew_id"), schema, "", records)
    assert plan is not None

    def state() -> dict:
        return {"crews": {"C2": {"crew_id": "C2", "phase": "sailing", "log": []}}}

    after = state()
    after["crews"]["C2"]["phase"] = "docked"
    after["crews"]["C2"]["log"] = [{"day": "2025-03-10", "from": "sailing", "to": "docked"}]
    run_calls(spec, plan, schema, state, [({"crew_id": "C2"}, after)])


def test_an_entry_logged_without_naming_its_list_goes_on_the_one_list_that_logs_its_kind() -> None:
    text = 'Adds a sailor. A "joined" entry is logged.'
    effects = named_entries(text, "crew", PROPS, PARAMS, RECORDS, "2025-03-10")
    assert [e["field"] for e in effects] == ["log"]
    assert effects[0]["items"][0]["fields"]["event"] == {"from": "const", "value": "joined"}
    # unquoted, a kind the entries have is read; a kind no list's entries have, or two lists that log it, is not
    assert named_entries("A joined entry is logged.", "crew", PROPS, PARAMS, RECORDS, "2025-03-10") == effects
    assert named_entries('A "boarded" entry is logged.', "crew", PROPS, PARAMS, RECORDS, "2025-03-10") == []
    twice = {**PROPS, "old_log": LOG}
    assert named_entries(text, "crew", twice, PARAMS, RECORDS, "2025-03-10") == []
