"""Rules in brackets after one value of a parameter: a berth fee paid by `card` needs the card's last digits, one
paid from the `purse` must be covered by the skipper's purse and is taken off it. Read, added to a list add's plan,
rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.option_rules import option_rules, with_option_rules
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
PAID = {"type": "object", "properties": {"paid_id": S, "method": S, "amount": N, "last4": S}}
SCHEMA = {
    "type": "object",
    "properties": {
        "stays": collection({"stay_id": S, "skipper_id": S, "paid": {"type": "array", "items": PAID}}),
        "skippers": collection({"skipper_id": S, "purse_balance": N}),
    },
}
TEXT = (
    "Records a payment on a stay. Methods: `card` (needs `last4`, four digits), `coins`, and `purse` (drawn from "
    "the skipper's `purse_balance`, which must cover the amount and is reduced by it)."
)
PARAMS = {
    "type": "object",
    "properties": {
        "stay_id": S,
        "method": {"type": "string", "enum": ["card", "coins", "purse"]},
        "amount": N,
        "last4": {"type": "string", "description": "Required for card payments."},
    },
    "required": ["stay_id", "method", "amount"],
}
SPEC = ToolSpec("pay_stay", TEXT, PARAMS)


def _state() -> dict[str, Any]:
    return {
        "stays": {
            "T1": {"stay_id": "T1", "skipper_id": "K1", "paid": []},
            "T2": {"stay_id": "T2", "skipper_id": "K2", "paid": []},
        },
        "skippers": {
            "K1": {"skipper_id": "K1", "purse_balance": 50.0},
            "K2": {"skipper_id": "K2", "purse_balance": 5.0},
        },
    }


def test_the_bracketed_rules_are_read() -> None:
    checks, effects = option_rules(SPEC, "stays", "stay_id", SCHEMA, TEXT)
    assert checks[0] == {"op": "given", "arg": "last4", "when": {"arg": "method", "in": ["card"]}}
    assert (checks[1]["op"], checks[1]["collection"], checks[1]["field"]) == ("enough", "skippers", "purse_balance")
    assert effects == [
        {
            "op": "adjust",
            "collection": "skippers",
            "path": [{"from": "record", "path": ["skipper_id"]}, {"from": "const", "value": "purse_balance"}],
            "delta": {"from": "expr", "expr": {"minus": [{"arg": "amount"}]}},
            "when": {"arg": "method", "in": ["purse"]},
        }
    ]
    unsaid = TEXT.replace(", which must cover the amount and is reduced by it", "")
    assert option_rules(SPEC, "stays", "stay_id", SCHEMA, unsaid)[1] == []
    assert option_rules(SPEC, "stays", "stay_id", SCHEMA, TEXT.replace("`last4`", "`pin`"))[0][0]["op"] == "enough"


def _paid(key: str, entry: dict[str, Any], purse: float | None = None) -> dict[str, Any]:
    out = copy.deepcopy(_state())
    out["stays"][key]["paid"].append({"paid_id": "1", **entry})
    if purse is not None:
        out["skippers"][out["stays"][key]["skipper_id"]]["purse_balance"] = purse
    return out


def test_a_payment_follows_its_method_rules() -> None:
    base = ToolPlan(
        kind="item_add",
        collection="stays",
        key_field="stay_id",
        key_param="stay_id",
        list_field="paid",
        item_key="paid_id",
        fields=["method", "amount", "last4"],
    )
    plan = with_option_rules(SPEC, base, SCHEMA, TEXT)
    calls = [
        ({"stay_id": "T1", "method": "purse", "amount": 20.0}, _paid("T1", {"method": "purse", "amount": 20.0}, 30.0)),
        ({"stay_id": "T2", "method": "purse", "amount": 20.0}, None),  # the purse holds 5
        ({"stay_id": "T2", "method": "card", "amount": 20.0}, None),  # no last digits
        (
            {"stay_id": "T2", "method": "card", "amount": 20.0, "last4": "4242"},
            _paid("T2", {"method": "card", "amount": 20.0, "last4": "4242"}),
        ),
        ({"stay_id": "T2", "method": "coins", "amount": 20.0}, _paid("T2", {"method": "coins", "amount": 20.0})),
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)
