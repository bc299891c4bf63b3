"""Lantern Hall box office API: the real implementation behind openapi.yaml.

Pure standard library and deterministic: ids come from counters derived from the state.
`python adapter.py` replays trajectories.jsonl from data.json and prints calls and errors.
"""

from __future__ import annotations

import copy
import json
import math
import os

SERVICE_FEE = 2.5  # per ticket, never discounted
MAX_TICKETS = 6  # per order
MAX_TOP_UP = 500.0
EVENT_STATUSES = ("scheduled", "on_sale", "sold_out", "completed", "cancelled")
ORDER_STATUSES = ("reserved", "paid", "cancelled")


class ApiError(Exception):
    """A refused request; the message is what the client sees."""


def _money(x: float) -> float:
    return round(x + 1e-9, 2)


class BoxOffice:
    """In-memory box office; state layout = data.json."""

    def __init__(self) -> None:
        self.db: dict = {"customers": {}, "events": {}, "orders": {}, "promo_codes": {}}

    # ---- adapter protocol -------------------------------------------------
    def reset(self, state: dict) -> None:
        self.db = copy.deepcopy(state)

    def state(self) -> dict:
        return copy.deepcopy(self.db)

    def call(self, name: str, arguments: dict) -> dict:
        handler = getattr(self, "op_" + str(name), None)
        if handler is None:
            return {"ok": False, "output": f"Error: unknown operation {name}"}
        args = dict(arguments or {})
        try:
            out = handler(args)
        except ApiError as exc:
            return {"ok": False, "output": f"Error: {exc}"}
        return {"ok": True, "output": copy.deepcopy(out)}

    # ---- helpers ----------------------------------------------------------
    @staticmethod
    def _req(args: dict, key: str, kind: type | tuple = str):
        if key not in args or args[key] is None:
            raise ApiError(f"missing required parameter {key}")
        val = args[key]
        if kind in (int, float) or kind == (int, float):
            if isinstance(val, bool) or not isinstance(val, (int, float)):
                raise ApiError(f"{key} must be a number")
        elif not isinstance(val, kind):
            raise ApiError(f"{key} must be a {kind.__name__}")
        return val

    def _customer(self, cid: str) -> dict:
        if cid not in self.db["customers"]:
            raise ApiError(f"customer {cid} not found")
        return self.db["customers"][cid]

    def _event(self, eid: str) -> dict:
        if eid not in self.db["events"]:
            raise ApiError(f"event {eid} not found")
        return self.db["events"][eid]

    def _order(self, oid: str) -> dict:
        if oid not in self.db["orders"]:
            raise ApiError(f"order {oid} not found")
        return self.db["orders"][oid]

    @staticmethod
    def _tier(event: dict, code: str) -> dict:
        for t in event["tiers"]:
            if t["tier"] == code:
                return t
        raise ApiError(f"tier {code} not found for event {event['event_id']}")

    def _promo(self, code: str, event_id: str) -> dict:
        promo = self.db["promo_codes"].get(code)
        if promo is None:
            raise ApiError(f"promo code {code} not found")
        if not promo["active"]:
            raise ApiError(f"promo code {code} is not active")
        if promo["uses"] >= promo["max_uses"]:
            raise ApiError(f"promo code {code} has no uses left")
        if promo["event_id"] is not None and promo["event_id"] != event_id:
            raise ApiError(f"promo code {code} is not valid for event {event_id}")
        return promo

    @staticmethod
    def _price(prices: list[float], percent_off: int) -> dict:
        subtotal = _money(sum(prices))
        discount = _money(subtotal * percent_off / 100)
        fees = _money(SERVICE_FEE * len(prices))
        return {
            "subtotal": subtotal,
            "discount": discount,
            "fees": fees,
            "total": _money(subtotal - discount + fees),
        }

    def _reprice(self, order: dict) -> None:
        percent = 0
        if order["promo_code"] is not None:
            percent = self.db["promo_codes"][order["promo_code"]]["percent_off"]
        order.update(self._price([t["price"] for t in order["tickets"]], percent))

    @staticmethod
    def _refresh_sold_out(event: dict) -> None:
        full = all(t["sold"] >= t["capacity"] for t in event["tiers"])
        if event["status"] == "on_sale" and full:
            event["status"] = "sold_out"
        elif event["status"] == "sold_out" and not full:
            event["status"] = "on_sale"

    def _next_id(self, prefix: str, ids) -> str:
        nums = [int(i[len(prefix) :]) for i in ids if i.startswith(prefix)]
        return f"{prefix}{(max(nums) if nums else 0) + 1:05d}"

    def _all_ticket_ids(self) -> list[str]:
        return [t["ticket_id"] for o in self.db["orders"].values() for t in o["tickets"]]

    def _reserved(self, order: dict, what: str) -> None:
        if order["status"] != "reserved":
            raise ApiError(f"order {order['order_id']} is {order['status']}; only reserved orders can {what}")

    # ---- reads ------------------------------------------------------------
    def op_getCustomer(self, a: dict):
        return self._customer(self._req(a, "customer_id"))

    def op_getEvent(self, a: dict):
        return self._event(self._req(a, "event_id"))

    def op_getOrder(self, a: dict):
        return self._order(self._req(a, "order_id"))

    def op_listEvents(self, a: dict):
        status = a.get("status")
        if status is not None and status not in EVENT_STATUSES:
            raise ApiError(f"status must be one of {', '.join(EVENT_STATUSES)}")
        max_price = a.get("max_price")
        if max_price is not None and (isinstance(max_price, bool) or not isinstance(max_price, (int, float))):
            raise ApiError("max_price must be a number")
        out = []
        for ev in sorted(self.db["events"].values(), key=lambda e: (e["date"], e["event_id"])):
            if status is not None and ev["status"] != status:
                continue
            if a.get("date_from") is not None and ev["date"] < a["date_from"]:
                continue
            if a.get("date_to") is not None and ev["date"] > a["date_to"]:
                continue
            if max_price is not None and not any(t["price"] <= max_price for t in ev["tiers"]):
                continue
            out.append(ev)
        return out

    def op_listCustomerOrders(self, a: dict):
        cid = self._req(a, "customer_id")
        self._customer(cid)
        status = a.get("status")
        if status is not None and status not in ORDER_STATUSES:
            raise ApiError(f"status must be one of {', '.join(ORDER_STATUSES)}")
        eid = a.get("event_id")
        if eid is not None:
            self._event(eid)
        out = []
        for oid in sorted(self.db["orders"]):
            o = self.db["orders"][oid]
            if o["customer_id"] != cid:
                continue
            if status is not None and o["status"] != status:
                continue
            if eid is not None and o["event_id"] != eid:
                continue
            out.append(o)
        return out

    def op_quoteTickets(self, a: dict):
        event = self._event(self._req(a, "event_id"))
        tier = self._tier(event, self._req(a, "tier"))
        qty = self._quantity(a)
        percent = 0
        if a.get("promo_code") is not None:
            percent = self._promo(a["promo_code"], event["event_id"])["percent_off"]
        quote = {"event_id": event["event_id"], "tier": tier["tier"], "quantity": qty, "unit_price": tier["price"]}
        quote.update(self._price([tier["price"]] * qty, percent))
        quote["available"] = tier["capacity"] - tier["sold"]
        return quote

    @classmethod
    def _quantity(cls, a: dict) -> int:
        qty = a.get("quantity", 1)
        if isinstance(qty, bool) or not isinstance(qty, int):
            raise ApiError("quantity must be an integer")
        if qty < 1 or qty > MAX_TICKETS:
            raise ApiError(f"quantity must be between 1 and {MAX_TICKETS}")
        return qty

    # ---- writes -----------------------------------------------------------
    def op_createOrder(self, a: dict):
        customer = self._customer(self._req(a, "customer_id"))
        event = self._event(self._req(a, "event_id"))
        tier = self._tier(event, self._req(a, "tier"))
        qty = self._quantity(a)
        if event["status"] != "on_sale":
            raise ApiError(
                f"event {event['event_id']} is {event['status']}; tickets can only be ordered for on_sale events"
            )
        if tier["capacity"] - tier["sold"] < qty:
            raise ApiError(f"only {tier['capacity'] - tier['sold']} {tier['tier']} tickets left")
        code = a.get("promo_code")
        promo = self._promo(code, event["event_id"]) if code is not None else None
        order_id = self._next_id("OR-", self.db["orders"])
        ticket_ids = self._all_ticket_ids()
        tickets = []
        for _ in range(qty):
            tid = self._next_id("TK-", ticket_ids)
            ticket_ids.append(tid)
            tickets.append({"ticket_id": tid, "tier": tier["tier"], "price": tier["price"]})
        order = {
            "order_id": order_id,
            "customer_id": customer["customer_id"],
            "event_id": event["event_id"],
            "status": "reserved",
            "tickets": tickets,
            "promo_code": code,
            "history": [{"action": "created", "amount": 0}],
        }
        self._reprice(order)
        order["history"][0]["amount"] = order["total"]
        tier["sold"] += qty
        if promo is not None:
            promo["uses"] += 1
        self._refresh_sold_out(event)
        self.db["orders"][order_id] = order
        return order

    def op_payOrder(self, a: dict):
        order = self._order(self._req(a, "order_id"))
        self._reserved(order, "be paid")
        customer = self.db["customers"][order["customer_id"]]
        if customer["wallet_balance"] < order["total"]:
            raise ApiError(
                f"insufficient wallet balance: {customer['wallet_balance']:.2f} available, {order['total']:.2f} due"
            )
        customer["wallet_balance"] = _money(customer["wallet_balance"] - order["total"])
        points = math.floor(order["total"])
        customer["loyalty_points"] += points
        order["status"] = "paid"
        order["history"].append({"action": "paid", "amount": order["total"]})
        return order

    def op_cancelOrder(self, a: dict):
        order = self._order(self._req(a, "order_id"))
        if order["status"] == "cancelled":
            raise ApiError(f"order {order['order_id']} is already cancelled")
        event = self.db["events"][order["event_id"]]
        if event["status"] == "completed":
            raise ApiError(f"event {event['event_id']} has already taken place; its orders cannot be cancelled")
        refund = 0.0
        if order["status"] == "paid":
            refund = order["total"]
            customer = self.db["customers"][order["customer_id"]]
            customer["wallet_balance"] = _money(customer["wallet_balance"] + refund)
            customer["loyalty_points"] = max(0, customer["loyalty_points"] - math.floor(refund))
        for t in order["tickets"]:
            self._tier(event, t["tier"])["sold"] -= 1
        order["status"] = "cancelled"
        order["history"].append({"action": "cancelled", "amount": refund})
        self._refresh_sold_out(event)
        return order

    def op_addTicket(self, a: dict):
        order = self._order(self._req(a, "order_id"))
        self._reserved(order, "be changed")
        event = self.db["events"][order["event_id"]]
        tier = self._tier(event, self._req(a, "tier"))
        if len(order["tickets"]) >= MAX_TICKETS:
            raise ApiError(f"an order holds at most {MAX_TICKETS} tickets")
        if tier["sold"] >= tier["capacity"]:
            raise ApiError(f"no {tier['tier']} tickets left")
        tid = self._next_id("TK-", self._all_ticket_ids())
        order["tickets"].append({"ticket_id": tid, "tier": tier["tier"], "price": tier["price"]})
        tier["sold"] += 1
        self._reprice(order)
        order["history"].append({"action": "ticket_added", "amount": order["total"]})
        self._refresh_sold_out(event)
        return order

    def op_removeTicket(self, a: dict):
        order = self._order(self._req(a, "order_id"))
        tid = self._req(a, "ticket_id")
        self._reserved(order, "be changed")
        idx = next((i for i, t in enumerate(order["tickets"]) if t["ticket_id"] == tid), None)
        if idx is None:
            raise ApiError(f"ticket {tid} not found in order {order['order_id']}")
        if len(order["tickets"]) == 1:
            raise ApiError("an order must keep at least one ticket; cancel the order instead")
        ticket = order["tickets"].pop(idx)
        event = self.db["events"][order["event_id"]]
        self._tier(event, ticket["tier"])["sold"] -= 1
        self._reprice(order)
        order["history"].append({"action": "ticket_removed", "amount": order["total"]})
        self._refresh_sold_out(event)
        return order

    def op_topUpWallet(self, a: dict):
        customer = self._customer(self._req(a, "customer_id"))
        amount = self._req(a, "amount", (int, float))
        if amount <= 0 or amount > MAX_TOP_UP:
            raise ApiError(f"amount must be greater than 0 and at most {MAX_TOP_UP:.2f}")
        customer["wallet_balance"] = _money(customer["wallet_balance"] + amount)
        return customer


def make() -> BoxOffice:
    """Return a fresh box office (empty until reset)."""
    return BoxOffice()


def _replay() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    calls = errors = trajs = 0
    api = make()
    with open(os.path.join(here, "trajectories.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            trajs += 1
            api.reset(traj.get("initial_state", data))
            for c in traj["calls"]:
                res = api.call(c["name"], c["arguments"])
                calls += 1
                errors += 0 if res["ok"] else 1
    print(f"trajectories={trajs} calls={calls} errors={errors}")


if __name__ == "__main__":
    _replay()
