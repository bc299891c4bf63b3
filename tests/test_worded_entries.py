"""Write-side wording (a seed-bank loan desk): a new record's first list entry named by a value and what it
carries, text parameters that are empty when left out, a move whose sentence holds a negated remark in brackets,
and model-written tests that expect success where the call's own record forbids it."""

from __future__ import annotations

from synth.envsynth.docs_appends import element_rule, worded_entry
from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.figure_terms import param_default
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.tool_stage import _docs_refused
from synth.envsynth.tool_tests import CaseFailure, ToolTestResult

TRAIL = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "on": {"type": "string", "format": "date"},
            "stage": {"type": "string", "x-enum": ["lent", "returned", "lost"]},
            "remark": {"type": "string"},
            "clerk": {"type": "string"},
        },
        "required": ["on", "stage", "remark"],
    },
}
PARAMS = {
    "borrower_id": {"type": "string"},
    "remark": {"type": "string", "description": "Kept on the trail; an empty string if omitted."},
    "clerk": {"type": "string", "description": "Who handed the seed over."},
}


def test_a_first_entry_named_by_its_value_carries_the_parameters_and_today() -> None:
    text = "Lends a seed packet. The loan opens with a first trail entry `lent` carrying the remark."
    body = worded_entry(text, "trail", TRAIL, PARAMS, "2031-04-02")
    assert body == "{stage: 'lent', remark: <remark or \"\">, on: today}"
    rule = element_rule(body, {"trail": TRAIL}, PARAMS, today="2031-04-02")
    assert rule == {
        "fields": {
            "stage": {"from": "const", "value": "lent"},
            "remark": {"from": "arg", "name": "remark", "default": ""},
            "on": {"from": "const", "value": "2031-04-02"},
        }
    }
    two = "It opens with a first trail entry `lent` carrying the remark and carrying the clerk."
    assert "clerk: <clerk>" in worded_entry(two, "trail", TRAIL, PARAMS, "2031-04-02")
    # a value no entry field holds, a parameter the entry has no field for, or a required field left open
    assert worded_entry(text.replace("`lent`", "`borrowed`"), "trail", TRAIL, PARAMS, "2031-04-02") is None
    assert worded_entry(text.replace("the remark", "the borrower id"), "trail", TRAIL, PARAMS, "x") is None
    assert worded_entry(text, "trail", TRAIL, PARAMS, None) is None  # no business date for `on`
    assert worded_entry("Lends a seed packet.", "trail", TRAIL, PARAMS, "2031-04-02") is None


def test_text_that_is_empty_when_left_out_defaults_to_the_empty_string() -> None:
    assert param_default(PARAMS["remark"]) == ""
    assert param_default({"type": "string", "description": "Defaults to an empty string."}) == ""
    assert param_default(PARAMS["clerk"]) is None
    assert param_default({"type": "integer", "description": "empty if omitted"}) is None  # no text
    assert param_default({"type": "string", "default": "x", "description": "empty if omitted"}) == "x"


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {
    "type": "object",
    "properties": {
        "loans": _collection(
            {"id": {"type": "string"}, "borrower_id": {"type": "string"}, "grams": {"type": "integer"}}
        ),
        "borrowers": _collection({"id": {"type": "string"}, "grams_left": {"type": "integer"}}),
    },
}


def test_a_remark_in_brackets_does_not_negate_the_move_around_it() -> None:
    params = {"borrower_id": {"type": "string"}, "grams": {"type": "integer"}}
    said = "The grams asked for are deducted from the borrower's grams_left (counted at lending, not at return)."

    def theirs(text: str) -> list:
        moves = docs_counters(text, "loans", "loan_id", SCHEMA, params)
        return [(m["path"][-1]["value"], m["delta"]["expr"]) for m in moves if m["collection"] == "borrowers"]

    assert theirs(said) == [("grams_left", {"minus": [{"arg": "grams"}]})]
    assert theirs("The grams asked for are not deducted from the borrower's grams_left.") == []


def test_written_tests_on_a_missing_or_closed_record_or_an_absent_entry_are_dropped() -> None:
    state = {
        "loans": {
            "L1": {"id": "L1", "status": "open", "packets": [{"crop": "rye", "grams": 5}]},
            "L2": {"id": "L2", "status": "closed", "packets": [{"crop": "oat", "grams": 9}]},
        }
    }
    plan = ToolPlan(
        kind="item_remove",
        collection="loans",
        key_param="loan_id",
        key_field="id",
        list_field="packets",
        item_key="crop",
        op_param="crop",
        preconditions={"status": ["open"]},
    )
    calls = [
        {"loan_id": "L9", "crop": "rye"},  # no such loan
        {"loan_id": "L2", "crop": "oat"},  # closed
        {"loan_id": "L1", "crop": "oat"},  # L1 has no oat packet
        {"loan_id": "L1", "crop": "rye"},  # allowed: a real failure, kept
    ]
    cases = [Case("drop_packet", "llm-questions", state, c, expect_error=False) for c in calls]
    failing = ToolTestResult(
        0, 4, [CaseFailure(i, "llm-questions", "wrong_error", "raised ToolError('x')") for i in range(4)]
    )
    assert _docs_refused(cases, failing, [], plan) == {0, 1, 2}
    assert _docs_refused(cases, failing, [], ToolPlan(kind="create", collection="loans", key_param="loan_id")) == set()
