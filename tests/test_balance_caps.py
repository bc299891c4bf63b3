"""A chandlery's `collect_order(order_id, method)`: "With tab, the amount is added to the skipper's tab_balance;
the charge is refused if the balance would go above $150.00" caps the balance only when the order goes on the tab;
cash never touches it."""

from __future__ import annotations

from typing import Any

from synth.envsynth.docs_counters import covered, docs_counters
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
ORDER = {"order_id": S, "skipper_id": S, "amount": N, "status": {"type": "string", "x-enum": ["ready", "collected"]}}
SKIPPER = {"skipper_id": S, "tab_balance": N}
SCHEMA = {"type": "object", "properties": {"orders": collection(ORDER), "skippers": collection(SKIPPER)}}
METHOD = {"type": "string", "enum": ["cash", "tab"]}
COLLECT = ToolSpec(
    "collect_order",
    "Hand a ready order over. With tab, the amount is added to the skipper's tab_balance; the charge is refused if "
    "the balance would go above $150.00. Cash does not affect the balance.",
    {"type": "object", "properties": {"order_id": S, "method": METHOD}, "required": ["order_id", "method"]},
)


def _state() -> dict[str, Any]:
    return {
        "skippers": {"K1": {"skipper_id": "K1", "tab_balance": 120.0}},
        "orders": {
            "O1": {"order_id": "O1", "skipper_id": "K1", "amount": 30.0, "status": "ready"},
            "O2": {"order_id": "O2", "skipper_id": "K1", "amount": 30.5, "status": "ready"},
        },
    }


def test_the_tab_is_capped_only_when_the_order_goes_on_it() -> None:
    params = COLLECT.parameters["properties"]
    moves = docs_counters(COLLECT.description, "orders", "order_id", SCHEMA, params)
    assert len(moves) == 1 and moves[0]["when"] == {"arg": "method", "default": None, "in": ["tab"]}
    (cap,) = covered(moves, COLLECT.description)
    assert cap["most"] == 150.0 and cap["when"] == moves[0]["when"]
    plan = ToolPlan(
        kind="recorded_update",
        collection="orders",
        key_field="order_id",
        key_param="order_id",
        effects=[{"op": "set", "field": "status", "source": {"from": "const", "value": "collected"}}] + moves,
        checks=[cap],
    )

    def collected(key: str, tab: float) -> dict[str, Any]:
        out = _state()
        out["orders"][key]["status"] = "collected"
        out["skippers"]["K1"]["tab_balance"] = tab
        return out

    calls = [
        ({"order_id": "O1", "method": "tab"}, collected("O1", 150.0)),  # exactly at the cap
        ({"order_id": "O2", "method": "tab"}, None),  # 150.50: over it
        ({"order_id": "O2", "method": "cash"}, collected("O2", 120.0)),
    ]
    run_calls(COLLECT, plan, SCHEMA, _state, calls)
