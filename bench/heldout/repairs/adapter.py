"""Reference implementation of the bike-share repair workshop API (standard library only).

`make()` returns a Workshop with `reset(state)`, `call(name, arguments)` and `state()`.
`python adapter.py` replays every trajectory of trajectories.jsonl from data.json.
"""

import copy
import json
import os
import sys

TODAY = "2025-06-12"
MECHANICS = {
    "MEC-ANA": {"name": "Ana Duarte", "ebike_certified": True},
    "MEC-BEN": {"name": "Ben Okafor", "ebike_certified": False},
    "MEC-CHL": {"name": "Chloe Marin", "ebike_certified": True},
    "MEC-DEV": {"name": "Dev Patel", "ebike_certified": False},
}
MAX_ACTIVE = 3
ACTIVE = ("assigned", "in_progress")
LABOUR_RATES = {"classic": 36.0, "cargo": 42.0, "ebike": 48.0}
URGENT_FEE = 15.0
TICKET_STATUSES = ("open", "assigned", "in_progress", "completed", "cancelled")
PRIORITIES = ("low", "normal", "urgent")
MODELS = ("classic", "ebike", "cargo")
BIKE_STATUSES = ("available", "flagged", "in_workshop", "retired")


class ApiError(Exception):
    """A refused call; its message is returned as 'Error: ...'."""


def _money(x):
    return round(x + 1e-9, 2)


class Workshop:
    """The workshop back office: stations, bikes, spare parts and repair tickets."""

    def __init__(self):
        self.db = {"stations": {}, "bikes": {}, "parts": {}, "tickets": {}}

    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "t_" + str(name), None)
        if fn is None:
            return {"ok": False, "output": "Error: unknown tool %s" % name}
        args = dict(arguments or {})
        try:
            return {"ok": True, "output": fn(**args)}
        except ApiError as e:
            return {"ok": False, "output": "Error: %s" % e}
        except TypeError as e:
            return {"ok": False, "output": "Error: invalid arguments: %s" % e}

    # ---- helpers -------------------------------------------------------
    def _bike(self, bike_id):
        b = self.db["bikes"].get(bike_id)
        if b is None:
            raise ApiError("bike %s not found" % bike_id)
        return b

    def _ticket(self, ticket_id):
        t = self.db["tickets"].get(ticket_id)
        if t is None:
            raise ApiError("ticket %s not found" % ticket_id)
        return t

    def _part(self, part_id):
        p = self.db["parts"].get(part_id)
        if p is None:
            raise ApiError("part %s not found" % part_id)
        return p

    def _station(self, station_id):
        s = self.db["stations"].get(station_id)
        if s is None:
            raise ApiError("station %s not found" % station_id)
        return s

    def _need_status(self, ticket, allowed, action):
        if ticket["status"] not in allowed:
            raise ApiError(
                "cannot %s ticket %s: status is %s (allowed: %s)"
                % (action, ticket["ticket_id"], ticket["status"], ", ".join(allowed))
            )

    def _next_ticket_id(self):
        nums = [int(k.split("-")[1]) for k in self.db["tickets"] if k.startswith("RT-")]
        return "RT-%04d" % (max(nums, default=0) + 1)

    def _quote(self, ticket, hours):
        model = self._bike(ticket["bike_id"])["model"]
        lines, parts_total = [], 0.0
        for item in ticket["parts"]:
            price = self.db["parts"][item["part_id"]]["unit_price"]
            line = _money(price * item["quantity"])
            parts_total += line
            lines.append(
                {"part_id": item["part_id"], "quantity": item["quantity"], "unit_price": price, "line_total": line}
            )
        rate = LABOUR_RATES[model]
        labour = _money(rate * hours)
        fee = URGENT_FEE if ticket["priority"] == "urgent" else 0.0
        return {
            "ticket_id": ticket["ticket_id"],
            "bike_id": ticket["bike_id"],
            "model": model,
            "parts": lines,
            "parts_total": _money(parts_total),
            "labour_hours": hours,
            "labour_rate": rate,
            "labour_total": labour,
            "urgent_fee": fee,
            "total": _money(parts_total + labour + fee),
        }

    @staticmethod
    def _hours(value):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ApiError("labour_hours must be a number")
        if value <= 0 or value > 8:
            raise ApiError("labour_hours must be greater than 0 and at most 8")
        if abs(value * 4 - round(value * 4)) > 1e-9:
            raise ApiError("labour_hours must be a multiple of 0.25")
        return float(value)

    # ---- reads ---------------------------------------------------------
    def t_get_bike(self, bike_id):
        return copy.deepcopy(self._bike(bike_id))

    def t_get_ticket(self, ticket_id):
        return copy.deepcopy(self._ticket(ticket_id))

    def t_search_tickets(self, status=None, mechanic=None, bike_id=None, station_id=None, model=None, priority=None):
        if status is not None and status not in TICKET_STATUSES:
            raise ApiError("invalid status %s" % status)
        if priority is not None and priority not in PRIORITIES:
            raise ApiError("invalid priority %s" % priority)
        if model is not None and model not in MODELS:
            raise ApiError("invalid model %s" % model)
        out = []
        for tid in sorted(self.db["tickets"]):
            t = self.db["tickets"][tid]
            bike = self.db["bikes"].get(t["bike_id"], {})
            if status is not None and t["status"] != status:
                continue
            if mechanic is not None and t["mechanic"] != mechanic:
                continue
            if bike_id is not None and t["bike_id"] != bike_id:
                continue
            if station_id is not None and bike.get("station_id") != station_id:
                continue
            if model is not None and bike.get("model") != model:
                continue
            if priority is not None and t["priority"] != priority:
                continue
            out.append(
                {
                    "ticket_id": tid,
                    "bike_id": t["bike_id"],
                    "status": t["status"],
                    "priority": t["priority"],
                    "mechanic": t["mechanic"],
                    "opened_on": t["opened_on"],
                }
            )
        return out

    def t_list_parts(self, model=None, in_stock_only=False):
        if model is not None and model not in MODELS:
            raise ApiError("invalid model %s" % model)
        out = []
        for pid in sorted(self.db["parts"]):
            p = self.db["parts"][pid]
            if model is not None and model not in p["fits"]:
                continue
            if in_stock_only and p["stock"] <= 0:
                continue
            out.append(copy.deepcopy(p))
        return out

    def t_quote_repair(self, ticket_id, labour_hours=None):
        t = self._ticket(ticket_id)
        if t["status"] == "cancelled":
            raise ApiError("ticket %s is cancelled" % ticket_id)
        hours = t["labour_hours"] if labour_hours is None else self._hours(labour_hours)
        return self._quote(t, hours)

    # ---- writes --------------------------------------------------------
    def t_open_ticket(self, bike_id, issue, priority="normal", labour_hours=1.0):
        bike = self._bike(bike_id)
        if not isinstance(issue, str) or not issue.strip():
            raise ApiError("issue must be a non-empty description")
        if priority not in PRIORITIES:
            raise ApiError("invalid priority %s" % priority)
        hours = self._hours(labour_hours)
        if bike["status"] not in ("available", "flagged"):
            raise ApiError(
                "bike %s is %s; tickets can only be opened for available or flagged bikes" % (bike_id, bike["status"])
            )
        if bike["open_ticket_id"]:
            raise ApiError("bike %s already has open ticket %s" % (bike_id, bike["open_ticket_id"]))
        tid = self._next_ticket_id()
        ticket = {
            "ticket_id": tid,
            "bike_id": bike_id,
            "issue": issue.strip(),
            "priority": priority,
            "status": "open",
            "mechanic": None,
            "labour_hours": hours,
            "parts": [],
            "opened_on": TODAY,
            "closed_on": None,
            "final_cost": None,
            "history": [{"date": TODAY, "status": "open", "note": issue.strip()}],
        }
        self.db["tickets"][tid] = ticket
        bike["status"] = "flagged"
        bike["open_ticket_id"] = tid
        return copy.deepcopy(ticket)

    def t_assign_ticket(self, ticket_id, mechanic):
        t = self._ticket(ticket_id)
        if mechanic not in MECHANICS:
            raise ApiError("mechanic %s not found" % mechanic)
        self._need_status(t, ("open", "assigned"), "assign")
        if t["mechanic"] == mechanic:
            raise ApiError("ticket %s is already assigned to %s" % (ticket_id, mechanic))
        bike = self._bike(t["bike_id"])
        if bike["model"] == "ebike" and not MECHANICS[mechanic]["ebike_certified"]:
            raise ApiError("mechanic %s is not certified for e-bikes" % mechanic)
        active = sum(1 for x in self.db["tickets"].values() if x["mechanic"] == mechanic and x["status"] in ACTIVE)
        if active >= MAX_ACTIVE:
            raise ApiError("mechanic %s already has %d active tickets (limit %d)" % (mechanic, active, MAX_ACTIVE))
        t["mechanic"] = mechanic
        t["status"] = "assigned"
        t["history"].append({"date": TODAY, "status": "assigned", "note": "assigned to %s" % mechanic})
        return copy.deepcopy(t)

    def t_start_repair(self, ticket_id):
        t = self._ticket(ticket_id)
        self._need_status(t, ("assigned",), "start repair on")
        bike = self._bike(t["bike_id"])
        origin = bike["station_id"]
        if origin is not None:
            station = self.db["stations"].get(origin)
            if station is not None and station["docked"] > 0:
                station["docked"] -= 1
        bike["station_id"] = None
        bike["status"] = "in_workshop"
        t["status"] = "in_progress"
        t["history"].append({"date": TODAY, "status": "in_progress", "note": "bike collected from %s" % origin})
        return copy.deepcopy(t)

    def t_add_part(self, ticket_id, part_id, quantity=1):
        t = self._ticket(ticket_id)
        part = self._part(part_id)
        if isinstance(quantity, bool) or not isinstance(quantity, int) or not 1 <= quantity <= 10:
            raise ApiError("quantity must be an integer from 1 to 10")
        self._need_status(t, ("in_progress",), "add parts to")
        model = self._bike(t["bike_id"])["model"]
        if model not in part["fits"]:
            raise ApiError("part %s does not fit a %s bike" % (part_id, model))
        if part["stock"] < quantity:
            raise ApiError("insufficient stock for %s: %d in stock, %d requested" % (part_id, part["stock"], quantity))
        part["stock"] -= quantity
        for item in t["parts"]:
            if item["part_id"] == part_id:
                item["quantity"] += quantity
                break
        else:
            t["parts"].append({"part_id": part_id, "quantity": quantity})
        return copy.deepcopy(t)

    def t_remove_part(self, ticket_id, part_id):
        t = self._ticket(ticket_id)
        self._need_status(t, ("in_progress",), "remove parts from")
        for i, item in enumerate(t["parts"]):
            if item["part_id"] == part_id:
                break
        else:
            raise ApiError("part %s is not on ticket %s" % (part_id, ticket_id))
        del t["parts"][i]
        if part_id in self.db["parts"]:
            self.db["parts"][part_id]["stock"] += item["quantity"]
        return copy.deepcopy(t)

    def t_complete_ticket(self, ticket_id, station_id, labour_hours):
        t = self._ticket(ticket_id)
        self._need_status(t, ("in_progress",), "complete")
        hours = self._hours(labour_hours)
        station = self._station(station_id)
        if station["status"] != "active":
            raise ApiError("station %s is %s" % (station_id, station["status"]))
        if station["docked"] >= station["capacity"]:
            raise ApiError(
                "station %s is full (%d/%d docks in use)" % (station_id, station["docked"], station["capacity"])
            )
        t["labour_hours"] = hours
        t["final_cost"] = self._quote(t, hours)["total"]
        t["status"] = "completed"
        t["closed_on"] = TODAY
        t["history"].append({"date": TODAY, "status": "completed", "note": "returned to %s" % station_id})
        station["docked"] += 1
        bike = self._bike(t["bike_id"])
        bike.update({"status": "available", "station_id": station_id, "open_ticket_id": None, "last_serviced": TODAY})
        return copy.deepcopy(t)

    def t_cancel_ticket(self, ticket_id, reason):
        t = self._ticket(ticket_id)
        if not isinstance(reason, str) or not reason.strip():
            raise ApiError("reason must be a non-empty text")
        self._need_status(t, ("open", "assigned"), "cancel")
        t["status"] = "cancelled"
        t["closed_on"] = TODAY
        t["history"].append({"date": TODAY, "status": "cancelled", "note": reason.strip()})
        bike = self.db["bikes"].get(t["bike_id"])
        if bike is not None and bike["open_ticket_id"] == ticket_id:
            bike["open_ticket_id"] = None
            bike["status"] = "available"
        return copy.deepcopy(t)


def make():
    """Return a fresh workshop (empty until reset)."""
    return Workshop()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json"), encoding="utf-8") as f:
        data = json.load(f)
    calls = errors = trajs = 0
    with open(os.path.join(here, "trajectories.jsonl"), encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            traj = json.loads(line)
            trajs += 1
            ws = make()
            ws.reset(traj.get("initial_state", data))
            for c in traj["calls"]:
                calls += 1
                if not ws.call(c["name"], c["arguments"])["ok"]:
                    errors += 1
    print("trajectories: %d  calls: %d  errors: %d" % (trajs, calls, errors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
