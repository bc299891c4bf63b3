"""Write trajectories.jsonl: seeded front-desk sessions, each checked call by call against the adapter.

Every session starts from data.json. A scenario says for each call whether the real system should accept it;
a mismatch stops the script (exit 1). Usage: python make_trajectories.py  (MIT, written for forgegym)
"""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adapter  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260528
TODAY = "2026-05-28"
IN_HOUSE = ["RSV-1005", "RSV-1006", "RSV-1007", "RSV-1008"]
ARRIVING_TODAY = ["RSV-1009", "RSV-1010", "RSV-1011", "RSV-1012"]
ARRIVING_TOMORROW = ["RSV-1013", "RSV-1014"]
FUTURE = ["RSV-1015", "RSV-1016", "RSV-1017", "RSV-1018"]
CLOSED = ["RSV-1001", "RSV-1002", "RSV-1003", "RSV-1004"]
BOOKABLE_GUESTS = [
    "G-1001",
    "G-1002",
    "G-1003",
    "G-1004",
    "G-1005",
    "G-1006",
    "G-1007",
    "G-1009",
    "G-1010",
    "G-1011",
    "G-1012",
]
CHARGES = [
    ("MINIBAR", [8.5, 12.0, 14.75, 21.25]),
    ("RESTAURANT", [42.8, 58.0, 96.5, 124.3]),
    ("PARKING", [25.0, 50.0]),
    ("LAUNDRY", [18.0, 31.5]),
    ("SPA", [95.0, 140.0]),
    ("PHONE", [4.2, 7.9]),
]
STAYS = [
    ("2026-06-01", "2026-06-04"),
    ("2026-06-15", "2026-06-18"),
    ("2026-07-10", "2026-07-14"),
    ("2026-08-21", "2026-08-23"),
    ("2026-09-12", "2026-09-19"),
    ("2026-10-02", "2026-10-05"),
    ("2026-05-30", "2026-06-02"),
    ("2026-11-20", "2026-11-22"),
]


class Session:
    """Runs calls on a fresh system and records them, checking the expected outcome of each."""

    def __init__(self, data):
        self.sys = adapter.make()
        self.sys.reset(data)
        self.calls = []

    def __call__(self, name, expect_ok=True, **arguments):
        result = self.sys.call(name, arguments)
        if result["ok"] != expect_ok:
            raise SystemExit(f"make_trajectories: {name} {arguments} gave {result} (expected ok={expect_ok})")
        self.calls.append({"name": name, "arguments": arguments})
        return result["output"]

    def guest(self, gid):
        return self.sys.s["guests"][gid]

    def res(self, rid):
        return self.sys.s["reservations"][rid]


def card(rng):
    return f"{rng.randrange(10000):04d}"


# -- sessions that succeed ---------------------------------------------------------------------------
def new_booking(rng, s):
    g = s.guest(rng.choice(BOOKABLE_GUESTS))
    rt = rng.choice(["STD", "DBL", "KNG"])
    arr, dep = rng.choice(STAYS[:6])
    adults = rng.randint(1, 2)
    s("searchGuests", last_name=g["last_name"])
    s("quoteStay", room_type_id=rt, arrival_date=arr, departure_date=dep, guest_id=g["id"])
    s("createReservation", guest_id=g["id"], room_type_id=rt, arrival_date=arr, departure_date=dep, adults=adults)
    return (
        f"{g['first_name']} {g['last_name']} calls to book a {rt} room for {adults} adult(s) from {arr} to {dep}. "
        "Give them the price with their loyalty discount and make the booking."
    )


def booking_with_deposit(rng, s):
    g = s.guest(rng.choice(BOOKABLE_GUESTS))
    rt = rng.choice(["DBL", "KNG", "STE"])
    arr, dep = rng.choice(STAYS[1:6])
    s("searchGuests", email=g["email"])
    out = s("createReservation", guest_id=g["id"], room_type_id=rt, arrival_date=arr, departure_date=dep, adults=2)
    amount = round(out["estimated_total"] / 2, 2)
    digits = card(rng)
    s("recordPayment", reservation_id=out["id"], method="card", amount=amount, card_last4=digits)
    return (
        f"Guest with email {g['email']} wants a {rt} room for two from {arr} to {dep} and to pay half of the "
        f"estimated total now on the card ending {digits}."
    )


def arrival_check_in(rng, s):
    rid = rng.choice(ARRIVING_TODAY)
    r = s.res(rid)
    g = s.guest(r["guest_id"])
    s("listReservations", last_name=g["last_name"], arrival_date=TODAY, status="booked")
    rooms = s("listRooms", room_type_id=r["room_type_id"], status="clean")
    room = rng.choice(rooms)["id"]
    s("checkInReservation", reservation_id=rid, room_id=room)
    return (
        f"{g['first_name']} {g['last_name']} is at the desk for today's arrival. Find the reservation and check "
        "them in to a clean room of the booked type."
    )


def check_in_and_park(rng, s):
    rid = rng.choice(ARRIVING_TODAY)
    r = s.res(rid)
    rooms = s("listRooms", room_type_id=r["room_type_id"], status="clean")
    s("checkInReservation", reservation_id=rid, room_id=rooms[0]["id"])
    nights = r["nights"]
    s(
        "postFolioCharge",
        reservation_id=rid,
        code="PARKING",
        amount=25.0 * nights,
        description=f"Valet parking, {nights} nights",
    )
    return (
        f"Check in reservation {rid} to the first clean room of its type, then post valet parking for the whole "
        f"stay (25.00 a night) to the folio."
    )


def post_charge(rng, s):
    rid = rng.choice(IN_HOUSE)
    room = s.res(rid)["room_id"]
    code, amounts = rng.choice(CHARGES)
    amount = rng.choice(amounts)
    found = s("listReservations", room_id=room, status="checked_in")
    s("postFolioCharge", reservation_id=found[0]["id"], code=code, amount=amount)
    return (
        f"The {code.lower()} team sends a {amount:.2f} charge for room {room}. Post it to the in-house guest's folio."
    )


def void_charge(rng, s):
    rid = rng.choice(["RSV-1005", "RSV-1006", "RSV-1007"])
    out = s("getReservation", reservation_id=rid)
    line = next(f for f in reversed(out["folio"]) if f["code"] not in ("ROOM", "TAX"))
    s("voidFolioCharge", reservation_id=rid, line_id=line["line_id"])
    return (
        f"The guest on reservation {rid} disputes the latest {line['code'].lower()} charge and the manager "
        "approved removing it. Void that folio line."
    )


def settle_and_check_out(rng, s):
    rid = rng.choice(["RSV-1005", "RSV-1006", "RSV-1007"])
    out = s("getReservation", reservation_id=rid)
    if rng.random() < 0.5:
        digits = card(rng)
        s("recordPayment", reservation_id=rid, method="card", amount=out["balance_due"], card_last4=digits)
        how = f"the card ending {digits}"
    else:
        s("recordPayment", reservation_id=rid, method="cash", amount=out["balance_due"])
        how = "cash"
    s("checkOutReservation", reservation_id=rid)
    return f"Reservation {rid} is leaving. Take the remaining balance by {how} and check them out."


def check_out_paid(rng, s):
    r = s.res("RSV-1008")
    g = s.guest(r["guest_id"])
    found = s("listReservations", last_name=g["last_name"], status="checked_in")
    s("checkOutReservation", reservation_id=found[0]["id"])
    return f"{g['first_name']} {g['last_name']} has to leave early. Their folio is prepaid; check them out."


def cancel_future(rng, s):
    rid = rng.choice(FUTURE)
    g = s.guest(s.res(rid)["guest_id"])
    s("listReservations", guest_id=g["id"], status="booked")
    s("cancelReservation", reservation_id=rid)
    return (
        f"{g['first_name']} {g['last_name']} cancels the stay arriving {s.res(rid)['arrival_date']}. "
        "Cancel it; any prepayment goes back to their deposit balance."
    )


def cancel_late(rng, s):
    rid = rng.choice(ARRIVING_TOMORROW + ARRIVING_TODAY)
    s("getReservation", reservation_id=rid)
    s("cancelReservation", reservation_id=rid)
    return f"Reservation {rid} arrives within two days but the guest cancels anyway. Cancel it (the late fee applies)."


def cancel_late_collect(rng, s):
    rid = rng.choice(["RSV-1009", "RSV-1010", "RSV-1011", "RSV-1014"])
    out = s("cancelReservation", reservation_id=rid)
    digits = card(rng)
    s("recordPayment", reservation_id=rid, method="card", amount=out["balance_due"], card_last4=digits)
    return f"Cancel {rid} for the guest and collect the late cancellation fee on the card ending {digits}."


def pay_from_deposit(rng, s):
    rid, amount = rng.choice(
        [("RSV-1015", 300.0), ("RSV-1012", 90.0), ("RSV-1007", 31.75), ("RSV-1013", 40.0), ("RSV-1005", 300.0)]
    )
    g = s.guest(s.res(rid)["guest_id"])
    s("searchGuests", phone=g["phone"])
    s("recordPayment", reservation_id=rid, method="deposit", amount=amount)
    return f"The guest calling from {g['phone']} wants {amount:.2f} of their deposit balance applied to {rid}."


def quote_only(rng, s):
    rt = rng.choice(["STD", "DBL", "KNG", "STE"])
    arr, dep = rng.choice(STAYS)
    s("quoteStay", room_type_id=rt, arrival_date=arr, departure_date=dep)
    return f"A caller without a profile asks what a {rt} room costs from {arr} to {dep}, tax included."


def tier_lookup(rng, s):
    tier = rng.choice(["gold", "silver"])
    guests = s("searchGuests", loyalty_tier=tier)
    g = rng.choice(guests)
    s("listReservations", guest_id=g["id"])
    return (
        f"Marketing wants the stays of one of our {tier} members; "
        f"list {g['first_name']} {g['last_name']}'s reservations."
    )


# -- sessions with a refused call --------------------------------------------------------------------
def early_check_in(rng, s):
    rid = rng.choice(ARRIVING_TOMORROW)
    r = s.res(rid)
    rooms = s("listRooms", room_type_id=r["room_type_id"], status="clean")
    s("checkInReservation", False, reservation_id=rid, room_id=rooms[0]["id"])
    return f"The guest of {rid} turned up a day early and wants to check in now to a clean room of their type."


def dirty_room(rng, s):
    rid = rng.choice(["RSV-1011", "RSV-1012"])
    s("checkInReservation", False, reservation_id=rid, room_id="103")
    rooms = s("listRooms", room_type_id="STD", status="clean")
    s("checkInReservation", reservation_id=rid, room_id=rooms[-1]["id"])
    return f"Check in {rid}; the guest asked for room 103, otherwise any clean standard room."


def wrong_type(rng, s):
    rid = rng.choice(["RSV-1009", "RSV-1010"])
    room = "204" if rid == "RSV-1009" else "202"
    s("checkInReservation", False, reservation_id=rid, room_id=room)
    return f"Check in reservation {rid} to room {room} as the guest requested."


def checkout_unpaid(rng, s):
    rid = rng.choice(["RSV-1005", "RSV-1006", "RSV-1007"])
    s("checkOutReservation", False, reservation_id=rid)
    out = s("getReservation", reservation_id=rid)
    digits = card(rng)
    s("recordPayment", reservation_id=rid, method="card", amount=out["balance_due"], card_last4=digits)
    s("checkOutReservation", reservation_id=rid)
    return f"Check out {rid}. If anything is owed, charge it to the card ending {digits} first."


def banned_guest(rng, s):
    g = s.guest("G-1008")
    arr, dep = rng.choice(STAYS[:4])
    s("searchGuests", last_name=g["last_name"])
    s("createReservation", False, guest_id="G-1008", room_type_id="STD", arrival_date=arr, departure_date=dep, adults=1)
    return f"{g['first_name']} {g['last_name']} wants a standard room from {arr} to {dep}."


def sold_out(rng, s):
    rt, arr, dep = rng.choice(
        [
            ("STE", "2026-05-28", "2026-05-30"),
            ("STE", "2026-06-13", "2026-06-16"),
            ("DBL", "2026-05-29", "2026-05-31"),
            ("KNG", "2026-05-29", "2026-05-31"),
        ]
    )
    gid = rng.choice(BOOKABLE_GUESTS)
    s("createReservation", False, guest_id=gid, room_type_id=rt, arrival_date=arr, departure_date=dep, adults=2)
    return f"Book a {rt} room for guest {gid}, two adults, {arr} to {dep}."


def too_many_adults(rng, s):
    gid = rng.choice(BOOKABLE_GUESTS)
    arr, dep = rng.choice(STAYS[:5])
    s("createReservation", False, guest_id=gid, room_type_id="KNG", arrival_date=arr, departure_date=dep, adults=3)
    s("createReservation", guest_id=gid, room_type_id="DBL", arrival_date=arr, departure_date=dep, adults=3)
    return f"Guest {gid} needs a room for three adults from {arr} to {dep}; they would like a king room if possible."


def cancel_in_house(rng, s):
    rid = rng.choice(IN_HOUSE)
    s("getReservation", reservation_id=rid)
    s("cancelReservation", False, reservation_id=rid)
    return f"The guest on {rid} says their plans changed and wants the booking cancelled."


def void_room_line(rng, s):
    rid = rng.choice(IN_HOUSE)
    s("getReservation", reservation_id=rid)
    s("voidFolioCharge", False, reservation_id=rid, line_id="L1")
    return f"The guest on {rid} disputes the first line of the folio; remove it."


def overpay(rng, s):
    rid = rng.choice(["RSV-1006", "RSV-1007", "RSV-1009", "RSV-1016"])
    out = s("getReservation", reservation_id=rid)
    s("recordPayment", False, reservation_id=rid, method="cash", amount=round(out["estimated_total"] + 100, 2))
    return f"The guest on {rid} hands over cash to cover the stay plus 100.00 'for later'. Record the payment."


def deposit_short(rng, s):
    rid = rng.choice(["RSV-1016", "RSV-1011", "RSV-1014"])
    g = s.guest(s.res(rid)["guest_id"])
    s("recordPayment", False, reservation_id=rid, method="deposit", amount=100.0)
    digits = card(rng)
    s("recordPayment", reservation_id=rid, method="card", amount=100.0, card_last4=digits)
    return (
        f"{g['first_name']} {g['last_name']} wants 100.00 paid toward {rid} from their deposit; if that is not "
        f"possible, use the card ending {digits}."
    )


def unknown_reservation(rng, s):
    rid = f"RSV-{rng.choice([1019, 1032, 1100, 999])}"
    s("getReservation", False, reservation_id=rid)
    return f"A guest reads out confirmation number {rid}; look it up."


def charge_booked(rng, s):
    rid = rng.choice(ARRIVING_TODAY + FUTURE)
    s("postFolioCharge", False, reservation_id=rid, code="RESTAURANT", amount=48.0)
    return f"Post a 48.00 restaurant charge to reservation {rid}."


def past_arrival(rng, s):
    gid = rng.choice(BOOKABLE_GUESTS)
    s(
        "createReservation",
        False,
        guest_id=gid,
        room_type_id="STD",
        arrival_date="2026-05-26",
        departure_date="2026-05-29",
        adults=1,
    )
    s("createReservation", guest_id=gid, room_type_id="STD", arrival_date=TODAY, departure_date="2026-05-29", adults=1)
    return f"Guest {gid} walked in and wants a standard room 'since the 26th' until the 29th; book what is possible."


def card_no_digits(rng, s):
    rid = rng.choice(FUTURE)
    s("recordPayment", False, reservation_id=rid, method="card", amount=150.0)
    digits = card(rng)
    s("recordPayment", reservation_id=rid, method="card", amount=150.0, card_last4=digits)
    return f"Take a 150.00 card deposit on {rid}; the guest then reads out the last digits {digits}."


def closed_checkout(rng, s):
    rid = rng.choice(CLOSED)
    s("getReservation", reservation_id=rid)
    s("checkOutReservation", False, reservation_id=rid)
    return f"Housekeeping says the guest of {rid} left; check the reservation out."


OK_SCENARIOS = [
    (new_booking, 7),
    (booking_with_deposit, 4),
    (arrival_check_in, 7),
    (check_in_and_park, 3),
    (post_charge, 5),
    (void_charge, 3),
    (settle_and_check_out, 5),
    (check_out_paid, 1),
    (cancel_future, 3),
    (cancel_late, 2),
    (cancel_late_collect, 2),
    (pay_from_deposit, 3),
    (quote_only, 3),
    (tier_lookup, 2),
]
FAIL_SCENARIOS = [
    (early_check_in, 2),
    (dirty_room, 2),
    (wrong_type, 1),
    (checkout_unpaid, 2),
    (banned_guest, 1),
    (sold_out, 2),
    (too_many_adults, 1),
    (cancel_in_house, 1),
    (void_room_line, 1),
    (overpay, 1),
    (deposit_short, 1),
    (unknown_reservation, 1),
    (charge_booked, 1),
    (past_arrival, 1),
    (card_no_digits, 1),
    (closed_checkout, 1),
]


def build():
    """All trajectories, in a seeded order."""
    with open(os.path.join(HERE, "data.json")) as fh:
        data = json.load(fh)
    rng = random.Random(SEED)
    plan = [fn for fn, n in OK_SCENARIOS + FAIL_SCENARIOS for _ in range(n)]
    rng.shuffle(plan)
    out = []
    for i, fn in enumerate(plan, 1):
        s = Session(data)
        instruction = fn(rng, s)
        out.append({"id": f"hotel-{i:03d}", "instruction": instruction, "calls": s.calls})
    return out


def main():
    trajs = build()
    path = os.path.join(HERE, "trajectories.jsonl")
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        for t in trajs:
            fh.write(json.dumps(t, sort_keys=True) + "\n")
    os.replace(tmp, path)
    calls, errors = adapter.replay(HERE)
    print(f"trajectories: {len(trajs)} calls: {calls} errors: {errors} ({errors / calls:.1%})")


if __name__ == "__main__":
    main()
