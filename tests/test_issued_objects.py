"""A status change that issues an object its record keeps (a haul-out's docket), priced as a sibling read computes
it, with the docket's id spelt from the record's number and the credit the docket applies taken off the skipper's;
planned from the docs and run."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.issued_objects import figure_moves, issued_object, spelt_ids
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.quote_effects import priced_plan
from synth.envsynth.quote_reuse import sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

DOCKET = {
    "type": ["object", "null"],
    "properties": {
        "docket_id": {"type": "string"},
        "labour": {"type": "number"},
        "subtotal": {"type": "number"},
        "credit_applied": {"type": "number"},
        "amount_due": {"type": "number"},
    },
}
HAULOUT = {
    "haulout_id": {"type": "string"},
    "yard_id": {"type": "string", "x-references": "yards"},
    "skipper_id": {"type": "string", "x-references": "skippers"},
    "status": {"type": "string", "x-enum": ["open", "closed"]},
    "hours": {"type": "number"},
    "docket": DOCKET,
}
YARD = {"yard_id": {"type": "string"}, "hourly_rate": {"type": "number"}, "cradle_fee": {"type": "number"}}
SKIPPER = {"skipper_id": {"type": "string"}, "credit": {"type": "number"}}
COLS = {"haulouts": _collection(HAULOUT), "yards": _collection(YARD), "skippers": _collection(SKIPPER)}
SCHEMA = {"type": "object", "properties": COLS}
KEY = {"haulout_id": {"type": "string"}}
PRICE = ToolSpec(
    "price_haulout",
    "Works out what the docket would be if the haul-out were closed now, without changing anything. "
    "labour = the haul-out's hours times the yard's hourly_rate; subtotal = labour + the yard's cradle_fee; "
    "credit_applied = the skipper's credit; amount_due = subtotal - credit_applied. "
    "Returns {haulout_id, labour, subtotal, credit_applied, amount_due}.",
    {"type": "object", "properties": KEY, "required": ["haulout_id"]},
)
CLOSE = ToolSpec(
    "close_haulout",
    "Closes a haul-out. Allowed only from status `open`. Issues the docket (`docket_id` is `D-` followed by the "
    "haul-out's number). The skipper's positive credit is applied up to the subtotal and subtracted from `credit`; "
    "`amount_due` is the rest. Sets status `closed`. Returns the haul-out with its docket.",
    {"type": "object", "properties": KEY, "required": ["haulout_id"]},
)
STATE = {
    "haulouts": {
        "HO-3001": {
            "haulout_id": "HO-3001",
            "yard_id": "Y1",
            "skipper_id": "S1",
            "status": "open",
            "hours": 2.5,
            "docket": None,
        },
        "HO-3002": {
            "haulout_id": "HO-3002",
            "yard_id": "Y1",
            "skipper_id": "S2",
            "status": "open",
            "hours": 1,
            "docket": None,
        },
        "HO-3003": {
            "haulout_id": "HO-3003",
            "yard_id": "Y1",
            "skipper_id": "S1",
            "status": "closed",
            "hours": 1,
            "docket": None,
        },
    },
    "yards": {"Y1": {"yard_id": "Y1", "hourly_rate": 40.0, "cradle_fee": 25.0}},
    "skippers": {"S1": {"skipper_id": "S1", "credit": 30.0}, "S2": {"skipper_id": "S2", "credit": 12.5}},
}
PLAN = ToolPlan(kind="update", collection="haulouts", key_field="haulout_id", key_param="haulout_id")


def _planned() -> ToolPlan:
    moved = docs_transition(CLOSE, PLAN, SCHEMA, "", list(STATE["haulouts"].values()), STATE)
    assert moved is not None and moved.kind == "recorded_update"
    quotes = sibling_quotes([PRICE, CLOSE], SCHEMA, STATE)
    return priced_plan(CLOSE, moved, SCHEMA, [PRICE, CLOSE], quotes, CLOSE.description)


def test_an_id_spelt_from_the_records_number_and_a_credit_taken_off_a_linked_number() -> None:
    text = "Issues the docket (`docket_id` is `D-` followed by the haul-out's number)."
    assert spelt_ids(text, "haulouts") == {"docket_id": {"from": "concat", "parts": ["D-", {"from": "own_number"}]}}
    assert spelt_ids(text.replace("number", "id"), "haulouts")["docket_id"]["parts"][1] == {"from": "own_key"}
    assert spelt_ids(text, "yards") == {}  # another record's number: not the call's own
    said = "The skipper's positive credit is applied up to the subtotal and subtracted from `credit`."
    figures = ["labour", "subtotal", "credit_applied", "amount_due"]
    moves = figure_moves(said, figures, HAULOUT, COLS)
    assert moves == [
        {
            "op": "adjust",
            "collection": "skippers",
            "path": [{"from": "record", "path": ["skipper_id"]}, {"from": "const", "value": "credit"}],
            "delta": {
                "from": "difference",
                "new": {"from": "const", "value": 0},
                "old": {"from": "figure", "name": "credit_applied"},
            },
        }
    ]
    assert figure_moves(said.replace("subtracted from", "shown beside"), figures, HAULOUT, COLS) == []
    assert figure_moves("The fee is subtracted from `credit`.", figures, HAULOUT, COLS) == []  # whose credit?
    grows = figure_moves("The yard's labour is added to `hourly_rate`.", figures, HAULOUT, COLS)
    assert grows[0]["delta"] == {"from": "figure", "name": "labour"} and grows[0]["collection"] == "yards"


def test_a_change_issues_the_bill_its_sibling_read_computes() -> None:
    plan = _planned()
    issued = [e for e in plan.effects if e.get("field") == "docket"]
    assert issued and issued[0]["source"]["from"] == "object"
    closed = copy.deepcopy(STATE)
    docket = {"docket_id": "D-3001", "labour": 100.0, "subtotal": 125.0, "credit_applied": 30.0, "amount_due": 95.0}
    closed["haulouts"]["HO-3001"].update(status="closed", docket=docket)
    closed["skippers"]["S1"]["credit"] = 0.0
    covered = copy.deepcopy(STATE)
    covered["haulouts"]["HO-3002"].update(
        status="closed",
        docket={"docket_id": "D-3002", "labour": 40.0, "subtotal": 65.0, "credit_applied": 12.5, "amount_due": 52.5},
    )
    covered["skippers"]["S2"]["credit"] = 0.0
    cases = [
        Case(CLOSE.name, "x", STATE, {"haulout_id": "HO-3001"}, expect_error=False),
        Case(CLOSE.name, "x", STATE, {"haulout_id": "HO-3002"}, expect_error=False),
        Case(CLOSE.name, "x", STATE, {"haulout_id": "HO-3003"}, expect_error=True),  # already closed
    ]
    cases[0].state_checks = [{"op": "equals", "state": closed}]
    cases[1].state_checks = [{"op": "equals", "state": covered}]
    schema = SchemaResult(SCHEMA, {}, {}, "docs")
    res, err = run_cases(render_tool(CLOSE, plan, SCHEMA), CLOSE.name, cases, schema)
    assert err == "" and res.passed == len(cases)
    unissued = docs_transition(CLOSE, PLAN, SCHEMA, "", list(STATE["haulouts"].values()), STATE)
    before, _ = run_cases(render_tool(CLOSE, unissued, SCHEMA), CLOSE.name, cases, schema)
    assert before.passed < len(cases)  # without the sibling the docket stays empty


def test_no_bill_without_a_sibling_that_prices_every_key() -> None:
    moved = docs_transition(CLOSE, PLAN, SCHEMA, "", list(STATE["haulouts"].values()), STATE)
    quotes = sibling_quotes([PRICE, CLOSE], SCHEMA, STATE)
    unspelt = ToolSpec(
        CLOSE.name,
        CLOSE.description.replace(" (`docket_id` is `D-` followed by the haul-out's number)", ""),
        CLOSE.parameters,
    )
    assert issued_object(unspelt, moved, unspelt.description, HAULOUT, [PRICE, unspelt], quotes, COLS) == moved
    elsewhere = ToolSpec(
        PRICE.name, PRICE.description.replace("the docket would be", "it would cost"), PRICE.parameters
    )
    quotes = sibling_quotes([elsewhere, CLOSE], SCHEMA, STATE)
    same = issued_object(CLOSE, moved, CLOSE.description, HAULOUT, [elsewhere, CLOSE], quotes, COLS)
    assert same == moved  # the read neither names the docket nor is named by the change
