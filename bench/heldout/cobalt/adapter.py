"""PledgeDesk counter API (Alder & Finch Pawnbrokers) -- reference implementation.

Standard library only.  make() returns an object with reset(state), call(name, arguments)
and state().  All date arithmetic uses the fixed business date BUSINESS_DATE, never the clock.

    python3 adapter.py      replays trajectories.jsonl from data.json and prints the counts.
"""

import copy
import datetime
import json
import math
import os
import re
import sys

BUSINESS_DATE = "2026-03-16"

PERIOD_DAYS = 30
GRACE_DAYS = 30
LATE_FEE = 15.00
EXT_FEE_RATE = 0.02
EXT_FEE_MIN = 5.00
MAX_EXTENSIONS = 3
MAX_ACTIVE_PLEDGES = 3
MAX_ITEMS_PER_PLEDGE = 5
PRINCIPAL_MIN = 25.00
PRINCIPAL_MAX = 5000.00
CASH_LIMIT = 1500.00
SALES_TAX_RATE = 0.08
PRICE_FLOOR = 0.85
RETURN_WINDOW_DAYS = 14
RESTOCKING_RATE = 0.10

CATEGORIES = ["jewellery", "watch", "electronics", "musical_instrument", "tool", "camera"]
LOAN_TO_VALUE = {
    "jewellery": 0.70,
    "watch": 0.60,
    "electronics": 0.50,
    "musical_instrument": 0.60,
    "tool": 0.50,
    "camera": 0.50,
}
CONDITIONS = ["excellent", "good", "fair", "poor"]
ITEM_STATUSES = ["in_vault", "returned", "forfeited", "for_sale", "sold"]
PAYMENT_KINDS = ["payment", "extension", "redemption"]
ID_TYPES = ["passport", "driving_licence", "state_id"]
REFUND_REASONS = ["changed_mind", "defective", "not_as_described"]

ID_SERIES = {
    "customers": ("CU-", 2001),
    "pledges": ("PL-", 3001),
    "holds": ("HD-", 4001),
    "items": ("IT-", 5001),
    "payments": ("PY-", 7001),
    "sales": ("SL-", 9001),
}

S, N, I, O, A = "string", "number", "integer", "object", "array"
# tool -> {argument: (type, required, enum)}
SPEC = {
    "find_customers": {
        "name": (S, False, None),
        "phone": (S, False, None),
        "email": (S, False, None),
        "status": (S, False, ["active", "barred"]),
    },
    "get_pledge": {"pledge_id": (S, True, None)},
    "search_items": {
        "customer_id": (S, False, None),
        "pledge_id": (S, False, None),
        "status": (S, False, ITEM_STATUSES),
        "category": (S, False, CATEGORIES),
        "text": (S, False, None),
        "max_list_price": (N, False, None),
    },
    "list_payments": {
        "pledge_id": (S, False, None),
        "customer_id": (S, False, None),
        "kind": (S, False, PAYMENT_KINDS),
    },
    "open_pledge": {
        "customer_id": (S, True, None),
        "items": (A, True, None),
        "principal": (N, True, None),
        "term_days": (I, True, [30, 60, 90]),
        "payout_method": (S, True, ["cash", "bank_transfer"]),
    },
    "record_payment": {
        "pledge_id": (S, True, None),
        "amount": (N, True, None),
        "method": (S, True, ["cash", "card", "bank_transfer"]),
    },
    "extend_pledge": {
        "pledge_id": (S, True, None),
        "term_days": (I, True, [30, 60]),
        "method": (S, True, ["cash", "card", "bank_transfer"]),
    },
    "redeem_pledge": {
        "pledge_id": (S, True, None),
        "customer_id": (S, True, None),
        "method": (S, True, ["cash", "card", "bank_transfer"]),
    },
    "forfeit_pledge": {"pledge_id": (S, True, None)},
    "sell_item": {
        "item_id": (S, True, None),
        "method": (S, True, ["cash", "card"]),
        "price": (N, False, None),
        "buyer_customer_id": (S, False, None),
    },
    "refund_sale": {"sale_id": (S, True, None), "reason": (S, True, REFUND_REASONS)},
    "update_customer": {
        "customer_id": (S, True, None),
        "phone": (S, False, None),
        "email": (S, False, None),
        "address": (O, False, None),
        "id_document": (O, False, None),
        "note": (S, False, None),
    },
}


class Refusal(Exception):
    pass


def _d(s):
    return datetime.date.fromisoformat(s)


def _money(x):
    return round(float(x) + 1e-9, 2) if x >= 0 else -round(-float(x) + 1e-9, 2)


def _fmt(x):
    return "%.2f" % x


def _type_ok(value, t):
    if t == S:
        return isinstance(value, str)
    if t == I:
        return isinstance(value, int) and not isinstance(value, bool)
    if t == N:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if t == O:
        return isinstance(value, dict)
    if t == A:
        return isinstance(value, list)
    return False


def _check_amount(value, label):
    if not (value > 0):
        raise Refusal("%s must be greater than 0" % label)
    if abs(value * 100 - round(value * 100)) > 1e-6:
        raise Refusal("%s must have at most 2 decimal places" % label)
    return _money(value)


def _periods(paid_to, today):
    days = (today - _d(paid_to)).days
    return 0 if days <= 0 else int(math.ceil(days / PERIOD_DAYS))


def _rate_for(principal):
    if principal <= 500:
        return 0.05
    if principal <= 2000:
        return 0.04
    return 0.03


def _digits(s):
    return re.sub(r"\D", "", s or "")


class PledgeDesk:
    def __init__(self):
        self.today = BUSINESS_DATE
        self.db = {}

    # ------------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)
        for coll in ID_SERIES:
            self.db.setdefault(coll, {})

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        if name not in SPEC:
            return {"ok": False, "output": "Unknown tool '%s'" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be a JSON object"}
        snapshot = copy.deepcopy(self.db)
        try:
            self._validate(name, arguments)
            out = getattr(self, "_t_" + name)(arguments)
            return {"ok": True, "output": out}
        except Refusal as e:
            self.db = snapshot
            return {"ok": False, "output": str(e)}

    def _validate(self, name, args):
        spec = SPEC[name]
        for key in args:
            if key not in spec:
                raise Refusal("Unknown argument '%s' for %s" % (key, name))
        for key, (t, required, enum) in spec.items():
            if key not in args or args[key] is None:
                if required:
                    raise Refusal("Missing required argument '%s'" % key)
                continue
            if not _type_ok(args[key], t):
                raise Refusal("Argument '%s' must be of type %s" % (key, t))
            if enum is not None and args[key] not in enum:
                raise Refusal(
                    "Invalid %s '%s'; expected one of: %s" % (key, args[key], ", ".join(str(e) for e in enum))
                )

    # ------------------------------------------------------------------ helpers
    def _next_id(self, coll):
        prefix, base = ID_SERIES[coll]
        nums = [int(k[len(prefix) :]) for k in self.db[coll] if k.startswith(prefix) and k[len(prefix) :].isdigit()]
        return "%s%d" % (prefix, max(nums) + 1 if nums else base)

    def _get(self, coll, key, label):
        rec = self.db[coll].get(key)
        if rec is None:
            raise Refusal("%s %s not found" % (label, key))
        return rec

    def _customer(self, cid):
        return self._get("customers", cid, "Customer")

    def _pledge(self, pid):
        return self._get("pledges", pid, "Pledge")

    def _active_hold(self, item_id):
        for h in sorted(self.db["holds"].values(), key=lambda h: h["id"]):
            if h["item_id"] == item_id and h["status"] == "active":
                return h
        return None

    def _active_pledges(self, cid):
        return sorted(
            p["id"] for p in self.db["pledges"].values() if p["customer_id"] == cid and p["status"] == "active"
        )

    def _quote(self, p):
        today = _d(self.today)
        due = _d(p["due_date"])
        grace_end = due + datetime.timedelta(days=GRACE_DAYS)
        per = _periods(p["interest_paid_to"], today)
        po = p["principal_outstanding"]
        interest = _money(po * p["monthly_rate"] * per)
        late = LATE_FEE if today > due and p.get("late_fee_paid_for") != p["due_date"] else 0.0
        ext_fee = max(EXT_FEE_MIN, _money(po * EXT_FEE_RATE))
        return {
            "as_of": self.today,
            "principal_outstanding": po,
            "interest_periods": per,
            "interest_due": interest,
            "late_fee": late,
            "minimum_payment": _money(late + interest),
            "payoff_amount": _money(po + interest + late),
            "days_overdue": max(0, (today - due).days),
            "grace_ends": grace_end.isoformat(),
            "past_grace": today > grace_end,
            "extension_fee": ext_fee,
            "extensions_left": max(0, MAX_EXTENSIONS - p["extensions"]),
        }

    def _require_open(self, p, action):
        if p["status"] != "active":
            raise Refusal("Pledge %s is %s; %s is not possible" % (p["id"], p["status"], action))
        q = self._quote(p)
        if q["past_grace"]:
            raise Refusal(
                "Pledge %s is past its grace period (ended %s); %s is not possible. "
                "The pledge is due for forfeiture" % (p["id"], q["grace_ends"], action)
            )
        return q

    def _cash_check(self, method, amount):
        if method == "cash" and amount > CASH_LIMIT:
            raise Refusal(
                "Cash transactions are limited to %s; %s requires card or bank transfer"
                % (_fmt(CASH_LIMIT), _fmt(amount))
            )

    def _add_payment(self, p, kind, method, amount, alloc):
        pid = self._next_id("payments")
        rec = {
            "id": pid,
            "pledge_id": p["id"],
            "customer_id": p["customer_id"],
            "date": self.today,
            "kind": kind,
            "method": method,
            "amount": _money(amount),
            "allocation": alloc,
            "interest_paid_to": p["interest_paid_to"],
        }
        self.db["payments"][pid] = rec
        return rec

    def _settle_charges(self, p, q):
        """Apply late fee and accrued interest; returns allocation dict (fee, interest)."""
        if q["late_fee"] > 0:
            p["late_fee_paid_for"] = p["due_date"]
        if q["interest_periods"] > 0:
            paid_to = _d(p["interest_paid_to"]) + datetime.timedelta(days=PERIOD_DAYS * q["interest_periods"])
            p["interest_paid_to"] = paid_to.isoformat()
        return {"late_fee": q["late_fee"], "interest": q["interest_due"]}

    def _pledge_view(self, p):
        out = copy.deepcopy(p)
        out["items"] = []
        for iid in p["item_ids"]:
            it = self.db["items"].get(iid)
            if it:
                h = self._active_hold(iid)
                out["items"].append(
                    {
                        "id": iid,
                        "category": it["category"],
                        "description": it["description"],
                        "appraised_value": it["appraised_value"],
                        "status": it["status"],
                        "on_hold": h is not None,
                    }
                )
        if p["status"] == "active":
            out["quote"] = self._quote(p)
        return out

    def _item_view(self, it):
        out = copy.deepcopy(it)
        h = self._active_hold(it["id"])
        out["on_hold"] = h is not None
        out["hold_id"] = h["id"] if h else None
        return out

    # ------------------------------------------------------------------ reads
    def _t_find_customers(self, a):
        if not any(a.get(k) for k in ("name", "phone", "email")):
            raise Refusal("Provide at least one of name, phone or email")
        res = []
        for c in sorted(self.db["customers"].values(), key=lambda c: c["id"]):
            if a.get("name") and a["name"].strip().lower() not in c["name"].lower():
                continue
            if a.get("phone"):
                want = _digits(a["phone"])
                if not want or not _digits(c.get("phone")).endswith(want):
                    continue
            if a.get("email") and a["email"].strip().lower() != (c.get("email") or "").lower():
                continue
            if a.get("status") and c["status"] != a["status"]:
                continue
            rec = copy.deepcopy(c)
            rec["active_pledge_ids"] = self._active_pledges(c["id"])
            res.append(rec)
        return res

    def _t_get_pledge(self, a):
        return self._pledge_view(self._pledge(a["pledge_id"]))

    def _t_search_items(self, a):
        if a.get("customer_id"):
            self._customer(a["customer_id"])
        if a.get("pledge_id"):
            self._pledge(a["pledge_id"])
        res = []
        for it in sorted(self.db["items"].values(), key=lambda i: i["id"]):
            if a.get("customer_id") and it["customer_id"] != a["customer_id"]:
                continue
            if a.get("pledge_id") and it["pledge_id"] != a["pledge_id"]:
                continue
            if a.get("status") and it["status"] != a["status"]:
                continue
            if a.get("category") and it["category"] != a["category"]:
                continue
            if a.get("text") and a["text"].lower() not in it["description"].lower():
                continue
            if a.get("max_list_price") is not None:
                if it["list_price"] is None or it["list_price"] > a["max_list_price"]:
                    continue
            res.append(self._item_view(it))
        return res

    def _t_list_payments(self, a):
        if not a.get("pledge_id") and not a.get("customer_id"):
            raise Refusal("Provide pledge_id or customer_id")
        if a.get("pledge_id"):
            self._pledge(a["pledge_id"])
        if a.get("customer_id"):
            self._customer(a["customer_id"])
        res = []
        for p in sorted(self.db["payments"].values(), key=lambda p: (p["date"], p["id"])):
            if a.get("pledge_id") and p["pledge_id"] != a["pledge_id"]:
                continue
            if a.get("customer_id") and p["customer_id"] != a["customer_id"]:
                continue
            if a.get("kind") and p["kind"] != a["kind"]:
                continue
            res.append(copy.deepcopy(p))
        return res

    # ------------------------------------------------------------------ writes
    def _t_open_pledge(self, a):
        c = self._customer(a["customer_id"])
        if c["status"] != "active":
            raise Refusal("Customer %s is %s and may not open new pledges" % (c["id"], c["status"]))
        doc = c.get("id_document")
        if not doc or not c.get("id_verified"):
            raise Refusal(
                "Customer %s has no verified ID document on file; record one with update_customer first" % c["id"]
            )
        if doc["expires"] < self.today:
            raise Refusal(
                "Customer %s's ID document expired on %s; record a current document "
                "with update_customer first" % (c["id"], doc["expires"])
            )
        active = self._active_pledges(c["id"])
        if len(active) >= MAX_ACTIVE_PLEDGES:
            raise Refusal(
                "Customer %s already has %d active pledges (%s); the limit is %d"
                % (c["id"], len(active), ", ".join(active), MAX_ACTIVE_PLEDGES)
            )
        items = a["items"]
        if not 1 <= len(items) <= MAX_ITEMS_PER_PLEDGE:
            raise Refusal("A pledge must have between 1 and %d items" % MAX_ITEMS_PER_PLEDGE)
        keys = {"category", "description", "appraised_value", "condition"}
        max_loan = 0.0
        total_value = 0.0
        for n, it in enumerate(items, 1):
            if not isinstance(it, dict):
                raise Refusal("items[%d] must be an object" % n)
            extra = set(it) - keys
            if extra:
                raise Refusal("items[%d] has unknown field '%s'" % (n, sorted(extra)[0]))
            for k in sorted(keys):
                if k not in it:
                    raise Refusal("items[%d] is missing '%s'" % (n, k))
            if it["category"] not in CATEGORIES:
                raise Refusal(
                    "items[%d] has invalid category '%s'; expected one of: %s"
                    % (n, it["category"], ", ".join(CATEGORIES))
                )
            if it["condition"] not in CONDITIONS:
                raise Refusal(
                    "items[%d] has invalid condition '%s'; expected one of: %s"
                    % (n, it["condition"], ", ".join(CONDITIONS))
                )
            if not isinstance(it["description"], str) or not it["description"].strip():
                raise Refusal("items[%d] needs a description" % n)
            v = it["appraised_value"]
            if not _type_ok(v, N):
                raise Refusal("items[%d].appraised_value must be a number" % n)
            v = _check_amount(v, "items[%d].appraised_value" % n)
            ratio = LOAN_TO_VALUE[it["category"]] * (0.5 if it["condition"] == "poor" else 1.0)
            max_loan += v * ratio
            total_value += v
        max_loan = math.floor(max_loan * 100 + 1e-6) / 100.0
        principal = _check_amount(a["principal"], "principal")
        if principal < PRINCIPAL_MIN or principal > PRINCIPAL_MAX:
            raise Refusal("Principal must be between %s and %s" % (_fmt(PRINCIPAL_MIN), _fmt(PRINCIPAL_MAX)))
        if principal > max_loan:
            raise Refusal(
                "Principal %s exceeds the maximum loan of %s for these items" % (_fmt(principal), _fmt(max_loan))
            )
        self._cash_check(a["payout_method"], principal)
        pid = self._next_id("pledges")
        item_ids = []
        for it in items:
            iid = self._next_id("items")
            num = int(iid[3:])
            self.db["items"][iid] = {
                "id": iid,
                "customer_id": c["id"],
                "pledge_id": pid,
                "category": it["category"],
                "description": it["description"].strip(),
                "condition": it["condition"],
                "appraised_value": _money(it["appraised_value"]),
                "status": "in_vault",
                "location": "Vault %s-%02d" % ("ABCD"[num % 4], num % 25 + 1),
                "list_price": None,
                "sale_id": None,
            }
            item_ids.append(iid)
        due = _d(self.today) + datetime.timedelta(days=a["term_days"])
        p = {
            "id": pid,
            "customer_id": c["id"],
            "item_ids": item_ids,
            "principal": principal,
            "principal_outstanding": principal,
            "monthly_rate": _rate_for(principal),
            "term_days": a["term_days"],
            "opened": self.today,
            "due_date": due.isoformat(),
            "interest_paid_to": self.today,
            "late_fee_paid_for": None,
            "extensions": 0,
            "status": "active",
            "payout_method": a["payout_method"],
            "closed_on": None,
            "history": [
                {
                    "date": self.today,
                    "event": "opened",
                    "amount": principal,
                    "note": "%d item(s) appraised at %s; paid out by %s"
                    % (len(item_ids), _fmt(total_value), a["payout_method"].replace("_", " ")),
                }
            ],
        }
        self.db["pledges"][pid] = p
        c["counters"]["pledges_opened"] += 1
        out = self._pledge_view(p)
        out["max_loan"] = max_loan
        return out

    def _t_record_payment(self, a):
        p = self._pledge(a["pledge_id"])
        q = self._require_open(p, "taking a payment")
        amount = _check_amount(a["amount"], "amount")
        if amount < q["minimum_payment"]:
            raise Refusal(
                "Payment of %s does not cover the late fee and accrued interest; the "
                "minimum payment is %s" % (_fmt(amount), _fmt(q["minimum_payment"]))
            )
        if amount >= q["payoff_amount"]:
            raise Refusal(
                "Payment of %s would settle the pledge in full (payoff %s); use "
                "redeem_pledge instead" % (_fmt(amount), _fmt(q["payoff_amount"]))
            )
        self._cash_check(a["method"], amount)
        alloc = self._settle_charges(p, q)
        principal_part = _money(amount - q["minimum_payment"])
        p["principal_outstanding"] = _money(p["principal_outstanding"] - principal_part)
        alloc.update({"extension_fee": 0.0, "principal": principal_part})
        pay = self._add_payment(p, "payment", a["method"], amount, alloc)
        p["history"].append(
            {
                "date": self.today,
                "event": "payment",
                "amount": amount,
                "note": "%s; interest paid to %s" % (pay["id"], p["interest_paid_to"]),
            }
        )
        return {
            "payment": pay,
            "pledge_id": p["id"],
            "principal_outstanding": p["principal_outstanding"],
            "interest_paid_to": p["interest_paid_to"],
            "due_date": p["due_date"],
            "payoff_amount": self._quote(p)["payoff_amount"],
        }

    def _t_extend_pledge(self, a):
        p = self._pledge(a["pledge_id"])
        q = self._require_open(p, "extension")
        if p["extensions"] >= MAX_EXTENSIONS:
            raise Refusal(
                "Pledge %s has already been extended %d times (the maximum); it must be "
                "redeemed or left to forfeit" % (p["id"], p["extensions"])
            )
        charge = _money(q["minimum_payment"] + q["extension_fee"])
        self._cash_check(a["method"], charge)
        alloc = self._settle_charges(p, q)
        alloc.update({"extension_fee": q["extension_fee"], "principal": 0.0})
        old_due = p["due_date"]
        p["due_date"] = (_d(old_due) + datetime.timedelta(days=a["term_days"])).isoformat()
        p["extensions"] += 1
        pay = self._add_payment(p, "extension", a["method"], charge, alloc)
        p["history"].append(
            {
                "date": self.today,
                "event": "extended",
                "amount": charge,
                "note": "%s; due date %s -> %s" % (pay["id"], old_due, p["due_date"]),
            }
        )
        return {
            "payment": pay,
            "pledge_id": p["id"],
            "due_date": p["due_date"],
            "extensions": p["extensions"],
            "interest_paid_to": p["interest_paid_to"],
            "principal_outstanding": p["principal_outstanding"],
        }

    def _t_redeem_pledge(self, a):
        p = self._pledge(a["pledge_id"])
        self._customer(a["customer_id"])
        if a["customer_id"] != p["customer_id"]:
            raise Refusal("Only the pledgor (%s) may redeem pledge %s" % (p["customer_id"], p["id"]))
        q = self._require_open(p, "redemption")
        for iid in p["item_ids"]:
            h = self._active_hold(iid)
            if h:
                raise Refusal(
                    "Item %s is under hold %s (%s, case %s) and cannot be released; "
                    "the pledge cannot be redeemed while the hold is active"
                    % (iid, h["id"], h["authority"], h["case_ref"])
                )
        total = q["payoff_amount"]
        self._cash_check(a["method"], total)
        alloc = self._settle_charges(p, q)
        alloc.update({"extension_fee": 0.0, "principal": p["principal_outstanding"]})
        p["principal_outstanding"] = 0.0
        p["status"] = "redeemed"
        p["closed_on"] = self.today
        pay = self._add_payment(p, "redemption", a["method"], total, alloc)
        p["history"].append(
            {
                "date": self.today,
                "event": "redeemed",
                "amount": total,
                "note": "%s; %d item(s) released to customer" % (pay["id"], len(p["item_ids"])),
            }
        )
        for iid in p["item_ids"]:
            it = self.db["items"][iid]
            it["status"] = "returned"
            it["location"] = None
        self.db["customers"][p["customer_id"]]["counters"]["pledges_redeemed"] += 1
        return {"payment": pay, "pledge_id": p["id"], "status": p["status"], "released_item_ids": list(p["item_ids"])}

    def _t_forfeit_pledge(self, a):
        p = self._pledge(a["pledge_id"])
        if p["status"] != "active":
            raise Refusal("Pledge %s is %s; only active pledges can be forfeited" % (p["id"], p["status"]))
        q = self._quote(p)
        if not q["past_grace"]:
            first = (_d(q["grace_ends"]) + datetime.timedelta(days=1)).isoformat()
            raise Refusal(
                "Pledge %s is within its grace period until %s; it can be forfeited "
                "from %s" % (p["id"], q["grace_ends"], first)
            )
        p["status"] = "forfeited"
        p["closed_on"] = self.today
        moved = {}
        for iid in p["item_ids"]:
            it = self.db["items"][iid]
            if self._active_hold(iid):
                it["status"] = "forfeited"
            else:
                it["status"] = "for_sale"
                it["list_price"] = it["appraised_value"]
                it["location"] = "Sales floor"
            moved[iid] = it["status"]
        p["history"].append(
            {
                "date": self.today,
                "event": "forfeited",
                "amount": p["principal_outstanding"],
                "note": "unpaid interest %s written off" % _fmt(q["interest_due"] + q["late_fee"]),
            }
        )
        self.db["customers"][p["customer_id"]]["counters"]["pledges_forfeited"] += 1
        return {"pledge_id": p["id"], "status": p["status"], "closed_on": p["closed_on"], "items": moved}

    def _t_sell_item(self, a):
        it = self._get("items", a["item_id"], "Item")
        if it["status"] != "for_sale":
            raise Refusal("Item %s is not for sale (status %s)" % (it["id"], it["status"]))
        h = self._active_hold(it["id"])
        if h:
            raise Refusal(
                "Item %s is under hold %s (%s, case %s) and cannot be sold"
                % (it["id"], h["id"], h["authority"], h["case_ref"])
            )
        buyer = a.get("buyer_customer_id")
        if buyer:
            b = self._customer(buyer)
            if b["status"] != "active":
                raise Refusal("Customer %s is %s and may not make purchases" % (buyer, b["status"]))
        lp = it["list_price"]
        price = lp if a.get("price") is None else _check_amount(a["price"], "price")
        floor = _money(lp * PRICE_FLOOR)
        if price < floor:
            raise Refusal(
                "Price %s is below the floor of %s (85%% of list price %s)" % (_fmt(price), _fmt(floor), _fmt(lp))
            )
        tax = _money(price * SALES_TAX_RATE)
        total = _money(price + tax)
        self._cash_check(a["method"], total)
        sid = self._next_id("sales")
        sale = {
            "id": sid,
            "item_id": it["id"],
            "buyer_customer_id": buyer,
            "date": self.today,
            "list_price": lp,
            "price": price,
            "tax": tax,
            "total": total,
            "method": a["method"],
            "status": "completed",
            "refund": None,
        }
        self.db["sales"][sid] = sale
        it["status"] = "sold"
        it["sale_id"] = sid
        it["location"] = None
        if buyer:
            self.db["customers"][buyer]["counters"]["purchases"] += 1
        return sale

    def _t_refund_sale(self, a):
        s = self._get("sales", a["sale_id"], "Sale")
        if s["status"] != "completed":
            raise Refusal("Sale %s has already been refunded (%s)" % (s["id"], s["refund"]["date"]))
        last = _d(s["date"]) + datetime.timedelta(days=RETURN_WINDOW_DAYS)
        if _d(self.today) > last:
            raise Refusal("The return window for sale %s closed on %s" % (s["id"], last.isoformat()))
        fee = _money(s["price"] * RESTOCKING_RATE) if a["reason"] == "changed_mind" else 0.0
        amount = _money(s["total"] - fee)
        s["status"] = "refunded"
        s["refund"] = {
            "date": self.today,
            "reason": a["reason"],
            "restocking_fee": fee,
            "amount": amount,
            "method": s["method"],
        }
        it = self.db["items"][s["item_id"]]
        it["status"] = "for_sale"
        it["sale_id"] = None
        it["location"] = "Sales floor"
        if s["buyer_customer_id"] and s["buyer_customer_id"] in self.db["customers"]:
            self.db["customers"][s["buyer_customer_id"]]["counters"]["returns"] += 1
        return s

    def _t_update_customer(self, a):
        c = self._customer(a["customer_id"])
        fields = ("phone", "email", "address", "id_document", "note")
        if not any(a.get(k) is not None for k in fields):
            raise Refusal("Nothing to update; provide at least one of: " + ", ".join(fields))
        changed = []
        if a.get("phone") is not None:
            digits = _digits(a["phone"])
            if not 10 <= len(digits) <= 15:
                raise Refusal("Phone number must have 10 to 15 digits")
            c["phone"] = a["phone"].strip()
            changed.append("phone")
        if a.get("email") is not None:
            if not re.match(r"^[^@\s]+@[^@\s]+\.[^@\s]+$", a["email"].strip()):
                raise Refusal("Invalid email address '%s'" % a["email"])
            c["email"] = a["email"].strip().lower()
            changed.append("email")
        if a.get("address") is not None:
            addr = a["address"]
            keys = {"street", "city", "zip"}
            if set(addr) != keys or not all(isinstance(addr[k], str) and addr[k].strip() for k in keys):
                raise Refusal("address must have exactly the fields street, city and zip")
            c["address"] = {k: addr[k].strip() for k in ("street", "city", "zip")}
            changed.append("address")
        if a.get("id_document") is not None:
            doc = a["id_document"]
            keys = {"type", "number", "expires"}
            if set(doc) != keys:
                raise Refusal("id_document must have exactly the fields type, number and expires")
            if doc["type"] not in ID_TYPES:
                raise Refusal("Invalid id_document.type '%s'; expected one of: %s" % (doc["type"], ", ".join(ID_TYPES)))
            if not isinstance(doc["number"], str) or not doc["number"].strip():
                raise Refusal("id_document.number is required")
            try:
                exp = _d(doc["expires"]).isoformat()
            except (TypeError, ValueError):
                raise Refusal("id_document.expires must be a date YYYY-MM-DD")
            if exp < self.today:
                raise Refusal("ID document expired on %s; an expired document cannot be recorded" % exp)
            c["id_document"] = {"type": doc["type"], "number": doc["number"].strip().upper(), "expires": exp}
            c["id_verified"] = True
            changed.append("id_document")
        if a.get("note") is not None:
            if not a["note"].strip():
                raise Refusal("note must not be empty")
            changed.append("note")
        entry = (
            "Updated " + ", ".join(k for k in changed if k != "note") if [k for k in changed if k != "note"] else None
        )
        if entry:
            c["notes"].append({"date": self.today, "text": entry})
        if a.get("note") is not None:
            c["notes"].append({"date": self.today, "text": a["note"].strip()})
        out = copy.deepcopy(c)
        out["active_pledge_ids"] = self._active_pledges(c["id"])
        return out


def make():
    return PledgeDesk()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    env = make()
    n_traj = n_calls = n_ref = 0
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            env.reset(data)
            n_traj += 1
            for c in t["calls"]:
                r = env.call(c["name"], c["arguments"])
                n_calls += 1
                if not r["ok"]:
                    n_ref += 1
    print("trajectories: %d  calls: %d  refusals: %d" % (n_traj, n_calls, n_ref))


if __name__ == "__main__":
    sys.exit(main())
