"""A keyed write that stores a schedule of payments on its record (a mooring's dues plan), read from the docs: the
split rounded down with the remainder last, the due dates, the plan's id and log entry, and the rules refusing it;
planned and run."""

from __future__ import annotations

import copy

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.arg_ranges import field_ranges
from synth.envsynth.codegen import render_tool
from synth.envsynth.date_runtime import fg_instalments, fg_month_day
from synth.envsynth.instalments import instalment_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

TODAY = "2026-04-14"
PAYMENT = {"n": {"type": "integer"}, "due": {"type": "string"}, "amount": {"type": "number"}}
PLAN_SCHEMA = {
    "plan_id": {"type": "string"},
    "status": {"type": "string"},
    "made_on": {"type": "string"},
    "total": {"type": "number"},
    "payments": {"type": "array", "items": {"type": "object", "properties": PAYMENT}},
}
MOORING = {
    "mooring_id": {"type": "string"},
    "kind": {"type": "string", "x-enum": ["private", "club"]},
    "status": {"type": "string", "x-enum": ["current", "lapsed", "closed"]},
    "balance": {"type": "number"},
    "dues_plan": {"type": ["object", "null"], "properties": PLAN_SCHEMA},
    "log": {"type": "array", "items": {"type": "object"}},
}
SCHEMA = {"type": "object", "properties": {"moorings": _collection(MOORING)}}
PARAMS = {
    "type": "object",
    "properties": {
        "mooring_id": {"type": "string"},
        "payments": {
            "type": "integer",
            "description": "Number of monthly payments: 2\u20134 for `private` moorings, 2\u201310 for `club`.",
        },
    },
    "required": ["mooring_id", "payments"],
}
EXAMPLE = {
    "plan_id": "DP-101-1",
    "status": "open",
    "made_on": TODAY,
    "total": 250.0,
    "payments": [{"n": 1, "due": "2026-05-01", "amount": 125.0}, {"n": 2, "due": "2026-06-01", "amount": 125.0}],
}
TEXT = (
    "Splits the mooring's current balance into monthly payments.\n\n"
    "Rules: the mooring must be `current` or `lapsed`, must not already have an `open` plan, and its balance must "
    "be at least 100.00.\n\n"
    "The plan's `total` is the balance. Every payment is the `total` divided by the number of payments, rounded "
    "**down** to the cent; the last payment takes the remainder. Payment *k* is due on the 1st of the *k*-th month "
    "after today (today 2026-04-14). The plan replaces the mooring's `dues_plan`, a `plan_made` entry is appended "
    "to the log, and a `lapsed` mooring becomes `current`."
)
SPLIT = ToolSpec(
    "split_dues",
    TEXT,
    PARAMS,
    returns={"type": "object", "properties": {**PLAN_SCHEMA}, "example": EXAMPLE},
)
OLD_PLAN = {"plan_id": "DP-102-1", "status": "closed", "made_on": "2025-01-02", "total": 300.0, "payments": []}
STATE = {
    "moorings": {
        "M-101": {
            "mooring_id": "M-101",
            "kind": "private",
            "status": "current",
            "balance": 250.0,
            "dues_plan": None,
            "log": [],
        },
        "M-102": {
            "mooring_id": "M-102",
            "kind": "club",
            "status": "lapsed",
            "balance": 100.01,
            "dues_plan": OLD_PLAN,
            "log": [{"date": "2025-01-02", "event": "plan_made", "plan_id": "DP-102-1", "amount": 300.0}],
        },
        "M-103": {
            "mooring_id": "M-103",
            "kind": "club",
            "status": "current",
            "balance": 50.0,
            "dues_plan": None,
            "log": [],
        },
        "M-104": {
            "mooring_id": "M-104",
            "kind": "club",
            "status": "closed",
            "balance": 400.0,
            "dues_plan": None,
            "log": [],
        },
        "M-105": {
            "mooring_id": "M-105",
            "kind": "club",
            "status": "current",
            "balance": 400.0,
            "dues_plan": {**OLD_PLAN, "plan_id": "DP-105-1", "status": "open"},
            "log": [],
        },
    }
}
BASE = ToolPlan(kind="update", collection="moorings", key_field="mooring_id", key_param="mooring_id")
SCHEMA_RESULT = SchemaResult(SCHEMA, {}, {}, "docs")


def _planned(spec: ToolSpec = SPLIT) -> ToolPlan:
    plan = instalment_plan(spec, BASE, SCHEMA, spec.description, STATE, TODAY)
    return allowed_checks(spec, plan, SCHEMA, spec.description, TODAY)


def test_the_schedule_splits_down_to_the_cent_with_the_remainder_last() -> None:
    fields = {"index": "n", "due": "due", "amount": "amount"}
    assert [e["amount"] for e in fg_instalments(250.0, 3, TODAY, 1, True, fields)] == [83.33, 83.33, 83.34]
    assert [e["amount"] for e in fg_instalments(100.0, 3, TODAY, 1, False, fields)] == [33.33, 33.33, 33.34]
    assert [e["a"] for e in fg_instalments(0.05, 3, TODAY, 1, False, {"amount": "a"})] == [0.02, 0.02, 0.01]
    assert [e["due"] for e in fg_instalments(90.0, 3, "2026-11-30", 31, True, fields)] == [
        "2026-12-31",
        "2027-01-31",
        "2027-02-28",
    ]
    assert fg_month_day("2026-01-31", 1, 30) == "2026-02-28" and fg_month_day("nope", 1, 1) is None
    assert (
        fg_instalments(None, 3, TODAY, 1, True, fields) is None
        and fg_instalments(9.0, 0, TODAY, 1, True, fields) is None
    )


def test_a_plan_is_stored_answered_and_logged_as_the_docs_spell_it() -> None:
    plan = _planned()
    assert plan.kind == "recorded_update" and plan.output_fields == list(PLAN_SCHEMA)
    made = copy.deepcopy(STATE)
    first = {
        "plan_id": "DP-101-1",
        "status": "open",
        "made_on": TODAY,
        "total": 250.0,
        "payments": [
            {"n": 1, "due": "2026-05-01", "amount": 83.33},
            {"n": 2, "due": "2026-06-01", "amount": 83.33},
            {"n": 3, "due": "2026-07-01", "amount": 83.34},
        ],
    }
    made["moorings"]["M-101"]["dues_plan"] = first
    made["moorings"]["M-101"]["log"] = [{"date": TODAY, "event": "plan_made", "plan_id": "DP-101-1", "amount": 250.0}]
    again = copy.deepcopy(STATE)  # a lapsed mooring with one plan behind it: its second plan, and current again
    second = {
        "plan_id": "DP-102-2",
        "status": "open",
        "made_on": TODAY,
        "total": 100.01,
        "payments": [
            {"n": 1, "due": "2026-05-01", "amount": 50.0},
            {"n": 2, "due": "2026-06-01", "amount": 50.01},
        ],
    }
    again["moorings"]["M-102"].update(status="current", dues_plan=second)
    again["moorings"]["M-102"]["log"].append(
        {"date": TODAY, "event": "plan_made", "plan_id": "DP-102-2", "amount": 100.01}
    )
    cases = [
        Case(SPLIT.name, "x", STATE, {"mooring_id": "M-101", "payments": 3}, expect_error=False),
        Case(SPLIT.name, "x", STATE, {"mooring_id": "M-102", "payments": 2}, expect_error=False),
    ]
    cases[0].expect_result, cases[0].has_expected_result = first, True
    cases[0].state_checks = [{"op": "equals", "state": made}]
    cases[1].expect_result, cases[1].has_expected_result = second, True
    cases[1].state_checks = [{"op": "equals", "state": again}]
    res, err = run_cases(render_tool(SPLIT, plan, SCHEMA), SPLIT.name, cases, SCHEMA_RESULT)
    assert err == "" and res.passed == 2


def test_the_rules_refuse_a_plan() -> None:
    plan = _planned()
    refused = [
        {"mooring_id": "M-101", "payments": 5},  # 2-4 for a private mooring
        {"mooring_id": "M-102", "payments": 11},  # 2-10 for a club one
        {"mooring_id": "M-103", "payments": 3},  # a balance below 100.00
        {"mooring_id": "M-104", "payments": 3},  # neither current nor lapsed
        {"mooring_id": "M-105", "payments": 3},  # an open plan already
    ]
    cases = [Case(SPLIT.name, "x", STATE, args, expect_error=True) for args in refused]
    cases.append(Case(SPLIT.name, "x", STATE, {"mooring_id": "M-102", "payments": 10}, expect_error=False))
    res, err = run_cases(render_tool(SPLIT, plan, SCHEMA), SPLIT.name, cases, SCHEMA_RESULT)
    assert err == "" and res.passed == len(cases)
    assert field_ranges(PARAMS["properties"], MOORING) == [
        {"op": "arg_by_field", "arg": "payments", "field": "kind", "ranges": {"private": [2, 4], "club": [2, 10]}}
    ]
    assert field_ranges({"payments": {"type": "integer", "description": "2-4 for `yachts`"}}, MOORING) == []


def test_no_schedule_where_the_docs_leave_a_key_unsaid() -> None:
    unsplit = ToolSpec(SPLIT.name, TEXT.replace("; the last payment takes the remainder", ""), PARAMS, SPLIT.returns)
    assert instalment_plan(unsplit, BASE, SCHEMA, unsplit.description, STATE, TODAY) == BASE
    odd = ToolSpec(SPLIT.name, TEXT, PARAMS, returns={**SPLIT.returns, "example": {**EXAMPLE, "status": "pending"}})
    assert instalment_plan(odd, BASE, SCHEMA, odd.description, STATE, TODAY) == BASE  # "pending": a value unsaid
    untotalled = ToolSpec(SPLIT.name, TEXT.replace("The plan's `total` is the balance. ", ""), PARAMS, SPLIT.returns)
    assert instalment_plan(untotalled, BASE, SCHEMA, untotalled.description, STATE, TODAY) == BASE
