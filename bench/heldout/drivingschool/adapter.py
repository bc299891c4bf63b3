"""Brellcombe Driving School desk system (fictional) - reference implementation.

make() returns an object with reset(state), call(name, arguments) and state().
Running this file replays trajectories.jsonl and prints the number of calls and errors.
Standard library only; nothing here reads the wall clock.
"""

import copy
import json
import os
import re
import sys
from datetime import date, datetime, timedelta

BUSINESS_DATE = "2026-03-16"  # Monday
DESK_CLOCK = "12:00"  # time of day used for notice calculations
NOW = datetime.fromisoformat(BUSINESS_DATE + "T" + DESK_CLOCK)

DURATIONS = (60, 90, 120)
TRANSMISSIONS = ("manual", "automatic")
PAYMENT_METHODS = ("package", "credit", "card")
CANCEL_REASONS = ("learner", "school")
OUTCOMES = ("completed", "no_show")
TEST_CENTRES = ("Brellcombe North", "Ashvale")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")

FIRST_START = 8 * 60  # 08:00
LAST_END = 20 * 60  # 20:00
BOOKING_HORIZON_DAYS = 56
NOTICE_HOURS = 48
MAX_RESCHEDULES = 2
MIN_LESSONS_FOR_TEST = 10
TEST_MIN_DAYS_AHEAD = 10
TEST_MAX_DAYS_AHEAD = 120
TEST_FIRST, TEST_LAST = 8 * 60, 15 * 60 + 30
MAX_PICKUP_POINTS = 3
LABEL_RE = re.compile(r"^[a-z][a-z0-9_-]{0,19}$")
ACTIVE_LESSON = ("booked", "completed", "no_show")


class Refusal(Exception):
    pass


def money(x):
    return round(float(x) + 0.0, 2)


def fmt(x):
    return "%.2f" % money(x)


def parse_date(value, field="date"):
    if not isinstance(value, str) or not re.match(r"^\d{4}-\d{2}-\d{2}$", value):
        raise Refusal(f"{field} must be a date written YYYY-MM-DD")
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise Refusal(f"{field} {value} is not a real calendar date")


def parse_time(value, field="start"):
    if not isinstance(value, str) or not re.match(r"^\d{2}:\d{2}$", value):
        raise Refusal(f"{field} must be a time written HH:MM")
    h, m = int(value[:2]), int(value[3:])
    if h > 23 or m > 59:
        raise Refusal(f"{field} {value} is not a valid time")
    return h * 60 + m


def hhmm(minutes):
    return "%02d:%02d" % (minutes // 60, minutes % 60)


def weekday(d):
    return WEEKDAYS[d.weekday()]


class DrivingSchool:
    def __init__(self):
        self._s = {}

    # ------------------------------------------------------------ protocol
    def reset(self, state):
        self._s = copy.deepcopy(state)
        for key in ("learners", "instructors", "cars", "price_list", "bookings", "tests"):
            self._s.setdefault(key, {})

    def state(self):
        return copy.deepcopy(self._s)

    def call(self, name, arguments):
        handler = getattr(self, "op_" + str(name), None)
        if handler is None or name not in OPERATIONS:
            return {"ok": False, "output": f"unknown operation: {name}"}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "arguments must be an object"}
        snapshot = copy.deepcopy(self._s)
        try:
            return {"ok": True, "output": handler(dict(arguments))}
        except Refusal as exc:
            self._s = snapshot
            return {"ok": False, "output": str(exc)}

    # ------------------------------------------------------------ helpers
    def _learner(self, lid):
        if not isinstance(lid, str) or not lid:
            raise Refusal("learner_id is required")
        rec = self._s["learners"].get(lid)
        if rec is None:
            raise Refusal(f"learner {lid} not found")
        return rec

    def _instructor(self, iid):
        if not isinstance(iid, str) or not iid:
            raise Refusal("instructor_id is required")
        rec = self._s["instructors"].get(iid)
        if rec is None:
            raise Refusal(f"instructor {iid} not found")
        return rec

    def _car(self, cid):
        if not isinstance(cid, str) or not cid:
            raise Refusal("car_id is required")
        rec = self._s["cars"].get(cid)
        if rec is None:
            raise Refusal(f"car {cid} not found")
        return rec

    def _booking(self, bid):
        if not isinstance(bid, str) or not bid:
            raise Refusal("booking_id is required")
        rec = self._s["bookings"].get(bid)
        if rec is None:
            raise Refusal(f"booking {bid} not found")
        return rec

    def _next_id(self, collection, prefix):
        nums = [int(k.split("-")[1]) for k in self._s[collection] if k.startswith(prefix + "-")]
        return "%s-%d" % (prefix, max(nums) + 1 if nums else 1)

    def _rate(self, transmission):
        for rec in self._s["price_list"].values():
            if rec.get("kind") == "single" and rec.get("transmission") == transmission:
                return money(rec["price"])
        raise Refusal(f"no hourly rate on the price list for {transmission}")

    def _fee(self, kind_label):
        for pid in sorted(self._s["price_list"]):
            rec = self._s["price_list"][pid]
            if rec.get("kind") == kind_label[0] and kind_label[1] in rec.get("label", ""):
                return money(rec["price"])
        raise Refusal("fee missing from the price list")

    def _late_fee(self):
        return self._fee(("fee", "Late cancellation"))

    def _test_fee(self, d):
        return self._fee(("test_fee", "Saturday" if weekday(d) == "sat" else "weekday"))

    @staticmethod
    def _price(rate, duration):
        return money(rate * duration / 60.0)

    @staticmethod
    def _package_lessons_needed(duration):
        return {60: 1, 120: 2}.get(duration)

    @staticmethod
    def _package_active(learner):
        pkg = learner.get("package")
        return bool(pkg) and pkg.get("lessons_remaining", 0) > 0

    @staticmethod
    def _start_dt(b):
        return datetime.fromisoformat(b["date"] + "T" + b["start"])

    def _lessons_on(self, day, exclude=None):
        for bid in sorted(self._s["bookings"]):
            b = self._s["bookings"][bid]
            if bid != exclude and b["date"] == day and b["status"] in ACTIVE_LESSON:
                yield bid, b

    @staticmethod
    def _span(b):
        s = parse_time(b["start"])
        return s, s + int(b["duration_min"])

    def _active_test(self, lid):
        for tid in sorted(self._s["tests"]):
            t = self._s["tests"][tid]
            if t["learner_id"] == lid and t["status"] == "booked":
                return tid, t
        return None, None

    def _booking_view(self, bid):
        out = {"booking_id": bid}
        out.update(copy.deepcopy(self._s["bookings"][bid]))
        return out

    def _check_duration(self, duration):
        if isinstance(duration, bool) or not isinstance(duration, int) or duration not in DURATIONS:
            raise Refusal("duration_min must be 60, 90 or 120")
        return duration

    def _check_slot(self, learner_id, learner, instr_id, instr, car_id, car, day_s, start_s, duration, exclude=None):
        """Validate a lesson slot; returns (date, start_minutes)."""
        d = parse_date(day_s)
        start = parse_time(start_s)
        if start % 30 != 0:
            raise Refusal("lessons start on the hour or half hour")
        if start < FIRST_START or start + duration > LAST_END:
            raise Refusal("lessons run between 08:00 and 20:00; this one would fall outside those hours")
        when = datetime.fromisoformat(day_s + "T" + start_s)
        if when <= NOW:
            raise Refusal(
                f"{day_s} {start_s} is in the past; lessons can only be booked after {BUSINESS_DATE} {DESK_CLOCK}"
            )
        last = date.fromisoformat(BUSINESS_DATE) + timedelta(days=BOOKING_HORIZON_DAYS)
        if d > last:
            raise Refusal(f"lessons can be booked at most {BOOKING_HORIZON_DAYS} days ahead (up to {last.isoformat()})")
        lic = learner["licence"]
        if lic.get("status") != "valid":
            raise Refusal(f"learner {learner_id} cannot drive: licence status is {lic.get('status')}")
        if lic.get("valid_until", "") < day_s:
            raise Refusal(
                f"learner {learner_id}'s licence is only valid until {lic.get('valid_until')}, before the lesson date {day_s}"
            )
        if not instr.get("active"):
            raise Refusal(f"instructor {instr_id} is not taking lessons at the moment")
        if car.get("status") != "available":
            raise Refusal(f"car {car_id} is {car.get('status')} and cannot be booked")
        if car["transmission"] not in instr.get("transmissions", []):
            raise Refusal(f"instructor {instr_id} does not teach in {car['transmission']} cars")
        if weekday(d) not in instr.get("working_days", []):
            raise Refusal(f"instructor {instr_id} does not work on {weekday(d)} ({day_s})")
        end = start + duration
        count = 0
        for bid, b in self._lessons_on(day_s, exclude):
            s, e = self._span(b)
            overlap = s < end and start < e
            if b["instructor_id"] == instr_id:
                count += 1
                if overlap:
                    raise Refusal(f"instructor {instr_id} already has a lesson {b['start']}-{hhmm(e)} on {day_s}")
        if count >= int(instr.get("daily_cap", 0)):
            raise Refusal(
                f"instructor {instr_id} has reached the daily limit of {instr.get('daily_cap')} lessons on {day_s}"
            )
        for bid, b in self._lessons_on(day_s, exclude):
            s, e = self._span(b)
            if b["car_id"] == car_id and s < end and start < e:
                raise Refusal(f"car {car_id} is already out on a lesson {b['start']}-{hhmm(e)} on {day_s}")
        for bid, b in self._lessons_on(day_s, exclude):
            if b["learner_id"] == learner_id:
                raise Refusal(
                    f"learner {learner_id} already has a lesson on {day_s} ({bid}); one lesson per learner per day"
                )
        return d, start

    # ------------------------------------------------------------ reads
    def op_search_learners(self, a):
        name = a.get("name")
        phone = a.get("phone")
        email = a.get("email")
        lic = a.get("licence_status")
        if not any(isinstance(x, str) and x.strip() for x in (name, phone, email, lic)):
            raise Refusal("give at least one of name, phone, email or licence_status")
        if lic is not None and lic not in ("valid", "expired", "suspended"):
            raise Refusal("licence_status must be valid, expired or suspended")
        digits = re.sub(r"\D", "", phone) if isinstance(phone, str) else ""
        hits = []
        for lid in sorted(self._s["learners"]):
            r = self._s["learners"][lid]
            if isinstance(name, str) and name.strip() and name.strip().lower() not in r["name"].lower():
                continue
            if digits and re.sub(r"\D", "", r["phone"]) != digits:
                continue
            if isinstance(email, str) and email.strip() and email.strip().lower() != r["email"].lower():
                continue
            if lic and r["licence"]["status"] != lic:
                continue
            hits.append(
                {
                    "learner_id": lid,
                    "name": r["name"],
                    "phone": r["phone"],
                    "email": r["email"],
                    "licence_status": r["licence"]["status"],
                    "preferred_transmission": r["preferred_transmission"],
                }
            )
        return {"count": len(hits), "learners": hits}

    def op_get_learner(self, a):
        lid = a.get("learner_id")
        r = self._learner(lid)
        out = {"learner_id": lid}
        out.update(copy.deepcopy(r))
        out["package_active"] = self._package_active(r)
        tid, t = self._active_test(lid)
        out["active_test"] = (
            None if tid is None else {"test_id": tid, "date": t["date"], "time": t["time"], "centre": t["centre"]}
        )
        return out

    def op_check_availability(self, a):
        d = parse_date(a.get("date"))
        tr = a.get("transmission")
        if tr not in TRANSMISSIONS:
            raise Refusal("transmission must be manual or automatic")
        if d < date.fromisoformat(BUSINESS_DATE):
            raise Refusal(f"{d.isoformat()} is in the past")
        iid = a.get("instructor_id")
        if iid is not None:
            ins = self._instructor(iid)
            if not ins.get("active"):
                raise Refusal(f"instructor {iid} is not taking lessons at the moment")
            if tr not in ins.get("transmissions", []):
                raise Refusal(f"instructor {iid} does not teach in {tr} cars")
            ids = [iid]
        else:
            ids = [
                k
                for k in sorted(self._s["instructors"])
                if self._s["instructors"][k].get("active") and tr in self._s["instructors"][k].get("transmissions", [])
            ]
        day = d.isoformat()
        instructors = []
        for k in ids:
            ins = self._s["instructors"][k]
            working = weekday(d) in ins.get("working_days", [])
            busy = []
            for bid, b in self._lessons_on(day):
                if b["instructor_id"] == k:
                    s, e = self._span(b)
                    busy.append({"start": hhmm(s), "end": hhmm(e)})
            cap = int(ins.get("daily_cap", 0))
            instructors.append(
                {
                    "instructor_id": k,
                    "name": ins["name"],
                    "working": working,
                    "daily_cap": cap,
                    "lessons_booked": len(busy),
                    "remaining_capacity": max(cap - len(busy), 0) if working else 0,
                    "busy": busy,
                    "own_car_id": ins.get("car_id"),
                }
            )
        cars = []
        for cid in sorted(self._s["cars"]):
            c = self._s["cars"][cid]
            if c["transmission"] != tr or c["status"] != "available":
                continue
            busy = []
            for bid, b in self._lessons_on(day):
                if b["car_id"] == cid:
                    s, e = self._span(b)
                    busy.append({"start": hhmm(s), "end": hhmm(e)})
            cars.append(
                {
                    "car_id": cid,
                    "registration": c["registration"],
                    "model": c["model"],
                    "assigned_to": c.get("assigned_to"),
                    "busy": busy,
                }
            )
        return {"date": day, "weekday": weekday(d), "transmission": tr, "instructors": instructors, "cars": cars}

    def op_list_bookings(self, a):
        lid = a.get("learner_id")
        iid = a.get("instructor_id")
        if not lid and not iid:
            raise Refusal("give learner_id or instructor_id (or both)")
        if lid:
            self._learner(lid)
        if iid:
            self._instructor(iid)
        status = a.get("status")
        if status is not None and status not in ("booked", "completed", "cancelled", "no_show"):
            raise Refusal("status must be booked, completed, cancelled or no_show")
        dfrom = a.get("date_from")
        dto = a.get("date_to")
        if dfrom is not None:
            parse_date(dfrom, "date_from")
        if dto is not None:
            parse_date(dto, "date_to")
        rows = []
        for bid in sorted(self._s["bookings"]):
            b = self._s["bookings"][bid]
            if lid and b["learner_id"] != lid:
                continue
            if iid and b["instructor_id"] != iid:
                continue
            if status and b["status"] != status:
                continue
            if dfrom and b["date"] < dfrom:
                continue
            if dto and b["date"] > dto:
                continue
            rows.append(self._booking_view(bid))
        rows.sort(key=lambda r: (r["date"], r["start"], r["booking_id"]))
        return {"count": len(rows), "bookings": rows}

    # ------------------------------------------------------------ quote
    def op_quote_lesson(self, a):
        tr = a.get("transmission")
        if tr not in TRANSMISSIONS:
            raise Refusal("transmission must be manual or automatic")
        duration = self._check_duration(a.get("duration_min"))
        rate = self._rate(tr)
        price = self._price(rate, duration)
        needed = self._package_lessons_needed(duration)
        out = {
            "transmission": tr,
            "duration_min": duration,
            "hourly_rate": rate,
            "price": price,
            "package_lessons_needed": needed,
            "late_cancellation_fee": min(self._late_fee(), price),
        }
        lid = a.get("learner_id")
        if lid is not None:
            r = self._learner(lid)
            pkg = r.get("package") or {}
            remaining = pkg.get("lessons_remaining", 0) if pkg.get("transmission") == tr else 0
            out["learner_id"] = lid
            out["package_lessons_remaining"] = remaining
            out["package_can_cover"] = needed is not None and remaining >= needed
            out["credit_balance"] = money(r["credit_balance"])
            out["credit_can_cover"] = money(r["credit_balance"]) >= price
        return out

    # ------------------------------------------------------------ writes
    def _take_payment(self, learner_id, learner, method, transmission, duration, price):
        if method not in PAYMENT_METHODS:
            raise Refusal("payment_method must be package, credit or card")
        if method == "package":
            needed = self._package_lessons_needed(duration)
            if needed is None:
                raise Refusal(
                    "package lessons only cover 60 or 120 minute lessons; pay a 90 minute lesson by credit or card"
                )
            pkg = learner.get("package")
            if not pkg or pkg.get("lessons_remaining", 0) <= 0:
                raise Refusal(f"learner {learner_id} has no package lessons left")
            if pkg.get("transmission") != transmission:
                raise Refusal(
                    f"learner {learner_id}'s package is for {pkg.get('transmission')} lessons, not {transmission}"
                )
            if pkg["lessons_remaining"] < needed:
                raise Refusal(
                    f"learner {learner_id} has {pkg['lessons_remaining']} package lesson(s) left; {needed} needed"
                )
            pkg["lessons_remaining"] -= needed
            return {
                "method": "package",
                "package_lessons": needed,
                "amount_charged": 0.0,
            }, f"{needed} package lesson{'s' if needed > 1 else ''} used"
        if method == "credit":
            bal = money(learner["credit_balance"])
            if bal < price:
                raise Refusal(f"credit balance {fmt(bal)} does not cover {fmt(price)}")
            learner["credit_balance"] = money(bal - price)
            return {
                "method": "credit",
                "package_lessons": 0,
                "amount_charged": price,
            }, f"{fmt(price)} taken from credit"
        return {"method": "card", "package_lessons": 0, "amount_charged": price}, f"{fmt(price)} paid by card"

    def op_book_lesson(self, a):
        lid = a.get("learner_id")
        learner = self._learner(lid)
        iid = a.get("instructor_id")
        instr = self._instructor(iid)
        cid = a.get("car_id")
        car = self._car(cid)
        duration = self._check_duration(a.get("duration_min"))
        day_s, start_s = a.get("date"), a.get("start")
        self._check_slot(lid, learner, iid, instr, cid, car, day_s, start_s, duration)
        points = [p["label"] for p in learner.get("pickup_points", [])]
        pickup = a.get("pickup")
        if pickup is None:
            if not points:
                raise Refusal(f"learner {lid} has no pickup points on file")
            pickup = points[0]
        elif pickup not in points:
            raise Refusal(f"pickup '{pickup}' is not one of learner {lid}'s pickup points ({', '.join(points)})")
        tr = car["transmission"]
        price = self._price(self._rate(tr), duration)
        payment, note = self._take_payment(lid, learner, a.get("payment_method"), tr, duration, price)
        bid = self._next_id("bookings", "BK")
        self._s["bookings"][bid] = {
            "learner_id": lid,
            "instructor_id": iid,
            "car_id": cid,
            "date": day_s,
            "start": start_s,
            "duration_min": duration,
            "transmission": tr,
            "pickup": pickup,
            "status": "booked",
            "price": price,
            "payment": payment,
            "reschedule_count": 0,
            "history": [{"date": BUSINESS_DATE, "event": "booked", "note": f"Booked at desk; {note}."}],
        }
        pkg = learner.get("package")
        return {
            "booking": self._booking_view(bid),
            "learner": {
                "learner_id": lid,
                "credit_balance": money(learner["credit_balance"]),
                "package_lessons_remaining": pkg.get("lessons_remaining", 0) if pkg else 0,
            },
        }

    def op_reschedule_lesson(self, a):
        bid = a.get("booking_id")
        b = self._booking(bid)
        if b["status"] != "booked":
            raise Refusal(f"booking {bid} is {b['status']}; only booked lessons can be moved")
        notice = (self._start_dt(b) - NOW).total_seconds() / 3600.0
        if notice < 0:
            raise Refusal(f"booking {bid} has already started or taken place")
        if notice < NOTICE_HOURS:
            raise Refusal(
                f"booking {bid} starts in {notice:.1f}h; lessons can only be moved with at least {NOTICE_HOURS}h notice"
            )
        if b.get("reschedule_count", 0) >= MAX_RESCHEDULES:
            raise Refusal(
                f"booking {bid} has already been moved {b['reschedule_count']} times (limit {MAX_RESCHEDULES})"
            )
        iid = a.get("instructor_id") or b["instructor_id"]
        cid = a.get("car_id") or b["car_id"]
        instr = self._instructor(iid)
        car = self._car(cid)
        if car["transmission"] != b["transmission"]:
            raise Refusal(f"booking {bid} is a {b['transmission']} lesson; car {cid} is {car['transmission']}")
        day_s, start_s = a.get("date"), a.get("start")
        if day_s is None or start_s is None:
            raise Refusal("date and start are required")
        if day_s == b["date"] and start_s == b["start"] and iid == b["instructor_id"] and cid == b["car_id"]:
            raise Refusal("the new slot is the same as the current one")
        learner = self._learner(b["learner_id"])
        self._check_slot(
            b["learner_id"], learner, iid, instr, cid, car, day_s, start_s, int(b["duration_min"]), exclude=bid
        )
        note = f"Moved from {b['date']} {b['start']} to {day_s} {start_s}"
        if iid != b["instructor_id"]:
            note += f"; instructor {b['instructor_id']} -> {iid}"
        if cid != b["car_id"]:
            note += f"; car {b['car_id']} -> {cid}"
        b.update({"date": day_s, "start": start_s, "instructor_id": iid, "car_id": cid})
        b["reschedule_count"] = b.get("reschedule_count", 0) + 1
        b["history"].append({"date": BUSINESS_DATE, "event": "rescheduled", "note": note + "."})
        return self._booking_view(bid)

    def op_cancel_lesson(self, a):
        bid = a.get("booking_id")
        b = self._booking(bid)
        reason = a.get("reason", "learner")
        if reason not in CANCEL_REASONS:
            raise Refusal("reason must be learner or school")
        if b["status"] != "booked":
            raise Refusal(f"booking {bid} is already {b['status']}")
        notice = (self._start_dt(b) - NOW).total_seconds() / 3600.0
        if notice <= 0:
            raise Refusal(f"booking {bid} has already started; record the outcome instead")
        learner = self._learner(b["learner_id"])
        pay = b["payment"]
        late = reason == "learner" and notice < NOTICE_HOURS
        fee = 0.0
        refund = 0.0
        returned = 0
        forfeited = 0
        who = "learner" if reason == "learner" else "the school"
        if pay["method"] == "package":
            if late:
                forfeited = pay["package_lessons"]
                detail = f"late cancellation: {forfeited} package lesson{'s' if forfeited > 1 else ''} forfeited"
            else:
                returned = pay["package_lessons"]
                pkg = learner.get("package")
                if pkg and pkg.get("transmission") == b["transmission"]:
                    pkg["lessons_remaining"] = pkg.get("lessons_remaining", 0) + returned
                    detail = f"{returned} package lesson{'s' if returned > 1 else ''} returned"
                else:
                    returned = 0
                    refund = money(b["price"])
                    detail = f"package no longer held; {fmt(refund)} returned to credit"
        else:
            charged = money(pay["amount_charged"])
            if late:
                fee = money(min(self._late_fee(), charged))
                refund = money(charged - fee)
                detail = f"late cancellation: fee {fmt(fee)} kept, {fmt(refund)} returned to credit"
            else:
                refund = charged
                detail = f"{fmt(refund)} returned to credit"
        learner["credit_balance"] = money(learner["credit_balance"] + refund)
        b["status"] = "cancelled"
        note = f"Cancelled by {who} with {notice:.1f}h notice; {detail}."
        extra = a.get("note")
        if isinstance(extra, str) and extra.strip():
            note += " " + extra.strip()
        b["history"].append({"date": BUSINESS_DATE, "event": "cancelled", "note": note})
        pkg = learner.get("package")
        return {
            "booking_id": bid,
            "status": "cancelled",
            "reason": reason,
            "notice_hours": round(notice, 1),
            "late": late,
            "fee": fee,
            "refund_to_credit": refund,
            "package_lessons_returned": returned,
            "package_lessons_forfeited": forfeited,
            "learner": {
                "learner_id": b["learner_id"],
                "credit_balance": money(learner["credit_balance"]),
                "package_lessons_remaining": pkg.get("lessons_remaining", 0) if pkg else 0,
            },
        }

    def op_record_lesson_outcome(self, a):
        bid = a.get("booking_id")
        b = self._booking(bid)
        outcome = a.get("outcome")
        if outcome not in OUTCOMES:
            raise Refusal("outcome must be completed or no_show")
        if b["status"] != "booked":
            raise Refusal(f"booking {bid} is already {b['status']}")
        if self._start_dt(b) > NOW:
            raise Refusal(f"booking {bid} is on {b['date']} at {b['start']} and has not taken place yet")
        learner = self._learner(b["learner_id"])
        note = a.get("note")
        if not (isinstance(note, str) and note.strip()):
            note = "Lesson completed." if outcome == "completed" else "Learner did not attend; lesson forfeited."
        b["status"] = outcome
        b["history"].append({"date": BUSINESS_DATE, "event": outcome, "note": note.strip()})
        if outcome == "completed":
            learner["completed_lessons"] = int(learner.get("completed_lessons", 0)) + 1
        out = self._booking_view(bid)
        out["learner_completed_lessons"] = learner["completed_lessons"]
        return out

    def op_purchase_package(self, a):
        lid = a.get("learner_id")
        learner = self._learner(lid)
        pid = a.get("price_id")
        item = self._s["price_list"].get(pid) if isinstance(pid, str) else None
        if item is None:
            raise Refusal(f"price list item {pid} not found")
        if item.get("kind") != "block":
            raise Refusal(f"{pid} ({item.get('label')}) is not a lesson package")
        if self._package_active(learner):
            pkg = learner["package"]
            raise Refusal(
                f"learner {lid} still has an active package ({pkg['lessons_remaining']} of {pkg['lessons_total']} lessons left); a new one can be bought once it is used up"
            )
        method = a.get("payment_method")
        if method not in ("credit", "card"):
            raise Refusal("payment_method must be credit or card")
        price = money(item["price"])
        if method == "credit":
            bal = money(learner["credit_balance"])
            if bal < price:
                raise Refusal(f"credit balance {fmt(bal)} does not cover {fmt(price)}")
            learner["credit_balance"] = money(bal - price)
        learner["package"] = {
            "price_id": pid,
            "transmission": item["transmission"],
            "lessons_total": int(item["lessons"]),
            "lessons_remaining": int(item["lessons"]),
            "purchased_on": BUSINESS_DATE,
            "amount_paid": price,
        }
        return {
            "learner_id": lid,
            "package": copy.deepcopy(learner["package"]),
            "amount": price,
            "payment_method": method,
            "credit_balance": money(learner["credit_balance"]),
        }

    def op_book_test(self, a):
        lid = a.get("learner_id")
        learner = self._learner(lid)
        centre = a.get("centre")
        if centre not in TEST_CENTRES:
            raise Refusal("centre must be Brellcombe North or Ashvale")
        d = parse_date(a.get("date"))
        t = parse_time(a.get("time"), "time")
        if t < TEST_FIRST or t > TEST_LAST:
            raise Refusal("test slots start between 08:00 and 15:30")
        today = date.fromisoformat(BUSINESS_DATE)
        earliest = today + timedelta(days=TEST_MIN_DAYS_AHEAD)
        latest = today + timedelta(days=TEST_MAX_DAYS_AHEAD)
        if d < earliest:
            raise Refusal(
                f"tests must be booked at least {TEST_MIN_DAYS_AHEAD} days ahead (earliest {earliest.isoformat()})"
            )
        if d > latest:
            raise Refusal(f"tests can be booked at most {TEST_MAX_DAYS_AHEAD} days ahead (latest {latest.isoformat()})")
        if weekday(d) == "sun":
            raise Refusal("test centres are closed on Sundays")
        lic = learner["licence"]
        if lic.get("type") != "provisional":
            raise Refusal(
                f"learner {lid} holds a {lic.get('type')} licence; practical tests are for provisional licence holders"
            )
        if lic.get("status") != "valid":
            raise Refusal(f"learner {lid} cannot take a test: licence status is {lic.get('status')}")
        if lic.get("valid_until", "") < d.isoformat():
            raise Refusal(
                f"learner {lid}'s licence is only valid until {lic.get('valid_until')}, before the test date {d.isoformat()}"
            )
        done = int(learner.get("completed_lessons", 0))
        if done < MIN_LESSONS_FOR_TEST:
            raise Refusal(
                f"learner {lid} has completed {done} lessons; {MIN_LESSONS_FOR_TEST} are needed before a test can be booked"
            )
        tid, cur = self._active_test(lid)
        if tid is not None:
            raise Refusal(f"learner {lid} already has test {tid} booked for {cur['date']}")
        method = a.get("payment_method")
        if method not in ("credit", "card"):
            raise Refusal("payment_method must be credit or card")
        fee = self._test_fee(d)
        if method == "credit":
            bal = money(learner["credit_balance"])
            if bal < fee:
                raise Refusal(f"credit balance {fmt(bal)} does not cover the test fee {fmt(fee)}")
            learner["credit_balance"] = money(bal - fee)
        slot = "Saturday slot" if weekday(d) == "sat" else "Weekday slot"
        paid = f"{fmt(fee)} taken from credit" if method == "credit" else f"{fmt(fee)} paid by card"
        new_id = self._next_id("tests", "TS")
        self._s["tests"][new_id] = {
            "learner_id": lid,
            "date": d.isoformat(),
            "time": a.get("time"),
            "centre": centre,
            "fee": fee,
            "payment_method": method,
            "status": "booked",
            "history": [{"date": BUSINESS_DATE, "event": "booked", "note": f"{slot}; {paid}."}],
        }
        out = {"test_id": new_id}
        out.update(copy.deepcopy(self._s["tests"][new_id]))
        out["credit_balance"] = money(learner["credit_balance"])
        return out

    def op_update_pickup_points(self, a):
        lid = a.get("learner_id")
        learner = self._learner(lid)
        add = a.get("add") or []
        remove = a.get("remove") or []
        if not isinstance(add, list) or not isinstance(remove, list):
            raise Refusal("add and remove must be lists")
        if not add and not remove:
            raise Refusal("nothing to change: give add and/or remove")
        points = copy.deepcopy(learner.get("pickup_points", []))
        labels = [p["label"] for p in points]
        for label in remove:
            if label not in labels:
                raise Refusal(f"learner {lid} has no pickup point '{label}'")
            for bid in sorted(self._s["bookings"]):
                b = self._s["bookings"][bid]
                if b["learner_id"] == lid and b["status"] == "booked" and b.get("pickup") == label:
                    raise Refusal(f"pickup point '{label}' is used by booked lesson {bid} on {b['date']}")
            points = [p for p in points if p["label"] != label]
            labels.remove(label)
        for item in add:
            if not isinstance(item, dict):
                raise Refusal("each added pickup point needs a label and an address")
            label = item.get("label")
            address = item.get("address")
            if not isinstance(label, str) or not LABEL_RE.match(label):
                raise Refusal("pickup labels are one lowercase word (letters, digits, - or _), up to 20 characters")
            if not isinstance(address, str) or len(address.strip()) < 8:
                raise Refusal(f"pickup point '{label}' needs a full address")
            if label in labels:
                raise Refusal(f"learner {lid} already has a pickup point labelled '{label}'")
            points.append({"label": label, "address": address.strip()})
            labels.append(label)
        if len(points) > MAX_PICKUP_POINTS:
            raise Refusal(f"at most {MAX_PICKUP_POINTS} pickup points per learner; remove one first")
        if not points:
            raise Refusal("a learner must keep at least one pickup point")
        learner["pickup_points"] = points
        return {"learner_id": lid, "pickup_points": copy.deepcopy(points)}


OPERATIONS = (
    "search_learners",
    "get_learner",
    "check_availability",
    "list_bookings",
    "quote_lesson",
    "book_lesson",
    "reschedule_lesson",
    "cancel_lesson",
    "record_lesson_outcome",
    "purchase_package",
    "book_test",
    "update_pickup_points",
)


def make():
    return DrivingSchool()


def replay(path=None, data_path=None):
    here = os.path.dirname(os.path.abspath(__file__))
    path = path or os.path.join(here, "trajectories.jsonl")
    data_path = data_path or os.path.join(here, "data.json")
    with open(data_path, encoding="utf-8") as fh:
        data = json.load(fh)
    trajectories = calls = errors = 0
    results = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            system = make()
            system.reset(traj.get("initial_state", data))
            trajectories += 1
            for c in traj["calls"]:
                r = system.call(c["name"], c.get("arguments", {}))
                calls += 1
                errors += 0 if r["ok"] else 1
                results.append(r)
            results.append(system.state())
    return trajectories, calls, errors, results


if __name__ == "__main__":
    n, c, e, _ = replay(*(sys.argv[1:3]))
    print(f"trajectories: {n}  calls: {c}  errors: {e}  refused share: {e / c if c else 0:.3f}")
