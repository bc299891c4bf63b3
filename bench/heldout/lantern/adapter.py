"""Real implementation of the harbour office desk API (standard library only).

make() -> object with reset(state), call(name, arguments), state().
`python adapter.py` replays every trajectory of trajectories.jsonl from data.json.
"""

import copy
import datetime
import json
import math
import os
import sys

BUSINESS_DATE = datetime.date(2025, 6, 14)

RATES = {"standard": 3.20, "premium": 4.10}
MULTIHULL_SURCHARGE = 0.50
CLUB_DISCOUNT = 0.10
MAX_NIGHTS = 14
BOOKING_HORIZON_DAYS = 90
UNDERKEEL_CLEARANCE_M = 0.5
CHANGE_FEE = 15.00
CHANGE_FEE_WINDOW_DAYS = 3

ITEMS = {
    "diesel": ("litre", 1.92),
    "petrol": ("litre", 2.05),
    "pump_out": ("service", 15.00),
    "laundry": ("load", 6.50),
    "shore_power": ("kWh", 0.42),
}
FUEL_ITEMS = ("diesel", "petrol")
COUNTED_ITEMS = ("pump_out", "laundry")
FUEL_MAX_LITRES = 500

YARD_SERVICES = {
    "haul_out": {"per_metre": 16.00, "minimum": 140.00, "flat": None, "lift": True},
    "mast_crane": {"per_metre": None, "minimum": None, "flat": 95.00, "lift": True},
    "pressure_wash": {"per_metre": 4.50, "minimum": 45.00, "flat": None, "lift": False},
}
LIFT_CAPACITY_PER_DAY = 4
LIFT_MAX_LOA_M = 16.0
LIFT_MAX_BEAM_M = 5.0
YARD_HORIZON_DAYS = 60

TOPUP_MIN = 20.00
TOPUP_MAX = 1000.00
CREDIT_CAP = 2500.00

PAYMENT_METHODS = ("account_credit", "card")
OPEN_STAY = ("booked", "checked_in")


class Refusal(Exception):
    pass


def _money(x):
    return round(x + 0.0, 2) + 0.0


def _date(value, name):
    if not isinstance(value, str):
        raise Refusal("%s must be a date in YYYY-MM-DD format" % name)
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise Refusal("%s must be a date in YYYY-MM-DD format" % name)


def _need(args, *names):
    for n in names:
        if n not in args or args[n] is None or args[n] == "":
            raise Refusal("Missing required argument: %s" % n)


def _number(value, name):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refusal("%s must be a number" % name)
    return float(value)


def _next_id(collection, prefix):
    best = 0
    for key in collection:
        if key.startswith(prefix):
            try:
                best = max(best, int(key[len(prefix) :]))
            except ValueError:
                pass
    return "%s%d" % (prefix, best + 1)


def _overlap(a1, d1, a2, d2):
    return a1 < d2 and a2 < d1


class Harbour:
    def __init__(self):
        self.db = {}

    # protocol -------------------------------------------------------------
    def reset(self, state):
        self.db = copy.deepcopy(state)
        for key in ("owners", "vessels", "berths", "stays", "yard_bookings", "transactions"):
            self.db.setdefault(key, {})

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "op_" + str(name), None)
        if fn is None:
            return {"ok": False, "output": "Unknown tool: %s" % name}
        args = dict(arguments or {})
        snapshot = copy.deepcopy(self.db)
        try:
            out = fn(args)
        except Refusal as exc:
            self.db = snapshot
            return {"ok": False, "output": "Error: %s" % exc}
        return {"ok": True, "output": out}

    # helpers --------------------------------------------------------------
    def _owner(self, owner_id):
        o = self.db["owners"].get(owner_id)
        if o is None:
            raise Refusal("owner %s not found" % owner_id)
        return o

    def _vessel(self, vessel_id):
        v = self.db["vessels"].get(vessel_id)
        if v is None:
            raise Refusal("vessel %s not found" % vessel_id)
        return v

    def _stay(self, stay_id):
        s = self.db["stays"].get(stay_id)
        if s is None:
            raise Refusal("stay %s not found" % stay_id)
        return s

    def _berth(self, berth_id):
        b = self.db["berths"].get(berth_id)
        if b is None:
            raise Refusal("berth %s not found" % berth_id)
        return b

    def _nightly_price(self, vessel, berth, owner):
        charged_length = math.ceil(vessel["loa_m"] - 1e-9)
        price = charged_length * RATES[berth["tier"]]
        if vessel["hull"] == "multihull":
            price *= 1 + MULTIHULL_SURCHARGE
        if owner["membership"] == "club":
            price *= 1 - CLUB_DISCOUNT
        return _money(price)

    def _fits(self, vessel, berth):
        return (
            vessel["loa_m"] <= berth["max_loa_m"]
            and vessel["beam_m"] <= berth["max_beam_m"]
            and vessel["draft_m"] + UNDERKEEL_CLEARANCE_M <= berth["depth_m"] + 1e-9
        )

    def _check_dates(self, arrive_s, depart_s):
        arrive = _date(arrive_s, "arrive")
        depart = _date(depart_s, "depart")
        if depart <= arrive:
            raise Refusal("depart must be after arrive")
        if arrive < BUSINESS_DATE:
            raise Refusal("arrive cannot be in the past")
        if (arrive - BUSINESS_DATE).days > BOOKING_HORIZON_DAYS:
            raise Refusal("stays can be booked at most %d days ahead" % BOOKING_HORIZON_DAYS)
        nights = (depart - arrive).days
        if nights > MAX_NIGHTS:
            raise Refusal("a stay is limited to %d nights" % MAX_NIGHTS)
        return arrive, depart, nights

    def _berth_free(self, berth_id, arrive, depart, exclude=None):
        for s in self.db["stays"].values():
            if s["stay_id"] == exclude or s["berth_id"] != berth_id or s["status"] not in OPEN_STAY:
                continue
            if _overlap(
                arrive, depart, datetime.date.fromisoformat(s["arrive"]), datetime.date.fromisoformat(s["depart"])
            ):
                return s["stay_id"]
        return None

    def _vessel_busy(self, vessel_id, arrive, depart, exclude=None):
        for s in self.db["stays"].values():
            if s["stay_id"] == exclude or s["vessel_id"] != vessel_id or s["status"] not in OPEN_STAY:
                continue
            if _overlap(
                arrive, depart, datetime.date.fromisoformat(s["arrive"]), datetime.date.fromisoformat(s["depart"])
            ):
                return s["stay_id"]
        return None

    def _insured_until(self, vessel):
        return datetime.date.fromisoformat(vessel["insurance"]["valid_until"])

    def _txn(self, owner_id, kind, method, amount, reference, memo):
        tid = _next_id(self.db["transactions"], "TXN-")
        rec = {
            "txn_id": tid,
            "owner_id": owner_id,
            "date": BUSINESS_DATE.isoformat(),
            "type": kind,
            "method": method,
            "amount": _money(amount),
            "reference": reference,
            "memo": memo,
        }
        self.db["transactions"][tid] = rec
        return tid

    def _take_payment(self, owner, method, amount, reference, memo):
        amount = _money(amount)
        if method == "account_credit":
            if owner["account_credit"] + 1e-9 < amount:
                raise Refusal(
                    "insufficient account credit: %.2f available, %.2f required" % (owner["account_credit"], amount)
                )
            owner["account_credit"] = _money(owner["account_credit"] - amount)
        return self._txn(owner["owner_id"], "charge", method, amount, reference, memo)

    def _give_refund(self, owner, method, amount, reference, memo):
        amount = _money(amount)
        if method == "account_credit":
            owner["account_credit"] = _money(owner["account_credit"] + amount)
        return self._txn(owner["owner_id"], "refund", method, amount, reference, memo)

    def _method(self, args):
        m = args.get("payment_method")
        if m not in PAYMENT_METHODS:
            raise Refusal("payment_method must be one of: account_credit, card")
        return m

    # reads ----------------------------------------------------------------
    def op_get_owner_account(self, args):
        _need(args, "owner_id")
        owner = self._owner(args["owner_id"])
        out = copy.deepcopy(owner)
        out["vessels"] = []
        for vid in owner.get("vessel_ids", []):
            v = self.db["vessels"].get(vid)
            if v:
                out["vessels"].append({"vessel_id": vid, "name": v["name"], "type": v["type"], "loa_m": v["loa_m"]})
        out["open_stays"] = [
            {
                "stay_id": s["stay_id"],
                "vessel_id": s["vessel_id"],
                "berth_id": s["berth_id"],
                "arrive": s["arrive"],
                "depart": s["depart"],
                "status": s["status"],
            }
            for s in sorted(self.db["stays"].values(), key=lambda r: r["stay_id"])
            if s["owner_id"] == owner["owner_id"] and s["status"] in OPEN_STAY
        ]
        out["upcoming_yard_bookings"] = [
            {"booking_id": y["booking_id"], "vessel_id": y["vessel_id"], "service": y["service"], "date": y["date"]}
            for y in sorted(self.db["yard_bookings"].values(), key=lambda r: r["booking_id"])
            if y["owner_id"] == owner["owner_id"] and y["status"] == "scheduled"
        ]
        out["transactions"] = [
            copy.deepcopy(t)
            for t in sorted(self.db["transactions"].values(), key=lambda r: r["txn_id"])
            if t["owner_id"] == owner["owner_id"]
        ]
        return out

    def op_get_vessel(self, args):
        _need(args, "vessel_id")
        v = self._vessel(args["vessel_id"])
        out = copy.deepcopy(v)
        out["insurance_valid_today"] = self._insured_until(v) >= BUSINESS_DATE
        out["yard_bookings"] = [
            copy.deepcopy(y)
            for y in sorted(self.db["yard_bookings"].values(), key=lambda r: r["booking_id"])
            if y["vessel_id"] == v["vessel_id"]
        ]
        return out

    def op_search_berths(self, args):
        _need(args, "vessel_id", "arrive", "depart")
        v = self._vessel(args["vessel_id"])
        owner = self._owner(v["owner_id"])
        arrive, depart, nights = self._check_dates(args["arrive"], args["depart"])
        want_power = args.get("shore_power")
        results = []
        for bid in sorted(self.db["berths"]):
            b = self.db["berths"][bid]
            if b["status"] != "open" or not self._fits(v, b):
                continue
            if want_power is True and not b["shore_power"]:
                continue
            if self._berth_free(bid, arrive, depart):
                continue
            nightly = self._nightly_price(v, b, owner)
            results.append(
                {
                    "berth_id": bid,
                    "pontoon": b["pontoon"],
                    "tier": b["tier"],
                    "shore_power": b["shore_power"],
                    "max_loa_m": b["max_loa_m"],
                    "max_beam_m": b["max_beam_m"],
                    "depth_m": b["depth_m"],
                    "nightly_price": nightly,
                    "total_price": _money(nightly * nights),
                }
            )
        return {
            "vessel_id": v["vessel_id"],
            "arrive": arrive.isoformat(),
            "depart": depart.isoformat(),
            "nights": nights,
            "berths": results,
        }

    def op_get_stay(self, args):
        _need(args, "stay_id")
        s = self._stay(args["stay_id"])
        out = copy.deepcopy(s)
        v = self.db["vessels"].get(s["vessel_id"], {})
        o = self.db["owners"].get(s["owner_id"], {})
        out["vessel_name"] = v.get("name")
        out["owner_name"] = o.get("name")
        return out

    # writes ---------------------------------------------------------------
    def op_create_stay(self, args):
        _need(args, "vessel_id", "berth_id", "arrive", "depart", "payment_method")
        method = self._method(args)
        v = self._vessel(args["vessel_id"])
        owner = self._owner(v["owner_id"])
        if owner["status"] != "active":
            raise Refusal("owner account %s is %s" % (owner["owner_id"], owner["status"]))
        arrive, depart, nights = self._check_dates(args["arrive"], args["depart"])
        b = self._berth(args["berth_id"])
        if b["status"] != "open":
            raise Refusal("berth %s is closed for %s" % (b["berth_id"], b["status"]))
        if not self._fits(v, b):
            raise Refusal("vessel %s does not fit berth %s" % (v["vessel_id"], b["berth_id"]))
        if self._insured_until(v) < depart:
            raise Refusal("vessel insurance expires %s, before the departure date" % v["insurance"]["valid_until"])
        clash = self._berth_free(b["berth_id"], arrive, depart)
        if clash:
            raise Refusal("berth %s is not available for those dates" % b["berth_id"])
        busy = self._vessel_busy(v["vessel_id"], arrive, depart)
        if busy:
            raise Refusal("vessel already has stay %s overlapping those dates" % busy)
        nightly = self._nightly_price(v, b, owner)
        fee = _money(nightly * nights)
        sid = _next_id(self.db["stays"], "STY-")
        self._take_payment(owner, method, fee, sid, "berth fee")
        stay = {
            "stay_id": sid,
            "vessel_id": v["vessel_id"],
            "owner_id": owner["owner_id"],
            "berth_id": b["berth_id"],
            "arrive": arrive.isoformat(),
            "depart": depart.isoformat(),
            "nights": nights,
            "status": "booked",
            "nightly_price": nightly,
            "berth_fee": fee,
            "payment_method": method,
            "charges": [],
            "balance_due": 0.0,
            "booked_on": BUSINESS_DATE.isoformat(),
        }
        self.db["stays"][sid] = stay
        return copy.deepcopy(stay)

    def op_change_stay_dates(self, args):
        _need(args, "stay_id", "arrive", "depart")
        s = self._stay(args["stay_id"])
        if s["status"] != "booked":
            raise Refusal("only booked stays can be changed; stay %s is %s" % (s["stay_id"], s["status"]))
        arrive, depart, nights = self._check_dates(args["arrive"], args["depart"])
        if arrive.isoformat() == s["arrive"] and depart.isoformat() == s["depart"]:
            raise Refusal("the new dates are the same as the current dates")
        v = self._vessel(s["vessel_id"])
        owner = self._owner(s["owner_id"])
        b = self._berth(s["berth_id"])
        if self._insured_until(v) < depart:
            raise Refusal("vessel insurance expires %s, before the departure date" % v["insurance"]["valid_until"])
        if self._berth_free(b["berth_id"], arrive, depart, exclude=s["stay_id"]):
            raise Refusal("berth %s is not available for those dates" % b["berth_id"])
        busy = self._vessel_busy(v["vessel_id"], arrive, depart, exclude=s["stay_id"])
        if busy:
            raise Refusal("vessel already has stay %s overlapping those dates" % busy)
        nightly = self._nightly_price(v, b, owner)
        new_fee = _money(nightly * nights)
        old_arrive = datetime.date.fromisoformat(s["arrive"])
        change_fee = CHANGE_FEE if (old_arrive - BUSINESS_DATE).days < CHANGE_FEE_WINDOW_DAYS else 0.0
        net = _money(new_fee - s["berth_fee"] + change_fee)
        method = s["payment_method"]
        charged = refunded = 0.0
        if net > 0:
            self._take_payment(owner, method, net, s["stay_id"], "date change")
            charged = net
        elif net < 0:
            self._give_refund(owner, method, -net, s["stay_id"], "date change")
            refunded = -net
        previous = s["berth_fee"]
        s.update(
            {
                "arrive": arrive.isoformat(),
                "depart": depart.isoformat(),
                "nights": nights,
                "nightly_price": nightly,
                "berth_fee": new_fee,
            }
        )
        out = copy.deepcopy(s)
        out.update(
            {
                "previous_berth_fee": previous,
                "change_fee": change_fee,
                "amount_charged": charged,
                "amount_refunded": refunded,
            }
        )
        return out

    def op_cancel_stay(self, args):
        _need(args, "stay_id")
        s = self._stay(args["stay_id"])
        if s["status"] == "checked_in":
            raise Refusal("stay %s is checked in; use check-out instead" % s["stay_id"])
        if s["status"] != "booked":
            raise Refusal("stay %s is %s and cannot be cancelled" % (s["stay_id"], s["status"]))
        owner = self._owner(s["owner_id"])
        days = (datetime.date.fromisoformat(s["arrive"]) - BUSINESS_DATE).days
        share = 1.0 if days >= 7 else (0.5 if days >= 2 else 0.0)
        refund = _money(s["berth_fee"] * share)
        if refund > 0:
            self._give_refund(owner, s["payment_method"], refund, s["stay_id"], "cancellation")
        s["status"] = "cancelled"
        s["cancelled_on"] = BUSINESS_DATE.isoformat()
        s["refund"] = refund
        if args.get("reason"):
            s["cancel_reason"] = str(args["reason"])
        out = copy.deepcopy(s)
        out["refund_method"] = s["payment_method"] if refund > 0 else None
        return out

    def op_check_in_stay(self, args):
        _need(args, "stay_id")
        s = self._stay(args["stay_id"])
        if s["status"] != "booked":
            raise Refusal("stay %s is %s, not booked" % (s["stay_id"], s["status"]))
        arrive = datetime.date.fromisoformat(s["arrive"])
        depart = datetime.date.fromisoformat(s["depart"])
        if BUSINESS_DATE < arrive:
            raise Refusal("check-in opens on the arrival date %s" % s["arrive"])
        if BUSINESS_DATE >= depart:
            raise Refusal("the stay ended on %s" % s["depart"])
        owner = self._owner(s["owner_id"])
        if owner["status"] != "active":
            raise Refusal("owner account %s is %s" % (owner["owner_id"], owner["status"]))
        v = self._vessel(s["vessel_id"])
        if self._insured_until(v) < BUSINESS_DATE:
            raise Refusal("vessel insurance expired on %s" % v["insurance"]["valid_until"])
        for other in self.db["stays"].values():
            if other["berth_id"] == s["berth_id"] and other["status"] == "checked_in":
                raise Refusal("berth %s is still occupied by stay %s" % (s["berth_id"], other["stay_id"]))
        s["status"] = "checked_in"
        s["checked_in_on"] = BUSINESS_DATE.isoformat()
        return copy.deepcopy(s)

    def op_add_stay_charge(self, args):
        _need(args, "stay_id", "item", "quantity")
        s = self._stay(args["stay_id"])
        item = args["item"]
        if item not in ITEMS:
            raise Refusal("unknown item %s" % item)
        qty = _number(args["quantity"], "quantity")
        if qty <= 0:
            raise Refusal("quantity must be positive")
        if s["status"] != "checked_in":
            raise Refusal("charges can only be added to a checked-in stay; stay %s is %s" % (s["stay_id"], s["status"]))
        if item in COUNTED_ITEMS and qty != int(qty):
            raise Refusal("%s is charged in whole units" % item)
        if item in FUEL_ITEMS and qty > FUEL_MAX_LITRES:
            raise Refusal("a single fuel charge is limited to %d litres" % FUEL_MAX_LITRES)
        if item == "shore_power" and not self._berth(s["berth_id"])["shore_power"]:
            raise Refusal("berth %s has no shore power" % s["berth_id"])
        unit, price = ITEMS[item]
        if qty == int(qty):
            qty = int(qty)
        amount = _money(qty * price)
        charge = {
            "charge_id": "%s-C%d" % (s["stay_id"], len(s["charges"]) + 1),
            "item": item,
            "quantity": qty,
            "unit": unit,
            "unit_price": price,
            "amount": amount,
            "date": BUSINESS_DATE.isoformat(),
        }
        s["charges"].append(charge)
        s["balance_due"] = _money(s["balance_due"] + amount)
        return {"stay_id": s["stay_id"], "charge": copy.deepcopy(charge), "balance_due": s["balance_due"]}

    def op_check_out_stay(self, args):
        _need(args, "stay_id")
        s = self._stay(args["stay_id"])
        if s["status"] != "checked_in":
            raise Refusal("stay %s is %s, not checked in" % (s["stay_id"], s["status"]))
        owner = self._owner(s["owner_id"])
        depart = datetime.date.fromisoformat(s["depart"])
        overstay = max(0, (BUSINESS_DATE - depart).days)
        if overstay:
            amount = _money(overstay * s["nightly_price"])
            s["charges"].append(
                {
                    "charge_id": "%s-C%d" % (s["stay_id"], len(s["charges"]) + 1),
                    "item": "overstay",
                    "quantity": overstay,
                    "unit": "night",
                    "unit_price": s["nightly_price"],
                    "amount": amount,
                    "date": BUSINESS_DATE.isoformat(),
                }
            )
            s["balance_due"] = _money(s["balance_due"] + amount)
        settled = s["balance_due"]
        method = None
        if settled > 0:
            if not args.get("payment_method"):
                raise Refusal("a balance of %.2f is due; payment_method is required" % settled)
            method = self._method(args)
            self._take_payment(owner, method, settled, s["stay_id"], "stay charges")
        s["balance_due"] = 0.0
        s["status"] = "completed"
        s["checked_out_on"] = BUSINESS_DATE.isoformat()
        return {
            "stay_id": s["stay_id"],
            "status": "completed",
            "berth_fee_prepaid": s["berth_fee"],
            "overstay_nights": overstay,
            "charges": copy.deepcopy(s["charges"]),
            "amount_settled": settled,
            "payment_method": method,
            "checked_out_on": s["checked_out_on"],
        }

    def op_book_yard_service(self, args):
        _need(args, "vessel_id", "service", "date", "payment_method")
        service = args["service"]
        if service not in YARD_SERVICES:
            raise Refusal("unknown service %s" % service)
        method = self._method(args)
        v = self._vessel(args["vessel_id"])
        owner = self._owner(v["owner_id"])
        if owner["status"] != "active":
            raise Refusal("owner account %s is %s" % (owner["owner_id"], owner["status"]))
        day = _date(args["date"], "date")
        if day <= BUSINESS_DATE:
            raise Refusal("yard services must be booked at least one day ahead")
        if (day - BUSINESS_DATE).days > YARD_HORIZON_DAYS:
            raise Refusal("yard services can be booked at most %d days ahead" % YARD_HORIZON_DAYS)
        if day.weekday() == 6:
            raise Refusal("the yard is closed on Sundays")
        if service == "haul_out" and (v["loa_m"] > LIFT_MAX_LOA_M or v["beam_m"] > LIFT_MAX_BEAM_M):
            raise Refusal(
                "vessel exceeds the travel lift limits (%.1f m length, %.1f m beam)" % (LIFT_MAX_LOA_M, LIFT_MAX_BEAM_M)
            )
        if service == "mast_crane" and v["rig"] == "none":
            raise Refusal("vessel %s has no mast" % v["vessel_id"])
        same_day = [
            y for y in self.db["yard_bookings"].values() if y["date"] == day.isoformat() and y["status"] == "scheduled"
        ]
        if service == "pressure_wash" and not any(
            y["vessel_id"] == v["vessel_id"] and y["service"] == "haul_out" for y in same_day
        ):
            raise Refusal("a pressure wash needs a haul-out of the same vessel on the same day")
        if self._insured_until(v) < day:
            raise Refusal("vessel insurance expires %s, before the service date" % v["insurance"]["valid_until"])
        if any(y["vessel_id"] == v["vessel_id"] and y["service"] == service for y in same_day):
            raise Refusal("vessel already has a %s booked on %s" % (service, day.isoformat()))
        if YARD_SERVICES[service]["lift"]:
            used = sum(1 for y in same_day if YARD_SERVICES[y["service"]]["lift"])
            if used >= LIFT_CAPACITY_PER_DAY:
                raise Refusal("no lift slots left on %s" % day.isoformat())
        spec = YARD_SERVICES[service]
        if spec["flat"] is not None:
            fee = spec["flat"]
        else:
            fee = max(spec["minimum"], math.ceil(v["loa_m"] - 1e-9) * spec["per_metre"])
        fee = _money(fee)
        bid = _next_id(self.db["yard_bookings"], "YRD-")
        self._take_payment(owner, method, fee, bid, service.replace("_", " "))
        rec = {
            "booking_id": bid,
            "vessel_id": v["vessel_id"],
            "owner_id": owner["owner_id"],
            "service": service,
            "date": day.isoformat(),
            "status": "scheduled",
            "fee": fee,
            "payment_method": method,
            "booked_on": BUSINESS_DATE.isoformat(),
        }
        self.db["yard_bookings"][bid] = rec
        return copy.deepcopy(rec)

    def op_add_account_credit(self, args):
        _need(args, "owner_id", "amount")
        owner = self._owner(args["owner_id"])
        amount = _number(args["amount"], "amount")
        if amount < TOPUP_MIN or amount > TOPUP_MAX:
            raise Refusal("a top-up must be between %.2f and %.2f" % (TOPUP_MIN, TOPUP_MAX))
        if owner["account_credit"] + amount > CREDIT_CAP + 1e-9:
            raise Refusal("account credit cannot exceed %.2f" % CREDIT_CAP)
        owner["account_credit"] = _money(owner["account_credit"] + amount)
        tid = self._txn(owner["owner_id"], "top_up", "card", amount, owner["owner_id"], "account top-up")
        return {
            "owner_id": owner["owner_id"],
            "amount": _money(amount),
            "txn_id": tid,
            "account_credit": owner["account_credit"],
        }


def make():
    return Harbour()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as fh:
        data = json.load(fh)
    calls = refused = sessions = 0
    with open(os.path.join(here, "trajectories.jsonl")) as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            sessions += 1
            env = make()
            env.reset(traj.get("initial_state", data))
            for c in traj["calls"]:
                r = env.call(c["name"], c["arguments"])
                calls += 1
                if not r["ok"]:
                    refused += 1
    print("trajectories: %d  calls: %d  refused: %d" % (sessions, calls, refused))
    return 0


if __name__ == "__main__":
    sys.exit(main())
