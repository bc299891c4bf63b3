"""Larkmoor City Museum - group visit and ticket office API (fictional reference implementation).

make() returns an object with reset(state), call(name, arguments) and state(). Tool names are the
operationIds of openapi.json. Running this file replays every trajectory in trajectories.jsonl, each
from data.json, and prints the number of calls and refused calls. Standard library only.
"""

import copy
import json
import os
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = "2026-05-14"  # the office's fixed business date (no wall clock)

HOLD_DAYS = 2
INDIVIDUAL_MAX = 9
GROUP_MIN = 10
GROUP_MAX = 40
MAX_QUANTITY = 40
PUPILS_PER_FREE_CHAPERONE = 8
SCHOOL_PUPIL_PCT = 50  # pupils pay half the child price
ADULT_GROUP_PCT = 90  # adult groups pay 90% (10% off)
TOUR_FEE = {"school": 4000, "adult": 6500}  # cents
LATE_REMOVAL_DAYS = 2
CATEGORIES = ("adult", "child", "concession", "member", "guest", "chaperone")
STATUSES = ("held", "confirmed", "checked_in", "cancelled", "no_show")
LIVE = ("held", "confirmed", "checked_in")
PAYMENT_METHODS = ("card", "credit", "invoice")


class ApiError(Exception):
    pass


# ---------------------------------------------------------------- money and dates


def cents(x):
    return int((Decimal(str(x)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def money(c):
    return float((Decimal(int(c)) / 100).quantize(Decimal("0.01")))


def pct_of(c, pct):
    return int((Decimal(int(c)) * Decimal(pct) / 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def fmt(c):
    return "%.2f" % money(c)


def days_until(day):
    return (date.fromisoformat(day) - date.fromisoformat(BUSINESS_DATE)).days


def add_days(day, n):
    return (date.fromisoformat(day) + timedelta(days=n)).isoformat()


def ceil_div(a, b):
    return -(-a // b)


# ---------------------------------------------------------------- argument helpers


def _req(args, key):
    if key not in args or args[key] is None or args[key] == "":
        raise ApiError("Missing required field '%s'" % key)
    return args[key]


def _str(args, key, required=False):
    v = _req(args, key) if required else args.get(key)
    if v is None:
        return None
    if not isinstance(v, str):
        raise ApiError("Field '%s' must be a string" % key)
    v = v.strip()
    if required and not v:
        raise ApiError("Missing required field '%s'" % key)
    return v or None


class Museum:
    def __init__(self):
        self.db = {}

    # ------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = {
            "findMembers": self.find_members,
            "getMember": self.get_member,
            "listMemberBookings": self.list_member_bookings,
            "searchEntrySlots": self.search_entry_slots,
            "quoteBooking": self.quote_booking,
            "createBooking": self.create_booking,
            "getBooking": self.get_booking,
            "confirmBooking": self.confirm_booking,
            "cancelBooking": self.cancel_booking,
            "checkInBooking": self.check_in_booking,
            "addAttendees": self.add_attendees,
            "removeAttendee": self.remove_attendee,
        }.get(name)
        if fn is None:
            return {"ok": False, "output": "Unknown operation '%s'" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be an object"}
        try:
            return {"ok": True, "output": fn(dict(arguments))}
        except ApiError as e:
            return {"ok": False, "output": str(e)}

    # ------------------------------------------------------------ lookups
    def _member(self, member_id):
        m = self.db["members"].get(member_id)
        if m is None:
            raise ApiError("Member %s not found" % member_id)
        return m

    def _booking(self, booking_id):
        b = self.db["bookings"].get(booking_id)
        if b is None:
            raise ApiError("Booking %s not found" % booking_id)
        return b

    def _exhibition(self, exhibition_id):
        e = self.db["exhibitions"].get(exhibition_id)
        if e is None:
            raise ApiError("Exhibition %s not found" % exhibition_id)
        return e

    def _slot(self, slot_id):
        s = self.db["slots"].get(slot_id)
        if s is None:
            raise ApiError("Entry slot %s not found" % slot_id)
        return s

    @staticmethod
    def _active(member):
        return member["valid_until"] >= BUSINESS_DATE

    def _member_view(self, m):
        out = copy.deepcopy(m)
        out["membership_status"] = "active" if self._active(m) else "expired"
        return out

    # ------------------------------------------------------------ reads
    def find_members(self, args):
        name = _str(args, "name")
        email = _str(args, "email")
        tier = _str(args, "tier")
        if not (name or email or tier):
            raise ApiError("Provide at least one of name, email or tier")
        if tier and tier not in self.db["tiers"]:
            raise ApiError("Unknown tier '%s'; tiers are %s" % (tier, ", ".join(sorted(self.db["tiers"]))))
        out = []
        for mid in sorted(self.db["members"]):
            m = self.db["members"][mid]
            if name and name.lower() not in m["name"].lower():
                continue
            if email and email.lower() != m["email"].lower():
                continue
            if tier and m["tier"] != tier:
                continue
            out.append(
                {
                    "member_id": mid,
                    "name": m["name"],
                    "email": m["email"],
                    "tier": m["tier"],
                    "valid_until": m["valid_until"],
                    "membership_status": "active" if self._active(m) else "expired",
                }
            )
        return out

    def get_member(self, args):
        mid = _str(args, "member_id", True)
        return self._member_view(self._member(mid))

    def list_member_bookings(self, args):
        mid = _str(args, "member_id", True)
        status = _str(args, "status")
        self._member(mid)
        if status and status not in STATUSES:
            raise ApiError("Unknown status '%s'; use one of %s" % (status, ", ".join(STATUSES)))
        rows = []
        for b in self.db["bookings"].values():
            if b.get("member_id") != mid:
                continue
            if status and b["status"] != status:
                continue
            rows.append(b)
        rows.sort(key=lambda b: (b["visit_date"], b["time"], b["booking_id"]))
        return [
            {
                "booking_id": b["booking_id"],
                "booking_type": b["booking_type"],
                "exhibition_id": b["exhibition_id"],
                "visit_date": b["visit_date"],
                "time": b["time"],
                "attendee_count": len(b["attendees"]),
                "total": b["total"],
                "status": b["status"],
            }
            for b in rows
        ]

    def search_entry_slots(self, args):
        ex_id = _str(args, "exhibition_id")
        day = _str(args, "date")
        min_av = args.get("min_available", 1)
        if min_av is None:
            min_av = 1
        if isinstance(min_av, bool) or not isinstance(min_av, int) or min_av < 0:
            raise ApiError("min_available must be a whole number of 0 or more")
        if ex_id:
            self._exhibition(ex_id)
        if day:
            try:
                date.fromisoformat(day)
            except ValueError:
                raise ApiError("date must be YYYY-MM-DD")
        out = []
        for sid in sorted(self.db["slots"]):
            s = self.db["slots"][sid]
            ex = self.db["exhibitions"][s["exhibition_id"]]
            if ex["status"] == "closed" or s["date"] < BUSINESS_DATE:
                continue
            if ex_id and s["exhibition_id"] != ex_id:
                continue
            if day and s["date"] != day:
                continue
            avail = s["capacity"] - s["booked"]
            if avail < min_av:
                continue
            out.append(
                {
                    "slot_id": sid,
                    "exhibition_id": s["exhibition_id"],
                    "exhibition_title": ex["title"],
                    "date": s["date"],
                    "time": s["time"],
                    "capacity": s["capacity"],
                    "available": avail,
                }
            )
        out.sort(key=lambda r: (r["date"], r["time"], r["slot_id"]))
        return out

    def get_booking(self, args):
        return copy.deepcopy(self._booking(_str(args, "booking_id", True)))

    # ------------------------------------------------------------ pricing core
    def _expand(self, attendees):
        if not isinstance(attendees, list) or not attendees:
            raise ApiError("attendees must be a non-empty list")
        out = []
        for a in attendees:
            if not isinstance(a, dict):
                raise ApiError("Each attendee must be an object with a category")
            cat = a.get("category")
            if cat not in CATEGORIES:
                raise ApiError(
                    "Unknown attendee category '%s'; use adult, child, concession, member, guest or chaperone" % cat
                )
            q = a.get("quantity", 1)
            if q is None:
                q = 1
            if isinstance(q, bool) or not isinstance(q, int) or q < 1 or q > MAX_QUANTITY:
                raise ApiError("quantity must be a whole number from 1 to %d" % MAX_QUANTITY)
            name = a.get("name")
            if name is not None and not isinstance(name, str):
                raise ApiError("Attendee name must be a string")
            name = (name or "").strip() or None
            if name and q > 1:
                raise ApiError("A name can only be given for a single attendee (quantity 1)")
            for _ in range(q):
                out.append({"category": cat, "name": name})
        return out

    def _check_composition(self, btype, gkind, member, ex, cats):
        n = len(cats)
        if btype == "individual":
            if "chaperone" in cats:
                raise ApiError("Chaperone tickets are for school group bookings only")
            if "member" in cats or "guest" in cats:
                if member is None:
                    raise ApiError("Member and guest tickets need a member_id on the booking")
                if not self._active(member):
                    raise ApiError(
                        "Membership %s expired on %s; member benefits cannot be used"
                        % (member["member_id"], member["valid_until"])
                    )
            if cats.count("member") > 1:
                raise ApiError("Only one member ticket per booking: the member named on the booking")
            if "guest" in cats and ex["kind"] != "general":
                raise ApiError(
                    "Guest passes cover general admission only; %s is a special exhibition" % ex["exhibition_id"]
                )
            if n > INDIVIDUAL_MAX:
                raise ApiError(
                    "Individual bookings take at most %d attendees; book a group for %d or more"
                    % (INDIVIDUAL_MAX, GROUP_MIN)
                )
        else:
            if "member" in cats or "guest" in cats:
                raise ApiError("Member and guest tickets are for individual bookings only")
            if gkind == "school":
                bad = sorted(set(cats) - {"child", "chaperone"})
                if bad:
                    raise ApiError(
                        "School bookings take child (pupil) and chaperone attendees only, not %s" % ", ".join(bad)
                    )
                if "child" not in cats:
                    raise ApiError("A school booking needs at least one pupil")
            elif "chaperone" in cats:
                raise ApiError("Chaperone tickets are for school group bookings only")
            if n < GROUP_MIN:
                raise ApiError("Group bookings need at least %d attendees (got %d)" % (GROUP_MIN, n))
            if n > GROUP_MAX:
                raise ApiError("Group bookings take at most %d attendees (got %d)" % (GROUP_MAX, n))

    def _unit_prices(self, btype, gkind, member, ex, cats):
        p = ex["prices"]
        out = []
        if btype == "individual":
            for c in cats:
                if c == "member":
                    tier = self.db["tiers"][member["tier"]]
                    if ex["kind"] == "general" and tier["free_general_admission"]:
                        out.append(0)
                    else:
                        out.append(pct_of(cents(p["adult"]), 100 - tier["special_discount_pct"]))
                elif c == "guest":
                    out.append(0)
                else:
                    out.append(cents(p[c]))
        elif gkind == "school":
            free = ceil_div(cats.count("child"), PUPILS_PER_FREE_CHAPERONE)
            for c in cats:
                if c == "child":
                    out.append(pct_of(cents(p["child"]), SCHOOL_PUPIL_PCT))
                elif free > 0:
                    out.append(0)
                    free -= 1
                else:
                    out.append(cents(p["adult"]))
        else:
            for c in cats:
                out.append(pct_of(cents(p[c]), ADULT_GROUP_PCT))
        return out

    def _assign_guide(self, language, day, time, skip_booking=None):
        lang = language.strip().lower()
        speakers = [g for gid, g in sorted(self.db["guides"].items()) if lang in g["languages"]]
        if not speakers:
            raise ApiError("No guide offers tours in '%s'" % language)
        best = None
        for g in speakers:
            if not g["active"]:
                continue
            tours = [
                b
                for b in self.db["bookings"].values()
                if b.get("guided_tour")
                and b["guided_tour"]["guide_id"] == g["guide_id"]
                and b["visit_date"] == day
                and b["status"] in LIVE
                and b["booking_id"] != skip_booking
            ]
            if len(tours) >= g["daily_cap"] or any(b["time"] == time for b in tours):
                continue
            key = (len(tours), g["guide_id"])
            if best is None or key < best:
                best = key
        if best is None:
            raise ApiError("No guide speaking '%s' is free on %s at %s" % (lang, day, time))
        return best[1], lang

    def _prepare(self, args):
        """Shared validation for quoteBooking and createBooking."""
        slot_id = _str(args, "slot_id", True)
        slot = self._slot(slot_id)
        ex = self.db["exhibitions"][slot["exhibition_id"]]
        if ex["status"] == "closed":
            raise ApiError("Exhibition %s (%s) is closed to visitors" % (ex["exhibition_id"], ex["title"]))
        if slot["date"] < BUSINESS_DATE:
            raise ApiError("Entry slot %s is in the past (%s)" % (slot_id, slot["date"]))
        btype = _str(args, "booking_type") or "individual"
        if btype not in ("individual", "group"):
            raise ApiError("booking_type must be 'individual' or 'group'")
        member = None
        mid = _str(args, "member_id")
        if mid:
            member = self._member(mid)
        gkind = None
        gname = None
        if btype == "group":
            gname = _str(args, "group_name")
            if not gname:
                raise ApiError("group_name is required for group bookings")
            gkind = _str(args, "group_kind")
            if gkind not in ("school", "adult"):
                raise ApiError("group_kind must be 'school' or 'adult' for group bookings")
        contact = _str(args, "contact_name")
        if not contact and member is None:
            raise ApiError("contact_name is required when no member_id is given")
        if not contact:
            contact = member["name"]
        people = self._expand(args.get("attendees"))
        cats = [a["category"] for a in people]
        self._check_composition(btype, gkind, member, ex, cats)
        if "guest" in cats and cats.count("guest") > member["guest_passes_left"]:
            raise ApiError(
                "Member %s has %d guest pass(es) left; %d requested"
                % (member["member_id"], member["guest_passes_left"], cats.count("guest"))
            )
        available = slot["capacity"] - slot["booked"]
        if len(people) > available:
            raise ApiError("Entry slot %s has only %d place(s) left" % (slot_id, available))
        tour = args.get("guided_tour")
        tour_info = None
        if tour is not None:
            if not isinstance(tour, dict) or not isinstance(tour.get("language"), str) or not tour["language"].strip():
                raise ApiError("guided_tour must be an object with a language code")
            if btype != "group":
                raise ApiError("Guided tours are offered to group bookings only")
            gid, lang = self._assign_guide(tour["language"], slot["date"], slot["time"])
            tour_info = {"language": lang, "guide_id": gid, "fee": money(TOUR_FEE[gkind])}
        prices = self._unit_prices(btype, gkind, member, ex, cats)
        return {
            "slot": slot,
            "ex": ex,
            "btype": btype,
            "gkind": gkind,
            "gname": gname,
            "member": member,
            "contact": contact,
            "people": people,
            "cats": cats,
            "prices": prices,
            "tour": tour_info,
            "available": available,
        }

    @staticmethod
    def _lines(cats, prices):
        lines = []
        index = {}
        for c, p in zip(cats, prices):
            key = (c, p)
            if key not in index:
                index[key] = len(lines)
                lines.append({"category": c, "quantity": 0, "unit_price": money(p), "subtotal": 0})
            line = lines[index[key]]
            line["quantity"] += 1
        for line in lines:
            line["subtotal"] = money(cents(line["unit_price"]) * line["quantity"])
        return lines

    def quote_booking(self, args):
        d = self._prepare(args)
        tickets = sum(d["prices"])
        tour_fee = cents(d["tour"]["fee"]) if d["tour"] else 0
        out = {
            "slot_id": d["slot"]["slot_id"],
            "exhibition_id": d["ex"]["exhibition_id"],
            "exhibition_title": d["ex"]["title"],
            "visit_date": d["slot"]["date"],
            "time": d["slot"]["time"],
            "booking_type": d["btype"],
            "lines": self._lines(d["cats"], d["prices"]),
            "tickets_subtotal": money(tickets),
            "tour_fee": money(tour_fee),
            "total": money(tickets + tour_fee),
            "places_available": d["available"],
        }
        if d["gkind"] == "school":
            out["free_chaperones"] = min(
                d["cats"].count("chaperone"), ceil_div(d["cats"].count("child"), PUPILS_PER_FREE_CHAPERONE)
            )
        return out

    # ------------------------------------------------------------ bookings
    def _new_booking_id(self):
        nums = [int(k.split("-")[1]) for k in self.db["bookings"]]
        return "BK-%d" % (max(nums) + 1 if nums else 70001)

    @staticmethod
    def _hist(b, event, note):
        b["history"].append({"date": BUSINESS_DATE, "event": event, "note": note})

    def create_booking(self, args):
        d = self._prepare(args)
        bid = self._new_booking_id()
        slot = d["slot"]
        attendees = []
        for i, (a, p) in enumerate(zip(d["people"], d["prices"]), start=1):
            attendees.append(
                {"attendee_id": "A%d" % i, "category": a["category"], "name": a["name"], "price": money(p)}
            )
        tour_fee = cents(d["tour"]["fee"]) if d["tour"] else 0
        hold_until = min(add_days(BUSINESS_DATE, HOLD_DAYS), slot["date"])
        b = {
            "booking_id": bid,
            "booking_type": d["btype"],
            "group_kind": d["gkind"],
            "group_name": d["gname"],
            "member_id": d["member"]["member_id"] if d["member"] else None,
            "contact_name": d["contact"],
            "slot_id": slot["slot_id"],
            "exhibition_id": d["ex"]["exhibition_id"],
            "visit_date": slot["date"],
            "time": slot["time"],
            "attendees": attendees,
            "guided_tour": d["tour"],
            "total": money(sum(d["prices"]) + tour_fee),
            "status": "held",
            "hold_until": hold_until,
            "payment": None,
            "history": [],
        }
        note = "Held until %s; %d attendee(s)" % (hold_until, len(attendees))
        if d["tour"]:
            note += "; guided tour in %s with %s" % (d["tour"]["language"], d["tour"]["guide_id"])
        self._hist(b, "created", note)
        slot["booked"] += len(attendees)
        self.db["bookings"][bid] = b
        return copy.deepcopy(b)

    def _check_hold(self, b):
        if b["status"] == "held" and b["hold_until"] < BUSINESS_DATE:
            raise ApiError("The hold on %s expired on %s; make a new booking" % (b["booking_id"], b["hold_until"]))

    def confirm_booking(self, args):
        b = self._booking(_str(args, "booking_id", True))
        method = _str(args, "payment_method", True)
        if method not in PAYMENT_METHODS:
            raise ApiError("payment_method must be card, credit or invoice")
        if b["status"] != "held":
            raise ApiError("Booking %s is %s; only held bookings can be confirmed" % (b["booking_id"], b["status"]))
        if b["visit_date"] < BUSINESS_DATE:
            raise ApiError("The visit date of %s (%s) has passed" % (b["booking_id"], b["visit_date"]))
        self._check_hold(b)
        total = cents(b["total"])
        member = self.db["members"].get(b["member_id"]) if b.get("member_id") else None
        guests = sum(1 for a in b["attendees"] if a["category"] == "guest")
        if guests and guests > member["guest_passes_left"]:
            raise ApiError(
                "Member %s has %d guest pass(es) left; booking uses %d"
                % (member["member_id"], member["guest_passes_left"], guests)
            )
        if method == "credit":
            if member is None:
                raise ApiError("Credit payment needs a member on the booking")
            bal = cents(member["credit_balance"])
            if bal < total:
                raise ApiError(
                    "Insufficient credit: member %s has %s, booking total is %s"
                    % (member["member_id"], fmt(bal), fmt(total))
                )
            member["credit_balance"] = money(bal - total)
            b["payment"] = {"method": "credit", "paid": money(total), "refunded": 0.0, "due": 0.0}
            note = "Paid %s from member credit" % fmt(total)
        elif method == "invoice":
            if b["booking_type"] != "group" or b["group_kind"] != "school":
                raise ApiError("Invoice payment is available for school group bookings only")
            b["payment"] = {"method": "invoice", "paid": 0.0, "refunded": 0.0, "due": money(total)}
            note = "Invoiced %s to %s" % (fmt(total), b["group_name"])
        else:
            b["payment"] = {"method": "card", "paid": money(total), "refunded": 0.0, "due": 0.0}
            note = "Paid %s by card" % fmt(total)
        if guests:
            member["guest_passes_left"] -= guests
            note += "; %d guest pass(es) used" % guests
        b["status"] = "confirmed"
        b["hold_until"] = None
        self._hist(b, "confirmed", note)
        return copy.deepcopy(b)

    def cancel_booking(self, args):
        b = self._booking(_str(args, "booking_id", True))
        reason = _str(args, "reason")
        if b["status"] == "cancelled":
            raise ApiError("Booking %s is already cancelled" % b["booking_id"])
        if b["status"] not in ("held", "confirmed"):
            raise ApiError("Booking %s cannot be cancelled (status %s)" % (b["booking_id"], b["status"]))
        if b["visit_date"] < BUSINESS_DATE:
            raise ApiError("The visit date of %s (%s) has passed" % (b["booking_id"], b["visit_date"]))
        days = days_until(b["visit_date"])
        fee = refund = 0
        refund_to = None
        member = self.db["members"].get(b["member_id"]) if b.get("member_id") else None
        if b["status"] == "confirmed":
            pct = 0 if days >= 7 else (25 if days >= 2 else 50)
            total = cents(b["total"])
            fee = pct_of(total, pct)
            pay = b["payment"]
            if pay["method"] == "invoice":
                pay["due"] = money(min(fee, cents(pay["due"])))
                note_pay = "invoice reduced to %s" % fmt(cents(pay["due"]))
            else:
                net = cents(pay["paid"]) - cents(pay["refunded"])
                refund = max(0, net - fee)
                if refund:
                    refund_to = "credit" if member is not None else "card"
                    pay["refunded"] = money(cents(pay["refunded"]) + refund)
                    if refund_to == "credit":
                        member["credit_balance"] = money(cents(member["credit_balance"]) + refund)
                    note_pay = "refund %s to %s" % (fmt(refund), "member credit" if refund_to == "credit" else "card")
                else:
                    note_pay = "no refund"
            guests = sum(1 for a in b["attendees"] if a["category"] == "guest")
            if guests:
                member["guest_passes_left"] += guests
                note_pay += "; %d guest pass(es) returned" % guests
            note = "Cancelled %d day(s) before visit; fee %s; %s" % (days, fmt(fee), note_pay)
        else:
            note = "Hold released"
        if reason:
            note += " (reason: %s)" % reason
        n = len(b["attendees"])
        self.db["slots"][b["slot_id"]]["booked"] -= n
        b["status"] = "cancelled"
        b["hold_until"] = None
        self._hist(b, "cancelled", note)
        return {
            "booking_id": b["booking_id"],
            "status": "cancelled",
            "days_before_visit": days,
            "cancellation_fee": money(fee),
            "refund_amount": money(refund),
            "refund_to": refund_to,
            "places_released": n,
        }

    def check_in_booking(self, args):
        b = self._booking(_str(args, "booking_id", True))
        if b["status"] != "confirmed":
            raise ApiError(
                "Booking %s is %s; only confirmed bookings can be checked in" % (b["booking_id"], b["status"])
            )
        if b["visit_date"] != BUSINESS_DATE:
            raise ApiError(
                "Booking %s is for %s; check-in is only possible on the visit date" % (b["booking_id"], b["visit_date"])
            )
        b["status"] = "checked_in"
        n = len(b["attendees"])
        self._hist(b, "checked_in", "Checked in %d attendee(s)" % n)
        return {
            "booking_id": b["booking_id"],
            "status": "checked_in",
            "attendees": n,
            "guided_tour": copy.deepcopy(b.get("guided_tour")),
            "amount_due": b["payment"]["due"] if b.get("payment") else 0.0,
        }

    # ------------------------------------------------------------ attendee edits
    def _editable(self, b):
        if b["status"] not in ("held", "confirmed"):
            raise ApiError(
                "Attendees can only be changed on held or confirmed bookings (%s is %s)"
                % (b["booking_id"], b["status"])
            )
        if b["visit_date"] < BUSINESS_DATE:
            raise ApiError("The visit date of %s (%s) has passed" % (b["booking_id"], b["visit_date"]))
        self._check_hold(b)

    def _reprice(self, b, member, cats):
        ex = self.db["exhibitions"][b["exhibition_id"]]
        prices = self._unit_prices(b["booking_type"], b["group_kind"], member, ex, cats)
        tour = cents(b["guided_tour"]["fee"]) if b.get("guided_tour") else 0
        return prices, sum(prices) + tour

    def _settle(self, b, member, delta):
        """Charge or refund a price change on a confirmed booking. Returns (how, note)."""
        if b["status"] != "confirmed" or delta == 0:
            return None, ""
        pay = b["payment"]
        if pay["method"] == "invoice":
            pay["due"] = money(cents(pay["due"]) + delta)
            return "invoice", "added to invoice" if delta > 0 else "deducted from invoice"
        if delta > 0:
            if pay["method"] == "credit":
                bal = cents(member["credit_balance"])
                if bal < delta:
                    raise ApiError(
                        "Insufficient credit: member %s has %s, change costs %s"
                        % (member["member_id"], fmt(bal), fmt(delta))
                    )
                member["credit_balance"] = money(bal - delta)
                pay["paid"] = money(cents(pay["paid"]) + delta)
                return "credit", "charged to member credit"
            pay["paid"] = money(cents(pay["paid"]) + delta)
            return "card", "charged to card"
        refund = -delta
        pay["refunded"] = money(cents(pay["refunded"]) + refund)
        if member is not None:
            member["credit_balance"] = money(cents(member["credit_balance"]) + refund)
            return "credit", "refunded to member credit"
        return "card", "refunded to card"

    def add_attendees(self, args):
        b = self._booking(_str(args, "booking_id", True))
        self._editable(b)
        people = self._expand(args.get("attendees"))
        member = self.db["members"].get(b["member_id"]) if b.get("member_id") else None
        ex = self.db["exhibitions"][b["exhibition_id"]]
        old_cats = [a["category"] for a in b["attendees"]]
        new_cats = [a["category"] for a in people]
        cats = old_cats + new_cats
        self._check_composition(b["booking_type"], b["group_kind"], member, ex, cats)
        need = new_cats.count("guest") if b["status"] == "confirmed" else cats.count("guest")
        if new_cats.count("guest") and need > member["guest_passes_left"]:
            raise ApiError(
                "Member %s has %d guest pass(es) left; %d needed"
                % (member["member_id"], member["guest_passes_left"], need)
            )
        slot = self.db["slots"][b["slot_id"]]
        available = slot["capacity"] - slot["booked"]
        if len(people) > available:
            raise ApiError("Entry slot %s has only %d place(s) left" % (slot["slot_id"], available))
        prices, new_total = self._reprice(b, member, cats)
        old_total = cents(b["total"])
        delta = new_total - old_total
        how, how_note = self._settle(b, member, delta)
        next_n = max([int(a["attendee_id"][1:]) for a in b["attendees"]] or [0]) + 1
        added = []
        for a in people:
            rec = {"attendee_id": "A%d" % next_n, "category": a["category"], "name": a["name"], "price": 0.0}
            next_n += 1
            b["attendees"].append(rec)
            added.append(rec["attendee_id"])
        for rec, p in zip(b["attendees"], prices):
            rec["price"] = money(p)
        b["total"] = money(new_total)
        slot["booked"] += len(people)
        if b["status"] == "confirmed" and new_cats.count("guest"):
            member["guest_passes_left"] -= new_cats.count("guest")
        note = "Added %d (%s); price change %s%s" % (
            len(added),
            ", ".join(added),
            "+" if delta >= 0 else "-",
            fmt(abs(delta)),
        )
        if how_note:
            note += " " + how_note
        self._hist(b, "attendees_added", note)
        return {"booking": copy.deepcopy(b), "added": added, "price_change": money(delta), "settled_by": how}

    def remove_attendee(self, args):
        b = self._booking(_str(args, "booking_id", True))
        aid = _str(args, "attendee_id", True)
        self._editable(b)
        idx = next((i for i, a in enumerate(b["attendees"]) if a["attendee_id"] == aid), None)
        if idx is None:
            raise ApiError("Attendee %s is not on booking %s" % (aid, b["booking_id"]))
        if len(b["attendees"]) == 1:
            raise ApiError("%s is the only attendee on %s; cancel the booking instead" % (aid, b["booking_id"]))
        if b["status"] == "confirmed" and days_until(b["visit_date"]) < LATE_REMOVAL_DAYS:
            raise ApiError(
                "Attendees cannot be removed from a confirmed booking less than %d days before the visit"
                % LATE_REMOVAL_DAYS
            )
        member = self.db["members"].get(b["member_id"]) if b.get("member_id") else None
        self.db["exhibitions"][b["exhibition_id"]]
        removed = b["attendees"][idx]
        rest = b["attendees"][:idx] + b["attendees"][idx + 1 :]
        cats = [a["category"] for a in rest]
        if b["booking_type"] == "group":
            if len(rest) < GROUP_MIN:
                raise ApiError(
                    "Group bookings need at least %d attendees; %s has %d"
                    % (GROUP_MIN, b["booking_id"], len(b["attendees"]))
                )
            if b["group_kind"] == "school" and "child" not in cats:
                raise ApiError("A school booking needs at least one pupil")
        prices, new_total = self._reprice(b, member, cats)
        delta = new_total - cents(b["total"])
        how, how_note = self._settle(b, member, delta)
        b["attendees"] = rest
        for rec, p in zip(rest, prices):
            rec["price"] = money(p)
        b["total"] = money(new_total)
        self.db["slots"][b["slot_id"]]["booked"] -= 1
        if b["status"] == "confirmed" and removed["category"] == "guest":
            member["guest_passes_left"] += 1
        note = "Removed %s (%s); price change %s%s" % (
            aid,
            removed["category"],
            "+" if delta >= 0 else "-",
            fmt(abs(delta)),
        )
        if how_note:
            note += " " + how_note
        self._hist(b, "attendee_removed", note)
        return {"booking": copy.deepcopy(b), "removed": aid, "price_change": money(delta), "settled_by": how}


def make():
    return Museum()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    sessions = 0
    calls = 0
    errors = 0
    sys_ = make()
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            sessions += 1
            sys_.reset(t.get("initial_state", data))
            for c in t["calls"]:
                r = sys_.call(c["name"], c["arguments"])
                calls += 1
                if not r["ok"]:
                    errors += 1
    print(
        "museum: %d trajectories, %d calls, %d errors (refused by the system: %.1f%%)"
        % (sessions, calls, errors, 100.0 * errors / max(calls, 1))
    )


if __name__ == "__main__":
    _main()
