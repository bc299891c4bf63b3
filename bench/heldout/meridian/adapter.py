"""Reference implementation of the garment-care counter API (fictional business).

make() returns an object with reset(state), call(name, arguments), state().
`python adapter.py` replays trajectories.jsonl (each from data.json) and prints counts.
Standard library only. Deterministic: the business date is fixed, the real clock is never read.
"""

import copy
import datetime
import json
import os
import re
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = "2025-05-13"
OPEN_STATUSES = ("received", "in_process", "ready")
STATUS_FLOW = ["received", "in_process", "ready", "collected"]
TIER_DISCOUNT = {"standard": Decimal("0"), "silver": Decimal("0.05"), "gold": Decimal("0.10")}
EXPRESS_RATE = Decimal("0.50")
MAX_LINE_QTY = 10
MAX_ORDER_PIECES = 25
MAX_OPEN_ORDERS = 4
DEPOSIT_RATE = Decimal("0.50")
CANCEL_RATE = Decimal("0.25")
CANCEL_MIN = Decimal("5.00")
STORAGE_GRACE_DAYS = 14
STORAGE_WEEKLY = Decimal("2.00")
PAY_METHODS = ("cash", "card", "account_credit")
CENT = Decimal("0.01")


class ApiError(Exception):
    pass


def D(x):
    return Decimal(str(x)).quantize(CENT, rounding=ROUND_HALF_UP)


def money(d):
    return float(D(d))


def fmt(d):
    return "%.2f" % D(d)


def parse_date(s):
    return datetime.date.fromisoformat(s)


def add_business_days(start, n):
    """Add n business days (Mon-Sat; the shop is closed on Sundays)."""
    d = parse_date(start)
    added = 0
    while added < n:
        d += datetime.timedelta(days=1)
        if d.weekday() != 6:
            added += 1
    return d.isoformat()


def storage_fee_for(ready_date, on_date=BUSINESS_DATE):
    if not ready_date:
        return Decimal("0.00")
    days = (parse_date(on_date) - parse_date(ready_date)).days
    over = days - STORAGE_GRACE_DAYS
    if over <= 0:
        return Decimal("0.00")
    weeks = (over + 6) // 7
    return D(STORAGE_WEEKLY * weeks)


class GarmentCounter:
    def __init__(self):
        self.db = {}

    # ------------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "t_" + str(name), None) if isinstance(name, str) else None
        if fn is None:
            return {"ok": False, "output": "Unknown tool: %s" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be an object"}
        snapshot = copy.deepcopy(self.db)
        try:
            out = fn(arguments)
            return {"ok": True, "output": copy.deepcopy(out)}
        except ApiError as e:
            self.db = snapshot
            return {"ok": False, "output": str(e)}
        except Exception as e:  # never raise
            self.db = snapshot
            return {"ok": False, "output": "Invalid request: %s" % e.__class__.__name__}

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _req(args, key):
        if key not in args or args[key] is None or args[key] == "":
            raise ApiError("Missing required parameter: %s" % key)
        return args[key]

    def _customer(self, cid):
        c = self.db.get("customers", {}).get(cid) if isinstance(cid, str) else None
        if c is None:
            raise ApiError("Customer %s not found" % cid)
        return c

    def _order(self, oid):
        o = self.db.get("orders", {}).get(oid) if isinstance(oid, str) else None
        if o is None:
            raise ApiError("Order %s not found" % oid)
        return o

    def _service(self, sid, check_active=True):
        s = self.db.get("services", {}).get(sid) if isinstance(sid, str) else None
        if s is None:
            raise ApiError("Service %s not found" % sid)
        if check_active and not s.get("active", True):
            raise ApiError("Service %s (%s) is no longer offered" % (sid, s["name"]))
        return s

    @staticmethod
    def _qty(q):
        if isinstance(q, bool) or not isinstance(q, int) or q < 1 or q > MAX_LINE_QTY:
            raise ApiError("Quantity must be a whole number from 1 to %d" % MAX_LINE_QTY)
        return q

    @staticmethod
    def _amount(a):
        if isinstance(a, bool) or not isinstance(a, (int, float, str)):
            raise ApiError("Amount must be a positive number with at most two decimals")
        try:
            d = Decimal(str(a))
        except Exception:
            raise ApiError("Amount must be a positive number with at most two decimals")
        if not d.is_finite() or d <= 0 or d != d.quantize(CENT):
            raise ApiError("Amount must be a positive number with at most two decimals")
        return D(d)

    def _customer_orders(self, cid):
        return [o for oid, o in sorted(self.db.get("orders", {}).items()) if o["customer_id"] == cid]

    def _open_orders(self, cid):
        return [o for o in self._customer_orders(cid) if o["status"] in OPEN_STATUSES]

    def _next_id(self, prefix, existing, width):
        n = 0
        for e in existing:
            m = re.match(r"^%s-(\d+)$" % re.escape(prefix), e)
            if m:
                n = max(n, int(m.group(1)))
        return "%s-%0*d" % (prefix, width, n + 1)

    def _all_payment_ids(self):
        for o in self.db.get("orders", {}).values():
            for p in o.get("payments", []):
                yield p["payment_id"]

    def _all_refund_ids(self):
        for o in self.db.get("orders", {}).values():
            for r in o.get("refunds", []):
                yield r["refund_id"]

    @staticmethod
    def _net_paid(o):
        return D(
            sum((D(p["amount"]) for p in o.get("payments", [])), Decimal("0"))
            - sum((D(r["amount"]) for r in o.get("refunds", [])), Decimal("0"))
        )

    def _storage_due(self, o):
        if o["status"] == "ready":
            return storage_fee_for(o.get("ready_date"))
        return D(o.get("storage_fee", 0))

    def _amount_owed(self, o):
        if o["status"] == "cancelled":
            return D(o.get("cancellation_fee", 0))
        return D(D(o["pricing"]["total"]) + self._storage_due(o))

    def _balance(self, o):
        if o["status"] == "cancelled":
            return Decimal("0.00")
        b = D(self._amount_owed(o) - self._net_paid(o))
        return b if b > 0 else Decimal("0.00")

    def _view_order(self, o):
        v = copy.deepcopy(o)
        v["storage_fee"] = money(self._storage_due(o))
        v["amount_paid"] = money(self._net_paid(o))
        v["balance_due"] = money(self._balance(o))
        return v

    def _promo(self, code, customer, subtotal, on_date, exclude_order=None):
        promos = self.db.get("promotions", {})
        p = promos.get(code) if isinstance(code, str) else None
        if p is None and isinstance(code, str):
            p = promos.get(code.upper())
        if p is None:
            raise ApiError("Promo code %s not found" % code)
        if not p.get("active", True):
            raise ApiError("Promo code %s is not active" % p["code"])
        if not (p["valid_from"] <= on_date <= p["valid_until"]):
            raise ApiError("Promo code %s is not valid on %s" % (p["code"], on_date))
        if p.get("first_order_only"):
            prior = [
                o
                for o in self._customer_orders(customer["customer_id"])
                if exclude_order is None or o["order_id"] < exclude_order
            ]
            if prior:
                raise ApiError("Promo code %s is for a customer's first order only" % p["code"])
        if subtotal < D(p["min_subtotal"]):
            raise ApiError("Promo code %s requires a subtotal of at least %s" % (p["code"], fmt(p["min_subtotal"])))
        if p["type"] == "percent":
            return p, D(subtotal * Decimal(str(p["value"])) / Decimal(100))
        return p, D(min(D(p["value"]), subtotal))

    def _price(self, customer, lines, express, promo_code, on_date, strict_promo=True, exclude_order=None):
        """lines: list of dicts with service_id, qty, unit_price. Returns pricing dict."""
        subtotal = D(sum((D(l["unit_price"]) * l["qty"] for l in lines), Decimal("0")))
        surcharge = D(subtotal * EXPRESS_RATE) if express else Decimal("0.00")
        tier = customer.get("tier", "standard")
        tier_disc = D(subtotal * TIER_DISCOUNT.get(tier, Decimal("0")))
        promo_disc = None
        promo_note = None
        if promo_code:
            try:
                p, promo_disc = self._promo(promo_code, customer, subtotal, on_date, exclude_order)
            except ApiError as e:
                if strict_promo:
                    raise
                promo_note = str(e)
        if promo_disc is not None and promo_disc > tier_disc:
            disc, source = promo_disc, "promo"
        elif tier_disc > 0:
            disc, source = tier_disc, "tier"
        else:
            disc, source = Decimal("0.00"), "none"
        total = D(subtotal + surcharge - disc)
        pricing = {
            "subtotal": money(subtotal),
            "express_surcharge": money(surcharge),
            "discount": money(disc),
            "discount_source": source,
            "total": money(total),
        }
        return pricing, promo_note

    def _build_lines(self, items, express, start_no=1):
        if not isinstance(items, list) or not items:
            raise ApiError("items must be a non-empty list")
        lines = []
        pieces = 0
        for i, it in enumerate(items):
            if not isinstance(it, dict):
                raise ApiError("Each item needs service_id and qty")
            sid = self._req(it, "service_id")
            svc = self._service(sid)
            qty = self._qty(it.get("qty", 1))
            if express and not svc["express_allowed"]:
                raise ApiError("Express service is not available for %s (%s)" % (sid, svc["name"]))
            pieces += qty
            line = {
                "line_id": "L%d" % (start_no + i),
                "service_id": sid,
                "description": str(it.get("description") or svc["name"]),
                "qty": qty,
                "unit_price": money(svc["unit_price"]),
                "line_total": money(D(svc["unit_price"]) * qty),
            }
            lines.append(line)
        if pieces > MAX_ORDER_PIECES:
            raise ApiError("An order may hold at most %d pieces" % MAX_ORDER_PIECES)
        return lines

    def _due_date(self, dropoff, lines, express):
        if express:
            return add_business_days(dropoff, 1)
        days = max(self.db["services"][l["service_id"]]["turnaround_days"] for l in lines)
        return add_business_days(dropoff, days)

    @staticmethod
    def _log(o, event, detail):
        o.setdefault("history", []).append({"date": BUSINESS_DATE, "event": event, "detail": detail})

    def _reprice(self, o):
        cust = self._customer(o["customer_id"])
        pricing, note = self._price(
            cust,
            o["items"],
            o["express"],
            o.get("promo_code"),
            o["dropoff_date"],
            strict_promo=False,
            exclude_order=o["order_id"],
        )
        o["pricing"] = pricing
        o["due_date"] = self._due_date(o["dropoff_date"], o["items"], o["express"])
        return note

    # ------------------------------------------------------------------ tools: reads
    def t_search_customers(self, a):
        name = a.get("name")
        phone = a.get("phone")
        email = a.get("email")
        if not name and not phone and not email:
            raise ApiError("Provide at least one of name, phone or email")
        digits = re.sub(r"\D", "", str(phone)) if phone else None
        res = []
        for cid, c in sorted(self.db.get("customers", {}).items()):
            if name and str(name).lower() not in c["name"].lower():
                continue
            if digits and re.sub(r"\D", "", c["phone"]) != digits:
                continue
            if email and str(email).lower() != c["email"].lower():
                continue
            res.append(
                {"customer_id": cid, "name": c["name"], "phone": c["phone"], "tier": c["tier"], "status": c["status"]}
            )
        return res

    def t_get_customer(self, a):
        c = self._customer(self._req(a, "customer_id"))
        v = copy.deepcopy(c)
        v["open_orders"] = [o["order_id"] for o in self._open_orders(c["customer_id"])]
        return v

    def t_list_services(self, a):
        cat = a.get("category")
        express_only = a.get("express_only", False)
        cats = sorted({s["category"] for s in self.db.get("services", {}).values()})
        if cat and cat not in cats:
            raise ApiError("Unknown category %s; use one of %s" % (cat, ", ".join(cats)))
        res = []
        for sid, s in sorted(self.db.get("services", {}).items()):
            if not s.get("active", True):
                continue
            if cat and s["category"] != cat:
                continue
            if express_only and not s["express_allowed"]:
                continue
            res.append(
                {
                    "service_id": sid,
                    "name": s["name"],
                    "category": s["category"],
                    "unit_price": s["unit_price"],
                    "turnaround_days": s["turnaround_days"],
                    "express_allowed": s["express_allowed"],
                    "specialty": s["specialty"],
                }
            )
        return res

    def t_get_order(self, a):
        return self._view_order(self._order(self._req(a, "order_id")))

    def t_search_orders(self, a):
        cid = a.get("customer_id")
        status = a.get("status")
        due_on = a.get("due_on")
        if not cid and not status and not due_on:
            raise ApiError("Provide at least one of customer_id, status or due_on")
        if status and status not in STATUS_FLOW + ["cancelled"]:
            raise ApiError("Unknown status %s" % status)
        if cid:
            self._customer(cid)
        res = []
        for oid, o in sorted(self.db.get("orders", {}).items()):
            if cid and o["customer_id"] != cid:
                continue
            if status and o["status"] != status:
                continue
            if due_on and o["due_date"] != due_on:
                continue
            res.append(
                {
                    "order_id": oid,
                    "customer_id": o["customer_id"],
                    "status": o["status"],
                    "dropoff_date": o["dropoff_date"],
                    "due_date": o["due_date"],
                    "pieces": sum(l["qty"] for l in o["items"]),
                    "total": o["pricing"]["total"],
                    "balance_due": money(self._balance(o)),
                }
            )
        return res

    # ------------------------------------------------------------------ tools: computation
    def t_quote_order(self, a):
        cust = self._customer(self._req(a, "customer_id"))
        express = bool(a.get("express", False))
        lines = self._build_lines(a.get("items"), express)
        pricing, _ = self._price(cust, lines, express, a.get("promo_code"), BUSINESS_DATE)
        return {
            "customer_id": cust["customer_id"],
            "express": express,
            "items": [
                {k: l[k] for k in ("service_id", "description", "qty", "unit_price", "line_total")} for l in lines
            ],
            "pricing": pricing,
            "due_date": self._due_date(BUSINESS_DATE, lines, express),
            "quoted_on": BUSINESS_DATE,
        }

    # ------------------------------------------------------------------ tools: writes
    def t_create_order(self, a):
        cust = self._customer(self._req(a, "customer_id"))
        if cust["status"] != "active":
            raise ApiError(
                "Customer account %s is on hold: %s" % (cust["customer_id"], cust.get("hold_reason") or "see notes")
            )
        express = bool(a.get("express", False))
        lines = self._build_lines(a.get("items"), express)
        promo_code = a.get("promo_code") or None
        pricing, _ = self._price(cust, lines, express, promo_code, BUSINESS_DATE)
        if len(self._open_orders(cust["customer_id"])) >= MAX_OPEN_ORDERS:
            raise ApiError(
                "Customer %s already has %d open orders (limit %d)"
                % (cust["customer_id"], len(self._open_orders(cust["customer_id"])), MAX_OPEN_ORDERS)
            )
        if promo_code:
            promo_code = self.db["promotions"].get(promo_code, {}).get("code") or promo_code.upper()
        oid = self._next_id("ORD", self.db.setdefault("orders", {}).keys(), 5)
        o = {
            "order_id": oid,
            "customer_id": cust["customer_id"],
            "status": "received",
            "express": express,
            "dropoff_date": BUSINESS_DATE,
            "due_date": self._due_date(BUSINESS_DATE, lines, express),
            "ready_date": None,
            "collected_date": None,
            "items": lines,
            "promo_code": promo_code,
            "pricing": pricing,
            "storage_fee": 0.0,
            "cancellation_fee": 0.0,
            "payments": [],
            "refunds": [],
            "notes": str(a.get("notes") or ""),
            "history": [],
        }
        self._log(o, "created", "%d piece(s), total %s" % (sum(l["qty"] for l in lines), fmt(pricing["total"])))
        self.db["orders"][oid] = o
        return self._view_order(o)

    def t_add_order_item(self, a):
        o = self._order(self._req(a, "order_id"))
        if o["status"] != "received":
            raise ApiError("Items can only be changed while the order is received (current status: %s)" % o["status"])
        item = {"service_id": self._req(a, "service_id"), "qty": a.get("qty", 1), "description": a.get("description")}
        nums = [int(l["line_id"][1:]) for l in o["items"]]
        line = self._build_lines([item], o["express"], start_no=max(nums + [0]) + 1)[0]
        if sum(l["qty"] for l in o["items"]) + line["qty"] > MAX_ORDER_PIECES:
            raise ApiError("An order may hold at most %d pieces" % MAX_ORDER_PIECES)
        o["items"].append(line)
        self._reprice(o)
        self._log(
            o,
            "item_added",
            "%s %s x%d; total now %s" % (line["line_id"], line["service_id"], line["qty"], fmt(o["pricing"]["total"])),
        )
        return self._view_order(o)

    def t_remove_order_item(self, a):
        o = self._order(self._req(a, "order_id"))
        line_id = self._req(a, "line_id")
        if o["status"] != "received":
            raise ApiError("Items can only be changed while the order is received (current status: %s)" % o["status"])
        idx = [i for i, l in enumerate(o["items"]) if l["line_id"] == line_id]
        if not idx:
            raise ApiError("Line %s not found on order %s" % (line_id, o["order_id"]))
        if len(o["items"]) == 1:
            raise ApiError("An order must keep at least one item; cancel the order instead")
        line = o["items"].pop(idx[0])
        self._reprice(o)
        self._log(
            o,
            "item_removed",
            "%s %s x%d; total now %s" % (line["line_id"], line["service_id"], line["qty"], fmt(o["pricing"]["total"])),
        )
        excess = D(self._net_paid(o) - D(o["pricing"]["total"]))
        if excess > 0:
            cust = self._customer(o["customer_id"])
            rid = self._next_id("RFD", self._all_refund_ids(), 5)
            o["refunds"].append(
                {
                    "refund_id": rid,
                    "date": BUSINESS_DATE,
                    "method": "account_credit",
                    "amount": money(excess),
                    "reason": "overpayment after item removal",
                }
            )
            cust["account_credit"] = money(D(cust["account_credit"]) + excess)
            self._log(o, "refund", "%s to account credit" % fmt(excess))
        return self._view_order(o)

    def t_update_order_status(self, a):
        o = self._order(self._req(a, "order_id"))
        new = self._req(a, "status")
        if new not in STATUS_FLOW[1:]:
            raise ApiError("Status must be one of in_process, ready, collected")
        cur = o["status"]
        if cur in ("collected", "cancelled"):
            raise ApiError("Order %s is %s and can no longer change status" % (o["order_id"], cur))
        if STATUS_FLOW.index(new) != STATUS_FLOW.index(cur) + 1:
            raise ApiError("Cannot move order from %s to %s" % (cur, new))
        if new == "in_process":
            special = [l for l in o["items"] if self.db["services"][l["service_id"]]["specialty"]]
            if special:
                need = D(D(o["pricing"]["total"]) * DEPOSIT_RATE)
                paid = self._net_paid(o)
                if paid < need:
                    raise ApiError(
                        "A deposit of at least %s is required before specialty items go "
                        "into process; %s paid" % (fmt(need), fmt(paid))
                    )
        if new == "ready":
            o["ready_date"] = BUSINESS_DATE
        if new == "collected":
            bal = self._balance(o)
            if bal > 0:
                fee = storage_fee_for(o.get("ready_date"))
                extra = " (includes storage fee %s)" % fmt(fee) if fee > 0 else ""
                raise ApiError("Order has an outstanding balance of %s%s" % (fmt(bal), extra))
            o["storage_fee"] = money(storage_fee_for(o.get("ready_date")))
            o["collected_date"] = BUSINESS_DATE
        o["status"] = new
        note = a.get("note")
        self._log(o, "status", "%s -> %s%s" % (cur, new, ("; " + str(note)) if note else ""))
        return self._view_order(o)

    def t_cancel_order(self, a):
        o = self._order(self._req(a, "order_id"))
        cid = self._req(a, "customer_id")
        if o["customer_id"] != cid:
            raise ApiError("Order %s is not registered to customer %s" % (o["order_id"], cid))
        refund_to = a.get("refund_to") or "account_credit"
        if refund_to not in ("account_credit", "original"):
            raise ApiError("refund_to must be account_credit or original")
        if o["status"] == "cancelled":
            raise ApiError("Order %s is already cancelled" % o["order_id"])
        if o["status"] in ("ready", "collected"):
            raise ApiError("Orders that are ready or collected cannot be cancelled")
        total = D(o["pricing"]["total"])
        if o["status"] == "in_process":
            fee = min(max(D(total * CANCEL_RATE), CANCEL_MIN), total)
        else:
            fee = Decimal("0.00")
        paid = self._net_paid(o)
        retained = min(fee, paid)
        refund = D(paid - retained)
        cust = self._customer(o["customer_id"])
        refunds = []
        if refund > 0:
            if refund_to == "account_credit":
                alloc = [("account_credit", refund)]
            else:
                remaining = refund
                by_method = {}
                order_m = []
                for p in reversed(o["payments"]):
                    if remaining <= 0:
                        break
                    take = min(D(p["amount"]), remaining)
                    if p["method"] not in by_method:
                        by_method[p["method"]] = Decimal("0")
                        order_m.append(p["method"])
                    by_method[p["method"]] += take
                    remaining = D(remaining - take)
                alloc = [(m, D(by_method[m])) for m in order_m]
            ids = list(self._all_refund_ids())
            for m, amt in alloc:
                rid = self._next_id("RFD", ids, 5)
                ids.append(rid)
                r = {
                    "refund_id": rid,
                    "date": BUSINESS_DATE,
                    "method": m,
                    "amount": money(amt),
                    "reason": "order cancelled",
                }
                o["refunds"].append(r)
                refunds.append(r)
                if m == "account_credit":
                    cust["account_credit"] = money(D(cust["account_credit"]) + amt)
        prev = o["status"]
        o["status"] = "cancelled"
        o["cancellation_fee"] = money(retained)
        reason = a.get("reason")
        self._log(
            o,
            "cancelled",
            "from %s; fee %s (charged %s); refund %s%s"
            % (prev, fmt(fee), fmt(retained), fmt(refund), ("; " + str(reason)) if reason else ""),
        )
        return {
            "order_id": o["order_id"],
            "status": "cancelled",
            "cancellation_fee": money(fee),
            "fee_charged": money(retained),
            "fee_waived": money(fee - retained),
            "refund_total": money(refund),
            "refunds": refunds,
            "account_credit": cust["account_credit"],
        }

    def t_record_payment(self, a):
        o = self._order(self._req(a, "order_id"))
        method = self._req(a, "method")
        if method not in PAY_METHODS:
            raise ApiError("Payment method must be one of cash, card, account_credit")
        amt = self._amount(self._req(a, "amount"))
        if o["status"] == "cancelled":
            raise ApiError("Payments cannot be taken on a cancelled order")
        if o["status"] == "collected":
            raise ApiError("Order %s is collected; nothing is due" % o["order_id"])
        bal = self._balance(o)
        if amt > bal:
            raise ApiError("Amount %s exceeds the balance due of %s" % (fmt(amt), fmt(bal)))
        cust = self._customer(o["customer_id"])
        if method == "account_credit":
            if D(cust["account_credit"]) < amt:
                raise ApiError("Insufficient account credit: %s available" % fmt(cust["account_credit"]))
            cust["account_credit"] = money(D(cust["account_credit"]) - amt)
        pid = self._next_id("PAY", self._all_payment_ids(), 5)
        p = {"payment_id": pid, "date": BUSINESS_DATE, "method": method, "amount": money(amt)}
        o["payments"].append(p)
        self._log(o, "payment", "%s %s %s" % (pid, method, fmt(amt)))
        return {
            "payment": p,
            "order_id": o["order_id"],
            "amount_paid": money(self._net_paid(o)),
            "balance_due": money(self._balance(o)),
            "account_credit": cust["account_credit"],
        }


def make():
    return GarmentCounter()


def _replay(data, trajs):
    api = make()
    calls = refused = 0
    finals = []
    for t in trajs:
        api.reset(data)
        for c in t["calls"]:
            r = api.call(c["name"], c.get("arguments", {}))
            calls += 1
            if not r["ok"]:
                refused += 1
        finals.append(json.dumps(api.state(), sort_keys=True))
    return calls, refused, finals


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    trajs = []
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if line.strip():
                trajs.append(json.loads(line))
    calls, refused, finals = _replay(data, trajs)
    calls2, refused2, finals2 = _replay(data, trajs)
    same = finals == finals2 and (calls, refused) == (calls2, refused2)
    print("trajectories: %d" % len(trajs))
    print("calls: %d" % calls)
    print("refusals: %d" % refused)
    print("deterministic replay: %s" % ("yes" if same else "NO"))


if __name__ == "__main__":
    main()
