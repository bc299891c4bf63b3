"""Harvest Table Food Bank volunteer and distribution desk: the real implementation behind tools.md.

`make()` returns a desk with `reset(state)`, `call(name, arguments)` and `state()`.
`python adapter.py` replays every trajectory of trajectories.jsonl from data.json and prints the
number of calls and of failed calls. Standard library only; deterministic (the business date is fixed).
"""

from __future__ import annotations

import copy
import datetime
import json
import sys
from pathlib import Path
from typing import Any, Callable

TODAY = "2025-03-10"
ALLOCATION_MONTH = "2025-03"
RATES_CENTS = {"produce": 0, "bakery": 0, "dry_goods": 8, "canned": 10, "dairy": 12, "frozen": 15, "protein": 18}
DISCOUNT_PCT = {"standard": 0, "reduced": 50, "waived": 100}
MAX_LINE_POUNDS = 2000
SHIFT_STATUSES = ("open", "full", "completed", "cancelled")
DISTRIBUTION_STATUSES = ("scheduled", "picked_up", "cancelled")


class DeskError(Exception):
    """A refused call; its message is returned as 'Error: ...'."""


def _date(value: Any, name: str) -> datetime.date:
    if not isinstance(value, str):
        raise DeskError(f"{name} must be a date string YYYY-MM-DD")
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise DeskError(f"{name} '{value}' is not a valid date (YYYY-MM-DD)") from None


def _str(args: dict, name: str, required: bool = True) -> str | None:
    value = args.get(name)
    if value is None:
        if required:
            raise DeskError(f"missing required parameter '{name}'")
        return None
    if not isinstance(value, str) or not value.strip():
        raise DeskError(f"{name} must be a non-empty string")
    return value


def _pounds(value: Any, name: str = "pounds") -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise DeskError(f"{name} must be a whole number of pounds")
    if value <= 0 or value > MAX_LINE_POUNDS:
        raise DeskError(f"{name} must be between 1 and {MAX_LINE_POUNDS}")
    return value


def _money(cents: int) -> float:
    return cents / 100


class Desk:
    """The desk's state and its twelve operations."""

    def __init__(self) -> None:
        self._s: dict = {"volunteers": {}, "shifts": {}, "agencies": {}, "distributions": {}}
        self._ops: dict[str, Callable[[dict], Any]] = {
            "get_volunteer": self.get_volunteer,
            "list_shifts": self.list_shifts,
            "sign_up_for_shift": self.sign_up_for_shift,
            "cancel_shift_signup": self.cancel_shift_signup,
            "complete_shift": self.complete_shift,
            "get_agency": self.get_agency,
            "list_distributions": self.list_distributions,
            "quote_distribution": self.quote_distribution,
            "schedule_distribution": self.schedule_distribution,
            "add_distribution_item": self.add_distribution_item,
            "remove_distribution_item": self.remove_distribution_item,
            "set_distribution_status": self.set_distribution_status,
        }

    # protocol -----------------------------------------------------------------
    def reset(self, state: dict) -> None:
        """Start from a deep copy of `state` (data.json's layout)."""
        self._s = copy.deepcopy(state)

    def state(self) -> dict:
        """The whole state, deep-copied."""
        return copy.deepcopy(self._s)

    def call(self, name: str, arguments: dict) -> dict:
        """Run one operation; a refusal returns ok False and 'Error: ...'."""
        op = self._ops.get(name)
        if op is None:
            return {"ok": False, "output": f"Error: unknown operation '{name}'"}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        try:
            return {"ok": True, "output": copy.deepcopy(op(arguments))}
        except DeskError as exc:
            return {"ok": False, "output": f"Error: {exc}"}

    # lookups ------------------------------------------------------------------
    def _get(self, collection: str, label: str, record_id: str) -> dict:
        record = self._s[collection].get(record_id)
        if record is None:
            raise DeskError(f"{label} '{record_id}' not found")
        return record

    # volunteers and shifts ----------------------------------------------------
    def get_volunteer(self, args: dict) -> dict:
        return self._get("volunteers", "volunteer", _str(args, "volunteer_id"))

    def list_shifts(self, args: dict) -> list:
        date = _str(args, "date", False)
        if date is not None:
            _date(date, "date")
        role = _str(args, "role", False)
        status = _str(args, "status", False)
        if status is not None and status not in SHIFT_STATUSES:
            raise DeskError(f"status must be one of {', '.join(SHIFT_STATUSES)}")
        volunteer_id = _str(args, "volunteer_id", False)
        if volunteer_id is not None:
            self._get("volunteers", "volunteer", volunteer_id)
        found = [
            s
            for s in self._s["shifts"].values()
            if (date is None or s["date"] == date)
            and (role is None or s["role"] == role)
            and (status is None or s["status"] == status)
            and (volunteer_id is None or volunteer_id in s["volunteer_ids"])
        ]
        return sorted(found, key=lambda s: (s["date"], s["start"], s["id"]))

    def sign_up_for_shift(self, args: dict) -> dict:
        shift = self._get("shifts", "shift", _str(args, "shift_id"))
        volunteer = self._get("volunteers", "volunteer", _str(args, "volunteer_id"))
        if volunteer["status"] != "active":
            raise DeskError(f"volunteer {volunteer['id']} is {volunteer['status']}; only active volunteers can sign up")
        if shift["status"] in ("completed", "cancelled"):
            raise DeskError(f"shift {shift['id']} is {shift['status']}")
        if shift["date"] < TODAY:
            raise DeskError(f"shift {shift['id']} on {shift['date']} is in the past")
        if volunteer["id"] in shift["volunteer_ids"]:
            raise DeskError(f"volunteer {volunteer['id']} is already signed up for shift {shift['id']}")
        if shift["status"] == "full" or len(shift["volunteer_ids"]) >= shift["capacity"]:
            raise DeskError(f"shift {shift['id']} is full")
        if shift["requires"] and shift["requires"] not in volunteer["certifications"]:
            raise DeskError(f"shift {shift['id']} requires the {shift['requires']} certification")
        for other in self._s["shifts"].values():
            if (
                other["id"] != shift["id"]
                and other["date"] == shift["date"]
                and other["status"] in ("open", "full")
                and volunteer["id"] in other["volunteer_ids"]
                and other["start"] < shift["end"]
                and shift["start"] < other["end"]
            ):
                raise DeskError(f"volunteer {volunteer['id']} is already on overlapping shift {other['id']}")
        shift["volunteer_ids"].append(volunteer["id"])
        shift["history"].append({"date": TODAY, "event": "signed_up", "volunteer_id": volunteer["id"], "note": ""})
        if len(shift["volunteer_ids"]) >= shift["capacity"]:
            shift["status"] = "full"
        return shift

    def cancel_shift_signup(self, args: dict) -> dict:
        shift = self._get("shifts", "shift", _str(args, "shift_id"))
        volunteer_id = _str(args, "volunteer_id")
        self._get("volunteers", "volunteer", volunteer_id)
        reason = _str(args, "reason", False) or ""
        if shift["status"] not in ("open", "full"):
            raise DeskError(
                f"shift {shift['id']} is {shift['status']}; sign-ups can only be cancelled on open or full shifts"
            )
        if volunteer_id not in shift["volunteer_ids"]:
            raise DeskError(f"volunteer {volunteer_id} is not signed up for shift {shift['id']}")
        shift["volunteer_ids"].remove(volunteer_id)
        shift["history"].append(
            {"date": TODAY, "event": "cancelled_signup", "volunteer_id": volunteer_id, "note": reason}
        )
        if len(shift["volunteer_ids"]) < shift["capacity"]:
            shift["status"] = "open"
        return shift

    def complete_shift(self, args: dict) -> dict:
        shift = self._get("shifts", "shift", _str(args, "shift_id"))
        absent = args.get("absent_volunteer_ids", [])
        if absent is None:
            absent = []
        if not isinstance(absent, list) or not all(isinstance(a, str) for a in absent):
            raise DeskError("absent_volunteer_ids must be a list of volunteer ids")
        if shift["status"] not in ("open", "full"):
            raise DeskError(f"shift {shift['id']} is {shift['status']}; only open or full shifts can be completed")
        if shift["date"] > TODAY:
            raise DeskError(f"shift {shift['id']} on {shift['date']} has not happened yet")
        if not shift["volunteer_ids"]:
            raise DeskError(f"shift {shift['id']} has no volunteers signed up; cancel it instead")
        for vid in absent:
            if vid not in shift["volunteer_ids"]:
                raise DeskError(f"volunteer {vid} is not signed up for shift {shift['id']}")
        for vid in shift["volunteer_ids"]:
            volunteer = self._s["volunteers"].get(vid)
            if volunteer is None:
                continue
            if vid in absent:
                volunteer["no_show_count"] += 1
            else:
                volunteer["hours_credited"] += shift["hours"]
                volunteer["shifts_completed"] += 1
        for vid in shift["volunteer_ids"]:
            if vid in absent:
                shift["history"].append({"date": TODAY, "event": "no_show", "volunteer_id": vid, "note": ""})
        shift["history"].append({"date": TODAY, "event": "completed", "note": ""})
        shift["status"] = "completed"
        return shift

    # agencies and distributions -----------------------------------------------
    def get_agency(self, args: dict) -> dict:
        return self._get("agencies", "agency", _str(args, "agency_id"))

    def list_distributions(self, args: dict) -> list:
        agency_id = _str(args, "agency_id", False)
        if agency_id is not None:
            self._get("agencies", "agency", agency_id)
        status = _str(args, "status", False)
        if status is not None and status not in DISTRIBUTION_STATUSES:
            raise DeskError(f"status must be one of {', '.join(DISTRIBUTION_STATUSES)}")
        start = _str(args, "from_date", False)
        end = _str(args, "to_date", False)
        if start is not None:
            _date(start, "from_date")
        if end is not None:
            _date(end, "to_date")
        found = [
            d
            for d in self._s["distributions"].values()
            if (agency_id is None or d["agency_id"] == agency_id)
            and (status is None or d["status"] == status)
            and (start is None or d["pickup_date"] >= start)
            and (end is None or d["pickup_date"] <= end)
        ]
        return sorted(found, key=lambda d: (d["pickup_date"], d["id"]))

    def _items(self, value: Any) -> list:
        if not isinstance(value, list) or not value:
            raise DeskError("items must be a non-empty list of {category, pounds}")
        merged: dict[str, int] = {}
        for index, item in enumerate(value):
            if not isinstance(item, dict):
                raise DeskError(f"items[{index}] must be an object with category and pounds")
            category = item.get("category")
            if category not in RATES_CENTS:
                raise DeskError(f"items[{index}]: unknown category '{category}'")
            if category in merged:
                raise DeskError(f"items[{index}]: category '{category}' is listed twice")
            merged[category] = _pounds(item.get("pounds"), f"items[{index}].pounds")
        return [{"category": c, "pounds": p} for c, p in merged.items()]

    @staticmethod
    def _fee_cents(agency: dict, items: list) -> tuple[list, int, int, int]:
        lines, gross = [], 0
        for item in items:
            cents = item["pounds"] * RATES_CENTS[item["category"]]
            gross += cents
            lines.append(
                {
                    "category": item["category"],
                    "pounds": item["pounds"],
                    "rate_per_lb": _money(RATES_CENTS[item["category"]]),
                    "fee": _money(cents),
                }
            )
        pct = DISCOUNT_PCT[agency["fee_tier"]]
        return lines, gross, pct, (gross * (100 - pct) + 50) // 100

    def quote_distribution(self, args: dict) -> dict:
        agency = self._get("agencies", "agency", _str(args, "agency_id"))
        items = self._items(args.get("items"))
        lines, gross, pct, net = self._fee_cents(agency, items)
        total = sum(i["pounds"] for i in items)
        return {
            "agency_id": agency["id"],
            "lines": lines,
            "total_pounds": total,
            "fee_before_discount": _money(gross),
            "discount_pct": pct,
            "handling_fee": _money(net),
            "allocation_remaining_lbs": agency["allocation_remaining_lbs"],
            "fits_allocation": total <= agency["allocation_remaining_lbs"],
        }

    def _check_pickup_date(self, value: str) -> None:
        day = _date(value, "pickup_date")
        if value < TODAY:
            raise DeskError(f"pickup_date {value} is in the past")
        if not value.startswith(ALLOCATION_MONTH):
            raise DeskError(f"pickup_date {value} is outside the current allocation month {ALLOCATION_MONTH}")
        if day.weekday() >= 5:
            raise DeskError(f"pickup_date {value} is a weekend; the dock is open Monday to Friday")

    def _reprice(self, dist: dict, agency: dict) -> None:
        dist["total_pounds"] = sum(i["pounds"] for i in dist["items"])
        dist["handling_fee"] = _money(self._fee_cents(agency, dist["items"])[3])

    def schedule_distribution(self, args: dict) -> dict:
        agency = self._get("agencies", "agency", _str(args, "agency_id"))
        pickup_date = _str(args, "pickup_date")
        items = self._items(args.get("items"))
        note = _str(args, "note", False) or ""
        if agency["status"] != "active":
            raise DeskError(f"agency {agency['id']} is {agency['status']} and cannot schedule distributions")
        self._check_pickup_date(pickup_date)
        total = sum(i["pounds"] for i in items)
        if total > agency["allocation_remaining_lbs"]:
            raise DeskError(
                f"{total} lbs exceeds agency {agency['id']}'s remaining allocation of "
                f"{agency['allocation_remaining_lbs']} lbs"
            )
        numbers = [int(k.split("-")[1]) for k in self._s["distributions"] if k.startswith("DIS-")]
        new_id = f"DIS-{max(numbers, default=3000) + 1}"
        dist = {
            "id": new_id,
            "agency_id": agency["id"],
            "pickup_date": pickup_date,
            "status": "scheduled",
            "items": items,
            "total_pounds": 0,
            "handling_fee": 0.0,
            "history": [{"date": TODAY, "status": "scheduled", "note": note}],
        }
        self._reprice(dist, agency)
        agency["allocation_remaining_lbs"] -= total
        self._s["distributions"][new_id] = dist
        return dist

    def _scheduled(self, args: dict) -> tuple[dict, dict]:
        dist = self._get("distributions", "distribution", _str(args, "distribution_id"))
        if dist["status"] != "scheduled":
            raise DeskError(
                f"distribution {dist['id']} is {dist['status']}; only scheduled distributions can be changed"
            )
        return dist, self._get("agencies", "agency", dist["agency_id"])

    def add_distribution_item(self, args: dict) -> dict:
        dist, agency = self._scheduled(args)
        category = _str(args, "category")
        if category not in RATES_CENTS:
            raise DeskError(f"unknown category '{category}'")
        pounds = _pounds(args.get("pounds"))
        if agency["status"] != "active":
            raise DeskError(f"agency {agency['id']} is {agency['status']}; items cannot be added")
        if pounds > agency["allocation_remaining_lbs"]:
            raise DeskError(
                f"{pounds} lbs exceeds agency {agency['id']}'s remaining allocation of "
                f"{agency['allocation_remaining_lbs']} lbs"
            )
        line = next((i for i in dist["items"] if i["category"] == category), None)
        if line is None:
            dist["items"].append({"category": category, "pounds": pounds})
        elif line["pounds"] + pounds > MAX_LINE_POUNDS:
            raise DeskError(f"the {category} line would exceed {MAX_LINE_POUNDS} lbs")
        else:
            line["pounds"] += pounds
        agency["allocation_remaining_lbs"] -= pounds
        self._reprice(dist, agency)
        return dist

    def remove_distribution_item(self, args: dict) -> dict:
        dist, agency = self._scheduled(args)
        category = _str(args, "category")
        line = next((i for i in dist["items"] if i["category"] == category), None)
        if line is None:
            raise DeskError(f"distribution {dist['id']} has no {category} line")
        if len(dist["items"]) == 1:
            raise DeskError(
                f"{category} is the only line of distribution {dist['id']}; cancel the distribution instead"
            )
        dist["items"].remove(line)
        agency["allocation_remaining_lbs"] += line["pounds"]
        self._reprice(dist, agency)
        return dist

    def set_distribution_status(self, args: dict) -> dict:
        dist, agency = self._scheduled(args)
        status = _str(args, "status")
        note = _str(args, "note", False) or ""
        if status == "picked_up":
            if dist["pickup_date"] > TODAY:
                raise DeskError(
                    f"distribution {dist['id']} is due on {dist['pickup_date']}; it cannot be picked up early"
                )
            agency["pounds_received_ytd"] += dist["total_pounds"]
        elif status == "cancelled":
            agency["allocation_remaining_lbs"] += dist["total_pounds"]
        else:
            raise DeskError("status must be picked_up or cancelled")
        dist["status"] = status
        dist["history"].append({"date": TODAY, "status": status, "note": note})
        return dist


def make() -> Desk:
    """A desk with an empty state; call reset() with data.json's content."""
    return Desk()


def replay(folder: Path) -> tuple[int, int]:
    """Replay every trajectory from data.json; return (calls, failed calls)."""
    data = json.loads((folder / "data.json").read_text())
    calls = errors = 0
    desk = make()
    for line in (folder / "trajectories.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        trajectory = json.loads(line)
        desk.reset(trajectory.get("initial_state", data))
        for step in trajectory["calls"]:
            calls += 1
            errors += not desk.call(step["name"], step["arguments"])["ok"]
    return calls, errors


if __name__ == "__main__":
    n_calls, n_errors = replay(Path(__file__).resolve().parent)
    print(f"{n_calls} calls, {n_errors} errors")
    sys.exit(0)
