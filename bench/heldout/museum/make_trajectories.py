"""Seeded generator of desk support sessions for the museum reference system.

Each session starts from data.json. The calls are run through adapter.py while they are generated, so that
later calls can use what earlier ones returned (new booking ids, chosen slots). Writes trajectories.jsonl.
Standard library only.
"""

import json
import os
import random
from datetime import date

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260514

with open(os.path.join(HERE, "data.json")) as f:
    DATA = json.load(f)

MEMBERS = DATA["members"]
EXHIBITIONS = DATA["exhibitions"]
SLOTS = DATA["slots"]
BOOKINGS = DATA["bookings"]

COMPANIONS = [
    "Tobias Wren",
    "Ada Quist",
    "Milo Faraday-Lund",
    "Greta Hollis",
    "Ivo Marchetti",
    "Sunniva Dale",
    "Piet Anholt",
    "Rosalind Keel",
    "Bram Osterley",
    "Zofia Marek",
    "Lena Corvin",
    "Hugo Brannock",
]
CHILDREN = ["Nell", "Arlo", "Fenna", "Jude", "Ottie", "Remy", "Suki", "Wilf"]
VISITORS = [
    "Marguerite Dunleavy",
    "Anselm Roke",
    "Petra Wilding",
    "Oswin Clay",
    "Jana Petrakova",
    "Teodor Blaise",
    "Imke Saltash",
    "Farrah Quinlan",
    "Gideon Mallory",
    "Leontine Hask",
]
SCHOOLS = [
    ("Moss End Primary School", "Ms. Lydia Crane"),
    ("Ferrow Hill Academy", "Mr. Ansel Doyle"),
    ("St. Wenna's Junior School", "Mrs. Priya Holm"),
    ("Larkmoor Grammar School", "Dr. Edwin Saye"),
    ("Copperfold Primary", "Ms. Hattie Brook"),
]
CLUBS = [
    ("Eastgate Photography Society", "Bernard Ley"),
    ("Northfield Women's Institute", "Carol Amberley"),
    ("Larkmoor Rotary Club", "Julian Fosse"),
    ("Ashby Book Circle", "Moira Penrose"),
    ("Veldt & Co. staff outing", "Sanjay Irwin"),
]
LANG_NAMES = {
    "en": "English",
    "fr": "French",
    "de": "German",
    "nl": "Dutch",
    "ja": "Japanese",
    "es": "Spanish",
    "pl": "Polish",
    "it": "Italian",
    "pt": "Portuguese",
}


def say_date(d):
    x = date.fromisoformat(d)
    return "%s %d %s" % (x.strftime("%A"), x.day, x.strftime("%B"))


def title(ex_id):
    if EXHIBITIONS[ex_id]["kind"] == "general":
        return "the " + EXHIBITIONS[ex_id]["title"]
    return EXHIBITIONS[ex_id]["title"]


def people(cat, q):
    word = {"adult": ("adult", "adults"), "child": ("child", "children"), "concession": ("concession", "concessions")}[
        cat
    ]
    return "%d %s" % (q, word[0] if q == 1 else word[1])


class Session:
    def __init__(self):
        self.sys = adapter.make()
        self.sys.reset(DATA)
        self.calls = []
        self.refused = 0

    def call(self, op, **args):
        self.calls.append({"name": op, "arguments": args})
        r = self.sys.call(op, args)
        if not r["ok"]:
            self.refused += 1
        return r


def open_slots(S, ex_id=None, need=1, day=None):
    args = {}
    if ex_id:
        args["exhibition_id"] = ex_id
    if day:
        args["date"] = day
    if need > 1:
        args["min_available"] = need
    r = S.call("searchEntrySlots", **args)
    return r["output"]


def future_slots(ex_id, need=1):
    out = []
    for sid, s in sorted(SLOTS.items()):
        if (
            s["exhibition_id"] == ex_id
            and s["date"] >= adapter.BUSINESS_DATE
            and s["capacity"] - s["booked"] >= need
            and EXHIBITIONS[ex_id]["status"] != "closed"
        ):
            out.append(s)
    return out


_DECKS = {}


def pick(rng, key, options):
    """Draw from a shuffled deck per key, so that repeated sessions vary before repeating."""
    deck = _DECKS.get(key)
    if not deck:
        deck = list(options)
        rng.shuffle(deck)
        _DECKS[key] = deck
    return deck.pop()


ACTIVE_MEMBERS = [m for m in sorted(MEMBERS) if MEMBERS[m]["valid_until"] >= adapter.BUSINESS_DATE]


# ---------------------------------------------------------------- everyday sessions


def sc_member_overview(rng, S):
    m = MEMBERS[pick(rng, "overview", sorted(MEMBERS))]
    r = S.call("findMembers", email=m["email"])
    S.call("listMemberBookings", member_id=r["output"][0]["member_id"])
    return rng.choice(
        [
            "Hi, I'm %s, my membership email is %s. Which visits do I currently have booked with you?",
            "Hello, this is %s (email %s). I've lost track of my confirmations; what have I got booked?",
        ]
    ) % (m["name"], m["email"])


def sc_member_status(rng, S):
    mid = pick(rng, "status", sorted(MEMBERS))
    S.call("getMember", member_id=mid)
    ask = rng.choice(
        [
            "how much museum credit I have left",
            "how many guest passes I have left this year",
            "until when my membership runs",
            "whether my membership is still valid",
        ]
    )
    if rng.random() < 0.5:
        S.call("listMemberBookings", member_id=mid, status="held")
        return (
            "Hello, my member number is %s. Could you check %s, and whether I have any bookings still waiting "
            "to be paid?" % (mid, ask)
        )
    return "Hello, my member number is %s. Could you check %s?" % (mid, ask)


def sc_member_bookings_filtered(rng, S):
    mid = pick(rng, "filtered", ["MB-1007", "MB-1001", "MB-1040", "MB-1056", "MB-1023"])
    S.call("findMembers", name=MEMBERS[mid]["name"].split()[-1])
    S.call("listMemberBookings", member_id=mid, status="confirmed")
    return "It's %s here. Which of my bookings are confirmed and paid? I think I have a couple." % MEMBERS[mid]["name"]


def sc_availability(rng, S):
    ex_id = rng.choice(["EX-204", "EX-205", "EX-206", "EX-100"])
    slots = future_slots(ex_id)
    s = rng.choice(slots)
    n = rng.randint(2, 5)
    if rng.random() < 0.5:
        out = open_slots(S, ex_id=ex_id, need=n)
        if rng.random() < 0.5:
            S.call(
                "quoteBooking",
                slot_id=out[0]["slot_id"],
                contact_name=rng.choice(VISITORS),
                attendees=[{"category": "adult", "quantity": n}],
            )
            return "Do you still have room for %d adults at %s? The earliest date is best, and what would it cost?" % (
                n,
                title(ex_id),
            )
        return "Do you still have room for %d people at %s? Any day is fine." % (n, title(ex_id))
    out = open_slots(S, day=s["date"])
    return "What can we see on %s? We are a party of %d and would like a timed entry." % (say_date(s["date"]), n)


def sc_quote_family(rng, S):
    ex_id = rng.choice(["EX-204", "EX-205", "EX-100"])
    s = rng.choice(future_slots(ex_id, 4))
    adults = rng.randint(1, 2)
    kids = rng.randint(1, 3)
    conc = rng.randint(0, 1)
    open_slots(S, ex_id=ex_id, day=s["date"])
    att = [{"category": "adult", "quantity": adults}, {"category": "child", "quantity": kids}]
    if conc:
        att.append({"category": "concession"})
    S.call("quoteBooking", slot_id=s["slot_id"], contact_name=rng.choice(VISITORS), attendees=att)
    extra = " and my mother, who is 70," if conc else ""
    return (
        "How much would it cost for %d adult%s%s and %d child%s to see %s on %s at %s? Not booking yet, "
        "just asking."
        % (
            adults,
            "s" if adults > 1 else "",
            extra,
            kids,
            "ren" if kids > 1 else "",
            title(ex_id),
            say_date(s["date"]),
            s["time"],
        )
    )


def sc_member_book(rng, S):
    mid = rng.choice([m for m in ACTIVE_MEMBERS if m not in ("MB-1047",)])
    m = MEMBERS[mid]
    ex_id = rng.choice(["EX-204", "EX-205", "EX-206", "EX-100", "EX-100"])
    comp = rng.randint(0, 2)
    use_guest = ex_id == "EX-100" and m["guest_passes_left"] > 0 and rng.random() < 0.6
    size = 1 + comp + (1 if use_guest else 0)
    S.call("findMembers", name=m["name"])
    slots = open_slots(S, ex_id=ex_id, need=size)
    s = rng.choice(slots)
    att = [{"category": "member", "name": m["name"]}]
    names = rng.sample(COMPANIONS, comp + 1)
    for nm in names[:comp]:
        att.append({"category": "adult", "name": nm})
    if use_guest:
        att.append({"category": "guest", "name": names[-1]})
    r = S.call("createBooking", slot_id=s["slot_id"], member_id=mid, attendees=att)
    total = r["output"]["total"]
    pay = "credit" if m["credit_balance"] >= total and total > 0 and rng.random() < 0.7 else "card"
    S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method=pay)
    who = []
    if comp:
        who.append("%s" % " and ".join(names[:comp]))
    if use_guest:
        who.append("%s on one of my guest passes" % names[-1])
    party = ("with " + ", plus ".join(who)) if who else "just myself"
    paying = "use my museum credit" if pay == "credit" else "pay by card"
    return "Hi, I'm %s, a member. I'd like to book %s, %s, for %s at %s. I'll %s." % (
        m["name"],
        title(ex_id),
        party,
        say_date(s["date"]),
        s["time"],
        paying,
    )


def sc_nonmember_book(rng, S):
    who = rng.choice(VISITORS)
    ex_id = rng.choice(["EX-100", "EX-204", "EX-205", "EX-206"])
    s = rng.choice(future_slots(ex_id, 4))
    cats = rng.choice(
        [
            [("adult", 2)],
            [("adult", 1), ("child", 2)],
            [("concession", 2)],
            [("adult", 2), ("child", 1)],
            [("adult", 1), ("concession", 1)],
        ]
    )
    open_slots(S, day=s["date"])
    att = [{"category": c, "quantity": q} if q > 1 else {"category": c} for c, q in cats]
    r = S.call("createBooking", slot_id=s["slot_id"], contact_name=who, attendees=att)
    S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="card")
    desc = " and ".join(people(c, q) for c, q in cats)
    return (
        "Good morning, my name is %s. We're not members. Can I book %s for %s on %s, the %s entry? "
        "I'll pay by card now." % (who, desc, title(ex_id), say_date(s["date"]), s["time"])
    )


def sc_school_book(rng, S):
    school, teacher = rng.choice(SCHOOLS)
    ex_id = rng.choice(["EX-100", "EX-205", "EX-100"])
    s = rng.choice(future_slots(ex_id, 16))
    room = min(40, s["capacity"] - s["booked"])
    pupils = rng.randint(12, 28)
    chap = -(-pupils // 8) + rng.randint(0, 1)
    while pupils + chap > room:
        pupils -= 1
        chap = min(chap, -(-pupils // 8) + 1)
    tour = rng.random() < 0.5
    lang = rng.choice(["en", "en", "fr", "de"]) if tour else None
    args = dict(
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="school",
        group_name=school,
        contact_name=teacher,
        attendees=[{"category": "child", "quantity": pupils}, {"category": "chaperone", "quantity": chap}],
    )
    if tour:
        args["guided_tour"] = {"language": lang}
    S.call("quoteBooking", **args)
    r = S.call("createBooking", **args)
    if r["ok"]:
        S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="invoice")
    return (
        "This is %s from %s. We'd like to bring %d pupils and %d staff to %s on %s (%s slot)%s. "
        "Please tell me the price, book it, and send the invoice to the school."
        % (
            teacher,
            school,
            pupils,
            chap,
            title(ex_id),
            say_date(s["date"]),
            s["time"],
            (" with a guided tour in %s" % LANG_NAMES[lang]) if tour else "",
        )
    )


def sc_adult_group(rng, S):
    club, lead = rng.choice(CLUBS)
    ex_id = rng.choice(["EX-204", "EX-205", "EX-100", "EX-205"])
    s = rng.choice(future_slots(ex_id, 10))
    n = rng.randint(10, min(16, s["capacity"] - s["booked"]))
    lang = rng.choice(["en", "de", "nl", "pl", "ja", "es"])
    conc = rng.randint(0, 4)
    att = [{"category": "adult", "quantity": n - conc}]
    if conc:
        att.append({"category": "concession", "quantity": conc})
    r = S.call(
        "createBooking",
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="adult",
        group_name=club,
        contact_name=lead,
        attendees=att,
        guided_tour={"language": lang},
    )
    if r["ok"]:
        S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="card")
    else:
        r = S.call(
            "createBooking",
            slot_id=s["slot_id"],
            booking_type="group",
            group_kind="adult",
            group_name=club,
            contact_name=lead,
            attendees=att,
            guided_tour={"language": "en"},
        )
        if r["ok"]:
            S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="card")
    conc_txt = (", %d of them over 65" % conc) if conc else ""
    return (
        "I'm %s, organising a visit for the %s: %d people%s, for %s on %s at %s, with a guided tour in %s if "
        "possible (English will do otherwise). I'll pay the whole thing by card."
        % (lead, club, n, conc_txt, title(ex_id), say_date(s["date"]), s["time"], LANG_NAMES[lang])
    )


def sc_cancel_confirmed(rng, S):
    bid = pick(
        rng, "cancel", ["BK-70406", "BK-70408", "BK-70411", "BK-70412", "BK-70417", "BK-70418", "BK-70413", "BK-70415"]
    )
    b = BOOKINGS[bid]
    S.call("getBooking", booking_id=bid)
    reason = rng.choice(
        [
            "there's illness in the family",
            "our plans have changed",
            "it clashes with a wedding",
            "we can't get there",
            None,
        ]
    )
    args = {"booking_id": bid}
    if reason:
        args["reason"] = reason
    S.call("cancelBooking", **args)
    if b["member_id"] and rng.random() < 0.6:
        S.call("getMember", member_id=b["member_id"])
        tail = " And what will my museum credit be afterwards?"
    else:
        tail = ""
    if b["group_name"]:
        return "Calling for %s about booking %s on %s: we have to cancel%s. How much is refunded?%s" % (
            b["group_name"],
            bid,
            say_date(b["visit_date"]),
            (" (" + reason + ")") if reason else "",
            tail,
        )
    return "Hello, this is %s. I need to cancel booking %s for %s%s. What will I get back?%s" % (
        b["contact_name"],
        bid,
        say_date(b["visit_date"]),
        (" because " + reason) if reason else "",
        tail,
    )


def sc_release_hold(rng, S):
    bid = pick(rng, "release", ["BK-70407", "BK-70409", "BK-70416"])
    b = BOOKINGS[bid]
    S.call("getBooking", booking_id=bid)
    S.call("cancelBooking", booking_id=bid, reason="no longer needed")
    return "Hi, %s here. Please drop the provisional booking %s, we won't need it after all." % (b["contact_name"], bid)


def sc_check_in(rng, S):
    bid = pick(rng, "checkin", ["BK-70403", "BK-70404", "BK-70405"])
    b = BOOKINGS[bid]
    S.call("getBooking", booking_id=bid)
    S.call("checkInBooking", booking_id=bid)
    return "Hello, we've just arrived. The booking is under %s, reference %s." % (b["contact_name"], bid)


def sc_add_attendees(rng, S):
    bid, att, text = pick(
        rng,
        "add",
        [
            ("BK-70416", [{"category": "child", "name": "Ada Oduya"}], "add my daughter Ada (she's 9)"),
            ("BK-70418", [{"category": "child", "name": "Orla Melling"}], "add our daughter Orla, she's 12"),
            ("BK-70413", [{"category": "guest", "name": "Yaw Mensah"}], "bring one more friend on my last guest pass"),
            ("BK-70409", [{"category": "child", "quantity": 3}], "add three more pupils"),
            ("BK-70411", [{"category": "concession", "name": "Britt Strand"}], "add my aunt Britt, she's a pensioner"),
            ("BK-70403", [{"category": "adult", "name": "Hanna Valk"}], "add my sister Hanna"),
        ],
    )
    b = BOOKINGS[bid]
    S.call("getBooking", booking_id=bid)
    S.call("addAttendees", booking_id=bid, attendees=att)
    return "Hi, it's %s about booking %s. Could you %s? Put any extra cost on the same payment." % (
        b["contact_name"],
        bid,
        text,
    )


def sc_remove_attendee(rng, S):
    bid, aid, text = pick(
        rng,
        "remove",
        [
            ("BK-70408", "A4", "Lotte can't come any more"),
            ("BK-70416", "A3", "Grace has dropped out"),
            ("BK-70411", "A3", "Maja can't make it"),
            ("BK-70409", "A28", "one of our helpers, Owen Laker, is no longer coming"),
            ("BK-70413", "A2", "my guest Adjoa has to work that day"),
        ],
    )
    b = BOOKINGS[bid]
    S.call("getBooking", booking_id=bid)
    S.call("removeAttendee", booking_id=bid, attendee_id=aid)
    return "Hello, %s here, booking %s. %s, please take them off and refund the difference." % (
        b["contact_name"],
        bid,
        text[0].upper() + text[1:],
    )


def sc_confirm_held(rng, S):
    bid = pick(rng, "confirm", ["BK-70407", "BK-70409", "BK-70416"])
    b = BOOKINGS[bid]
    S.call("getBooking", booking_id=bid)
    if bid == "BK-70409":
        S.call("confirmBooking", booking_id=bid, payment_method="invoice")
        return "%s from %s. We'd like to confirm our provisional booking %s; invoice the school as usual." % (
            b["contact_name"],
            b["group_name"],
            bid,
        )
    if bid == "BK-70416":
        r = S.call("confirmBooking", booking_id=bid, payment_method="credit")
        if not r["ok"]:
            S.call("confirmBooking", booking_id=bid, payment_method="card")
        return (
            "Hi, Emeka Oduya. Please confirm my booking %s and take it from my museum credit; if that's not "
            "enough just use my card." % bid
        )
    S.call("confirmBooking", booking_id=bid, payment_method="card")
    return "Agnes Whitlow speaking. I'd like to confirm booking %s for tomorrow and pay by card." % bid


# ---------------------------------------------------------------- sessions that meet a refusal


def sc_expired_hold(rng, S):
    S.call("confirmBooking", booking_id="BK-70410", payment_method="card")
    s = "SL-5005"
    r = S.call(
        "createBooking",
        slot_id=s,
        member_id="MB-1012",
        attendees=[
            {"category": "member", "name": "Noor Hallberg"},
            {"category": "concession", "name": "Sami Hallberg"},
        ],
    )
    S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="card")
    return (
        "Hi, Noor Hallberg. I'd like to pay for my booking BK-70410 for Saturday, me and my brother Sami "
        "(he's a student too). Card is fine."
    )


def sc_checkin_wrong_day(rng, S):
    bid = rng.choice(["BK-70406", "BK-70408"])
    b = BOOKINGS[bid]
    S.call("checkInBooking", booking_id=bid)
    if rng.random() < 0.5:
        S.call("getBooking", booking_id=bid)
    return "We're here for our visit! Booking %s, name %s." % (bid, b["contact_name"])


def sc_full_slot(rng, S):
    n = rng.randint(4, 6)
    who = rng.choice(VISITORS)
    S.call("createBooking", slot_id="SL-5009", contact_name=who, attendees=[{"category": "adult", "quantity": n}])
    slots = open_slots(S, ex_id="EX-204", need=n)
    s = slots[0]
    S.call("createBooking", slot_id=s["slot_id"], contact_name=who, attendees=[{"category": "adult", "quantity": n}])
    return (
        "I'd like %d adult tickets for the Lantern Makers tomorrow at 11:30, name %s. If that's full, the next "
        "date you have is fine." % (n, who)
    )


def sc_guest_special(rng, S):
    mid = rng.choice(["MB-1001", "MB-1034", "MB-1056", "MB-1007"])
    m = MEMBERS[mid]
    ex_id = rng.choice(["EX-204", "EX-205", "EX-206"])
    s = rng.choice(future_slots(ex_id, 2))
    friend = rng.choice(COMPANIONS)
    S.call(
        "createBooking",
        slot_id=s["slot_id"],
        member_id=mid,
        attendees=[{"category": "member", "name": m["name"]}, {"category": "guest", "name": friend}],
    )
    S.call(
        "createBooking",
        slot_id=s["slot_id"],
        member_id=mid,
        attendees=[{"category": "member", "name": m["name"]}, {"category": "adult", "name": friend}],
    )
    return (
        "Member %s here (%s). I'd like to take my friend %s to %s on %s at %s using one of my guest passes. "
        "If the pass doesn't work there, book %s a normal ticket."
        % (m["name"], mid, friend, title(ex_id), say_date(s["date"]), s["time"], friend.split()[0])
    )


def sc_expired_member(rng, S):
    mid = rng.choice(["MB-1018", "MB-1047"])
    m = MEMBERS[mid]
    s = rng.choice(future_slots("EX-100", 2))
    S.call("getMember", member_id=mid)
    S.call(
        "createBooking",
        slot_id=s["slot_id"],
        member_id=mid,
        attendees=[
            {"category": "member", "name": m["name"]},
            {"category": "adult", "name": "Walter " + m["name"].split()[-1]},
        ],
    )
    if rng.random() < 0.6:
        S.call("quoteBooking", slot_id=s["slot_id"], member_id=mid, attendees=[{"category": "adult", "quantity": 2}])
    return (
        "Hello, %s, member %s. Two of us for the permanent galleries on %s at %s please, with my member "
        "ticket. If that's a problem, how much would two normal tickets be?"
        % (m["name"], mid, say_date(s["date"]), s["time"])
    )


def sc_too_big_individual(rng, S):
    who = rng.choice(VISITORS)
    n = rng.randint(10, 13)
    s = rng.choice(future_slots("EX-100", n))
    att = [{"category": "adult", "quantity": 4}, {"category": "child", "quantity": n - 4}]
    S.call("createBooking", slot_id=s["slot_id"], contact_name=who, attendees=att)
    S.call(
        "createBooking",
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="adult",
        group_name="%s family reunion" % who.split()[-1],
        contact_name=who,
        attendees=att,
    )
    return (
        "It's %s. For a family get-together we'll be %d, four adults and %d kids, at the permanent collection on "
        "%s, %s. Can you book us in? Whatever kind of booking it needs."
        % (who, n, n - 4, say_date(s["date"]), s["time"])
    )


def sc_credit_short(rng, S):
    s = rng.choice(future_slots("EX-205", 2))
    r = S.call(
        "createBooking",
        slot_id=s["slot_id"],
        member_id="MB-1042",
        attendees=[{"category": "member", "name": "Yuki Tamsin"}, {"category": "concession", "name": "Ren Tamsin"}],
    )
    S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="credit")
    if rng.random() < 0.7:
        S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="card")
    return (
        "Yuki Tamsin, member MB-1042. Book me and my brother Ren (student) for Paper Cities on %s at %s, and "
        "pay from my credit. If the credit's not enough, I'll use my card." % (say_date(s["date"]), s["time"])
    )


def sc_invoice_refused(rng, S):
    club, lead = rng.choice(CLUBS)
    s = rng.choice(future_slots("EX-100", 12))
    r = S.call(
        "createBooking",
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="adult",
        group_name=club,
        contact_name=lead,
        attendees=[{"category": "adult", "quantity": 12}],
    )
    S.call("confirmBooking", booking_id=r["output"]["booking_id"], payment_method="invoice")
    return (
        "%s for the %s. Twelve of us for the permanent collection on %s at %s. Could you invoice the society "
        "rather than us paying now?" % (lead, club, say_date(s["date"]), s["time"])
    )


def sc_closed_exhibition(rng, S):
    who = rng.choice(VISITORS)
    S.call("createBooking", slot_id="SL-5017", contact_name=who, attendees=[{"category": "adult", "quantity": 2}])
    if rng.random() < 0.6:
        open_slots(S, day="2026-05-20")
    return (
        "Hi, %s. I have an old leaflet with Mechanical Songbirds on Wednesday 20 May at 10:00 (slot SL-5017). "
        "Two adults please. If not, what else is on that day?" % who
    )


def sc_typo_booking(rng, S):
    mid, real = rng.choice([("MB-1056", "BK-70411"), ("MB-1040", "BK-70408"), ("MB-1023", "BK-70406")])
    wrong = real[:-2] + real[-1] + real[-2]
    S.call("getBooking", booking_id=wrong)
    S.call("listMemberBookings", member_id=mid)
    S.call("getBooking", booking_id=real)
    return "Hello, %s (member %s). Can you check my booking %s? I just want to be sure of the time." % (
        MEMBERS[mid]["name"],
        mid,
        wrong,
    )


def sc_tour_unavailable(rng, S):
    club, lead = rng.choice(CLUBS)
    s = rng.choice(future_slots("EX-205", 12))
    args = dict(
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="adult",
        group_name=club,
        contact_name=lead,
        attendees=[{"category": "adult", "quantity": 12}],
    )
    S.call("quoteBooking", guided_tour={"language": "it"}, **args)
    S.call("quoteBooking", guided_tour={"language": "en"}, **args)
    return (
        "We're an Italian-speaking group of 12 adults from the %s. What would a visit to Paper Cities on %s "
        "at %s cost with a tour in Italian? If there's no Italian guide, quote it in English."
        % (club, say_date(s["date"]), s["time"])
    )


def sc_late_removal(rng, S):
    bid, aid = rng.choice([("BK-70406", "A2"), ("BK-70404", "A2")])
    b = BOOKINGS[bid]
    S.call("getBooking", booking_id=bid)
    S.call("removeAttendee", booking_id=bid, attendee_id=aid)
    return "%s here. My companion on booking %s can't come after all; please remove them and refund their ticket." % (
        b["contact_name"],
        bid,
    )


def sc_cancel_not_allowed(rng, S):
    bid, text = rng.choice(
        [
            ("BK-70414", "Colm Ferris. Please cancel booking BK-70414, we can't come on the 23rd."),
            (
                "BK-70401",
                "Ilse Varga. I'd like to cancel BK-70401 and get my money "
                "back, the galleries were too busy on Tuesday.",
            ),
            (
                "BK-70402",
                "Hollin Lane Primary here. Our coach never came yesterday; "
                "please cancel BK-70402 so we aren't invoiced.",
            ),
        ]
    )
    S.call("cancelBooking", booking_id=bid)
    if bid == "BK-70402" or rng.random() < 0.5:
        S.call("getBooking", booking_id=bid)
    return text


def sc_group_too_small(rng, S):
    club, lead = rng.choice(CLUBS)
    n = rng.randint(6, 9)
    s = rng.choice(future_slots("EX-204", n))
    S.call(
        "quoteBooking",
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="adult",
        group_name=club,
        contact_name=lead,
        attendees=[{"category": "adult", "quantity": n}],
    )
    S.call("quoteBooking", slot_id=s["slot_id"], contact_name=lead, attendees=[{"category": "adult", "quantity": n}])
    return (
        "%s, %s. We're %d adults for the Lantern Makers on %s at %s. What's the group rate? If we don't "
        "qualify, what's the normal price?" % (lead, club, n, say_date(s["date"]), s["time"])
    )


def sc_school_with_parents(rng, S):
    school, teacher = rng.choice(SCHOOLS)
    s = rng.choice(future_slots("EX-100", 30))
    att = [
        {"category": "child", "quantity": 22},
        {"category": "chaperone", "quantity": 3},
        {"category": "adult", "quantity": 2},
    ]
    S.call(
        "quoteBooking",
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="school",
        group_name=school,
        contact_name=teacher,
        attendees=att,
    )
    att2 = [{"category": "child", "quantity": 22}, {"category": "chaperone", "quantity": 5}]
    S.call(
        "quoteBooking",
        slot_id=s["slot_id"],
        booking_type="group",
        group_kind="school",
        group_name=school,
        contact_name=teacher,
        attendees=att2,
    )
    return (
        "%s, %s. 22 pupils, 3 teachers and 2 parent helpers for the permanent collection on %s at %s. How much? "
        "The parents can be listed as helpers if that's how it works."
        % (teacher, school, say_date(s["date"]), s["time"])
    )


def sc_group_below_min(rng, S):
    S.call("getBooking", booking_id="BK-70412")
    S.call("removeAttendee", booking_id="BK-70412", attendee_id=rng.choice(["A3", "A7", "A10"]))
    return (
        "Dorothy Amsel from the Riverside U3A History Circle. One of our members has dropped out of booking "
        "BK-70412, please take her off."
    )


def sc_slot_full_add(rng, S):
    S.call("addAttendees", booking_id="BK-70415", attendees=[{"category": "child", "quantity": 3}])
    S.call("addAttendees", booking_id="BK-70415", attendees=[{"category": "child", "quantity": 2}])
    return (
        "Mrs. Treece, Brackenfield Academy, booking BK-70415. Three more pupils want to come to Quiet Looms; "
        "add as many as you can and put them on our invoice."
    )


def sc_confirm_twice(rng, S):
    bid = rng.choice(["BK-70411", "BK-70417", "BK-70418"])
    b = BOOKINGS[bid]
    S.call("confirmBooking", booking_id=bid, payment_method="card")
    S.call("getBooking", booking_id=bid)
    return "%s here. I got an email about booking %s; do I still need to pay for it? Charge my card if so." % (
        b["contact_name"],
        bid,
    )


def sc_unknown_member(rng, S):
    name = rng.choice(["Quentin Harrowgate", "Elodie Strasse", "Morag Tully"])
    S.call("findMembers", name=name.split()[-1])
    s = rng.choice(future_slots("EX-100", 2))
    S.call(
        "createBooking",
        slot_id=s["slot_id"],
        member_id="MB-1%03d" % rng.choice([3, 15, 60]),
        attendees=[{"category": "member", "name": name}],
    )
    return (
        "Hi, I'm %s, I'm a member (number %s, I think). A member ticket for the permanent collection on %s "
        "at %s please." % (name, S.calls[-1]["arguments"]["member_id"], say_date(s["date"]), s["time"])
    )


PLAN = [
    (sc_member_overview, 4),
    (sc_member_status, 3),
    (sc_member_bookings_filtered, 2),
    (sc_availability, 4),
    (sc_quote_family, 3),
    (sc_member_book, 7),
    (sc_nonmember_book, 5),
    (sc_school_book, 4),
    (sc_adult_group, 3),
    (sc_cancel_confirmed, 7),
    (sc_release_hold, 2),
    (sc_check_in, 3),
    (sc_add_attendees, 4),
    (sc_remove_attendee, 3),
    (sc_confirm_held, 3),
    (sc_expired_hold, 1),
    (sc_checkin_wrong_day, 1),
    (sc_full_slot, 1),
    (sc_guest_special, 1),
    (sc_expired_member, 1),
    (sc_too_big_individual, 1),
    (sc_credit_short, 1),
    (sc_invoice_refused, 1),
    (sc_closed_exhibition, 1),
    (sc_typo_booking, 1),
    (sc_tour_unavailable, 1),
    (sc_late_removal, 1),
    (sc_cancel_not_allowed, 2),
    (sc_group_too_small, 1),
    (sc_school_with_parents, 1),
    (sc_group_below_min, 1),
    (sc_slot_full_add, 1),
    (sc_confirm_twice, 1),
    (sc_unknown_member, 1),
]


def main():
    rng = random.Random(SEED)
    jobs = []
    for fn, n in PLAN:
        jobs.extend([fn] * n)
    rng.shuffle(jobs)
    sessions = []
    calls = refused = 0
    for i, fn in enumerate(jobs):
        S = Session()
        instruction = fn(rng, S)
        sessions.append({"id": "museum-%03d" % i, "instruction": instruction, "calls": S.calls})
        calls += len(S.calls)
        refused += S.refused
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for s in sessions:
            f.write(json.dumps(s, ensure_ascii=False) + "\n")
    print("%d sessions, %d calls, %d refused (%.1f%%)" % (len(sessions), calls, refused, 100.0 * refused / calls))


if __name__ == "__main__":
    main()
