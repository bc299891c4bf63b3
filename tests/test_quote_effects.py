"""A status change that uses a sibling read's figure (the yard's charge for a haul-out becomes its `billed_fee`),
is refused when the change requires that figure above a bound or a list entry it lacks, appends entries whose
numbers have fixed decimals and whose texts join several parts, sets an object field written out in the docs, and
moves a linked record's number by one of the record's own; planned and rendered."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_appends import element_rule, object_sets
from synth.envsynth.expr_runtime import fg_compare, fg_fixed, fg_text, fg_whole
from synth.envsynth.mode_rules import mode_transition
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.quote_effects import figure_guards, figure_moves, figure_sets, filled_checks, priced_plan
from synth.envsynth.quote_reuse import sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

ENTRY = {"type": "object", "properties": {"kind": {"type": "string"}, "text": {"type": "string"}}}
JOB = {"type": "object", "properties": {"job_id": {"type": "string"}, "cost": {"type": "number"}}}
HAULOUT = {
    "haulout_id": {"type": "string"},
    "yard_id": {"type": "string", "x-references": "yards"},
    "status": {"type": "string", "x-enum": ["open", "accepted", "refused", "settled", "approved"]},
    "approved_by": {"type": ["string", "null"]},
    "hours": {"type": "number"},
    "jobs": {"type": "array", "items": JOB},
    "billed_fee": {"type": ["number", "null"]},
    "receipt": {
        "type": ["object", "null"],
        "properties": {"fee": {"type": "number"}, "channel": {"type": "string"}},
        "required": ["fee", "channel"],
    },
    "log": {"type": "array", "items": ENTRY},
}
YARD = {
    "yard_id": {"type": "string"},
    "hourly_rate": {"type": "number"},
    "cradle_fee": {"type": "number"},
    "takings_total": {"type": "number"},
}
SCHEMA = {"type": "object", "properties": {"haulouts": _collection(HAULOUT), "yards": _collection(YARD)}}
STATE = {
    "haulouts": {
        "H1": {
            "haulout_id": "H1",
            "yard_id": "Y1",
            "status": "open",
            "hours": 2.5,
            "jobs": [{"job_id": "J1", "cost": 80.25}, {"job_id": "J2", "cost": 40.0}],
            "billed_fee": None,
            "receipt": None,
            "log": [],
        },
        "H2": {"haulout_id": "H2", "yard_id": "Y1", "status": "open", "hours": 1, "jobs": [], "billed_fee": None},
        "H3": {
            "haulout_id": "H3",
            "yard_id": "Y2",
            "status": "open",
            "hours": 1,
            "jobs": [{"job_id": "J1", "cost": 5.0}],
            "billed_fee": None,
            "receipt": None,
            "log": [],
        },
    },
    "yards": {
        "Y1": {"yard_id": "Y1", "hourly_rate": 64.1, "cradle_fee": 10.0, "takings_total": 1000.0},
        "Y2": {"yard_id": "Y2", "hourly_rate": 5.0, "cradle_fee": 10.0, "takings_total": 0.0},
    },
}
KEY = {"haulout_id": {"type": "string"}}
PRICE = ToolSpec(
    "price_haulout",
    "Prices a haul-out; nothing is stored: the charge is the haul-out's hours times the yard's hourly_rate, minus "
    "the yard's cradle_fee. Returns {haulout_id, charge}.",
    {"type": "object", "properties": KEY, "required": ["haulout_id"]},
)
DECIDE = ToolSpec(
    "rule_on_haulout",
    "Rules on an open haul-out, one way or the other.\n\n"
    "- `accept`: the status becomes 'accepted' and billed_fee becomes the charge; {kind: 'accepted', text: <fee to "
    "2 decimals>} is appended to the log. Accepting requires at least one job, and it requires a yard charge (see "
    "price_haulout) over 0.\n"
    "- `refuse`: without a note the call fails. The status becomes 'refused' and {kind: 'refused', text: <note>} "
    "is appended to the log.",
    {
        "type": "object",
        "properties": {
            **KEY,
            "verdict": {"type": "string", "enum": ["accept", "refuse"]},
            "note": {"type": "string"},
        },
        "required": ["haulout_id", "verdict"],
    },
)
SETTLE = ToolSpec(
    "settle_haulout",
    "Closes the bill of a haul-out; this works only when its status is 'accepted'. The yard's takings_total grows "
    "by the fee. Then `receipt` becomes {channel, fee}, {kind: 'settled', text: '<channel>: <fee to 2 decimals>'} "
    "is appended to the log, and the status becomes 'settled'.",
    {
        "type": "object",
        "properties": {**KEY, "channel": {"type": "string", "enum": ["card", "cash"]}},
        "required": ["haulout_id", "channel"],
    },
)
PLAN = ToolPlan(kind="update", collection="haulouts", key_field="haulout_id", key_param="haulout_id")
SCHEMA_RESULT = SchemaResult(SCHEMA, {}, {}, "docs")


def _run(spec: ToolSpec, plan: ToolPlan, cases: list[Case]) -> tuple[int, str]:
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SCHEMA_RESULT)
    return res.passed, err


def test_the_figures_a_change_reads() -> None:
    text = "`accept` requires at least one job; it also requires a yard charge (see price_haulout) over 0. billed_fee"
    assert figure_sets(text + " becomes the charge.", ["haulout_id", "charge"], ["billed_fee"]) == {
        "billed_fee": "charge"
    }
    assert figure_sets(text + " is set to that charge.", ["charge"], ["billed_fee"]) == {"billed_fee": "charge"}
    assert figure_sets(text + " becomes the cradle fee.", ["charge"], ["billed_fee"]) == {}
    assert figure_guards(text, ["charge"]) == [{"figure": "charge", "op": ">", "value": 0.0}]
    assert figure_guards("A charge over 0 is shown.", ["charge"]) == []  # nothing needs it
    assert figure_guards("A charge over 500 requires a foreman.", ["charge"]) == []  # the charge is no need
    assert figure_guards("Must have a charge of at least 20.", ["charge"]) == [
        {"figure": "charge", "op": ">=", "value": 20.0}
    ]
    assert filled_checks(text, HAULOUT) == [{"op": "filled", "field": "jobs"}]
    assert filled_checks("It lists at least one job.", HAULOUT) == []


def test_a_change_takes_the_siblings_figure_and_refuses_when_it_falls_short() -> None:
    moved = mode_transition(DECIDE, PLAN, SCHEMA, "")
    assert moved is not None and moved.kind == "by_mode"
    quotes = sibling_quotes([PRICE, DECIDE], SCHEMA, STATE)
    assert "price_haulout" in quotes
    plan = priced_plan(DECIDE, moved, SCHEMA, [PRICE, DECIDE], quotes, DECIDE.description)
    accept = ToolPlan.from_dict(plan.modes["accept"]["plan"])
    assert accept.quote["guards"] == [{"figure": "charge", "op": ">", "value": 0.0}]
    assert {"op": "filled", "field": "jobs"} in accept.checks
    assert plan.modes["refuse"]["plan"]["quote"] == {}  # the other value reads no figure
    accepted = copy.deepcopy(STATE)
    accepted["haulouts"]["H1"].update(
        status="accepted", billed_fee=150.25, log=[{"kind": "accepted", "text": "150.25"}]
    )
    cases = [
        Case(DECIDE.name, "x", STATE, {"haulout_id": "H1", "verdict": "accept"}, expect_error=False),
        Case(DECIDE.name, "x", STATE, {"haulout_id": "H2", "verdict": "accept"}, expect_error=True),  # no job
        Case(DECIDE.name, "x", STATE, {"haulout_id": "H3", "verdict": "accept"}, expect_error=True),  # charge -5
        Case(DECIDE.name, "x", STATE, {"haulout_id": "H3", "verdict": "refuse", "note": "rot"}, expect_error=False),
    ]
    cases[0].state_checks = [{"op": "equals", "state": accepted}]
    passed, err = _run(DECIDE, plan, cases)
    assert err == "" and passed == len(cases)
    unpriced_passed, _ = _run(DECIDE, moved, cases)
    assert unpriced_passed < len(cases)  # without the figures the change neither bills nor refuses


def test_an_object_field_a_text_of_parts_and_a_move_by_the_records_number() -> None:
    accepted = copy.deepcopy(STATE)
    accepted["haulouts"]["H1"].update(status="accepted", billed_fee=150.25)
    plan = docs_transition(SETTLE, PLAN, SCHEMA, "", list(accepted["haulouts"].values()), accepted)
    assert plan is not None and plan.preconditions == {"status": ["accepted"]}
    settled = copy.deepcopy(accepted)
    settled["haulouts"]["H1"].update(
        status="settled",
        receipt={"fee": 150.25, "channel": "card"},
        log=[{"kind": "settled", "text": "card: 150.25"}],
    )
    settled["yards"]["Y1"]["takings_total"] = 1150.25
    case = Case(SETTLE.name, "x", accepted, {"haulout_id": "H1", "channel": "card"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": settled}]
    passed, err = _run(SETTLE, plan, [case])
    assert err == "" and passed == 1


def test_placeholders_with_decimals_texts_and_objects() -> None:
    params = {"channel": {"type": "string"}, "note": {"type": "string"}}
    rule = element_rule("{text: '<channel> / <fee at 1 decimals, like '3.5'>', kind: 'paid'}", HAULOUT, params)
    fixed = {"from": "fixed", "of": {"from": "record", "path": ["billed_fee"]}, "decimals": 1}
    assert rule == {
        "fields": {
            "kind": {"from": "const", "value": "paid"},
            "text": {"from": "concat", "parts": [{"from": "arg", "name": "channel"}, " / ", fixed]},
        }
    }
    around = element_rule("{kind: 'paid', fee: <fee>, note: 'kept'}", HAULOUT, params)  # quotes around, not in
    assert around is not None and around["fields"]["note"] == {"from": "const", "value": "kept"}
    assert element_rule("{kind: 'x', text: <tip to 2 decimals>}", HAULOUT, params) is None  # names nothing
    three = element_rule("{text: <fee in 3 decimals>}", HAULOUT, params)["fields"]["text"]
    assert three == {"from": "fixed", "of": {"from": "record", "path": ["billed_fee"]}, "decimals": 3}
    assert object_sets("`receipt` becomes {fee, channel}", HAULOUT, params) == [
        {
            "op": "set",
            "field": "receipt",
            "source": {
                "from": "object",
                "fields": {
                    "fee": {"from": "record", "path": ["billed_fee"]},
                    "channel": {"from": "arg", "name": "channel"},
                },
            },
        }
    ]
    assert object_sets("`log` = {fee, channel}", HAULOUT, params) == []  # not an object field
    assert object_sets("receipt = {fee: fee, channel: 'cash'}", HAULOUT, params)[0]["source"]["fields"]["channel"] == {
        "from": "const",
        "value": "cash",
    }


def test_the_runtime_of_fixed_decimals_texts_objects_and_comparisons() -> None:
    assert fg_fixed(86.5, 2) == "86.50" and fg_fixed(0.125, 2) == "0.13" and fg_fixed(-2.005, 2) == "-2.01"
    assert fg_fixed(7, 0) == "7" and fg_fixed(None, 2) == "" and fg_fixed("n/a", 2) == "n/a"
    assert fg_text(["card", ": ", "12.50", None]) == "card: 12.50"
    assert fg_whole({"fee": 1.0, "channel": "card"}) == {"fee": 1.0, "channel": "card"}
    assert fg_whole({"fee": None, "channel": "card"}) is None
    assert fg_compare(0.01, ">", 0) and not fg_compare(0, ">", 0) and fg_compare(0, ">=", 0)
    assert not fg_compare(None, ">", 0) and not fg_compare(True, ">", 0)


def test_a_written_test_that_expects_success_where_a_documented_check_refuses_is_dropped() -> None:
    from synth.envsynth.case_filters import docs_refused
    from synth.envsynth.tool_stage import _arbitrate
    from synth.envsynth.tool_tests import CaseFailure, ToolTestResult

    args = {"haulout_id": "H2", "verdict": "accept"}
    cases = [
        Case(DECIDE.name, "llm-questions", STATE, args, expect_error=False),
        Case(DECIDE.name, "doc-example", STATE, args, expect_error=False),  # not written by the model: kept
        Case(DECIDE.name, "llm-questions", STATE, {**args, "haulout_id": "H1"}, expect_error=False),
    ]
    refusal = "raised ToolError('Haulout H2: the call is not allowed (filled check)') but the test expects success"
    res = ToolTestResult(
        0,
        3,
        [
            CaseFailure(0, "llm-questions", "wrong_error", refusal),
            CaseFailure(1, "doc-example", "wrong_error", refusal),
            CaseFailure(2, "llm-questions", "wrong_error", "raised ToolError('Haulout H1 not found')"),
        ],
    )
    dropped: list = []
    refused = docs_refused(cases, res, dropped)
    assert refused == {0} and dropped[0]["verdict"] == {"decision": "docs"}
    assert _arbitrate(DECIDE, "", cases, res, None, dropped, refused) == cases[1:]
    plan = ToolPlan(kind="create", collection="haulouts", ref_checks={"yard_id": "yards"}, ref_requires={})
    named = [
        Case("open_haulout", "llm-cases", STATE, {"yard_id": "Y9"}, expect_error=False),  # no such yard
        Case("open_haulout", "llm-cases", STATE, {"yard_id": "Y1"}, expect_error=False),  # it exists: a real bug
    ]
    failing = ToolTestResult(
        0, 2, [CaseFailure(i, "llm-cases", "wrong_error", "raised ToolError('x')") for i in (0, 1)]
    )
    assert docs_refused(named, failing, [], plan) == {0}
    stated = ToolPlan(
        kind="create",
        collection="haulouts",
        ref_checks={"yard_id": "yards"},
        ref_requires={"yard_id": {"hourly_rate": [5.0]}},
    )
    assert docs_refused(named, failing, [], stated) == {0, 1}  # Y1's rate is not one the docs allow


APPROVE = ToolSpec(
    "approve_haulout",
    "Approves an open haul-out.\n\nEffects: the status becomes 'approved', `approved_by` is the foreman, "
    "`billed_fee` is the quoted charge (see price_haulout), and the yard's `takings_total` increases by that amount.",
    {"type": "object", "properties": {**KEY, "foreman": {"type": "string"}}, "required": ["haulout_id", "foreman"]},
)


def test_a_field_is_the_quoted_figure_and_a_linked_number_grows_by_that_amount() -> None:
    said = "`billed_fee` is the quoted charge (see price_haulout), and the yard's `takings_total` increases by that "
    said += "amount."
    assert figure_sets(said, ["charge"], ["billed_fee"]) == {"billed_fee": "charge"}
    moves = figure_moves(said, {"billed_fee": "charge"}, HAULOUT, SCHEMA["properties"])
    assert moves == [
        {
            "op": "adjust",
            "collection": "yards",
            "path": [{"from": "record", "path": ["yard_id"]}, {"from": "const", "value": "takings_total"}],
            "delta": {"from": "figure", "name": "charge"},
        }
    ]
    falls = figure_moves(said.replace("increases", "drops"), {"billed_fee": "charge"}, HAULOUT, SCHEMA["properties"])
    assert falls[0]["delta"]["from"] == "difference"
    assert figure_moves("The yard's `takings_total` increases by 5.", {"billed_fee": "charge"}, HAULOUT, {}) == []

    plan = docs_transition(APPROVE, PLAN, SCHEMA, "", list(STATE["haulouts"].values()), STATE)
    assert plan is not None
    quotes = sibling_quotes([PRICE, APPROVE], SCHEMA, STATE)
    plan = priced_plan(APPROVE, plan, SCHEMA, [PRICE, APPROVE], quotes, APPROVE.description)
    approved = copy.deepcopy(STATE)
    approved["haulouts"]["H1"].update(status="approved", approved_by="Ines", billed_fee=150.25)
    approved["yards"]["Y1"]["takings_total"] = 1150.25  # 2.5 x 64.1 - 10 = 150.25
    case = Case(APPROVE.name, "x", STATE, {"haulout_id": "H1", "foreman": "Ines"}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": approved}]
    passed, err = _run(APPROVE, plan, [case])
    assert err == "" and passed == 1
