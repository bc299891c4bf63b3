"""Write trajectories.jsonl: seeded support-agent sessions, built and checked on the adapter.

Each session starts from data.json. Calls are chosen by templates; arguments that depend on earlier
answers (a new order id, a ticket id) are read from the adapter's outputs while the session is built.
Run: python make_trajectories.py  (byte-identical output for the same data.json and seed).
"""

from __future__ import annotations

import json
import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import adapter  # noqa: E402

SEED = 20261120
COUNT = 72


class Session:
    """Records calls while running them on a fresh adapter."""

    def __init__(self, data: dict) -> None:
        self.api = adapter.make()
        self.api.reset(data)
        self.calls: list[dict] = []
        self.failed = 0

    def do(self, name: str, **arguments):
        self.calls.append({"name": name, "arguments": arguments})
        res = self.api.call(name, arguments)
        self.failed += 0 if res["ok"] else 1
        return res["output"] if res["ok"] else None


def _orders(data: dict, status: str | None = None, event_status: tuple = ()) -> list[dict]:
    out = [o for o in data["orders"].values() if status is None or o["status"] == status]
    if event_status:
        out = [o for o in out if data["events"][o["event_id"]]["status"] in event_status]
    return sorted(out, key=lambda o: o["order_id"])


def _on_sale(data: dict) -> list[dict]:
    return sorted((e for e in data["events"].values() if e["status"] == "on_sale"), key=lambda e: e["event_id"])


def t_buy_and_pay(r, d, s):
    cust = r.choice(sorted(d["customers"]))
    ev = r.choice(_on_sale(d))
    tier = r.choice(ev["tiers"])["tier"]
    qty = r.choice([1, 2, 2, 2, 3, 4])
    s.do("getCustomer", customer_id=cust)
    s.do("quoteTickets", event_id=ev["event_id"], tier=tier, quantity=qty)
    order = s.do("createOrder", customer_id=cust, event_id=ev["event_id"], tier=tier, quantity=qty)
    if order is not None:
        s.do("payOrder", order_id=order["order_id"])
    return f"Customer {cust} wants {qty} {tier} ticket(s) for '{ev['title']}' and to pay from their wallet."


def t_reserve_only(r, d, s):
    cust = r.choice(sorted(d["customers"]))
    ev = r.choice(_on_sale(d))
    tier = r.choice(ev["tiers"])["tier"]
    qty = r.choice([1, 2, 3, 5, 6])
    s.do("getEvent", event_id=ev["event_id"])
    s.do("createOrder", customer_id=cust, event_id=ev["event_id"], tier=tier, quantity=qty)
    return f"Customer {cust} asks to hold {qty} {tier} ticket(s) for {ev['event_id']}; they will pay later."


def t_topup_then_pay(r, d, s):
    order = r.choice(_orders(d, "reserved"))
    cust = d["customers"][order["customer_id"]]
    short = order["total"] - cust["wallet_balance"]
    amount = max(10, math.ceil(short / 10) * 10) if short > 0 else r.choice([20, 50])
    s.do("getOrder", order_id=order["order_id"])
    s.do("getCustomer", customer_id=cust["customer_id"])
    s.do("topUpWallet", customer_id=cust["customer_id"], amount=amount)
    s.do("payOrder", order_id=order["order_id"])
    who = f"{cust['name']} ({cust['customer_id']})"
    return f"{who} wants to pay order {order['order_id']}; add {amount} to the wallet first."


def t_pay_directly(r, d, s):
    order = r.choice(_orders(d))
    s.do("getOrder", order_id=order["order_id"])
    s.do("payOrder", order_id=order["order_id"])
    return f"Customer {order['customer_id']} asks to pay order {order['order_id']} from their wallet."


def t_cancel(r, d, s):
    live = ("on_sale", "sold_out")
    order = r.choice(_orders(d, r.choice(["paid", "reserved", "paid"]), event_status=live))
    cust = order["customer_id"]
    listed = s.do("listCustomerOrders", customer_id=cust, status=order["status"])
    s.do("cancelOrder", order_id=order["order_id"])
    s.do("getCustomer", customer_id=cust)
    assert listed is not None
    return f"Customer {cust} can no longer attend and wants order {order['order_id']} cancelled and refunded."


def t_cancel_past(r, d, s):
    order = r.choice(_orders(d, event_status=("completed",)))
    s.do("getOrder", order_id=order["order_id"])
    s.do("cancelOrder", order_id=order["order_id"])
    return f"Customer {order['customer_id']} asks for a refund of order {order['order_id']} for a show they missed."


def t_add_ticket(r, d, s):
    order = r.choice(_orders(d, "reserved"))
    ev = d["events"][order["event_id"]]
    tier = r.choice(ev["tiers"])["tier"]
    s.do("getOrder", order_id=order["order_id"])
    s.do("getEvent", event_id=ev["event_id"])
    s.do("addTicket", order_id=order["order_id"], tier=tier)
    if r.random() < 0.4:
        s.do("payOrder", order_id=order["order_id"])
        return f"Add one {tier} ticket to order {order['order_id']} for a friend, then pay the order."
    return f"Customer {order['customer_id']} wants one more {tier} ticket on order {order['order_id']}."


def t_remove_ticket(r, d, s):
    order = r.choice(_orders(d, r.choice(["reserved", "reserved", "reserved", "paid"])))
    got = s.do("getOrder", order_id=order["order_id"])
    ticket = got["tickets"][-1]["ticket_id"]
    s.do("removeTicket", order_id=order["order_id"], ticket_id=ticket)
    return f"One guest of order {order['order_id']} dropped out; remove ticket {ticket}."


def t_browse(r, d, s):
    max_price = r.choice([10, 15, 25, 30, 40])
    date_to = r.choice(["2026-11-30", "2026-12-10", "2026-12-31"])
    found = s.do("listEvents", status="on_sale", max_price=max_price, date_from="2026-11-20", date_to=date_to)
    if found:
        ev = r.choice(found)
        tier = min(ev["tiers"], key=lambda t: t["price"])["tier"]
        s.do("quoteTickets", event_id=ev["event_id"], tier=tier, quantity=2)
        return f"A customer wants a show before {date_to} with tickets at most {max_price} and a price for two."
    return f"A customer asks for on-sale shows before {date_to} with tickets at most {max_price}."


def t_promo(r, d, s):
    code = r.choice(sorted(d["promo_codes"]))
    promo = d["promo_codes"][code]
    ev = d["events"][promo["event_id"]] if promo["event_id"] and r.random() < 0.7 else r.choice(_on_sale(d))
    tier = ev["tiers"][0]["tier"]
    cust = r.choice(sorted(d["customers"]))
    quote = s.do("quoteTickets", event_id=ev["event_id"], tier=tier, quantity=2, promo_code=code)
    if quote is not None:
        s.do("createOrder", customer_id=cust, event_id=ev["event_id"], tier=tier, quantity=2, promo_code=code)
    return f"Customer {cust} has promo code {code} and wants two {tier} tickets for {ev['event_id']}."


def t_unavailable(r, d, s):
    ev = r.choice([e for e in d["events"].values() if e["status"] != "on_sale"] + _on_sale(d)[:1])
    cust = r.choice(sorted(d["customers"]))
    s.do("listEvents", date_from=ev["date"], date_to=ev["date"])
    s.do("createOrder", customer_id=cust, event_id=ev["event_id"], tier=ev["tiers"][-1]["tier"], quantity=2)
    return f"Customer {cust} wants two tickets for '{ev['title']}' on {ev['date']}."


def t_history(r, d, s):
    cust = r.choice(sorted(d["customers"]))
    evs = sorted({o["event_id"] for o in d["orders"].values() if o["customer_id"] == cust} | {"EV-305"})
    ev = r.choice(evs)
    s.do("listCustomerOrders", customer_id=cust, event_id=ev)
    s.do("getEvent", event_id=ev)
    return f"Customer {cust} asks which orders they have for {ev} and when doors open."


def t_missing(r, d, s):
    kind = r.choice(["order", "customer", "event"])
    if kind == "order":
        s.do("getOrder", order_id=r.choice(["OR-00099", "OR-0007", "OR-00031"]))
        s.do("listCustomerOrders", customer_id="CU-1005")
        return "A customer quotes an order number we cannot find; look up their orders (CU-1005) instead."
    if kind == "customer":
        s.do("getCustomer", customer_id="CU-1013")
        s.do("getCustomer", customer_id="CU-1012")
        return "Customer gives id CU-1013, then corrects it to CU-1012; show their wallet balance."
    s.do("quoteTickets", event_id="EV-311", tier="GA", quantity=1)
    s.do("listEvents", status="on_sale", date_from="2026-12-01")
    return "A customer asks for a price for event EV-311; find what is on sale in December."


def t_big_topup(r, d, s):
    cust = r.choice(sorted(d["customers"]))
    s.do("getCustomer", customer_id=cust)
    big = r.choice([600, 750.5])
    if r.random() < 0.5:
        s.do("topUpWallet", customer_id=cust, amount=big)
    s.do("topUpWallet", customer_id=cust, amount=r.choice([25, 40.5, 100, 500]))
    return f"Customer {cust} wants to add funds to their wallet (up to {big})."


TEMPLATES = [
    (t_buy_and_pay, 12),
    (t_reserve_only, 6),
    (t_topup_then_pay, 7),
    (t_pay_directly, 5),
    (t_cancel, 10),
    (t_cancel_past, 2),
    (t_add_ticket, 8),
    (t_remove_ticket, 6),
    (t_browse, 6),
    (t_promo, 8),
    (t_unavailable, 3),
    (t_history, 4),
    (t_missing, 2),
    (t_big_topup, 3),
]


def build(data: dict, seed: int = SEED, count: int = COUNT) -> list[dict]:
    """Return `count` trajectories drawn from the templates with a seeded generator."""
    r = random.Random(seed)
    funcs = [f for f, w in TEMPLATES for _ in range(w)]
    out = []
    for i in range(count):
        s = Session(data)
        instruction = r.choice(funcs)(r, data, s)
        out.append({"id": f"ticketing-{i:03d}", "instruction": instruction, "calls": s.calls})
    return out


def check(data: dict, trajs: list[dict]) -> tuple[int, int]:
    """Replay every trajectory on a fresh adapter; return (calls, failed calls)."""
    calls = failed = 0
    for t in trajs:
        assert 1 <= len(t["calls"]) <= 5, t["id"]
        api = adapter.make()
        api.reset(data)
        for c in t["calls"]:
            res = api.call(c["name"], c["arguments"])
            assert isinstance(res, dict) and isinstance(res.get("ok"), bool), (t["id"], c)
            calls += 1
            failed += 0 if res["ok"] else 1
    return calls, failed


def main() -> None:
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    trajs = build(data)
    calls, failed = check(data, trajs)
    share = failed / calls
    if not 0.10 <= share <= 0.15:
        raise SystemExit(f"failing share {share:.3f} outside 0.10-0.15; adjust templates")
    path = os.path.join(HERE, "trajectories.jsonl")
    with open(path + ".tmp", "w", encoding="utf-8") as fh:
        for t in trajs:
            fh.write(json.dumps(t, sort_keys=True) + "\n")
    os.replace(path + ".tmp", path)
    print(f"trajectories={len(trajs)} calls={calls} failing={failed} ({share:.1%})")


if __name__ == "__main__":
    main()
