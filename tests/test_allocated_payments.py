"""A payment on a boat's tab, read from its docs: the balance drops, the money goes to the boat's open invoices
oldest due date first (each grows until covered, the last one left partial), a `payment` event with a ticket
number spelt out of parts is logged, states move once the balance is settled (the boat's own and its berth plan's,
a collection the docs call by another name), sunk boats are refused and coins are capped. Planned by the pipeline's
own readings, rendered and run; the answer lists what went where."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.allocations import allocations
from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.arg_limits import capped_args
from synth.envsynth.docs_thresholds import listed_thresholds
from synth.envsynth.entry_ids import composed_ids
from synth.envsynth.envelope import with_envelope
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.refusals import refused_kinds
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass, run_calls

S, N = {"type": "string"}, {"type": "number"}
TODAY = "2030-06-01"
LOG = {
    "type": "object",
    "properties": {
        "date": S,
        "event": {"type": "string", "x-enum": ["payment", "fee"]},
        "amount": N,
        "method": S,
        "ticket": S,
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": collection(
            {
                "boat_id": S,
                "status": {"type": "string", "x-enum": ["afloat", "suspended", "sunk"]},
                "balance": N,
                "log": {"type": "array", "items": LOG},
            }
        ),
        "invoices": collection(
            {
                "invoice_id": S,
                "boat_id": S,
                "due_date": S,
                "amount": N,
                "settled": N,
                "status": {"type": "string", "x-enum": ["open", "partial", "cleared"]},
            }
        ),
        "mooring_schedules": collection(
            {"schedule_id": S, "boat_id": S, "status": {"type": "string", "x-enum": ["finished", "dropped"]}}
        ),
    },
}
TEXT = (
    "Takes a payment on a boat's tab.\n\nWhat happens:\n\n"
    "- The boat's `balance` goes down by `amount` (it may go below zero: the excess is a credit).\n"
    "- The money is applied to the boat's `open` and `partial` invoices, oldest due date first: each invoice's "
    "`settled` grows until the invoice is covered (status `cleared`), and an invoice left partly covered becomes "
    "`partial`.\n"
    "- A `payment` event is appended to the boat log with the ticket number (boat id + `-T` + the count of payment "
    "events on the boat including this one).\n"
    "- If the balance is now zero or less: a `suspended` boat becomes `afloat`, and a `running` berth plan becomes "
    "`finished`.\n\n"
    "Sunk boats do not take payments. Coins are accepted up to 200.00 per payment.\n\n"
    f"The business date is {TODAY}."
)
PARAMS = {
    "type": "object",
    "properties": {"boat_id": S, "amount": N, "method": {"type": "string", "description": "`card`, `coins` or `wire`"}},
    "required": ["boat_id", "amount", "method"],
}
APPLIED = {"type": "object", "properties": {"invoice_id": S, "applied": N, "status": S}}
RETURNS = {
    "type": "object",
    "properties": {
        "ticket": S,
        "boat_id": S,
        "amount": N,
        "method": S,
        "balance": N,
        "boat_status": S,
        "applied_to": {"type": "array", "items": APPLIED},
    },
}
SPEC = ToolSpec("pay_boat_account", TEXT, PARAMS, RETURNS)


def _state() -> dict[str, Any]:
    paid = {"date": "2030-05-01", "event": "payment", "amount": 10.0, "method": "card", "ticket": "B1-T1"}
    fee = {"date": "2030-05-02", "event": "fee", "amount": 5.0, "method": "", "ticket": ""}
    return {
        "boats": {
            "B1": {"boat_id": "B1", "status": "suspended", "balance": 120.0, "log": [paid, fee]},
            "B2": {"boat_id": "B2", "status": "afloat", "balance": 40.0, "log": [{**paid, "ticket": "B2-T1"}]},
            "B3": {"boat_id": "B3", "status": "sunk", "balance": 15.0, "log": []},
        },
        "invoices": {
            "I1": {
                "invoice_id": "I1",
                "boat_id": "B1",
                "due_date": "2030-04-01",
                "amount": 50.0,
                "settled": 20.0,
                "status": "partial",
            },
            "I2": {
                "invoice_id": "I2",
                "boat_id": "B1",
                "due_date": "2030-03-01",
                "amount": 40.0,
                "settled": 0.0,
                "status": "open",
            },
            "I3": {
                "invoice_id": "I3",
                "boat_id": "B1",
                "due_date": "2030-05-01",
                "amount": 50.0,
                "settled": 0.0,
                "status": "open",
            },
            "I4": {
                "invoice_id": "I4",
                "boat_id": "B1",
                "due_date": "2030-01-01",
                "amount": 9.0,
                "settled": 9.0,
                "status": "cleared",
            },
            "I5": {
                "invoice_id": "I5",
                "boat_id": "B2",
                "due_date": "2030-02-01",
                "amount": 40.0,
                "settled": 0.0,
                "status": "open",
            },
        },
        "mooring_schedules": {
            "M1": {"schedule_id": "M1", "boat_id": "B1", "status": "running"},
            "M2": {"schedule_id": "M2", "boat_id": "B2", "status": "dropped"},
        },
    }


def _plan() -> ToolPlan:
    base = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    records = list(_state()["boats"].values())
    changed = docs_transition(SPEC, base, SCHEMA, "", records, _state())
    assert changed is not None
    checked = allowed_checks(SPEC, changed, SCHEMA, TEXT, TODAY)
    return with_envelope(SPEC, checked, SCHEMA)


def test_each_reading() -> None:
    params = PARAMS["properties"]
    (spread,) = allocations(TEXT, "boats", SCHEMA, params)
    assert (spread["collection"], spread["ref"], spread["order"], spread["in"]) == (
        "invoices",
        "boat_id",
        "due_date",
        ["open", "partial"],
    )
    assert (spread["paid"], spread["total"], spread["covered"], spread["partial"]) == (
        "settled",
        "amount",
        "cleared",
        "partial",
    )
    assert allocations(TEXT.replace("oldest due date", "oldest arrival"), "boats", SCHEMA, params) == []
    own = SCHEMA["properties"]["boats"]["additionalProperties"]["properties"]
    sentence = TEXT.split("boat log ")[1]
    ticket = composed_ids(sentence, "boat", own, "log", "event", {"ticket", "date"})["ticket"]
    assert ticket["parts"][:2] == [{"from": "own_key"}, "-T"] and ticket["parts"][2]["after"] == 1
    assert composed_ids(sentence.replace("boat id", "the harbour"), "boat", own, "log", "event", {"ticket"}) == {}
    moves = listed_thresholds(TEXT, "boats", SCHEMA)
    assert [(m["collection"], m["from"], m["value"], m["reverse"]) for m in moves] == [
        ("boats", ["suspended"], "afloat", None),
        ("mooring_schedules", ["running"], "finished", "boat_id"),
    ]
    assert refused_kinds(TEXT, "boat", own) == {"status": ["afloat", "suspended"]}
    assert capped_args(TEXT, params) == [
        {"op": "arg_limit", "arg": "amount", "cmp": "<=", "value": 200.0, "when": {"arg": "method", "in": ["coins"]}}
    ]


def _paid(key: str, amount: float, method: str, ticket: str) -> dict[str, Any]:
    out = copy.deepcopy(_state())
    boat = out["boats"][key]
    boat["balance"] = round(boat["balance"] - amount, 2)
    boat["log"].append({"date": TODAY, "event": "payment", "amount": amount, "method": method, "ticket": ticket})
    return out


def test_a_payment_is_spread_logged_and_settles_states() -> None:
    plan = _plan()
    assert [e["op"] for e in plan.effects].count("allocate") == 1
    assert plan.preconditions == {"status": ["afloat", "suspended"]}

    short = _paid("B1", 60.0, "card", "B1-T2")  # I2 (oldest) covered, I1 takes the other 20 and stays partial
    short["invoices"]["I2"].update(settled=40.0, status="cleared")
    short["invoices"]["I1"].update(settled=40.0)
    full = _paid("B1", 150.0, "wire", "B1-T2")  # all three covered, 10 left as credit
    full["invoices"]["I2"].update(settled=40.0, status="cleared")
    full["invoices"]["I1"].update(settled=50.0, status="cleared")
    full["invoices"]["I3"].update(settled=50.0, status="cleared")
    full["boats"]["B1"]["status"] = "afloat"
    full["mooring_schedules"]["M1"]["status"] = "finished"
    partial = _paid("B2", 15.0, "coins", "B2-T2")
    partial["invoices"]["I5"].update(settled=15.0, status="partial")
    calls = [
        ({"boat_id": "B1", "amount": 60.0, "method": "card"}, short),
        ({"boat_id": "B1", "amount": 150.0, "method": "wire"}, full),
        ({"boat_id": "B2", "amount": 15.0, "method": "coins"}, partial),
        ({"boat_id": "B2", "amount": 250.0, "method": "coins"}, None),  # coins above 200
        ({"boat_id": "B3", "amount": 5.0, "method": "card"}, None),  # a sunk boat
        ({"boat_id": "B9", "amount": 5.0, "method": "card"}, None),  # no such boat
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)
    answer = {
        "ticket": "B1-T2",
        "boat_id": "B1",
        "amount": 60.0,
        "method": "card",
        "balance": 60.0,
        "boat_status": "suspended",
        "applied_to": [
            {"invoice_id": "I2", "applied": 40.0, "status": "cleared"},
            {"invoice_id": "I1", "applied": 20.0, "status": "partial"},
        ],
    }
    assert answers_pass(SPEC, plan, SCHEMA, _state(), [({"boat_id": "B1", "amount": 60.0, "method": "card"}, answer)])
    wrong = {**answer, "applied_to": answer["applied_to"][::-1]}
    assert not answers_pass(
        SPEC, plan, SCHEMA, _state(), [({"boat_id": "B1", "amount": 60.0, "method": "card"}, wrong)]
    )
