"""Write trajectories.jsonl: seeded support-desk sessions, each checked against the adapter.

Each session is played live on a fresh desk (reset to data.json) so that later calls use what earlier
calls returned, as an agent would. Run: python make_trajectories.py [--seed N] [--count N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
DATES = ["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-07"]
REASONS = [
    "Client meeting moved to next week",
    "Speaker fell ill",
    "Booked the wrong room",
    "Team is working remotely that day",
    "Workshop postponed",
]
AMENITIES = ["screen", "whiteboard", "video_conference", "projector"]


class Session:
    """One trajectory being played: records calls and keeps the desk's answers."""

    def __init__(self, data: dict) -> None:
        self.desk = adapter.make()
        self.desk.reset(data)
        self.calls: list[dict] = []
        self.failures = 0

    def do(self, name: str, arguments: dict) -> dict:
        result = self.desk.call(name, arguments)
        self.calls.append({"name": name, "arguments": arguments})
        if not result["ok"]:
            self.failures += 1
        return result


def _members(data: dict, company_id: str | None = None) -> list[dict]:
    return [m for _, m in sorted(data["members"].items()) if company_id is None or m["company_id"] == company_id]


def _when(start: int, hours: int) -> str:
    return f"{start}:00-{start + hours}:00"


def _usual(data: dict) -> list[dict]:
    """Active members of active companies: most callers."""
    return [
        m
        for m in _members(data)
        if m["status"] == "active" and data["companies"][m["company_id"]]["status"] == "active"
    ]


def t_book(rng: random.Random, data: dict, s: Session) -> str:
    booker = rng.choice(_usual(data) if rng.random() < 0.8 else _members(data))
    company_id = booker["company_id"]
    plan = data["companies"][company_id]["plan"]
    rooms = sorted(data["rooms"].values(), key=lambda r: r["room_id"])
    allowed = [r for r in rooms if plan in r["allowed_plans"]]
    room = rng.choice(allowed if rng.random() < 0.75 else rooms)
    date, start, hours = rng.choice(DATES), rng.randint(8, 17), rng.randint(1, 3)
    others = [m for m in _members(data, company_id) if m["member_id"] != booker["member_id"]]
    most = 3 if rng.random() < 0.2 else room["capacity"] - 1
    guests = rng.sample(others, k=min(len(others), most, rng.randint(0, 3)))
    found = s.do("find_members", {"email": booker["email"]})["output"]
    if rng.random() < 0.6:
        s.do("quote_booking", {"company_id": company_id, "room_id": room["room_id"], "hours": hours})
    args = {
        "company_id": found[0]["company_id"],
        "member_id": found[0]["member_id"],
        "room_id": room["room_id"],
        "date": date,
        "start_hour": start,
        "hours": hours,
    }
    if guests:
        args["attendees"] = [g["member_id"] for g in guests]
    s.do("create_booking", args)
    with_text = (" with " + ", ".join(g["name"] for g in guests)) if guests else ""
    return (
        f"I'm {booker['name']} ({booker['email']}). Please book the {room['name']} room on {date}, "
        f"{_when(start, hours)}{with_text}."
    )


def t_find_and_book(rng: random.Random, data: dict, s: Session) -> str:
    company = rng.choice([c for _, c in sorted(data["companies"].items()) if c["status"] == "active"])
    booker = rng.choice([m for m in _members(data, company["company_id"]) if m["status"] == "active"])
    people, amenity = rng.randint(2, 12), rng.choice(AMENITIES)
    date, start, hours = rng.choice(DATES), rng.randint(9, 16), rng.randint(1, 4)
    s.do("get_company", {"company_id": company["company_id"]})
    rooms = s.do("list_rooms", {"min_capacity": people, "amenity": amenity, "plan": company["plan"]})["output"]
    text = (
        f"{booker['name']} ({booker['member_id']}) from {company['name']} needs a room with a {amenity} "
        f"for {people} people on {date}, {_when(start, hours)}; book the first one that fits."
    )
    if not rooms:
        return text
    room = rooms[0]
    s.do("quote_booking", {"company_id": company["company_id"], "room_id": room["room_id"], "hours": hours})
    colleagues = [
        m["member_id"]
        for m in _members(data, company["company_id"])
        if m["member_id"] != booker["member_id"] and m["status"] == "active"
    ]
    s.do(
        "create_booking",
        {
            "company_id": company["company_id"],
            "member_id": booker["member_id"],
            "room_id": room["room_id"],
            "date": date,
            "start_hour": start,
            "hours": hours,
            "attendees": colleagues[: people - 1],
        },
    )
    return text


def t_cancel(rng: random.Random, data: dict, s: Session) -> str:
    booking = rng.choice(sorted(data["bookings"].values(), key=lambda b: b["booking_id"]))
    member = data["members"][booking["booked_by"]]
    reason = rng.choice(REASONS)
    hits = s.do("search_bookings", {"company_id": booking["company_id"], "date": booking["date"]})["output"]
    target = next(b for b in hits if b["booking_id"] == booking["booking_id"])
    s.do("cancel_booking", {"booking_id": target["booking_id"], "reason": reason})
    if rng.random() < 0.4:
        s.do("get_company", {"company_id": booking["company_id"]})
    room = data["rooms"][booking["room_id"]]["name"]
    return (
        f"{member['name']} asks to cancel their {room} booking on {booking['date']} "
        f"({reason.lower()}) and wants to know the refund."
    )


def t_check_in(rng: random.Random, data: dict, s: Session) -> str:
    booking = rng.choice(sorted(data["bookings"].values(), key=lambda b: b["booking_id"]))
    room = data["rooms"][booking["room_id"]]
    if rng.random() < 0.5:
        s.do("get_booking", {"booking_id": booking["booking_id"]})
    else:
        s.do("search_bookings", {"room_id": room["room_id"], "date": booking["date"]})
    s.do("check_in_booking", {"booking_id": booking["booking_id"]})
    return (
        f"The group for booking {booking['booking_id']} ({room['name']}, {booking['date']}) has arrived; check them in."
    )


def t_add_attendee(rng: random.Random, data: dict, s: Session) -> str:
    booking = rng.choice(sorted(data["bookings"].values(), key=lambda b: b["booking_id"]))
    outside = [m for m in _members(data) if m["member_id"] not in booking["attendees"]]
    usual = [m for m in _usual(data) if m in outside]
    guest = rng.choice(usual if rng.random() < 0.8 else _members(data))
    s.do("get_booking", {"booking_id": booking["booking_id"]})
    part = guest["name"].split()[0]
    found = s.do("find_members", {"name": part})["output"]
    member_id = found[0]["member_id"] if found else guest["member_id"]
    s.do("add_attendee", {"booking_id": booking["booking_id"], "member_id": member_id})
    return f"Please add {guest['name']} to the attendees of booking {booking['booking_id']}."


def t_remove_attendee(rng: random.Random, data: dict, s: Session) -> str:
    booking = rng.choice(sorted(data["bookings"].values(), key=lambda b: b["booking_id"]))
    others = [m for m in booking["attendees"] if m != booking["booked_by"]]
    pick = rng.choice(others) if others and rng.random() < 0.75 else booking["booked_by"]
    person = data["members"][pick]
    s.do("get_booking", {"booking_id": booking["booking_id"]})
    s.do("remove_attendee", {"booking_id": booking["booking_id"], "member_id": pick})
    return f"{person['name']} can no longer attend booking {booking['booking_id']}; take them off the list."


def t_day_pass(rng: random.Random, data: dict, s: Session) -> str:
    member, date = rng.choice(_usual(data) if rng.random() < 0.8 else _members(data)), rng.choice(DATES)
    if rng.random() < 0.25:
        held = rng.choice(sorted(data["day_passes"].values(), key=lambda p: p["pass_id"]))
        member, date = data["members"][held["member_id"]], held["date"]
    found = s.do("find_members", {"email": member["email"]})["output"]
    s.do("get_company", {"company_id": found[0]["company_id"]})
    s.do("issue_day_pass", {"member_id": found[0]["member_id"], "date": date})
    return f"{member['name']} ({member['email']}) would like a hot-desk day pass for {date}."


def t_book_then_edit(rng: random.Random, data: dict, s: Session) -> str:
    company = rng.choice([c for _, c in sorted(data["companies"].items()) if c["status"] == "active"])
    team = [m for m in _members(data, company["company_id"]) if m["status"] == "active"]
    booker = team[0]
    guest = rng.choice([m for m in _usual(data) if m["member_id"] != booker["member_id"]])
    room = rng.choice([r for _, r in sorted(data["rooms"].items()) if company["plan"] in r["allowed_plans"]])
    date, start = rng.choice(DATES), rng.randint(8, 19)
    created = s.do(
        "create_booking",
        {
            "company_id": company["company_id"],
            "member_id": booker["member_id"],
            "room_id": room["room_id"],
            "date": date,
            "start_hour": start,
            "hours": 2,
        },
    )
    if created["ok"]:
        s.do("add_attendee", {"booking_id": created["output"]["booking_id"], "member_id": guest["member_id"]})
        if rng.random() < 0.5:
            s.do("get_booking", {"booking_id": created["output"]["booking_id"]})
    return (
        f"{booker['name']} ({booker['member_id']}) books {room['name']} on {date} from {start}:00 for 2 hours, "
        f"then wants {guest['name']} ({guest['member_id']}) added."
    )


def t_long_meeting(rng: random.Random, data: dict, s: Session) -> str:
    company = rng.choice([c for _, c in sorted(data["companies"].items()) if c["status"] == "active"])
    booker = next(m for m in _members(data, company["company_id"]) if m["role"] == "admin")
    room = max(
        (r for r in data["rooms"].values() if company["plan"] in r["allowed_plans"]),
        key=lambda r: (r["capacity"], r["room_id"]),
    )
    date, hours = rng.choice(DATES), rng.randint(4, 8)
    s.do("get_company", {"company_id": company["company_id"]})
    s.do("quote_booking", {"company_id": company["company_id"], "room_id": room["room_id"], "hours": hours})
    s.do(
        "create_booking",
        {
            "company_id": company["company_id"],
            "member_id": booker["member_id"],
            "room_id": room["room_id"],
            "date": date,
            "start_hour": 9,
            "hours": hours,
        },
    )
    return (
        f"{booker['name']} ({booker['member_id']}) wants the biggest room their plan allows on {date} "
        f"from 9:00 for {hours} hours for an all-hands."
    )


def t_lookup(rng: random.Random, data: dict, s: Session) -> str:
    member = rng.choice(_members(data))
    floor = rng.randint(1, 3)
    if rng.random() < 0.5:
        s.do("search_bookings", {"member_id": member["member_id"], "status": "confirmed"})
        return f"{member['name']} ({member['member_id']}) wants to see their upcoming confirmed bookings."
    date = rng.choice(DATES)
    s.do("search_bookings", {"floor": floor, "date": date})
    s.do("list_rooms", {"floor": floor})
    return f"Which rooms on floor {floor} are taken on {date}?"


def t_missing(rng: random.Random, data: dict, s: Session) -> str:
    bogus = rng.choice(["BK-5050", "BK-4999", "CO-199", "MB-299"])
    if bogus.startswith("BK"):
        s.do("get_booking", {"booking_id": bogus})
        s.do("search_bookings", {"company_id": "CO-101", "status": "confirmed"})
        return f"A caller from Brightline Analytics quotes booking number {bogus}; find their bookings."
    if bogus.startswith("CO"):
        s.do("get_company", {"company_id": bogus})
        return f"What is the credit balance of company {bogus}?"
    s.do("issue_day_pass", {"member_id": bogus, "date": rng.choice(DATES)})
    return f"Issue a day pass to member {bogus}."


TEMPLATES = [
    (t_book, 16),
    (t_find_and_book, 8),
    (t_cancel, 10),
    (t_check_in, 7),
    (t_add_attendee, 8),
    (t_remove_attendee, 7),
    (t_day_pass, 10),
    (t_book_then_edit, 8),
    (t_long_meeting, 3),
    (t_lookup, 6),
    (t_missing, 3),
]


def generate(seed: int, count: int, data: dict) -> tuple[list[dict], int, int]:
    """Play `count` sessions; returns (trajectories, calls, failing calls)."""
    rng = random.Random(seed)
    funcs, weights = zip(*TEMPLATES)
    rows, calls, failures = [], 0, 0
    for index in range(count):
        template = rng.choices(funcs, weights=weights)[0]
        session = Session(data)
        instruction = template(rng, data, session)
        rows.append({"id": f"cowork-{index + 1:03d}", "instruction": instruction, "calls": session.calls})
        calls += len(session.calls)
        failures += session.failures
    return rows, calls, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count", type=int, default=70)
    opts = parser.parse_args()
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    rows, calls, failures = generate(opts.seed, opts.count, data)
    if not all(1 <= len(r["calls"]) <= 5 for r in rows):
        print("error: a trajectory has not 1-5 calls", file=sys.stderr)
        return 1
    path = os.path.join(HERE, "trajectories.jsonl")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(row, sort_keys=True) + "\n")
    os.replace(tmp, path)
    replayed = adapter.replay(path)
    if replayed != (len(rows), calls, failures):
        print(f"error: replay {replayed} differs from generation {(len(rows), calls, failures)}", file=sys.stderr)
        return 1
    print(f"{len(rows)} trajectories, {calls} calls, {failures} failing ({failures / calls:.1%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
