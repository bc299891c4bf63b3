"""Seeded generator of front-desk sessions for Summit Ridge Fitness.

Written for forgegym. MIT License. Standard library only.

Each session is played by a desk agent against the real system (adapter.py) starting from data.json;
a session is kept only if exactly the intended calls are refused. Writes trajectories.jsonl next to
this file; running it twice writes the same bytes.
"""

import datetime as dt
import json
import os
import random

import adapter

SEED = 20251008
N_SESSIONS = 74
HERE = os.path.dirname(os.path.abspath(__file__))
NOW = adapter.BUSINESS_NOW
TODAY = adapter.BUSINESS_DATE
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]


def when(ts):
    t = dt.datetime.strptime(ts, "%Y-%m-%dT%H:%M")
    if t.date() == TODAY:
        day = "today"
    elif t.date() == TODAY + dt.timedelta(days=1):
        day = "tomorrow"
    else:
        day = "%s %s %d" % (DAYS[t.weekday()], MONTHS[t.month - 1], t.day)
    hour = t.hour % 12 or 12
    ampm = "am" if t.hour < 12 else "pm"
    clock = "%d:%02d%s" % (hour, t.minute, ampm) if t.minute else "%d%s" % (hour, ampm)
    return "%s at %s" % (day, clock)


def human_date(d):
    if isinstance(d, str):
        d = dt.date.fromisoformat(d)
    return "%s, %s %d" % (DAYS[d.weekday()], MONTHS[d.month - 1], d.day)


class Skip(Exception):
    pass


class Session:
    def __init__(self, data):
        self.env = adapter.make()
        self.env.reset(data)
        self.calls = []
        self.expect = []

    def do(self, name, args, ok=True):
        r = self.env.call(name, args)
        self.calls.append({"name": name, "arguments": args})
        self.expect.append(ok)
        if r["ok"] != ok:
            raise Skip("%s %s -> %s" % (name, args, r["output"]))
        return r["output"]

    def probe(self, name, args):
        scratch = adapter.make()
        scratch.reset(self.env.state())
        return scratch.call(name, args)


class Gen:
    def __init__(self, rng, data):
        self.rng = rng
        self.data = data
        self.members = data["members"]
        self.classes = data["classes"]
        self.bookings = data["bookings"]

    # -------------------------------------------------------------- helpers
    def name(self, m):
        return "%s %s" % (m["first_name"], m["last_name"])

    def first(self, m):
        return m["first_name"]

    def say(self, *variants):
        return self.rng.choice(variants)

    def member(self, pred=None):
        ids = [k for k in sorted(self.members) if pred is None or pred(self.members[k])]
        if not ids:
            raise Skip("no member")
        return self.members[self.rng.choice(ids)]

    def booking(self, pred):
        ids = [k for k in sorted(self.bookings) if pred(self.bookings[k])]
        if not ids:
            raise Skip("no booking")
        return self.bookings[self.rng.choice(ids)]

    def cls_of(self, b):
        return self.classes[b["class_id"]]

    def start(self, c):
        return dt.datetime.strptime(c["start"], "%Y-%m-%dT%H:%M")

    def hours_to(self, c):
        return (self.start(c) - NOW).total_seconds() / 3600

    def upcoming_booked(self, b):
        return b["status"] == "booked" and self.start(self.cls_of(b)) > NOW

    def bookable(self, s, m):
        """Classes this member could book right now (probed against the real system)."""
        out = []
        for cid in sorted(self.classes):
            r = s.probe("bookClass", {"member_id": m["member_id"], "class_id": cid})
            if r["ok"] and not r["output"].get("waitlisted"):
                out.append(self.classes[cid])
        return out

    def active(self, m):
        return m["status"] == "active"

    # -------------------------------------------------------------- sessions that succeed
    def s_profile(self, s):
        m = self.member()
        s.do("getMember", {"member_id": m["member_id"]})
        if self.rng.random() < 0.4:
            s.do("listMemberBookings", {"member_id": m["member_id"], "status": "booked"})
            return (
                "Hi, %s here (%s). Where does my account stand: credit, guest passes, and which classes am I still booked into?"  # noqa: E501
                % (self.name(m), m["member_id"])
            )
        return self.say(
            "Hi, I'm %s, member %s. How much credit do I have on my account, and when is my next renewal?"
            % (self.name(m), m["member_id"]),
            "Member %s here. Can you tell me how many guest passes I have left this month?" % m["member_id"],
            "This is %s (%s). What tier am I on, and which club is my home club?" % (self.name(m), m["member_id"]),
            "Hello, %s here, ID %s. How many personal-training sessions do I still have?"
            % (self.name(m), m["member_id"]),
        )

    def s_my_bookings(self, s):
        m = self.member(lambda m: any(b["member_id"] == m["member_id"] for b in self.bookings.values()))
        upcoming = self.rng.random() < 0.6
        args = {"member_id": m["member_id"]}
        if upcoming:
            args["upcoming_only"] = True
        rows = s.do("listMemberBookings", args)
        if not rows:
            raise Skip("empty")
        if self.rng.random() < 0.8:
            r = self.rng.choice(rows)
            s.do("getBooking", {"booking_id": r["booking_id"]})
            return (
                "I'm %s (%s). What classes have I got %s, and can you pull up the details for %s, including guests?"
                % (self.name(m), m["member_id"], "coming up" if upcoming else "on my account", r["class_name"])
            )
        if upcoming:
            return "Member %s. Which classes am I booked into from now on?" % m["member_id"]
        return "Hi, %s here (%s). Can you list every class booking I've had with you recently?" % (
            self.name(m),
            m["member_id"],
        )

    def s_booking_detail(self, s):
        b = self.booking(lambda b: True)
        m = self.members[b["member_id"]]
        s.do("getBooking", {"booking_id": b["booking_id"]})
        if self.rng.random() < 0.7:
            c = self.cls_of(b)
            s.do("getClass", {"class_id": c["class_id"]})
            return "Booking %s. What class is that and how full is it?" % b["booking_id"]
        return self.say(
            "I'm %s. What's the status of my booking %s?" % (self.name(m), b["booking_id"]),
            "Can you check booking %s for me? I want to know if my guest is on it." % b["booking_id"],
        )

    def s_search(self, s):
        kind = self.rng.choice(["date_club", "category", "instructor", "studio", "open"])
        day = TODAY + dt.timedelta(days=self.rng.randint(0, 4))
        club = self.rng.choice(["Ridgeview", "Lakeshore", "Old Mill"])
        if kind == "date_club":
            args = {"date": day.isoformat(), "club": club}
            text = "What classes are on at %s on %s?" % (club, human_date(day))
        elif kind == "category":
            cat = self.rng.choice(adapter.CATEGORIES)
            args = {"category": cat, "open_spots_only": True}
            text = "Are there any %s classes with places left this week?" % ("aqua" if cat == "aquatic" else cat)
        elif kind == "instructor":
            ins = self.rng.choice(sorted({c["instructor"] for c in self.classes.values()}))
            args = {"instructor": ins.split()[0]}
            text = "When is %s teaching next? I love their classes." % ins.split()[0]
        elif kind == "studio":
            studio = self.rng.choice(["Pool", "Cycle Loft", "Mind Body Room"])
            args = {"studio": studio, "date": day.isoformat()}
            text = "What's happening in the %s on %s?" % (studio, human_date(day))
        else:
            args = {"date": day.isoformat(), "open_spots_only": True}
            text = "Which classes on %s still have space?" % human_date(day)
        rows = s.do("searchClasses", args)
        if rows and self.rng.random() < 0.75:
            c = self.rng.choice(rows)
            s.do("getClass", {"class_id": c["class_id"]})
            text += " And tell me more about the %s one, is there a waitlist?" % c["name"]
        return text

    def s_book(self, s):
        m = self.member(lambda m: self.active(m))
        options = self.bookable(s, m)
        if not options:
            raise Skip("nothing bookable")
        c = self.rng.choice(options)
        mode = self.rng.random()
        if self.rng.random() < 0.6:
            s.do("getMember", {"member_id": m["member_id"]})
        if mode < 0.45:
            s.do("searchClasses", {"date": c["start"][:10], "category": c["category"], "open_spots_only": True})
            s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]})
            return (
                "I'm %s, member %s. I'd like a %s class on %s, anything with space. Put me in the %s one if it's open."
                % (self.name(m), m["member_id"], c["category"], human_date(c["start"][:10]), c["name"])
            )
        if mode < 0.75:
            s.do("getClass", {"class_id": c["class_id"]})
            s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]})
            return "Member %s. Is there room in %s (%s, %s)? If so book me in." % (
                m["member_id"],
                c["name"],
                c["class_id"],
                when(c["start"]),
            )
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]})
        s.do("listMemberBookings", {"member_id": m["member_id"], "upcoming_only": True})
        return "Hi, %s (%s). Please book me into %s, class %s, and then tell me everything I have coming up." % (
            self.name(m),
            m["member_id"],
            c["name"],
            c["class_id"],
        )

    def s_waitlist(self, s):
        c = self.rng.choice(
            [
                x
                for x in self.classes.values()
                if x["status"] == "scheduled" and x["booked_count"] >= x["capacity"] and self.start(x) > NOW
            ]
        )
        m = self.member(lambda m: self.active(m) and m["member_id"] not in c["waitlist"])
        probe = s.probe("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"], "join_waitlist": True})
        if not probe["ok"]:
            raise Skip("not eligible")
        if self.rng.random() < 0.5:
            s.do("getClass", {"class_id": c["class_id"]})
            s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"], "join_waitlist": True})
            return "%s here, member %s. I know %s %s is popular. If it's full, put me on the waitlist." % (
                self.name(m),
                m["member_id"],
                c["name"],
                when(c["start"]),
            )
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]}, ok=False)
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"], "join_waitlist": True})
        s.do("getClass", {"class_id": c["class_id"]})
        return "Member %s. Book me into %s (%s) please. If there's no room, the waitlist is fine." % (
            m["member_id"],
            c["name"],
            c["class_id"],
        )

    def s_cancel_ontime(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b) and self.hours_to(self.cls_of(b)) >= 12)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        s.do("getMember", {"member_id": m["member_id"]})
        if self.rng.random() < 0.5:
            s.do("listMemberBookings", {"member_id": m["member_id"], "upcoming_only": True})
        else:
            s.do("getBooking", {"booking_id": b["booking_id"]})
        s.do(
            "cancelBooking",
            {
                "booking_id": b["booking_id"],
                "reason": self.rng.choice(["schedule conflict", "feeling unwell", "work trip", "member request"]),
            },
        )
        return "Hi, %s (%s). I can't make %s %s any more, please cancel it. There's no fee that far ahead, right?" % (
            self.name(m),
            m["member_id"],
            c["name"],
            when(c["start"]),
        )

    def s_cancel_late(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b) and self.hours_to(self.cls_of(b)) < 12)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        s.do("getBooking", {"booking_id": b["booking_id"]})
        if self.rng.random() < 0.5:
            s.do("getClass", {"class_id": c["class_id"]})
        s.do("cancelBooking", {"booking_id": b["booking_id"]})
        if self.rng.random() < 0.5:
            s.do("getMember", {"member_id": m["member_id"]})
            return (
                "This is %s, booking %s. Something came up and I have to skip %s. Cancel it and tell me my balance afterwards."  # noqa: E501
                % (self.name(m), b["booking_id"], c["name"])
            )
        return "Booking %s, I know it's short notice but I need to cancel %s %s. How much will the late fee be?" % (
            b["booking_id"],
            c["name"],
            when(c["start"]),
        )

    def s_cancel_full(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b) and self.cls_of(b)["waitlist"])
        m, c = self.members[b["member_id"]], self.cls_of(b)
        s.do("getBooking", {"booking_id": b["booking_id"]})
        s.do("cancelBooking", {"booking_id": b["booking_id"]})
        s.do("getClass", {"class_id": c["class_id"]})
        return (
            "%s here, booking %s. Please cancel me out of %s so someone on the waitlist can have my spot, and confirm the waitlist moved."  # noqa: E501
            % (self.name(m), b["booking_id"], c["name"])
        )

    def s_checkin(self, s):
        def ok(b):
            c = self.cls_of(b)
            st = self.start(c)
            return b["status"] == "booked" and st - dt.timedelta(minutes=60) <= NOW <= st + dt.timedelta(minutes=15)

        b = self.booking(ok)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        if self.rng.random() < 0.6:
            s.do("getMember", {"member_id": m["member_id"]})
            rows = s.do("listMemberBookings", {"member_id": m["member_id"], "status": "booked"})
            if not any(r["booking_id"] == b["booking_id"] for r in rows):
                raise Skip("not listed")
            s.do("checkInBooking", {"booking_id": b["booking_id"]})
            return "Morning! %s, member %s, here for %s. Can you check me in?" % (
                self.name(m),
                m["member_id"],
                c["name"],
            )
        s.do("getBooking", {"booking_id": b["booking_id"]})
        s.do("checkInBooking", {"booking_id": b["booking_id"]})
        return "Hi, checking in for %s, my booking is %s." % (c["name"], b["booking_id"])

    def s_freeze(self, s):
        m = self.member(
            lambda m: (
                self.active(m)
                and m["account_credit"] >= 0
                and not any(self.upcoming_booked(b) for b in self.bookings.values() if b["member_id"] == m["member_id"])
                and not any(h["event"] == "frozen" and h["date"].startswith("2025") for h in m["history"])
            )
        )
        months = self.rng.randint(1, 3)
        reason = self.rng.choice(["travelling", "injury recovery", "new baby", "work project abroad"])
        s.do("getMember", {"member_id": m["member_id"]})
        if self.rng.random() < 0.6:
            s.do("listMemberBookings", {"member_id": m["member_id"], "upcoming_only": True})
        s.do("freezeMembership", {"member_id": m["member_id"], "months": months, "reason": reason})
        return "I'm %s (%s). I need to pause my membership for %d month%s, %s. What will it cost?" % (
            self.name(m),
            m["member_id"],
            months,
            "s" if months > 1 else "",
            reason,
        )

    def s_cancel_then_freeze(self, s):
        m = self.member(
            lambda m: (
                self.active(m)
                and m["account_credit"] >= 0
                and not any(h["event"] == "frozen" and h["date"].startswith("2025") for h in m["history"])
                and any(self.upcoming_booked(b) for b in self.bookings.values() if b["member_id"] == m["member_id"])
            )
        )
        months = self.rng.randint(1, 3)
        rows = s.do("listMemberBookings", {"member_id": m["member_id"], "upcoming_only": True})
        booked = [r for r in rows if r["status"] == "booked"]
        if len(booked) > 3:
            raise Skip("too many")
        for r in booked:
            s.do("cancelBooking", {"booking_id": r["booking_id"], "reason": "membership freeze"})
        owes = s.env.state()["members"][m["member_id"]]["account_credit"] < 0
        s.do("freezeMembership", {"member_id": m["member_id"], "months": months}, ok=not owes)
        return (
            "%s, member %s. I'm going away for %d month%s. Cancel whatever classes I have booked and freeze my membership."  # noqa: E501
            % (self.name(m), m["member_id"], months, "s" if months > 1 else "")
        )

    def s_quote_tier(self, s):
        m = self.member(lambda m: self.active(m))
        others = [t for t in adapter.TIER_ORDER if t != m["tier"]]
        t = self.rng.choice(others)
        s.do("getMember", {"member_id": m["member_id"]})
        if self.rng.random() < 0.35:
            for x in others:
                s.do("getQuote", {"member_id": m["member_id"], "quote_type": "tier_change", "new_tier": x})
            return "%s, member %s. Compare for me what switching to %s or to %s would cost today." % (
                self.name(m),
                m["member_id"],
                others[0].capitalize(),
                others[1].capitalize(),
            )
        s.do("getQuote", {"member_id": m["member_id"], "quote_type": "tier_change", "new_tier": t})
        up = adapter.TIER_ORDER.index(t) > adapter.TIER_ORDER.index(m["tier"])
        return "Hi, %s (%s). What would it cost me to %s to %s, and when would it take effect?" % (
            self.name(m),
            m["member_id"],
            "upgrade" if up else "move down",
            t.capitalize(),
        )

    def s_quote_package(self, s):
        m = self.member(lambda m: m["status"] != "cancelled")
        n = self.rng.choice([5, 10, 20])
        if self.rng.random() < 0.7:
            s.do("getMember", {"member_id": m["member_id"]})
        s.do("getQuote", {"member_id": m["member_id"], "quote_type": "training_package", "sessions": n})
        if self.rng.random() < 0.35:
            n2 = self.rng.choice([x for x in (5, 10, 20) if x != n])
            s.do("getQuote", {"member_id": m["member_id"], "quote_type": "training_package", "sessions": n2})
            return "Member %s. How much is a %d-session personal-training package compared with %d sessions?" % (
                m["member_id"],
                n,
                n2,
            )
        return "I'm %s, %s. What's the price of %d personal-training sessions for me?" % (
            self.name(m),
            m["member_id"],
            n,
        )

    def s_add_guest(self, s):
        def ok(b):
            if not self.upcoming_booked(b) or len(b["guests"]) >= 2:
                return False
            c = self.cls_of(b)
            return self.members[b["member_id"]]["guest_passes_left"] > 0 and c["booked_count"] < c["capacity"]

        b = self.booking(ok)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        guest = self.rng.choice(
            [
                "Ravi Sandoval",
                "Hanna Kurtz",
                "Leo Barrington",
                "Amara Nwosu",
                "Fiona Delacroix",
                "Tobias Renk",
                "Chloe Ambrose",
            ]
        )
        s.do("getBooking", {"booking_id": b["booking_id"]})
        if self.rng.random() < 0.5:
            s.do("getMember", {"member_id": m["member_id"]})
        s.do("addBookingGuest", {"booking_id": b["booking_id"], "guest_name": guest})
        return "%s here, booking %s for %s. My friend %s wants to come along, can you add them as my guest?" % (
            self.name(m),
            b["booking_id"],
            c["name"],
            guest,
        )

    def s_remove_guest(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b) and b["guests"])
        m, c = self.members[b["member_id"]], self.cls_of(b)
        g = b["guests"][0]["guest_name"]
        s.do("getBooking", {"booking_id": b["booking_id"]})
        s.do("removeBookingGuest", {"booking_id": b["booking_id"], "guest_name": g})
        if self.rng.random() < 0.4:
            s.do("getMember", {"member_id": m["member_id"]})
            return (
                "Booking %s. %s can't make %s after all. Take them off and tell me whether I get my guest pass back."
                % (b["booking_id"], g.split()[0], c["name"])
            )
        return "I'm %s. Please remove my guest %s from booking %s." % (self.name(m), g, b["booking_id"])

    def s_swap_guest(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b) and b["guests"])
        m = self.members[b["member_id"]]
        g = b["guests"][0]["guest_name"]
        new = self.rng.choice(["Ines Markovic", "Dev Patel-Hart", "Quinn Oduya", "Marta Lindgren"])
        s.do("getBooking", {"booking_id": b["booking_id"]})
        s.do("removeBookingGuest", {"booking_id": b["booking_id"], "guest_name": g})
        ok = s.probe("addBookingGuest", {"booking_id": b["booking_id"], "guest_name": new})["ok"]
        s.do("addBookingGuest", {"booking_id": b["booking_id"], "guest_name": new}, ok=ok)
        return "%s here, booking %s. Swap my guest %s for %s, please." % (self.name(m), b["booking_id"], g, new)

    def s_rebook(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b))
        m, old = self.members[b["member_id"]], self.cls_of(b)
        s.do("getMember", {"member_id": m["member_id"]})
        s.do("listMemberBookings", {"member_id": m["member_id"], "upcoming_only": True})
        s.do("cancelBooking", {"booking_id": b["booking_id"], "reason": "moving to another class"})
        options = [c for c in self.bookable(s, m) if c["class_id"] != old["class_id"]]
        if not options:
            raise Skip("nothing to move to")
        same = [c for c in options if c["category"] == old["category"]]
        c = self.rng.choice(same or options)
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]})
        return "%s, member %s. Please move me from %s %s to %s %s." % (
            self.name(m),
            m["member_id"],
            old["name"],
            when(old["start"]),
            c["name"],
            when(c["start"]),
        )

    def s_book_two(self, s):
        m = self.member(lambda m: self.active(m) and m["tier"] != "basic")
        first = self.bookable(s, m)
        if len(first) < 2:
            raise Skip("few")
        a = self.rng.choice(first)
        s.do("getMember", {"member_id": m["member_id"]})
        s.do("bookClass", {"member_id": m["member_id"], "class_id": a["class_id"]})
        second = [c for c in self.bookable(s, m) if c["category"] != a["category"]]
        if not second:
            raise Skip("no second")
        b = self.rng.choice(second)
        s.do("bookClass", {"member_id": m["member_id"], "class_id": b["class_id"]})
        s.do("listMemberBookings", {"member_id": m["member_id"], "upcoming_only": True})
        return "I'm %s (%s). Book me into %s (%s) and also %s (%s), then read me my upcoming schedule." % (
            self.name(m),
            m["member_id"],
            a["name"],
            when(a["start"]),
            b["name"],
            when(b["start"]),
        )

    def s_guest_checkin(self, s):
        def ok(b):
            c = self.cls_of(b)
            st = self.start(c)
            return (
                b["status"] == "booked"
                and st - dt.timedelta(minutes=60) <= NOW < st
                and len(b["guests"]) < 2
                and self.members[b["member_id"]]["guest_passes_left"] > 0
                and c["booked_count"] < c["capacity"]
            )

        b = self.booking(ok)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        guest = self.rng.choice(["Ruth Adebayo", "Simon Keel", "Lotte Brink", "Arturo Vela"])
        s.do("getMember", {"member_id": m["member_id"]})
        s.do("addBookingGuest", {"booking_id": b["booking_id"], "guest_name": guest})
        s.do("checkInBooking", {"booking_id": b["booking_id"]})
        return (
            "Hi, %s (%s) for %s, booking %s. I brought my friend %s, can you add them on a guest pass and check us both in?"  # noqa: E501
            % (self.name(m), m["member_id"], c["name"], b["booking_id"], guest)
        )

    # -------------------------------------------------------------- sessions with a refusal
    def r_book_inactive(self, s):
        m = self.member(lambda m: m["status"] != "active")
        c = self.rng.choice(
            [
                x
                for x in self.classes.values()
                if x["status"] == "scheduled" and self.start(x) > NOW and (x["club"] == m["home_club"])
            ]
        )
        s.do("getMember", {"member_id": m["member_id"]})
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]}, ok=False)
        return "Hi, %s (%s). Can you book me into %s %s?" % (self.name(m), m["member_id"], c["name"], when(c["start"]))

    def r_book_balance(self, s):
        m = self.members["M-1005"]
        c = self.rng.choice(
            [
                x
                for x in self.classes.values()
                if x["club"] == "Ridgeview"
                and x["status"] == "scheduled"
                and NOW < self.start(x)
                and (self.start(x).date() - TODAY).days <= 2
            ]
        )
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]}, ok=False)
        if self.rng.random() < 0.5:
            s.do("getMember", {"member_id": m["member_id"]})
            return (
                "%s here, M-1005. Put me in %s %s, please. If there's a problem with my account, tell me what I owe."
                % (self.name(m), c["name"], when(c["start"]))
            )
        return "Member M-1005. Please book class %s for me." % c["class_id"]

    def r_book_window(self, s):
        m = self.member(lambda m: self.active(m) and m["account_credit"] >= -25)
        w = self.data["tiers"][m["tier"]]["booking_window_days"]
        far = [
            x
            for x in self.classes.values()
            if x["status"] == "scheduled"
            and (self.start(x).date() - TODAY).days > w
            and (self.data["tiers"][m["tier"]]["all_clubs"] or x["club"] == m["home_club"])
        ]
        if not far:
            raise Skip("none far")
        c = self.rng.choice(far)
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]}, ok=False)
        if self.rng.random() < 0.5:
            opts = self.bookable(s, m)
            same = [x for x in opts if x["category"] == c["category"]]
            if same:
                alt = same[0]
                s.do("searchClasses", {"category": c["category"], "open_spots_only": True})
                s.do("bookClass", {"member_id": m["member_id"], "class_id": alt["class_id"]})
                return (
                    "Member %s. Book me into %s on %s. If it's too far ahead, get me the next %s class I can book instead."  # noqa: E501
                    % (m["member_id"], c["name"], human_date(c["start"][:10]), c["category"])
                )
        return "I'm %s (%s). I'd like to reserve %s (%s) on %s." % (
            self.name(m),
            m["member_id"],
            c["name"],
            c["class_id"],
            human_date(c["start"][:10]),
        )

    def r_book_other_club(self, s):
        m = self.member(lambda m: self.active(m) and m["tier"] == "basic" and m["account_credit"] >= -25)
        away = [
            x
            for x in self.classes.values()
            if x["status"] == "scheduled"
            and x["club"] != m["home_club"]
            and NOW < self.start(x)
            and (self.start(x).date() - TODAY).days <= 2
        ]
        c = self.rng.choice(away)
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]}, ok=False)
        if self.rng.random() < 0.6:
            s.do("searchClasses", {"club": m["home_club"], "category": c["category"], "open_spots_only": True})
            return (
                "%s, member %s. Book me into %s at %s %s. If I can't go there, what %s classes does my own club have?"
                % (self.name(m), m["member_id"], c["name"], c["club"], when(c["start"]), c["category"])
            )
        return "Member %s. Please sign me up for %s at the %s club." % (m["member_id"], c["name"], c["club"])

    def r_book_overlap(self, s):
        m = self.members["M-1001"]
        s.do("bookClass", {"member_id": "M-1001", "class_id": "CL-2008"}, ok=False)
        if self.rng.random() < 0.5:
            s.do("getBooking", {"booking_id": "BK-5010"})
            return "Dana Whitlock, M-1001. Book me into Barre Sculpt tonight at 7:45. If it clashes with something, tell me what."  # noqa: E501
        return "Hi, %s here (M-1001). Add Barre Sculpt this evening, class CL-2008, to my schedule please." % self.name(
            m
        )

    def r_book_limit(self, s):
        c = self.rng.choice(
            [
                x
                for x in self.classes.values()
                if x["club"] == "Lakeshore"
                and x["status"] == "scheduled"
                and NOW < self.start(x)
                and (self.start(x).date() - TODAY).days <= 2
                and x["class_id"] not in ("CL-2003", "CL-2006", "CL-2012")
            ]
        )
        s.do("bookClass", {"member_id": "M-1002", "class_id": c["class_id"]}, ok=False)
        s.do("listMemberBookings", {"member_id": "M-1002", "upcoming_only": True})
        return "Marcus Teller, M-1002. I want to add %s %s. If I'm over some limit, list what I've already got." % (
            c["name"],
            when(c["start"]),
        )

    def r_book_cancelled_class(self, s):
        m = self.member(lambda m: self.active(m) and m["account_credit"] >= -25 and m["tier"] != "basic")
        s.do("bookClass", {"member_id": m["member_id"], "class_id": "CL-2018"}, ok=False)
        s.do("searchClasses", {"category": "yoga", "open_spots_only": True})
        return (
            "I'm %s (%s). Please book Core & Stretch tomorrow at noon, CL-2018. If that's off, what yoga is still open?"
            % (self.name(m), m["member_id"])
        )

    def r_book_duplicate(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b))
        m, c = self.members[b["member_id"]], self.cls_of(b)
        s.do("bookClass", {"member_id": m["member_id"], "class_id": c["class_id"]}, ok=False)
        s.do("listMemberBookings", {"member_id": m["member_id"], "upcoming_only": True})
        return "%s (%s) here. Book me into %s %s, and then tell me everything I have coming up." % (
            self.name(m),
            m["member_id"],
            c["name"],
            when(c["start"]),
        )

    def r_cancel_bad_status(self, s):
        b = self.booking(lambda b: b["status"] != "booked" or self.start(self.cls_of(b)) <= NOW)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        s.do("getBooking", {"booking_id": b["booking_id"]})
        s.do("cancelBooking", {"booking_id": b["booking_id"]}, ok=False)
        return "This is %s. Please cancel booking %s for %s." % (self.name(m), b["booking_id"], c["name"])

    def r_checkin_window(self, s):
        def bad(b):
            st = self.start(self.cls_of(b))
            return b["status"] == "booked" and not (
                st - dt.timedelta(minutes=60) <= NOW <= st + dt.timedelta(minutes=15)
            )

        b = self.booking(bad)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        s.do("checkInBooking", {"booking_id": b["booking_id"]}, ok=False)
        if self.rng.random() < 0.4:
            s.do("getClass", {"class_id": c["class_id"]})
        late = self.start(c) < NOW
        if late:
            return "Sorry I'm late, %s for %s, booking %s. Can you still check me in?" % (
                self.name(m),
                c["name"],
                b["booking_id"],
            )
        return "Hi, %s here. I'm early for %s but can you check me in now? Booking %s." % (
            self.first(m),
            c["name"],
            b["booking_id"],
        )

    def r_checkin_done(self, s):
        b = self.booking(lambda b: b["status"] in ("attended", "cancelled", "no_show"))
        s.do("getBooking", {"booking_id": b["booking_id"]})
        s.do("checkInBooking", {"booking_id": b["booking_id"]}, ok=False)
        return "Please check me in on booking %s." % b["booking_id"]

    def r_freeze_refused(self, s):
        m = self.member(
            lambda m: (
                m["status"] != "active"
                or m["account_credit"] < 0
                or any(h["event"] == "frozen" and h["date"].startswith("2025") for h in m["history"])
                or any(self.upcoming_booked(b) for b in self.bookings.values() if b["member_id"] == m["member_id"])
            )
        )
        months = self.rng.randint(1, 3)
        if self.rng.random() < 0.5:
            s.do("getMember", {"member_id": m["member_id"]})
        s.do("freezeMembership", {"member_id": m["member_id"], "months": months}, ok=False)
        return "%s, member %s. Please freeze my membership for %d month%s." % (
            self.name(m),
            m["member_id"],
            months,
            "s" if months > 1 else "",
        )

    def r_freeze_too_long(self, s):
        m = self.member(
            lambda m: (
                self.active(m)
                and m["account_credit"] >= 0
                and not any(self.upcoming_booked(b) for b in self.bookings.values() if b["member_id"] == m["member_id"])
                and not any(h["event"] == "frozen" and h["date"].startswith("2025") for h in m["history"])
            )
        )
        s.do("freezeMembership", {"member_id": m["member_id"], "months": 4, "reason": "extended travel"}, ok=False)
        s.do("freezeMembership", {"member_id": m["member_id"], "months": 3, "reason": "extended travel"})
        return (
            "%s (%s). I'm travelling for four months, freeze me for the whole time, or as long as you're allowed to."
            % (self.name(m), m["member_id"])
        )

    def r_guest_no_pass(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b) and self.members[b["member_id"]]["guest_passes_left"] == 0)
        m, c = self.members[b["member_id"]], self.cls_of(b)
        guest = self.rng.choice(["Pia Ronström", "Gabe Whitfield", "Noor Haddad"])
        s.do("addBookingGuest", {"booking_id": b["booking_id"], "guest_name": guest}, ok=False)
        if self.rng.random() < 0.5:
            s.do("getMember", {"member_id": m["member_id"]})
        return "%s here, booking %s. Can my friend %s join me at %s?" % (
            self.name(m),
            b["booking_id"],
            guest,
            c["name"],
        )

    def r_guest_full(self, s):
        s.do("getClass", {"class_id": "CL-2007"})
        s.do("addBookingGuest", {"booking_id": "BK-5011", "guest_name": "Otto Lindqvist"}, ok=False)
        return "Carys Lindqvist, booking BK-5011. I'd like to bring my brother Otto Lindqvist to Evening Spin tonight."

    def r_guest_dup(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b) and b["guests"])
        g = b["guests"][0]["guest_name"]
        s.do("addBookingGuest", {"booking_id": b["booking_id"], "guest_name": g}, ok=False)
        s.do("getBooking", {"booking_id": b["booking_id"]})
        return "Booking %s. Please add %s as my guest, and then read me who's on the booking." % (b["booking_id"], g)

    def r_remove_unknown_guest(self, s):
        b = self.booking(lambda b: self.upcoming_booked(b))
        g = self.rng.choice(["Harriet Olsen", "Mateo Quiroga", "Wen Zhao"])
        s.do("removeBookingGuest", {"booking_id": b["booking_id"], "guest_name": g}, ok=False)
        s.do("getBooking", {"booking_id": b["booking_id"]})
        return "Please take %s off my booking %s, they're not coming." % (g, b["booking_id"])

    def r_quote_refused(self, s):
        kind = self.rng.choice(["frozen", "same", "size", "cancelled"])
        if kind == "frozen":
            m = self.member(lambda m: m["status"] == "frozen")
            t = self.rng.choice([x for x in adapter.TIER_ORDER if x != m["tier"]])
            s.do("getQuote", {"member_id": m["member_id"], "quote_type": "tier_change", "new_tier": t}, ok=False)
            return "%s (%s). My membership is on hold, but what would switching to %s cost?" % (
                self.name(m),
                m["member_id"],
                t.capitalize(),
            )
        if kind == "same":
            m = self.member(lambda m: self.active(m))
            s.do(
                "getQuote", {"member_id": m["member_id"], "quote_type": "tier_change", "new_tier": m["tier"]}, ok=False
            )
            s.do("getMember", {"member_id": m["member_id"]})
            return "Member %s. Quote me the %s tier, please. Actually, what tier am I on now?" % (
                m["member_id"],
                m["tier"].capitalize(),
            )
        if kind == "size":
            m = self.member(lambda m: self.active(m))
            s.do("getQuote", {"member_id": m["member_id"], "quote_type": "training_package", "sessions": 8}, ok=False)
            s.do("getQuote", {"member_id": m["member_id"], "quote_type": "training_package", "sessions": 10})
            return (
                "I'm %s (%s). How much for 8 PT sessions? If you don't sell 8, give me the closest package above it."
                % (self.name(m), m["member_id"])
            )
        s.do("getMember", {"member_id": "M-1008"})
        s.do("getQuote", {"member_id": "M-1008", "quote_type": "training_package", "sessions": 5}, ok=False)
        return "Rafael Quintero, M-1008. What would 5 personal-training sessions cost me?"

    def r_unknown_id(self, s):
        kind = self.rng.choice(["member", "booking", "class"])
        if kind == "member":
            mid = "M-%d" % self.rng.randint(1030, 1099)
            s.do("getMember", {"member_id": mid}, ok=False)
            return "Hi, my member number is %s. What's my balance?" % mid
        if kind == "booking":
            bid = "BK-%d" % self.rng.randint(5100, 5199)
            s.do("getBooking", {"booking_id": bid}, ok=False)
            return "I have a confirmation number %s, which class is that for?" % bid
        cid = "CL-%d" % self.rng.randint(2050, 2099)
        s.do("getClass", {"class_id": cid}, ok=False)
        return "Is there space in class %s?" % cid


PLAN = [
    ("s_profile", 2),
    ("s_my_bookings", 2),
    ("s_booking_detail", 1),
    ("s_search", 5),
    ("s_book", 4),
    ("s_waitlist", 2),
    ("s_cancel_ontime", 3),
    ("s_cancel_late", 3),
    ("s_cancel_full", 2),
    ("s_checkin", 4),
    ("s_freeze", 3),
    ("s_cancel_then_freeze", 2),
    ("s_quote_tier", 3),
    ("s_quote_package", 3),
    ("s_add_guest", 2),
    ("s_remove_guest", 4),
    ("s_swap_guest", 3),
    ("s_guest_checkin", 2),
    ("s_rebook", 3),
    ("s_book_two", 2),
    ("r_book_inactive", 1),
    ("r_book_balance", 1),
    ("r_book_window", 1),
    ("r_book_other_club", 1),
    ("r_book_overlap", 1),
    ("r_book_limit", 1),
    ("r_book_cancelled_class", 1),
    ("r_book_duplicate", 1),
    ("r_cancel_bad_status", 1),
    ("r_checkin_window", 2),
    ("r_checkin_done", 1),
    ("r_freeze_refused", 2),
    ("r_freeze_too_long", 1),
    ("r_guest_no_pass", 1),
    ("r_guest_full", 1),
    ("r_guest_dup", 1),
    ("r_remove_unknown_guest", 1),
    ("r_quote_refused", 1),
    ("r_unknown_id", 1),
]


WRITES = ("bookClass", "cancelBooking", "checkInBooking", "freezeMembership", "addBookingGuest", "removeBookingGuest")


def write_key(calls):
    """What a session changes: the same change is made by at most two sessions."""
    out = []
    for c in calls:
        if c["name"] in WRITES:
            a = c["arguments"]
            out.append((c["name"], a.get("booking_id") or a.get("member_id")))
    return out


def build():
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    rng = random.Random(SEED)
    gen = Gen(rng, data)
    kinds = [k for k, n in PLAN for _ in range(n)]
    rng.shuffle(kinds)
    out, seen, touched = [], set(), {}
    for kind in kinds:
        for _ in range(60):
            s = Session(data)
            try:
                text = getattr(gen, kind)(s)
            except Skip:
                continue
            key = json.dumps(s.calls, sort_keys=True)
            wk = write_key(s.calls)
            if key in seen or any(touched.get(w, 0) >= 2 for w in wk):
                continue
            # replay from the initial data: exactly the intended calls must be refused
            env = adapter.make()
            env.reset(data)
            got = [env.call(c["name"], c["arguments"])["ok"] for c in s.calls]
            if got != s.expect:
                continue
            seen.add(key)
            for w in set(wk):
                touched[w] = touched.get(w, 0) + 1
            out.append({"instruction": text, "calls": s.calls})
            break
        else:
            raise SystemExit("could not build a %s session" % kind)
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for i, t in enumerate(out):
            row = {"id": "fitness-%03d" % i, "instruction": t["instruction"], "calls": t["calls"]}
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    calls = sum(len(t["calls"]) for t in out)
    counts = {}
    refused = 0
    for t in out:
        env = adapter.make()
        env.reset(data)
        for c in t["calls"]:
            counts[c["name"]] = counts.get(c["name"], 0) + 1
            if not env.call(c["name"], c["arguments"])["ok"]:
                refused += 1
    print("sessions: %d  calls: %d  refused: %d (%.1f%%)" % (len(out), calls, refused, 100.0 * refused / calls))
    for k in sorted(counts):
        print("  %-20s %d" % (k, counts[k]))


if __name__ == "__main__":
    build()
