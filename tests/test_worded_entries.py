"""Write-side wording (a theatre costume hire): a new record's log opening with an entry named by a value and what it
records, text parameters that are empty when left out, a move whose sentence holds a negated aside in brackets,
and model-written tests that expect success where the call's own record forbids it."""

from __future__ import annotations

from synth.envsynth.case_filters import docs_refused
from synth.envsynth.docs_appends import element_rule, worded_entry
from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.figure_terms import param_default
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.tool_tests import CaseFailure, ToolTestResult
from tests.schemas import collection as _collection

LOG = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "on": {"type": "string", "format": "date"},
            "stage": {"type": "string", "x-enum": ["fitted", "back", "torn"]},
            "remark": {"type": "string"},
            "fitter": {"type": "string"},
        },
        "required": ["on", "stage", "remark"],
    },
}
PARAMS = {
    "renter_id": {"type": "string"},
    "remark": {"type": "string", "description": "Copied into the log; empty text when not given."},
    "fitter": {"type": "string", "description": "Who measured the renter."},
}


def test_an_opening_entry_named_by_its_value_carries_the_parameters_and_today() -> None:
    text = "Rents a costume out. The rental's log begins with a `fitted` entry that records the remark."
    body = worded_entry(text, "log", LOG, PARAMS, "2031-04-02")
    assert body == "{stage: 'fitted', remark: <remark or \"\">, on: today}"
    rule = element_rule(body, {"log": LOG}, PARAMS, today="2031-04-02")
    assert rule == {
        "fields": {
            "stage": {"from": "const", "value": "fitted"},
            "remark": {"from": "arg", "name": "remark", "default": ""},
            "on": {"from": "const", "value": "2031-04-02"},
        }
    }
    two = "Its log begins with a `fitted` entry that records the remark, with the fitter."
    assert "fitter: <fitter>" in worded_entry(two, "log", LOG, PARAMS, "2031-04-02")
    plain = "Rents a costume out with one log entry `fitted` holding the remark."  # the value after the entry
    assert worded_entry(plain, "log", LOG, PARAMS, "2031-04-02") == body
    # a value no entry field holds, a parameter the entry has no field for, or a required field left open
    assert worded_entry(text.replace("`fitted`", "`borrowed`"), "log", LOG, PARAMS, "2031-04-02") is None
    assert worded_entry(text.replace("the remark", "the renter id"), "log", LOG, PARAMS, "x") is None
    assert worded_entry(text, "log", LOG, PARAMS, None) is None  # no business date for `on`
    assert worded_entry("Rents a costume out.", "log", LOG, PARAMS, "2031-04-02") is None
    assert worded_entry("The log begins with a `fitted` entry and a bow.", "log", LOG, PARAMS, "x") is None


def test_text_that_is_empty_when_left_out_defaults_to_the_empty_string() -> None:
    assert param_default(PARAMS["remark"]) == ""
    assert param_default({"type": "string", "description": "The default is an empty string."}) == ""
    assert param_default(PARAMS["fitter"]) is None
    assert param_default({"type": "integer", "description": "empty text when not given"}) is None  # no text
    assert param_default({"type": "string", "default": "x", "description": "empty text when not given"}) == "x"


SCHEMA = {
    "type": "object",
    "properties": {
        "rentals": _collection(
            {"id": {"type": "string"}, "renter_id": {"type": "string"}, "pieces": {"type": "integer"}}
        ),
        "renters": _collection({"id": {"type": "string"}, "pieces_left": {"type": "integer"}}),
    },
}


def test_an_aside_in_brackets_does_not_negate_the_move_around_it() -> None:
    params = {"renter_id": {"type": "string"}, "pieces": {"type": "integer"}}
    said = "The renter's `pieces_left` goes down by the pieces taken (settled at the fitting, never on return)."

    def theirs(text: str) -> list:
        moves = docs_counters(text, "rentals", "rental_id", SCHEMA, params)
        return [(m["path"][-1]["value"], m["delta"]["expr"]) for m in moves if m["collection"] == "renters"]

    assert theirs(said) == [("pieces_left", {"minus": [{"arg": "pieces"}]})]
    assert theirs("The renter's `pieces_left` never goes down by the pieces taken.") == []


def test_written_tests_on_a_missing_or_closed_record_or_an_absent_entry_are_dropped() -> None:
    state = {
        "rentals": {
            "R1": {"id": "R1", "status": "out", "garments": [{"garment": "cape", "size": 5}]},
            "R2": {"id": "R2", "status": "closed", "garments": [{"garment": "hat", "size": 9}]},
        }
    }
    plan = ToolPlan(
        kind="item_remove",
        collection="rentals",
        key_param="rental_id",
        key_field="id",
        list_field="garments",
        item_key="garment",
        op_param="garment",
        preconditions={"status": ["out"]},
    )
    calls = [
        {"rental_id": "R9", "garment": "cape"},  # no such rental
        {"rental_id": "R2", "garment": "hat"},  # closed
        {"rental_id": "R1", "garment": "hat"},  # R1 has no hat
        {"rental_id": "R1", "garment": "cape"},  # allowed: a real failure, kept
    ]
    cases = [Case("drop_garment", "llm-questions", state, c, expect_error=False) for c in calls]
    failing = ToolTestResult(
        0, 4, [CaseFailure(i, "llm-questions", "wrong_error", "raised ToolError('x')") for i in range(4)]
    )
    assert docs_refused(cases, failing, [], plan) == {0, 1, 2}
    plain = ToolPlan(kind="create", collection="rentals", key_param="rental_id")
    assert docs_refused(cases, failing, [], plain) == set()


def test_a_state_change_with_a_noted_entry_writes_the_note_with_the_records_values() -> None:
    from synth.envsynth.docs_appends import docs_appends

    log = {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {
                "on": {"type": "string", "format": "date"},
                "stage": {"type": "string", "x-enum": ["fitted", "back", "torn"]},
                "remark": {"type": "string"},
            },
        },
    }
    props = {"stage": {"type": "string", "x-enum": ["fitted", "back", "torn"]}, "rack": {"type": "string"}, "log": log}
    text = "'back': the rack gains one, stage becomes 'back' with log note 'back on rack <rack>'. Returns the rental."
    [effect] = docs_appends(text, props, {"rental_id": {"type": "string"}}, today="2031-04-02")
    assert effect["field"] == "log" and effect["items"][0]["fields"] == {
        "stage": {"from": "const", "value": "back"},
        "remark": {"from": "concat", "parts": ["back on rack ", {"from": "record", "path": ["rack"]}]},
        "on": {"from": "const", "value": "2031-04-02"},
    }
    # a value only an entry field named like the state may take, a text naming no parameter or field, no list
    lost = docs_appends(text.replace("'back'", "'lost'"), props, {}, today="2031-04-02")
    assert lost[0]["items"][0]["fields"]["stage"] == {"from": "const", "value": "lost"}
    assert docs_appends(text.replace("stage becomes 'back'", "phase becomes 'lost'"), props, {}, today="x") == []
    assert docs_appends(text.replace("<rack>", "<shelf>"), props, {}, today="2031-04-02") == []
    assert docs_appends("stage becomes 'back' with rack 'R2'.", props, {}, today="2031-04-02") == []
