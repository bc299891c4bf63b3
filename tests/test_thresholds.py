"""A state change a number crossing a bound makes after the call's moves, on the call's record or one it names,
with the line the docs log for it (of a kind the data has, or not yet)."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_thresholds import thresholds
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
N = {"type": "number"}
LINE = {
    "type": "object",
    "properties": {
        "day": {"type": "string", "format": "date"},
        "kind": {"type": "string", "x-enum": ["fee", "benched"]},
        "ref": {"type": ["string", "null"]},
        "sum": N,
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "skipper_id": S,
                    "status": {"type": "string", "x-enum": ["afloat", "benched", "retired"]},
                    "owed": N,
                    "log": {"type": "array", "items": LINE},
                },
            },
        },
        "moorings": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "mooring_id": S,
                    "skipper_id": S,
                    "status": {"type": "string", "x-enum": ["open", "closed"]},
                    "charge": N,
                },
            },
        },
    },
}
LOG = [
    {"day": "2031-01-01", "kind": "fee", "ref": "M0", "sum": 5.0},
    {"day": "2031-01-02", "kind": "benched", "ref": None, "sum": 0.0},
]
STATE = {
    "skippers": {
        "K1": {"skipper_id": "K1", "status": "afloat", "owed": 40.0, "log": list(LOG)},
        "K2": {"skipper_id": "K2", "status": "afloat", "owed": 0.0, "log": []},
        "K3": {"skipper_id": "K3", "status": "retired", "owed": 45.0, "log": []},
    },
    "moorings": {
        "M1": {"mooring_id": "M1", "skipper_id": "K1", "status": "open", "charge": 12.0},
        "M2": {"mooring_id": "M2", "skipper_id": "K2", "status": "open", "charge": 12.0},
        "M3": {"mooring_id": "M3", "skipper_id": "K3", "status": "open", "charge": 12.0},
    },
}
CLOSE = ToolSpec(
    "close_mooring",
    "Closes an open mooring (business date 2031-02-03). The mooring becomes 'closed' and its charge is added to "
    "the skipper's owed. Once the skipper's owed hits 50 or more, an afloat skipper is benched, logging a "
    "'benched' line.",
    {"type": "object", "properties": {"mooring_id": S}, "required": ["mooring_id"]},
)


def test_a_bound_read_for_the_named_record_with_its_line() -> None:
    (rule,) = thresholds(CLOSE.description, "moorings", SCHEMA, STATE, "2031-02-03")
    assert {k: rule[k] for k in ("collection", "via", "field", "from", "value", "number", "cmp", "bound")} == {
        "collection": "skippers",
        "via": "skipper_id",
        "field": "status",
        "from": ["afloat"],
        "value": "benched",
        "number": "owed",
        "cmp": ">=",
        "bound": 50.0,
    }
    assert rule["entry"]["field"] == "log" and rule["entry"]["item"]["fields"]["sum"] == {"from": "const", "value": 0.0}


def test_the_change_holds_only_past_the_bound_and_from_the_state_named() -> None:
    base = ToolPlan(kind="update", collection="moorings", key_field="mooring_id", key_param="mooring_id")
    plan = docs_transition(CLOSE, base, SCHEMA, "", list(STATE["moorings"].values()), STATE)
    crossed = Case(CLOSE.name, "x", STATE, {"mooring_id": "M1"}, expect_error=False)  # 40 + 12 >= 50
    line = {"day": "2031-02-03", "kind": "benched", "ref": None, "sum": 0.0}
    crossed.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "status", "value": "benched"},
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "log", "value": LOG + [line]},
    ]
    below = Case(CLOSE.name, "x", STATE, {"mooring_id": "M2"}, expect_error=False)  # 12 < 50
    below.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "K2", "field": "status", "value": "afloat"}
    ]
    retired = Case(CLOSE.name, "x", STATE, {"mooring_id": "M3"}, expect_error=False)  # past it, but not afloat
    retired.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "K3", "field": "status", "value": "retired"}
    ]
    cases = [crossed, below, retired]
    res, err = run_cases(render_tool(CLOSE, plan, SCHEMA), CLOSE.name, cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 3


def test_an_exact_bound_on_the_calls_own_record_and_a_line_the_data_never_logged() -> None:
    text = (
        "Settles part of what a skipper owes (business date 2031-02-03): owed goes down by the amount. Any benched "
        "skipper whose owed drops to exactly 0 returns to 'afloat' (and a 'cleared' line is kept)."
    )
    (rule,) = thresholds(text, "skippers", SCHEMA, STATE, "2031-02-03")
    assert rule["via"] is None and rule["cmp"] == "==" and rule["bound"] == 0.0
    assert rule["from"] == ["benched"] and rule["value"] == "afloat"
    assert rule["entry"]["item"]["fields"] == {
        "day": {"from": "const", "value": "2031-02-03"},
        "kind": {"from": "const", "value": "cleared"},
        "ref": {"from": "const", "value": None},  # some lines name nothing
        "sum": {"from": "const", "value": 0.0},
    }
    assert thresholds(text.replace("benched skipper", "lucky skipper"), "skippers", SCHEMA, STATE, "2031-02-03") == []
    (later,) = thresholds(text.replace("exactly 0", "10 or less"), "skippers", SCHEMA, STATE, "2031-02-03")
    assert later["cmp"] == "<=" and later["bound"] == 10.0  # a bound reached going down holds below it
