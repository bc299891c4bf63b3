#!/usr/bin/env python3
"""Kilnworth Rooms hire desk: reference implementation of the Desk API.

make() returns a Desk with reset(state), call(name, arguments) and state().
Running this file replays every session in trajectories.jsonl, each one
from a fresh copy of data.json, and prints the number of calls and errors.

License MIT, written for forgegym; all names, people, places and companies
are fictional.
"""

import copy
import datetime
import json
import os
import re
import sys
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = datetime.date(2026, 5, 19)
OPEN_HOUR = 10
LAST_START_HOUR = 23
CLOSE_HOUR = 24
PEAK_FROM_HOUR = 17
HORIZON_DAYS = 90
MAX_HOURS = 10
HOLIDAYS = {"2026-05-25", "2026-08-31"}
TIER_DISCOUNT = {"standard": Decimal("0"), "member": Decimal("0.10"), "pro": Decimal("0.15")}
DEPOSIT_RATE = {"standard": Decimal("0.25"), "member": Decimal("0.25"), "pro": Decimal("0")}
ACTIVE = ("confirmed", "checked_in")
STATUSES = ("confirmed", "checked_in", "completed", "cancelled", "no_show")
TIERS = ("standard", "member", "pro")
ROOM_TYPES = ("rehearsal", "recording")
METHODS = ("account", "card", "cash")
MAX_RESCHEDULES = 2

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_TIME_RE = re.compile(r"^(\d{2}):(\d{2})$")


class Refusal(Exception):
    pass


def D(x):
    return Decimal(str(x))


def money(x):
    return float(D(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def gbp(x):
    return "£%.2f" % money(x)


def hhmm(hour):
    return "%02d:00" % hour


TOOLS = {
    "search_clients": {"query": ("string", True), "tier": ("string", False), "status": ("string", False)},
    "get_client": {"client_id": ("string", True)},
    "get_availability": {
        "date": ("string", True),
        "room_type": ("string", False),
        "start": ("string", False),
        "hours": ("integer", False),
    },
    "list_sessions": {
        "client_id": ("string", False),
        "room_id": ("string", False),
        "engineer_id": ("string", False),
        "status": ("string", False),
        "date": ("string", False),
        "date_from": ("string", False),
        "date_to": ("string", False),
    },
    "quote_session": {
        "room_id": ("string", True),
        "date": ("string", True),
        "start": ("string", True),
        "hours": ("integer", True),
        "client_id": ("string", False),
        "engineer_id": ("string", False),
        "equipment": ("array", False),
        "use_block": ("boolean", False),
        "party_size": ("integer", False),
    },
    "book_session": {
        "client_id": ("string", True),
        "room_id": ("string", True),
        "date": ("string", True),
        "start": ("string", True),
        "hours": ("integer", True),
        "party_size": ("integer", True),
        "engineer_id": ("string", False),
        "equipment": ("array", False),
        "use_block": ("boolean", False),
    },
    "reschedule_session": {
        "session_id": ("string", True),
        "date": ("string", False),
        "start": ("string", False),
        "hours": ("integer", False),
        "room_id": ("string", False),
        "engineer_id": ("string", False),
    },
    "cancel_session": {"session_id": ("string", True), "reason": ("string", True)},
    "check_in_session": {"session_id": ("string", True)},
    "add_equipment": {"session_id": ("string", True), "equipment_id": ("string", True), "quantity": ("integer", True)},
    "buy_package": {"client_id": ("string", True), "package_id": ("string", True), "method": ("string", False)},
    "settle_session": {"session_id": ("string", True), "method": ("string", False)},
}

_TYPE_CHECK = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}
_TYPE_WORD = {
    "string": "a string",
    "integer": "an integer",
    "boolean": "true or false",
    "array": "an array",
    "object": "an object",
}


class Desk:
    def __init__(self):
        self._s = {}

    # ------------------------------------------------------------ harness
    def reset(self, state):
        self._s = copy.deepcopy(state)
        for key in ("clients", "rooms", "engineers", "equipment", "packages", "sessions"):
            self._s.setdefault(key, {})

    def state(self):
        return copy.deepcopy(self._s)

    def call(self, name, arguments):
        if not isinstance(name, str) or name not in TOOLS:
            return {"ok": False, "output": "Unknown tool '%s'." % (name,)}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be a JSON object."}
        spec = TOOLS[name]
        args = {}
        for key, value in arguments.items():
            if key not in spec:
                return {"ok": False, "output": "Unknown parameter '%s' for %s." % (key, name)}
            if value is None:
                continue
            ptype = spec[key][0]
            if not _TYPE_CHECK[ptype](value):
                return {"ok": False, "output": "Parameter '%s' must be %s." % (key, _TYPE_WORD[ptype])}
            args[key] = value
        for key, (ptype, required) in spec.items():
            if required and key not in args:
                return {"ok": False, "output": "Missing required parameter '%s'." % key}
        snapshot = copy.deepcopy(self._s)
        try:
            out = getattr(self, "_t_" + name)(args)
        except Refusal as exc:
            self._s = snapshot
            return {"ok": False, "output": str(exc)}
        except Exception as exc:  # never raise to the caller
            self._s = snapshot
            return {"ok": False, "output": "Request could not be processed: %s" % exc}
        return {"ok": True, "output": out}

    # ------------------------------------------------------------ lookups
    def _client(self, cid):
        c = self._s["clients"].get(cid)
        if c is None:
            raise Refusal("Client %s not found." % cid)
        return c

    def _room(self, rid):
        r = self._s["rooms"].get(rid)
        if r is None:
            raise Refusal("Room %s not found." % rid)
        return r

    def _engineer(self, eid):
        e = self._s["engineers"].get(eid)
        if e is None:
            raise Refusal("Engineer %s not found." % eid)
        return e

    def _item(self, qid):
        q = self._s["equipment"].get(qid)
        if q is None:
            raise Refusal("Equipment item %s not found." % qid)
        return q

    def _session(self, sid):
        s = self._s["sessions"].get(sid)
        if s is None:
            raise Refusal("Session %s not found." % sid)
        return s

    # ------------------------------------------------------------ parsing
    @staticmethod
    def _date(value, field="date"):
        if not _DATE_RE.match(value):
            raise Refusal("Parameter '%s' must be a date in YYYY-MM-DD form, got '%s'." % (field, value))
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            raise Refusal("'%s' is not a valid calendar date." % value)

    @staticmethod
    def _start(value):
        m = _TIME_RE.match(value)
        if not m:
            raise Refusal("Parameter 'start' must be a time in HH:MM form, got '%s'." % value)
        hour, minute = int(m.group(1)), int(m.group(2))
        if minute != 0 or hour < OPEN_HOUR or hour > LAST_START_HOUR:
            raise Refusal(
                "Sessions start on the hour between %s and %s; got %s."
                % (hhmm(OPEN_HOUR), hhmm(LAST_START_HOUR), value)
            )
        return hour

    @staticmethod
    def _check_hours(hours, start_hour, room):
        if hours < 1 or hours > MAX_HOURS:
            raise Refusal("Hours must be between 1 and %d." % MAX_HOURS)
        if hours < room["min_hours"]:
            raise Refusal("%s has a %d-hour minimum; %d requested." % (room["name"], room["min_hours"], hours))
        if start_hour + hours > CLOSE_HOUR:
            raise Refusal(
                "A %d-hour session from %s would end at %02d:00; the building closes at 24:00."
                % (hours, hhmm(start_hour), start_hour + hours)
            )

    @staticmethod
    def _check_window(day):
        if day < BUSINESS_DATE:
            raise Refusal("%s is in the past; today is %s." % (day.isoformat(), BUSINESS_DATE.isoformat()))
        last = BUSINESS_DATE + datetime.timedelta(days=HORIZON_DAYS)
        if day > last:
            raise Refusal(
                "The diary is open %d days ahead (to %s); %s is too far out."
                % (HORIZON_DAYS, last.isoformat(), day.isoformat())
            )

    # ------------------------------------------------------------ pricing
    @staticmethod
    def _day_type(day):
        if day.isoformat() in HOLIDAYS:
            return "holiday"
        if day.weekday() >= 5:
            return "weekend"
        return "weekday"

    def _room_hire(self, room, day, start_hour, hours):
        dtype = self._day_type(day)
        off = peak = 0
        for h in range(start_hour, start_hour + hours):
            if dtype == "weekday" and h < PEAK_FROM_HOUR:
                off += 1
            else:
                peak += 1
        rates = room["rates"]
        amount = D(rates["off_peak"]) * off + D(rates["peak"]) * peak
        return amount, {
            "off_peak_hours": off,
            "peak_hours": peak,
            "off_peak_rate": money(rates["off_peak"]),
            "peak_rate": money(rates["peak"]),
        }

    def _price(self, room, day, start_hour, hours, tier, engineer, lines, block):
        hire, breakdown = self._room_hire(room, day, start_hour, hours)
        hire = D(money(hire))
        if block:
            discount = Decimal("0")
            cover = hire
        else:
            discount = D(money(hire * TIER_DISCOUNT.get(tier, Decimal("0"))))
            cover = Decimal("0")
        eng = D(money(D(engineer["hourly_rate"]) * hours)) if engineer else Decimal("0")
        equip = Decimal("0")
        for line in lines:
            equip += D(line["line_total"])
        total = hire - discount - cover + eng + equip
        pricing = {
            "room_hire": money(hire),
            "tier_discount": money(discount),
            "block_cover": money(cover),
            "engineer": money(eng),
            "equipment": money(equip),
            "total": money(total),
        }
        return pricing, breakdown

    # ------------------------------------------------------------ conflicts
    @staticmethod
    def _span(sess):
        h = int(sess["start"][:2])
        return h, h + sess["hours"]

    def _overlapping(self, day_iso, start_hour, end_hour, exclude=None):
        for sid in sorted(self._s["sessions"]):
            sess = self._s["sessions"][sid]
            if sid == exclude or sess["status"] not in ACTIVE or sess["date"] != day_iso:
                continue
            s, e = self._span(sess)
            if s < end_hour and start_hour < e:
                yield sid, sess

    def _equipment_free(self, qid, day_iso, start_hour, end_hour, exclude=None):
        item = self._s["equipment"][qid]
        if item.get("status") != "active":
            return 0
        used = 0
        # peak concurrent use inside the window, hour by hour
        for h in range(start_hour, end_hour):
            in_use = 0
            for sid, sess in self._overlapping(day_iso, h, h + 1, exclude):
                for line in sess.get("equipment", []):
                    if line["equipment_id"] == qid:
                        in_use += line["quantity"]
            used = max(used, in_use)
        return max(0, item["stock"] - used)

    # ------------------------------------------------------------ validation pieces
    def _resolve_engineer(self, room, eid, day):
        if room["type"] == "recording":
            if not eid:
                raise Refusal("%s is a recording room and needs a house engineer; pass engineer_id." % room["name"])
            eng = self._engineer(eid)
            if eng["status"] != "active":
                raise Refusal("Engineer %s (%s) is on leave." % (eid, eng["name"]))
            if room["room_id"] not in eng["rooms"]:
                raise Refusal("Engineer %s (%s) is not rostered for %s." % (eid, eng["name"], room["name"]))
            if day.isoformat() in eng.get("days_off", []):
                raise Refusal("Engineer %s (%s) is off on %s." % (eid, eng["name"], day.isoformat()))
            return eng
        if eid:
            raise Refusal("Rehearsal rooms are self-run; engineers can't be attached to %s." % room["name"])
        return None

    def _resolve_lines(self, room, items):
        merged = {}
        order = []
        for entry in items or []:
            if not isinstance(entry, dict):
                raise Refusal("Each equipment line must be an object with equipment_id and quantity.")
            qid = entry.get("equipment_id")
            qty = entry.get("quantity", 1)
            extra = set(entry) - {"equipment_id", "quantity"}
            if extra:
                raise Refusal("Unknown field '%s' in equipment line." % sorted(extra)[0])
            if not isinstance(qid, str):
                raise Refusal("Each equipment line needs an equipment_id string.")
            if not isinstance(qty, int) or isinstance(qty, bool) or qty < 1:
                raise Refusal("Equipment quantity must be a whole number of at least 1.")
            item = self._item(qid)
            if item["status"] != "active":
                raise Refusal("%s (%s) is withdrawn from hire." % (qid, item["name"]))
            if room["type"] not in item["room_types"]:
                raise Refusal(
                    "%s (%s) can only be hired with %s rooms." % (qid, item["name"], " or ".join(item["room_types"]))
                )
            if qid not in merged:
                order.append(qid)
                merged[qid] = 0
            merged[qid] += qty
        lines = []
        for qid in order:
            item = self._s["equipment"][qid]
            if merged[qid] > item["stock"]:
                raise Refusal(
                    "Only %d x %s (%s) are held in stock; %d requested."
                    % (item["stock"], qid, item["name"], merged[qid])
                )
            lines.append(
                {
                    "equipment_id": qid,
                    "quantity": merged[qid],
                    "unit_fee": money(item["fee"]),
                    "line_total": money(D(item["fee"]) * merged[qid]),
                }
            )
        return lines

    def _find_block(self, client, room_type, hours, day):
        blocks = [b for b in client.get("packages", []) if b["room_type"] == room_type]
        if not blocks:
            raise Refusal("%s holds no %s block hours." % (client["name"], room_type))
        live = [b for b in blocks if b["hours_left"] > 0 and b["expires"] >= day.isoformat()]
        if not live:
            b = sorted(blocks, key=lambda x: x["expires"])[-1]
            if b["hours_left"] > 0:
                raise Refusal(
                    "Block %s expires %s, before the session date %s." % (b["block_id"], b["expires"], day.isoformat())
                )
            raise Refusal("%s has no %s block hours left." % (client["name"], room_type))
        live.sort(key=lambda x: (x["expires"], x["block_id"]))
        for b in live:
            if b["hours_left"] >= hours:
                return b
        b = live[0]
        raise Refusal(
            "Block hours must cover the whole session: %s has %d h left, the session needs %d h."
            % (b["block_id"], b["hours_left"], hours)
        )

    def _check_free(self, room, day_iso, start_hour, end_hour, engineer, lines, exclude=None):
        for sid, sess in self._overlapping(day_iso, start_hour, end_hour, exclude):
            if sess["room_id"] == room["room_id"]:
                raise Refusal(
                    "%s is already booked %s-%s on %s (%s)." % (room["name"], sess["start"], sess["end"], day_iso, sid)
                )
        if engineer:
            for sid, sess in self._overlapping(day_iso, start_hour, end_hour, exclude):
                if sess.get("engineer_id") == engineer["engineer_id"]:
                    raise Refusal(
                        "Engineer %s (%s) is already working %s-%s on %s (%s)."
                        % (engineer["engineer_id"], engineer["name"], sess["start"], sess["end"], day_iso, sid)
                    )
        for line in lines:
            free = self._equipment_free(line["equipment_id"], day_iso, start_hour, end_hour, exclude)
            if free < line["quantity"]:
                item = self._s["equipment"][line["equipment_id"]]
                raise Refusal(
                    "Only %d x %s (%s) free %s-%s on %s; %d requested."
                    % (
                        free,
                        item["equipment_id"],
                        item["name"],
                        hhmm(start_hour),
                        "%02d:00" % end_hour,
                        day_iso,
                        line["quantity"],
                    )
                )

    def _client_can_transact(self, client):
        if client["status"] != "active":
            raise Refusal(
                "Account %s (%s) is %s; no new business can be taken."
                % (client["client_id"], client["name"], client["status"])
            )
        if D(client.get("balance_due", 0)) > 0:
            raise Refusal(
                "Account %s (%s) has an overdue balance of %s; it must be cleared first."
                % (client["client_id"], client["name"], gbp(client["balance_due"]))
            )

    def _collect(self, client, amount, method, what):
        """Take amount from the client. Returns dict of sources. Raises if it can't."""
        amount = D(money(amount))
        charged = {"credit": 0.0, "card": 0.0, "cash": 0.0}
        if amount <= 0:
            return charged
        if method == "cash":
            charged["cash"] = money(amount)
            return charged
        credit = D(client.get("credit", 0))
        card = client.get("card_on_file")
        if method == "card":
            if not card:
                raise Refusal(
                    "No card on file for %s; %s of %s can't be charged to card." % (client["name"], what, gbp(amount))
                )
            charged["card"] = money(amount)
            return charged
        use_credit = min(credit, amount)
        rest = amount - use_credit
        if rest > 0 and not card:
            raise Refusal(
                "%s of %s can't be collected: account credit is %s and there is no card on file."
                % (what[:1].upper() + what[1:], gbp(amount), gbp(credit))
            )
        client["credit"] = money(credit - use_credit)
        charged["credit"] = money(use_credit)
        charged["card"] = money(rest)
        return charged

    @staticmethod
    def _log(sess, event, detail):
        sess.setdefault("history", []).append({"date": BUSINESS_DATE.isoformat(), "event": event, "detail": detail})

    @staticmethod
    def _record_payments(sess, charged, note):
        for src in ("credit", "card", "cash"):
            if charged[src] > 0:
                sess.setdefault("payments", []).append(
                    {"date": BUSINESS_DATE.isoformat(), "method": src, "amount": charged[src], "note": note}
                )
        paid = D(sess.get("amount_paid", 0)) + D(charged["credit"]) + D(charged["card"]) + D(charged["cash"])
        sess["amount_paid"] = money(paid)

    # ------------------------------------------------------------ planning
    def _plan(self, args, client, booking, exclude=None):
        room = self._room(args["room_id"])
        if room["status"] != "open":
            raise Refusal("%s (%s) is closed for maintenance." % (room["name"], room["room_id"]))
        day = self._date(args["date"])
        self._check_window(day)
        start_hour = self._start(args["start"])
        hours = args["hours"]
        self._check_hours(hours, start_hour, room)
        party = args.get("party_size")
        if party is not None:
            if party < 1:
                raise Refusal("Party size must be at least 1.")
            if party > room["capacity"]:
                raise Refusal("%s holds %d people; party of %d requested." % (room["name"], room["capacity"], party))
        engineer = self._resolve_engineer(room, args.get("engineer_id"), day)
        lines = self._resolve_lines(room, args.get("equipment"))
        block = None
        if args.get("use_block"):
            if client is None:
                raise Refusal("use_block needs a client_id.")
            block = self._find_block(client, room["type"], hours, day)
        if booking:
            self._check_free(room, day.isoformat(), start_hour, start_hour + hours, engineer, lines, exclude)
        tier = client["tier"] if client else "standard"
        pricing, breakdown = self._price(room, day, start_hour, hours, tier, engineer, lines, block)
        deposit = money(D(pricing["total"]) * DEPOSIT_RATE.get(tier, Decimal("0.25")))
        return {
            "room": room,
            "day": day,
            "start_hour": start_hour,
            "hours": hours,
            "engineer": engineer,
            "lines": lines,
            "block": block,
            "pricing": pricing,
            "breakdown": breakdown,
            "deposit": deposit,
        }

    # ------------------------------------------------------------ tools: reads
    def _t_search_clients(self, a):
        q = a["query"].strip().lower()
        if len(q) < 2:
            raise Refusal("Search query must be at least 2 characters.")
        if "tier" in a and a["tier"] not in TIERS:
            raise Refusal("Unknown tier '%s'; use one of %s." % (a["tier"], ", ".join(TIERS)))
        if "status" in a and a["status"] not in ("active", "suspended"):
            raise Refusal("Unknown account status '%s'; use active or suspended." % a["status"])
        hits = []
        for cid in sorted(self._s["clients"]):
            c = self._s["clients"][cid]
            hay = " ".join([c["name"], c.get("contact", ""), c.get("email", ""), c.get("phone", "")]).lower()
            if q not in hay:
                continue
            if "tier" in a and c["tier"] != a["tier"]:
                continue
            if "status" in a and c["status"] != a["status"]:
                continue
            hits.append(
                {
                    "client_id": cid,
                    "name": c["name"],
                    "kind": c["kind"],
                    "contact": c["contact"],
                    "email": c["email"],
                    "tier": c["tier"],
                    "status": c["status"],
                }
            )
        hits.sort(key=lambda x: (x["name"].lower(), x["client_id"]))
        return {"count": len(hits), "clients": hits}

    def _t_get_client(self, a):
        c = copy.deepcopy(self._client(a["client_id"]))
        upcoming = []
        for sid in sorted(self._s["sessions"]):
            s = self._s["sessions"][sid]
            if s["client_id"] == c["client_id"] and s["status"] in ACTIVE and s["date"] >= BUSINESS_DATE.isoformat():
                upcoming.append((s["date"], s["start"], sid))
        c["upcoming_sessions"] = [x[2] for x in sorted(upcoming)]
        return c

    def _t_get_availability(self, a):
        day = self._date(a["date"])
        rtype = a.get("room_type")
        if rtype is not None and rtype not in ROOM_TYPES:
            raise Refusal("Unknown room_type '%s'; use rehearsal or recording." % rtype)
        window = None
        if ("start" in a) != ("hours" in a):
            raise Refusal("Give start and hours together to check a time window.")
        if "start" in a:
            sh = self._start(a["start"])
            if a["hours"] < 1 or a["hours"] > MAX_HOURS:
                raise Refusal("Hours must be between 1 and %d." % MAX_HOURS)
            if sh + a["hours"] > CLOSE_HOUR:
                raise Refusal("The window would end after 24:00, when the building closes.")
            window = (sh, sh + a["hours"])
        iso = day.isoformat()
        booked_by_room = {}
        booked_by_eng = {}
        for sid, sess in self._overlapping(iso, OPEN_HOUR, CLOSE_HOUR):
            slot = {"session_id": sid, "start": sess["start"], "end": sess["end"]}
            booked_by_room.setdefault(sess["room_id"], []).append(slot)
            if sess.get("engineer_id"):
                booked_by_eng.setdefault(sess["engineer_id"], []).append(dict(slot, room_id=sess["room_id"]))
        rooms = []
        for rid in sorted(self._s["rooms"]):
            r = self._s["rooms"][rid]
            if rtype and r["type"] != rtype:
                continue
            booked = sorted(booked_by_room.get(rid, []), key=lambda x: x["start"])
            entry = {
                "room_id": rid,
                "name": r["name"],
                "type": r["type"],
                "capacity": r["capacity"],
                "min_hours": r["min_hours"],
                "rates": copy.deepcopy(r["rates"]),
                "status": r["status"],
                "booked": booked,
            }
            if window:
                clash = any(int(b["start"][:2]) < window[1] and window[0] < int(b["end"][:2]) for b in booked)
                entry["free"] = r["status"] == "open" and not clash
            rooms.append(entry)
        engineers = []
        if rtype != "rehearsal":
            for eid in sorted(self._s["engineers"]):
                e = self._s["engineers"][eid]
                on_duty = e["status"] == "active" and iso not in e.get("days_off", [])
                booked = sorted(booked_by_eng.get(eid, []), key=lambda x: x["start"])
                entry = {
                    "engineer_id": eid,
                    "name": e["name"],
                    "rooms": list(e["rooms"]),
                    "hourly_rate": money(e["hourly_rate"]),
                    "on_duty": on_duty,
                    "booked": booked,
                }
                if window:
                    clash = any(int(b["start"][:2]) < window[1] and window[0] < int(b["end"][:2]) for b in booked)
                    entry["free"] = on_duty and not clash
                engineers.append(entry)
        equipment = []
        span = window or (OPEN_HOUR, CLOSE_HOUR)
        for qid in sorted(self._s["equipment"]):
            q = self._s["equipment"][qid]
            if rtype and rtype not in q["room_types"]:
                continue
            equipment.append(
                {
                    "equipment_id": qid,
                    "name": q["name"],
                    "category": q["category"],
                    "fee": money(q["fee"]),
                    "stock": q["stock"],
                    "room_types": list(q["room_types"]),
                    "status": q["status"],
                    "available": self._equipment_free(qid, iso, span[0], span[1]),
                }
            )
        out = {"date": iso, "day_type": self._day_type(day)}
        if window:
            out["window"] = {"start": hhmm(window[0]), "end": "%02d:00" % window[1]}
        out.update({"rooms": rooms, "engineers": engineers, "equipment": equipment})
        return out

    def _t_list_sessions(self, a):
        if "status" in a and a["status"] not in STATUSES:
            raise Refusal("Unknown status '%s'; use one of %s." % (a["status"], ", ".join(STATUSES)))
        for key in ("date", "date_from", "date_to"):
            if key in a:
                self._date(a[key], key)
        if "date_from" in a and "date_to" in a and a["date_from"] > a["date_to"]:
            raise Refusal("date_from is after date_to.")
        rows = []
        for sid in sorted(self._s["sessions"]):
            s = self._s["sessions"][sid]
            if "client_id" in a and s["client_id"] != a["client_id"]:
                continue
            if "room_id" in a and s["room_id"] != a["room_id"]:
                continue
            if "engineer_id" in a and s.get("engineer_id") != a["engineer_id"]:
                continue
            if "status" in a and s["status"] != a["status"]:
                continue
            if "date" in a and s["date"] != a["date"]:
                continue
            if "date_from" in a and s["date"] < a["date_from"]:
                continue
            if "date_to" in a and s["date"] > a["date_to"]:
                continue
            rows.append(
                {
                    "session_id": sid,
                    "client_id": s["client_id"],
                    "room_id": s["room_id"],
                    "date": s["date"],
                    "start": s["start"],
                    "end": s["end"],
                    "hours": s["hours"],
                    "engineer_id": s.get("engineer_id"),
                    "status": s["status"],
                    "total": s["pricing"]["total"],
                    "amount_paid": s["amount_paid"],
                }
            )
        rows.sort(key=lambda r: (r["date"], r["start"], r["session_id"]))
        return {"count": len(rows), "sessions": rows}

    def _t_quote_session(self, a):
        client = self._client(a["client_id"]) if "client_id" in a else None
        p = self._plan(a, client, booking=False)
        return {
            "room_id": p["room"]["room_id"],
            "date": p["day"].isoformat(),
            "day_type": self._day_type(p["day"]),
            "start": hhmm(p["start_hour"]),
            "end": "%02d:00" % (p["start_hour"] + p["hours"]),
            "hours": p["hours"],
            "client_id": client["client_id"] if client else None,
            "tier": client["tier"] if client else "standard",
            "engineer_id": p["engineer"]["engineer_id"] if p["engineer"] else None,
            "rate_breakdown": p["breakdown"],
            "equipment": p["lines"],
            "block_id": p["block"]["block_id"] if p["block"] else None,
            "pricing": p["pricing"],
            "deposit": p["deposit"],
        }

    # ------------------------------------------------------------ tools: writes
    def _next_id(self, prefix, ids):
        nums = [int(i.split("-")[-1]) for i in ids if i.startswith(prefix) and i.split("-")[-1].isdigit()]
        return "%s%d" % (prefix, (max(nums) + 1) if nums else 1)

    def _t_book_session(self, a):
        client = self._client(a["client_id"])
        self._client_can_transact(client)
        p = self._plan(a, client, booking=True)
        sid = self._next_id("SES-", self._s["sessions"].keys())
        end_hour = p["start_hour"] + p["hours"]
        sess = {
            "session_id": sid,
            "client_id": client["client_id"],
            "room_id": p["room"]["room_id"],
            "date": p["day"].isoformat(),
            "start": hhmm(p["start_hour"]),
            "end": "%02d:00" % end_hour,
            "hours": p["hours"],
            "party_size": a["party_size"],
            "engineer_id": p["engineer"]["engineer_id"] if p["engineer"] else None,
            "equipment": p["lines"],
            "block_id": None,
            "block_hours": 0,
            "pricing": p["pricing"],
            "deposit": p["deposit"],
            "amount_paid": 0.0,
            "payments": [],
            "status": "confirmed",
            "reschedule_count": 0,
            "history": [],
        }
        charged = self._collect(client, p["deposit"], "account", "the deposit")
        if p["block"]:
            p["block"]["hours_left"] -= p["hours"]
            sess["block_id"] = p["block"]["block_id"]
            sess["block_hours"] = p["hours"]
        self._record_payments(sess, charged, "deposit")
        detail = "%s %s-%s %s, %d h" % (sess["date"], sess["start"], sess["end"], sess["room_id"], p["hours"])
        if sess["block_id"]:
            detail += ", %d block hours from %s" % (p["hours"], sess["block_id"])
        self._log(sess, "booked", detail)
        self._s["sessions"][sid] = sess
        return copy.deepcopy(sess)

    def _t_reschedule_session(self, a):
        sess = self._session(a["session_id"])
        if sess["status"] != "confirmed":
            raise Refusal(
                "Only confirmed sessions can be rescheduled; %s is %s." % (sess["session_id"], sess["status"])
            )
        changes = [k for k in ("date", "start", "hours", "room_id", "engineer_id") if k in a]
        if not changes:
            raise Refusal("Nothing to change: give at least one of date, start, hours, room_id, engineer_id.")
        old_day = datetime.date.fromisoformat(sess["date"])
        if (old_day - BUSINESS_DATE).days < 2:
            raise Refusal(
                "%s starts within 2 days (%s) and can no longer be moved; it can only be cancelled."
                % (sess["session_id"], sess["date"])
            )
        if sess.get("reschedule_count", 0) >= MAX_RESCHEDULES:
            raise Refusal(
                "%s has already been rescheduled %d times; make a new booking instead."
                % (sess["session_id"], MAX_RESCHEDULES)
            )
        client = self._client(sess["client_id"])
        old_room = self._room(sess["room_id"])
        if "room_id" in a:
            new_room = self._room(a["room_id"])
            if new_room["type"] != old_room["type"]:
                raise Refusal(
                    "Sessions can only move between rooms of the same type (%s is %s, %s is %s)."
                    % (old_room["room_id"], old_room["type"], new_room["room_id"], new_room["type"])
                )
        plan_args = {
            "room_id": a.get("room_id", sess["room_id"]),
            "date": a.get("date", sess["date"]),
            "start": a.get("start", sess["start"]),
            "hours": a.get("hours", sess["hours"]),
            "party_size": sess.get("party_size"),
            "engineer_id": a.get("engineer_id", sess.get("engineer_id")),
            "equipment": [
                {"equipment_id": l["equipment_id"], "quantity": l["quantity"]} for l in sess.get("equipment", [])
            ],
        }
        room_for_eng = self._room(plan_args["room_id"])
        if "engineer_id" in a and room_for_eng["type"] != "recording":
            raise Refusal("Rehearsal rooms are self-run; engineers can't be attached to %s." % room_for_eng["name"])
        p = self._plan(plan_args, client, booking=True, exclude=sess["session_id"])
        block = None
        if sess.get("block_id"):
            block = next((b for b in client.get("packages", []) if b["block_id"] == sess["block_id"]), None)
            if block is None:
                raise Refusal("Block %s is no longer on the account." % sess["block_id"])
            if block["expires"] < p["day"].isoformat():
                raise Refusal(
                    "Block %s expires %s, before the new date %s."
                    % (block["block_id"], block["expires"], p["day"].isoformat())
                )
            delta = p["hours"] - sess["block_hours"]
            if delta > block["hours_left"]:
                raise Refusal(
                    "Block hours must cover the whole session: %s has %d h left, %d more needed."
                    % (block["block_id"], block["hours_left"], delta)
                )
            pricing, _ = self._price(
                p["room"], p["day"], p["start_hour"], p["hours"], client["tier"], p["engineer"], p["lines"], block
            )
            block["hours_left"] -= delta
            sess["block_hours"] = p["hours"]
        else:
            pricing = p["pricing"]
        before = "%s %s-%s %s" % (sess["date"], sess["start"], sess["end"], sess["room_id"])
        end_hour = p["start_hour"] + p["hours"]
        sess.update(
            {
                "room_id": p["room"]["room_id"],
                "date": p["day"].isoformat(),
                "start": hhmm(p["start_hour"]),
                "end": "%02d:00" % end_hour,
                "hours": p["hours"],
                "engineer_id": p["engineer"]["engineer_id"] if p["engineer"] else None,
                "equipment": p["lines"],
                "pricing": pricing,
            }
        )
        sess["reschedule_count"] = sess.get("reschedule_count", 0) + 1
        after = "%s %s-%s %s" % (sess["date"], sess["start"], sess["end"], sess["room_id"])
        self._log(sess, "rescheduled", "%s -> %s" % (before, after))
        return copy.deepcopy(sess)

    def _t_cancel_session(self, a):
        sess = self._session(a["session_id"])
        reason = a["reason"].strip()
        if sess["status"] == "checked_in":
            raise Refusal("%s is checked in and can't be cancelled; settle it instead." % sess["session_id"])
        if sess["status"] != "confirmed":
            raise Refusal("%s is %s; only confirmed sessions can be cancelled." % (sess["session_id"], sess["status"]))
        if not reason:
            raise Refusal("A cancellation reason is required.")
        client = self._client(sess["client_id"])
        notice = (datetime.date.fromisoformat(sess["date"]) - BUSINESS_DATE).days
        total = D(sess["pricing"]["total"])
        if notice >= 7:
            fee = Decimal("0")
            band = "7+ days"
        elif notice >= 2:
            fee = Decimal("0") if client["tier"] == "pro" else D(money(total * Decimal("0.25")))
            band = "2-6 days"
        else:
            fee = D(money(total * Decimal("0.50")))
            band = "under 2 days"
        paid = D(sess.get("amount_paid", 0))
        refund = Decimal("0")
        charged = {"credit": 0.0, "card": 0.0, "cash": 0.0}
        to_balance = Decimal("0")
        if paid > fee:
            refund = paid - fee
            client["credit"] = money(D(client.get("credit", 0)) + refund)
            sess.setdefault("payments", []).append(
                {
                    "date": BUSINESS_DATE.isoformat(),
                    "method": "refund_credit",
                    "amount": money(-refund),
                    "note": "cancellation refund",
                }
            )
            sess["amount_paid"] = money(paid - refund)
        elif fee > paid:
            owed = fee - paid
            credit = D(client.get("credit", 0))
            use_credit = min(credit, owed)
            rest = owed - use_credit
            client["credit"] = money(credit - use_credit)
            charged["credit"] = money(use_credit)
            if rest > 0 and client.get("card_on_file"):
                charged["card"] = money(rest)
            elif rest > 0:
                to_balance = rest
                client["balance_due"] = money(D(client.get("balance_due", 0)) + rest)
            self._record_payments(sess, charged, "cancellation fee")
        restored = 0
        if sess.get("block_id") and sess.get("block_hours"):
            if notice >= 2:
                block = next((b for b in client.get("packages", []) if b["block_id"] == sess["block_id"]), None)
                if block is not None:
                    block["hours_left"] += sess["block_hours"]
                    restored = sess["block_hours"]
        sess["status"] = "cancelled"
        sess["cancellation"] = {
            "date": BUSINESS_DATE.isoformat(),
            "notice_days": notice,
            "reason": reason,
            "fee": money(fee),
        }
        self._log(sess, "cancelled", "%s notice (%d days), fee %s: %s" % (band, notice, gbp(fee), reason))
        return {
            "session_id": sess["session_id"],
            "status": "cancelled",
            "notice_days": notice,
            "fee": money(fee),
            "refunded_to_credit": money(refund),
            "charged": charged,
            "added_to_balance_due": money(to_balance),
            "block_hours_restored": restored,
            "client_credit": money(client.get("credit", 0)),
        }

    def _t_check_in_session(self, a):
        sess = self._session(a["session_id"])
        if sess["status"] != "confirmed":
            raise Refusal("Only confirmed sessions can be checked in; %s is %s." % (sess["session_id"], sess["status"]))
        if sess["date"] != BUSINESS_DATE.isoformat():
            raise Refusal(
                "%s is booked for %s; check-in is only possible on the day (%s)."
                % (sess["session_id"], sess["date"], BUSINESS_DATE.isoformat())
            )
        client = self._client(sess["client_id"])
        if client["status"] != "active":
            raise Refusal(
                "Account %s (%s) is %s; the session can't start."
                % (client["client_id"], client["name"], client["status"])
            )
        if D(client.get("balance_due", 0)) > 0:
            raise Refusal(
                "Account %s (%s) has an overdue balance of %s; clear it before check-in."
                % (client["client_id"], client["name"], gbp(client["balance_due"]))
            )
        sess["status"] = "checked_in"
        self._log(sess, "checked_in", "arrived, %s %s" % (sess["room_id"], sess["start"]))
        return copy.deepcopy(sess)

    def _t_add_equipment(self, a):
        sess = self._session(a["session_id"])
        if sess["status"] not in ACTIVE:
            raise Refusal(
                "Equipment can only be added to confirmed or checked-in sessions; %s is %s."
                % (sess["session_id"], sess["status"])
            )
        qty = a["quantity"]
        if qty < 1:
            raise Refusal("Equipment quantity must be a whole number of at least 1.")
        room = self._room(sess["room_id"])
        item = self._item(a["equipment_id"])
        if item["status"] != "active":
            raise Refusal("%s (%s) is withdrawn from hire." % (item["equipment_id"], item["name"]))
        if room["type"] not in item["room_types"]:
            raise Refusal(
                "%s (%s) can only be hired with %s rooms."
                % (item["equipment_id"], item["name"], " or ".join(item["room_types"]))
            )
        s, e = self._span(sess)
        free = self._equipment_free(item["equipment_id"], sess["date"], s, e, exclude=sess["session_id"])
        have = sum(l["quantity"] for l in sess.get("equipment", []) if l["equipment_id"] == item["equipment_id"])
        if free - have < qty:
            raise Refusal(
                "Only %d x %s (%s) free %s-%s on %s; %d requested."
                % (
                    max(0, free - have),
                    item["equipment_id"],
                    item["name"],
                    sess["start"],
                    sess["end"],
                    sess["date"],
                    qty,
                )
            )
        line = next((l for l in sess["equipment"] if l["equipment_id"] == item["equipment_id"]), None)
        if line is None:
            line = {
                "equipment_id": item["equipment_id"],
                "quantity": 0,
                "unit_fee": money(item["fee"]),
                "line_total": 0.0,
            }
            sess["equipment"].append(line)
        line["quantity"] += qty
        line["line_total"] = money(D(line["unit_fee"]) * line["quantity"])
        equip = sum((D(l["line_total"]) for l in sess["equipment"]), Decimal("0"))
        pr = sess["pricing"]
        pr["equipment"] = money(equip)
        pr["total"] = money(
            D(pr["room_hire"]) - D(pr["tier_discount"]) - D(pr["block_cover"]) + D(pr["engineer"]) + equip
        )
        self._log(sess, "equipment_added", "%d x %s (%s)" % (qty, item["equipment_id"], gbp(D(item["fee"]) * qty)))
        return copy.deepcopy(sess)

    def _t_buy_package(self, a):
        client = self._client(a["client_id"])
        self._client_can_transact(client)
        pkg = self._s["packages"].get(a["package_id"])
        if pkg is None:
            raise Refusal("Package %s not found." % a["package_id"])
        method = a.get("method", "account")
        if method not in METHODS:
            raise Refusal("Unknown payment method '%s'; use account, card or cash." % method)
        if client["tier"] not in pkg["tiers"]:
            raise Refusal(
                "%s is only sold to %s accounts; %s is %s."
                % (pkg["name"], " and ".join(pkg["tiers"]), client["client_id"], client["tier"])
            )
        for b in client.get("packages", []):
            if b["room_type"] == pkg["room_type"] and b["hours_left"] > 0 and b["expires"] >= BUSINESS_DATE.isoformat():
                raise Refusal(
                    "%s already holds an active %s block (%s, %d h left, expires %s)."
                    % (client["client_id"], pkg["room_type"], b["block_id"], b["hours_left"], b["expires"])
                )
        charged = self._collect(client, pkg["price"], method, "the package price")
        all_blocks = [b["block_id"] for c in self._s["clients"].values() for b in c.get("packages", [])]
        bid = self._next_id("BLK-", all_blocks)
        block = {
            "block_id": bid,
            "package_id": pkg["package_id"],
            "room_type": pkg["room_type"],
            "hours_total": pkg["hours"],
            "hours_left": pkg["hours"],
            "purchased": BUSINESS_DATE.isoformat(),
            "expires": (BUSINESS_DATE + datetime.timedelta(days=pkg["valid_days"])).isoformat(),
            "price": money(pkg["price"]),
        }
        client.setdefault("packages", []).append(block)
        return {
            "client_id": client["client_id"],
            "block": copy.deepcopy(block),
            "charged": charged,
            "client_credit": money(client.get("credit", 0)),
        }

    def _t_settle_session(self, a):
        sess = self._session(a["session_id"])
        if sess["status"] == "confirmed":
            raise Refusal("%s hasn't been checked in; only checked-in sessions can be settled." % sess["session_id"])
        if sess["status"] != "checked_in":
            raise Refusal("%s is %s; there is nothing to settle." % (sess["session_id"], sess["status"]))
        method = a.get("method", "account")
        if method not in METHODS:
            raise Refusal("Unknown payment method '%s'; use account, card or cash." % method)
        client = self._client(sess["client_id"])
        balance = D(sess["pricing"]["total"]) - D(sess.get("amount_paid", 0))
        charged = {"credit": 0.0, "card": 0.0, "cash": 0.0}
        refund = Decimal("0")
        if balance > 0:
            charged = self._collect(client, balance, method, "the balance")
            self._record_payments(sess, charged, "settlement")
        elif balance < 0:
            refund = -balance
            client["credit"] = money(D(client.get("credit", 0)) + refund)
            sess.setdefault("payments", []).append(
                {
                    "date": BUSINESS_DATE.isoformat(),
                    "method": "refund_credit",
                    "amount": money(-refund),
                    "note": "overpayment returned",
                }
            )
            sess["amount_paid"] = money(D(sess["amount_paid"]) - refund)
        sess["status"] = "completed"
        self._log(sess, "settled", "balance %s by %s" % (gbp(max(balance, Decimal("0"))), method))
        return {
            "session_id": sess["session_id"],
            "status": "completed",
            "total": sess["pricing"]["total"],
            "balance_collected": money(max(balance, Decimal("0"))),
            "charged": charged,
            "refunded_to_credit": money(refund),
            "client_credit": money(client.get("credit", 0)),
        }


def make():
    return Desk()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    calls = errors = 0
    desk = make()
    with open(os.path.join(here, "trajectories.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            desk.reset(data)
            for c in traj["calls"]:
                res = desk.call(c["name"], c.get("arguments", {}))
                calls += 1
                if not res["ok"]:
                    errors += 1
    print("calls: %d  errors: %d" % (calls, errors))
    return 0


if __name__ == "__main__":
    sys.exit(_main())
