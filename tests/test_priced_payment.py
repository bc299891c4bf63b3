"""A pot shipment priced as its quote prices it, the quote's `potter_id` read from the shipment's `sender_id` (a
potter under another name), paid from the sender's balance only with payment 'account' ("With payment 'account' the
postage is taken from the sender's balance, refused if the balance is short; with 'card' it is paid at the counter
and no balance changes"); planned by refine_create and priced_fields, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.create_rules import refine_create
from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_reuse import priced_fields, sibling_quotes
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
PAYMENT = {"type": "string", "enum": ["account", "card"]}
SHIPMENT = {
    "shipment_id": S,
    "sender_id": {"type": "string", "x-references": "potters"},
    "weight_kg": N,
    "payment": S,
    "postage": N,
    "status": S,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "potters": collection({"potter_id": S, "kind": S, "balance": N}),
        "shipments": collection(SHIPMENT),
    },
}
QUOTE = ToolSpec(
    "quote_shipping",
    "Price shipping a pot. Nothing is stored. base_price = weight_kg x 2.5. If `potter_id` is given and the potter's "
    "`kind` is 'guild', a rebate of 10% of (base_price), rounded half up to the cent, is taken off. total = "
    "base_price - rebate. Returns {base_price, rebate, total}.",
    {"type": "object", "properties": {"weight_kg": N, "potter_id": S}, "required": ["weight_kg"]},
)
SHIP_TEXT = (
    "Ship a pot for a potter. The shipment is stored with status 'booked'; its postage is priced as quote_shipping "
    "computes, with the sender's potter profile. With payment 'account' the postage is taken from the sender's "
    "balance, refused if the balance is short; with 'card' it is paid at the counter and no balance changes."
)
PARAMS = {"sender_id": S, "weight_kg": N, "payment": PAYMENT}
SHIP = ToolSpec("ship_pot", SHIP_TEXT, {"type": "object", "properties": PARAMS, "required": list(PARAMS)}, mutates=True)
PLAN = ToolPlan(
    kind="create",
    collection="shipments",
    key_field="shipment_id",
    fields=["sender_id", "weight_kg", "payment"],
    id_type="pattern",
    key_format={"prefix": "SH", "digits": 1},
)


def _state() -> dict[str, Any]:
    return {
        "potters": {
            "P1": {"potter_id": "P1", "kind": "guild", "balance": 50.0},
            "P2": {"potter_id": "P2", "kind": "hobby", "balance": 5.0},
        },
        "shipments": {},
    }


def test_the_payment_move_holds_for_its_value_only() -> None:
    [move] = docs_counters(SHIP_TEXT, "shipments", "shipment_id", SCHEMA, PARAMS)
    assert move["when"] == {"arg": "payment", "default": None, "in": ["account"]}
    assert move["delta"]["expr"] == {"minus": [{"path": ["postage"]}]}


def test_the_shipment_is_priced_for_its_sender_and_paid_as_asked() -> None:
    plan = refine_create(SHIP, PLAN, SCHEMA, SHIP_TEXT, today="2030-01-02")
    assert [c["op"] for c in plan.checks] == ["enough"]
    quotes = sibling_quotes([QUOTE, SHIP], SCHEMA, _state())
    plan = priced_fields(SHIP, plan, SCHEMA, [QUOTE, SHIP], quotes, SHIP_TEXT)
    assert plan.quote["assign"] == {"postage": "total"} and plan.quote["renamed"] == {"potter_id": "sender_id"}

    def shipped(sender: str, payment: str, postage: float, balance: float) -> dict[str, Any]:
        after = copy.deepcopy(_state())
        after["potters"][sender]["balance"] = balance
        record = {"sender_id": sender, "weight_kg": 4, "payment": payment, "postage": postage, "status": "booked"}
        after["shipments"]["SH1"] = {"shipment_id": "SH1", **record}
        return after

    calls = [
        ({"sender_id": "P1", "weight_kg": 4, "payment": "account"}, shipped("P1", "account", 9.0, 41.0)),  # rebate
        ({"sender_id": "P2", "weight_kg": 4, "payment": "card"}, shipped("P2", "card", 10.0, 5.0)),
        ({"sender_id": "P2", "weight_kg": 4, "payment": "account"}, None),  # 10.00 on a balance of 5.00
    ]
    run_calls(SHIP, plan, SCHEMA, _state, calls)
