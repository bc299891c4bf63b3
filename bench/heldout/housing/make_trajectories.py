"""Seeded generator of support sessions for the Alder Hall Residence Office.

Written for forgegym. MIT License. Standard library only.

Every session is played by a desk agent against the real system (adapter.py), starting from
data.json, so that later calls can use what earlier calls returned. A session is kept only if,
replayed from data.json, exactly the calls meant to be refused are refused. The script writes
trajectories.jsonl next to itself; running it again writes the same bytes.
"""

import datetime as dt
import json
import os
import random

import adapter

SEED = 7341
N_SESSIONS = 76
HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = adapter.BUSINESS_DATE
TOOLS = (
    "get_resident",
    "get_room",
    "get_assignment",
    "search_rooms",
    "list_maintenance_requests",
    "quote_housing_cost",
    "assign_room",
    "move_resident",
    "check_out_resident",
    "open_maintenance_request",
    "update_request_status",
    "update_registered_guests",
)

GUESTS = [
    "Noor Haddad",
    "Elias Grunewald",
    "Tamsin Oyelaran",
    "Viggo Marchetti",
    "Hana Kowalczyk",
    "Rupert Anand",
    "Isolde Mbeki",
    "Casimir Dunleavy",
    "Juno Castellanos",
    "Odile Fairbanks",
]
PROBLEMS = {
    "plumbing": ["the shower drain is backing up", "the sink tap drips all night", "the toilet keeps running"],
    "electrical": ["the ceiling light flickers and buzzes", "one of the outlets by the desk is dead"],
    "heating": ["the radiator is cold even with the valve open", "it gets freezing at night"],
    "furniture": ["a drawer runner on the dresser snapped", "the desk lamp arm is broken", "the bed slats cracked"],
    "pest": ["there are silverfish in the bathroom", "I think there are mice behind the wardrobe"],
    "damage": ["the window blind came off the wall", "there's a crack in the mirror on the wardrobe door"],
    "other": ["the door closer slams the door shut", "the window won't latch properly"],
}
STAFF = [
    "Dana from facilities",
    "Marcus, the residence assistant on duty",
    "Keiko at the maintenance office",
    "Femi from facilities",
]


def human(d):
    if isinstance(d, str):
        d = dt.date.fromisoformat(d)
    return d.strftime("%B ") + str(d.day)


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
        self.res = data["residents"]
        self.rooms = data["rooms"]
        self.asg = data["assignments"]
        self.reqs = data["maintenance_requests"]

    # -------------------------------------------------------------- pickers
    def pick(self, seq):
        seq = list(seq)
        if not seq:
            raise Skip("nothing to pick")
        return self.rng.choice(seq)

    def residents(self, pred):
        return [r for k, r in sorted(self.res.items()) if pred(r)]

    def active(self, pred=lambda r: True):
        return self.residents(lambda r: r["current_assignment_id"] is not None and pred(r))

    def room_of(self, r):
        return self.rooms[self.asg[r["current_assignment_id"]]["room_id"]]

    def damage_blocked(self, room):
        return any(
            self.reqs[m]["category"] == "damage" and self.reqs[m]["status"] != "resolved" for m in room["open_requests"]
        )

    def free_rooms(self, pred=lambda r: True):
        return [
            r
            for k, r in sorted(self.rooms.items())
            if r["status"] != "maintenance" and len(r["occupants"]) < r["capacity"] and pred(r)
        ]

    def open_categories(self, room):
        return {self.reqs[m]["category"] for m in room["open_requests"]}

    def hello(self, r):
        return self.rng.choice(
            [
                "Hi, this is %s, resident %s." % (r["name"], r["resident_id"]),
                "Hello, %s here (resident ID %s)." % (r["name"], r["resident_id"]),
                "My name is %s, resident number %s." % (r["name"], r["resident_id"]),
            ]
        )

    def staff(self):
        return "This is %s." % self.rng.choice(STAFF)

    def later(self, lo=2, hi=20):
        return (TODAY + dt.timedelta(days=self.rng.randint(lo, hi))).isoformat()

    # -------------------------------------------------------------- valid sessions
    def v_account(self, s):
        r = self.pick(self.residents(lambda r: True))
        out = s.do("get_resident", {"resident_id": r["resident_id"]})
        ask = self.rng.choice(
            [
                "How much do I owe right now, and how much deposit are you holding for me?",
                "Can you go through the charges on my account?",
                "Is my full security deposit on file?",
            ]
        )
        if out["current_assignment_id"]:
            a = s.do("get_assignment", {"assignment_id": out["current_assignment_id"]})
            ask += " Also, what monthly rent did I lock in for this term?"
            if self.rng.random() < 0.5:
                s.do(
                    "quote_housing_cost", {"room_id": a["room_id"], "term": "2026-SP", "resident_id": r["resident_id"]}
                )
                ask += " And what would staying in the same room for spring cost, including anything I owe?"
        return "%s %s" % (self.hello(r), ask)

    def v_roommates(self, s):
        r = self.pick(self.active())
        out = s.do("get_resident", {"resident_id": r["resident_id"]})
        a = s.do("get_assignment", {"assignment_id": out["current_assignment_id"]})
        room = s.do("get_room", {"room_id": a["room_id"]})
        extra = ""
        if room["open_requests"]:
            s.do("list_maintenance_requests", {"room_id": room["room_id"]})
            extra = " And where are the repair requests for my room at?"
        return "%s Which room am I in and how many people share it?%s" % (self.hello(r), extra)

    def v_assignment(self, s):
        a = self.pick(v for k, v in sorted(self.asg.items()))
        s.do("get_assignment", {"assignment_id": a["assignment_id"]})
        if self.rng.random() < 0.6:
            s.do("get_room", {"room_id": a["room_id"]})
            return (
                "Can you pull up housing assignment %s? I need its dates, the rent, and which building and floor the room is on."  # noqa: E501
                % a["assignment_id"]
            )
        return (
            "What's the status of housing assignment %s? I need its start date and rent for a bursary form."
            % a["assignment_id"]
        )

    def v_room(self, s):
        room = self.pick(v for k, v in sorted(self.rooms.items()))
        s.do("get_room", {"room_id": room["room_id"]})
        if room["status"] == "maintenance" or (room["open_requests"] and self.rng.random() < 0.6):
            s.do("list_maintenance_requests", {"room_id": room["room_id"]})
            return "Is room %s usable at the moment? If there's repair work going on, what is it?" % room["room_id"]
        s.do("quote_housing_cost", {"room_id": room["room_id"], "term": "2026-SP"})
        return (
            "What kind of room is %s, who can still fit in it, and what would it cost for Spring 2026?"
            % room["room_id"]
        )

    def v_search(self, s):
        args = {}
        parts = []
        if self.rng.random() < 0.6:
            b = self.rng.choice(["Alder Hall", "Birchwood House", "Cedar Court"])
            args["building"] = b
            parts.append("in %s" % b)
        if self.rng.random() < 0.6:
            t = self.rng.choice(["single", "double", "suite"])
            args["room_type"] = t
            parts.insert(0, "a %s" % t)
        else:
            parts.insert(0, "a room")
        args["has_space"] = True
        if self.rng.random() < 0.5:
            m = self.rng.choice([500, 550, 600, 650, 700])
            args["max_rent"] = m
            parts.append("for at most $%d a month" % m)
        out = s.do("search_rooms", args)
        early = self.rng.random() < 0.5
        if not out:
            return "I'm looking for %s that still has space. What's out there?" % " ".join(parts)
        for room in out[:2]:
            q = {"room_id": room["room_id"], "term": "2026-SP"}
            if early:
                q["early_payment"] = True
            s.do("quote_housing_cost", q)
        return "I'm looking for %s that still has space. Show me what's available and price %s for Spring 2026%s." % (
            " ".join(parts),
            "the first two" if len(out) > 1 else "it",
            " with the early-payment discount" if early else "",
        )

    def v_quote(self, s):
        r = self.pick(self.residents(lambda r: r["status"] == "enrolled"))
        room = self.pick(v for k, v in sorted(self.rooms.items()) if v["status"] != "maintenance")
        early = self.rng.random() < 0.5
        if self.rng.random() < 0.5:
            s.do("get_room", {"room_id": room["room_id"]})
        args = {"room_id": room["room_id"], "term": "2026-SP", "resident_id": r["resident_id"]}
        if early:
            args["early_payment"] = True
        s.do("quote_housing_cost", args)
        instr = "%s What would room %s cost me for Spring 2026, all in?" % (self.hello(r), room["room_id"])
        if early:
            instr += " I'd pay early, before the deadline."
        if self.rng.random() < 0.5:
            other = self.pick(
                v
                for k, v in sorted(self.rooms.items())
                if v["status"] != "maintenance" and v["room_type"] != room["room_type"]
            )
            s.do("quote_housing_cost", dict(args, room_id=other["room_id"]))
            instr += " Compare it with %s too." % other["room_id"]
        return instr

    def v_quote_current(self, s):
        room = self.pick(self.free_rooms())
        s.do("get_room", {"room_id": room["room_id"]})
        s.do("quote_housing_cost", {"room_id": room["room_id"], "term": "2025-FA"})
        return (
            "I'm a transfer student starting now. Does %s have space, and how much is it for the fall 2025 term?"
            % room["room_id"]
        )

    def _eligible(self):
        return self.residents(
            lambda r: (
                r["status"] == "enrolled"
                and r["current_assignment_id"] is None
                and r["deposit_held"] >= 300
                and r["charges_owed"] <= 400
            )
        )

    def v_assign(self, s):
        r = self.pick(self._eligible())
        t = self.rng.choice(["single", "double", "suite"])
        term = self.rng.choice(["2025-FA", "2026-SP"])
        s.do("get_resident", {"resident_id": r["resident_id"]})
        found = s.do("search_rooms", {"room_type": t, "has_space": True})
        if not found:
            raise Skip("no room")
        room = min(found, key=lambda x: x["monthly_rent"])
        s.do("quote_housing_cost", {"room_id": room["room_id"], "term": term, "resident_id": r["resident_id"]})
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": term})
        when = "starting now, for the fall term" if term == "2025-FA" else "for Spring 2026"
        return self.rng.choice(
            [
                "%s I need a %s %s. Find the cheapest one with space, tell me what it costs me in total, and put me in it.",  # noqa: E501
                "%s I don't have a room yet and I'd like a %s %s. Whichever one with space has the lowest rent is fine; quote me first, then book it.",  # noqa: E501
                "%s Please find me the least expensive %s that still has a free place, %s, tell me my total, and assign it to me.",  # noqa: E501
            ]
        ) % (self.hello(r), t, when)

    def v_assign_direct(self, s):
        r = self.pick(self._eligible())
        room = self.pick(self.free_rooms())
        s.do("get_resident", {"resident_id": r["resident_id"]})
        s.do("get_room", {"room_id": room["room_id"]})
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2025-FA"})
        return "%s My friend said there's a free place in %s. Please assign me there for the fall term." % (
            self.hello(r),
            room["room_id"],
        )

    def v_move(self, s):
        r = self.pick(self.active(lambda r: r["status"] == "enrolled"))
        a = self.asg[r["current_assignment_id"]]
        if a["moved_from"]:
            raise Skip("moved")
        cur = self.rooms[a["room_id"]]
        conflict = cur["capacity"] > 1 and self.rng.random() < 0.5
        s.do("get_resident", {"resident_id": r["resident_id"]})
        s.do("get_assignment", {"assignment_id": a["assignment_id"]})
        b = self.rng.choice(["Alder Hall", "Birchwood House", "Cedar Court"])
        found = [x for x in s.do("search_rooms", {"building": b, "has_space": True}) if x["room_id"] != cur["room_id"]]
        if not found:
            raise Skip("no room")
        dest = found[0]
        args = {"assignment_id": a["assignment_id"], "new_room_id": dest["room_id"]}
        if conflict:
            args["reason"] = "roommate_conflict"
        elif self.rng.random() < 0.5:
            args["reason"] = "resident_request"
        s.do("move_resident", args)
        if conflict:
            why = "Things with my roommate have broken down and the RA told me to ask for a move to %s." % b
        else:
            why = "I'd just like to be in %s, it's closer to my classes." % b
        return "%s %s Any room with space there is fine, the lowest room number first. What will it cost?" % (
            self.hello(r),
            why,
        )

    def v_move_maint(self, s):
        rooms = [x for k, x in sorted(self.rooms.items()) if x["occupants"] and x["open_requests"]]
        room = self.pick(rooms)
        rid = self.pick(room["occupants"])
        r = self.res[rid]
        a = self.asg[r["current_assignment_id"]]
        if a["moved_from"]:
            raise Skip("moved")
        m = self.reqs[room["open_requests"][0]]
        s.do("list_maintenance_requests", {"room_id": room["room_id"]})
        out = s.do("search_rooms", {"room_type": room["room_type"], "has_space": True})
        out = [x for x in out if x["room_id"] != room["room_id"]]
        if not out:
            raise Skip("none")
        s.do(
            "move_resident",
            {"assignment_id": a["assignment_id"], "new_room_id": out[0]["room_id"], "reason": "maintenance"},
        )
        return (
            "%s The %s problem in my room %s still isn't fixed and facilities agreed I should move while it's sorted. My assignment is %s; any other %s with space is fine."  # noqa: E501
            % (
                self.hello(r),
                m["category"],
                room["room_id"],
                a["assignment_id"],
                room["room_type"],
            )
        )

    def v_checkout(self, s):
        r = self.pick(self.active(lambda r: not self.damage_blocked(self.room_of(r))))
        out = s.do("get_resident", {"resident_id": r["resident_id"]})
        s.do("get_assignment", {"assignment_id": out["current_assignment_id"]})
        args = {"assignment_id": out["current_assignment_id"]}
        if self.rng.random() < 0.4:
            args["note"] = self.rng.choice(
                ["keys returned at desk", "room inspected, no issues", "forwarding address on file"]
            )
        s.do("check_out_resident", args)
        if r["status"] == "withdrawn":
            why = "I've withdrawn from the university and I'm leaving this week."
        else:
            why = self.rng.choice(
                [
                    "I'm moving off campus, so please check me out today.",
                    "I'm going to live with family for the rest of the term. Check me out please.",
                ]
            )
        return "%s %s How much of my deposit will I get back?" % (self.hello(r), why)

    def v_open(self, s):
        r = self.pick(self.active())
        room = self.room_of(r)
        cats = [c for c in sorted(PROBLEMS) if c not in self.open_categories(room)]
        cat = self.pick(cats)
        problem = self.rng.choice(PROBLEMS[cat])
        pri = self.rng.choice(["low", "normal", "normal", "urgent"])
        out = s.do("get_resident", {"resident_id": r["resident_id"]})
        s.do("get_assignment", {"assignment_id": out["current_assignment_id"]})
        if self.rng.random() < 0.5:
            s.do("list_maintenance_requests", {"room_id": room["room_id"], "category": cat})
        args = {
            "room_id": room["room_id"],
            "category": cat,
            "description": problem[0].upper() + problem[1:],
            "reported_by": r["resident_id"],
        }
        if pri != "normal":
            args["priority"] = pri
        s.do("open_maintenance_request", args)
        tail = {"low": " It's not urgent.", "normal": "", "urgent": " It's urgent, please."}[pri]
        return "%s In my room, %s. Can you log a repair request if there isn't one already?%s" % (
            self.hello(r),
            problem,
            tail,
        )

    def v_open_staff(self, s):
        room = self.pick(
            v for k, v in sorted(self.rooms.items()) if not v["occupants"] and v["status"] != "maintenance"
        )
        cat = self.pick(c for c in ("plumbing", "electrical", "heating", "pest") if c not in self.open_categories(room))
        problem = self.rng.choice(PROBLEMS[cat])
        offline = self.rng.random() < 0.6
        s.do("get_room", {"room_id": room["room_id"]})
        problem = problem.replace("I think ", "")
        args = {
            "room_id": room["room_id"],
            "category": cat,
            "description": problem[0].upper() + problem[1:],
            "priority": "urgent",
        }
        if offline:
            args["take_offline"] = True
        s.do("open_maintenance_request", args)
        return "%s Room %s should be empty, and %s. Open an urgent %s request%s." % (
            self.staff(),
            room["room_id"],
            problem,
            cat,
            " and take the room offline so nobody gets placed there" if offline else "",
        )

    def v_list(self, s):
        args = {}
        words = []
        if self.rng.random() < 0.7:
            st = self.rng.choice(["open", "scheduled"])
            args["status"] = st
            words.append(st)
        if self.rng.random() < 0.5:
            p = self.rng.choice(["urgent", "low", "normal"])
            args["priority"] = p
            words.append(p)
        if not args or self.rng.random() < 0.3:
            c = self.rng.choice(["heating", "damage", "plumbing", "furniture"])
            args["category"] = c
            words.append(c)
        out = s.do("list_maintenance_requests", args)
        instr = "%s Can you give me all the %s maintenance requests?" % (self.staff(), " ".join(words))
        todo = [m for m in out if m["status"] == "open"]
        if todo and self.rng.random() < 0.6:
            day = self.later(1, 10)
            s.do(
                "update_request_status",
                {
                    "request_id": todo[0]["request_id"],
                    "status": "scheduled",
                    "scheduled_for": day,
                    "note": "Booked from the weekly review",
                },
            )
            instr += " Then book the first open one on the list for %s." % human(day)
        return instr

    def v_room_requests(self, s):
        room = self.pick(v for k, v in sorted(self.rooms.items()) if v["open_requests"])
        s.do("get_room", {"room_id": room["room_id"]})
        s.do("list_maintenance_requests", {"room_id": room["room_id"]})
        return "%s What's the state of room %s and its maintenance history?" % (self.staff(), room["room_id"])

    def v_schedule(self, s):
        m = self.pick(v for k, v in sorted(self.reqs.items()) if v["status"] in ("open", "scheduled"))
        day = self.later(1, 21)
        s.do("list_maintenance_requests", {"room_id": m["room_id"], "status": m["status"]})
        s.do(
            "update_request_status",
            {
                "request_id": m["request_id"],
                "status": "scheduled",
                "scheduled_for": day,
                "note": self.rng.choice(
                    ["Technician booked", "Contractor confirmed visit", "Added to the facilities rota"]
                ),
            },
        )
        verb = "reschedule" if m["status"] == "scheduled" else "schedule"
        return "%s Please %s the %s job in room %s for %s and note that the technician is booked." % (
            self.staff(),
            verb,
            m["category"],
            m["room_id"],
            human(day),
        )

    def v_resolve(self, s):
        m = self.pick(v for k, v in sorted(self.reqs.items()) if v["status"] in ("open", "scheduled"))
        room = self.rooms[m["room_id"]]
        args = {"request_id": m["request_id"], "status": "resolved", "note": "Work completed"}
        instr = "%s %s in %s is fixed, please close it." % (self.staff(), m["request_id"], m["room_id"])
        if m["category"] in adapter.BILLABLE and room["occupants"]:
            rid = m["reported_by"] if m["reported_by"] in room["occupants"] else room["occupants"][0]
            amt = self.rng.choice([35.0, 60.0, 75.5, 120.0, 145.0])
            args["charge_amount"] = amt
            args["charge_resident_id"] = rid
            args["note"] = "Repaired; resident responsible, billed"
            s.do("get_room", {"room_id": m["room_id"]})
            s.do("update_request_status", args)
            s.do("get_resident", {"resident_id": rid})
            return (
                "%s %s in %s is repaired. It was resident damage: bill %s $%.2f, close it, and tell me their new balance."  # noqa: E501
                % (
                    self.staff(),
                    m["request_id"],
                    m["room_id"],
                    rid,
                    amt,
                )
            )
        s.do("update_request_status", args)
        s.do("get_room", {"room_id": m["room_id"]})
        return instr + " Then tell me whether the room has anything else outstanding."

    def v_unschedule(self, s):
        m = self.pick(v for k, v in sorted(self.reqs.items()) if v["status"] == "scheduled")
        s.do("list_maintenance_requests", {"room_id": m["room_id"], "status": "scheduled"})
        s.do(
            "update_request_status",
            {"request_id": m["request_id"], "status": "open", "note": "Visit cancelled by contractor; to be rebooked"},
        )
        return "%s The contractor cancelled the %s visit in room %s. Put that request back to open." % (
            self.staff(),
            m["category"],
            m["room_id"],
        )

    def v_guest_add(self, s):
        r = self.pick(self.active(lambda r: r["status"] == "enrolled" and len(r["registered_guests"]) < 2))
        g = self.pick(GUESTS)
        s.do("get_resident", {"resident_id": r["resident_id"]})
        s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "add", "guest_name": g})
        return "%s Please register %s as an overnight guest on my account." % (self.hello(r), g)

    def v_guest_remove(self, s):
        r = self.pick(self.residents(lambda r: r["registered_guests"]))
        g = self.pick(x["guest_name"] for x in r["registered_guests"])
        s.do("get_resident", {"resident_id": r["resident_id"]})
        s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "remove", "guest_name": g})
        return "%s %s won't be staying over anymore; take them off my guest list." % (self.hello(r), g)

    def v_guest_swap(self, s):
        r = self.pick(self.active(lambda r: r["status"] == "enrolled" and len(r["registered_guests"]) == 2))
        old = r["registered_guests"][0]["guest_name"]
        new = self.pick(GUESTS)
        s.do("get_resident", {"resident_id": r["resident_id"]})
        s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "remove", "guest_name": old})
        s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "add", "guest_name": new})
        return "%s Replace %s with %s on my guest list." % (self.hello(r), old, new)

    # -------------------------------------------------------------- sessions with refusals
    def r_assign_hold(self, s):
        r = self.pick(self.residents(lambda r: r["status"] == "on_hold" and r["current_assignment_id"] is None))
        room = self.pick(self.free_rooms())
        s.do("get_room", {"room_id": room["room_id"]})
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2026-SP"}, ok=False)
        return "%s I'd like room %s for Spring 2026, please." % (self.hello(r), room["room_id"])

    def r_assign_withdrawn(self, s):
        r = self.pick(self.residents(lambda r: r["status"] == "withdrawn" and r["current_assignment_id"] is None))
        room = self.pick(self.free_rooms())
        s.do("get_room", {"room_id": room["room_id"]})
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2026-SP"}, ok=False)
        return "%s I'm coming back in the spring. Can you hold %s for me for 2026-SP?" % (
            self.hello(r),
            room["room_id"],
        )

    def r_assign_deposit(self, s):
        r = self.pick(
            self.residents(
                lambda r: r["status"] == "enrolled" and r["current_assignment_id"] is None and r["deposit_held"] < 300
            )
        )
        room = self.pick(self.free_rooms())
        s.do("get_room", {"room_id": room["room_id"]})
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2025-FA"}, ok=False)
        s.do("quote_housing_cost", {"room_id": room["room_id"], "term": "2025-FA", "resident_id": r["resident_id"]})
        return (
            "%s Put me in %s for this fall term. If anything's missing on my side, tell me the total I'd need to pay."
            % (
                self.hello(r),
                room["room_id"],
            )
        )

    def r_assign_balance(self, s):
        r = self.pick(
            self.residents(
                lambda r: r["status"] == "enrolled" and r["current_assignment_id"] is None and r["charges_owed"] > 400
            )
        )
        room = self.pick(self.free_rooms())
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2026-SP"}, ok=False)
        if self.rng.random() < 0.6:
            s.do("get_resident", {"resident_id": r["resident_id"]})
            return "%s Assign me to %s for spring 2026. If there's a problem, tell me what's on my account." % (
                self.hello(r),
                room["room_id"],
            )
        return "%s Assign me to %s for spring 2026." % (self.hello(r), room["room_id"])

    def r_assign_active(self, s):
        r = self.pick(self.active(lambda r: r["status"] == "enrolled"))
        room = self.pick(self.free_rooms(lambda x: x["room_id"] != self.room_of(r)["room_id"]))
        s.do("get_room", {"room_id": room["room_id"]})
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2026-SP"}, ok=False)
        return "%s I want to lock in %s for next term (Spring 2026) already." % (self.hello(r), room["room_id"])

    def r_assign_full(self, s):
        r = self.pick(self._eligible())
        room = self.pick(
            v for k, v in sorted(self.rooms.items()) if v["status"] == "full" and v["room_type"] == "single"
        )
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2025-FA"}, ok=False)
        found = s.do("search_rooms", {"room_type": "single", "has_space": True})
        if not found:
            raise Skip("none")
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": found[0]["room_id"], "term": "2025-FA"})
        return "%s I'd love single room %s for the fall. If it's taken, give me the first single that's free." % (
            self.hello(r),
            room["room_id"],
        )

    def r_assign_maint(self, s):
        r = self.pick(self._eligible())
        room = self.pick(v for k, v in sorted(self.rooms.items()) if v["status"] == "maintenance")
        s.do("assign_room", {"resident_id": r["resident_id"], "room_id": room["room_id"], "term": "2026-SP"}, ok=False)
        return "%s Room %s looked empty when I walked past. Can I have it for Spring 2026?" % (
            self.hello(r),
            room["room_id"],
        )

    def r_quote_closed(self, s):
        room = self.pick(v for k, v in sorted(self.rooms.items()) if v["status"] != "maintenance")
        s.do("quote_housing_cost", {"room_id": room["room_id"], "term": "2025-SU"}, ok=False)
        s.do("quote_housing_cost", {"room_id": room["room_id"], "term": "2026-SP"})
        return "What would %s have cost for summer 2025? And what is it for spring 2026?" % room["room_id"]

    def r_quote_early(self, s):
        r = self.pick(self.active(lambda r: r["status"] == "enrolled"))
        room = self.room_of(r)
        s.do(
            "quote_housing_cost",
            {"room_id": room["room_id"], "term": "2025-FA", "resident_id": r["resident_id"], "early_payment": True},
            ok=False,
        )
        s.do("quote_housing_cost", {"room_id": room["room_id"], "term": "2025-FA", "resident_id": r["resident_id"]})
        return (
            "%s If I pay the rest of my fall rent for %s today, do I get the early-payment discount? Give me the total either way."  # noqa: E501
            % (
                self.hello(r),
                room["room_id"],
            )
        )

    def r_move_twice(self, s):
        r = self.pick(self.active(lambda r: self.asg[r["current_assignment_id"]]["moved_from"]))
        a = r["current_assignment_id"]
        dest = self.pick(self.free_rooms(lambda x: x["room_id"] != self.room_of(r)["room_id"]))
        s.do("get_assignment", {"assignment_id": a})
        s.do("move_resident", {"assignment_id": a, "new_room_id": dest["room_id"]}, ok=False)
        return "%s I'm not happy in my room either. Move assignment %s to %s, please." % (
            self.hello(r),
            a,
            dest["room_id"],
        )

    def r_move_full(self, s):
        r = self.pick(
            self.active(lambda r: r["status"] == "enrolled" and not self.asg[r["current_assignment_id"]]["moved_from"])
        )
        cur = self.room_of(r)
        dest = self.pick(
            v
            for k, v in sorted(self.rooms.items())
            if v["status"] in ("full", "maintenance") and v["room_id"] != cur["room_id"]
        )
        a = r["current_assignment_id"]
        s.do("move_resident", {"assignment_id": a, "new_room_id": dest["room_id"]}, ok=False)
        instr = "%s Can you move my assignment %s to room %s?" % (self.hello(r), a, dest["room_id"])
        if self.rng.random() < 0.6:
            found = [
                x
                for x in s.do("search_rooms", {"building": dest["building"], "has_space": True})
                if x["room_id"] != cur["room_id"]
            ]
            if not found:
                raise Skip("none")
            s.do("move_resident", {"assignment_id": a, "new_room_id": found[0]["room_id"]})
            instr += " If that doesn't work, any room with space in %s." % dest["building"]
        return instr

    def r_move_ended(self, s):
        a = self.pick(v for k, v in sorted(self.asg.items()) if v["status"] == "ended")
        r = self.res[a["resident_id"]]
        dest = self.pick(self.free_rooms())
        s.do(
            "move_resident",
            {"assignment_id": a["assignment_id"], "new_room_id": dest["room_id"], "reason": "resident_request"},
            ok=False,
        )
        return "%s Please move me under assignment %s into %s." % (self.hello(r), a["assignment_id"], dest["room_id"])

    def r_checkout_damage(self, s):
        r = self.pick(self.active(lambda r: self.damage_blocked(self.room_of(r))))
        room = self.room_of(r)
        a = r["current_assignment_id"]
        s.do("check_out_resident", {"assignment_id": a}, ok=False)
        if self.rng.random() < 0.5:
            s.do("list_maintenance_requests", {"room_id": room["room_id"], "category": "damage"})
            return "%s Check me out of assignment %s today. If something's blocking it, tell me what." % (
                self.hello(r),
                a,
            )
        return "%s I'm leaving; check me out of assignment %s." % (self.hello(r), a)

    def r_checkout_ended(self, s):
        a = self.pick(v for k, v in sorted(self.asg.items()) if v["status"] == "ended")
        r = self.res[a["resident_id"]]
        s.do("check_out_resident", {"assignment_id": a["assignment_id"]}, ok=False)
        if r["current_assignment_id"] is None or self.rng.random() < 0.5:
            s.do("get_resident", {"resident_id": r["resident_id"]})
            return "%s Please check me out of %s and tell me where my deposit stands." % (
                self.hello(r),
                a["assignment_id"],
            )
        return "%s Please check me out of %s." % (self.hello(r), a["assignment_id"])

    def r_resolve_then_checkout(self, s):
        r = self.pick(self.active(lambda r: self.damage_blocked(self.room_of(r))))
        room = self.room_of(r)
        m = [x for x in room["open_requests"] if self.reqs[x]["category"] == "damage"][0]
        a = r["current_assignment_id"]
        amt = self.rng.choice([45.0, 60.0, 80.0])
        s.do("check_out_resident", {"assignment_id": a}, ok=False)
        s.do(
            "update_request_status",
            {
                "request_id": m,
                "status": "resolved",
                "note": "Repaired before check-out; billed to departing resident",
                "charge_amount": amt,
                "charge_resident_id": r["resident_id"],
            },
        )
        s.do("check_out_resident", {"assignment_id": a})
        return (
            "This is Priscilla at the %s desk. %s is leaving today (assignment %s). The damage in %s was repaired this morning and the $%.2f repair goes on their account. Close whatever needs closing and check them out."  # noqa: E501
            % (
                room["building"],
                r["name"],
                a,
                room["room_id"],
                amt,
            )
        )

    def r_open_duplicate(self, s):
        room = self.pick(v for k, v in sorted(self.rooms.items()) if v["open_requests"] and v["occupants"])
        m = self.reqs[room["open_requests"][0]]
        rid = m["reported_by"] if m["reported_by"] in room["occupants"] else room["occupants"][0]
        r = self.res[rid]
        s.do(
            "open_maintenance_request",
            {
                "room_id": room["room_id"],
                "category": m["category"],
                "description": "Still a problem: " + m["description"].lower(),
                "reported_by": rid,
            },
            ok=False,
        )
        if self.rng.random() < 0.6:
            s.do("list_maintenance_requests", {"room_id": room["room_id"]})
            return "%s The %s problem in %s is back (%s). Open a new request, or tell me where the old one is." % (
                self.hello(r),
                m["category"],
                room["room_id"],
                m["description"].lower(),
            )
        return "%s Please open a %s request for my room %s: %s." % (
            self.hello(r),
            m["category"],
            room["room_id"],
            m["description"].lower(),
        )

    def r_open_not_occupant(self, s):
        r = self.pick(self.active())
        mine = self.room_of(r)
        room = self.pick(
            v
            for k, v in sorted(self.rooms.items())
            if v["room_id"] != mine["room_id"] and v["building"] == mine["building"] and v["status"] != "maintenance"
        )
        cat = self.pick(c for c in sorted(PROBLEMS) if c not in self.open_categories(room))
        problem = self.rng.choice(PROBLEMS[cat])
        s.do(
            "open_maintenance_request",
            {
                "room_id": room["room_id"],
                "category": cat,
                "description": problem[0].upper() + problem[1:],
                "reported_by": r["resident_id"],
            },
            ok=False,
        )
        return "%s I'm visiting my friend in %s and %s. Log it under my name please." % (
            self.hello(r),
            room["room_id"],
            problem,
        )

    def r_offline_occupied(self, s):
        room = self.pick(v for k, v in sorted(self.rooms.items()) if v["occupants"] and v["status"] != "maintenance")
        cat = self.pick(c for c in ("plumbing", "electrical", "pest") if c not in self.open_categories(room))
        problem = self.rng.choice(PROBLEMS[cat]).replace("I think ", "")
        args = {
            "room_id": room["room_id"],
            "category": cat,
            "description": problem[0].upper() + problem[1:],
            "priority": "urgent",
            "take_offline": True,
        }
        s.do("open_maintenance_request", args, ok=False)
        instr = "%s In %s %s. Open an urgent %s request and take the room offline." % (
            self.staff(),
            room["room_id"],
            problem,
            cat,
        )
        if self.rng.random() < 0.6:
            del args["take_offline"]
            s.do("open_maintenance_request", args)
            instr += " If you can't take it offline, just log the request."
        return instr

    def r_reopen_resolved(self, s):
        m = self.pick(v for k, v in sorted(self.reqs.items()) if v["status"] == "resolved")
        s.do(
            "update_request_status",
            {"request_id": m["request_id"], "status": "open", "note": "Resident says the issue is back"},
            ok=False,
        )
        return "%s Reopen %s for room %s, the problem came back." % (self.staff(), m["request_id"], m["room_id"])

    def r_schedule_far(self, s):
        m = self.pick(v for k, v in sorted(self.reqs.items()) if v["status"] in ("open", "scheduled"))
        far = (TODAY + dt.timedelta(days=self.rng.randint(35, 60))).isoformat()
        s.do(
            "update_request_status",
            {
                "request_id": m["request_id"],
                "status": "scheduled",
                "scheduled_for": far,
                "note": "Contractor's first free slot",
            },
            ok=False,
        )
        instr = "%s The contractor can only do %s on %s. Schedule it for then." % (
            self.staff(),
            m["request_id"],
            human(far),
        )
        if self.rng.random() < 0.6:
            near = self.later(7, 28)
            s.do(
                "update_request_status",
                {
                    "request_id": m["request_id"],
                    "status": "scheduled",
                    "scheduled_for": near,
                    "note": "Booked with backup contractor",
                },
            )
            instr += " If that's too far out, book the backup contractor on %s instead." % human(near)
        return instr

    def r_charge_cap(self, s):
        m = self.pick(
            v
            for k, v in sorted(self.reqs.items())
            if v["status"] != "resolved" and v["category"] in adapter.BILLABLE and self.rooms[v["room_id"]]["occupants"]
        )
        rid = (
            m["reported_by"]
            if m["reported_by"] in self.rooms[m["room_id"]]["occupants"]
            else self.rooms[m["room_id"]]["occupants"][0]
        )
        amt = self.rng.choice([620.0, 750.0, 980.0])
        s.do(
            "update_request_status",
            {
                "request_id": m["request_id"],
                "status": "resolved",
                "note": "Replaced; resident responsible",
                "charge_amount": amt,
                "charge_resident_id": rid,
            },
            ok=False,
        )
        return "%s %s is done. The replacement cost $%.2f; bill all of it to %s and close the request." % (
            self.staff(),
            m["request_id"],
            amt,
            rid,
        )

    def r_charge_category(self, s):
        m = self.pick(
            v
            for k, v in sorted(self.reqs.items())
            if v["status"] != "resolved"
            and v["category"] not in adapter.BILLABLE
            and self.rooms[v["room_id"]]["occupants"]
        )
        rid = self.rooms[m["room_id"]]["occupants"][0]
        amt = self.rng.choice([40.0, 55.0, 90.0])
        s.do(
            "update_request_status",
            {
                "request_id": m["request_id"],
                "status": "resolved",
                "note": "Fixed; resident caused it",
                "charge_amount": amt,
                "charge_resident_id": rid,
            },
            ok=False,
        )
        instr = "%s %s (%s) is fixed, but the resident caused it. Close it and bill %s $%.2f." % (
            self.staff(),
            m["request_id"],
            m["category"],
            rid,
            amt,
        )
        if self.rng.random() < 0.5:
            s.do("update_request_status", {"request_id": m["request_id"], "status": "resolved", "note": "Fixed"})
            instr += " If you can't bill it, just close it."
        return instr

    def r_charge_not_occupant(self, s):
        m = self.pick(
            v for k, v in sorted(self.reqs.items()) if v["status"] != "resolved" and v["category"] in adapter.BILLABLE
        )
        room = self.rooms[m["room_id"]]
        r = self.pick(
            self.active(
                lambda r: r["resident_id"] not in room["occupants"] and self.room_of(r)["building"] == room["building"]
            )
        )
        s.do(
            "update_request_status",
            {
                "request_id": m["request_id"],
                "status": "resolved",
                "note": "Repaired; caused by a visitor",
                "charge_amount": 70.0,
                "charge_resident_id": r["resident_id"],
            },
            ok=False,
        )
        return (
            "%s %s in %s is repaired. A neighbour, %s (%s), did it while visiting; bill them $70.00 and close it."
            % (self.staff(), m["request_id"], m["room_id"], r["name"], r["resident_id"])
        )

    def r_guest_limit(self, s):
        r = self.pick(self.active(lambda r: r["status"] == "enrolled" and len(r["registered_guests"]) >= 2))
        g = self.pick(GUESTS)
        s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "add", "guest_name": g}, ok=False)
        instr = "%s Add %s to my overnight guests." % (self.hello(r), g)
        if self.rng.random() < 0.6:
            drop = r["registered_guests"][-1]["guest_name"]
            s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "remove", "guest_name": drop})
            s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "add", "guest_name": g})
            instr += " If I'm at the limit, drop %s." % drop
        return instr

    def r_guest_unknown(self, s):
        r = self.pick(self.active(lambda r: r["status"] == "enrolled"))
        names = {x["guest_name"] for x in r["registered_guests"]}
        g = self.pick(x for x in GUESTS if x not in names)
        s.do(
            "update_registered_guests", {"resident_id": r["resident_id"], "action": "remove", "guest_name": g}, ok=False
        )
        if self.rng.random() < 0.5:
            s.do("get_resident", {"resident_id": r["resident_id"]})
            return "%s Please remove %s from my guest list, and tell me who's still on it." % (self.hello(r), g)
        return "%s Please remove %s from my guest list." % (self.hello(r), g)

    def r_guest_no_room(self, s):
        r = self.pick(self.residents(lambda r: r["current_assignment_id"] is None and r["status"] == "enrolled"))
        g = self.pick(GUESTS)
        s.do("update_registered_guests", {"resident_id": r["resident_id"], "action": "add", "guest_name": g}, ok=False)
        return "%s My cousin %s is visiting next weekend; register them as my guest." % (self.hello(r), g)

    def r_unknown_room(self, s):
        bad = self.rng.choice(["A-204", "B-305", "C-110", "B-203"])
        s.do("get_room", {"room_id": bad}, ok=False)
        b = {"A": "Alder Hall", "B": "Birchwood House", "C": "Cedar Court"}[bad[0]]
        s.do("search_rooms", {"building": b, "has_space": True})
        return "Is room %s free? I saw it on an old floor plan. If not, what's free in %s?" % (bad, b)

    def r_unknown_resident(self, s):
        r = self.pick(self.residents(lambda r: True))
        bad = "RS-%d" % (int(r["resident_id"][3:]) + 100)
        s.do("get_resident", {"resident_id": bad}, ok=False)
        s.do("get_resident", {"resident_id": r["resident_id"]})
        return "Hi, %s here. My resident ID is %s... sorry, I may have mistyped, it might be %s. What's my balance?" % (
            r["name"],
            bad,
            r["resident_id"],
        )

    def r_unknown_assignment(self, s):
        bad = "AS-%d" % self.rng.randint(5030, 5099)
        s.do("get_assignment", {"assignment_id": bad}, ok=False)
        return "My housing letter says assignment %s. What room is that?" % bad


VALID = {
    "v_account": 3,
    "v_roommates": 3,
    "v_assignment": 2,
    "v_room": 2,
    "v_search": 3,
    "v_quote": 2,
    "v_quote_current": 1,
    "v_assign": 4,
    "v_assign_direct": 2,
    "v_move": 4,
    "v_move_maint": 2,
    "v_checkout": 4,
    "v_open": 4,
    "v_open_staff": 2,
    "v_list": 2,
    "v_room_requests": 1,
    "v_schedule": 3,
    "v_resolve": 3,
    "v_unschedule": 1,
    "v_guest_add": 2,
    "v_guest_remove": 1,
    "v_guest_swap": 1,
}
REFUSE = [
    "r_assign_hold",
    "r_assign_withdrawn",
    "r_assign_deposit",
    "r_assign_balance",
    "r_assign_active",
    "r_assign_full",
    "r_assign_maint",
    "r_quote_closed",
    "r_quote_early",
    "r_move_twice",
    "r_move_full",
    "r_move_ended",
    "r_checkout_damage",
    "r_checkout_ended",
    "r_resolve_then_checkout",
    "r_open_duplicate",
    "r_open_not_occupant",
    "r_offline_occupied",
    "r_reopen_resolved",
    "r_schedule_far",
    "r_charge_cap",
    "r_charge_category",
    "r_charge_not_occupant",
    "r_guest_limit",
    "r_guest_unknown",
    "r_guest_no_room",
    "r_unknown_room",
    "r_unknown_resident",
    "r_unknown_assignment",
]


def replay(data, calls):
    env = adapter.make()
    env.reset(data)
    return [env.call(c["name"], json.loads(json.dumps(c["arguments"])))["ok"] for c in calls]


def build(data, rng, n_refuse):
    gen = Gen(rng, data)
    plan = rng.sample(REFUSE, n_refuse)
    names = sorted(VALID)
    weights = [VALID[n] for n in names]
    while len(plan) < N_SESSIONS:
        plan.append(rng.choices(names, weights)[0])
    rng.shuffle(plan)
    out = []
    seen = set()
    for kind in plan:
        while True:
            made = None
            for _ in range(40):
                s = Session(data)
                try:
                    instr = getattr(gen, kind)(s)
                except Skip:
                    continue
                key = json.dumps(s.calls, sort_keys=True)
                if instr in seen or key in seen:
                    continue
                if replay(data, s.calls) != s.expect:
                    continue
                seen.update((instr, key))
                made = (instr, s.calls, s.expect)
                break
            if made is not None:
                out.append(made)
                break
            # this kind is used up (every variant already taken): draw another of the same class
            kind = rng.choice(REFUSE) if kind.startswith("r_") else rng.choices(names, weights)[0]
    return out


def acceptable(sessions):
    calls = sum(len(c) for _, c, _ in sessions)
    refused = sum(e.count(False) for _, _, e in sessions)
    per_tool = {t: 0 for t in TOOLS}
    for _, cs, _ in sessions:
        for c in cs:
            per_tool[c["name"]] += 1
    return 188 <= calls <= 225 and 0.11 <= refused / calls <= 0.14 and min(per_tool.values()) >= 8


def main():
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    for attempt in range(2000):
        rng = random.Random(SEED + attempt)
        sessions = build(data, rng, 22 + attempt % 5)
        if acceptable(sessions):
            break
    else:
        raise RuntimeError("no acceptable plan")
    calls = sum(len(c) for _, c, _ in sessions)
    refused = sum(e.count(False) for _, _, e in sessions)
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for i, (instr, cs, _) in enumerate(sessions):
            f.write(json.dumps({"id": "housing-%03d" % i, "instruction": instr, "calls": cs}) + "\n")
    print(
        "sessions: %d  calls: %d  refused: %d (%.1f%%)  attempt: %d"
        % (len(sessions), calls, refused, 100.0 * refused / calls, attempt)
    )


if __name__ == "__main__":
    main()
