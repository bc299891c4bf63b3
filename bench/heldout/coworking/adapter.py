"""Coworking member desk: the real implementation behind tools.json (standard library only).

`make()` returns a Desk with reset(state), call(name, arguments) and state().
`python adapter.py` replays every trajectory in trajectories.jsonl from data.json.
"""

from __future__ import annotations

import copy
import datetime
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))

OPEN_HOUR = 8
CLOSE_HOUR = 21
MAX_HOURS = 8
PLAN_DISCOUNT_PERCENT = {"flex": 0, "team": 10, "enterprise": 20}
DAY_PASS_PRICE = {"flex": 25.0, "team": 15.0, "enterprise": 0.0}
ACTIVE_BOOKING = ("confirmed", "checked_in")


class DeskError(Exception):
    """A call refused by the desk; its message is returned as 'Error: ...'."""


def _require(args: dict, name: str, kind: type | tuple) -> object:
    if name not in args or args[name] is None:
        raise DeskError(f"missing required parameter '{name}'")
    value = args[name]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise DeskError(f"parameter '{name}' must be an integer")
    if not isinstance(value, kind):
        raise DeskError(f"parameter '{name}' has the wrong type")
    return value


def _optional(args: dict, name: str, kind: type | tuple) -> object:
    if args.get(name) is None:
        return None
    return _require(args, name, kind)


def _date(value: str) -> str:
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise DeskError(f"date '{value}' must be in YYYY-MM-DD format")
    try:
        datetime.date.fromisoformat(value)
    except ValueError as exc:
        raise DeskError(f"date '{value}' is not a valid date") from exc
    return value


def _next_id(collection: dict, prefix: str) -> str:
    numbers = [int(key.split("-")[1]) for key in collection]
    return f"{prefix}-{max(numbers) + 1}"


class Desk:
    """The member desk's state and its twelve operations."""

    def __init__(self) -> None:
        self._s: dict = {}

    def reset(self, state: dict) -> None:
        self._s = copy.deepcopy(state)

    def state(self) -> dict:
        return copy.deepcopy(self._s)

    def call(self, name: str, arguments: dict) -> dict:
        handler = getattr(self, "_op_" + name, None) if isinstance(name, str) else None
        if handler is None:
            return {"ok": False, "output": f"Error: unknown tool '{name}'"}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        try:
            return {"ok": True, "output": copy.deepcopy(handler(arguments))}
        except DeskError as exc:
            return {"ok": False, "output": f"Error: {exc}"}

    # ---- lookups -------------------------------------------------------
    def _get(self, collection: str, key: str, label: str) -> dict:
        record = self._s[collection].get(key)
        if record is None:
            raise DeskError(f"{label} '{key}' not found")
        return record

    def _company(self, key: str) -> dict:
        return self._get("companies", key, "company")

    def _member(self, key: str) -> dict:
        return self._get("members", key, "member")

    def _room(self, key: str) -> dict:
        return self._get("rooms", key, "room")

    def _booking(self, key: str) -> dict:
        return self._get("bookings", key, "booking")

    def _price(self, room: dict, company: dict, hours: int) -> tuple[int, float]:
        discount = PLAN_DISCOUNT_PERCENT[company["plan"]]
        return discount, round(room["hourly_rate"] * hours * (100 - discount) / 100, 2)

    @staticmethod
    def _check_hours(start_hour: int | None, hours: int) -> None:
        if hours < 1 or hours > MAX_HOURS:
            raise DeskError(f"hours must be between 1 and {MAX_HOURS}")
        if start_hour is not None:
            if start_hour < OPEN_HOUR or start_hour + hours > CLOSE_HOUR:
                raise DeskError(f"rooms can be booked between {OPEN_HOUR}:00 and {CLOSE_HOUR}:00 only")

    # ---- reads -------------------------------------------------------------
    def _op_get_company(self, a: dict) -> dict:
        return self._company(_require(a, "company_id", str))

    def _op_find_members(self, a: dict) -> list:
        company_id = _optional(a, "company_id", str)
        email = _optional(a, "email", str)
        name = _optional(a, "name", str)
        status = _optional(a, "status", str)
        if company_id is None and email is None and name is None:
            raise DeskError("give at least one of company_id, email or name")
        found = []
        for key in sorted(self._s["members"]):
            m = self._s["members"][key]
            if company_id is not None and m["company_id"] != company_id:
                continue
            if email is not None and m["email"].lower() != email.strip().lower():
                continue
            if name is not None and name.strip().lower() not in m["name"].lower():
                continue
            if status is not None and m["status"] != status:
                continue
            found.append(m)
        return found

    def _op_list_rooms(self, a: dict) -> list:
        min_capacity = _optional(a, "min_capacity", int)
        floor = _optional(a, "floor", int)
        amenity = _optional(a, "amenity", str)
        plan = _optional(a, "plan", str)
        found = []
        for key in sorted(self._s["rooms"]):
            r = self._s["rooms"][key]
            if min_capacity is not None and r["capacity"] < min_capacity:
                continue
            if floor is not None and r["floor"] != floor:
                continue
            if amenity is not None and amenity not in r["amenities"]:
                continue
            if plan is not None and plan not in r["allowed_plans"]:
                continue
            found.append(r)
        return found

    def _op_get_booking(self, a: dict) -> dict:
        return self._booking(_require(a, "booking_id", str))

    def _op_search_bookings(self, a: dict) -> list:
        company_id = _optional(a, "company_id", str)
        room_id = _optional(a, "room_id", str)
        date = _optional(a, "date", str)
        status = _optional(a, "status", str)
        floor = _optional(a, "floor", int)
        member_id = _optional(a, "member_id", str)
        if date is not None:
            _date(date)
        found = []
        for key in sorted(self._s["bookings"]):
            b = self._s["bookings"][key]
            if company_id is not None and b["company_id"] != company_id:
                continue
            if room_id is not None and b["room_id"] != room_id:
                continue
            if date is not None and b["date"] != date:
                continue
            if status is not None and b["status"] != status:
                continue
            if floor is not None:
                room = self._s["rooms"].get(b["room_id"])
                if room is None or room["floor"] != floor:
                    continue
            if member_id is not None and member_id not in b["attendees"]:
                continue
            found.append(b)
        return found

    def _op_quote_booking(self, a: dict) -> dict:
        company = self._company(_require(a, "company_id", str))
        room = self._room(_require(a, "room_id", str))
        hours = _require(a, "hours", int)
        self._check_hours(None, hours)
        discount, total = self._price(room, company, hours)
        return {
            "company_id": company["company_id"],
            "room_id": room["room_id"],
            "hours": hours,
            "hourly_rate": room["hourly_rate"],
            "discount_percent": discount,
            "total": total,
        }

    # ---- writes ------------------------------------------------------------
    def _op_create_booking(self, a: dict) -> dict:
        company = self._company(_require(a, "company_id", str))
        booker = self._member(_require(a, "member_id", str))
        room = self._room(_require(a, "room_id", str))
        date = _date(_require(a, "date", str))
        start_hour = _require(a, "start_hour", int)
        hours = _require(a, "hours", int)
        attendees = _optional(a, "attendees", list) or []
        self._check_hours(start_hour, hours)
        if company["status"] != "active":
            raise DeskError(f"company '{company['company_id']}' is {company['status']}")
        if booker["company_id"] != company["company_id"]:
            raise DeskError(f"member '{booker['member_id']}' does not belong to company '{company['company_id']}'")
        if booker["status"] != "active":
            raise DeskError(f"member '{booker['member_id']}' is not active")
        if company["plan"] not in room["allowed_plans"]:
            raise DeskError(f"room '{room['room_id']}' is not available on the {company['plan']} plan")
        people = [booker["member_id"]]
        for member_id in attendees:
            if not isinstance(member_id, str):
                raise DeskError("attendees must be member ids")
            member = self._member(member_id)
            if member["status"] != "active":
                raise DeskError(f"member '{member_id}' is not active")
            if member_id not in people:
                people.append(member_id)
        if len(people) > room["capacity"]:
            raise DeskError(f"room '{room['room_id']}' holds at most {room['capacity']} people")
        for other in self._s["bookings"].values():
            if (
                other["room_id"] == room["room_id"]
                and other["date"] == date
                and other["status"] in ACTIVE_BOOKING
                and start_hour < other["start_hour"] + other["hours"]
                and other["start_hour"] < start_hour + hours
            ):
                raise DeskError(f"room '{room['room_id']}' is already booked at that time ({other['booking_id']})")
        _, total = self._price(room, company, hours)
        if company["credit_balance"] < total:
            raise DeskError(
                f"insufficient credit: the booking costs {total} and the balance is {company['credit_balance']}"
            )
        company["credit_balance"] = round(company["credit_balance"] - total, 2)
        booking_id = _next_id(self._s["bookings"], "BK")
        booking = {
            "booking_id": booking_id,
            "room_id": room["room_id"],
            "company_id": company["company_id"],
            "booked_by": booker["member_id"],
            "date": date,
            "start_hour": start_hour,
            "hours": hours,
            "attendees": people,
            "status": "confirmed",
            "cost": total,
            "history": [{"event": "created", "by": booker["member_id"]}],
        }
        self._s["bookings"][booking_id] = booking
        return booking

    def _op_cancel_booking(self, a: dict) -> dict:
        booking = self._booking(_require(a, "booking_id", str))
        reason = _require(a, "reason", str).strip()
        if not reason:
            raise DeskError("a cancellation reason is required")
        if booking["status"] != "confirmed":
            raise DeskError(f"booking '{booking['booking_id']}' is {booking['status']} and cannot be cancelled")
        company = self._company(booking["company_id"])
        company["credit_balance"] = round(company["credit_balance"] + booking["cost"], 2)
        booking["status"] = "cancelled"
        booking["history"].append({"event": "cancelled", "reason": reason, "refund": booking["cost"]})
        return booking

    def _op_check_in_booking(self, a: dict) -> dict:
        booking = self._booking(_require(a, "booking_id", str))
        if booking["status"] != "confirmed":
            raise DeskError(f"booking '{booking['booking_id']}' is {booking['status']} and cannot be checked in")
        booking["status"] = "checked_in"
        booking["history"].append({"event": "checked_in"})
        return booking

    def _op_add_attendee(self, a: dict) -> dict:
        booking = self._booking(_require(a, "booking_id", str))
        member = self._member(_require(a, "member_id", str))
        if booking["status"] not in ACTIVE_BOOKING:
            raise DeskError(f"booking '{booking['booking_id']}' is {booking['status']}")
        if member["status"] != "active":
            raise DeskError(f"member '{member['member_id']}' is not active")
        if member["member_id"] in booking["attendees"]:
            raise DeskError(f"member '{member['member_id']}' is already an attendee")
        room = self._room(booking["room_id"])
        if len(booking["attendees"]) >= room["capacity"]:
            raise DeskError(f"room '{room['room_id']}' holds at most {room['capacity']} people")
        booking["attendees"].append(member["member_id"])
        booking["history"].append({"event": "attendee_added", "member_id": member["member_id"]})
        return booking

    def _op_remove_attendee(self, a: dict) -> dict:
        booking = self._booking(_require(a, "booking_id", str))
        member_id = _require(a, "member_id", str)
        if booking["status"] not in ACTIVE_BOOKING:
            raise DeskError(f"booking '{booking['booking_id']}' is {booking['status']}")
        if member_id not in booking["attendees"]:
            raise DeskError(f"member '{member_id}' is not an attendee of '{booking['booking_id']}'")
        if member_id == booking["booked_by"]:
            raise DeskError("the member who made the booking cannot be removed")
        booking["attendees"].remove(member_id)
        booking["history"].append({"event": "attendee_removed", "member_id": member_id})
        return booking

    def _op_issue_day_pass(self, a: dict) -> dict:
        member = self._member(_require(a, "member_id", str))
        date = _date(_require(a, "date", str))
        company = self._company(member["company_id"])
        if member["status"] != "active":
            raise DeskError(f"member '{member['member_id']}' is not active")
        if company["status"] != "active":
            raise DeskError(f"company '{company['company_id']}' is {company['status']}")
        for other in self._s["day_passes"].values():
            if other["member_id"] == member["member_id"] and other["date"] == date and other["status"] == "issued":
                raise DeskError(f"member '{member['member_id']}' already has day pass '{other['pass_id']}' for {date}")
        price = DAY_PASS_PRICE[company["plan"]]
        if company["credit_balance"] < price:
            raise DeskError(
                f"insufficient credit: a day pass costs {price} and the balance is {company['credit_balance']}"
            )
        company["credit_balance"] = round(company["credit_balance"] - price, 2)
        pass_id = _next_id(self._s["day_passes"], "DP")
        record = {
            "pass_id": pass_id,
            "member_id": member["member_id"],
            "company_id": company["company_id"],
            "date": date,
            "price": price,
            "status": "issued",
        }
        self._s["day_passes"][pass_id] = record
        return record


def make() -> Desk:
    """A fresh desk; call reset(state) before use."""
    return Desk()


def replay(path: str = os.path.join(HERE, "trajectories.jsonl")) -> tuple[int, int, int]:
    """Replay every trajectory from data.json; returns (trajectories, calls, errors)."""
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as fh:
        initial = json.load(fh)
    desk = make()
    trajectories = calls = errors = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            trajectory = json.loads(line)
            desk.reset(trajectory.get("initial_state", initial))
            trajectories += 1
            for step in trajectory["calls"]:
                result = desk.call(step["name"], step["arguments"])
                calls += 1
                errors += 0 if result["ok"] else 1
    return trajectories, calls, errors


if __name__ == "__main__":
    n_traj, n_calls, n_errors = replay()
    print(f"{n_traj} trajectories, {n_calls} calls, {n_errors} errors")
