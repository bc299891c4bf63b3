"""Harbour Lane Inn front-desk API: the real implementation behind openapi.json (MIT, written for forgegym).

make() returns a FrontDesk with reset(state), call(name, arguments) and state(). Standard library only,
deterministic: "today" is the hotel's business_date in the state, ids come from the data.
`python adapter.py` replays trajectories.jsonl from data.json and prints the number of calls and errors.
"""

import copy
import datetime
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ACTIVE = ("booked", "checked_in")
CHARGE_CODES = ("MINIBAR", "RESTAURANT", "PARKING", "LAUNDRY", "SPA", "PHONE", "MISC")
SYSTEM_CODES = ("ROOM", "TAX", "CXL_FEE")
TIER_DISCOUNT = {"none": 0.0, "silver": 0.05, "gold": 0.10}
PAY_METHODS = ("card", "cash", "deposit")
MAX_CHARGE = 2000


class ApiError(Exception):
    """A refused request; the message becomes the error text."""


def _money(x):
    return round(float(x), 2) + 0.0


def _date(value, field):
    if not isinstance(value, str):
        raise ApiError(f"{field} must be a date string YYYY-MM-DD")
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise ApiError(f"{field} must be a date string YYYY-MM-DD") from None


def _req(args, field, kind=str):
    if field not in args or args[field] is None:
        raise ApiError(f"missing required field '{field}'")
    value = args[field]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise ApiError(f"{field} must be an integer")
    if kind is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
        raise ApiError(f"{field} must be a number")
    if kind is str and not isinstance(value, str):
        raise ApiError(f"{field} must be a string")
    return value


class FrontDesk:
    """In-memory front-desk system over a data.json-shaped state."""

    def __init__(self):
        self.s = {}

    def reset(self, state):
        self.s = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.s)

    # -- helpers -------------------------------------------------------------------------------------
    @property
    def hotel(self):
        return next(iter(self.s["hotel"].values()))

    def today(self):
        return datetime.date.fromisoformat(self.hotel["business_date"])

    def _get(self, coll, key, label):
        if not isinstance(key, str) or key not in self.s[coll]:
            raise ApiError(f"{label} {key} not found")
        return self.s[coll][key]

    def _band(self, night):
        for season in self.s["seasons"].values():
            if season["start_date"] <= night.isoformat() <= season["end_date"]:
                return season
        raise ApiError(f"no rate season covers {night.isoformat()}")

    def _stay(self, args):
        arrival = _date(_req(args, "arrival_date"), "arrival_date")
        departure = _date(_req(args, "departure_date"), "departure_date")
        if departure <= arrival:
            raise ApiError("departure_date must be after arrival_date")
        nights = (departure - arrival).days
        if nights > self.hotel["max_nights"]:
            raise ApiError(f"stays are limited to {self.hotel['max_nights']} nights")
        return arrival, departure, nights

    def _quote(self, room_type, arrival, nights, tier):
        nightly = []
        for i in range(nights):
            night = arrival + datetime.timedelta(days=i)
            season = self._band(night)
            nightly.append(
                {"date": night.isoformat(), "season_id": season["id"], "rate": room_type["rates"][season["rate_band"]]}
            )
        subtotal = _money(sum(n["rate"] for n in nightly))
        discount = _money(subtotal * TIER_DISCOUNT[tier])
        room_total = _money(subtotal - discount)
        tax = _money(room_total * self.hotel["tax_rate"])
        return {
            "room_type_id": room_type["id"],
            "arrival_date": arrival.isoformat(),
            "departure_date": (arrival + datetime.timedelta(days=nights)).isoformat(),
            "nights": nights,
            "nightly": nightly,
            "room_subtotal": subtotal,
            "loyalty_discount": discount,
            "room_total": room_total,
            "tax": tax,
            "total": _money(room_total + tax),
        }

    def _history(self, res, old, new):
        res["history"].append({"date": self.hotel["business_date"], "from_status": old, "to_status": new})
        res["status"] = new

    def _recompute_balance(self, res):
        res["balance_due"] = _money(sum(f["amount"] for f in res["folio"]) - sum(p["amount"] for p in res["payments"]))

    @staticmethod
    def _next_id(items, key, prefix):
        nums = [int(x[key][len(prefix) :]) for x in items if x[key].startswith(prefix)]
        return f"{prefix}{max(nums, default=0) + 1}"

    def _refund_credit(self, res):
        """Move a credit (negative balance) to the guest's deposit balance."""
        if res["balance_due"] < 0:
            credit = _money(-res["balance_due"])
            guest = self.s["guests"][res["guest_id"]]
            guest["deposit_balance"] = _money(guest["deposit_balance"] + credit)
            res["payments"].append(
                {
                    "payment_id": self._next_id(res["payments"], "payment_id", "P"),
                    "method": "deposit",
                    "amount": -credit,
                    "date": self.hotel["business_date"],
                }
            )
            self._recompute_balance(res)

    # -- reads ---------------------------------------------------------------------------------------
    def searchGuests(self, a):
        filters = {k: a.get(k) for k in ("last_name", "email", "phone", "loyalty_tier") if a.get(k) not in (None, "")}
        if not filters:
            raise ApiError("give at least one of last_name, email, phone, loyalty_tier")
        out = []
        for g in sorted(self.s["guests"].values(), key=lambda g: g["id"]):
            if all(str(g[k]).lower() == str(v).strip().lower() for k, v in filters.items()):
                out.append(copy.deepcopy(g))
        return out

    def getReservation(self, a):
        return copy.deepcopy(self._get("reservations", _req(a, "reservation_id"), "reservation"))

    def listReservations(self, a):
        status, guest_id = a.get("status"), a.get("guest_id")
        last_name, arrival, room_id = a.get("last_name"), a.get("arrival_date"), a.get("room_id")
        if status not in (None, "") and status not in ("booked", "checked_in", "checked_out", "cancelled", "no_show"):
            raise ApiError(f"unknown status {status}")
        out = []
        for r in sorted(self.s["reservations"].values(), key=lambda r: r["id"]):
            guest = self.s["guests"].get(r["guest_id"], {})
            if status and r["status"] != status:
                continue
            if guest_id and r["guest_id"] != guest_id:
                continue
            if last_name and guest.get("last_name", "").lower() != last_name.strip().lower():
                continue
            if arrival and r["arrival_date"] != arrival:
                continue
            if room_id and r["room_id"] != room_id:
                continue
            out.append(copy.deepcopy(r))
        return out

    def listRooms(self, a):
        rt, status, floor = a.get("room_type_id"), a.get("status"), a.get("floor")
        if rt and rt not in self.s["room_types"]:
            raise ApiError(f"room type {rt} not found")
        out = []
        for room in sorted(self.s["rooms"].values(), key=lambda r: r["id"]):
            if rt and room["room_type_id"] != rt:
                continue
            if status and room["status"] != status:
                continue
            if floor is not None and room["floor"] != floor:
                continue
            out.append(copy.deepcopy(room))
        return out

    def quoteStay(self, a):
        room_type = self._get("room_types", _req(a, "room_type_id"), "room type")
        arrival, _departure, nights = self._stay(a)
        tier = "none"
        if a.get("guest_id"):
            tier = self._get("guests", a["guest_id"], "guest")["loyalty_tier"]
        return self._quote(room_type, arrival, nights, tier)

    # -- writes --------------------------------------------------------------------------------------
    def createReservation(self, a):
        guest = self._get("guests", _req(a, "guest_id"), "guest")
        room_type = self._get("room_types", _req(a, "room_type_id"), "room type")
        adults = _req(a, "adults", int)
        arrival, departure, nights = self._stay(a)
        if guest["status"] != "active":
            raise ApiError(f"guest {guest['id']} is {guest['status']} and cannot be booked")
        if arrival < self.today():
            raise ApiError("arrival_date is before the hotel's business date")
        if adults < 1 or adults > room_type["max_occupancy"]:
            raise ApiError(f"adults must be between 1 and {room_type['max_occupancy']} for room type {room_type['id']}")
        rooms = [
            r
            for r in self.s["rooms"].values()
            if r["room_type_id"] == room_type["id"] and r["status"] != "out_of_order"
        ]
        for i in range(nights):
            night = (arrival + datetime.timedelta(days=i)).isoformat()
            taken = sum(
                1
                for r in self.s["reservations"].values()
                if r["room_type_id"] == room_type["id"]
                and r["status"] in ACTIVE
                and r["arrival_date"] <= night < r["departure_date"]
            )
            if taken >= len(rooms):
                raise ApiError(f"no {room_type['id']} rooms available on {night}")
        quote = self._quote(room_type, arrival, nights, guest["loyalty_tier"])
        nums = [int(k.split("-")[1]) for k in self.s["reservations"]]
        rid = f"RSV-{max(nums, default=1000) + 1}"
        res = {
            "id": rid,
            "guest_id": guest["id"],
            "room_type_id": room_type["id"],
            "room_id": None,
            "arrival_date": arrival.isoformat(),
            "departure_date": departure.isoformat(),
            "nights": nights,
            "adults": adults,
            "status": "booked",
            "room_total": quote["room_total"],
            "tax_total": quote["tax"],
            "estimated_total": quote["total"],
            "folio": [],
            "payments": [],
            "balance_due": 0.0,
            "history": [],
        }
        self._history(res, None, "booked")
        self.s["reservations"][rid] = res
        return copy.deepcopy(res)

    def checkInReservation(self, a):
        res = self._get("reservations", _req(a, "reservation_id"), "reservation")
        room = self._get("rooms", _req(a, "room_id"), "room")
        if res["status"] != "booked":
            raise ApiError(f"reservation {res['id']} is {res['status']}; only booked reservations can be checked in")
        today = self.hotel["business_date"]
        if today < res["arrival_date"]:
            raise ApiError(f"check-in opens on the arrival date {res['arrival_date']}")
        if today >= res["departure_date"]:
            raise ApiError("the stay's departure date has passed")
        if room["room_type_id"] != res["room_type_id"]:
            raise ApiError(
                f"room {room['id']} is a {room['room_type_id']} room; the reservation is for {res['room_type_id']}"
            )
        if room["status"] != "clean":
            raise ApiError(f"room {room['id']} is {room['status']}; only clean rooms can be assigned")
        room["status"] = "occupied"
        res["room_id"] = room["id"]
        for code, amount, text in (
            ("ROOM", res["room_total"], f"Room charges, {res['nights']} nights"),
            ("TAX", res["tax_total"], "Occupancy tax"),
        ):
            res["folio"].append(
                {
                    "line_id": self._next_id(res["folio"], "line_id", "L"),
                    "code": code,
                    "description": text,
                    "amount": amount,
                    "date": today,
                }
            )
        self._recompute_balance(res)
        self._history(res, "booked", "checked_in")
        return copy.deepcopy(res)

    def postFolioCharge(self, a):
        res = self._get("reservations", _req(a, "reservation_id"), "reservation")
        code = _req(a, "code")
        amount = _req(a, "amount", float)
        if code not in CHARGE_CODES:
            raise ApiError(f"code must be one of {', '.join(CHARGE_CODES)}")
        if amount <= 0 or amount > MAX_CHARGE:
            raise ApiError(f"amount must be greater than 0 and at most {MAX_CHARGE}")
        if res["status"] != "checked_in":
            raise ApiError(
                f"charges can only be posted to checked-in stays; reservation {res['id']} is {res['status']}"
            )
        line = {
            "line_id": self._next_id(res["folio"], "line_id", "L"),
            "code": code,
            "description": a.get("description") or code.title(),
            "amount": _money(amount),
            "date": self.hotel["business_date"],
        }
        res["folio"].append(line)
        self._recompute_balance(res)
        return copy.deepcopy(res)

    def voidFolioCharge(self, a):
        res = self._get("reservations", _req(a, "reservation_id"), "reservation")
        line_id = _req(a, "line_id")
        if res["status"] != "checked_in":
            raise ApiError(
                f"folio lines can only be voided on checked-in stays; reservation {res['id']} is {res['status']}"
            )
        line = next((f for f in res["folio"] if f["line_id"] == line_id), None)
        if line is None:
            raise ApiError(f"folio line {line_id} not found on reservation {res['id']}")
        if line["code"] in SYSTEM_CODES:
            raise ApiError(f"{line['code']} lines are posted by the system and cannot be voided")
        res["folio"].remove(line)
        self._recompute_balance(res)
        return copy.deepcopy(res)

    def recordPayment(self, a):
        res = self._get("reservations", _req(a, "reservation_id"), "reservation")
        method = _req(a, "method")
        amount = _money(_req(a, "amount", float))
        if method not in PAY_METHODS:
            raise ApiError(f"method must be one of {', '.join(PAY_METHODS)}")
        if amount <= 0:
            raise ApiError("amount must be greater than 0")
        if method == "card":
            last4 = a.get("card_last4")
            if not (isinstance(last4, str) and len(last4) == 4 and last4.isdigit()):
                raise ApiError("card payments need card_last4 (4 digits)")
        if res["status"] == "checked_in":
            outstanding = res["balance_due"]
        elif res["status"] == "booked":
            outstanding = _money(res["estimated_total"] - sum(p["amount"] for p in res["payments"]))
        elif res["status"] == "cancelled" and res["balance_due"] > 0.004:
            outstanding = res["balance_due"]
        else:
            raise ApiError(f"payments cannot be taken on a {res['status']} reservation")
        if amount > outstanding + 0.004:
            raise ApiError(f"amount exceeds the outstanding {outstanding:.2f}")
        guest = self.s["guests"][res["guest_id"]]
        if method == "deposit":
            if guest["deposit_balance"] + 0.004 < amount:
                raise ApiError(f"guest deposit balance {guest['deposit_balance']:.2f} is less than {amount:.2f}")
            guest["deposit_balance"] = _money(guest["deposit_balance"] - amount)
        payment = {
            "payment_id": self._next_id(res["payments"], "payment_id", "P"),
            "method": method,
            "amount": amount,
            "date": self.hotel["business_date"],
        }
        if method == "card":
            payment["card_last4"] = a["card_last4"]
        res["payments"].append(payment)
        self._recompute_balance(res)
        return copy.deepcopy(res)

    def checkOutReservation(self, a):
        res = self._get("reservations", _req(a, "reservation_id"), "reservation")
        if res["status"] != "checked_in":
            raise ApiError(f"reservation {res['id']} is {res['status']}; only checked-in stays can be checked out")
        if res["balance_due"] > 0.004:
            raise ApiError(f"folio not settled: balance due {res['balance_due']:.2f}")
        self._refund_credit(res)
        guest = self.s["guests"][res["guest_id"]]
        guest["stay_count"] += 1
        guest["loyalty_points"] += int(res["room_total"])
        self.s["rooms"][res["room_id"]]["status"] = "dirty"
        self._history(res, "checked_in", "checked_out")
        return copy.deepcopy(res)

    def cancelReservation(self, a):
        res = self._get("reservations", _req(a, "reservation_id"), "reservation")
        if res["status"] != "booked":
            raise ApiError(f"reservation {res['id']} is {res['status']}; only booked reservations can be cancelled")
        days = (datetime.date.fromisoformat(res["arrival_date"]) - self.today()).days
        if days < self.hotel["cancellation_window_days"]:
            res["folio"].append(
                {
                    "line_id": self._next_id(res["folio"], "line_id", "L"),
                    "code": "CXL_FEE",
                    "description": "Late cancellation fee",
                    "amount": _money(res["room_total"] / res["nights"]),
                    "date": self.hotel["business_date"],
                }
            )
        self._recompute_balance(res)
        self._refund_credit(res)
        self._history(res, "booked", "cancelled")
        return copy.deepcopy(res)

    # -- dispatch ------------------------------------------------------------------------------------
    TOOLS = (
        "searchGuests",
        "getReservation",
        "listReservations",
        "listRooms",
        "quoteStay",
        "createReservation",
        "checkInReservation",
        "postFolioCharge",
        "voidFolioCharge",
        "recordPayment",
        "checkOutReservation",
        "cancelReservation",
    )

    def call(self, name, arguments):
        """Run one operation; refused requests return ok False and an 'Error: ...' text."""
        if name not in self.TOOLS:
            return {"ok": False, "output": f"Error: unknown operation {name}"}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        before = copy.deepcopy(self.s)
        try:
            return {"ok": True, "output": getattr(self, name)(copy.deepcopy(arguments))}
        except ApiError as exc:
            self.s = before
            return {"ok": False, "output": f"Error: {exc}"}
        except (TypeError, ValueError, AttributeError, KeyError) as exc:
            self.s = before
            return {"ok": False, "output": f"Error: invalid arguments ({type(exc).__name__})"}


def make():
    """A fresh front-desk system; call reset(state) before use."""
    return FrontDesk()


def replay(folder=HERE):
    """Replay every trajectory from data.json; return (calls, errors)."""
    with open(os.path.join(folder, "data.json")) as fh:
        data = json.load(fh)
    calls = errors = 0
    with open(os.path.join(folder, "trajectories.jsonl")) as fh:
        for line in fh:
            traj = json.loads(line)
            system = make()
            system.reset(traj.get("initial_state", data))
            for c in traj["calls"]:
                calls += 1
                if not system.call(c["name"], c["arguments"])["ok"]:
                    errors += 1
    return calls, errors


if __name__ == "__main__":
    n, e = replay()
    print(f"calls: {n} errors: {e}")
    sys.exit(0)
