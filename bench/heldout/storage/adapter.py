"""Cedar Hollow Self Storage - StowDesk front-desk API, reference implementation.

make() returns an object with reset(state), call(name, arguments) and state().
Running this file replays trajectories.jsonl against data.json and prints the
number of calls and the number refused.

Standard library only. The business date is fixed (BUSINESS_DATE); the real
clock is never read.
"""

import calendar
import copy
import json
import os
import re
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = date(2025, 9, 18)

ADMIN_FEE = 22.00
RESERVATION_DEPOSIT = 25.00
RESERVATION_LATE_CANCEL_FEE = 10.00
RESERVATION_MAX_DAYS_AHEAD = 30
MAX_HELD_RESERVATIONS = 2
MAX_ACTIVE_RENTALS = 3
MAX_AUTHORIZED_USERS = 3
QUOTE_MAX_DAYS_AHEAD = 60
TRANSFER_FEE = 15.00
CLEANING_FEE = 50.00
LOCK_CUT_FEE = 25.00
CASH_LIMIT = 500.00
PREPAY_MAX_MONTHS = 6
TENANT_MERCH_DISCOUNT = 0.10
SALES_TAX_RATE = 0.0725
MAX_LINE_QTY = 50

SIZE_CODES = ["5x5", "5x10", "10x10", "10x15", "10x20", "10x30"]
UNIT_STATUSES = ["available", "reserved", "occupied", "needs_cleaning", "maintenance"]
RELATIONSHIPS = ["spouse", "family", "business", "friend", "other"]
CANCEL_REASONS = ["customer_request", "found_other_storage", "plans_changed", "duplicate"]
OPEN_RENTAL_STATUSES = ("active", "delinquent", "overlocked")


class Refusal(Exception):
    pass


def money(x):
    return float(Decimal(repr(float(x))).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def parse_date(s, field):
    if not isinstance(s, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", s):
        raise Refusal("%s must be a date in YYYY-MM-DD format" % field)
    try:
        y, mo, d = (int(p) for p in s.split("-"))
        return date(y, mo, d)
    except ValueError:
        raise Refusal("%s must be a date in YYYY-MM-DD format" % field)


def end_of_month(d):
    return date(d.year, d.month, calendar.monthrange(d.year, d.month)[1])


def next_month_start(d):
    return end_of_month(d) + timedelta(days=1)


def deposit_for(size_code):
    return 50.00 if size_code in ("5x5", "5x10") else 100.00


def fmt(x):
    return "$%.2f" % x


def digits(s):
    return re.sub(r"\D", "", s or "")


class StorageDesk:
    def __init__(self):
        self.db = {}

    # ------------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)
        for k in (
            "customers",
            "units",
            "rentals",
            "reservations",
            "protection_plans",
            "promotions",
            "products",
            "sales",
        ):
            self.db.setdefault(k, {})

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "t_" + str(name), None) if isinstance(name, str) else None
        if fn is None:
            return {"ok": False, "output": "Unknown tool: %s" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be a JSON object"}
        snapshot = copy.deepcopy(self.db)
        try:
            out = fn(dict(arguments))
            return {"ok": True, "output": out}
        except Refusal as e:
            self.db = snapshot
            return {"ok": False, "output": str(e)}
        except Exception as e:  # never raise
            self.db = snapshot
            return {"ok": False, "output": "Internal error: %s" % e}

    # ------------------------------------------------------------------ helpers
    def _allowed(self, args, allowed, required=()):
        for k in args:
            if k not in allowed:
                raise Refusal("Unknown parameter: %s" % k)
        for k in required:
            if args.get(k) in (None, ""):
                raise Refusal("Missing required parameter: %s" % k)

    def _customer(self, cid):
        if not isinstance(cid, str) or cid not in self.db["customers"]:
            raise Refusal("Customer %s not found" % cid)
        return self.db["customers"][cid]

    def _unit(self, uid):
        if not isinstance(uid, str) or uid not in self.db["units"]:
            raise Refusal("Unit %s not found" % uid)
        return self.db["units"][uid]

    def _rental(self, rid):
        if not isinstance(rid, str) or rid not in self.db["rentals"]:
            raise Refusal("Rental %s not found" % rid)
        return self.db["rentals"][rid]

    def _reservation(self, rsid):
        if not isinstance(rsid, str) or rsid not in self.db["reservations"]:
            raise Refusal("Reservation %s not found" % rsid)
        return self.db["reservations"][rsid]

    def _plan(self, pid):
        if pid not in self.db["protection_plans"]:
            raise Refusal("Protection plan %s not found" % pid)
        return self.db["protection_plans"][pid]

    def _amount(self, v, field="amount"):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise Refusal("%s must be a number" % field)
        if v <= 0:
            raise Refusal("%s must be greater than 0" % field)
        if money(v) != float(v) and abs(money(v) - float(v)) > 1e-9:
            raise Refusal("%s may have at most 2 decimal places" % field)
        return money(v)

    def _next_id(self, coll, prefix, width, start):
        n = start
        for k in self.db[coll]:
            if k.startswith(prefix):
                try:
                    n = max(n, int(k[len(prefix) :]) + 1)
                except ValueError:
                    pass
        return "%s%0*d" % (prefix, width, n)

    def _next_payment_id(self):
        n = 70001
        for r in self.db["rentals"].values():
            for p in r.get("payments", []):
                pid = p.get("payment_id", "")
                if pid.startswith("PY-"):
                    try:
                        n = max(n, int(pid[3:]) + 1)
                    except ValueError:
                        pass
        return "PY-%05d" % n

    def _gate_code(self, n):
        used = {r.get("gate_code") for r in self.db["rentals"].values()}
        v = (n * 7919 + 3141) % 9000 + 1000
        while str(v) in used:
            v = 1000 + (v - 1000 + 37) % 9000
        return str(v)

    def _open_rentals(self, cid):
        return [
            r for r in self.db["rentals"].values() if r["customer_id"] == cid and r["status"] in OPEN_RENTAL_STATUSES
        ]

    def _check_method(self, method, allowed, amount):
        if method not in allowed:
            raise Refusal("payment method must be one of: %s" % ", ".join(allowed))
        if method == "cash" and amount > CASH_LIMIT:
            raise Refusal(
                "Cash payments over %s are not accepted at the desk (amount %s)" % (fmt(CASH_LIMIT), fmt(amount))
            )

    def _promo(self, code, unit, on_date, customer):
        promos = self.db["promotions"]
        key = code.strip().upper() if isinstance(code, str) else code
        if key not in promos:
            raise Refusal("Promotion code %s is not valid" % code)
        p = promos[key]
        if not (p["valid_from"] <= on_date.isoformat() <= p["valid_until"]):
            raise Refusal(
                "Promotion %s is not valid for a move-in on %s (valid %s to %s)"
                % (key, on_date.isoformat(), p["valid_from"], p["valid_until"])
            )
        if p.get("eligible_sizes") and unit["size_code"] not in p["eligible_sizes"]:
            raise Refusal("Promotion %s applies only to %s units" % (key, " and ".join(p["eligible_sizes"])))
        if p.get("climate_only") and not unit["climate_controlled"]:
            raise Refusal("Promotion %s applies only to climate-controlled units" % key)
        if p.get("military_only"):
            if customer is None:
                raise Refusal("Promotion %s requires a customer_id of a verified service member" % key)
            if not customer.get("military_verified"):
                raise Refusal(
                    "Promotion %s requires verified military status; customer %s is not verified"
                    % (key, customer["customer_id"])
                )
        return p

    def _compute_move_in(self, unit, on_date, plan_id, promo_code, reservation, customer):
        rate = reservation["locked_rate"] if reservation else unit["monthly_rate"]
        premium = 0.0
        if plan_id is not None:
            premium = self._plan(plan_id)["monthly_premium"]
        dim = calendar.monthrange(on_date.year, on_date.month)[1]
        days = dim - on_date.day + 1
        rent_pr = money(rate * days / dim)
        prem_pr = money(premium * days / dim)
        includes_next = on_date.day > 15
        nxt = next_month_start(on_date)
        rent_next = rate if includes_next else 0.0
        prem_next = premium if includes_next else 0.0
        rent_portion = money(rent_pr + rent_next)
        discount = 0.0
        promo = None
        if promo_code:
            promo = self._promo(promo_code, unit, on_date, customer)
            if promo["type"] == "percent":
                discount = money(rent_portion * promo["value"] / 100.0)
            else:
                discount = money(min(float(promo["value"]), rent_portion))
        deposit = deposit_for(unit["size_code"])
        res_credit = reservation["deposit_paid"] if reservation else 0.0
        lines = [
            {
                "type": "rent",
                "description": "Rent %s prorated %d/%d days" % (on_date.strftime("%Y-%m"), days, dim),
                "amount": rent_pr,
            },
        ]
        if includes_next:
            lines.append({"type": "rent", "description": "Rent %s" % nxt.strftime("%Y-%m"), "amount": money(rent_next)})
        if discount:
            lines.append({"type": "discount", "description": "Promotion %s" % promo["code"], "amount": -discount})
        if plan_id is not None:
            lines.append(
                {
                    "type": "protection",
                    "description": "%s premium %s prorated" % (plan_id, on_date.strftime("%Y-%m")),
                    "amount": prem_pr,
                }
            )
            if includes_next:
                lines.append(
                    {
                        "type": "protection",
                        "description": "%s premium %s" % (plan_id, nxt.strftime("%Y-%m")),
                        "amount": money(prem_next),
                    }
                )
        lines.append({"type": "admin_fee", "description": "Administration fee", "amount": ADMIN_FEE})
        lines.append({"type": "deposit", "description": "Security deposit", "amount": deposit})
        subtotal = money(sum(l["amount"] for l in lines))
        total = money(subtotal - res_credit)
        paid_through = end_of_month(nxt) if includes_next else end_of_month(on_date)
        return {
            "unit_id": unit["unit_id"],
            "size_code": unit["size_code"],
            "move_in_date": on_date.isoformat(),
            "monthly_rent": money(rate),
            "protection_plan_id": plan_id,
            "monthly_premium": money(premium),
            "prorated_days": days,
            "days_in_month": dim,
            "includes_next_month": includes_next,
            "lines": lines,
            "rent_subtotal": rent_portion,
            "promo_discount": discount,
            "deposit": deposit,
            "admin_fee": ADMIN_FEE,
            "reservation_credit": money(res_credit),
            "total_due": total,
            "paid_through": paid_through.isoformat(),
        }

    def _customer_summary(self, c):
        rs = []
        for rid in c.get("rental_ids", []):
            r = self.db["rentals"].get(rid)
            if r:
                rs.append(
                    {
                        "rental_id": rid,
                        "unit_id": r["unit_id"],
                        "status": r["status"],
                        "balance_due": r["balance_due"],
                        "paid_through": r["paid_through"],
                    }
                )
        rv = []
        for rsid in c.get("reservation_ids", []):
            v = self.db["reservations"].get(rsid)
            if v:
                rv.append(
                    {
                        "reservation_id": rsid,
                        "unit_id": v["unit_id"],
                        "move_in_date": v["move_in_date"],
                        "status": v["status"],
                    }
                )
        return {
            "customer_id": c["customer_id"],
            "name": "%s %s" % (c["first_name"], c["last_name"]),
            "phone": c["phone"],
            "email": c["email"],
            "status": c["status"],
            "photo_id_on_file": c.get("photo_id") is not None,
            "insurance_certificate_on_file": c.get("insurance_certificate") is not None,
            "military_verified": bool(c.get("military_verified")),
            "rentals": rs,
            "reservations": rv,
        }

    # ------------------------------------------------------------------ tools
    def t_find_customers(self, a):
        self._allowed(a, ("customer_id", "last_name", "phone", "email"))
        crit = {k: a.get(k) for k in ("customer_id", "last_name", "phone", "email") if a.get(k) not in (None, "")}
        if not crit:
            raise Refusal("Provide at least one of customer_id, last_name, phone or email")
        out = []
        for cid in sorted(self.db["customers"]):
            c = self.db["customers"][cid]
            if "customer_id" in crit and cid != crit["customer_id"]:
                continue
            if "last_name" in crit and c["last_name"].lower() != str(crit["last_name"]).strip().lower():
                continue
            if "phone" in crit and digits(c["phone"]) != digits(str(crit["phone"])):
                continue
            if "email" in crit and c["email"].lower() != str(crit["email"]).strip().lower():
                continue
            out.append(self._customer_summary(c))
        return {"count": len(out), "customers": out}

    def t_get_rental(self, a):
        self._allowed(a, ("rental_id",), ("rental_id",))
        return copy.deepcopy(self._rental(a["rental_id"]))

    def t_search_units(self, a):
        self._allowed(a, ("size_code", "climate_controlled", "drive_up", "max_rate", "status"))
        size = a.get("size_code")
        if size is not None and size not in SIZE_CODES:
            raise Refusal("size_code must be one of: %s" % ", ".join(SIZE_CODES))
        status = a.get("status", "available")
        if status is None:
            status = "available"
        if status != "any" and status not in UNIT_STATUSES:
            raise Refusal("status must be one of: %s, any" % ", ".join(UNIT_STATUSES))
        for b in ("climate_controlled", "drive_up"):
            if a.get(b) is not None and not isinstance(a.get(b), bool):
                raise Refusal("%s must be true or false" % b)
        mx = a.get("max_rate")
        if mx is not None and (isinstance(mx, bool) or not isinstance(mx, (int, float)) or mx <= 0):
            raise Refusal("max_rate must be a positive number")
        res = []
        for u in self.db["units"].values():
            if size is not None and u["size_code"] != size:
                continue
            if status != "any" and u["status"] != status:
                continue
            if a.get("climate_controlled") is not None and u["climate_controlled"] != a["climate_controlled"]:
                continue
            if a.get("drive_up") is not None and u["drive_up"] != a["drive_up"]:
                continue
            if mx is not None and u["monthly_rate"] > mx:
                continue
            res.append(
                {
                    "unit_id": u["unit_id"],
                    "size_code": u["size_code"],
                    "square_feet": u["square_feet"],
                    "building": u["building"],
                    "floor": u["floor"],
                    "climate_controlled": u["climate_controlled"],
                    "drive_up": u["drive_up"],
                    "monthly_rate": u["monthly_rate"],
                    "status": u["status"],
                    "features": list(u["features"]),
                }
            )
        res.sort(key=lambda x: (x["monthly_rate"], x["unit_id"]))
        return {"count": len(res), "units": res}

    def t_quote_move_in(self, a):
        self._allowed(
            a,
            ("unit_id", "move_in_date", "protection_plan_id", "promo_code", "reservation_id", "customer_id"),
            ("unit_id",),
        )
        unit = self._unit(a["unit_id"])
        on = parse_date(a["move_in_date"], "move_in_date") if a.get("move_in_date") else BUSINESS_DATE
        if on < BUSINESS_DATE:
            raise Refusal("move_in_date cannot be in the past (business date %s)" % BUSINESS_DATE.isoformat())
        if (on - BUSINESS_DATE).days > QUOTE_MAX_DAYS_AHEAD:
            raise Refusal("Quotes are available for move-in dates up to %d days ahead" % QUOTE_MAX_DAYS_AHEAD)
        customer = self._customer(a["customer_id"]) if a.get("customer_id") else None
        reservation = None
        if a.get("reservation_id"):
            reservation = self._reservation(a["reservation_id"])
            if reservation["status"] != "held":
                raise Refusal("Reservation %s is %s" % (reservation["reservation_id"], reservation["status"]))
            if reservation["unit_id"] != unit["unit_id"]:
                raise Refusal(
                    "Reservation %s is for unit %s, not %s"
                    % (reservation["reservation_id"], reservation["unit_id"], unit["unit_id"])
                )
        if unit["status"] == "reserved" and reservation is None:
            raise Refusal("Unit %s is reserved; pass the reservation_id to quote it" % unit["unit_id"])
        if unit["status"] not in ("available", "reserved"):
            raise Refusal("Unit %s is not available (status: %s)" % (unit["unit_id"], unit["status"]))
        plan_id = a.get("protection_plan_id")
        q = self._compute_move_in(unit, on, plan_id, a.get("promo_code"), reservation, customer)
        if plan_id is None:
            q["notes"] = ["No protection plan quoted: tenant must have an insurance certificate on file."]
        return q

    def t_create_reservation(self, a):
        self._allowed(
            a, ("customer_id", "unit_id", "move_in_date", "payment_method"), ("customer_id", "unit_id", "move_in_date")
        )
        c = self._customer(a["customer_id"])
        unit = self._unit(a["unit_id"])
        on = parse_date(a["move_in_date"], "move_in_date")
        method = a.get("payment_method", "card")
        if c["status"] == "do_not_rent":
            raise Refusal("Customer %s is flagged do-not-rent; see a manager" % c["customer_id"])
        for r in self._open_rentals(c["customer_id"]):
            if r["balance_due"] > 0:
                raise Refusal(
                    "Customer has an outstanding balance of %s on %s" % (fmt(r["balance_due"]), r["rental_id"])
                )
        if unit["status"] != "available":
            raise Refusal("Unit %s is not available (status: %s)" % (unit["unit_id"], unit["status"]))
        if on < BUSINESS_DATE:
            raise Refusal("move_in_date cannot be in the past (business date %s)" % BUSINESS_DATE.isoformat())
        if (on - BUSINESS_DATE).days > RESERVATION_MAX_DAYS_AHEAD:
            raise Refusal(
                "Reservations can be made at most %d days ahead (latest %s)"
                % (RESERVATION_MAX_DAYS_AHEAD, (BUSINESS_DATE + timedelta(days=RESERVATION_MAX_DAYS_AHEAD)).isoformat())
            )
        held = [
            v
            for v in self.db["reservations"].values()
            if v["customer_id"] == c["customer_id"] and v["status"] == "held"
        ]
        if len(held) >= MAX_HELD_RESERVATIONS:
            raise Refusal("Customer already holds %d reservations (limit %d)" % (len(held), MAX_HELD_RESERVATIONS))
        self._check_method(method, ("card", "cash"), RESERVATION_DEPOSIT)
        rsid = self._next_id("reservations", "RS-", 4, 3001)
        today = BUSINESS_DATE.isoformat()
        v = {
            "reservation_id": rsid,
            "customer_id": c["customer_id"],
            "unit_id": unit["unit_id"],
            "size_code": unit["size_code"],
            "move_in_date": on.isoformat(),
            "locked_rate": unit["monthly_rate"],
            "deposit_paid": RESERVATION_DEPOSIT,
            "status": "held",
            "created_on": today,
            "history": [
                {
                    "date": today,
                    "event": "created",
                    "detail": "Reserved %s for %s; %s deposit by %s"
                    % (unit["unit_id"], on.isoformat(), fmt(RESERVATION_DEPOSIT), method),
                }
            ],
        }
        self.db["reservations"][rsid] = v
        c["reservation_ids"].append(rsid)
        unit["status"] = "reserved"
        unit["current_reservation_id"] = rsid
        return copy.deepcopy(v)

    def t_cancel_reservation(self, a):
        self._allowed(a, ("reservation_id", "reason"), ("reservation_id", "reason"))
        v = self._reservation(a["reservation_id"])
        if a["reason"] not in CANCEL_REASONS:
            raise Refusal("reason must be one of: %s" % ", ".join(CANCEL_REASONS))
        if v["status"] != "held":
            raise Refusal("Reservation %s cannot be cancelled (status: %s)" % (v["reservation_id"], v["status"]))
        days = (date.fromisoformat(v["move_in_date"]) - BUSINESS_DATE).days
        fee = 0.0 if days >= 2 else RESERVATION_LATE_CANCEL_FEE
        refund = money(v["deposit_paid"] - fee)
        today = BUSINESS_DATE.isoformat()
        v["status"] = "cancelled"
        v["cancelled_on"] = today
        v["cancellation_fee"] = fee
        v["refund_amount"] = refund
        v["history"].append(
            {
                "date": today,
                "event": "cancelled",
                "detail": "Cancelled (%s); %s refunded%s"
                % (a["reason"], fmt(refund), (", %s late-cancellation fee" % fmt(fee)) if fee else ""),
            }
        )
        unit = self.db["units"].get(v["unit_id"])
        if unit and unit.get("current_reservation_id") == v["reservation_id"]:
            unit["current_reservation_id"] = None
            if unit["status"] == "reserved":
                unit["status"] = "available"
        return {
            "reservation_id": v["reservation_id"],
            "status": "cancelled",
            "unit_id": v["unit_id"],
            "deposit_paid": v["deposit_paid"],
            "cancellation_fee": fee,
            "refund_amount": refund,
            "refund_method": "original card",
        }

    def t_move_in(self, a):
        self._allowed(
            a,
            (
                "customer_id",
                "unit_id",
                "protection_plan_id",
                "promo_code",
                "payment_method",
                "reservation_id",
                "autopay",
            ),
            ("customer_id", "unit_id", "payment_method"),
        )
        c = self._customer(a["customer_id"])
        unit = self._unit(a["unit_id"])
        if c["status"] == "do_not_rent":
            raise Refusal("Customer %s is flagged do-not-rent; see a manager" % c["customer_id"])
        if c.get("photo_id") is None:
            raise Refusal(
                "Customer %s has no government photo ID on file; scan an ID before move-in" % c["customer_id"]
            )
        open_r = self._open_rentals(c["customer_id"])
        for r in open_r:
            if r["balance_due"] > 0:
                raise Refusal(
                    "Customer has an outstanding balance of %s on %s" % (fmt(r["balance_due"]), r["rental_id"])
                )
        if len(open_r) >= MAX_ACTIVE_RENTALS:
            raise Refusal(
                "Customer already has %d active rentals (limit %d without manager approval)"
                % (len(open_r), MAX_ACTIVE_RENTALS)
            )
        reservation = None
        if a.get("reservation_id"):
            reservation = self._reservation(a["reservation_id"])
            if reservation["customer_id"] != c["customer_id"]:
                raise Refusal("Reservation %s belongs to another customer" % reservation["reservation_id"])
            if reservation["status"] != "held":
                raise Refusal("Reservation %s is %s" % (reservation["reservation_id"], reservation["status"]))
            if reservation["unit_id"] != unit["unit_id"]:
                raise Refusal(
                    "Reservation %s is for unit %s, not %s"
                    % (reservation["reservation_id"], reservation["unit_id"], unit["unit_id"])
                )
        elif unit["status"] == "reserved":
            rsid = unit.get("current_reservation_id")
            cand = self.db["reservations"].get(rsid) if rsid else None
            if cand and cand["customer_id"] == c["customer_id"] and cand["status"] == "held":
                reservation = cand
            else:
                raise Refusal("Unit %s is reserved for another customer" % unit["unit_id"])
        if unit["status"] not in ("available", "reserved"):
            raise Refusal("Unit %s is not available (status: %s)" % (unit["unit_id"], unit["status"]))
        plan_id = a.get("protection_plan_id")
        if plan_id is None:
            cert = c.get("insurance_certificate")
            if not cert or cert.get("expires_on", "") < BUSINESS_DATE.isoformat():
                raise Refusal(
                    "A protection plan is required unless the customer has a current insurance certificate on file"
                )
        autopay = a.get("autopay", False)
        if not isinstance(autopay, bool):
            raise Refusal("autopay must be true or false")
        q = self._compute_move_in(unit, BUSINESS_DATE, plan_id, a.get("promo_code"), reservation, c)
        method = a["payment_method"]
        self._check_method(method, ("card", "cash"), q["total_due"])
        today = BUSINESS_DATE.isoformat()
        rid = self._next_id("rentals", "RN-", 4, 5001)
        n = int(rid[3:])
        pay_id = self._next_payment_id()
        charges = [
            {"date": today, "type": l["type"], "description": l["description"], "amount": l["amount"]}
            for l in q["lines"]
        ]
        payments = []
        if reservation:
            payments.append(
                {
                    "payment_id": pay_id,
                    "date": today,
                    "amount": reservation["deposit_paid"],
                    "method": "reservation_deposit",
                    "note": "Reservation deposit %s applied" % reservation["reservation_id"],
                }
            )
            pay_id = "PY-%05d" % (int(pay_id[3:]) + 1)
        payments.append(
            {"payment_id": pay_id, "date": today, "amount": q["total_due"], "method": method, "note": "Move-in payment"}
        )
        history = [
            {
                "date": today,
                "event": "move_in",
                "detail": "Moved in to %s at %s/month" % (unit["unit_id"], fmt(q["monthly_rent"])),
            }
        ]
        if plan_id is None:
            history.append(
                {
                    "date": today,
                    "event": "protection_waived",
                    "detail": "Own insurance certificate on file (%s)" % c["insurance_certificate"].get("carrier", ""),
                }
            )
        if q["promo_discount"]:
            history.append(
                {
                    "date": today,
                    "event": "promotion",
                    "detail": "Promotion %s: %s off move-in rent"
                    % (a["promo_code"].strip().upper(), fmt(q["promo_discount"])),
                }
            )
        if reservation:
            history.append(
                {
                    "date": today,
                    "event": "reservation_converted",
                    "detail": "Reservation %s converted" % reservation["reservation_id"],
                }
            )
        gate = self._gate_code(n)
        r = {
            "rental_id": rid,
            "customer_id": c["customer_id"],
            "unit_id": unit["unit_id"],
            "status": "active",
            "move_in_date": today,
            "move_out_date": None,
            "monthly_rent": q["monthly_rent"],
            "protection_plan_id": plan_id,
            "protection_premium": q["monthly_premium"],
            "deposit_held": q["deposit"],
            "paid_through": q["paid_through"],
            "balance_due": 0.0,
            "credit": 0.0,
            "gate_code": gate,
            "autopay": autopay,
            "authorized_users": [],
            "charges": charges,
            "payments": payments,
            "history": history,
        }
        if a.get("promo_code"):
            r["promo_code"] = a["promo_code"].strip().upper()
        self.db["rentals"][rid] = r
        c["rental_ids"].append(rid)
        if c["status"] == "former":
            c["status"] = "active"
        unit["status"] = "occupied"
        unit["current_rental_id"] = rid
        unit["current_reservation_id"] = None
        if reservation:
            reservation["status"] = "converted"
            reservation["converted_rental_id"] = rid
            reservation["history"].append(
                {"date": today, "event": "converted", "detail": "Converted to rental %s" % rid}
            )
        return {
            "rental_id": rid,
            "customer_id": c["customer_id"],
            "unit_id": unit["unit_id"],
            "status": "active",
            "move_in_date": today,
            "monthly_rent": q["monthly_rent"],
            "protection_plan_id": plan_id,
            "gate_code": gate,
            "paid_through": q["paid_through"],
            "lines": q["lines"],
            "reservation_credit": q["reservation_credit"],
            "total_paid": q["total_due"],
            "payment_id": pay_id,
            "payment_method": method,
            "reservation_converted": reservation["reservation_id"] if reservation else None,
        }

    def t_take_payment(self, a):
        self._allowed(a, ("rental_id", "amount", "method"), ("rental_id", "amount", "method"))
        r = self._rental(a["rental_id"])
        amount = self._amount(a["amount"])
        method = a["method"]
        if r["status"] not in OPEN_RENTAL_STATUSES:
            raise Refusal("Rental %s is %s; payments cannot be taken" % (r["rental_id"], r["status"]))
        if method not in ("card", "cash", "check"):
            raise Refusal("method must be one of: card, cash, check")
        if method == "check" and r["status"] in ("delinquent", "overlocked"):
            raise Refusal("Checks are not accepted on %s rentals; take card or cash" % r["status"])
        self._check_method(method, ("card", "cash", "check"), amount)
        monthly = money(r["monthly_rent"] + r["protection_premium"])
        limit = money(r["balance_due"] + PREPAY_MAX_MONTHS * monthly)
        if amount > limit:
            raise Refusal(
                "Payment exceeds the maximum of %s (balance due plus %d months' prepayment)"
                % (fmt(limit), PREPAY_MAX_MONTHS)
            )
        today = BUSINESS_DATE.isoformat()
        pid = self._next_payment_id()
        r["payments"].append({"payment_id": pid, "date": today, "amount": amount, "method": method})
        applied = money(min(amount, r["balance_due"]))
        excess = money(amount - applied)
        r["balance_due"] = money(r["balance_due"] - applied)
        r["credit"] = money(r["credit"] + excess)
        was = r["status"]
        overlock_removed = False
        if r["balance_due"] == 0:
            cur_end = end_of_month(BUSINESS_DATE).isoformat()
            if r["paid_through"] < cur_end:
                r["paid_through"] = cur_end
            if was in ("delinquent", "overlocked"):
                r["status"] = "active"
                if was == "overlocked":
                    overlock_removed = True
        months = 0
        if r["balance_due"] == 0 and monthly > 0:
            while r["credit"] + 1e-9 >= monthly:
                pt = date.fromisoformat(r["paid_through"])
                nm = next_month_start(pt)
                tag = nm.strftime("%Y-%m")
                r["charges"].append(
                    {
                        "date": today,
                        "type": "rent",
                        "description": "Rent %s (prepaid)" % tag,
                        "amount": r["monthly_rent"],
                    }
                )
                if r["protection_premium"]:
                    r["charges"].append(
                        {
                            "date": today,
                            "type": "protection",
                            "description": "%s premium %s (prepaid)" % (r["protection_plan_id"], tag),
                            "amount": r["protection_premium"],
                        }
                    )
                r["paid_through"] = end_of_month(nm).isoformat()
                r["credit"] = money(r["credit"] - monthly)
                months += 1
        r["history"].append(
            {"date": today, "event": "payment", "detail": "Payment %s %s by %s" % (pid, fmt(amount), method)}
        )
        if months:
            r["history"].append(
                {"date": today, "event": "prepayment", "detail": "Prepaid through %s" % r["paid_through"]}
            )
        if overlock_removed:
            r["history"].append(
                {
                    "date": today,
                    "event": "overlock_removed",
                    "detail": "Balance cleared; overlock removed and gate access restored",
                }
            )
        elif was == "delinquent" and r["status"] == "active":
            r["history"].append({"date": today, "event": "status", "detail": "Balance cleared; rental current"})
        return {
            "payment_id": pid,
            "rental_id": r["rental_id"],
            "amount": amount,
            "method": method,
            "applied_to_balance": applied,
            "months_prepaid": months,
            "balance_due": r["balance_due"],
            "credit": r["credit"],
            "paid_through": r["paid_through"],
            "status": r["status"],
            "overlock_removed": overlock_removed,
        }

    def t_update_access_list(self, a):
        self._allowed(a, ("rental_id", "add", "remove"), ("rental_id",))
        r = self._rental(a["rental_id"])
        add = a.get("add") or []
        remove = a.get("remove") or []
        if not isinstance(add, list) or not isinstance(remove, list):
            raise Refusal("add and remove must be arrays")
        if not add and not remove:
            raise Refusal("Provide at least one person to add or remove")
        if r["status"] == "ended":
            raise Refusal("Rental %s has ended" % r["rental_id"])
        if r["status"] == "overlocked":
            raise Refusal("Access changes are not allowed while rental %s is overlocked" % r["rental_id"])
        users = r["authorized_users"]
        today = BUSINESS_DATE.isoformat()
        removed = []
        for nm in remove:
            if not isinstance(nm, str):
                raise Refusal("remove must list names")
            idx = next((i for i, u in enumerate(users) if u["name"].lower() == nm.strip().lower()), None)
            if idx is None:
                raise Refusal("%s is not an authorized user on %s" % (nm, r["rental_id"]))
            removed.append(users.pop(idx)["name"])
        added = []
        for p in add:
            if not isinstance(p, dict):
                raise Refusal("each person to add must be an object with name, relationship and phone")
            name = (p.get("name") or "").strip()
            if not name or len(name.split()) < 2:
                raise Refusal("name must be a first and last name")
            if p.get("relationship") not in RELATIONSHIPS:
                raise Refusal("relationship must be one of: %s" % ", ".join(RELATIONSHIPS))
            ph = p.get("phone")
            if not isinstance(ph, str) or not re.fullmatch(r"\d{3}-\d{3}-\d{4}", ph):
                raise Refusal("phone must be in the format 555-123-4567")
            cust = self.db["customers"].get(r["customer_id"], {})
            if name.lower() == ("%s %s" % (cust.get("first_name", ""), cust.get("last_name", ""))).lower():
                raise Refusal("The tenant already has access and cannot be added as an authorized user")
            if any(u["name"].lower() == name.lower() for u in users):
                raise Refusal("%s is already an authorized user on %s" % (name, r["rental_id"]))
            users.append({"name": name, "relationship": p["relationship"], "phone": ph, "added_on": today})
            added.append(name)
        if len(users) > MAX_AUTHORIZED_USERS:
            raise Refusal(
                "A rental may have at most %d authorized users (would have %d)" % (MAX_AUTHORIZED_USERS, len(users))
            )
        for nm in removed:
            r["history"].append({"date": today, "event": "access_removed", "detail": "Authorized user %s removed" % nm})
        for nm in added:
            r["history"].append({"date": today, "event": "access_added", "detail": "Authorized user %s added" % nm})
        return {
            "rental_id": r["rental_id"],
            "added": added,
            "removed": removed,
            "authorized_users": copy.deepcopy(users),
        }

    def t_transfer_unit(self, a):
        self._allowed(a, ("rental_id", "new_unit_id", "reason"), ("rental_id", "new_unit_id"))
        r = self._rental(a["rental_id"])
        reason = a.get("reason", "customer_request")
        if reason not in ("customer_request", "facility_issue"):
            raise Refusal("reason must be one of: customer_request, facility_issue")
        new = self._unit(a["new_unit_id"])
        if r["status"] != "active":
            raise Refusal("Rental %s is %s; only active rentals can transfer" % (r["rental_id"], r["status"]))
        if r["balance_due"] > 0:
            raise Refusal(
                "Rental %s has a balance of %s; it must be paid before a transfer"
                % (r["rental_id"], fmt(r["balance_due"]))
            )
        if new["unit_id"] == r["unit_id"]:
            raise Refusal("The rental is already in unit %s" % new["unit_id"])
        if new["status"] != "available":
            raise Refusal("Unit %s is not available (status: %s)" % (new["unit_id"], new["status"]))
        old = self.db["units"][r["unit_id"]]
        if reason == "facility_issue" and not [i for i in old.get("open_issues", []) if i.get("status") != "closed"]:
            raise Refusal("Unit %s has no open facility issue; use reason customer_request" % old["unit_id"])
        today = BUSINESS_DATE.isoformat()
        old_rent, new_rent = r["monthly_rent"], new["monthly_rate"]
        diff = new_rent - old_rent
        dim = calendar.monthrange(BUSINESS_DATE.year, BUSINESS_DATE.month)[1]
        days = dim - BUSINESS_DATE.day + 1
        adj = diff * days / dim
        pt = date.fromisoformat(r["paid_through"])
        cur_end = end_of_month(BUSINESS_DATE)
        full = 0
        if pt > cur_end:
            full = (pt.year - cur_end.year) * 12 + (pt.month - cur_end.month)
        adj = money(money(adj) + diff * full)
        fee = 0.0 if reason == "facility_issue" else TRANSFER_FEE
        dep_new = deposit_for(new["size_code"])
        top_up = money(dep_new - r["deposit_held"]) if dep_new > r["deposit_held"] else 0.0
        due = 0.0
        if adj > 0:
            r["charges"].append(
                {
                    "date": today,
                    "type": "rent_adjustment",
                    "description": "Transfer %s to %s, rent difference" % (old["unit_id"], new["unit_id"]),
                    "amount": adj,
                }
            )
            due += adj
        elif adj < 0:
            r["credit"] = money(r["credit"] - adj)
        if fee:
            r["charges"].append(
                {"date": today, "type": "transfer_fee", "description": "Unit transfer fee", "amount": fee}
            )
            due += fee
        if top_up:
            r["charges"].append(
                {"date": today, "type": "deposit", "description": "Security deposit top-up", "amount": top_up}
            )
            r["deposit_held"] = money(r["deposit_held"] + top_up)
            due += top_up
        due = money(due)
        r["balance_due"] = money(r["balance_due"] + due)
        r["monthly_rent"] = new_rent
        r["unit_id"] = new["unit_id"]
        r["history"].append(
            {
                "date": today,
                "event": "transfer",
                "detail": "Transferred from %s to %s (%s); rent %s -> %s"
                % (old["unit_id"], new["unit_id"], reason, fmt(old_rent), fmt(new_rent)),
            }
        )
        old["current_rental_id"] = None
        old["status"] = "maintenance" if reason == "facility_issue" else "available"
        new["status"] = "occupied"
        new["current_rental_id"] = r["rental_id"]
        return {
            "rental_id": r["rental_id"],
            "old_unit_id": old["unit_id"],
            "new_unit_id": new["unit_id"],
            "old_monthly_rent": old_rent,
            "new_monthly_rent": new_rent,
            "rent_adjustment": adj,
            "transfer_fee": fee,
            "deposit_top_up": top_up,
            "amount_due_now": due,
            "balance_due": r["balance_due"],
            "credit": r["credit"],
            "gate_code": r["gate_code"],
        }

    def t_move_out(self, a):
        self._allowed(a, ("rental_id", "broom_clean", "lock_removed", "refund_method"), ("rental_id",))
        r = self._rental(a["rental_id"])
        for b in ("broom_clean", "lock_removed"):
            if not isinstance(a.get(b), bool):
                raise Refusal("%s is required and must be true or false" % b)
        refund_method = a.get("refund_method", "check")
        if refund_method not in ("original_payment", "check"):
            raise Refusal("refund_method must be one of: original_payment, check")
        if r["status"] == "ended":
            raise Refusal("Rental %s has already ended" % r["rental_id"])
        if r["status"] == "overlocked":
            raise Refusal(
                "Rental %s is overlocked; the balance of %s must be paid in full before move-out"
                % (r["rental_id"], fmt(r["balance_due"]))
            )
        pt = date.fromisoformat(r["paid_through"])
        cur_end = end_of_month(BUSINESS_DATE)
        months = 0
        if pt > cur_end:
            months = (pt.year - cur_end.year) * 12 + (pt.month - cur_end.month)
        prepaid = money(months * (r["monthly_rent"] + r["protection_premium"]))
        cleaning = 0.0 if a["broom_clean"] else CLEANING_FEE
        lockcut = 0.0 if a["lock_removed"] else LOCK_CUT_FEE
        total = money(r["deposit_held"] + prepaid + r["credit"] - cleaning - lockcut - r["balance_due"])
        if total < 0:
            raise Refusal(
                "Move-out charges exceed the deposit and prepaid rent by %s; collect payment first" % fmt(-total)
            )
        today = BUSINESS_DATE.isoformat()
        if cleaning:
            r["charges"].append(
                {"date": today, "type": "cleaning_fee", "description": "Unit not broom clean", "amount": cleaning}
            )
        if lockcut:
            r["charges"].append(
                {"date": today, "type": "lock_cut_fee", "description": "Tenant lock left on unit", "amount": lockcut}
            )
        out = {
            "rental_id": r["rental_id"],
            "unit_id": r["unit_id"],
            "move_out_date": today,
            "deposit_held": r["deposit_held"],
            "prepaid_months_refunded": months,
            "prepaid_refund": prepaid,
            "credit_refunded": r["credit"],
            "cleaning_fee": cleaning,
            "lock_cut_fee": lockcut,
            "balance_deducted": r["balance_due"],
            "refund_total": total,
            "refund_method": refund_method,
        }
        if total > 0:
            r["payments"].append(
                {
                    "payment_id": self._next_payment_id(),
                    "date": today,
                    "amount": -total,
                    "method": "refund_" + refund_method,
                    "note": "Move-out refund",
                }
            )
        r["history"].append(
            {
                "date": today,
                "event": "move_out",
                "detail": "Moved out; refund %s by %s" % (fmt(total), refund_method.replace("_", " ")),
            }
        )
        r["status"] = "ended"
        r["move_out_date"] = today
        r["balance_due"] = 0.0
        r["credit"] = 0.0
        r["deposit_held"] = 0.0
        r["gate_code"] = None
        r["autopay"] = False
        r["authorized_users"] = []
        if months:
            r["paid_through"] = cur_end.isoformat()
        unit = self.db["units"][r["unit_id"]]
        unit["status"] = "available" if a["broom_clean"] and a["lock_removed"] else "needs_cleaning"
        unit["current_rental_id"] = None
        c = self.db["customers"].get(r["customer_id"])
        if c and not self._open_rentals(c["customer_id"]) and c["status"] == "active":
            held = [
                v
                for v in self.db["reservations"].values()
                if v["customer_id"] == c["customer_id"] and v["status"] == "held"
            ]
            if not held:
                c["status"] = "former"
        out["unit_status"] = unit["status"]
        return out

    def t_sell_merchandise(self, a):
        self._allowed(a, ("items", "payment_method", "customer_id"), ("items", "payment_method"))
        items = a["items"]
        if not isinstance(items, list) or not items:
            raise Refusal("items must be a non-empty array")
        c = self._customer(a["customer_id"]) if a.get("customer_id") else None
        lines = []
        need = {}
        for it in items:
            if not isinstance(it, dict):
                raise Refusal("each item must be an object with product_id and quantity")
            pid = it.get("product_id")
            if pid not in self.db["products"]:
                raise Refusal("Product %s not found" % pid)
            q = it.get("quantity", 1)
            if isinstance(q, bool) or not isinstance(q, int) or q < 1 or q > MAX_LINE_QTY:
                raise Refusal("quantity must be a whole number from 1 to %d" % MAX_LINE_QTY)
            need[pid] = need.get(pid, 0) + q
        for pid, q in need.items():
            p = self.db["products"][pid]
            if p["stock"] < q:
                if p["stock"] == 0:
                    raise Refusal("%s (%s) is out of stock" % (p["name"], pid))
                raise Refusal("Only %d of %s (%s) in stock" % (p["stock"], p["name"], pid))
        for it in items:
            p = self.db["products"][it["product_id"]]
            q = it.get("quantity", 1)
            lines.append(
                {
                    "product_id": p["product_id"],
                    "name": p["name"],
                    "quantity": q,
                    "unit_price": p["price"],
                    "line_total": money(p["price"] * q),
                }
            )
        subtotal = money(sum(l["line_total"] for l in lines))
        discount = 0.0
        if c is not None and any(r["status"] == "active" for r in self._open_rentals(c["customer_id"])):
            discount = money(subtotal * TENANT_MERCH_DISCOUNT)
        taxable = money(subtotal - discount)
        tax = money(taxable * SALES_TAX_RATE)
        total = money(taxable + tax)
        self._check_method(a["payment_method"], ("card", "cash"), total)
        for pid, q in need.items():
            self.db["products"][pid]["stock"] -= q
        sid = self._next_id("sales", "SL-", 4, 8001)
        sale = {
            "sale_id": sid,
            "date": BUSINESS_DATE.isoformat(),
            "customer_id": c["customer_id"] if c else None,
            "lines": lines,
            "subtotal": subtotal,
            "tenant_discount": discount,
            "tax": tax,
            "total": total,
            "payment_method": a["payment_method"],
        }
        self.db["sales"][sid] = sale
        return copy.deepcopy(sale)


def make():
    return StorageDesk()


def replay(path_dir=None):
    here = path_dir or os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    env = make()
    calls = refused = 0
    final_states = []
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            env.reset(data)
            for c in t["calls"]:
                res = env.call(c["name"], c["arguments"])
                calls += 1
                if not res["ok"]:
                    refused += 1
            final_states.append(env.state())
    return calls, refused, final_states


if __name__ == "__main__":
    n, bad, _ = replay()
    print("calls: %d" % n)
    print("refused: %d" % bad)
