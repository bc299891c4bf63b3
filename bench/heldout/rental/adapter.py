"""Reference implementation of the AeroDrive rental counter API (written for forgegym, MIT).

`make()` returns an object with reset(state), call(name, arguments) and state().
`python adapter.py` replays every trajectory in trajectories.jsonl from data.json and prints counts.

Standard library only. Deterministic: the business date is fixed at BUSINESS_DATE.
"""

import copy
import datetime as _dt
import json
import os
import re

BUSINESS_DATE = "2025-06-12"
_TODAY = _dt.date(2025, 6, 12)

CLASSES = ["economy", "compact", "midsize", "suv", "van", "premium"]
DAILY_RATE_CENTS = {"economy": 3900, "compact": 4600, "midsize": 5800, "suv": 7900, "van": 9200, "premium": 12400}
DEPOSIT_CENTS = {"economy": 15000, "compact": 15000, "midsize": 20000, "suv": 30000, "van": 30000, "premium": 50000}
LOYALTY_PCT = {"standard": 0, "silver": 5, "gold": 10, "platinum": 15}
WEEKEND_SURCHARGE_PCT = 15
ONE_WAY_FEE_CENTS = 4500
DROPOFF_FEE_CENTS = 6000
LATE_PENALTY_CENTS = 2500
FUEL_PER_EIGHTH_CENTS = 1400
INCLUDED_KM_PER_DAY = 250
EXCESS_KM_CENTS = 30
MAX_DAYS = 30
MAX_OPEN_RENTALS = 2
CANCEL_REASONS = ["customer_request", "no_show", "vehicle_unavailable", "duplicate"]
VEHICLE_STATUSES = ["available", "reserved", "rented", "maintenance"]
RENTAL_STATUSES = ["reserved", "active", "returned", "cancelled"]

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class ApiError(Exception):
    pass


def _money(cents):
    return round(cents / 100.0, 2)


def _cents(value):
    return int(round(float(value) * 100))


def _pct_of(cents, pct):
    """pct percent of cents, rounded half up to the cent."""
    return (cents * pct + 50) // 100


def _parse_date(value, field):
    if not isinstance(value, str) or not _DATE_RE.match(value):
        raise ApiError(f"{field} must be a date in YYYY-MM-DD format")
    try:
        return _dt.date.fromisoformat(value)
    except ValueError:
        raise ApiError(f"{field} is not a valid calendar date: {value}")


def _count_weekend_days(start, days):
    return sum(1 for i in range(days) if (start + _dt.timedelta(days=i)).weekday() >= 5)


def compute_estimate(vehicle_class, start, end, tier, addon_lines, catalogue, one_way, daily_rate_cents=None):
    """Price a rental. addon_lines: [{addon_id, daily_price, quantity, name}]. Returns a breakdown in cents."""
    days = (end - start).days
    rate = DAILY_RATE_CENTS[vehicle_class] if daily_rate_cents is None else daily_rate_cents
    weekend_days = _count_weekend_days(start, days)
    base = rate * days
    surcharge = _pct_of(rate, WEEKEND_SURCHARGE_PCT) * weekend_days
    discount = _pct_of(base + surcharge, LOYALTY_PCT.get(tier, 0))
    lines = []
    addons_total = 0
    for line in addon_lines:
        price = _cents(line["daily_price"])
        cap = catalogue.get(line["addon_id"], {}).get("max_charge_per_unit")
        per_unit = price * days
        if cap is not None:
            per_unit = min(per_unit, _cents(cap))
        charge = per_unit * line["quantity"]
        addons_total += charge
        lines.append(
            {
                "addon_id": line["addon_id"],
                "name": line["name"],
                "daily_price": _money(price),
                "quantity": line["quantity"],
                "charge": _money(charge),
            }
        )
    one_way_fee = ONE_WAY_FEE_CENTS if one_way else 0
    total = base + surcharge - discount + addons_total + one_way_fee
    return {
        "days": days,
        "weekend_days": weekend_days,
        "daily_rate": rate,
        "base": base,
        "surcharge": surcharge,
        "discount": discount,
        "lines": lines,
        "addons_total": addons_total,
        "one_way_fee": one_way_fee,
        "total": total,
    }


# tool name -> {param: (type, required)}
_SPEC = {
    "get_customer": {"customer_id": (str, False), "email": (str, False)},
    "get_vehicle": {"vehicle_id": (str, True)},
    "search_vehicles": {
        "branch_id": (str, False),
        "vehicle_class": (str, False),
        "status": (str, False),
        "min_fuel_eighths": (int, False),
        "max_mileage_km": (int, False),
    },
    "get_rental": {"rental_id": (str, True)},
    "list_rentals": {
        "customer_id": (str, False),
        "vehicle_id": (str, False),
        "status": (str, False),
        "pickup_branch_id": (str, False),
        "start_from": (str, False),
        "start_to": (str, False),
    },
    "quote_rental": {
        "vehicle_class": (str, True),
        "start_date": (str, True),
        "end_date": (str, True),
        "customer_id": (str, False),
        "pickup_branch_id": (str, False),
        "return_branch_id": (str, False),
        "addons": (list, False),
    },
    "create_rental": {
        "customer_id": (str, True),
        "vehicle_id": (str, True),
        "start_date": (str, True),
        "end_date": (str, True),
        "return_branch_id": (str, False),
        "addons": (list, False),
    },
    "add_rental_addon": {"rental_id": (str, True), "addon_id": (str, True), "quantity": (int, False)},
    "remove_rental_addon": {"rental_id": (str, True), "addon_id": (str, True), "quantity": (int, False)},
    "pick_up_vehicle": {"rental_id": (str, True), "licence_number": (str, True)},
    "return_vehicle": {
        "rental_id": (str, True),
        "mileage_km": (int, True),
        "fuel_eighths": (int, True),
        "return_branch_id": (str, False),
    },
    "cancel_rental": {"rental_id": (str, True), "reason": (str, True)},
}


class RentalDesk:
    def __init__(self):
        self._s = {"customers": {}, "branches": {}, "vehicles": {}, "addons": {}, "rentals": {}}

    # ------------------------------------------------------------------ protocol
    def reset(self, state):
        self._s = copy.deepcopy(state)
        for key in ("customers", "branches", "vehicles", "addons", "rentals"):
            self._s.setdefault(key, {})

    def state(self):
        return copy.deepcopy(self._s)

    def call(self, name, arguments):
        if name not in _SPEC:
            return {"ok": False, "output": f"Error: unknown tool '{name}'"}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        snapshot = copy.deepcopy(self._s)
        try:
            self._check_args(name, arguments)
            out = getattr(self, "_" + name)(dict(arguments))
            return {"ok": True, "output": out}
        except ApiError as exc:
            self._s = snapshot
            return {"ok": False, "output": f"Error: {exc}"}

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _check_args(name, args):
        spec = _SPEC[name]
        for key in args:
            if key not in spec:
                raise ApiError(f"unexpected parameter '{key}'")
        for key, (typ, required) in spec.items():
            if key not in args or args[key] is None:
                if required:
                    raise ApiError(f"missing required parameter '{key}'")
                continue
            val = args[key]
            if typ is int:
                if isinstance(val, bool) or not isinstance(val, int):
                    raise ApiError(f"'{key}' must be an integer")
            elif not isinstance(val, typ):
                raise ApiError(f"'{key}' must be of type {'string' if typ is str else 'array'}")

    def _customer(self, cid):
        c = self._s["customers"].get(cid)
        if c is None:
            raise ApiError(f"customer {cid} not found")
        return c

    def _vehicle(self, vid):
        v = self._s["vehicles"].get(vid)
        if v is None:
            raise ApiError(f"vehicle {vid} not found")
        return v

    def _rental(self, rid):
        r = self._s["rentals"].get(rid)
        if r is None:
            raise ApiError(f"rental {rid} not found")
        return r

    def _branch(self, bid):
        b = self._s["branches"].get(bid)
        if b is None:
            raise ApiError(f"branch {bid} not found")
        return b

    def _period(self, start_s, end_s, must_be_future=True):
        start = _parse_date(start_s, "start_date")
        end = _parse_date(end_s, "end_date")
        if must_be_future and start < _TODAY:
            raise ApiError(f"start_date {start_s} is in the past (business date is {BUSINESS_DATE})")
        if end <= start:
            raise ApiError("end_date must be after start_date")
        if (end - start).days > MAX_DAYS:
            raise ApiError(f"rentals are limited to {MAX_DAYS} days; request is {(end - start).days} days")
        return start, end

    def _resolve_addons(self, items, vehicle_class):
        """Validate a requested add-on list; returns agreement lines merged by addon_id."""
        if items is None:
            return []
        lines = []
        by_id = {}
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("addon_id"), str):
                raise ApiError("each add-on must be an object with an 'addon_id' string")
            extra = set(item) - {"addon_id", "quantity"}
            if extra:
                raise ApiError(f"unexpected add-on field '{sorted(extra)[0]}'")
            qty = item.get("quantity", 1)
            if isinstance(qty, bool) or not isinstance(qty, int):
                raise ApiError("add-on quantity must be an integer")
            if qty < 1:
                raise ApiError("add-on quantity must be at least 1")
            aid = item["addon_id"]
            entry = self._s["addons"].get(aid)
            if entry is None:
                raise ApiError(f"add-on {aid} not found")
            if entry.get("allowed_classes") and vehicle_class not in entry["allowed_classes"]:
                raise ApiError(f"add-on {aid} ({entry['name']}) is not available for {vehicle_class} vehicles")
            if aid in by_id:
                by_id[aid]["quantity"] += qty
            else:
                line = {"addon_id": aid, "name": entry["name"], "daily_price": entry["daily_price"], "quantity": qty}
                by_id[aid] = line
                lines.append(line)
        for line in lines:
            mx = self._s["addons"][line["addon_id"]]["max_per_rental"]
            if line["quantity"] > mx:
                raise ApiError(f"at most {mx} x {line['name']} per rental; requested {line['quantity']}")
        return lines

    def _reestimate(self, rental):
        est = compute_estimate(
            rental["vehicle_class"],
            _dt.date.fromisoformat(rental["start_date"]),
            _dt.date.fromisoformat(rental["end_date"]),
            rental["loyalty_tier"],
            rental["addons"],
            self._s["addons"],
            rental["pickup_branch_id"] != rental["return_branch_id"],
            daily_rate_cents=_cents(rental["daily_rate"]),
        )
        rental["estimated_total"] = _money(est["total"])

    @staticmethod
    def _log(rental, event, detail):
        rental["history"].append({"date": BUSINESS_DATE, "event": event, "detail": detail})

    def _next_rental_id(self):
        nums = [int(k.split("-")[1]) for k in self._s["rentals"] if re.match(r"^R-\d+$", k)]
        return f"R-{(max(nums) + 1) if nums else 50001}"

    # ------------------------------------------------------------------ reads
    def _get_customer(self, a):
        cid, email = a.get("customer_id"), a.get("email")
        if (cid is None) == (email is None):
            raise ApiError("provide exactly one of customer_id or email")
        if cid is not None:
            return copy.deepcopy(self._customer(cid))
        for c in self._s["customers"].values():
            if c["email"].lower() == email.strip().lower():
                return copy.deepcopy(c)
        raise ApiError(f"no customer with email {email}")

    def _get_vehicle(self, a):
        return copy.deepcopy(self._vehicle(a["vehicle_id"]))

    def _search_vehicles(self, a):
        status = a.get("status", "available")
        if status != "any" and status not in VEHICLE_STATUSES:
            raise ApiError(f"invalid status '{status}'")
        cls = a.get("vehicle_class")
        if cls is not None and cls not in CLASSES:
            raise ApiError(f"invalid vehicle_class '{cls}'")
        if a.get("branch_id") is not None:
            self._branch(a["branch_id"])
        out = []
        for vid in sorted(self._s["vehicles"]):
            v = self._s["vehicles"][vid]
            if status != "any" and v["status"] != status:
                continue
            if cls is not None and v["vehicle_class"] != cls:
                continue
            if a.get("branch_id") is not None and v["branch_id"] != a["branch_id"]:
                continue
            if a.get("min_fuel_eighths") is not None and v["fuel_eighths"] < a["min_fuel_eighths"]:
                continue
            if a.get("max_mileage_km") is not None and v["mileage_km"] > a["max_mileage_km"]:
                continue
            out.append(copy.deepcopy(v))
        return out

    def _get_rental(self, a):
        return copy.deepcopy(self._rental(a["rental_id"]))

    def _list_rentals(self, a):
        if not any(a.get(k) is not None for k in _SPEC["list_rentals"]):
            raise ApiError("at least one filter is required")
        status = a.get("status")
        if status is not None and status not in RENTAL_STATUSES:
            raise ApiError(f"invalid status '{status}'")
        lo = _parse_date(a["start_from"], "start_from") if a.get("start_from") else None
        hi = _parse_date(a["start_to"], "start_to") if a.get("start_to") else None
        out = []
        for rid in sorted(self._s["rentals"]):
            r = self._s["rentals"][rid]
            if a.get("customer_id") is not None and r["customer_id"] != a["customer_id"]:
                continue
            if a.get("vehicle_id") is not None and r["vehicle_id"] != a["vehicle_id"]:
                continue
            if status is not None and r["status"] != status:
                continue
            if a.get("pickup_branch_id") is not None and r["pickup_branch_id"] != a["pickup_branch_id"]:
                continue
            start = _dt.date.fromisoformat(r["start_date"])
            if lo is not None and start < lo:
                continue
            if hi is not None and start > hi:
                continue
            out.append(
                {
                    k: r[k]
                    for k in (
                        "rental_id",
                        "customer_id",
                        "vehicle_id",
                        "vehicle_class",
                        "status",
                        "start_date",
                        "end_date",
                        "pickup_branch_id",
                        "return_branch_id",
                        "estimated_total",
                    )
                }
            )
        return out

    # ------------------------------------------------------------------ pricing
    def _quote_rental(self, a):
        cls = a["vehicle_class"]
        if cls not in CLASSES:
            raise ApiError(f"invalid vehicle_class '{cls}'")
        start, end = self._period(a["start_date"], a["end_date"])
        tier = "standard"
        if a.get("customer_id") is not None:
            tier = self._customer(a["customer_id"])["loyalty_tier"]
        pickup = a.get("pickup_branch_id")
        ret = a.get("return_branch_id")
        if pickup is not None:
            self._branch(pickup)
        if ret is not None:
            self._branch(ret)
        one_way = pickup is not None and ret is not None and pickup != ret
        lines = self._resolve_addons(a.get("addons"), cls)
        est = compute_estimate(cls, start, end, tier, lines, self._s["addons"], one_way)
        deposit = 0 if tier == "platinum" else DEPOSIT_CENTS[cls]
        return {
            "vehicle_class": cls,
            "start_date": a["start_date"],
            "end_date": a["end_date"],
            "days": est["days"],
            "weekend_days": est["weekend_days"],
            "daily_rate": _money(est["daily_rate"]),
            "base_charge": _money(est["base"]),
            "weekend_surcharge": _money(est["surcharge"]),
            "loyalty_tier": tier,
            "loyalty_discount": _money(est["discount"]),
            "addons": est["lines"],
            "addons_total": _money(est["addons_total"]),
            "one_way_fee": _money(est["one_way_fee"]),
            "total": _money(est["total"]),
            "deposit_required": _money(deposit),
            "currency": "USD",
        }

    # ------------------------------------------------------------------ writes
    def _create_rental(self, a):
        cust = self._customer(a["customer_id"])
        if cust["status"] != "active":
            raise ApiError(f"customer {cust['customer_id']} is {cust['status']} and cannot open a rental")
        veh = self._vehicle(a["vehicle_id"])
        if veh["status"] != "available":
            raise ApiError(f"vehicle {veh['vehicle_id']} is not available (status: {veh['status']})")
        start, end = self._period(a["start_date"], a["end_date"])
        if cust["licence_expiry"] < a["end_date"]:
            raise ApiError(
                f"driver licence of {cust['customer_id']} expires on {cust['licence_expiry']}, "
                f"before the end of the rental"
            )
        open_count = sum(
            1
            for r in self._s["rentals"].values()
            if r["customer_id"] == cust["customer_id"] and r["status"] in ("reserved", "active")
        )
        if open_count >= MAX_OPEN_RENTALS:
            raise ApiError(
                f"customer {cust['customer_id']} already has {open_count} open rentals (limit {MAX_OPEN_RENTALS})"
            )
        pickup = veh["branch_id"]
        ret = a.get("return_branch_id") or pickup
        self._branch(ret)
        lines = self._resolve_addons(a.get("addons"), veh["vehicle_class"])
        tier = cust["loyalty_tier"]
        deposit = 0 if tier == "platinum" else DEPOSIT_CENTS[veh["vehicle_class"]]
        balance = _cents(cust["deposit_balance"])
        if balance < deposit:
            raise ApiError(
                f"deposit balance {_money(balance):.2f} is below the {_money(deposit):.2f} deposit "
                f"required for a {veh['vehicle_class']} vehicle"
            )
        est = compute_estimate(veh["vehicle_class"], start, end, tier, lines, self._s["addons"], pickup != ret)
        rid = self._next_rental_id()
        rental = {
            "rental_id": rid,
            "customer_id": cust["customer_id"],
            "vehicle_id": veh["vehicle_id"],
            "vehicle_class": veh["vehicle_class"],
            "pickup_branch_id": pickup,
            "return_branch_id": ret,
            "start_date": a["start_date"],
            "end_date": a["end_date"],
            "status": "reserved",
            "loyalty_tier": tier,
            "daily_rate": _money(est["daily_rate"]),
            "addons": lines,
            "estimated_total": _money(est["total"]),
            "deposit_held": _money(deposit),
            "mileage_out": None,
            "fuel_out": None,
            "mileage_in": None,
            "fuel_in": None,
            "returned_to_branch_id": None,
            "charges": None,
            "final_total": None,
            "cancellation": None,
            "history": [
                {
                    "date": BUSINESS_DATE,
                    "event": "reserved",
                    "detail": f"{veh['vehicle_id']} {a['start_date']} to {a['end_date']}",
                }
            ],
        }
        self._s["rentals"][rid] = rental
        veh["status"] = "reserved"
        cust["deposit_balance"] = _money(balance - deposit)
        return copy.deepcopy(rental)

    def _add_rental_addon(self, a):
        rental = self._rental(a["rental_id"])
        if rental["status"] not in ("reserved", "active"):
            raise ApiError(f"add-ons cannot be changed on a {rental['status']} rental")
        qty = a.get("quantity", 1)
        if qty < 1:
            raise ApiError("quantity must be at least 1")
        aid = a["addon_id"]
        entry = self._s["addons"].get(aid)
        if entry is None:
            raise ApiError(f"add-on {aid} not found")
        if entry.get("allowed_classes") and rental["vehicle_class"] not in entry["allowed_classes"]:
            raise ApiError(f"add-on {aid} ({entry['name']}) is not available for {rental['vehicle_class']} vehicles")
        existing = next((ln for ln in rental["addons"] if ln["addon_id"] == aid), None)
        have = existing["quantity"] if existing else 0
        if have + qty > entry["max_per_rental"]:
            raise ApiError(
                f"at most {entry['max_per_rental']} x {entry['name']} per rental; "
                f"the agreement has {have} and {qty} more were requested"
            )
        if existing:
            existing["quantity"] = have + qty
        else:
            rental["addons"].append(
                {"addon_id": aid, "name": entry["name"], "daily_price": entry["daily_price"], "quantity": qty}
            )
        self._reestimate(rental)
        self._log(rental, "addon_added", f"{aid} x{qty}")
        return copy.deepcopy(rental)

    def _remove_rental_addon(self, a):
        rental = self._rental(a["rental_id"])
        if rental["status"] != "reserved":
            raise ApiError(f"add-ons can only be removed before pick-up (rental is {rental['status']})")
        aid = a["addon_id"]
        existing = next((ln for ln in rental["addons"] if ln["addon_id"] == aid), None)
        if existing is None:
            raise ApiError(f"add-on {aid} is not on rental {rental['rental_id']}")
        qty = a.get("quantity")
        if qty is None:
            qty = existing["quantity"]
        if qty < 1:
            raise ApiError("quantity must be at least 1")
        if qty > existing["quantity"]:
            raise ApiError(f"rental has only {existing['quantity']} x {existing['name']}")
        if qty == existing["quantity"]:
            rental["addons"].remove(existing)
        else:
            existing["quantity"] -= qty
        self._reestimate(rental)
        self._log(rental, "addon_removed", f"{aid} x{qty}")
        return copy.deepcopy(rental)

    def _pick_up_vehicle(self, a):
        rental = self._rental(a["rental_id"])
        if rental["status"] != "reserved":
            raise ApiError(f"only reserved rentals can be picked up (rental is {rental['status']})")
        if rental["start_date"] > BUSINESS_DATE:
            raise ApiError(f"pick-up opens on {rental['start_date']}; business date is {BUSINESS_DATE}")
        if rental["end_date"] <= BUSINESS_DATE:
            raise ApiError(f"rental period ended on {rental['end_date']}; the reservation has lapsed")
        cust = self._customer(rental["customer_id"])
        if cust["status"] != "active":
            raise ApiError(f"customer {cust['customer_id']} is {cust['status']}")
        if a["licence_number"].strip().upper() != cust["licence_number"].upper():
            raise ApiError("licence number does not match the licence on file")
        if cust["licence_expiry"] < BUSINESS_DATE:
            raise ApiError(f"driver licence expired on {cust['licence_expiry']}")
        veh = self._vehicle(rental["vehicle_id"])
        if veh["status"] != "reserved":
            raise ApiError(f"vehicle {veh['vehicle_id']} cannot be released (status: {veh['status']})")
        rental["status"] = "active"
        rental["mileage_out"] = veh["mileage_km"]
        rental["fuel_out"] = veh["fuel_eighths"]
        veh["status"] = "rented"
        self._log(rental, "picked_up", f"odometer {veh['mileage_km']} km, fuel {veh['fuel_eighths']}/8")
        return copy.deepcopy(rental)

    def _return_vehicle(self, a):
        rental = self._rental(a["rental_id"])
        if rental["status"] != "active":
            raise ApiError(f"only active rentals can be returned (rental is {rental['status']})")
        km, fuel = a["mileage_km"], a["fuel_eighths"]
        if fuel < 0 or fuel > 8:
            raise ApiError("fuel_eighths must be between 0 and 8")
        if km < rental["mileage_out"]:
            raise ApiError(f"mileage_km {km} is below the pick-up odometer reading {rental['mileage_out']}")
        ret = a.get("return_branch_id") or rental["return_branch_id"]
        self._branch(ret)
        start = _dt.date.fromisoformat(rental["start_date"])
        end = _dt.date.fromisoformat(rental["end_date"])
        rate = _cents(rental["daily_rate"])
        late_days = max(0, (_TODAY - end).days)
        late_fee = late_days * (rate + LATE_PENALTY_CENTS)
        fuel_short = max(0, rental["fuel_out"] - fuel)
        fuel_charge = fuel_short * FUEL_PER_EIGHTH_CENTS
        driven = km - rental["mileage_out"]
        allowance = INCLUDED_KM_PER_DAY * (end - start).days
        excess = max(0, driven - allowance)
        mileage_charge = excess * EXCESS_KM_CENTS
        dropoff = DROPOFF_FEE_CENTS if ret != rental["return_branch_id"] else 0
        final = _cents(rental["estimated_total"]) + late_fee + fuel_charge + mileage_charge + dropoff
        rental["status"] = "returned"
        rental["mileage_in"] = km
        rental["fuel_in"] = fuel
        rental["returned_to_branch_id"] = ret
        rental["charges"] = {
            "late_days": late_days,
            "late_fee": _money(late_fee),
            "fuel_charge": _money(fuel_charge),
            "km_driven": driven,
            "excess_km": excess,
            "mileage_charge": _money(mileage_charge),
            "dropoff_fee": _money(dropoff),
        }
        rental["final_total"] = _money(final)
        cust = self._customer(rental["customer_id"])
        cust["deposit_balance"] = _money(_cents(cust["deposit_balance"]) + _cents(rental["deposit_held"]))
        cust["completed_rentals"] += 1
        rental["deposit_held"] = 0.0
        veh = self._vehicle(rental["vehicle_id"])
        veh["status"] = "available"
        veh["mileage_km"] = km
        veh["fuel_eighths"] = fuel
        veh["branch_id"] = ret
        self._log(rental, "returned", f"at {ret}, odometer {km} km, fuel {fuel}/8, total {final / 100:.2f}")
        return copy.deepcopy(rental)

    def _cancel_rental(self, a):
        rental = self._rental(a["rental_id"])
        reason = a["reason"]
        if reason not in CANCEL_REASONS:
            raise ApiError(f"invalid reason '{reason}'")
        if rental["status"] != "reserved":
            raise ApiError(f"only reserved rentals can be cancelled (rental is {rental['status']})")
        start = _dt.date.fromisoformat(rental["start_date"])
        if reason == "no_show" and start >= _TODAY:
            raise ApiError(f"no_show can only be recorded after the pick-up date ({rental['start_date']})")
        cust = self._customer(rental["customer_id"])
        fee = 0
        if (
            reason in ("customer_request", "no_show")
            and (start - _TODAY).days < 2
            and cust["loyalty_tier"] != "platinum"
        ):
            fee = _cents(rental["daily_rate"])
        held = _cents(rental["deposit_held"])
        from_deposit = min(fee, held)
        refund = held - from_deposit
        cust["deposit_balance"] = _money(_cents(cust["deposit_balance"]) + refund)
        rental["deposit_held"] = 0.0
        rental["status"] = "cancelled"
        rental["cancellation"] = {"reason": reason, "fee": _money(fee), "deposit_refunded": _money(refund)}
        veh = self._s["vehicles"].get(rental["vehicle_id"])
        if veh is not None and veh["status"] == "reserved":
            veh["status"] = "available"
        self._log(rental, "cancelled", f"{reason}, fee {fee / 100:.2f}")
        return copy.deepcopy(rental)


def make():
    return RentalDesk()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = errors = sessions = 0
    desk = make()
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            traj = json.loads(line)
            sessions += 1
            desk.reset(data)
            for c in traj["calls"]:
                res = desk.call(c["name"], c["arguments"])
                calls += 1
                if not res["ok"]:
                    errors += 1
    print(f"sessions={sessions} calls={calls} errors={errors}")


if __name__ == "__main__":
    _main()
