"""A bakery's orders, whose docs say a loaf added or taken off has "the amounts recomputed": the sample orders show
the subtotal is the loaves' prices summed, the fees 0.75 a loaf, the discount the coupon's percent of the subtotal
(none without a coupon) and the total subtotal - discount + fees; the batch the loaf came from counts it, and the
logged entry carries the new total."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.item_rules import refine_item
from synth.envsynth.list_totals import list_totals, with_list_totals
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_reuse import recomputed_names
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
LOAF = {"type": "object", "properties": {"loaf_id": S, "kind": S, "price": N}}
ORDER = {
    "order_id": S,
    "batch_id": S,
    "coupon": {"type": ["string", "null"]},
    "status": {"type": "string", "x-enum": ["open", "paid"]},
    "loaves": {"type": "array", "items": LOAF},
    "log": {"type": "array", "items": {"type": "object", "properties": {"action": S, "amount": N}}},
    "subtotal": N,
    "discount": N,
    "fees": N,
    "total": N,
}
KIND = {"type": "object", "properties": {"kind": S, "price": N, "baked": INT}}
SCHEMA = {
    "type": "object",
    "properties": {
        "batches": collection({"batch_id": S, "kinds": {"type": "array", "items": KIND}}),
        "coupons": collection({"code": S, "percent": N}),
        "orders": collection(ORDER),
    },
}
PRICES = {"rye": 4.0, "spelt": 5.5, "white": 3.0}


def _order(key: str, kinds: list[str], coupon: str | None, first: int) -> dict[str, Any]:
    loaves = [{"loaf_id": f"L-{first + i}", "kind": k, "price": PRICES[k]} for i, k in enumerate(kinds)]
    subtotal = sum(loaf["price"] for loaf in loaves)
    discount = round({"TEN": 10, "QUARTER": 25, None: 0}[coupon] / 100 * subtotal, 2)
    fees = 0.75 * len(loaves)
    total = round(subtotal - discount + fees, 2)
    return {
        "order_id": key,
        "batch_id": "B1",
        "coupon": coupon,
        "status": "open",
        "loaves": loaves,
        "log": [{"action": "created", "amount": total}],
        "subtotal": subtotal,
        "discount": discount,
        "fees": fees,
        "total": total,
    }


def _state() -> dict[str, Any]:
    kinds = [{"kind": k, "price": p, "baked": 10} for k, p in sorted(PRICES.items())]
    return {
        "batches": {"B1": {"batch_id": "B1", "kinds": kinds}},
        "coupons": {"TEN": {"code": "TEN", "percent": 10}, "QUARTER": {"code": "QUARTER", "percent": 25}},
        "orders": {
            "O1": _order("O1", ["rye", "rye"], None, 1),
            "O2": _order("O2", ["spelt"], "TEN", 3),
            "O3": _order("O3", ["white", "spelt", "rye"], "QUARTER", 4),
            "O4": _order("O4", ["white"], None, 7),
        },
    }


ADD = ToolSpec(
    "add_loaf",
    "Adds one loaf of the given kind of the order's batch, at the kind's price, to an `open` order. The kind's "
    '`baked` grows by 1, the amounts are recomputed and `{"action": "loaf_added", "amount": <new total>}` is '
    "appended to the log.",
    {"type": "object", "properties": {"order_id": S, "kind": S}, "required": ["order_id", "kind"]},
)
REMOVE = ToolSpec(
    "remove_loaf",
    "Takes a loaf off an `open` order. The loaf goes back to its kind (`baked` decreases), and subtotal, discount, "
    "fees and total are recomputed.",
    {"type": "object", "properties": {"order_id": S, "loaf_id": S}, "required": ["order_id", "loaf_id"]},
)
BASE = dict(collection="orders", key_field="order_id", key_param="order_id", list_field="loaves")


def test_each_figure_as_the_sample_orders_make_it_in_order_of_use() -> None:
    derive = list_totals(_state(), "orders", "loaves", ["subtotal", "discount", "fees", "total"])
    steps = dict((f, node) for f, node in derive["steps"])
    assert [f for f, _ in derive["steps"]][-1] == "total" and derive["named"] == {"coupon": "coupons"}
    assert steps["subtotal"] == {"sum": "loaves", "of": "price"}
    assert steps["fees"] == {"op": "*", "args": [{"num": 0.75}, {"count": "loaves"}]}
    assert steps["discount"]["round"]["args"][0]["args"][0] == {"field": "percent", "param": "coupon"}
    assert steps["total"] == {
        "op": "-",
        "args": [{"op": "+", "args": [{"val": "fees"}, {"val": "subtotal"}]}, {"val": "discount"}],
    }


def test_no_rule_the_sample_contradicts_and_the_docs_words_for_what_is_recomputed() -> None:
    off = _state()
    off["orders"]["O2"]["fees"] = 2.0  # not 0.75 a loaf, and the total does not show it either
    derive = list_totals(off, "orders", "loaves", ["fees"])
    assert derive is None
    own = SCHEMA["properties"]["orders"]["additionalProperties"]["properties"]
    assert recomputed_names(REMOVE.description, own) == ["subtotal", "discount", "fees", "total"]
    assert set(recomputed_names(ADD.description, own)) == {"subtotal", "discount", "fees", "total"}


def _run(spec: ToolSpec, plan: ToolPlan, calls: list[tuple[dict, dict | None]]) -> None:
    run_calls(spec, plan, SCHEMA, _state, calls)


def _plan(spec: ToolSpec, base: ToolPlan) -> ToolPlan:
    plan = refine_item(spec, base, SCHEMA, spec.description, _state())
    return with_list_totals(plan, SCHEMA, spec.description, _state())


def test_adding_a_loaf_counts_it_recomputes_the_order_and_logs_the_new_total() -> None:
    base = ToolPlan(kind="item_add", fields=["kind"], item_key="loaf_id", key_format={"prefix": "L-"}, **BASE)
    plan = _plan(ADD, base)
    after = _state()
    order = after["orders"]["O2"]
    order["loaves"].append({"loaf_id": "L-8", "kind": "rye", "price": 4.0})
    order.update(subtotal=9.5, discount=0.95, fees=1.5, total=10.05)
    order["log"].append({"action": "loaf_added", "amount": 10.05})
    after["batches"]["B1"]["kinds"][0]["baked"] = 11
    _run(ADD, plan, [({"order_id": "O2", "kind": "rye"}, after)])


def test_taking_a_loaf_off_gives_it_back_and_recomputes_the_order() -> None:
    plan = _plan(REMOVE, ToolPlan(kind="item_remove", op_param="loaf_id", item_key="loaf_id", **BASE))
    after = _state()
    order = after["orders"]["O3"]
    order["loaves"] = [loaf for loaf in order["loaves"] if loaf["loaf_id"] != "L-5"]
    order.update(subtotal=7.0, discount=1.75, fees=1.5, total=6.75)
    after["batches"]["B1"]["kinds"][1]["baked"] = 9
    unchanged = copy.deepcopy(_state())
    assert unchanged["orders"]["O3"]["total"] != 6.75
    _run(REMOVE, plan, [({"order_id": "O3", "loaf_id": "L-5"}, after)])


def test_a_change_that_leaves_fields_its_docs_say_it_changes_is_not_published() -> None:
    from types import SimpleNamespace

    from synth.envsynth.gate import _unmet_stated_changes

    called = [(SimpleNamespace(state=_state()), SimpleNamespace(status="ok"))]
    base = ToolPlan(kind="item_add", fields=["kind"], item_key="loaf_id", key_format={"prefix": "L-"}, **BASE)
    assert _unmet_stated_changes(ADD, _plan(ADD, base).to_dict(), called) == []  # every amount recomputed
    bare = refine_item(ADD, base, SCHEMA, ADD.description, _state())  # the amounts left as they were
    assert _unmet_stated_changes(ADD, bare.to_dict(), called) == [
        "the docs say the call changes `discount`, `fees`, `subtotal`, `total`; the plan leaves that as it is"
    ]
    voiding = ToolSpec("void_order", "Effects: status `void`, `fees` set to 0.", REMOVE.parameters)
    sets_status = ToolPlan(
        kind="recorded_update",
        effects=[{"op": "set", "field": "status", "source": {"from": "const", "value": "void"}}],
        **BASE,
    )
    assert "`fees`" in _unmet_stated_changes(voiding, sets_status.to_dict(), called)[0]
    moving = ToolSpec("move_order", "The order's status becomes void and its batch_id moves to the spare batch.", {})
    assert "`batch_id`" in _unmet_stated_changes(moving, sets_status.to_dict(), called)[0]
    ruled = ToolSpec("move_order", "Only orders whose batch_id is set can move. The status becomes void.", {})
    assert _unmet_stated_changes(ruled, sets_status.to_dict(), called) == []  # a rule reads it, nothing more
