"""Summit Ridge Fitness front desk: the real system behind openapi.yaml.

Written for forgegym. MIT License. Standard library only; deterministic (the desk's clock is
fixed at BUSINESS_NOW below; nothing reads the system clock).

    make() -> FrontDesk with reset(state), call(name, arguments), state()

`python adapter.py` replays every trajectory in trajectories.jsonl from data.json and prints
the number of calls and refused calls.
"""

import copy
import datetime as _dt
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_NOW = _dt.datetime(2025, 10, 8, 8, 0)
BUSINESS_DATE = BUSINESS_NOW.date()
LATE_CANCEL_HOURS = 12
CHECKIN_OPENS_MIN = 60
CHECKIN_CLOSES_MIN = 15
MAX_GUESTS_PER_BOOKING = 2
BALANCE_LIMIT = Decimal("-25.00")
FREEZE_MIN_MONTHS = 1
FREEZE_MAX_MONTHS = 3
FREEZE_DAYS_PER_MONTH = 30
DOWNGRADE_FEE = Decimal("10.00")
PACKAGE_SIZES = (5, 10, 20)
BULK_DISCOUNT = {5: Decimal("0"), 10: Decimal("5"), 20: Decimal("10")}
RENEWAL_DISCOUNT = Decimal("5")
TIER_ORDER = ("basic", "plus", "elite")
CATEGORIES = ("cycling", "yoga", "pilates", "strength", "hiit", "aquatic")
BOOKING_STATUSES = ("booked", "attended", "no_show", "cancelled")
QUOTE_TYPES = ("tier_change", "training_package")


class ToolError(Exception):
    pass


def _money(x):
    return float(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _d(x):
    return Decimal(str(x))


def _ts(dt):
    return dt.strftime("%Y-%m-%dT%H:%M")


def _parse_ts(s):
    return _dt.datetime.strptime(s, "%Y-%m-%dT%H:%M")


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


def _opt_int(args, key):
    v = args.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ToolError("parameter '%s' must be an integer" % key)
    return v


def _opt_bool(args, key, default=False):
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


class FrontDesk:
    def __init__(self):
        self.db = {"members": {}, "classes": {}, "bookings": {}, "training_packages": {}, "tiers": {}}

    # ------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "op_" + name, None) if isinstance(name, str) else None
        if fn is None:
            return {"ok": False, "output": "Error: unknown operation '%s'" % name}
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
    def _member(self, mid):
        m = self.db["members"].get(mid)
        if m is None:
            raise ToolError("member %s not found" % mid)
        return m

    def _class(self, cid):
        c = self.db["classes"].get(cid)
        if c is None:
            raise ToolError("class %s not found" % cid)
        return c

    def _booking(self, bid):
        b = self.db["bookings"].get(bid)
        if b is None:
            raise ToolError("booking %s not found" % bid)
        return b

    def _tier(self, member):
        return self.db["tiers"][member["tier"]]

    @staticmethod
    def _span(cls):
        start = _parse_ts(cls["start"])
        return start, start + _dt.timedelta(minutes=cls["duration_min"])

    def _upcoming(self, member_id):
        rows = []
        for bid in sorted(self.db["bookings"]):
            b = self.db["bookings"][bid]
            if b["member_id"] != member_id or b["status"] != "booked":
                continue
            cls = self.db["classes"][b["class_id"]]
            if _parse_ts(cls["start"]) > BUSINESS_NOW:
                rows.append(b)
        return rows

    def _history(self, member, event, note):
        member["history"].append({"date": BUSINESS_DATE.isoformat(), "event": event, "note": note})

    def _next_booking_id(self):
        nums = [int(k.split("-")[1]) for k in self.db["bookings"]]
        return "BK-%d" % (max(nums) + 1 if nums else 5001)

    def _new_booking(self, member_id, cls, source):
        bid = self._next_booking_id()
        b = {
            "booking_id": bid,
            "member_id": member_id,
            "class_id": cls["class_id"],
            "status": "booked",
            "booked_at": _ts(BUSINESS_NOW),
            "source": source,
            "guests": [],
            "checked_in_at": None,
            "cancelled_at": None,
            "late_cancel_fee": 0.0,
        }
        self.db["bookings"][bid] = b
        cls["booked_count"] += 1
        return b

    def _promote(self, cls):
        """Fill freed places from the class waitlist, first come first served."""
        promoted = []
        while cls["waitlist"] and cls["booked_count"] < cls["capacity"]:
            mid = cls["waitlist"].pop(0)
            b = self._new_booking(mid, cls, "waitlist")
            promoted.append(b["booking_id"])
        return promoted

    def _started(self, cls):
        return _parse_ts(cls["start"]) <= BUSINESS_NOW

    def _summary(self, cls):
        return {
            "class_id": cls["class_id"],
            "name": cls["name"],
            "category": cls["category"],
            "club": cls["club"],
            "studio": cls["studio"],
            "instructor": cls["instructor"],
            "start": cls["start"],
            "duration_min": cls["duration_min"],
            "capacity": cls["capacity"],
            "booked_count": cls["booked_count"],
            "spots_left": max(cls["capacity"] - cls["booked_count"], 0),
            "waitlist_count": len(cls["waitlist"]),
            "status": cls["status"],
        }

    # ------------------------------------------------------------ reads
    def op_getMember(self, args):
        m = self._member(_req_str(args, "member_id"))
        out = copy.deepcopy(m)
        out["training_packages"] = [
            copy.deepcopy(p)
            for pid, p in sorted(self.db["training_packages"].items())
            if p["member_id"] == m["member_id"]
        ]
        return out

    def op_getClass(self, args):
        cls = self._class(_req_str(args, "class_id"))
        out = copy.deepcopy(cls)
        out["spots_left"] = max(cls["capacity"] - cls["booked_count"], 0)
        return out

    def op_getBooking(self, args):
        return self._booking(_req_str(args, "booking_id"))

    def op_searchClasses(self, args):
        day = _opt_str(args, "date")
        day = _date(day, "date") if day is not None else None
        club = _opt_str(args, "club")
        studio = _opt_str(args, "studio")
        instructor = _opt_str(args, "instructor")
        category = _enum(_opt_str(args, "category"), "category", CATEGORIES)
        open_only = _opt_bool(args, "open_spots_only", False)
        rows = []
        for cid in sorted(self.db["classes"]):
            cls = self.db["classes"][cid]
            start = _parse_ts(cls["start"])
            if day is not None and start.date() != day:
                continue
            if club is not None and cls["club"].lower() != club.lower():
                continue
            if studio is not None and cls["studio"].lower() != studio.lower():
                continue
            if instructor is not None and instructor.lower() not in cls["instructor"].lower():
                continue
            if category is not None and cls["category"] != category:
                continue
            if open_only and (
                cls["status"] != "scheduled" or start <= BUSINESS_NOW or cls["booked_count"] >= cls["capacity"]
            ):
                continue
            rows.append(self._summary(cls))
        rows.sort(key=lambda r: (r["start"], r["class_id"]))
        return rows

    def op_listMemberBookings(self, args):
        m = self._member(_req_str(args, "member_id"))
        status = _enum(_opt_str(args, "status"), "status", BOOKING_STATUSES)
        upcoming = _opt_bool(args, "upcoming_only", False)
        rows = []
        for bid, b in self.db["bookings"].items():
            if b["member_id"] != m["member_id"]:
                continue
            if status is not None and b["status"] != status:
                continue
            cls = self.db["classes"][b["class_id"]]
            if upcoming and _parse_ts(cls["start"]) <= BUSINESS_NOW:
                continue
            rows.append(
                {
                    "booking_id": b["booking_id"],
                    "class_id": cls["class_id"],
                    "class_name": cls["name"],
                    "club": cls["club"],
                    "start": cls["start"],
                    "status": b["status"],
                    "guest_count": len(b["guests"]),
                }
            )
        rows.sort(key=lambda r: (r["start"], r["booking_id"]))
        return rows

    # ------------------------------------------------------------ quote
    def op_getQuote(self, args):
        m = self._member(_req_str(args, "member_id"))
        qtype = _enum(_req_str(args, "quote_type"), "quote_type", QUOTE_TYPES)
        if m["status"] == "cancelled":
            raise ToolError("membership %s is cancelled; quotes are only available to current members" % m["member_id"])
        tier = self._tier(m)
        if qtype == "tier_change":
            new_tier = _enum(_opt_str(args, "new_tier"), "new_tier", TIER_ORDER)
            if new_tier is None:
                raise ToolError("new_tier is required for a tier_change quote")
            if new_tier == m["tier"]:
                raise ToolError("member %s is already on the %s tier" % (m["member_id"], new_tier))
            if m["status"] == "frozen":
                raise ToolError(
                    "membership %s is frozen until %s; the tier can only be changed on an active membership"
                    % (m["member_id"], m["frozen_until"])
                )
            target = self.db["tiers"][new_tier]
            renewal = _dt.date.fromisoformat(m["renewal_date"])
            days = max((renewal - BUSINESS_DATE).days, 0)
            old_fee = _d(tier["monthly_fee"])
            new_fee = _d(target["monthly_fee"])
            if TIER_ORDER.index(new_tier) > TIER_ORDER.index(m["tier"]):
                direction = "upgrade"
                due = (new_fee - old_fee) * days / Decimal(30)
                effective = BUSINESS_DATE.isoformat()
            else:
                direction = "downgrade"
                due = DOWNGRADE_FEE
                effective = m["renewal_date"]
            return {
                "member_id": m["member_id"],
                "quote_type": "tier_change",
                "current_tier": m["tier"],
                "new_tier": new_tier,
                "direction": direction,
                "current_monthly_fee": _money(old_fee),
                "new_monthly_fee": _money(new_fee),
                "days_until_renewal": days,
                "due_today": _money(due),
                "effective_date": effective,
            }
        sessions = _opt_int(args, "sessions")
        if sessions is None:
            raise ToolError("sessions is required for a training_package quote")
        if sessions not in PACKAGE_SIZES:
            raise ToolError("training packages come in 5, 10 or 20 sessions (got %d)" % sessions)
        rate = _d(tier["pt_session_rate"])
        subtotal = rate * sessions
        renewal = any(
            p["member_id"] == m["member_id"]
            and p["sessions_left"] > 0
            and _dt.date.fromisoformat(p["expires"]) >= BUSINESS_DATE
            for p in self.db["training_packages"].values()
        )
        pct = BULK_DISCOUNT[sessions] + (RENEWAL_DISCOUNT if renewal else Decimal("0"))
        discount = _d(_money(subtotal * pct / Decimal(100)))
        return {
            "member_id": m["member_id"],
            "quote_type": "training_package",
            "tier": m["tier"],
            "sessions": sessions,
            "session_rate": _money(rate),
            "subtotal": _money(subtotal),
            "renewal_discount_applied": renewal,
            "discount_percent": float(pct),
            "discount": _money(discount),
            "total": _money(subtotal - discount),
        }

    # ------------------------------------------------------------ writes
    def op_bookClass(self, args):
        m = self._member(_req_str(args, "member_id"))
        cls = self._class(_req_str(args, "class_id"))
        waitlist = _opt_bool(args, "join_waitlist", False)
        if m["status"] != "active":
            raise ToolError("membership %s is %s; only active members can book classes" % (m["member_id"], m["status"]))
        if _d(m["account_credit"]) < BALANCE_LIMIT:
            raise ToolError(
                "member %s has an outstanding balance of %.2f; balances over 25.00 must be settled before booking"
                % (m["member_id"], -m["account_credit"])
            )
        if cls["status"] != "scheduled":
            raise ToolError("class %s has been cancelled by the club" % cls["class_id"])
        start, end = self._span(cls)
        if start <= BUSINESS_NOW:
            raise ToolError("class %s started at %s and can no longer be booked" % (cls["class_id"], cls["start"]))
        tier = self._tier(m)
        ahead = (start.date() - BUSINESS_DATE).days
        if ahead > tier["booking_window_days"]:
            raise ToolError(
                "%s members can book up to %d day(s) ahead; class %s on %s opens for booking on %s"
                % (
                    m["tier"],
                    tier["booking_window_days"],
                    cls["class_id"],
                    start.date().isoformat(),
                    (start.date() - _dt.timedelta(days=tier["booking_window_days"])).isoformat(),
                )
            )
        if not tier["all_clubs"] and cls["club"] != m["home_club"]:
            raise ToolError(
                "%s members can only book classes at their home club (%s); class %s is at %s"
                % (m["tier"], m["home_club"], cls["class_id"], cls["club"])
            )
        upcoming = self._upcoming(m["member_id"])
        for b in upcoming:
            if b["class_id"] == cls["class_id"]:
                raise ToolError(
                    "member %s is already booked into %s (%s)" % (m["member_id"], cls["class_id"], b["booking_id"])
                )
        if m["member_id"] in cls["waitlist"]:
            raise ToolError(
                "member %s is already on the waitlist for %s (position %d)"
                % (m["member_id"], cls["class_id"], cls["waitlist"].index(m["member_id"]) + 1)
            )
        for b in upcoming:
            other = self.db["classes"][b["class_id"]]
            o_start, o_end = self._span(other)
            if o_start < end and start < o_end:
                raise ToolError(
                    "class %s (%s) overlaps %s %s at %s already booked under %s"
                    % (cls["class_id"], cls["start"], other["class_id"], other["name"], other["start"], b["booking_id"])
                )
        if len(upcoming) >= tier["max_upcoming_bookings"]:
            raise ToolError(
                "%s members can hold at most %d upcoming bookings; member %s already has %d"
                % (m["tier"], tier["max_upcoming_bookings"], m["member_id"], len(upcoming))
            )
        if cls["booked_count"] >= cls["capacity"]:
            if not waitlist:
                raise ToolError(
                    "class %s is full (%d/%d, %d on the waitlist); set join_waitlist to true to join the waitlist"
                    % (cls["class_id"], cls["booked_count"], cls["capacity"], len(cls["waitlist"]))
                )
            cls["waitlist"].append(m["member_id"])
            return {
                "waitlisted": True,
                "member_id": m["member_id"],
                "class_id": cls["class_id"],
                "waitlist_position": len(cls["waitlist"]),
                "message": "Class is full; member added to the waitlist and will be booked automatically if a place opens.",  # noqa: E501
            }
        return self._new_booking(m["member_id"], cls, "member")

    def op_cancelBooking(self, args):
        b = self._booking(_req_str(args, "booking_id"))
        reason = _opt_str(args, "reason")
        if b["status"] != "booked":
            raise ToolError("only booked classes can be cancelled (%s is %s)" % (b["booking_id"], b["status"]))
        cls = self.db["classes"][b["class_id"]]
        start = _parse_ts(cls["start"])
        if start <= BUSINESS_NOW:
            raise ToolError(
                "class %s started at %s; a booking cannot be cancelled once the class has started"
                % (cls["class_id"], cls["start"])
            )
        m = self.db["members"][b["member_id"]]
        tier = self._tier(m)
        hours = Decimal((start - BUSINESS_NOW).total_seconds()) / Decimal(3600)
        late = hours < LATE_CANCEL_HOURS
        fee = _d(tier["late_cancel_fee"]) if late else Decimal("0")
        passes = 0 if late else len(b["guests"])
        freed = 1 + len(b["guests"])
        b["status"] = "cancelled"
        b["cancelled_at"] = _ts(BUSINESS_NOW)
        b["late_cancel_fee"] = _money(fee)
        m["guest_passes_left"] += passes
        if fee > 0:
            m["account_credit"] = _money(_d(m["account_credit"]) - fee)
            note = "%.2f for %s" % (fee, b["booking_id"])
            if reason:
                note += " (%s)" % reason
            self._history(m, "late_cancel_fee", note)
        cls["booked_count"] = max(cls["booked_count"] - freed, 0)
        promoted = self._promote(cls)
        return {
            "booking_id": b["booking_id"],
            "status": "cancelled",
            "class_id": cls["class_id"],
            "hours_before_start": float(hours.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)),
            "late_cancel": late,
            "fee_charged": _money(fee),
            "guest_passes_returned": passes,
            "account_credit": m["account_credit"],
            "promoted_booking_ids": promoted,
        }

    def op_checkInBooking(self, args):
        b = self._booking(_req_str(args, "booking_id"))
        if b["status"] != "booked":
            raise ToolError("only booked classes can be checked in (%s is %s)" % (b["booking_id"], b["status"]))
        cls = self.db["classes"][b["class_id"]]
        start = _parse_ts(cls["start"])
        opens = start - _dt.timedelta(minutes=CHECKIN_OPENS_MIN)
        closes = start + _dt.timedelta(minutes=CHECKIN_CLOSES_MIN)
        if BUSINESS_NOW < opens:
            raise ToolError("check-in for %s opens at %s" % (cls["class_id"], _ts(opens)))
        if BUSINESS_NOW > closes:
            raise ToolError(
                "check-in for %s closed at %s (15 minutes after the start)" % (cls["class_id"], _ts(closes))
            )
        b["status"] = "attended"
        b["checked_in_at"] = _ts(BUSINESS_NOW)
        return b

    def op_freezeMembership(self, args):
        m = self._member(_req_str(args, "member_id"))
        months = _opt_int(args, "months")
        if months is None:
            raise ToolError("missing required parameter 'months'")
        reason = _opt_str(args, "reason")
        if m["status"] != "active":
            raise ToolError("only active memberships can be frozen (%s is %s)" % (m["member_id"], m["status"]))
        if not FREEZE_MIN_MONTHS <= months <= FREEZE_MAX_MONTHS:
            raise ToolError("a freeze lasts 1 to 3 months (got %d)" % months)
        if m["account_credit"] < 0:
            raise ToolError(
                "member %s owes %.2f; the balance must be settled before freezing"
                % (m["member_id"], -m["account_credit"])
            )
        year = str(BUSINESS_DATE.year)
        for h in m["history"]:
            if h["event"] == "frozen" and h["date"].startswith(year):
                raise ToolError("member %s already used this year's freeze (on %s)" % (m["member_id"], h["date"]))
        upcoming = self._upcoming(m["member_id"])
        if upcoming:
            raise ToolError(
                "member %s has upcoming bookings (%s); cancel them before freezing"
                % (m["member_id"], ", ".join(b["booking_id"] for b in upcoming))
            )
        fee = _d(self._tier(m)["freeze_fee"])
        days = months * FREEZE_DAYS_PER_MONTH
        until = BUSINESS_DATE + _dt.timedelta(days=days)
        for cid in sorted(self.db["classes"]):
            wl = self.db["classes"][cid]["waitlist"]
            if m["member_id"] in wl:
                wl.remove(m["member_id"])
        m["status"] = "frozen"
        m["frozen_until"] = until.isoformat()
        m["renewal_date"] = (_dt.date.fromisoformat(m["renewal_date"]) + _dt.timedelta(days=days)).isoformat()
        m["account_credit"] = _money(_d(m["account_credit"]) - fee)
        note = "%d month(s) until %s; fee %.2f" % (months, until.isoformat(), fee)
        if reason:
            note += "; %s" % reason
        self._history(m, "frozen", note)
        return m

    def op_addBookingGuest(self, args):
        b = self._booking(_req_str(args, "booking_id"))
        name = " ".join(_req_str(args, "guest_name").split())
        if b["status"] != "booked":
            raise ToolError("guests can only be added to booked classes (%s is %s)" % (b["booking_id"], b["status"]))
        cls = self.db["classes"][b["class_id"]]
        if self._started(cls):
            raise ToolError("class %s has already started" % cls["class_id"])
        if any(g["guest_name"].lower() == name.lower() for g in b["guests"]):
            raise ToolError("%s is already a guest on %s" % (name, b["booking_id"]))
        if len(b["guests"]) >= MAX_GUESTS_PER_BOOKING:
            raise ToolError("a booking can carry at most %d guests" % MAX_GUESTS_PER_BOOKING)
        m = self.db["members"][b["member_id"]]
        if m["guest_passes_left"] <= 0:
            raise ToolError("member %s has no guest passes left this month (%s tier)" % (m["member_id"], m["tier"]))
        if cls["booked_count"] >= cls["capacity"]:
            raise ToolError(
                "class %s is full (%d/%d); guests cannot join the waitlist"
                % (cls["class_id"], cls["booked_count"], cls["capacity"])
            )
        b["guests"].append({"guest_name": name, "added_at": _ts(BUSINESS_NOW)})
        m["guest_passes_left"] -= 1
        cls["booked_count"] += 1
        return b

    def op_removeBookingGuest(self, args):
        b = self._booking(_req_str(args, "booking_id"))
        name = " ".join(_req_str(args, "guest_name").split())
        if b["status"] != "booked":
            raise ToolError(
                "guests can only be removed from booked classes (%s is %s)" % (b["booking_id"], b["status"])
            )
        cls = self.db["classes"][b["class_id"]]
        start = _parse_ts(cls["start"])
        if start <= BUSINESS_NOW:
            raise ToolError("class %s has already started" % cls["class_id"])
        idx = next((i for i, g in enumerate(b["guests"]) if g["guest_name"].lower() == name.lower()), None)
        if idx is None:
            raise ToolError("%s is not a guest on %s" % (name, b["booking_id"]))
        b["guests"].pop(idx)
        m = self.db["members"][b["member_id"]]
        hours = (start - BUSINESS_NOW).total_seconds() / 3600
        if hours >= LATE_CANCEL_HOURS:
            m["guest_passes_left"] += 1
        cls["booked_count"] = max(cls["booked_count"] - 1, 0)
        self._promote(cls)
        return b


def make():
    return FrontDesk()


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
    print("sessions: %d  calls: %d  refused: %d" % (sessions, calls, errors))


if __name__ == "__main__":
    sys.exit(_main())
