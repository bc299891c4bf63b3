"""Generate trajectories.jsonl for the AeroDrive rental desk (written for forgegym, MIT).

Seeded and deterministic: running it twice writes the same file byte for byte. Every session is replayed
on the real adapter from data.json and kept only if exactly the intended calls are refused.
"""

import datetime as dt
import json
import os
import random

import adapter

SEED = 20250612
HERE = os.path.dirname(os.path.abspath(__file__))
TODAY = dt.date.fromisoformat(adapter.BUSINESS_DATE)
BRANCH_WORDS = {
    "BR-101": "Harbourview (HVX)",
    "BR-102": "Kestrel Field",
    "BR-103": "Saltmarsh (SMR)",
    "BR-104": "Pinecrest",
}
ADDON_WORDS = {
    "AO-01": "a child seat",
    "AO-02": "a booster seat",
    "AO-03": "a GPS",
    "AO-04": "an additional driver",
    "AO-05": "a ski rack",
    "AO-06": "a Wi-Fi hotspot",
}
ADDON_PLURAL = {"AO-01": "child seats", "AO-02": "booster seats", "AO-04": "additional drivers"}


def d(offset):
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def nice(date_s):
    x = dt.date.fromisoformat(date_s)
    return x.strftime("%B ") + str(x.day)


def a_cls(cls):
    word = "SUV" if cls == "suv" else cls
    return ("an " if word[0] in "aeiouAEIOU" or word == "SUV" else "a ") + word


def call(name, **arguments):
    return {"name": name, "arguments": arguments}


class Gen:
    def __init__(self, data, rng):
        self.data = data
        self.rng = rng
        self.c = data["customers"]
        self.v = data["vehicles"]
        self.r = data["rentals"]

    # ----- helpers over the initial data
    def pick(self, seq):
        return self.rng.choice(list(seq))

    def who(self, cid, by_email=None):
        """Return (intro text, lookup call) for identifying a customer."""
        cust = self.c[cid]
        if by_email is None:
            by_email = self.rng.random() < 0.5
        if by_email:
            return f"I'm {cust['name']} ({cust['email']}).", call("get_customer", email=cust["email"])
        return f"I'm {cust['name']}, customer {cid}.", call("get_customer", customer_id=cid)

    def open_count(self, cid):
        return sum(1 for r in self.r.values() if r["customer_id"] == cid and r["status"] in ("reserved", "active"))

    def deposit_ok(self, cid, cls):
        cust = self.c[cid]
        need = 0 if cust["loyalty_tier"] == "platinum" else adapter.DEPOSIT_CENTS[cls]
        return adapter._cents(cust["deposit_balance"]) >= need

    def available(self, branch=None, cls=None):
        return [
            v
            for k, v in sorted(self.v.items())
            if v["status"] == "available"
            and (branch is None or v["branch_id"] == branch)
            and (cls is None or v["vehicle_class"] == cls)
        ]

    def rentals(self, status=None, pred=None):
        return [
            r
            for k, r in sorted(self.r.items())
            if (status is None or r["status"] == status) and (pred is None or pred(r))
        ]

    def addon_phrase(self, items):
        parts = []
        for it in items:
            q = it.get("quantity", 1)
            parts.append(f"{q} {ADDON_PLURAL[it['addon_id']]}" if q > 1 else ADDON_WORDS[it["addon_id"]])
        return " and ".join(parts)

    def random_addons(self, cls, maxn=2):
        ids = ["AO-01", "AO-02", "AO-03", "AO-04", "AO-06"] + (["AO-05"] if cls in ("suv", "van") else [])
        n = self.rng.choice([0, 0, 1, 1, 2][: 3 + maxn])
        chosen = self.rng.sample(ids, n)
        out = []
        for aid in sorted(chosen):
            q = 1
            if aid in ("AO-01", "AO-02"):
                q = self.rng.choice([1, 1, 2])
            elif aid == "AO-04":
                q = self.rng.choice([1, 2])
            item = {"addon_id": aid}
            if q > 1 or self.rng.random() < 0.5:
                item["quantity"] = q
            out.append(item)
        return out

    def trip(self, min_start=0, max_start=20, min_days=1, max_days=9):
        s = self.rng.randint(min_start, max_start)
        n = self.rng.randint(min_days, max_days)
        return d(s), d(s + n)

    # ----- successful sessions
    def t_status(self):
        r = self.pick(self.r.values())
        intro, look = self.who(r["customer_id"])
        ask = self.pick(
            [
                "What's the status of my rental {rid}?",
                "Can you pull up agreement {rid} for me?",
                "I'd like to check the details and total on booking {rid}.",
            ]
        ).format(rid=r["rental_id"])
        calls = [look, call("get_rental", rental_id=r["rental_id"])]
        if self.rng.random() < 0.4:
            calls.insert(1, call("list_rentals", customer_id=r["customer_id"]))
            ask = "I have a few bookings with you. " + ask
        return f"{intro} {ask}", calls, set()

    def t_my_rentals(self):
        cid = self.pick(sorted({r["customer_id"] for r in self.r.values()}))
        intro, look = self.who(cid)
        args = {"customer_id": cid}
        text = "Which rentals do I have with you?"
        if self.rng.random() < 0.5:
            st = self.pick(["reserved", "active", "returned"])
            args["status"] = st
            text = {
                "reserved": "Do I have any upcoming reservations?",
                "active": "Which car do I have out right now?",
                "returned": "Can you list my past (returned) rentals?",
            }[st]
        return f"{intro} {text}", [look, call("list_rentals", **args)], set()

    def t_branch_day(self):
        b = self.pick(sorted(BRANCH_WORDS))
        args = {
            "pickup_branch_id": b,
            "start_from": d(self.rng.choice([-3, 0])),
            "start_to": d(self.rng.choice([0, 7, 14])),
        }
        if self.rng.random() < 0.4:
            args["status"] = "reserved"
        return (
            f"(Desk supervisor at {BRANCH_WORDS[b]}) List the agreements starting at our branch between "
            f"{nice(args['start_from'])} and {nice(args['start_to'])}"
            + (" that are still reserved." if "status" in args else "."),
            [call("list_rentals", **args)],
            set(),
        )

    def t_quote(self):
        cls = self.pick(adapter.CLASSES)
        s, e = self.trip()
        args = {"vehicle_class": cls, "start_date": s, "end_date": e}
        text = f"How much would {a_cls(cls)} car cost from {nice(s)} to {nice(e)}"
        calls = []
        if self.rng.random() < 0.6:
            cid = self.pick(sorted(self.c))
            intro, look = self.who(cid, by_email=False)
            args["customer_id"] = cid
            text = f"{intro} {text}"
        adds = self.random_addons(cls)
        if adds:
            args["addons"] = adds
            text += f" with {self.addon_phrase(adds)}"
        if self.rng.random() < 0.35:
            a, b = self.rng.sample(sorted(BRANCH_WORDS), 2)
            args["pickup_branch_id"], args["return_branch_id"] = a, b
            text += f", picking up at {BRANCH_WORDS[a]} and dropping off at {BRANCH_WORDS[b]}"
        calls.append(call("quote_rental", **args))
        if self.rng.random() < 0.5:
            other = self.pick([c for c in adapter.CLASSES if c != cls])
            args2 = dict(args, vehicle_class=other)
            if other not in ("suv", "van") and any(a["addon_id"] == "AO-05" for a in args.get("addons", [])):
                args2["addons"] = [a for a in args["addons"] if a["addon_id"] != "AO-05"] or None
                if args2["addons"] is None:
                    del args2["addons"]
            calls.append(call("quote_rental", **args2))
            text += f"? And the same for {a_cls(other)}"
        return text + "?", calls, set()

    def eligible_bookers(self, end):
        return [
            cid
            for cid, c in sorted(self.c.items())
            if c["status"] == "active" and c["licence_expiry"] >= end and self.open_count(cid) < 2
        ]

    def t_book(self):
        s, e = self.trip(min_start=0, max_start=18, max_days=8)
        options = []
        for cid in self.eligible_bookers(e):
            for v in self.available():
                if self.deposit_ok(cid, v["vehicle_class"]):
                    options.append((cid, v["branch_id"], v["vehicle_class"]))
        cid, branch, cls = self.pick(sorted(set(options)))
        cands = self.available(branch, cls)
        veh = cands[0] if self.rng.random() < 0.7 else self.pick(cands)
        intro, look = self.who(cid)
        adds = self.random_addons(cls, maxn=1)
        text = f"{intro} I'd like to book {a_cls(cls)} at {BRANCH_WORDS[branch]} from {nice(s)} to {nice(e)}"
        cargs = {"customer_id": cid, "vehicle_id": veh["vehicle_id"], "start_date": s, "end_date": e}
        if adds:
            cargs["addons"] = adds
            text += f", with {self.addon_phrase(adds)}"
        if self.rng.random() < 0.25:
            rb = self.pick([b for b in BRANCH_WORDS if b != branch])
            cargs["return_branch_id"] = rb
            text += f", returning it to {BRANCH_WORDS[rb]}"
        calls = [look, call("search_vehicles", branch_id=branch, vehicle_class=cls)]
        if self.rng.random() < 0.5:
            q = {
                "vehicle_class": cls,
                "start_date": s,
                "end_date": e,
                "customer_id": cid,
                "pickup_branch_id": branch,
                "return_branch_id": cargs.get("return_branch_id", branch),
            }
            if adds:
                q["addons"] = adds
            calls.append(call("quote_rental", **q))
            text += ". Please tell me the price first, then go ahead"
        if veh is not cands[0]:
            text += f". If possible I'd like {veh['plate']}"
        calls.append(call("create_rental", **cargs))
        return text + ".", calls, set()

    def t_pickup(self):
        r = self.pick(
            self.rentals(
                "reserved",
                lambda r: (
                    r["start_date"] <= adapter.BUSINESS_DATE < r["end_date"]
                    and self.c[r["customer_id"]]["licence_expiry"] >= adapter.BUSINESS_DATE
                    and self.v[r["vehicle_id"]]["status"] == "reserved"
                ),
            )
        )
        cust = self.c[r["customer_id"]]
        calls = [
            call("get_rental", rental_id=r["rental_id"]),
            call("pick_up_vehicle", rental_id=r["rental_id"], licence_number=cust["licence_number"]),
        ]
        text = self.pick(
            [
                "Hi, I'm {n}, here to collect my car for booking {rid}. My licence number is {lic}.",
                "Picking up reservation {rid} - name's {n}, licence {lic}.",
            ]
        ).format(n=cust["name"], rid=r["rental_id"], lic=cust["licence_number"])
        if self.rng.random() < 0.5:
            calls[0] = call("list_rentals", customer_id=r["customer_id"], status="reserved")
        if self.rng.random() < 0.4:
            calls.append(call("get_vehicle", vehicle_id=r["vehicle_id"]))
            text += " Which bay is the car in, and how much fuel does it have?"
        return text, calls, set()

    def return_args(self, r, short=False):
        veh = self.v[r["vehicle_id"]]
        days = (dt.date.fromisoformat(r["end_date"]) - dt.date.fromisoformat(r["start_date"])).days
        km = veh["mileage_km"] + self.rng.randint(40, 320 * max(days, 1))
        fuel = self.rng.choice(
            [veh["fuel_eighths"], veh["fuel_eighths"], max(0, veh["fuel_eighths"] - self.rng.randint(1, 4))]
        )
        args = {"rental_id": r["rental_id"], "mileage_km": km, "fuel_eighths": fuel}
        where = r["return_branch_id"]
        if self.rng.random() < 0.25:
            where = self.pick([b for b in BRANCH_WORDS if b != r["return_branch_id"]])
            args["return_branch_id"] = where
        elif self.rng.random() < 0.3:
            args["return_branch_id"] = where
        return args, where

    def t_return(self):
        r = self.pick(self.rentals("active"))
        cust = self.c[r["customer_id"]]
        args, where = self.return_args(r)
        text = (
            f"{cust['name']} here, dropping off the car from rental {r['rental_id']} at {BRANCH_WORDS[where]}. "
            f"The odometer shows {args['mileage_km']} km and the gauge is at {args['fuel_eighths']}/8. "
            f"What's my final bill?"
        )
        calls = [call("get_rental", rental_id=r["rental_id"]), call("return_vehicle", **args)]
        if self.rng.random() < 0.5:
            calls.append(call("get_customer", customer_id=r["customer_id"]))
            text += " And please confirm my deposit is back."
        return text, calls, set()

    def t_cancel(self):
        r = self.pick(self.rentals("reserved"))
        cust = self.c[r["customer_id"]]
        if r["start_date"] < adapter.BUSINESS_DATE and self.rng.random() < 0.5:
            reason = "no_show"
            text = (
                f"(Branch staff) Customer {cust['name']} never turned up for {r['rental_id']}; close it as a no-show."
            )
        elif self.v[r["vehicle_id"]]["status"] == "maintenance":
            reason = "vehicle_unavailable"
            text = (
                f"{cust['name']} here. I heard the car for {r['rental_id']} is in the workshop - "
                f"please cancel that booking on your side."
            )
        else:
            reason = "customer_request"
            text = f"I'm {cust['name']}. Plans changed, please cancel my booking {r['rental_id']}."
        calls = [
            call("get_rental", rental_id=r["rental_id"]),
            call("cancel_rental", rental_id=r["rental_id"], reason=reason),
        ]
        if reason != "no_show" and self.rng.random() < 0.7:
            calls.insert(0, call("get_customer", customer_id=r["customer_id"]))
            text += f" My customer number is {r['customer_id']}."
        return text, calls, set()

    def t_add_addon(self):
        options = []
        for r in self.rentals(pred=lambda r: r["status"] in ("reserved", "active")):
            have = {ln["addon_id"]: ln["quantity"] for ln in r["addons"]}
            for aid, a in sorted(self.data["addons"].items()):
                if a["allowed_classes"] and r["vehicle_class"] not in a["allowed_classes"]:
                    continue
                room = a["max_per_rental"] - have.get(aid, 0)
                if room >= 1:
                    options.append((r["rental_id"], aid, room))
        rid, aid, room = self.pick(options)
        q = self.rng.randint(1, min(room, 2))
        cust = self.c[self.r[rid]["customer_id"]]
        args = {"rental_id": rid, "addon_id": aid}
        if q > 1 or self.rng.random() < 0.4:
            args["quantity"] = q
        thing = f"{q} {ADDON_PLURAL[aid]}" if q > 1 else ADDON_WORDS[aid]
        text = self.pick(
            [
                "I'm {n}. Could you add {t} to rental {rid}? What's the new estimate?",
                "Please put {t} on my agreement {rid} - this is {n}.",
            ]
        ).format(n=cust["name"], t=thing, rid=rid)
        calls = [call("add_rental_addon", **args)]
        if self.rng.random() < 0.7:
            calls.insert(0, call("get_rental", rental_id=rid))
        if self.rng.random() < 0.4:
            calls.insert(0, call("get_customer", email=cust["email"]))
            text += f" My email is {cust['email']}."
        return text, calls, set()

    def t_remove_addon(self):
        options = [(r["rental_id"], ln) for r in self.rentals("reserved") for ln in r["addons"]]
        rid, line = self.pick(options)
        cust = self.c[self.r[rid]["customer_id"]]
        args = {"rental_id": rid, "addon_id": line["addon_id"]}
        if line["quantity"] > 1 and self.rng.random() < 0.6:
            args["quantity"] = 1
            what = f"one of the {line['name'].lower()}s"
        else:
            what = f"the {line['name'].lower()}"
        text = f"Hi, {cust['name']} here - I don't need {what} on booking {rid} any more, please take it off."
        calls = [call("get_rental", rental_id=rid), call("remove_rental_addon", **args)]
        if self.rng.random() < 0.5:
            calls.insert(0, call("get_customer", customer_id=cust["customer_id"]))
            text += f" (Customer id {cust['customer_id']}.)"
        return text, calls, set()

    def t_fleet(self):
        b = self.pick(sorted(BRANCH_WORDS))
        args = {"branch_id": b}
        text = f"(Desk agent) Which cars are free at {BRANCH_WORDS[b]}"
        if self.rng.random() < 0.6:
            args["vehicle_class"] = self.pick(adapter.CLASSES)
            text += f" in {args['vehicle_class']} class"
        if self.rng.random() < 0.4:
            args["min_fuel_eighths"] = self.rng.choice([6, 7, 8])
            text += f" with at least {args['min_fuel_eighths']}/8 fuel"
        if self.rng.random() < 0.3:
            args["max_mileage_km"] = self.rng.choice([30000, 40000, 50000])
            text += f" and under {args['max_mileage_km']} km"
        calls = [call("search_vehicles", **args)]
        fleet = [
            v
            for v in self.available(b, args.get("vehicle_class"))
            if v["fuel_eighths"] >= args.get("min_fuel_eighths", 0)
            and v["mileage_km"] <= args.get("max_mileage_km", 10**9)
        ]
        text += "?"
        if fleet and self.rng.random() < 0.6:
            calls.append(call("get_vehicle", vehicle_id=fleet[0]["vehicle_id"]))
            text += " Show me the details of the first one."
        elif self.rng.random() < 0.5:
            vid = self.pick(sorted(self.v))
            calls.append(call("get_vehicle", vehicle_id=vid))
            text += f" Also, where is {vid} right now?"
        return text, calls, set()

    def t_book_then_extra(self):
        text, calls, _ = self.t_book()
        create = calls[-1]["arguments"]
        cls = self.v[create["vehicle_id"]]["vehicle_class"]
        have = {a["addon_id"]: a.get("quantity", 1) for a in create.get("addons", [])}
        choices = [
            aid
            for aid, a in sorted(self.data["addons"].items())
            if (not a["allowed_classes"] or cls in a["allowed_classes"]) and have.get(aid, 0) < a["max_per_rental"]
        ]
        aid = self.pick(choices)
        new_id = "R-%d" % (max(int(k.split("-")[1]) for k in self.r) + 1)
        calls.append(call("add_rental_addon", rental_id=new_id, addon_id=aid))
        text += f" Actually, once it's booked, also add {ADDON_WORDS[aid]}."
        if len(calls) < 5 and self.rng.random() < 0.5:
            calls.append(call("get_customer", customer_id=create["customer_id"]))
            text += " How much deposit do I have left after that?"
        return text, calls, set()

    def t_return_then_book(self):
        r = self.pick(self.rentals("active"))
        cid = r["customer_id"]
        cust = self.c[cid]
        args, where = self.return_args(r)
        s, e = self.trip(min_start=2, max_start=20, max_days=6)
        if cust["licence_expiry"] < e:
            e = cust["licence_expiry"]
        balance = adapter._cents(cust["deposit_balance"]) + adapter._cents(r["deposit_held"])

        def need(cls):
            return 0 if cust["loyalty_tier"] == "platinum" else adapter.DEPOSIT_CENTS[cls]

        fleet = [v for v in self.available(where) if need(v["vehicle_class"]) <= balance]
        if not fleet or e <= s:
            return self.t_return()
        v = self.pick(fleet)
        cls = v["vehicle_class"]
        calls = [
            call("return_vehicle", **args),
            call("search_vehicles", branch_id=where, vehicle_class=cls),
            call("create_rental", customer_id=cid, vehicle_id=v["vehicle_id"], start_date=s, end_date=e),
        ]
        text = (
            f"{cust['name']} returning {r['rental_id']} at {BRANCH_WORDS[where]} ({args['mileage_km']} km, fuel "
            f"{args['fuel_eighths']}/8). While I'm here, book me {a_cls(cls)} from this "
            f"branch for {nice(s)} to {nice(e)}"
        )
        if v is not self.available(where, cls)[0]:
            text += f" - ideally {v['plate']}"
        return text + ".", calls, set()

    def t_pickup_extra_driver(self):
        text, calls, _ = self.t_pickup()
        rid = calls[1]["arguments"]["rental_id"] if calls[1]["name"] == "pick_up_vehicle" else None
        r = self.r[rid]
        have = {ln["addon_id"]: ln["quantity"] for ln in r["addons"]}
        aid = "AO-04" if have.get("AO-04", 0) < 2 else self.pick(["AO-01", "AO-02"])
        calls.insert(2, call("add_rental_addon", rental_id=rid, addon_id=aid))
        text += (
            f" My partner will drive too, so please add {ADDON_WORDS[aid]}."
            if aid == "AO-04"
            else f" We also need {ADDON_WORDS[aid]}."
        )
        return text, calls[:5], set()

    # ----- sessions with intended refusals
    def f_licence_expires(self):
        cid = "C-1005"
        cust = self.c[cid]
        exp = dt.date.fromisoformat(cust["licence_expiry"])
        v = self.pick([v for v in self.available() if self.deposit_ok(cid, v["vehicle_class"])])
        s = d(self.rng.randint(1, 5))
        long_end = (exp + dt.timedelta(days=self.rng.randint(1, 5))).isoformat()
        intro, look = self.who(cid)
        calls = [
            look,
            call("create_rental", customer_id=cid, vehicle_id=v["vehicle_id"], start_date=s, end_date=long_end),
        ]
        text = f"{intro} Book {v['plate']} ({v['vehicle_id']}) for me from {nice(s)} to {nice(long_end)}"
        if self.rng.random() < 0.6:
            calls.append(
                call(
                    "create_rental",
                    customer_id=cid,
                    vehicle_id=v["vehicle_id"],
                    start_date=s,
                    end_date=cust["licence_expiry"],
                )
            )
            text += f"; if that doesn't work, make it end on {nice(cust['licence_expiry'])} instead"
        return text + ".", calls, {1}

    def f_deposit(self):
        options = []
        for cid, c in sorted(self.c.items()):
            if c["status"] != "active" or self.open_count(cid) >= 2 or c["loyalty_tier"] == "platinum":
                continue
            for v in self.available():
                if not self.deposit_ok(cid, v["vehicle_class"]) and c["licence_expiry"] > d(25):
                    options.append((cid, v["vehicle_id"]))
        cid, vid = self.pick(options)
        v = self.v[vid]
        s, e = self.trip(min_start=1, max_start=14, max_days=6)
        intro, look = self.who(cid)
        text = f"{intro} I want the {v['model']} {vid} at {BRANCH_WORDS[v['branch_id']]} from {nice(s)} to {nice(e)}"
        calls = [look, call("create_rental", customer_id=cid, vehicle_id=vid, start_date=s, end_date=e)]
        cheaper = [w for w in self.available(v["branch_id"]) if self.deposit_ok(cid, w["vehicle_class"])]
        if cheaper and self.rng.random() < 0.7:
            w = cheaper[0]
            calls.append(call("search_vehicles", branch_id=v["branch_id"], vehicle_class=w["vehicle_class"]))
            calls.append(call("create_rental", customer_id=cid, vehicle_id=w["vehicle_id"], start_date=s, end_date=e))
            text += f"; if my deposit doesn't cover it, give me {a_cls(w['vehicle_class'])} there instead"
        return text + ".", calls, {1}

    def f_vehicle_taken(self):
        cid = self.pick(self.eligible_bookers(d(20)))
        taken = self.pick(
            [v for v in sorted(self.v.values(), key=lambda v: v["vehicle_id"]) if v["status"] != "available"]
        )
        s, e = self.trip(min_start=1, max_start=10, max_days=5)
        intro, look = self.who(cid, by_email=False)
        calls = [call("create_rental", customer_id=cid, vehicle_id=taken["vehicle_id"], start_date=s, end_date=e)]
        text = (
            f"{intro} My colleague recommended car {taken['vehicle_id']} ({taken['model']}); can I have it from "
            f"{nice(s)} to {nice(e)}?"
        )
        alts = [
            w
            for w in self.available(taken["branch_id"], taken["vehicle_class"])
            if self.deposit_ok(cid, w["vehicle_class"])
        ]
        if alts:
            calls.append(call("search_vehicles", branch_id=taken["branch_id"], vehicle_class=taken["vehicle_class"]))
            calls.append(
                call("create_rental", customer_id=cid, vehicle_id=alts[0]["vehicle_id"], start_date=s, end_date=e)
            )
            text += " Otherwise any free car of the same class at that branch."
        return text, calls, {0}

    def f_suspended(self):
        cid = "C-1007"
        v = self.pick(self.available())
        s, e = self.trip(min_start=0, max_start=10, max_days=4)
        intro, look = self.who(cid)
        return (
            f"{intro} Please reserve {v['vehicle_id']} from {nice(s)} to {nice(e)}.",
            [look, call("create_rental", customer_id=cid, vehicle_id=v["vehicle_id"], start_date=s, end_date=e)],
            {1},
        )

    def f_open_limit(self):
        cid = "C-1013"
        v = self.pick(self.available())
        s, e = self.trip(min_start=2, max_start=15, max_days=4)
        intro, look = self.who(cid)
        calls = [
            look,
            call("list_rentals", customer_id=cid),
            call("create_rental", customer_id=cid, vehicle_id=v["vehicle_id"], start_date=s, end_date=e),
        ]
        return (
            f"{intro} I need one more car, {v['vehicle_id']} ({v['vehicle_class']}), from {nice(s)} to {nice(e)}.",
            calls,
            {2},
        )

    def f_early_pickup(self):
        r = self.pick(self.rentals("reserved", lambda r: r["start_date"] > adapter.BUSINESS_DATE))
        cust = self.c[r["customer_id"]]
        calls = [call("pick_up_vehicle", rental_id=r["rental_id"], licence_number=cust["licence_number"])]
        text = (
            f"I'm {cust['name']}, I landed early - can I collect the car for {r['rental_id']} today? "
            f"Licence {cust['licence_number']}."
        )
        if self.rng.random() < 0.5:
            calls.append(call("get_rental", rental_id=r["rental_id"]))
            text += " If not, remind me when my booking starts."
        return text, calls, {0}

    def f_expired_licence_pickup(self):
        r = self.r["R-50008"]
        cust = self.c[r["customer_id"]]
        calls = [
            call("get_rental", rental_id="R-50008"),
            call("pick_up_vehicle", rental_id="R-50008", licence_number=cust["licence_number"]),
        ]
        text = f"{cust['name']} collecting booking R-50008, licence {cust['licence_number']}."
        if self.rng.random() < 0.6:
            calls.append(call("cancel_rental", rental_id="R-50008", reason="customer_request"))
            text += " If you can't give me the car, just cancel the booking."
        return text, calls, {1}

    def f_maintenance_pickup(self):
        r = self.r["R-50012"]
        cust = self.c[r["customer_id"]]
        calls = [call("pick_up_vehicle", rental_id="R-50012", licence_number=cust["licence_number"])]
        text = f"Hello, {cust['name']} for reservation R-50012, licence {cust['licence_number']}."
        if self.rng.random() < 0.7:
            calls.append(call("cancel_rental", rental_id="R-50012", reason="vehicle_unavailable"))
            alts = self.available(r["pickup_branch_id"])
            w = alts[0]
            calls.append(call("search_vehicles", branch_id=r["pickup_branch_id"]))
            calls.append(
                call(
                    "create_rental",
                    customer_id=r["customer_id"],
                    vehicle_id=w["vehicle_id"],
                    start_date=r["start_date"],
                    end_date=r["end_date"],
                )
            )
            text += " If that car is not ready, cancel it and put me in whatever is free here for the same dates."
        return text, calls, {0}

    def f_lapsed(self):
        r = self.r["R-50015"]
        cust = self.c[r["customer_id"]]
        calls = [
            call("pick_up_vehicle", rental_id="R-50015", licence_number=cust["licence_number"]),
            call("cancel_rental", rental_id="R-50015", reason="no_show"),
        ]
        return (
            f"{cust['name']} here (licence {cust['licence_number']}), I missed my pick-up for R-50015 - can I still "
            f"get the car? If not, close the booking as a no-show.",
            calls,
            {0},
        )

    def f_wrong_licence(self):
        r = self.pick(
            self.rentals(
                "reserved",
                lambda r: (
                    r["start_date"] <= adapter.BUSINESS_DATE < r["end_date"]
                    and self.c[r["customer_id"]]["licence_expiry"] >= adapter.BUSINESS_DATE
                    and self.v[r["vehicle_id"]]["status"] == "reserved"
                ),
            )
        )
        cust = self.c[r["customer_id"]]
        lic = cust["licence_number"]
        digits = lic[-6:]
        typo = lic[:-6] + digits[:2] + digits[3] + digits[2] + digits[4:]
        if typo == lic:
            typo = lic[:-1] + ("0" if lic[-1] != "0" else "1")
        calls = [
            call("pick_up_vehicle", rental_id=r["rental_id"], licence_number=typo),
            call("pick_up_vehicle", rental_id=r["rental_id"], licence_number=lic),
        ]
        return (
            f"Collecting {r['rental_id']} for {cust['name']}. I read the licence as {typo} - sorry, on a second "
            f"look it's {lic}.",
            calls,
            {0},
        )

    def f_bad_odometer(self):
        r = self.pick(self.rentals("active"))
        veh = self.v[r["vehicle_id"]]
        args, where = self.return_args(r)
        wrong = veh["mileage_km"] - self.rng.randint(100, 3000)
        calls = [call("return_vehicle", **dict(args, mileage_km=wrong)), call("return_vehicle", **args)]
        return (
            f"Returning rental {r['rental_id']} at {BRANCH_WORDS[where]}: odometer {wrong} km, fuel "
            f"{args['fuel_eighths']}/8. (Correction: the odometer actually reads {args['mileage_km']} km.)",
            calls,
            {0},
        )

    def f_cancel_active(self):
        r = self.pick(self.rentals("active"))
        cust = self.c[r["customer_id"]]
        calls = [
            call("get_rental", rental_id=r["rental_id"]),
            call("cancel_rental", rental_id=r["rental_id"], reason="customer_request"),
        ]
        return (f"I'm {cust['name']}. I want to cancel {r['rental_id']} - I don't need the car after all.", calls, {1})

    def f_remove_after_pickup(self):
        options = [(r["rental_id"], ln) for r in self.rentals("active") for ln in r["addons"]]
        rid, line = self.pick(options)
        cust = self.c[self.r[rid]["customer_id"]]
        return (
            f"{cust['name']} here. Please drop the {line['name'].lower()} from my current rental {rid} so I stop "
            f"paying for it.",
            [call("get_rental", rental_id=rid), call("remove_rental_addon", rental_id=rid, addon_id=line["addon_id"])],
            {1},
        )

    def f_rack_wrong_class(self):
        r = self.pick(
            self.rentals(
                pred=lambda r: r["status"] in ("reserved", "active") and r["vehicle_class"] not in ("suv", "van")
            )
        )
        cust = self.c[r["customer_id"]]
        calls = [call("add_rental_addon", rental_id=r["rental_id"], addon_id="AO-05")]
        text = f"I'm {cust['name']}; add a ski rack to booking {r['rental_id']}, we're taking skis."
        if self.rng.random() < 0.4:
            calls.append(call("get_vehicle", vehicle_id=r["vehicle_id"]))
            text += " If it doesn't fit, what car is it exactly?"
        return text, calls, {0}

    def f_too_many(self):
        options = []
        for r in self.rentals(pred=lambda r: r["status"] in ("reserved", "active")):
            have = {ln["addon_id"]: ln["quantity"] for ln in r["addons"]}
            for aid in ("AO-01", "AO-02", "AO-04", "AO-03"):
                mx = self.data["addons"][aid]["max_per_rental"]
                if have.get(aid, 0) >= 1 or aid in ("AO-01", "AO-02"):
                    options.append((r["rental_id"], aid, mx - have.get(aid, 0)))
        rid, aid, room = self.pick(options)
        over = room + self.rng.randint(1, 2)
        cust = self.c[self.r[rid]["customer_id"]]
        calls = [call("add_rental_addon", rental_id=rid, addon_id=aid, quantity=over)]
        what = ADDON_PLURAL.get(aid, "GPS units")
        text = f"This is {cust['name']}. Add {over} more {what} to {rid}"
        if room >= 1:
            calls.append(call("add_rental_addon", rental_id=rid, addon_id=aid, quantity=room))
            text += ", or as many as you're allowed to give me"
        return text + ".", calls, {0}

    def f_quote_too_long(self):
        cls = self.pick(adapter.CLASSES)
        s = self.rng.randint(1, 20)
        n = self.rng.randint(31, 45)
        calls = [
            call("quote_rental", vehicle_class=cls, start_date=d(s), end_date=d(s + n)),
            call("quote_rental", vehicle_class=cls, start_date=d(s), end_date=d(s + 30)),
        ]
        return (
            f"What would {a_cls(cls)} cost from {nice(d(s))} for {n} days? If that's too long for one agreement, "
            f"quote me the longest you can.",
            calls,
            {0},
        )

    def f_quote_past(self):
        cls = self.pick(adapter.CLASSES)
        s = -self.rng.randint(1, 6)
        n = self.rng.randint(3, 8)
        calls = [call("quote_rental", vehicle_class=cls, start_date=d(s), end_date=d(s + n))]
        text = f"Quote me {a_cls(cls)} from {nice(d(s))} to {nice(d(s + n))}"
        if self.rng.random() < 0.6:
            calls.append(call("quote_rental", vehicle_class=cls, start_date=d(0), end_date=d(s + n)))
            text += " - oh wait, that already started; make it from today then"
        return text + ".", calls, {0}

    def f_noshow_early(self):
        r = self.pick(
            self.rentals(
                "reserved",
                lambda r: r["start_date"] >= adapter.BUSINESS_DATE and self.v[r["vehicle_id"]]["status"] == "reserved",
            )
        )
        cust = self.c[r["customer_id"]]
        calls = [
            call("cancel_rental", rental_id=r["rental_id"], reason="no_show"),
            call("cancel_rental", rental_id=r["rental_id"], reason="customer_request"),
        ]
        return (
            f"(Staff) Mark {r['rental_id']} for {cust['name']} as a no-show; if the system won't, cancel it at the "
            f"customer's request - they phoned to say they aren't coming.",
            calls,
            {0},
        )

    def f_addon_on_closed(self):
        r = self.pick(self.rentals(pred=lambda r: r["status"] in ("returned", "cancelled")))
        cust = self.c[r["customer_id"]]
        aid = self.pick(["AO-01", "AO-03", "AO-06"])
        return (
            f"{cust['name']} here; please add {ADDON_WORDS[aid]} to {r['rental_id']}.",
            [
                call("get_rental", rental_id=r["rental_id"]),
                call("add_rental_addon", rental_id=r["rental_id"], addon_id=aid),
            ],
            {1},
        )


PLAN = [
    ("t_status", 4),
    ("t_my_rentals", 4),
    ("t_branch_day", 2),
    ("t_quote", 6),
    ("t_book", 6),
    ("t_pickup", 2),
    ("t_return", 4),
    ("t_cancel", 5),
    ("t_add_addon", 4),
    ("t_remove_addon", 3),
    ("t_fleet", 3),
    ("t_book_then_extra", 4),
    ("t_return_then_book", 3),
    ("t_pickup_extra_driver", 2),
    ("f_licence_expires", 2),
    ("f_deposit", 2),
    ("f_vehicle_taken", 2),
    ("f_suspended", 1),
    ("f_open_limit", 1),
    ("f_early_pickup", 2),
    ("f_expired_licence_pickup", 1),
    ("f_maintenance_pickup", 1),
    ("f_lapsed", 1),
    ("f_wrong_licence", 1),
    ("f_bad_odometer", 1),
    ("f_cancel_active", 1),
    ("f_remove_after_pickup", 1),
    ("f_rack_wrong_class", 1),
    ("f_too_many", 1),
    ("f_quote_too_long", 1),
    ("f_quote_past", 1),
    ("f_noshow_early", 1),
    ("f_addon_on_closed", 1),
]


def replay_failures(data, calls):
    desk = adapter.make()
    desk.reset(data)
    return {i for i, c in enumerate(calls) if not desk.call(c["name"], c["arguments"])["ok"]}


def main():
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    rng = random.Random(SEED)
    gen = Gen(data, rng)
    order = [name for name, n in PLAN for _ in range(n)]
    rng.shuffle(order)
    sessions = []
    seen = set()
    for name in order:
        for _attempt in range(50):
            instruction, calls, expected = getattr(gen, name)()
            key = json.dumps(calls, sort_keys=True)
            if key in seen or not 1 <= len(calls) <= 5:
                continue
            if replay_failures(data, calls) != expected:
                continue
            seen.add(key)
            sessions.append((instruction, calls))
            break
        else:
            raise SystemExit(f"could not generate a valid session for {name}")
    out = os.path.join(HERE, "trajectories.jsonl")
    n_calls = n_fail = 0
    with open(out, "w") as f:
        for i, (instruction, calls) in enumerate(sessions):
            n_calls += len(calls)
            n_fail += len(replay_failures(data, calls))
            f.write(json.dumps({"id": f"rental-{i:03d}", "instruction": instruction, "calls": calls}) + "\n")
    print(f"sessions={len(sessions)} calls={n_calls} refused={n_fail} ({100.0 * n_fail / n_calls:.1f}%)")


if __name__ == "__main__":
    main()
