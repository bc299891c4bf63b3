"""Runtime speed at the size of tau-bench retail (1,000 orders, 500 users, 50 products).

Aims (DESIGN.md): reset <= 1 ms, comparing what changed <= 5 ms, a restricted tool call close to a
hand-written one (~53 us in tau-bench). Asserted bounds are loose so a loaded machine does not fail the
test; the measured figures are printed (`pytest -s`).
"""

from __future__ import annotations

import copy
import statistics
import time

from synth.errors import ToolError
from synth.runtime import Environment, state_hash
from synth.spec import ToolSpec

SOURCE = """
def get_order_details(state, order_id):
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError("order not found")
    return order


def cancel_pending_order(state, order_id, reason):
    order = state["orders"].get(order_id)
    if order is None:
        raise ToolError("order not found")
    if order["status"] != "pending":
        raise ToolError("non-pending order cannot be cancelled")
    if reason not in ("no longer needed", "ordered by mistake"):
        raise ToolError("invalid reason")
    refunds = []
    for payment in order["payment_history"]:
        refunds.append({"transaction_type": "refund", "amount": payment["amount"],
                        "payment_method_id": payment["payment_method_id"]})
    order["status"] = "cancelled"
    order["payment_history"].extend(refunds)
    return order


def modify_user_address(state, user_id, city, zip):
    user = state["users"].get(user_id)
    if user is None:
        raise ToolError("user not found")
    user["address"] = {"city": city, "zip": zip}
    return user
"""

ORDER_ID = {"type": "string"}
TOOLS = [
    ToolSpec(
        "get_order_details", "", {"type": "object", "properties": {"order_id": ORDER_ID}, "required": ["order_id"]}
    ),
    ToolSpec(
        "cancel_pending_order",
        "",
        {
            "type": "object",
            "properties": {
                "order_id": ORDER_ID,
                "reason": {"type": "string", "enum": ["no longer needed", "ordered by mistake"]},
            },
            "required": ["order_id", "reason"],
        },
    ),
    ToolSpec(
        "modify_user_address",
        "",
        {
            "type": "object",
            "properties": {"user_id": {"type": "string"}, "city": {"type": "string"}, "zip": {"type": "string"}},
            "required": ["user_id", "city", "zip"],
        },
    ),
]


def retail_state() -> dict:
    products = {
        f"P{i}": {
            "product_id": f"P{i}",
            "name": f"product {i}",
            "variants": {
                f"V{i}-{j}": {
                    "item_id": f"V{i}-{j}",
                    "price": 10.0 + j,
                    "available": True,
                    "options": {"color": "red", "size": str(j)},
                }
                for j in range(4)
            },
        }
        for i in range(50)
    }
    users = {
        f"U{i}": {
            "user_id": f"U{i}",
            "name": {"first_name": "Ann", "last_name": f"L{i}"},
            "address": {"city": "Austin", "zip": "78701"},
            "email": f"u{i}@example.com",
            "payment_methods": {f"card_{i}": {"source": "credit_card", "last_four": "1234"}},
            "orders": [f"O{i}", f"O{i + 500}"],
        }
        for i in range(500)
    }
    orders = {
        f"O{i}": {
            "order_id": f"O{i}",
            "user_id": f"U{i % 500}",
            "status": "pending",
            "address": {"city": "Austin", "zip": "78701"},
            "items": [
                {"name": "product 1", "product_id": "P1", "item_id": "V1-1", "price": 11.0, "options": {"color": "red"}}
                for _ in range(2)
            ],
            "payment_history": [
                {"transaction_type": "payment", "amount": 22.0, "payment_method_id": f"card_{i % 500}"}
            ],
        }
        for i in range(1000)
    }
    return {"products": products, "users": users, "orders": orders}


def median_us(samples: list[float]) -> float:
    return statistics.median(samples) * 1e6


def test_runtime_speed_at_retail_size() -> None:
    state = retail_state()
    env = Environment.from_parts("retail_perf", TOOLS, {t.name: t.name for t in TOOLS}, SOURCE, {"type": "object"})
    started = time.perf_counter()
    env.reset(initial_state=state)
    env.step({"name": "get_order_details", "arguments": {"order_id": "O1"}})
    first_ms = (time.perf_counter() - started) * 1e3

    resets, reads, writes, diffs = [], [], [], []
    for episode in range(40):
        t0 = time.perf_counter()
        env.reset(initial_state=state)
        resets.append(time.perf_counter() - t0)
        for i in range(5):
            t0 = time.perf_counter()
            assert env.step({"name": "get_order_details", "arguments": {"order_id": f"O{episode * 5 + i}"}}).info["ok"]
            reads.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            assert env.step(
                {
                    "name": "cancel_pending_order",
                    "arguments": {"order_id": f"O{episode * 5 + i}", "reason": "no longer needed"},
                }
            ).info["ok"]
            assert env.step(
                {"name": "modify_user_address", "arguments": {"user_id": f"U{i}", "city": "Boston", "zip": "02101"}}
            ).info["ok"]
            writes.append((time.perf_counter() - t0) / 2)
        t0 = time.perf_counter()
        assert len(env.changed_paths()) == 5 * 2 + 5 * 2  # status + payment_history, city + zip
        diffs.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    full_hash = state_hash(env.state)
    hash_ms = (time.perf_counter() - t0) * 1e3
    t0 = time.perf_counter()
    copy.deepcopy(state)
    deepcopy_ms = (time.perf_counter() - t0) * 1e3

    plain: dict = {"ToolError": ToolError}
    exec(SOURCE, plain)
    restricted = env.definition.functions["cancel_pending_order"]
    orders = [copy.deepcopy(state["orders"]["O1"]) for _ in range(2000)]
    t0 = time.perf_counter()
    for order in orders[:1000]:
        plain["cancel_pending_order"]({"orders": {"O1": order}}, "O1", "no longer needed")
    plain_us = (time.perf_counter() - t0) / 1000 * 1e6
    t0 = time.perf_counter()
    for order in orders[1000:]:
        restricted({"orders": {"O1": order}}, "O1", "no longer needed")
    restricted_us = (time.perf_counter() - t0) / 1000 * 1e6

    print(f"\nfirst reset+step (builds the shared index once per initial state): {first_ms:.1f} ms")
    print(
        f"reset median {median_us(resets):.1f} us | read step {median_us(reads):.1f} us | "
        f"write step {median_us(writes):.1f} us | changed_paths {median_us(diffs):.0f} us"
    )
    print(f"full state hash {hash_ms:.1f} ms ({full_hash[:8]}) | copy.deepcopy of the state {deepcopy_ms:.1f} ms")
    print(f"cancel_pending_order body: plain {plain_us:.1f} us, restricted {restricted_us:.1f} us")

    assert median_us(resets) < 1000
    assert median_us(diffs) < 5000
    assert median_us(reads) < 2000 and median_us(writes) < 3000
    assert restricted_us < 10 * plain_us + 20
    assert state == retail_state()  # the shared initial state was never written
