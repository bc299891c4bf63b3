"""Seeded generator of support sessions for the Pinecrest Lake campground office.

Written for forgegym. MIT License. Standard library only.

Each session is built by playing a desk agent against the real system (adapter.py) from data.json,
then replayed from data.json; it is kept only if exactly the intended calls are refused.
Writes trajectories.jsonl next to this file; running it twice writes the same bytes.
"""

import datetime as dt
import json
import os
import random

import adapter

SEED = 20250612
N_SESSIONS = 74
HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = adapter.BUSINESS_DATE
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


def human(d):
    if isinstance(d, str):
        d = dt.date.fromisoformat(d)
    return "%s %d" % (MONTHS[d.month - 1], d.day)


def iso(d):
    return d.isoformat()


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


class Gen:
    def __init__(self, rng, data):
        self.rng = rng
        self.data = data
        self.campers = data["campers"]
        self.sites = data["campsites"]
        self.res = data["reservations"]

    # -------------------------------------------------------------- pickers
    def camper(self, active=True, pred=None):
        ids = [
            c
            for c in sorted(self.campers)
            if (self.campers[c]["status"] == "active") == active and (pred is None or pred(self.campers[c]))
        ]
        return self.campers[self.rng.choice(ids)]

    def reservations(self, pred):
        return [self.res[r] for r in sorted(self.res) if pred(self.res[r])]

    def pick_res(self, pred):
        rows = self.reservations(pred)
        if not rows:
            raise Skip("no reservation")
        return self.rng.choice(rows)

    def stay(self, lo=1, hi=5, start=None, end=None):
        start = start or TODAY + dt.timedelta(days=1)
        end = end or dt.date(2025, 9, 26)
        span = (end - start).days
        a = start + dt.timedelta(days=self.rng.randint(0, span))
        return a, a + dt.timedelta(days=self.rng.randint(lo, hi))

    def name(self, c):
        return "%s %s" % (c["first_name"], c["last_name"])

    def plate(self):
        letters = "ABCDEFGHJKLMNPRSTUVWXYZ"
        return "%d%s%d" % (
            self.rng.randint(1, 9),
            "".join(self.rng.choice(letters) for _ in range(3)),
            self.rng.randint(100, 999),
        )

    def say(self, *variants):
        return self.rng.choice(variants)

    # -------------------------------------------------------------- sessions that succeed
    def s_credit(self, s):
        c = self.camper(pred=lambda c: True)
        s.do("get_camper", {"camper_id": c["camper_id"]})
        if self.rng.random() < 0.5:
            s.do("list_reservations", {"camper_id": c["camper_id"], "status": "confirmed"})
            return "Hi, %s here (%s). What's my account credit, and which upcoming stays do I have booked?" % (
                self.name(c),
                c["camper_id"],
            )
        return self.say(
            "Hi, this is %s, camper %s. Can you tell me how much credit is sitting on my account?"
            % (self.name(c), c["camper_id"]),
            "I'm %s (%s). Do I have a Senior Pass on file, and what plate do you have for my car?"
            % (self.name(c), c["camper_id"]),
            "Camper %s here. What does my profile say my usual party size is?" % c["camper_id"],
        )

    def s_my_bookings(self, s):
        c = self.camper(pred=lambda c: any(r["camper_id"] == c["camper_id"] for r in self.res.values()))
        rows = s.do("list_reservations", {"camper_id": c["camper_id"]})
        upcoming = [r for r in rows if r["status"] in ("confirmed", "checked_in")] or rows
        r = self.rng.choice(upcoming)
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        return self.say(
            "This is %s (camper %s). Which reservations do I have with you, and can you give "
            "me the details of the one at %s?" % (self.name(c), c["camper_id"], r["site_id"]),
            "Hello, camper ID %s. I forgot my reservation number for the stay starting %s. "
            "Can you find it and read me the charges?" % (c["camper_id"], human(r["arrival"])),
        )

    def s_search_quote(self, s):
        c = self.camper()
        t = self.rng.choice(["tent", "tent", "rv", "cabin"])
        a, d = self.stay(2, 5)
        args = {"site_type": t, "arrival": iso(a), "departure": iso(d), "min_occupancy": c["party_size"]}
        if self.rng.random() < 0.5:
            s.do("get_camper", {"camper_id": c["camper_id"]})
        loop = None
        if self.rng.random() < 0.4:
            loop = self.rng.choice(sorted({x["loop"] for x in self.sites.values() if x["type"] == t}))
            args["loop"] = loop
        found = s.do("search_campsites", args)
        if not found:
            raise Skip("none free")
        site = self.rng.choice(found)
        q = {"site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)}
        if c["senior_pass"]:
            q["senior_pass"] = True
        s.do("quote_stay", q)
        where = " in the %s loop" % loop if loop else ""
        kind = {"tent": "a tent site", "rv": "an RV site", "cabin": "a cabin"}[t]
        return self.say(
            "I'm %s (%s). Is there %s%s free from %s to %s for %d of us? If so, how much would it cost? Don't book yet."
            % (self.name(c), c["camper_id"], kind, where, human(a), human(d), c["party_size"]),
            "Camper %s, party of %d. Looking for %s%s, arriving %s and leaving %s. Just a price for now, please."
            % (c["camper_id"], c["party_size"], kind, where, human(a), human(d)),
        )

    def s_book(self, s):
        c = self.camper()
        t = self.rng.choice(["tent", "rv", "cabin", "tent"])
        a, d = self.stay(1, 4)
        s.do("get_camper", {"camper_id": c["camper_id"]})
        found = s.do(
            "search_campsites",
            {"site_type": t, "arrival": iso(a), "departure": iso(d), "min_occupancy": c["party_size"]},
        )
        if not found:
            raise Skip("none free")
        site = found[0] if self.rng.random() < 0.5 else self.rng.choice(found)
        q = {"site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)}
        if c["senior_pass"]:
            q["senior_pass"] = True
        s.do("quote_stay", q)
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)},
        )
        kind = {"tent": "tent site", "rv": "RV site", "cabin": "cabin"}[t]
        return self.say(
            "Hi, I'm %s, camper %s. Please book us a %s from %s to %s, same party as usual. Tell me the price first."
            % (self.name(c), c["camper_id"], kind, human(a), human(d)),
            "Camper %s. We'd like a %s for the nights of %s through the morning of %s. Quote "
            "it and go ahead and book it." % (c["camper_id"], kind, human(a), human(d)),
        )

    def s_book_site_direct(self, s):
        c = self.camper()
        for _ in range(20):
            site = self.sites[self.rng.choice(sorted(self.sites))]
            if site["status"] != "closed" and site["max_occupancy"] >= c["party_size"]:
                break
        else:
            raise Skip("no site")
        a, d = self.stay(1, 3)
        if s.env._conflict(site["site_id"], a, d):
            raise Skip("taken")
        party = self.rng.randint(1, site["max_occupancy"])
        s.do("get_campsite", {"site_id": site["site_id"]})
        s.do("quote_stay", {"site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)})
        s.do(
            "create_reservation",
            {
                "camper_id": c["camper_id"],
                "site_id": site["site_id"],
                "arrival": iso(a),
                "departure": iso(d),
                "party_size": party,
            },
        )
        return (
            "This is %s (%s). We loved site %s last time. Can you reserve it for %s to %s? There will be %d of us."
            % (self.name(c), c["camper_id"], site["site_id"], human(a), human(d), party)
        )

    def s_book_credit(self, s):
        c = self.camper(pred=lambda c: c["account_credit"] > 0)
        a, d = self.stay(1, 3)
        s.do("get_camper", {"camper_id": c["camper_id"]})
        found = s.do(
            "search_campsites",
            {"arrival": iso(a), "departure": iso(d), "min_occupancy": c["party_size"], "max_nightly_fee": 35},
        )
        if not found:
            raise Skip("none")
        site = self.rng.choice(found)
        s.do(
            "create_reservation",
            {
                "camper_id": c["camper_id"],
                "site_id": site["site_id"],
                "arrival": iso(a),
                "departure": iso(d),
                "use_credit": True,
            },
        )
        s.do("get_camper", {"camper_id": c["camper_id"]})
        return self.say(
            "I'm %s (%s). I have some credit from a refund. Book me any site under $35 a "
            "night from %s to %s and pay with the credit." % (self.name(c), c["camper_id"], human(a), human(d)),
            "Camper %s. Use my account credit toward something cheap, $35 a night or less, arriving %s, leaving %s."
            % (c["camper_id"], human(a), human(d)),
        )

    def s_add_vehicle(self, s):
        def room(r):
            t = self.data["site_types"][self.sites[r["site_id"]]["type"]]
            return r["status"] in ("confirmed", "checked_in") and len(r["extra_vehicles"]) < t["max_extra_vehicles"]

        r = self.pick_res(room)
        c = self.campers[r["camper_id"]]
        p = self.plate()
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        s.do("add_vehicle", {"reservation_id": r["reservation_id"], "plate": p})
        return self.say(
            "This is %s on reservation %s. My sister is driving up separately, plate %s. "
            "Please add her car to our stay." % (self.name(c), r["reservation_id"], p),
            "Reservation %s. We're bringing a second vehicle, license %s. Register it and tell me what it adds."
            % (r["reservation_id"], p),
        )

    def s_remove_vehicle(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["extra_vehicles"])
        c = self.campers[r["camper_id"]]
        p = r["extra_vehicles"][0]["plate"]
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        s.do("remove_vehicle", {"reservation_id": r["reservation_id"], "plate": p})
        s.do("get_camper", {"camper_id": c["camper_id"]})
        return (
            "Hi, %s here about %s. The second car (%s) isn't coming after all. Take it off "
            "and tell me my credit balance afterwards." % (self.name(c), r["reservation_id"], p)
        )

    def s_checkin_today(self, s):
        rows = s.do(
            "list_reservations", {"arriving_from": iso(TODAY), "arriving_to": iso(TODAY), "status": "confirmed"}
        )
        if not rows:
            raise Skip("none")
        r = self.rng.choice(rows)
        c = self.campers[r["camper_id"]]
        s.do("check_in", {"reservation_id": r["reservation_id"]})
        if self.rng.random() < 0.5:
            s.do("get_campsite", {"site_id": r["site_id"]})
        return self.say(
            "Hi, we just pulled up. Last name %s, arriving today. Please check us in." % c["last_name"],
            "%s here, we have a booking starting today at %s. Can you check our party in?"
            % (self.name(c), r["site_id"]),
        )

    def s_checkin_late(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["arrival"] < iso(TODAY) < r["departure"])
        c = self.campers[r["camper_id"]]
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        s.do("check_in", {"reservation_id": r["reservation_id"]})
        return "This is %s, reservation %s. Our car broke down and we're two days late. Can we still check in?" % (
            self.name(c),
            r["reservation_id"],
        )

    def s_checkout(self, s):
        r = self.pick_res(lambda r: r["status"] == "checked_in")
        c = self.campers[r["camper_id"]]
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        s.do("check_out", {"reservation_id": r["reservation_id"]})
        if self.rng.random() < 0.5:
            s.do("get_campsite", {"site_id": r["site_id"]})
        return self.say(
            "Hi, %s at site %s, reservation %s. We're packed up and heading home. Please check us out."
            % (self.name(c), r["site_id"], r["reservation_id"]),
            "Reservation %s: we're leaving today. Check us out, please." % r["reservation_id"],
        )

    def s_cancel(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["arrival"] >= iso(TODAY))
        c = self.campers[r["camper_id"]]
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        reason = self.rng.choice(["family emergency", "change of plans", "weather forecast", "vehicle trouble"])
        s.do("cancel_reservation", {"reservation_id": r["reservation_id"], "reason": reason})
        if self.rng.random() < 0.6:
            s.do("get_camper", {"camper_id": c["camper_id"]})
        return self.say(
            "This is %s. I need to cancel reservation %s (%s). How much will I get back?"
            % (self.name(c), r["reservation_id"], reason),
            "Please cancel my stay at %s starting %s, reservation %s. Reason: %s. Where does the refund go?"
            % (r["site_id"], human(r["arrival"]), r["reservation_id"], reason),
        )

    def s_site_info(self, s):
        site = self.sites[self.rng.choice(sorted(self.sites))]
        s.do("get_campsite", {"site_id": site["site_id"]})
        if site["status"] != "closed" and self.rng.random() < 0.6:
            a, d = self.stay(2, 4)
            s.do(
                "quote_stay", {"site_id": site["site_id"], "arrival": iso(a), "departure": iso(d), "extra_vehicles": 1}
            )
            return "What's site %s like, and what would it cost from %s to %s with one extra vehicle?" % (
                site["site_id"],
                human(a),
                human(d),
            )
        return (
            "Can you tell me about site %s? Hookups, how many people it holds, and whether it's open?" % site["site_id"]
        )

    def s_site_bookings(self, s):
        r = self.rng.choice([self.res[x] for x in sorted(self.res)])
        site = self.sites[r["site_id"]]
        s.do("get_campsite", {"site_id": site["site_id"]})
        s.do("list_reservations", {"site_id": site["site_id"], "status": "confirmed"})
        return (
            "I'm flexible on dates. What is site %s like, and when is it already booked this summer?" % site["site_id"]
        )

    def s_accessible(self, s):
        fee = self.rng.choice([30, 35, 45, 100])
        args = {"accessible": True, "max_nightly_fee": fee}
        if self.rng.random() < 0.5:
            a, d = self.stay(2, 4)
            args.update({"arrival": iso(a), "departure": iso(d)})
            found = s.do("search_campsites", args)
            if found:
                s.do("quote_stay", {"site_id": found[0]["site_id"], "arrival": iso(a), "departure": iso(d)})
                return (
                    "Which accessible sites under $%d a night are free from %s to %s? Price the first one for me."
                    % (fee, human(a), human(d))
                )
            return "Which accessible sites under $%d a night are free from %s to %s?" % (fee, human(a), human(d))
        s.do("search_campsites", args)
        return "My father uses a wheelchair. Which accessible sites do you have for $%d a night or less?" % fee

    def s_quote_senior(self, s):
        c = self.camper(pred=lambda c: c["senior_pass"])
        site = self.sites[self.rng.choice([x for x in sorted(self.sites) if self.sites[x]["status"] != "closed"])]
        a, d = self.stay(2, 5, start=dt.date(2025, 8, 25), end=dt.date(2025, 9, 20))
        s.do("get_camper", {"camper_id": c["camper_id"]})
        s.do("quote_stay", {"site_id": site["site_id"], "arrival": iso(a), "departure": iso(d), "senior_pass": True})
        return "I'm %s (%s), I have a Senior Pass. What would %s cost me from %s to %s?" % (
            self.name(c),
            c["camper_id"],
            site["site_id"],
            human(a),
            human(d),
        )

    # -------------------------------------------------------------- sessions with a refusal
    def r_party_too_big(self, s):
        c = self.camper()
        a, d = self.stay(2, 4)
        small = [
            x
            for x in sorted(self.sites)
            if self.sites[x]["status"] != "closed"
            and self.sites[x]["max_occupancy"] <= 5
            and not s.env._conflict(x, a, d)
        ]
        site = self.sites[self.rng.choice(small)]
        party = site["max_occupancy"] + self.rng.randint(1, 2)
        s.do(
            "create_reservation",
            {
                "camper_id": c["camper_id"],
                "site_id": site["site_id"],
                "arrival": iso(a),
                "departure": iso(d),
                "party_size": party,
            },
            ok=False,
        )
        found = s.do(
            "search_campsites",
            {"arrival": iso(a), "departure": iso(d), "min_occupancy": party, "site_type": site["type"]},
        )
        if not found:
            raise Skip("none")
        s.do(
            "create_reservation",
            {
                "camper_id": c["camper_id"],
                "site_id": found[0]["site_id"],
                "arrival": iso(a),
                "departure": iso(d),
                "party_size": party,
            },
        )
        return "I'm %s (%s). Book %s for %d people, %s to %s. If it's too small, find us a similar site that fits." % (
            self.name(c),
            c["camper_id"],
            site["site_id"],
            party,
            human(a),
            human(d),
        )

    def r_closed_site(self, s):
        c = self.camper()
        site = self.sites[self.rng.choice([x for x in sorted(self.sites) if self.sites[x]["status"] == "closed"])]
        a, d = self.stay(2, 3)
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)},
            ok=False,
        )
        found = s.do(
            "search_campsites",
            {"site_type": site["type"], "arrival": iso(a), "departure": iso(d), "min_occupancy": c["party_size"]},
        )
        if not found:
            raise Skip("none")
        alt = [f for f in found if f["loop"] == site["loop"]] or found
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": alt[0]["site_id"], "arrival": iso(a), "departure": iso(d)},
        )
        return "Camper %s. I want site %s from %s to %s. If that doesn't work, any %s site, ideally in %s." % (
            c["camper_id"],
            site["site_id"],
            human(a),
            human(d),
            site["type"],
            site["loop"],
        )

    def r_overlap(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["arrival"] > iso(TODAY))
        c = self.camper(pred=lambda c: c["camper_id"] != r["camper_id"])
        a = dt.date.fromisoformat(r["arrival"]) + dt.timedelta(days=self.rng.randint(-1, 1))
        d = a + dt.timedelta(days=self.rng.randint(2, 3))
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": r["site_id"], "arrival": iso(a), "departure": iso(d)},
            ok=False,
        )
        site = self.sites[r["site_id"]]
        found = s.do(
            "search_campsites",
            {"site_type": site["type"], "arrival": iso(a), "departure": iso(d), "min_occupancy": c["party_size"]},
        )
        if not found or self.rng.random() < 0.3:
            return (
                "This is %s (%s). Can I get site %s from %s to %s? If it's taken, just tell me what else is free."
                % (self.name(c), c["camper_id"], r["site_id"], human(a), human(d))
            )
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": found[0]["site_id"], "arrival": iso(a), "departure": iso(d)},
        )
        return (
            "Camper %s. Please book site %s, %s to %s. If someone has it, put us on the first free %s site instead."
            % (c["camper_id"], r["site_id"], human(a), human(d), site["type"])
        )

    def r_too_long(self, s):
        c = self.camper()
        site = self.sites[self.rng.choice([x for x in sorted(self.sites) if self.sites[x]["status"] != "closed"])]
        a = dt.date(2025, 8, 1) + dt.timedelta(days=self.rng.randint(0, 20))
        n = self.rng.randint(15, 21)
        s.do(
            "quote_stay",
            {"site_id": site["site_id"], "arrival": iso(a), "departure": iso(a + dt.timedelta(days=n))},
            ok=False,
        )
        s.do("quote_stay", {"site_id": site["site_id"], "arrival": iso(a), "departure": iso(a + dt.timedelta(days=14))})
        return (
            "I'm %s. How much for site %s for %d nights starting %s? If that's over your "
            "limit, price the longest stay allowed." % (self.name(c), site["site_id"], n, human(a))
        )

    def r_suspended(self, s):
        c = self.camper(active=False)
        a, d = self.stay(2, 3)
        site = self.sites[self.rng.choice([x for x in sorted(self.sites) if self.sites[x]["status"] == "open"])]
        s.do("get_camper", {"camper_id": c["camper_id"]})
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)},
            ok=False,
        )
        return "Hi, %s here, camper %s. Book me site %s from %s to %s please." % (
            self.name(c),
            c["camper_id"],
            site["site_id"],
            human(a),
            human(d),
        )

    def r_vehicle_limit(self, s):
        def full(r):
            t = self.data["site_types"][self.sites[r["site_id"]]["type"]]
            return r["status"] in ("confirmed", "checked_in") and len(r["extra_vehicles"]) >= t["max_extra_vehicles"]

        r = self.pick_res(full)
        c = self.campers[r["camper_id"]]
        p = self.plate()
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        s.do("add_vehicle", {"reservation_id": r["reservation_id"], "plate": p}, ok=False)
        return "This is %s, reservation %s. One more friend is coming, plate %s. Add that car too, please." % (
            self.name(c),
            r["reservation_id"],
            p,
        )

    def r_primary_plate(self, s):
        def room(r):
            t = self.data["site_types"][self.sites[r["site_id"]]["type"]]
            return r["status"] in ("confirmed", "checked_in") and len(r["extra_vehicles"]) < t["max_extra_vehicles"]

        r = self.pick_res(room)
        c = self.campers[r["camper_id"]]
        p2 = self.plate()
        s.do("add_vehicle", {"reservation_id": r["reservation_id"], "plate": c["vehicle_plate"]}, ok=False)
        s.do("add_vehicle", {"reservation_id": r["reservation_id"], "plate": p2})
        return "%s here, reservation %s. Please register both our cars: %s and %s." % (
            self.name(c),
            r["reservation_id"],
            c["vehicle_plate"],
            p2,
        )

    def r_remove_after_checkin(self, s):
        r = self.pick_res(lambda r: r["status"] == "checked_in" and r["extra_vehicles"])
        c = self.campers[r["camper_id"]]
        p = r["extra_vehicles"][-1]["plate"]
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        s.do("remove_vehicle", {"reservation_id": r["reservation_id"], "plate": p}, ok=False)
        return "Hi, %s at site %s. Our second car %s left this morning. Can you take it off and refund the fee?" % (
            self.name(c),
            r["site_id"],
            p,
        )

    def r_remove_unknown(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["arrival"] > iso(TODAY))
        p = self.plate()
        s.do("remove_vehicle", {"reservation_id": r["reservation_id"], "plate": p}, ok=False)
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        return "Reservation %s. Please remove vehicle %s from our booking; it's not coming." % (r["reservation_id"], p)

    def r_early_checkin(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["arrival"] > iso(TODAY))
        c = self.campers[r["camper_id"]]
        s.do("check_in", {"reservation_id": r["reservation_id"]}, ok=False)
        if self.rng.random() < 0.5:
            s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        return "Hi, %s here. We got to the park early. Can you check us in now on reservation %s?" % (
            self.name(c),
            r["reservation_id"],
        )

    def r_checkout_not_in(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["arrival"] <= iso(TODAY))
        c = self.campers[r["camper_id"]]
        s.do("check_out", {"reservation_id": r["reservation_id"]}, ok=False)
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        return "%s, reservation %s. Please check us out; we're heading home." % (self.name(c), r["reservation_id"])

    def r_cancel_checked_in(self, s):
        r = self.pick_res(lambda r: r["status"] == "checked_in")
        c = self.campers[r["camper_id"]]
        s.do("cancel_reservation", {"reservation_id": r["reservation_id"], "reason": "leaving early"}, ok=False)
        s.do("check_out", {"reservation_id": r["reservation_id"]})
        return (
            "This is %s at %s. We want to cut our trip short. Cancel reservation %s and "
            "refund the rest; if you can't, just check us out." % (self.name(c), r["site_id"], r["reservation_id"])
        )

    def r_cancel_missed(self, s):
        r = self.pick_res(lambda r: r["status"] == "confirmed" and r["arrival"] < iso(TODAY))
        c = self.campers[r["camper_id"]]
        s.do("get_reservation", {"reservation_id": r["reservation_id"]})
        s.do("cancel_reservation", {"reservation_id": r["reservation_id"]}, ok=False)
        return "I'm %s. We never made it to the campground for reservation %s. Please cancel it and refund me." % (
            self.name(c),
            r["reservation_id"],
        )

    def r_cancel_again(self, s):
        r = self.pick_res(lambda r: r["status"] in ("cancelled", "checked_out"))
        c = self.campers[r["camper_id"]]
        s.do("cancel_reservation", {"reservation_id": r["reservation_id"]}, ok=False)
        s.do("get_camper", {"camper_id": c["camper_id"]})
        return "Camper %s. Please cancel reservation %s and tell me my account credit." % (
            c["camper_id"],
            r["reservation_id"],
        )

    def r_unknown_res(self, s):
        c = self.camper(pred=lambda c: any(r["camper_id"] == c["camper_id"] for r in self.res.values()))
        bad = "RSV-%d" % self.rng.randint(3030, 3099)
        s.do("get_reservation", {"reservation_id": bad}, ok=False)
        s.do("list_reservations", {"camper_id": c["camper_id"]})
        return "I'm %s (%s). My confirmation says %s but I might have mistyped it. What bookings do I have?" % (
            self.name(c),
            c["camper_id"],
            bad,
        )

    def r_past_arrival(self, s):
        c = self.camper()
        site = self.sites[self.rng.choice([x for x in sorted(self.sites) if self.sites[x]["status"] == "open"])]
        a = TODAY - dt.timedelta(days=self.rng.randint(1, 4))
        d = TODAY + dt.timedelta(days=self.rng.randint(1, 3))
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)},
            ok=False,
        )
        if s.env._conflict(site["site_id"], TODAY, d) is None:
            s.do(
                "create_reservation",
                {"camper_id": c["camper_id"], "site_id": site["site_id"], "arrival": iso(TODAY), "departure": iso(d)},
            )
        return "Camper %s. We've actually been at %s since %s without a booking. Can you book it from %s to %s?" % (
            c["camper_id"],
            site["site_id"],
            human(a),
            human(a),
            human(d),
        )

    def r_too_far(self, s):
        c = self.camper()
        site = self.sites[self.rng.choice([x for x in sorted(self.sites) if self.sites[x]["status"] == "open"])]
        a = dt.date(2026, 1, 2) + dt.timedelta(days=self.rng.randint(0, 60))
        d = a + dt.timedelta(days=2)
        s.do("get_camper", {"camper_id": c["camper_id"]})
        s.do(
            "create_reservation",
            {"camper_id": c["camper_id"], "site_id": site["site_id"], "arrival": iso(a), "departure": iso(d)},
            ok=False,
        )
        return "%s (%s) here, planning ahead. Book %s for %s to %s next year, please." % (
            self.name(c),
            c["camper_id"],
            site["site_id"],
            human(a),
            human(d),
        )

    def r_checkin_cancelled(self, s):
        r = self.pick_res(lambda r: r["status"] in ("cancelled", "checked_out"))
        c = self.campers[r["camper_id"]]
        s.do("check_in", {"reservation_id": r["reservation_id"]}, ok=False)
        s.do("list_reservations", {"camper_id": c["camper_id"], "status": "confirmed"})
        return "I'm %s. Check me in on %s, please. If that's the wrong one, what confirmed bookings do I have?" % (
            self.name(c),
            r["reservation_id"],
        )


VALID = {
    "s_credit": 4,
    "s_my_bookings": 5,
    "s_search_quote": 5,
    "s_book": 6,
    "s_book_site_direct": 3,
    "s_book_credit": 3,
    "s_add_vehicle": 4,
    "s_remove_vehicle": 3,
    "s_checkin_today": 3,
    "s_checkin_late": 1,
    "s_checkout": 3,
    "s_cancel": 6,
    "s_site_info": 3,
    "s_site_bookings": 2,
    "s_accessible": 2,
    "s_quote_senior": 2,
}
REFUSE = [
    "r_party_too_big",
    "r_closed_site",
    "r_overlap",
    "r_too_long",
    "r_suspended",
    "r_vehicle_limit",
    "r_primary_plate",
    "r_remove_after_checkin",
    "r_remove_unknown",
    "r_early_checkin",
    "r_checkout_not_in",
    "r_cancel_checked_in",
    "r_cancel_missed",
    "r_cancel_again",
    "r_unknown_res",
    "r_past_arrival",
    "r_too_far",
    "r_checkin_cancelled",
]


def replay(data, calls):
    env = adapter.make()
    env.reset(data)
    return [env.call(c["name"], json.loads(json.dumps(c["arguments"])))["ok"] for c in calls]


def build(data, rng):
    gen = Gen(rng, data)
    plan = list(REFUSE) + rng.sample(REFUSE, 5)
    names = sorted(VALID)
    weights = [VALID[n] for n in names]
    while len(plan) < N_SESSIONS:
        plan.append(rng.choices(names, weights)[0])
    rng.shuffle(plan)
    out = []
    for kind in plan:
        for _ in range(50):
            s = Session(data)
            try:
                instr = getattr(gen, kind)(s)
            except Skip:
                continue
            if replay(data, s.calls) != s.expect:
                continue
            out.append((instr, s.calls, s.expect))
            break
        else:
            raise RuntimeError("could not build a %s session" % kind)
    return out


def main():
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    for attempt in range(500):
        rng = random.Random(SEED + attempt)
        sessions = build(data, rng)
        calls = sum(len(c) for _, c, _ in sessions)
        refused = sum(e.count(False) for _, _, e in sessions)
        if 180 <= calls <= 225 and 0.11 <= refused / calls <= 0.14:
            break
    else:
        raise RuntimeError("no acceptable plan")
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for i, (instr, cs, _) in enumerate(sessions):
            f.write(json.dumps({"id": "campground-%03d" % i, "instruction": instr, "calls": cs}) + "\n")
    print(
        "sessions: %d  calls: %d  refused: %d (%.1f%%)  attempt: %d"
        % (len(sessions), calls, refused, 100.0 * refused / calls, attempt)
    )


if __name__ == "__main__":
    main()
