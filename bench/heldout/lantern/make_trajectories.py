"""Writes trajectories.jsonl: support sessions at the harbour office desk (seeded, deterministic).

Each session starts from data.json. The calls are those a desk agent made, including the ones the real
system refused (realistic mistakes); the script replays each call on adapter.py to pick follow-ups and to
check that every call succeeds or fails as intended.
"""

import json
import os
import random

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20250614
rng = random.Random(SEED)
with open(os.path.join(HERE, "data.json")) as fh:
    DATA = json.load(fh)

SESSIONS = []


class Session:
    def __init__(self, instruction):
        self.instruction = instruction
        self.env = adapter.make()
        self.env.reset(DATA)
        self.calls = []
        SESSIONS.append(self)

    def do(self, name, expect=True, **args):
        self.calls.append({"name": name, "arguments": args})
        r = self.env.call(name, args)
        if r["ok"] != expect:
            raise SystemExit(
                "session %d call %s %s: expected ok=%s, got %s" % (len(SESSIONS) - 1, name, args, expect, r["output"])
            )
        return r["output"]


def pick(options):
    return rng.choice(options)


def hello(name):
    return pick(
        ["Hi, this is %s. " % name, "Hello, %s here. " % name, "Good morning, it's %s. " % name, "%s speaking. " % name]
    )


def book(owner, name, vessel, boat, arrive, depart, method, power=None, extra=""):
    s = Session(
        hello(name)
        + "I'm %s and I'd like a berth for %s from %s to %s%s, paid %s.%s"
        % (
            owner,
            boat,
            arrive,
            depart,
            " with shore power" if power else "",
            "from my account credit" if method == "account_credit" else "by card",
            extra,
        )
    )
    s.do("get_owner_account", owner_id=owner)
    q = {"vessel_id": vessel, "arrive": arrive, "depart": depart}
    if power:
        q["shore_power"] = True
    found = s.do("search_berths", **q)["berths"]
    berth = pick(found[:3])["berth_id"]
    s.do("create_stay", vessel_id=vessel, berth_id=berth, arrive=arrive, depart=depart, payment_method=method)
    return s


def walk_in(owner, name, vessel, boat, nights, method):
    depart = "2025-06-%02d" % (14 + nights)
    s = Session(
        hello(name) + "We've just tied up on the waiting pontoon with %s, no booking. Owner account %s. "
        "Can you find us a berth for %d night%s from today and check us in? I'll pay %s."
        % (
            boat,
            owner,
            nights,
            "s" if nights > 1 else "",
            "from my credit" if method == "account_credit" else "by card",
        )
    )
    s.do("get_owner_account", owner_id=owner)
    found = s.do("search_berths", vessel_id=vessel, arrive="2025-06-14", depart=depart)["berths"]
    stay = s.do(
        "create_stay",
        vessel_id=vessel,
        berth_id=found[0]["berth_id"],
        arrive="2025-06-14",
        depart=depart,
        payment_method=method,
    )
    s.do("check_in_stay", stay_id=stay["stay_id"])


# ---------------------------------------------------------------- new bookings
book("OWN-1007", "Sigrid Aalto", "VSL-209", "Nordlys", "2025-07-01", "2025-07-05", "card")
book("OWN-1009", "Hattie Quarrington", "VSL-216", "Wrenna", "2025-06-27", "2025-07-01", "account_credit")
book(
    "OWN-1003",
    "Ines Valcourt",
    "VSL-204",
    "our catamaran Bluefin Drift",
    "2025-07-08",
    "2025-07-12",
    "account_credit",
    extra=" What will it cost?",
)
book("OWN-1011", "Amara Okonjo", "VSL-214", "Sunfisher", "2025-06-28", "2025-07-03", "card", power=True)
book("OWN-1002", "Tobias Rennick", "VSL-203", "Marram", "2025-07-10", "2025-07-14", "card")
book(
    "OWN-1008",
    "Rafael Montemayor",
    "VSL-211",
    "the little motor boat, Merlin's Folly",
    "2025-06-20",
    "2025-06-23",
    "card",
)
book("OWN-1001", "Maren Holloway", "VSL-201", "Kittiwake", "2025-06-18", "2025-06-21", "account_credit", power=True)

walk_in("OWN-1012", "Lucien Thorvald", "VSL-215", "Gannet Rock", 2, "card")
walk_in("OWN-1005", "Priya Lakshman", "VSL-207", "Tern", 1, "account_credit")

s = Session(
    hello("Hattie Quarrington") + "Account OWN-1009. Have you got room for my catamaran Aurora Borealis "
    "tonight and tomorrow night?"
)
s.do("get_vessel", vessel_id="VSL-212")
s.do("search_berths", vessel_id="VSL-212", arrive="2025-06-14", depart="2025-06-16")

# booking mistakes
s = Session(
    hello("Rafael Montemayor") + "OWN-1008. Please book Saltire in for 2 to 6 July and take it from my "
    "account credit. If that doesn't work, just put it on my card."
)
s.do("get_owner_account", owner_id="OWN-1008")
b = s.do("search_berths", vessel_id="VSL-210", arrive="2025-07-02", depart="2025-07-06")["berths"][0]["berth_id"]
s.do(
    "create_stay",
    False,
    vessel_id="VSL-210",
    berth_id=b,
    arrive="2025-07-02",
    depart="2025-07-06",
    payment_method="account_credit",
)
s.do("create_stay", vessel_id="VSL-210", berth_id=b, arrive="2025-07-02", depart="2025-07-06", payment_method="card")

s = Session(
    hello("Priya Lakshman") + "Account OWN-1005. I'd like Tern in from 24 to 28 June, paid from my credit. "
    "If there isn't enough, top me up by a hundred pounds on my card first."
)
s.do("get_owner_account", owner_id="OWN-1005")
b = s.do("search_berths", vessel_id="VSL-207", arrive="2025-06-24", depart="2025-06-28")["berths"][0]["berth_id"]
s.do(
    "create_stay",
    False,
    vessel_id="VSL-207",
    berth_id=b,
    arrive="2025-06-24",
    depart="2025-06-28",
    payment_method="account_credit",
)
s.do("add_account_credit", owner_id="OWN-1005", amount=100)
s.do(
    "create_stay",
    vessel_id="VSL-207",
    berth_id=b,
    arrive="2025-06-24",
    depart="2025-06-28",
    payment_method="account_credit",
)

s = Session(
    hello("Priya Lakshman") + "Could I have berth A-01 for Tern, 1 to 4 July? It's near the showers. "
    "Card please. If A-01 is no good, any berth will do."
)
s.do("get_vessel", vessel_id="VSL-207")
s.do(
    "create_stay",
    False,
    vessel_id="VSL-207",
    berth_id="A-01",
    arrive="2025-07-01",
    depart="2025-07-04",
    payment_method="card",
)
b = s.do("search_berths", vessel_id="VSL-207", arrive="2025-07-01", depart="2025-07-04")["berths"][0]["berth_id"]
s.do("create_stay", vessel_id="VSL-207", berth_id=b, arrive="2025-07-01", depart="2025-07-04", payment_method="card")

s = Session(
    hello("Maren Holloway") + "OWN-1001. I want Second Wind in from 28 June to 2 July, account credit. "
    "If something stops the full stay, book as much of it as you can."
)
s.do("get_vessel", vessel_id="VSL-202")
b = s.do("search_berths", vessel_id="VSL-202", arrive="2025-06-28", depart="2025-07-02")["berths"][0]["berth_id"]
s.do(
    "create_stay",
    False,
    vessel_id="VSL-202",
    berth_id=b,
    arrive="2025-06-28",
    depart="2025-07-02",
    payment_method="account_credit",
)
s.do(
    "create_stay",
    vessel_id="VSL-202",
    berth_id=b,
    arrive="2025-06-28",
    depart="2025-06-30",
    payment_method="account_credit",
)

s = Session(hello("Lucien Thorvald") + "OWN-1012. Book Gannet Rock from the 20th to the 24th of June on card, please.")
s.do("get_owner_account", owner_id="OWN-1012")
b = s.do("search_berths", vessel_id="VSL-215", arrive="2025-06-20", depart="2025-06-24")["berths"][0]["berth_id"]
s.do(
    "create_stay",
    False,
    vessel_id="VSL-215",
    berth_id=b,
    arrive="2025-06-20",
    depart="2025-06-24",
    payment_method="card",
)

s = Session(hello("Jonas Wexler") + "Account OWN-1010. I need a berth for Quillon from 21 to 23 June, card.")
s.do("get_vessel", vessel_id="VSL-213")
s.do(
    "create_stay",
    False,
    vessel_id="VSL-213",
    berth_id="C-03",
    arrive="2025-06-21",
    depart="2025-06-23",
    payment_method="card",
)
s.do("get_owner_account", owner_id="OWN-1010")

s = Session(
    hello("Ines Valcourt") + "OWN-1003. Halcyon Days needs a berth from 20 June to 10 July; if that's "
    "too long, book the longest you can from the 20th. Take it from credit."
)
s.do("get_owner_account", owner_id="OWN-1003")
s.do("search_berths", False, vessel_id="VSL-205", arrive="2025-06-20", depart="2025-07-10")
b = s.do("search_berths", vessel_id="VSL-205", arrive="2025-06-20", depart="2025-07-04")["berths"][0]["berth_id"]
s.do(
    "create_stay",
    vessel_id="VSL-205",
    berth_id=b,
    arrive="2025-06-20",
    depart="2025-07-04",
    payment_method="account_credit",
)

s = Session(
    hello("Maren Holloway") + "OWN-1001. Kittiwake needs somewhere from 9 to 12 July. I'd rather keep "
    "everything on one booking if I can; use my credit."
)
s.do("get_owner_account", owner_id="OWN-1001")
b = s.do("search_berths", vessel_id="VSL-201", arrive="2025-07-09", depart="2025-07-12")["berths"][0]["berth_id"]
s.do(
    "create_stay",
    False,
    vessel_id="VSL-201",
    berth_id=b,
    arrive="2025-07-09",
    depart="2025-07-12",
    payment_method="account_credit",
)
s.do("change_stay_dates", stay_id="STY-5015", arrive="2025-07-04", depart="2025-07-12")

# ---------------------------------------------------------------- check-in
s = Session(hello("Sigrid Aalto") + "We've arrived on Nordlys, booking STY-5003. Can you check us in?")
s.do("get_stay", stay_id="STY-5003")
s.do("check_in_stay", stay_id="STY-5003")

s = Session(hello("Desmond Achterberg") + "Pippa Lou is here for booking STY-5017, please check us in.")
s.do("get_stay", stay_id="STY-5017")
s.do("check_in_stay", False, stay_id="STY-5017")
s.do("get_vessel", vessel_id="VSL-206")

s = Session(
    hello("Rafael Montemayor") + "Merlin's Folly is in for tonight, STY-5011. Check us in please; "
    "someone seems to be in our berth."
)
s.do("get_stay", stay_id="STY-5011")
s.do("check_in_stay", False, stay_id="STY-5011")
s.do("get_stay", stay_id="STY-5008")
s.do("check_out_stay", stay_id="STY-5008", payment_method="card")
s.do("check_in_stay", stay_id="STY-5011")

s = Session(
    hello("Priya Lakshman") + "We came in a day early on Tern, stay STY-5005. Check us in today? "
    "Happy for any difference to come off my credit."
)
s.do("get_stay", stay_id="STY-5005")
s.do("check_in_stay", False, stay_id="STY-5005")
s.do("change_stay_dates", stay_id="STY-5005", arrive="2025-06-14", depart="2025-06-18")
s.do("check_in_stay", stay_id="STY-5005")

s = Session(
    hello("Amara Okonjo") + "Sunfisher made better time than planned. Booking STY-5007 starts on the "
    "17th; can we start it today instead and check in?"
)
s.do("get_stay", stay_id="STY-5007")
s.do("change_stay_dates", stay_id="STY-5007", arrive="2025-06-14", depart="2025-06-21")
s.do("check_in_stay", stay_id="STY-5007")

s = Session(
    hello("Lucien Thorvald") + "Gannet Rock is early; STY-5012 starts Monday. Bring it forward to today "
    "and check me in."
)
s.do("get_stay", stay_id="STY-5012")
s.do("change_stay_dates", stay_id="STY-5012", arrive="2025-06-14", depart="2025-06-19")
s.do("check_in_stay", stay_id="STY-5012")

# ---------------------------------------------------------------- on-berth charges
q = pick([45, 60, 75])
s = Session(
    hello("Maren Holloway") + "Stay STY-5001: we took %d litres of diesel and had a pump-out. Add them to my bill." % q
)
s.do("get_stay", stay_id="STY-5001")
s.do("add_stay_charge", stay_id="STY-5001", item="diesel", quantity=q)
s.do("add_stay_charge", stay_id="STY-5001", item="pump_out", quantity=1)

s = Session(hello("Ines Valcourt") + "Two loads of laundry for Bluefin Drift please, stay STY-5002.")
s.do("get_stay", stay_id="STY-5002")
s.do("add_stay_charge", stay_id="STY-5002", item="laundry", quantity=2)

kwh = pick([38.5, 45.5, 51.0])
s = Session(
    hello("Ines Valcourt") + "The power meter on Halcyon Days (STY-5010) reads %s kWh since the last reading." % kwh
)
s.do("get_stay", stay_id="STY-5010")
s.do("add_stay_charge", stay_id="STY-5010", item="shore_power", quantity=kwh)

s = Session(hello("Rafael Montemayor") + "Saltire, STY-5008: charge me 20 kWh of shore power and a pump-out.")
s.do("get_stay", stay_id="STY-5008")
s.do("add_stay_charge", False, stay_id="STY-5008", item="shore_power", quantity=20)
s.do("add_stay_charge", stay_id="STY-5008", item="pump_out", quantity=1)

s = Session(
    hello("Ines Valcourt") + "Halcyon Days (STY-5010) took 650 litres of diesel in two fills, 500 and "
    "150; the fuel dock has signed both off."
)
s.do("get_stay", stay_id="STY-5010")
s.do("add_stay_charge", False, stay_id="STY-5010", item="diesel", quantity=650)
s.do("add_stay_charge", stay_id="STY-5010", item="diesel", quantity=500)
s.do("add_stay_charge", stay_id="STY-5010", item="diesel", quantity=150)

kwh = pick([12, 18.4, 22.6])
s = Session(hello("Maren Holloway") + "Three loads of laundry and %s kWh of power on STY-5001, please." % kwh)
s.do("get_stay", stay_id="STY-5001")
s.do("add_stay_charge", stay_id="STY-5001", item="laundry", quantity=3)
s.do("add_stay_charge", stay_id="STY-5001", item="shore_power", quantity=kwh)

# ---------------------------------------------------------------- check-out
s = Session(
    hello("Maren Holloway") + "We're leaving the berth early. Check Kittiwake out of STY-5001 and take "
    "what I owe from my credit."
)
s.do("get_stay", stay_id="STY-5001")
s.do("check_out_stay", stay_id="STY-5001", payment_method="account_credit")

s = Session(hello("Ines Valcourt") + "Please check Bluefin Drift out, stay STY-5002, and settle from my credit.")
s.do("get_stay", stay_id="STY-5002")
s.do("check_out_stay", stay_id="STY-5002", payment_method="account_credit")

s = Session(
    hello("Rafael Montemayor") + "Saltire is leaving, stay STY-5008. Use my account credit, or my card "
    "if that's not enough."
)
s.do("get_stay", stay_id="STY-5008")
s.do("check_out_stay", False, stay_id="STY-5008", payment_method="account_credit")
s.do("check_out_stay", stay_id="STY-5008", payment_method="card")

litres = pick([150, 200, 240])
s = Session(
    hello("Ines Valcourt") + "Halcyon Days is off after a last %d litres of diesel. Add it to STY-5010 and "
    "check us out; card." % litres
)
s.do("get_stay", stay_id="STY-5010")
s.do("add_stay_charge", stay_id="STY-5010", item="diesel", quantity=litres)
s.do("check_out_stay", stay_id="STY-5010", payment_method="card")

s = Session(
    hello("Sigrid Aalto") + "Change of plan, Nordlys won't stay after all. Check us out of STY-5003, "
    "or whatever you need to do."
)
s.do("get_stay", stay_id="STY-5003")
s.do("check_out_stay", False, stay_id="STY-5003")
s.do("cancel_stay", stay_id="STY-5003", reason="owner changed plans on arrival day")

# ---------------------------------------------------------------- cancellations
for sid, who, why in [
    ("STY-5004", "Tobias Rennick", "crew unavailable"),
    ("STY-5006", "Hattie Quarrington", "weather routing change"),
    ("STY-5007", "Amara Okonjo", "engine problem"),
    ("STY-5005", "Priya Lakshman", "family emergency"),
    ("STY-5018", "Sigrid Aalto", "cruise cut short"),
    ("STY-5021", "Hattie Quarrington", "staying at home mooring"),
]:
    s = Session(hello(who) + "I need to cancel booking %s (%s). What will I get back?" % (sid, why))
    s.do("get_stay", stay_id=sid)
    s.do("cancel_stay", stay_id=sid, reason=why)

s = Session(hello("Maren Holloway") + "OWN-1001. Please cancel Kittiwake's July booking, and tell me the refund.")
s.do("get_owner_account", owner_id="OWN-1001")
s.do("cancel_stay", stay_id="STY-5015")

s = Session(
    hello("Maren Holloway") + "Cancel STY-5001, we're heading off today instead. Take anything owing from credit."
)
s.do("get_stay", stay_id="STY-5001")
s.do("cancel_stay", False, stay_id="STY-5001")
s.do("check_out_stay", stay_id="STY-5001", payment_method="account_credit")

# ---------------------------------------------------------------- date changes
s = Session(hello("Tobias Rennick") + "Booking STY-5004: we'll arrive a day late, on the 21st, same departure.")
s.do("get_stay", stay_id="STY-5004")
s.do("change_stay_dates", stay_id="STY-5004", arrive="2025-06-21", depart="2025-06-27")

s = Session(hello("Hattie Quarrington") + "Can Aurora Borealis stay three more nights on STY-5006, leaving 5 July?")
s.do("get_stay", stay_id="STY-5006")
s.do("change_stay_dates", stay_id="STY-5006", arrive="2025-06-25", depart="2025-07-05")

s = Session(hello("Sigrid Aalto") + "Please move STY-5018 two days later, 22 to 29 July.")
s.do("get_stay", stay_id="STY-5018")
s.do("change_stay_dates", stay_id="STY-5018", arrive="2025-07-22", depart="2025-07-29")

s = Session(hello("Hattie Quarrington") + "Extend Wrenna's stay STY-5021 to leave on the 25th instead.")
s.do("get_stay", stay_id="STY-5021")
s.do("change_stay_dates", stay_id="STY-5021", arrive="2025-06-18", depart="2025-06-25")

s = Session(
    hello("Hattie Quarrington") + "We'd like STY-5006 to start today and run a week. If today's impossible, "
    "the earliest week you can do."
)
s.do("get_stay", stay_id="STY-5006")
s.do("change_stay_dates", False, stay_id="STY-5006", arrive="2025-06-14", depart="2025-06-21")
s.do("change_stay_dates", stay_id="STY-5006", arrive="2025-06-16", depart="2025-06-23")

s = Session(
    hello("Priya Lakshman") + "Make STY-5005 run until the 21st. Credit please; top it up with fifty "
    "pounds if you need to."
)
s.do("get_stay", stay_id="STY-5005")
s.do("change_stay_dates", False, stay_id="STY-5005", arrive="2025-06-15", depart="2025-06-21")
s.do("add_account_credit", owner_id="OWN-1005", amount=50)
s.do("change_stay_dates", stay_id="STY-5005", arrive="2025-06-15", depart="2025-06-21")

s = Session(
    hello("Maren Holloway") + "Kittiwake is on STY-5001; can we stay three more nights, to the 20th? "
    "Same berth if possible, credit."
)
s.do("get_stay", stay_id="STY-5001")
s.do("change_stay_dates", False, stay_id="STY-5001", arrive="2025-06-10", depart="2025-06-20")
found = s.do("search_berths", vessel_id="VSL-201", arrive="2025-06-17", depart="2025-06-20")["berths"]
s.do(
    "create_stay",
    vessel_id="VSL-201",
    berth_id="B-01",
    arrive="2025-06-17",
    depart="2025-06-20",
    payment_method="account_credit",
)

s = Session(hello("Lucien Thorvald") + "Shorten STY-5012 by a night: arrive the 17th instead of the 16th.")
s.do("get_stay", stay_id="STY-5012")
s.do("change_stay_dates", stay_id="STY-5012", arrive="2025-06-17", depart="2025-06-19")

s = Session(hello("Sigrid Aalto") + "We're enjoying it here; extend STY-5003 to depart on the 20th.")
s.do("get_stay", stay_id="STY-5003")
s.do("change_stay_dates", stay_id="STY-5003", arrive="2025-06-14", depart="2025-06-20")

# ---------------------------------------------------------------- boatyard
s = Session(hello("Maren Holloway") + "Haul Kittiwake out on Monday 23 June, please, from my credit.")
s.do("get_vessel", vessel_id="VSL-201")
s.do("book_yard_service", vessel_id="VSL-201", service="haul_out", date="2025-06-23", payment_method="account_credit")

s = Session(hello("Priya Lakshman") + "I need Tern lifted out on the 19th; card.")
s.do("get_vessel", vessel_id="VSL-207")
s.do("book_yard_service", vessel_id="VSL-207", service="haul_out", date="2025-06-19", payment_method="card")

s = Session(hello("Sigrid Aalto") + "Can Nordlys come out of the water on Friday the 20th? Card.")
s.do("get_vessel", vessel_id="VSL-209")
s.do("book_yard_service", vessel_id="VSL-209", service="haul_out", date="2025-06-20", payment_method="card")

s = Session(hello("Hattie Quarrington") + "While Wrenna is out on the 24th, add a pressure wash; credit.")
s.do("get_vessel", vessel_id="VSL-216")
s.do(
    "book_yard_service",
    vessel_id="VSL-216",
    service="pressure_wash",
    date="2025-06-24",
    payment_method="account_credit",
)

s = Session(hello("Rafael Montemayor") + "Saltire comes out on the 18th; add a pressure wash that day, card.")
s.do("get_vessel", vessel_id="VSL-210")
s.do("book_yard_service", vessel_id="VSL-210", service="pressure_wash", date="2025-06-18", payment_method="card")

s = Session(
    hello("Tobias Rennick") + "Marram's mast needs to come down on the 18th when she's hauled; if that "
    "day is full, the day before. Card."
)
s.do("get_vessel", vessel_id="VSL-203")
s.do("book_yard_service", False, vessel_id="VSL-203", service="mast_crane", date="2025-06-18", payment_method="card")
s.do("book_yard_service", vessel_id="VSL-203", service="mast_crane", date="2025-06-17", payment_method="card")

s = Session(hello("Amara Okonjo") + "Haul-out for Sunfisher on Sunday 22 June? Otherwise the Saturday before. Card.")
s.do("get_vessel", vessel_id="VSL-214")
s.do("book_yard_service", False, vessel_id="VSL-214", service="haul_out", date="2025-06-22", payment_method="card")
s.do("book_yard_service", vessel_id="VSL-214", service="haul_out", date="2025-06-21", payment_method="card")

s = Session(
    hello("Maren Holloway") + "Book Second Wind a pressure wash on the 20th, and a haul-out if she "
    "needs one for that. Credit."
)
s.do("get_vessel", vessel_id="VSL-202")
s.do(
    "book_yard_service",
    False,
    vessel_id="VSL-202",
    service="pressure_wash",
    date="2025-06-20",
    payment_method="account_credit",
)
s.do("book_yard_service", vessel_id="VSL-202", service="haul_out", date="2025-06-20", payment_method="account_credit")
s.do(
    "book_yard_service",
    vessel_id="VSL-202",
    service="pressure_wash",
    date="2025-06-20",
    payment_method="account_credit",
)

s = Session(hello("Ines Valcourt") + "Please book Bluefin Drift for a haul-out on the 26th, from my credit.")
s.do("get_vessel", vessel_id="VSL-204")
s.do(
    "book_yard_service",
    False,
    vessel_id="VSL-204",
    service="haul_out",
    date="2025-06-26",
    payment_method="account_credit",
)

s = Session(
    hello("Lucien Thorvald") + "Gannet Rock needs hauling on the 25th; if not, the latest weekday you can "
    "before that. Card."
)
s.do("get_vessel", vessel_id="VSL-215")
s.do("book_yard_service", False, vessel_id="VSL-215", service="haul_out", date="2025-06-25", payment_method="card")
s.do("book_yard_service", vessel_id="VSL-215", service="haul_out", date="2025-06-20", payment_method="card")

# ---------------------------------------------------------------- account credit
for owner, who, amount in [
    ("OWN-1012", "Lucien Thorvald", pick([150, 200, 250])),
    ("OWN-1004", "Desmond Achterberg", pick([40, 50, 60])),
    ("OWN-1006", "Callum Brodie", 100),
]:
    s = Session(
        hello(who)
        + "Account %s. Please add %d pounds of credit on my card and tell me the new balance." % (owner, amount)
    )
    s.do("get_owner_account", owner_id=owner)
    s.do("add_account_credit", owner_id=owner, amount=amount)

s = Session(hello("Ines Valcourt") + "OWN-1003. Top my credit up by 1,000 pounds, twice if you can.")
s.do("get_owner_account", owner_id="OWN-1003")
s.do("add_account_credit", owner_id="OWN-1003", amount=1000)
s.do("add_account_credit", False, owner_id="OWN-1003", amount=1000)
s.do("add_account_credit", owner_id="OWN-1003", amount=250)

s = Session(
    hello("Tobias Rennick") + "OWN-1002. Put 1,500 pounds on my account; if that's over the limit, the "
    "most you can take in one go."
)
s.do("get_owner_account", owner_id="OWN-1002")
s.do("add_account_credit", False, owner_id="OWN-1002", amount=1500)
s.do("add_account_credit", owner_id="OWN-1002", amount=1000)

# ---------------------------------------------------------------- questions only
s = Session(hello("Jonas Wexler") + "Account OWN-1010. Why can't I book anything online?")
s.do("get_owner_account", owner_id="OWN-1010")

s = Session(hello("Ines Valcourt") + "What do I owe so far on Halcyon Days, stay STY-5010?")
s.do("get_stay", stay_id="STY-5010")

s = Session(hello("Priya Lakshman") + "OWN-1005. What would 5 to 8 July cost me for Tern with shore power?")
s.do("get_owner_account", owner_id="OWN-1005")
s.do("search_berths", vessel_id="VSL-207", arrive="2025-07-05", depart="2025-07-08", shore_power=True)

s = Session(hello("Amara Okonjo") + "When does Sunfisher's insurance run out, and what yard work is booked?")
s.do("get_vessel", vessel_id="VSL-214")

s = Session(hello("Tobias Rennick") + "Is Marram insured for her July visit, and how much is 10 to 14 July?")
s.do("get_vessel", vessel_id="VSL-203")
s.do("search_berths", vessel_id="VSL-203", arrive="2025-07-10", depart="2025-07-14")


def main():
    out = os.path.join(HERE, "trajectories.jsonl")
    calls = refused = 0
    used = {}
    with open(out, "w") as fh:
        for i, s in enumerate(SESSIONS):
            fh.write(json.dumps({"id": "lantern-%03d" % i, "instruction": s.instruction, "calls": s.calls}) + "\n")
            env = adapter.make()
            env.reset(DATA)
            for c in s.calls:
                calls += 1
                used[c["name"]] = used.get(c["name"], 0) + 1
                if not env.call(c["name"], c["arguments"])["ok"]:
                    refused += 1
    print("sessions %d calls %d refused %d (%.1f%%)" % (len(SESSIONS), calls, refused, 100.0 * refused / calls))
    print(json.dumps(used, sort_keys=True))


if __name__ == "__main__":
    main()
