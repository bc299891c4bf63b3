"""Pinecrest Lake campground reservation office: the real system behind tools.json.

Written for forgegym. MIT License. Standard library only; deterministic (the office's
business date is fixed below, nothing reads the clock).

    make() -> Office with reset(state), call(name, arguments), state()

`python adapter.py` replays every trajectory in trajectories.jsonl from data.json and prints
the number of calls and refused calls.
"""

import copy
import datetime as _dt
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = _dt.date(2025, 6, 12)
MAX_NIGHTS = 14
BOOKING_WINDOW_DAYS = 180
CANCEL_FEE = Decimal("10.00")
SENIOR_RATE = Decimal("0.50")
RES_STATUSES = ("confirmed", "checked_in", "checked_out", "cancelled")
SITE_STATUSES = ("open", "occupied", "closed")
SITE_TYPES = ("tent", "rv", "cabin")
ACTIVE = ("confirmed", "checked_in")


class ToolError(Exception):
    pass


def _money(x):
    return float(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _d(x):
    return Decimal(str(x))


def peak_rate(day):
    if day.month in (6, 7, 8):
        return Decimal("0.20")
    if day.month in (5, 9):
        return Decimal("0.10")
    return Decimal("0")


# ---------------------------------------------------------------- argument checks


def _req_str(args, key):
    if key not in args or args[key] is None:
        raise ToolError("missing required parameter '%s'" % key)
    v = args[key]
    if not isinstance(v, str) or not v.strip():
        raise ToolError("parameter '%s' must be a non-empty string" % key)
    return v.strip()


def _opt_str(args, key):
    v = args.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise ToolError("parameter '%s' must be a non-empty string" % key)
    return v.strip()


def _opt_int(args, key, default=None):
    v = args.get(key)
    if v is None:
        return default
    if isinstance(v, bool) or not isinstance(v, int):
        raise ToolError("parameter '%s' must be an integer" % key)
    return v


def _opt_num(args, key):
    v = args.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ToolError("parameter '%s' must be a number" % key)
    return v


def _opt_bool(args, key, default=None):
    v = args.get(key)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise ToolError("parameter '%s' must be true or false" % key)
    return v


def _enum(value, key, allowed):
    if value is not None and value not in allowed:
        raise ToolError("parameter '%s' must be one of: %s" % (key, ", ".join(allowed)))
    return value


def _date(value, key):
    try:
        if len(value) != 10:
            raise ValueError
        return _dt.date.fromisoformat(value)
    except (ValueError, TypeError):
        raise ToolError("'%s' must be a date in YYYY-MM-DD format" % key)


class Office:
    def __init__(self):
        self.db = {"campers": {}, "campsites": {}, "site_types": {}, "reservations": {}}

    # ------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "t_" + name, None) if isinstance(name, str) else None
        if fn is None:
            return {"ok": False, "output": "Error: unknown tool '%s'" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        snapshot = copy.deepcopy(self.db)
        try:
            out = fn(arguments)
        except ToolError as e:
            self.db = snapshot
            return {"ok": False, "output": "Error: %s" % e}
        return {"ok": True, "output": copy.deepcopy(out)}

    # ------------------------------------------------------------ lookups
    def _camper(self, cid):
        c = self.db["campers"].get(cid)
        if c is None:
            raise ToolError("camper %s not found" % cid)
        return c

    def _site(self, sid):
        s = self.db["campsites"].get(sid)
        if s is None:
            raise ToolError("campsite %s not found" % sid)
        return s

    def _res(self, rid):
        r = self.db["reservations"].get(rid)
        if r is None:
            raise ToolError("reservation %s not found" % rid)
        return r

    def _type(self, site):
        return self.db["site_types"][site["type"]]

    def _conflict(self, site_id, arrival, departure, ignore=None):
        for rid in sorted(self.db["reservations"]):
            r = self.db["reservations"][rid]
            if rid == ignore or r["site_id"] != site_id or r["status"] not in ACTIVE:
                continue
            a = _dt.date.fromisoformat(r["arrival"])
            d = _dt.date.fromisoformat(r["departure"])
            if a < departure and arrival < d:
                return rid
        return None

    def _stay_dates(self, args):
        arrival = _date(_req_str(args, "arrival"), "arrival")
        departure = _date(_req_str(args, "departure"), "departure")
        if departure <= arrival:
            raise ToolError("departure must be after arrival")
        nights = (departure - arrival).days
        if nights > MAX_NIGHTS:
            raise ToolError("stays are limited to %d nights (requested %d)" % (MAX_NIGHTS, nights))
        return arrival, departure, nights

    def _price(self, site, arrival, nights, senior, extra_vehicles):
        fee = _d(site["nightly_fee"])
        base = fee * nights
        surcharge = Decimal("0")
        for i in range(nights):
            surcharge += fee * peak_rate(arrival + _dt.timedelta(days=i))
        discount = Decimal("0")
        if senior and site["type"] != "cabin":
            discount = base * SENIOR_RATE
        vfee = _d(self._type(site)["extra_vehicle_fee"]) * nights * extra_vehicles
        total = base + surcharge - discount + vfee
        return {
            "base": _money(base),
            "peak_surcharge": _money(surcharge),
            "senior_discount": _money(discount),
            "vehicle_fees": _money(vfee),
            "total": _money(total),
        }

    def _history(self, res, event, note):
        res["history"].append({"date": BUSINESS_DATE.isoformat(), "event": event, "note": note})

    def _next_res_id(self):
        nums = [int(k.split("-")[1]) for k in self.db["reservations"]]
        return "RSV-%d" % (max(nums) + 1 if nums else 3001)

    # ------------------------------------------------------------ tools
    def t_get_camper(self, args):
        return self._camper(_req_str(args, "camper_id"))

    def t_get_campsite(self, args):
        site = self._site(_req_str(args, "site_id"))
        out = copy.deepcopy(site)
        t = self._type(site)
        out["extra_vehicle_fee"] = t["extra_vehicle_fee"]
        out["max_extra_vehicles"] = t["max_extra_vehicles"]
        return out

    def t_search_campsites(self, args):
        loop = _opt_str(args, "loop")
        stype = _enum(_opt_str(args, "site_type"), "site_type", SITE_TYPES)
        status = _enum(_opt_str(args, "status"), "status", SITE_STATUSES)
        min_occ = _opt_int(args, "min_occupancy")
        max_fee = _opt_num(args, "max_nightly_fee")
        accessible = _opt_bool(args, "accessible")
        has_a = args.get("arrival") is not None
        has_d = args.get("departure") is not None
        if has_a != has_d:
            raise ToolError("arrival and departure must be given together")
        window = None
        if has_a:
            arrival, departure, _ = self._stay_dates(args)
            window = (arrival, departure)
        out = []
        for sid in sorted(self.db["campsites"]):
            s = self.db["campsites"][sid]
            if loop is not None and s["loop"].lower() != loop.lower():
                continue
            if stype is not None and s["type"] != stype:
                continue
            if status is not None and s["status"] != status:
                continue
            if min_occ is not None and s["max_occupancy"] < min_occ:
                continue
            if max_fee is not None and s["nightly_fee"] > max_fee:
                continue
            if accessible is not None and s["accessible"] != accessible:
                continue
            if window is not None:
                if s["status"] == "closed" or self._conflict(sid, window[0], window[1]):
                    continue
            out.append(copy.deepcopy(s))
        return out

    def t_quote_stay(self, args):
        site = self._site(_req_str(args, "site_id"))
        arrival, departure, nights = self._stay_dates(args)
        extra = _opt_int(args, "extra_vehicles", 0)
        senior = _opt_bool(args, "senior_pass", False)
        t = self._type(site)
        if extra < 0:
            raise ToolError("extra_vehicles cannot be negative")
        if extra > t["max_extra_vehicles"]:
            raise ToolError("%s sites allow at most %d extra vehicle(s)" % (site["type"], t["max_extra_vehicles"]))
        q = {
            "site_id": site["site_id"],
            "site_type": site["type"],
            "arrival": arrival.isoformat(),
            "departure": departure.isoformat(),
            "nights": nights,
            "nightly_fee": site["nightly_fee"],
        }
        q.update(self._price(site, arrival, nights, senior, extra))
        return q

    def t_create_reservation(self, args):
        camper = self._camper(_req_str(args, "camper_id"))
        site = self._site(_req_str(args, "site_id"))
        party = _opt_int(args, "party_size")
        use_credit = _opt_bool(args, "use_credit", False)
        if camper["status"] != "active":
            raise ToolError("camper %s is suspended and cannot make reservations" % camper["camper_id"])
        if site["status"] == "closed":
            raise ToolError("campsite %s is closed and cannot be reserved" % site["site_id"])
        arrival, departure, nights = self._stay_dates(args)
        if arrival < BUSINESS_DATE:
            raise ToolError("arrival date %s is in the past" % arrival.isoformat())
        if (arrival - BUSINESS_DATE).days > BOOKING_WINDOW_DAYS:
            raise ToolError(
                "arrival is more than %d days ahead; the booking window is not open yet" % BOOKING_WINDOW_DAYS
            )
        if party is None:
            party = camper["party_size"]
        if party < 1:
            raise ToolError("party_size must be at least 1")
        if party > site["max_occupancy"]:
            raise ToolError(
                "party of %d exceeds the maximum occupancy of %s (%d)" % (party, site["site_id"], site["max_occupancy"])
            )
        if self._conflict(site["site_id"], arrival, departure):
            raise ToolError(
                "campsite %s is already reserved for part of %s to %s"
                % (site["site_id"], arrival.isoformat(), departure.isoformat())
            )
        senior = bool(camper["senior_pass"])
        price = self._price(site, arrival, nights, senior, 0)
        total = _d(price["total"])
        credit = Decimal("0")
        if use_credit:
            credit = min(_d(camper["account_credit"]), total)
            camper["account_credit"] = _money(_d(camper["account_credit"]) - credit)
        rid = self._next_res_id()
        res = {
            "reservation_id": rid,
            "camper_id": camper["camper_id"],
            "site_id": site["site_id"],
            "arrival": arrival.isoformat(),
            "departure": departure.isoformat(),
            "nights": nights,
            "party_size": party,
            "status": "confirmed",
            "senior_discount": senior and site["type"] != "cabin",
            "charges": {k: price[k] for k in ("base", "peak_surcharge", "senior_discount", "vehicle_fees")},
            "total": price["total"],
            "credit_applied": _money(credit),
            "refund_amount": 0.0,
            "extra_vehicles": [],
            "history": [],
        }
        note = "booked %d night(s) for a party of %d" % (nights, party)
        if credit > 0:
            note += "; %.2f paid from account credit" % credit
        self._history(res, "created", note)
        self.db["reservations"][rid] = res
        return res

    def t_get_reservation(self, args):
        return self._res(_req_str(args, "reservation_id"))

    def t_list_reservations(self, args):
        camper_id = _opt_str(args, "camper_id")
        site_id = _opt_str(args, "site_id")
        status = _enum(_opt_str(args, "status"), "status", RES_STATUSES)
        a_from = _opt_str(args, "arriving_from")
        a_to = _opt_str(args, "arriving_to")
        a_from = _date(a_from, "arriving_from") if a_from is not None else None
        a_to = _date(a_to, "arriving_to") if a_to is not None else None
        if camper_id is not None:
            self._camper(camper_id)
        if site_id is not None:
            self._site(site_id)
        rows = []
        for rid, r in self.db["reservations"].items():
            if camper_id is not None and r["camper_id"] != camper_id:
                continue
            if site_id is not None and r["site_id"] != site_id:
                continue
            if status is not None and r["status"] != status:
                continue
            arr = _dt.date.fromisoformat(r["arrival"])
            if a_from is not None and arr < a_from:
                continue
            if a_to is not None and arr > a_to:
                continue
            rows.append(
                {
                    k: r[k]
                    for k in (
                        "reservation_id",
                        "camper_id",
                        "site_id",
                        "arrival",
                        "departure",
                        "party_size",
                        "status",
                        "total",
                    )
                }
            )
        rows.sort(key=lambda x: (x["arrival"], x["reservation_id"]))
        return rows

    def t_add_vehicle(self, args):
        res = self._res(_req_str(args, "reservation_id"))
        plate = _req_str(args, "plate").upper().replace(" ", "")
        if res["status"] not in ACTIVE:
            raise ToolError(
                "vehicles can only be added to confirmed or checked-in reservations (%s is %s)"
                % (res["reservation_id"], res["status"])
            )
        camper = self.db["campers"][res["camper_id"]]
        if plate == camper["vehicle_plate"]:
            raise ToolError("plate %s is the camper's primary vehicle, which is already included" % plate)
        if any(v["plate"] == plate for v in res["extra_vehicles"]):
            raise ToolError("plate %s is already registered on %s" % (plate, res["reservation_id"]))
        site = self.db["campsites"][res["site_id"]]
        t = self._type(site)
        if len(res["extra_vehicles"]) >= t["max_extra_vehicles"]:
            raise ToolError("%s sites allow at most %d extra vehicle(s)" % (site["type"], t["max_extra_vehicles"]))
        per_night = _d(t["extra_vehicle_fee"])
        fee = per_night * res["nights"]
        res["extra_vehicles"].append({"plate": plate, "fee_per_night": _money(per_night), "fee": _money(fee)})
        res["charges"]["vehicle_fees"] = _money(_d(res["charges"]["vehicle_fees"]) + fee)
        res["total"] = _money(_d(res["total"]) + fee)
        self._history(res, "vehicle_added", "%s added, %.2f for %d night(s)" % (plate, fee, res["nights"]))
        return res

    def t_remove_vehicle(self, args):
        res = self._res(_req_str(args, "reservation_id"))
        plate = _req_str(args, "plate").upper().replace(" ", "")
        if res["status"] != "confirmed":
            raise ToolError(
                "vehicles can only be removed before check-in (%s is %s)" % (res["reservation_id"], res["status"])
            )
        idx = next((i for i, v in enumerate(res["extra_vehicles"]) if v["plate"] == plate), None)
        if idx is None:
            raise ToolError("plate %s is not registered on %s" % (plate, res["reservation_id"]))
        entry = res["extra_vehicles"].pop(idx)
        fee = _d(entry["fee"])
        res["charges"]["vehicle_fees"] = _money(_d(res["charges"]["vehicle_fees"]) - fee)
        res["total"] = _money(_d(res["total"]) - fee)
        camper = self.db["campers"][res["camper_id"]]
        camper["account_credit"] = _money(_d(camper["account_credit"]) + fee)
        self._history(res, "vehicle_removed", "%s removed, %.2f credited to account" % (plate, fee))
        return res

    def t_check_in(self, args):
        res = self._res(_req_str(args, "reservation_id"))
        if res["status"] != "confirmed":
            raise ToolError(
                "only confirmed reservations can be checked in (%s is %s)" % (res["reservation_id"], res["status"])
            )
        arrival = _dt.date.fromisoformat(res["arrival"])
        departure = _dt.date.fromisoformat(res["departure"])
        if BUSINESS_DATE < arrival:
            raise ToolError("check-in opens on the arrival date %s" % res["arrival"])
        if BUSINESS_DATE >= departure:
            raise ToolError("the stay ended on %s; the reservation can no longer be checked in" % res["departure"])
        site = self.db["campsites"][res["site_id"]]
        if site["status"] == "closed":
            raise ToolError("campsite %s is closed; the ranger station must reassign the party" % site["site_id"])
        res["status"] = "checked_in"
        site["status"] = "occupied"
        late = (BUSINESS_DATE - arrival).days
        note = "party of %d at %s" % (res["party_size"], site["site_id"])
        if late:
            note += "; late arrival by %d night(s), no refund for missed nights" % late
        self._history(res, "checked_in", note)
        return res

    def t_check_out(self, args):
        res = self._res(_req_str(args, "reservation_id"))
        if res["status"] != "checked_in":
            raise ToolError(
                "only checked-in reservations can be checked out (%s is %s)" % (res["reservation_id"], res["status"])
            )
        site = self.db["campsites"][res["site_id"]]
        res["status"] = "checked_out"
        site["status"] = "open"
        departure = _dt.date.fromisoformat(res["departure"])
        note = "site %s released" % site["site_id"]
        if BUSINESS_DATE < departure:
            note += "; early departure, %d unused night(s) not refunded" % (departure - BUSINESS_DATE).days
        self._history(res, "checked_out", note)
        return res

    def t_cancel_reservation(self, args):
        res = self._res(_req_str(args, "reservation_id"))
        reason = _opt_str(args, "reason") or "camper request"
        if res["status"] != "confirmed":
            raise ToolError(
                "only confirmed reservations can be cancelled (%s is %s)" % (res["reservation_id"], res["status"])
            )
        arrival = _dt.date.fromisoformat(res["arrival"])
        days = (arrival - BUSINESS_DATE).days
        if days < 0:
            raise ToolError("arrival date %s has passed; a missed arrival cannot be cancelled" % res["arrival"])
        total = _d(res["total"])
        if days >= 14:
            refund = max(total - CANCEL_FEE, Decimal("0"))
        elif days >= 3:
            refund = total * Decimal("0.5")
        else:
            refund = Decimal("0")
        refund = _d(_money(refund))
        res["status"] = "cancelled"
        res["refund_amount"] = _money(refund)
        camper = self.db["campers"][res["camper_id"]]
        camper["account_credit"] = _money(_d(camper["account_credit"]) + refund)
        self._history(
            res, "cancelled", "%s; %d day(s) before arrival, %.2f credited to account" % (reason, days, refund)
        )
        return res


def make():
    return Office()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = errors = sessions = 0
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            traj = json.loads(line)
            sessions += 1
            env = make()
            env.reset(data)
            for c in traj["calls"]:
                r = env.call(c["name"], c["arguments"])
                calls += 1
                if not r["ok"]:
                    errors += 1
    print("sessions: %d  calls: %d  errors: %d" % (sessions, calls, errors))


if __name__ == "__main__":
    sys.exit(_main())
