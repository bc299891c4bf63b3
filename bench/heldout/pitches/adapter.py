#!/usr/bin/env python3
"""Kestrelford Town Council - pitch & court hire desk (reference implementation).

make() returns a desk object with reset(state), call(name, arguments) and state().
Running this file replays every session of trajectories.jsonl, each one from
data.json, and prints the number of calls and refused calls.
Standard library only; the business clock is fixed (no wall clock is read).
"""

import copy
import json
import os
import sys
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

HERE = os.path.dirname(os.path.abspath(__file__))

BUSINESS_DATE = "2026-04-14"
BUSINESS_HOUR = 10  # the desk clock reads 10:00 on the business date
SEASON_START = "2026-04-01"
SEASON_END = "2026-08-31"
ADVANCE_DAYS = 90
TIER_PCT = {"none": 0, "bronze": 5, "silver": 10, "gold": 15}
BLOCK_PCT = 10
BLOCK_MIN_WEEKS = 4
BLOCK_MAX_WEEKS = 16
MAX_INCIDENT_CHARGE = 1000
ACTIVE = ("provisional", "confirmed")
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class Refusal(Exception):
    pass


def money(x):
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _now():
    d = date.fromisoformat(BUSINESS_DATE)
    return datetime(d.year, d.month, d.day, BUSINESS_HOUR)


def _start_dt(d, hour):
    if isinstance(d, str):
        d = date.fromisoformat(d)
    return datetime(d.year, d.month, d.day) + timedelta(hours=hour)


def _parse_date(value, field):
    try:
        if len(value) != 10:
            raise ValueError
        return date.fromisoformat(value)
    except (ValueError, TypeError):
        raise Refusal(f"Invalid {field} '{value}': use the format YYYY-MM-DD.")


def _lighting_up(d):
    """First hour (24h) that needs floodlights: 19:00 April-September, 17:00 otherwise."""
    return 19 if 4 <= d.month <= 9 else 17


def _is_weekend(d):
    return d.weekday() >= 5


def _is_peak(d, hour):
    if _is_weekend(d):
        return 9 <= hour <= 12
    return 17 <= hour <= 21


# ----------------------------------------------------------------- schemas
def _load_tools():
    with open(os.path.join(HERE, "tools.json"), encoding="utf-8") as f:
        return {t["name"]: t for t in json.load(f)["tools"]}


_TYPES = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _check_object(schema, args, where=""):
    props = schema.get("properties", {})
    for k in args:
        if k not in props:
            raise Refusal(f"Unknown argument '{where}{k}'.")
    for k in schema.get("required", []):
        if k not in args or args[k] is None:
            raise Refusal(f"Missing required argument '{where}{k}'.")
    for k, v in args.items():
        if v is None:
            continue
        _check_value(f"{where}{k}", props[k], v)


def _check_value(name, sch, v):
    t = sch.get("type")
    if t and not _TYPES[t](v):
        raise Refusal(f"Argument '{name}' must be of type {t}.")
    if "enum" in sch and v not in sch["enum"]:
        raise Refusal(f"Argument '{name}' must be one of: {', '.join(map(str, sch['enum']))}.")
    if "minimum" in sch and v < sch["minimum"]:
        raise Refusal(f"Argument '{name}' must be at least {sch['minimum']}.")
    if "maximum" in sch and v > sch["maximum"]:
        raise Refusal(f"Argument '{name}' must be at most {sch['maximum']}.")
    if t == "string" and "minLength" in sch and len(v.strip()) < sch["minLength"]:
        raise Refusal(f"Argument '{name}' must not be empty.")
    if t == "array":
        if "minItems" in sch and len(v) < sch["minItems"]:
            raise Refusal(f"Argument '{name}' needs at least {sch['minItems']} item(s).")
        for i, item in enumerate(v):
            _check_value(f"{name}[{i}]", sch.get("items", {}), item)
    if t == "object":
        _check_object(sch, v, where=f"{name}.")


# ----------------------------------------------------------------- desk
class PitchDesk:
    def __init__(self):
        self._tools = _load_tools()
        self._s = {}

    # protocol ---------------------------------------------------------
    def reset(self, state):
        self._s = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self._s)

    def call(self, name, arguments):
        if name not in self._tools:
            return {"ok": False, "output": f"Unknown tool '{name}'."}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be a JSON object."}
        snapshot = copy.deepcopy(self._s)
        try:
            _check_object(self._tools[name]["inputSchema"], arguments)
            out = getattr(self, "_t_" + name)(copy.deepcopy(arguments))
            return {"ok": True, "output": out}
        except Refusal as e:
            self._s = snapshot
            return {"ok": False, "output": str(e)}

    # lookups ----------------------------------------------------------
    def _get(self, coll, key, label):
        rec = self._s.get(coll, {}).get(key)
        if rec is None:
            raise Refusal(f"{label} {key} not found.")
        return rec

    def _hirer(self, hid):
        return self._get("hirers", hid, "Hirer")

    def _pitch(self, pid):
        return self._get("pitches", pid, "Pitch")

    def _booking(self, bid):
        return self._get("bookings", bid, "Booking")

    def _rate(self, surface):
        for pl in self._s["price_list"].values():
            if pl["surface"] == surface:
                return pl
        raise Refusal(f"No price list entry for surface '{surface}'.")

    def _next_id(self, coll, prefix):
        nums = [int(k.split("-")[1]) for k in self._s[coll]]
        width = len(next(iter(self._s[coll])).split("-")[1]) if self._s[coll] else 4
        return f"{prefix}-{(max(nums) + 1 if nums else 1):0{width}d}"

    # rules ------------------------------------------------------------
    def _check_hirer_can_book(self, h):
        if h["status"] == "suspended":
            raise Refusal(
                f"Hirer {h['hirer_id']} ({h['name']}) is suspended and cannot make, "
                f"confirm or add to bookings until the account is reinstated."
            )
        if h["status"] == "closed":
            raise Refusal(f"Hirer {h['hirer_id']} ({h['name']}) has a closed account.")

    def _slot_problem(self, pitch, d, start, hours, exclude=(), in_season_block=False):
        """Return None when the pitch can take the slot, else a reason string."""
        if pitch["status"] != "open":
            note = pitch.get("maintenance_note") or "closed for maintenance"
            return f"Pitch {pitch['pitch_id']} ({pitch['name']}) is closed for maintenance: {note}."
        today = date.fromisoformat(BUSINESS_DATE)
        if d < today:
            return f"{d.isoformat()} is in the past."
        if d == today and start <= BUSINESS_HOUR:
            return f"Same-day bookings must start after {BUSINESS_HOUR:02d}:00."
        if not in_season_block and d > today + timedelta(days=ADVANCE_DAYS):
            return (
                f"{d.isoformat()} is more than {ADVANCE_DAYS} days ahead; casual hire opens "
                f"{ADVANCE_DAYS} days in advance (last bookable date "
                f"{(today + timedelta(days=ADVANCE_DAYS)).isoformat()})."
            )
        rate = self._rate(pitch["surface"])
        if hours > rate["max_hours"]:
            return f"{pitch['surface']} pitches can be hired for at most {rate['max_hours']} hour(s) per booking."
        venue = self._s["venues"][pitch["venue_id"]]
        band = "weekend" if _is_weekend(d) else "weekday"
        oh = venue["hours"][band]
        if start < oh["open"] or start + hours > oh["close"]:
            return (
                f"{venue['name']} is open {oh['open']:02d}:00-{oh['close']:02d}:00 on "
                f"{WEEKDAYS[d.weekday()]}s; {start:02d}:00-{start + hours:02d}:00 is outside "
                f"opening hours."
            )
        lu = _lighting_up(d)
        if start + hours > lu and not pitch["floodlights"]:
            return (
                f"Pitch {pitch['pitch_id']} has no floodlights; play after {lu:02d}:00 on "
                f"{d.isoformat()} needs a floodlit pitch."
            )
        for b in self._s["bookings"].values():
            if (
                b["pitch_id"] == pitch["pitch_id"]
                and b["date"] == d.isoformat()
                and b["status"] in ACTIVE
                and b["booking_id"] not in exclude
                and b["start_hour"] < start + hours
                and start < b["end_hour"]
            ):
                return (
                    f"Pitch {pitch['pitch_id']} is already booked "
                    f"{b['start_hour']:02d}:00-{b['end_hour']:02d}:00 on {d.isoformat()} "
                    f"({b['booking_id']})."
                )
        return None

    def _equipment_in_use(self, eq_id, d, start, end, exclude=()):
        used = 0
        for b in self._s["bookings"].values():
            if (
                b["date"] == d.isoformat()
                and b["status"] in ACTIVE
                and b["booking_id"] not in exclude
                and b["start_hour"] < end
                and start < b["end_hour"]
            ):
                for line in b["equipment"]:
                    if line["equipment_id"] == eq_id:
                        used += line["quantity"]
        return used

    def _normalise_equipment(self, lines, pitch, d, start, hours, exclude=()):
        merged = {}
        for line in lines or []:
            merged[line["equipment_id"]] = merged.get(line["equipment_id"], 0) + line["quantity"]
        out = []
        for eq_id in sorted(merged):
            qty = merged[eq_id]
            eq = self._get("equipment", eq_id, "Equipment item")
            self._check_equipment_line(eq, qty, pitch, d, start, hours, exclude)
            out.append({"equipment_id": eq_id, "quantity": qty})
        return out

    def _check_equipment_line(self, eq, qty, pitch, d, start, hours, exclude=()):
        if pitch["surface"] not in eq["surfaces"]:
            raise Refusal(
                f"{eq['name']} ({eq['equipment_id']}) cannot be used on "
                f"{pitch['surface']} surfaces (allowed: {', '.join(eq['surfaces'])})."
            )
        if qty > eq["max_per_booking"]:
            raise Refusal(f"At most {eq['max_per_booking']} x {eq['name']} per booking.")
        if eq["stock"] is not None:
            free = eq["stock"] - self._equipment_in_use(eq["equipment_id"], d, start, start + hours, exclude)
            if qty > free:
                raise Refusal(
                    f"Only {max(free, 0)} x {eq['name']} available "
                    f"{start:02d}:00-{start + hours:02d}:00 on {d.isoformat()}."
                )

    def _price(self, hirer, pitch, d, start, hours, equipment, block=False):
        rate = self._rate(pitch["surface"])
        lu = _lighting_up(d)
        rows, hire, flood = [], 0.0, 0.0
        for h in range(start, start + hours):
            peak = _is_peak(d, h)
            r = rate["peak_rate"] if peak else rate["off_peak_rate"]
            fl = rate["floodlight_surcharge"] if h >= lu else 0.0
            rows.append({"hour": h, "band": "peak" if peak else "off_peak", "rate": money(r), "floodlight": money(fl)})
            hire += r
            flood += fl
        pct = TIER_PCT[hirer["discount_tier"]] + (BLOCK_PCT if block else 0)
        discount = money((hire + flood) * pct / 100)
        eq_rows, eq_sub = [], 0.0
        for line in equipment:
            eq = self._s["equipment"][line["equipment_id"]]
            lt = money(eq["price"] * line["quantity"])
            eq_rows.append(
                {
                    "equipment_id": eq["equipment_id"],
                    "name": eq["name"],
                    "quantity": line["quantity"],
                    "unit_price": money(eq["price"]),
                    "line_total": lt,
                }
            )
            eq_sub += lt
        return {
            "hours": rows,
            "hire_subtotal": money(hire),
            "floodlight_subtotal": money(flood),
            "discount_pct": pct,
            "discount": discount,
            "equipment": eq_rows,
            "equipment_subtotal": money(eq_sub),
            "total": money(hire + flood - discount + eq_sub),
        }

    def _validate_new(self, hirer, pitch, d, start, hours, in_season_block=False):
        self._check_hirer_can_book(hirer)
        if pitch["club_only"] and hirer["type"] != "club":
            raise Refusal(
                f"Pitch {pitch['pitch_id']} ({pitch['name']}) is for club hire only; "
                f"hirer {hirer['hirer_id']} is an individual account."
            )
        problem = self._slot_problem(pitch, d, start, hours, in_season_block=in_season_block)
        if problem:
            raise Refusal(problem)

    def _summary(self, b):
        return {
            "booking_id": b["booking_id"],
            "hirer_id": b["hirer_id"],
            "pitch_id": b["pitch_id"],
            "date": b["date"],
            "start_hour": b["start_hour"],
            "end_hour": b["end_hour"],
            "status": b["status"],
            "total": b["price"]["total"],
            "block_id": b["block_id"],
        }

    def _refresh_block(self, block_id):
        if not block_id:
            return
        blk = self._s["blocks"][block_id]
        sts = [self._s["bookings"][i]["status"] for i in blk["booking_ids"]]
        if all(s == "cancelled" for s in sts):
            blk["status"] = "cancelled"
        elif all(s in ("played", "cancelled") for s in sts):
            blk["status"] = "completed"
        else:
            blk["status"] = "active"

    def _make_booking(self, bid, hirer, pitch, d, start, hours, equipment, price, note, block_id=None):
        hist = [
            {
                "date": BUSINESS_DATE,
                "event": "created",
                "note": note or ("Block booking week" if block_id else "Provisional booking"),
            }
        ]
        return {
            "booking_id": bid,
            "hirer_id": hirer["hirer_id"],
            "pitch_id": pitch["pitch_id"],
            "venue_id": pitch["venue_id"],
            "date": d.isoformat(),
            "start_hour": start,
            "end_hour": start + hours,
            "hours": hours,
            "status": "provisional",
            "block_id": block_id,
            "equipment": equipment,
            "price": price,
            "deposit": money(pitch["deposit"]),
            "payment": {
                "method": None,
                "amount_paid": 0.0,
                "deposit_held": 0.0,
                "refunded": 0.0,
                "cancellation_fee": 0.0,
            },
            "created": BUSINESS_DATE,
            "history": hist,
        }

    # tools ------------------------------------------------------------
    def _t_get_hirer(self, a):
        h = copy.deepcopy(self._hirer(a["hirer_id"]))
        h["discount_pct"] = TIER_PCT[h["discount_tier"]]
        h["open_bookings"] = sorted(
            b["booking_id"]
            for b in self._s["bookings"].values()
            if b["hirer_id"] == h["hirer_id"] and b["status"] in ACTIVE
        )
        h["incidents"] = sorted(
            i["incident_id"] for i in self._s["incidents"].values() if i["hirer_id"] == h["hirer_id"]
        )
        return h

    def _t_search_pitches(self, a):
        slot_keys = [k for k in ("date", "start_hour", "hours") if a.get(k) is not None]
        if slot_keys and len(slot_keys) != 3:
            raise Refusal("date, start_hour and hours must be given together to check availability.")
        if a.get("venue_id"):
            self._get("venues", a["venue_id"], "Venue")
        d = _parse_date(a["date"], "date") if slot_keys else None
        results = []
        for p in sorted(self._s["pitches"].values(), key=lambda x: x["pitch_id"]):
            if a.get("venue_id") and p["venue_id"] != a["venue_id"]:
                continue
            if a.get("surface") and p["surface"] != a["surface"]:
                continue
            if a.get("floodlit") is not None and p["floodlights"] != a["floodlit"]:
                continue
            if p["status"] != "open" and not a.get("include_closed"):
                continue
            rate = self._rate(p["surface"])
            row = {
                "pitch_id": p["pitch_id"],
                "name": p["name"],
                "venue_id": p["venue_id"],
                "venue_name": self._s["venues"][p["venue_id"]]["name"],
                "surface": p["surface"],
                "floodlights": p["floodlights"],
                "capacity": p["capacity"],
                "club_only": p["club_only"],
                "status": p["status"],
                "deposit": money(p["deposit"]),
                "rates": {
                    "off_peak": rate["off_peak_rate"],
                    "peak": rate["peak_rate"],
                    "floodlight_surcharge": rate["floodlight_surcharge"],
                },
            }
            if d is not None:
                problem = self._slot_problem(p, d, a["start_hour"], a["hours"])
                row["available"] = problem is None
                if problem:
                    row["unavailable_reason"] = problem
            results.append(row)
        return {"count": len(results), "pitches": results}

    def _t_get_booking(self, a):
        return copy.deepcopy(self._booking(a["booking_id"]))

    def _t_list_bookings(self, a):
        keys = ("hirer_id", "pitch_id", "venue_id", "block_id", "date_from", "date_to")
        if not any(a.get(k) for k in keys):
            raise Refusal("Give at least one of hirer_id, pitch_id, venue_id, block_id, date_from or date_to.")
        if a.get("hirer_id"):
            self._hirer(a["hirer_id"])
        if a.get("pitch_id"):
            self._pitch(a["pitch_id"])
        if a.get("venue_id"):
            self._get("venues", a["venue_id"], "Venue")
        if a.get("block_id"):
            self._get("blocks", a["block_id"], "Block")
        lo = _parse_date(a["date_from"], "date_from") if a.get("date_from") else None
        hi = _parse_date(a["date_to"], "date_to") if a.get("date_to") else None
        if lo and hi and hi < lo:
            raise Refusal("date_to is before date_from.")
        out = []
        for b in self._s["bookings"].values():
            if a.get("hirer_id") and b["hirer_id"] != a["hirer_id"]:
                continue
            if a.get("pitch_id") and b["pitch_id"] != a["pitch_id"]:
                continue
            if a.get("venue_id") and b["venue_id"] != a["venue_id"]:
                continue
            if a.get("block_id") and b["block_id"] != a["block_id"]:
                continue
            if a.get("status") and b["status"] != a["status"]:
                continue
            bd = date.fromisoformat(b["date"])
            if lo and bd < lo or hi and bd > hi:
                continue
            out.append(self._summary(b))
        out.sort(key=lambda x: (x["date"], x["start_hour"], x["booking_id"]))
        return {"count": len(out), "bookings": out}

    def _t_quote_hire(self, a):
        hirer = self._hirer(a["hirer_id"])
        pitch = self._pitch(a["pitch_id"])
        d = _parse_date(a["date"], "date")
        block = bool(a.get("block"))
        if block:
            if hirer["type"] != "club":
                raise Refusal("Block (season) rates are available to club accounts only.")
            if not (SEASON_START <= d.isoformat() <= SEASON_END):
                raise Refusal(f"Block rates apply only within the season {SEASON_START} to {SEASON_END}.")
        self._validate_new(hirer, pitch, d, a["start_hour"], a["hours"], in_season_block=block)
        eq = self._normalise_equipment(a.get("equipment"), pitch, d, a["start_hour"], a["hours"])
        price = self._price(hirer, pitch, d, a["start_hour"], a["hours"], eq, block)
        return {
            "hirer_id": hirer["hirer_id"],
            "pitch_id": pitch["pitch_id"],
            "pitch_name": pitch["name"],
            "date": d.isoformat(),
            "weekday": WEEKDAYS[d.weekday()],
            "start_hour": a["start_hour"],
            "end_hour": a["start_hour"] + a["hours"],
            "hours": a["hours"],
            "block_rate": block,
            "price": price,
            "deposit": money(pitch["deposit"]),
            "quoted_on": BUSINESS_DATE,
        }

    def _t_create_booking(self, a):
        hirer = self._hirer(a["hirer_id"])
        pitch = self._pitch(a["pitch_id"])
        d = _parse_date(a["date"], "date")
        start, hours = a["start_hour"], a["hours"]
        self._validate_new(hirer, pitch, d, start, hours)
        eq = self._normalise_equipment(a.get("equipment"), pitch, d, start, hours)
        price = self._price(hirer, pitch, d, start, hours, eq)
        bid = self._next_id("bookings", "BK")
        b = self._make_booking(bid, hirer, pitch, d, start, hours, eq, price, a.get("note"))
        self._s["bookings"][bid] = b
        return copy.deepcopy(b)

    def _t_create_block_booking(self, a):
        hirer = self._hirer(a["hirer_id"])
        pitch = self._pitch(a["pitch_id"])
        self._check_hirer_can_book(hirer)
        if hirer["type"] != "club":
            raise Refusal(
                "Block (season) bookings are available to club accounts only; "
                f"hirer {hirer['hirer_id']} is an individual account."
            )
        first = _parse_date(a["first_date"], "first_date")
        weeks, start, hours = a["weeks"], a["start_hour"], a["hours"]
        if first <= date.fromisoformat(BUSINESS_DATE):
            raise Refusal(f"first_date must be after the business date {BUSINESS_DATE}.")
        dates = [first + timedelta(days=7 * i) for i in range(weeks)]
        if first.isoformat() < SEASON_START or dates[-1].isoformat() > SEASON_END:
            raise Refusal(
                f"A {weeks}-week block from {first.isoformat()} would end on "
                f"{dates[-1].isoformat()}, outside the season {SEASON_START} to "
                f"{SEASON_END}."
            )
        for d in dates:
            try:
                self._validate_new(hirer, pitch, d, start, hours, in_season_block=True)
            except Refusal as e:
                raise Refusal(f"Block not created - week of {d.isoformat()}: {e}")
        created = []
        block_id = self._next_id("blocks", "BL")
        for d in dates:
            try:
                eq = self._normalise_equipment(a.get("equipment"), pitch, d, start, hours)
            except Refusal as e:
                raise Refusal(f"Block not created - week of {d.isoformat()}: {e}")
            price = self._price(hirer, pitch, d, start, hours, eq, block=True)
            bid = self._next_id("bookings", "BK")
            b = self._make_booking(bid, hirer, pitch, d, start, hours, eq, price, a.get("note"), block_id=block_id)
            self._s["bookings"][bid] = b
            created.append(b)
        blk = {
            "block_id": block_id,
            "hirer_id": hirer["hirer_id"],
            "pitch_id": pitch["pitch_id"],
            "weekday": WEEKDAYS[first.weekday()],
            "start_hour": start,
            "hours": hours,
            "first_date": dates[0].isoformat(),
            "last_date": dates[-1].isoformat(),
            "weeks": weeks,
            "booking_ids": [b["booking_id"] for b in created],
            "status": "active",
            "discount_pct": TIER_PCT[hirer["discount_tier"]] + BLOCK_PCT,
            "created": BUSINESS_DATE,
            "note": a.get("note") or "",
        }
        self._s["blocks"][block_id] = blk
        return {
            "block": copy.deepcopy(blk),
            "bookings": [self._summary(b) for b in created],
            "season_total": money(sum(b["price"]["total"] for b in created)),
            "deposit_per_week": money(pitch["deposit"]),
        }

    def _t_set_booking_status(self, a):
        b = self._booking(a["booking_id"])
        hirer = self._hirer(b["hirer_id"])
        new = a["status"]
        if new == "confirmed":
            if b["status"] != "provisional":
                raise Refusal(
                    f"Booking {b['booking_id']} is {b['status']}; only provisional bookings can be confirmed."
                )
            method = a.get("payment_method")
            if not method:
                raise Refusal("payment_method (account or card) is required to confirm a booking.")
            self._check_hirer_can_book(hirer)
            if _start_dt(b["date"], b["start_hour"]) <= _now():
                raise Refusal(f"Booking {b['booking_id']} start time has passed; it cannot be confirmed.")
            pitch = self._pitch(b["pitch_id"])
            if pitch["status"] != "open":
                raise Refusal(f"Pitch {pitch['pitch_id']} is closed for maintenance; the booking cannot be confirmed.")
            need = b["deposit"] + (b["price"]["total"] if method == "account" else 0.0)
            need = money(need)
            if hirer["balance"] < need:
                what = "deposit and hire total" if method == "account" else "deposit"
                raise Refusal(
                    f"Insufficient account balance: {need:.2f} needed for the {what}, "
                    f"hirer {hirer['hirer_id']} has {hirer['balance']:.2f}."
                )
            hirer["balance"] = money(hirer["balance"] - need)
            b["status"] = "confirmed"
            b["payment"]["method"] = method
            b["payment"]["amount_paid"] = money(b["price"]["total"])
            b["payment"]["deposit_held"] = money(b["deposit"])
            note = a.get("note") or (
                f"Paid {b['price']['total']:.2f} by {method}"
                + (f"; deposit {b['deposit']:.2f} held from account" if b["deposit"] else "")
            )
            b["history"].append({"date": BUSINESS_DATE, "event": "confirmed", "note": note})
        else:  # played
            if b["status"] != "confirmed":
                raise Refusal(
                    f"Booking {b['booking_id']} is {b['status']}; only confirmed bookings can be marked played."
                )
            if _start_dt(b["date"], b["end_hour"]) > _now():
                raise Refusal(
                    f"Booking {b['booking_id']} ends {b['date']} "
                    f"{b['end_hour']:02d}:00, which is after the desk time "
                    f"{BUSINESS_DATE} {BUSINESS_HOUR:02d}:00; it cannot be marked "
                    "played yet."
                )
            released = money(b["payment"]["deposit_held"])
            hirer["balance"] = money(hirer["balance"] + released)
            b["payment"]["deposit_held"] = 0.0
            b["status"] = "played"
            note = a.get("note") or (f"Deposit {released:.2f} released to account" if released else "Marked played")
            b["history"].append({"date": BUSINESS_DATE, "event": "played", "note": note})
            self._refresh_block(b["block_id"])
        out = copy.deepcopy(b)
        out["hirer_balance"] = hirer["balance"]
        return out

    def _t_cancel_booking(self, a):
        b = self._booking(a["booking_id"])
        hirer = self._hirer(b["hirer_id"])
        if b["status"] not in ACTIVE:
            raise Refusal(f"Booking {b['booking_id']} is already {b['status']}.")
        start = _start_dt(b["date"], b["start_hour"])
        if start <= _now():
            raise Refusal(
                f"Booking {b['booking_id']} started {b['date']} "
                f"{b['start_hour']:02d}:00; bookings cannot be cancelled once the "
                "start time has passed."
            )
        by = a.get("initiated_by") or "hirer"
        notice = (start - _now()).total_seconds() / 3600
        fee_pct = 0
        if b["status"] == "confirmed" and by == "hirer":
            fee_pct = 0 if notice >= 72 else (25 if notice >= 24 else 50)
        paid = b["payment"]["amount_paid"]
        fee = min(money(b["price"]["total"] * fee_pct / 100), paid)
        refund = money(paid - fee)
        released = money(b["payment"]["deposit_held"])
        method = b["payment"]["method"]
        refund_to = None
        if refund > 0:
            refund_to = "card" if method == "card" else "account"
        credit = released + (refund if refund_to == "account" else 0.0)
        hirer["balance"] = money(hirer["balance"] + credit)
        b["payment"]["refunded"] = refund
        b["payment"]["cancellation_fee"] = money(fee)
        b["payment"]["deposit_held"] = 0.0
        b["status"] = "cancelled"
        note = f"{'Council' if by == 'council' else 'Hirer'} cancellation: {a['reason']}"
        if fee:
            note += f" (fee {fee:.2f})"
        b["history"].append({"date": BUSINESS_DATE, "event": "cancelled", "note": note})
        self._refresh_block(b["block_id"])
        return {
            "booking_id": b["booking_id"],
            "status": "cancelled",
            "initiated_by": by,
            "notice_hours": round(notice, 1),
            "fee_pct": fee_pct,
            "cancellation_fee": money(fee),
            "refund": refund,
            "refund_to": refund_to,
            "deposit_released": released,
            "hirer_balance": hirer["balance"],
        }

    def _editable(self, b):
        if b["status"] not in ACTIVE:
            raise Refusal(
                f"Booking {b['booking_id']} is {b['status']}; add-ons can only be "
                "changed on provisional or confirmed bookings."
            )
        if _start_dt(b["date"], b["start_hour"]) <= _now():
            raise Refusal(f"Booking {b['booking_id']} has already started; add-ons can no longer be changed.")

    def _reprice(self, b):
        hirer = self._s["hirers"][b["hirer_id"]]
        pitch = self._s["pitches"][b["pitch_id"]]
        d = date.fromisoformat(b["date"])
        old = b["price"]
        new = self._price(hirer, pitch, d, b["start_hour"], b["hours"], b["equipment"], block=bool(b["block_id"]))
        # the hire part keeps the rate agreed at booking time; only add-ons are re-priced
        for k in ("hours", "hire_subtotal", "floodlight_subtotal", "discount_pct", "discount"):
            new[k] = old[k]
        new["total"] = money(
            old["hire_subtotal"] + old["floodlight_subtotal"] - old["discount"] + new["equipment_subtotal"]
        )
        b["price"] = new
        return money(new["total"] - old["total"])

    def _t_add_equipment(self, a):
        b = self._booking(a["booking_id"])
        hirer = self._hirer(b["hirer_id"])
        self._editable(b)
        self._check_hirer_can_book(hirer)
        eq = self._get("equipment", a["equipment_id"], "Equipment item")
        qty = a.get("quantity") or 1
        pitch = self._pitch(b["pitch_id"])
        d = date.fromisoformat(b["date"])
        existing = next((l for l in b["equipment"] if l["equipment_id"] == eq["equipment_id"]), None)
        total_qty = qty + (existing["quantity"] if existing else 0)
        self._check_equipment_line(eq, total_qty, pitch, d, b["start_hour"], b["hours"], exclude=(b["booking_id"],))
        if existing:
            existing["quantity"] = total_qty
        else:
            b["equipment"].append({"equipment_id": eq["equipment_id"], "quantity": qty})
            b["equipment"].sort(key=lambda l: l["equipment_id"])
        delta = self._reprice(b)
        charged = 0.0
        if b["status"] == "confirmed":
            if hirer["balance"] < delta:
                raise Refusal(
                    f"Insufficient account balance: add-ons on confirmed bookings are "
                    f"charged to the account ({delta:.2f} needed, hirer "
                    f"{hirer['hirer_id']} has {hirer['balance']:.2f})."
                )
            hirer["balance"] = money(hirer["balance"] - delta)
            b["payment"]["amount_paid"] = money(b["payment"]["amount_paid"] + delta)
            charged = delta
        b["history"].append(
            {"date": BUSINESS_DATE, "event": "equipment_added", "note": f"{qty} x {eq['name']} (+{delta:.2f})"}
        )
        out = copy.deepcopy(b)
        out["charged_to_account"] = charged
        out["hirer_balance"] = hirer["balance"]
        return out

    def _t_remove_equipment(self, a):
        b = self._booking(a["booking_id"])
        hirer = self._hirer(b["hirer_id"])
        self._editable(b)
        eq = self._get("equipment", a["equipment_id"], "Equipment item")
        existing = next((l for l in b["equipment"] if l["equipment_id"] == eq["equipment_id"]), None)
        if existing is None:
            raise Refusal(f"Booking {b['booking_id']} has no {eq['name']} ({eq['equipment_id']}) to remove.")
        qty = a.get("quantity") or existing["quantity"]
        if qty > existing["quantity"]:
            raise Refusal(f"Booking {b['booking_id']} has only {existing['quantity']} x {eq['name']}.")
        existing["quantity"] -= qty
        if existing["quantity"] == 0:
            b["equipment"].remove(existing)
        delta = self._reprice(b)  # negative
        credited = 0.0
        if b["status"] == "confirmed":
            credited = money(-delta)
            hirer["balance"] = money(hirer["balance"] + credited)
            b["payment"]["amount_paid"] = money(b["payment"]["amount_paid"] - credited)
        b["history"].append(
            {"date": BUSINESS_DATE, "event": "equipment_removed", "note": f"{qty} x {eq['name']} ({delta:.2f})"}
        )
        out = copy.deepcopy(b)
        out["credited_to_account"] = credited
        out["hirer_balance"] = hirer["balance"]
        return out

    def _t_report_incident(self, a):
        b = self._booking(a["booking_id"])
        hirer = self._hirer(b["hirer_id"])
        pitch = self._pitch(b["pitch_id"])
        if b["status"] not in ("confirmed", "played"):
            raise Refusal(
                f"Booking {b['booking_id']} is {b['status']}; incidents can only be "
                "reported against confirmed or played bookings."
            )
        if _start_dt(b["date"], b["start_hour"]) > _now():
            raise Refusal(f"Booking {b['booking_id']} has not started yet ({b['date']} {b['start_hour']:02d}:00).")
        charge = money(a["charge"])
        if charge > MAX_INCIDENT_CHARGE:
            raise Refusal(
                f"Incident charges above {MAX_INCIDENT_CHARGE:.2f} must be referred "
                "to the Facilities Manager and cannot be raised at the desk."
            )
        eq_id = a.get("equipment_id")
        if eq_id:
            if a["category"] != "equipment_damage":
                raise Refusal("equipment_id is only used with category equipment_damage.")
            eq = self._get("equipment", eq_id, "Equipment item")
            if not any(l["equipment_id"] == eq_id for l in b["equipment"]):
                raise Refusal(f"Booking {b['booking_id']} did not hire {eq['name']} ({eq_id}).")
        from_deposit = min(charge, b["payment"]["deposit_held"]) if b["status"] == "confirmed" else 0.0
        from_deposit = money(from_deposit)
        from_balance = money(charge - from_deposit)
        b["payment"]["deposit_held"] = money(b["payment"]["deposit_held"] - from_deposit)
        hirer["balance"] = money(hirer["balance"] - from_balance)
        suspended = False
        if hirer["balance"] < 0 and hirer["status"] == "active":
            hirer["status"] = "suspended"
            suspended = True
        inc_id = self._next_id("incidents", "INC")
        if eq_id and self._s["equipment"][eq_id]["stock"] is not None:
            self._s["equipment"][eq_id]["stock"] -= 1
        if a.get("close_pitch"):
            pitch["status"] = "closed_maintenance"
            pitch["maintenance_note"] = f"Closed after incident {inc_id} on {BUSINESS_DATE}"
        inc = {
            "incident_id": inc_id,
            "booking_id": b["booking_id"],
            "hirer_id": hirer["hirer_id"],
            "pitch_id": pitch["pitch_id"],
            "category": a["category"],
            "description": a["description"],
            "equipment_id": eq_id,
            "reported": BUSINESS_DATE,
            "charge": charge,
            "from_deposit": from_deposit,
            "from_balance": from_balance,
            "pitch_closed": bool(a.get("close_pitch")),
            "status": "charged" if charge > 0 else "no_charge",
        }
        self._s["incidents"][inc_id] = inc
        b["history"].append(
            {"date": BUSINESS_DATE, "event": "incident", "note": f"{inc_id} {a['category']} charge {charge:.2f}"}
        )
        if suspended:
            hirer.setdefault("notes", "")
            hirer["notes"] = (
                hirer["notes"] + " " if hirer["notes"] else ""
            ) + f"Suspended {BUSINESS_DATE}: balance negative after {inc_id}."
        out = copy.deepcopy(inc)
        out["hirer_balance"] = hirer["balance"]
        out["hirer_status"] = hirer["status"]
        out["deposit_remaining"] = b["payment"]["deposit_held"]
        return out


def make():
    return PitchDesk()


def _replay():
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as f:
        data = json.load(f)
    desk = make()
    calls = errors = sessions = 0
    with open(os.path.join(HERE, "trajectories.jsonl"), encoding="utf-8") as f:
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
    print(f"sessions: {sessions}")
    print(f"calls: {calls}")
    print(f"errors: {errors}")
    return 0


if __name__ == "__main__":
    sys.exit(_replay())
