"""Alder Hall Residence Office: the real system behind tools.md.

Written for forgegym. MIT License. Standard library only; deterministic (the office's
business date is fixed below, nothing reads the clock).

    make() -> ResidenceOffice with reset(state), call(name, arguments), state()

`python adapter.py` replays every trajectory in trajectories.jsonl from data.json and prints
the number of calls and refused calls.
"""

import copy
import datetime as _dt
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = _dt.date(2025, 10, 14)
TODAY = BUSINESS_DATE.isoformat()

DEPOSIT_REQUIRED = Decimal("300.00")
BALANCE_LIMIT = Decimal("400.00")
SINGLE_PREMIUM = Decimal("180.00")
SUITE_FEE_MONTHLY = Decimal("25.00")
EARLY_RATE = Decimal("0.02")
MOVE_FEE = Decimal("50.00")
EARLY_TERMINATION_FEE = Decimal("150.00")
CHARGE_CAP = Decimal("500.00")
MAX_GUESTS = 2
SCHEDULE_WINDOW_DAYS = 30

ROOM_TYPES = ("single", "double", "suite")
ROOM_STATUSES = ("available", "full", "maintenance")
CATEGORIES = ("plumbing", "electrical", "heating", "furniture", "pest", "damage", "other")
PRIORITIES = ("low", "normal", "urgent")
REQ_STATUSES = ("open", "scheduled", "resolved")
TRANSITIONS = {"open": ("scheduled", "resolved"), "scheduled": ("open", "scheduled", "resolved"), "resolved": ()}
BILLABLE = ("damage", "furniture")
MOVE_REASONS = ("resident_request", "roommate_conflict", "maintenance")
GUEST_ACTIONS = ("add", "remove")


class ToolError(Exception):
    pass


def _d(x):
    return Decimal(str(x))


def _money(x):
    return float(_d(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


# ---------------------------------------------------------------- argument checks


def _req_str(args, key):
    if key not in args or args[key] is None:
        raise ToolError("missing required parameter '%s'" % key)
    v = args[key]
    if not isinstance(v, str) or not v.strip():
        raise ToolError("parameter '%s' must be a non-empty string" % key)
    return v.strip()


def _opt_str(args, key):
    v = args.get(key)
    if v is None:
        return None
    if not isinstance(v, str) or not v.strip():
        raise ToolError("parameter '%s' must be a non-empty string" % key)
    return v.strip()


def _opt_int(args, key):
    v = args.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise ToolError("parameter '%s' must be an integer" % key)
    return v


def _opt_num(args, key):
    v = args.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ToolError("parameter '%s' must be a number" % key)
    return v


def _opt_bool(args, key, default=None):
    v = args.get(key)
    if v is None:
        return default
    if not isinstance(v, bool):
        raise ToolError("parameter '%s' must be true or false" % key)
    return v


def _enum(value, key, allowed):
    if value is not None and value not in allowed:
        raise ToolError("parameter '%s' must be one of: %s" % (key, ", ".join(allowed)))
    return value


def _date(value, key):
    try:
        if len(value) != 10:
            raise ValueError
        return _dt.date.fromisoformat(value)
    except (ValueError, TypeError):
        raise ToolError("'%s' must be a date in YYYY-MM-DD format" % key)


class ResidenceOffice:
    def __init__(self):
        self.db = {"terms": {}, "residents": {}, "rooms": {}, "assignments": {}, "maintenance_requests": {}}

    # ------------------------------------------------------------ protocol
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "t_" + name, None) if isinstance(name, str) else None
        if fn is None:
            return {"ok": False, "output": "Error: unknown tool '%s'" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        snapshot = copy.deepcopy(self.db)
        try:
            out = fn(arguments)
        except ToolError as e:
            self.db = snapshot
            return {"ok": False, "output": "Error: %s" % e}
        return {"ok": True, "output": copy.deepcopy(out)}

    # ------------------------------------------------------------ lookups
    def _get(self, coll, key, label):
        rec = self.db[coll].get(key)
        if rec is None:
            raise ToolError("%s %s not found" % (label, key))
        return rec

    def _resident(self, rid):
        return self._get("residents", rid, "resident")

    def _room(self, rid):
        return self._get("rooms", rid, "room")

    def _assignment(self, aid):
        return self._get("assignments", aid, "assignment")

    def _request(self, mid):
        return self._get("maintenance_requests", mid, "maintenance request")

    def _term(self, tid):
        t = self.db["terms"].get(tid)
        if t is None:
            raise ToolError("unknown term '%s'" % tid)
        return t

    def _bookable_term(self, tid):
        t = self._term(tid)
        if t["status"] == "closed":
            raise ToolError("term %s is closed; only the current and upcoming terms can be quoted or assigned" % tid)
        return t

    def _next_id(self, coll, prefix, start):
        nums = [int(k.split("-")[1]) for k in self.db[coll]]
        return "%s-%d" % (prefix, max(nums) + 1 if nums else start)

    def _next_charge_id(self):
        nums = [int(c["charge_id"].split("-")[1]) for r in self.db["residents"].values() for c in r["charges"]]
        return "DC-%d" % (max(nums) + 1 if nums else 9001)

    def _add_charge(self, resident, amount, description, request_id=None):
        cid = self._next_charge_id()
        resident["charges"].append(
            {
                "charge_id": cid,
                "date": TODAY,
                "amount": _money(amount),
                "description": description,
                "request_id": request_id,
            }
        )
        resident["charges_owed"] = _money(_d(resident["charges_owed"]) + _d(amount))
        return cid

    @staticmethod
    def _refresh_room_status(room):
        if room["status"] == "maintenance":
            return
        room["status"] = "full" if len(room["occupants"]) >= room["capacity"] else "available"

    def _check_room_open(self, room):
        if room["status"] == "maintenance":
            raise ToolError("room %s is closed for maintenance" % room["room_id"])
        if len(room["occupants"]) >= room["capacity"]:
            raise ToolError(
                "room %s is full (%d of %d places taken)" % (room["room_id"], len(room["occupants"]), room["capacity"])
            )

    # ------------------------------------------------------------ reads
    def t_get_resident(self, args):
        return self._resident(_req_str(args, "resident_id"))

    def t_get_room(self, args):
        return self._room(_req_str(args, "room_id"))

    def t_get_assignment(self, args):
        return self._assignment(_req_str(args, "assignment_id"))

    def t_search_rooms(self, args):
        building = _opt_str(args, "building")
        rtype = _enum(_opt_str(args, "room_type"), "room_type", ROOM_TYPES)
        floor = _opt_int(args, "floor")
        has_space = _opt_bool(args, "has_space")
        max_rent = _opt_num(args, "max_rent")
        status = _enum(_opt_str(args, "status"), "status", ROOM_STATUSES)
        out = []
        for rid in sorted(self.db["rooms"]):
            r = self.db["rooms"][rid]
            if building is not None and r["building"].lower() != building.lower():
                continue
            if rtype is not None and r["room_type"] != rtype:
                continue
            if floor is not None and r["floor"] != floor:
                continue
            if status is not None and r["status"] != status:
                continue
            if max_rent is not None and r["monthly_rent"] > max_rent:
                continue
            free = r["status"] != "maintenance" and len(r["occupants"]) < r["capacity"]
            if has_space is not None and free != has_space:
                continue
            out.append(copy.deepcopy(r))
        return out

    def t_list_maintenance_requests(self, args):
        room_id = _opt_str(args, "room_id")
        status = _enum(_opt_str(args, "status"), "status", REQ_STATUSES)
        category = _enum(_opt_str(args, "category"), "category", CATEGORIES)
        priority = _enum(_opt_str(args, "priority"), "priority", PRIORITIES)
        if room_id is not None:
            self._room(room_id)
        out = []
        for mid in sorted(self.db["maintenance_requests"]):
            m = self.db["maintenance_requests"][mid]
            if room_id is not None and m["room_id"] != room_id:
                continue
            if status is not None and m["status"] != status:
                continue
            if category is not None and m["category"] != category:
                continue
            if priority is not None and m["priority"] != priority:
                continue
            out.append(copy.deepcopy(m))
        return out

    # ------------------------------------------------------------ quote
    def t_quote_housing_cost(self, args):
        room = self._room(_req_str(args, "room_id"))
        term = self._bookable_term(_req_str(args, "term"))
        resident_id = _opt_str(args, "resident_id")
        early = _opt_bool(args, "early_payment", False)
        resident = self._resident(resident_id) if resident_id is not None else None
        months = term["months"]
        rent = _d(room["monthly_rent"])
        subtotal = rent * months
        premium = SINGLE_PREMIUM if room["room_type"] == "single" else Decimal("0")
        suite_fee = SUITE_FEE_MONTHLY * months if room["room_type"] == "suite" else Decimal("0")
        discount = Decimal("0")
        if early:
            deadline = _dt.date.fromisoformat(term["early_payment_deadline"])
            if BUSINESS_DATE > deadline:
                raise ToolError(
                    "the early-payment discount for %s closed on %s" % (term["term_id"], term["early_payment_deadline"])
                )
            discount = _d(_money(subtotal * EARLY_RATE))
        housing_total = subtotal + premium + suite_fee - discount
        deposit_due = Decimal("0")
        outstanding = Decimal("0")
        if resident is not None:
            deposit_due = max(DEPOSIT_REQUIRED - _d(resident["deposit_held"]), Decimal("0"))
            outstanding = _d(resident["charges_owed"])
        return {
            "room_id": room["room_id"],
            "room_type": room["room_type"],
            "term": term["term_id"],
            "months": months,
            "monthly_rent": _money(rent),
            "rent_subtotal": _money(subtotal),
            "single_room_premium": _money(premium),
            "suite_common_fee": _money(suite_fee),
            "early_payment_discount": _money(discount),
            "housing_total": _money(housing_total),
            "resident_id": resident_id,
            "deposit_due": _money(deposit_due),
            "outstanding_charges": _money(outstanding),
            "total_due": _money(housing_total + deposit_due + outstanding),
        }

    # ------------------------------------------------------------ writes
    def t_assign_room(self, args):
        resident = self._resident(_req_str(args, "resident_id"))
        room = self._room(_req_str(args, "room_id"))
        term = self._bookable_term(_req_str(args, "term"))
        rid = resident["resident_id"]
        if resident["status"] != "enrolled":
            raise ToolError(
                "resident %s is %s; only enrolled residents can be assigned a room" % (rid, resident["status"])
            )
        if resident["current_assignment_id"]:
            raise ToolError(
                "resident %s already has an active assignment (%s)" % (rid, resident["current_assignment_id"])
            )
        if _d(resident["deposit_held"]) < DEPOSIT_REQUIRED:
            raise ToolError(
                "resident %s has %.2f on deposit; the full %.2f security deposit is required before assignment"
                % (rid, resident["deposit_held"], DEPOSIT_REQUIRED)
            )
        if _d(resident["charges_owed"]) > BALANCE_LIMIT:
            raise ToolError(
                "resident %s owes %.2f in charges; balances over %.2f must be paid down before a new assignment"
                % (rid, resident["charges_owed"], BALANCE_LIMIT)
            )
        self._check_room_open(room)
        aid = self._next_id("assignments", "AS", 5001)
        start = max(_dt.date.fromisoformat(term["start_date"]), BUSINESS_DATE).isoformat()
        rec = {
            "assignment_id": aid,
            "resident_id": rid,
            "room_id": room["room_id"],
            "term": term["term_id"],
            "status": "active",
            "start_date": start,
            "end_date": None,
            "end_reason": None,
            "monthly_rent": room["monthly_rent"],
            "moved_from": None,
        }
        self.db["assignments"][aid] = rec
        room["occupants"].append(rid)
        self._refresh_room_status(room)
        resident["current_assignment_id"] = aid
        return rec

    def t_move_resident(self, args):
        old = self._assignment(_req_str(args, "assignment_id"))
        new_room = self._room(_req_str(args, "new_room_id"))
        reason = _enum(_opt_str(args, "reason"), "reason", MOVE_REASONS) or "resident_request"
        if old["status"] != "active":
            raise ToolError(
                "assignment %s is %s; only active assignments can be moved" % (old["assignment_id"], old["status"])
            )
        if new_room["room_id"] == old["room_id"]:
            raise ToolError("resident is already in room %s" % old["room_id"])
        if old["moved_from"]:
            raise ToolError(
                "resident %s has already moved once in %s (from %s); a second move needs the housing director"
                % (old["resident_id"], old["term"], old["moved_from"])
            )
        self._check_room_open(new_room)
        resident = self._resident(old["resident_id"])
        old_room = self._room(old["room_id"])
        old["status"] = "ended"
        old["end_date"] = TODAY
        old["end_reason"] = "moved to %s" % new_room["room_id"]
        if old["resident_id"] in old_room["occupants"]:
            old_room["occupants"].remove(old["resident_id"])
        self._refresh_room_status(old_room)
        aid = self._next_id("assignments", "AS", 5001)
        rec = {
            "assignment_id": aid,
            "resident_id": old["resident_id"],
            "room_id": new_room["room_id"],
            "term": old["term"],
            "status": "active",
            "start_date": TODAY,
            "end_date": None,
            "end_reason": None,
            "monthly_rent": new_room["monthly_rent"],
            "moved_from": old["assignment_id"],
        }
        self.db["assignments"][aid] = rec
        new_room["occupants"].append(old["resident_id"])
        self._refresh_room_status(new_room)
        resident["current_assignment_id"] = aid
        fee = MOVE_FEE if reason == "resident_request" else Decimal("0")
        if fee:
            self._add_charge(resident, fee, "Room move fee (%s to %s)" % (old_room["room_id"], new_room["room_id"]))
        return {
            "ended_assignment": copy.deepcopy(old),
            "new_assignment": copy.deepcopy(rec),
            "reason": reason,
            "move_fee": _money(fee),
            "charges_owed": resident["charges_owed"],
        }

    def t_check_out_resident(self, args):
        a = self._assignment(_req_str(args, "assignment_id"))
        note = _opt_str(args, "note")
        if a["status"] != "active":
            raise ToolError("assignment %s has already ended" % a["assignment_id"])
        room = self._room(a["room_id"])
        for mid in room["open_requests"]:
            m = self.db["maintenance_requests"][mid]
            if m["category"] == "damage" and m["status"] in ("open", "scheduled"):
                raise ToolError(
                    "room %s has an unresolved damage report (%s); it must be resolved before check-out"
                    % (room["room_id"], mid)
                )
        resident = self._resident(a["resident_id"])
        term = self._term(a["term"])
        fee = Decimal("0")
        if (
            _dt.date.fromisoformat(term["start_date"]) <= BUSINESS_DATE < _dt.date.fromisoformat(term["end_date"])
            and resident["status"] != "withdrawn"
        ):
            fee = EARLY_TERMINATION_FEE
            self._add_charge(resident, fee, "Early termination fee (%s, %s)" % (a["assignment_id"], term["term_id"]))
        deposit = _d(resident["deposit_held"])
        owed = _d(resident["charges_owed"])
        applied = min(deposit, owed)
        refund = deposit - applied
        resident["deposit_held"] = 0.0
        resident["charges_owed"] = _money(owed - applied)
        resident["current_assignment_id"] = None
        resident["registered_guests"] = []
        a["status"] = "ended"
        a["end_date"] = TODAY
        a["end_reason"] = "checked out" + ("; " + note if note else "")
        if a["resident_id"] in room["occupants"]:
            room["occupants"].remove(a["resident_id"])
        self._refresh_room_status(room)
        return {
            "assignment": copy.deepcopy(a),
            "early_termination_fee": _money(fee),
            "deposit_held": _money(deposit),
            "charges_applied": _money(applied),
            "deposit_refund": _money(refund),
            "balance_owed": resident["charges_owed"],
        }

    def t_open_maintenance_request(self, args):
        room = self._room(_req_str(args, "room_id"))
        category = _enum(_req_str(args, "category"), "category", CATEGORIES)
        description = _req_str(args, "description")
        priority = _enum(_opt_str(args, "priority"), "priority", PRIORITIES) or "normal"
        reported_by = _opt_str(args, "reported_by")
        offline = _opt_bool(args, "take_offline", False)
        if reported_by is not None:
            self._resident(reported_by)
            if reported_by not in room["occupants"]:
                raise ToolError("resident %s is not an occupant of room %s" % (reported_by, room["room_id"]))
        for mid in room["open_requests"]:
            m = self.db["maintenance_requests"][mid]
            if m["category"] == category and m["status"] in ("open", "scheduled"):
                raise ToolError(
                    "room %s already has an unresolved %s request (%s); add to that one instead"
                    % (room["room_id"], category, mid)
                )
        if offline:
            if room["occupants"]:
                raise ToolError(
                    "room %s has %d occupant(s); an occupied room cannot be taken offline"
                    % (room["room_id"], len(room["occupants"]))
                )
            room["status"] = "maintenance"
        mid = self._next_id("maintenance_requests", "MR", 7001)
        note = "Request opened" + (" by %s" % reported_by if reported_by else "")
        if offline:
            note += "; room taken offline"
        rec = {
            "request_id": mid,
            "room_id": room["room_id"],
            "category": category,
            "priority": priority,
            "status": "open",
            "description": description,
            "reported_by": reported_by,
            "opened_on": TODAY,
            "scheduled_for": None,
            "resolved_on": None,
            "charge": None,
            "notes": [{"date": TODAY, "status": "open", "note": note}],
        }
        self.db["maintenance_requests"][mid] = rec
        room["open_requests"].append(mid)
        return rec

    def t_update_request_status(self, args):
        m = self._request(_req_str(args, "request_id"))
        new = _enum(_req_str(args, "status"), "status", REQ_STATUSES)
        note = _req_str(args, "note")
        sched = _opt_str(args, "scheduled_for")
        amount = _opt_num(args, "charge_amount")
        charge_rid = _opt_str(args, "charge_resident_id")
        cur = m["status"]
        if new not in TRANSITIONS[cur]:
            if cur == "resolved":
                raise ToolError("request %s is resolved; resolved requests cannot change status" % m["request_id"])
            raise ToolError("request %s cannot go from %s to %s" % (m["request_id"], cur, new))
        if new == "scheduled":
            if sched is None:
                raise ToolError("scheduled_for is required when status is scheduled")
            day = _date(sched, "scheduled_for")
            if day < BUSINESS_DATE or (day - BUSINESS_DATE).days > SCHEDULE_WINDOW_DAYS:
                raise ToolError(
                    "scheduled_for must be between %s and %s"
                    % (TODAY, (BUSINESS_DATE + _dt.timedelta(days=SCHEDULE_WINDOW_DAYS)).isoformat())
                )
        elif sched is not None:
            raise ToolError("scheduled_for is only accepted when status is scheduled")
        if (amount is not None or charge_rid is not None) and new != "resolved":
            raise ToolError("a damage charge can only be billed when resolving a request")
        room = self._room(m["room_id"])
        resident = None
        if amount is not None or charge_rid is not None:
            if amount is None or charge_rid is None:
                raise ToolError("charge_amount and charge_resident_id must be given together")
            if m["category"] not in BILLABLE:
                raise ToolError(
                    "only damage and furniture requests can be billed to a resident (%s is %s)"
                    % (m["request_id"], m["category"])
                )
            if amount <= 0:
                raise ToolError("charge_amount must be greater than 0")
            if _d(amount) > CHARGE_CAP:
                raise ToolError("charge_amount %.2f exceeds the %.2f desk limit" % (amount, CHARGE_CAP))
            resident = self._resident(charge_rid)
            if charge_rid not in room["occupants"]:
                raise ToolError("resident %s is not an occupant of room %s" % (charge_rid, room["room_id"]))
        m["status"] = new
        m["notes"].append({"date": TODAY, "status": new, "note": note})
        if new == "scheduled":
            m["scheduled_for"] = sched
        elif new == "open":
            m["scheduled_for"] = None
        elif new == "resolved":
            m["resolved_on"] = TODAY
            if m["request_id"] in room["open_requests"]:
                room["open_requests"].remove(m["request_id"])
            if resident is not None:
                cid = self._add_charge(resident, amount, "Damage: %s" % m["description"], m["request_id"])
                m["charge"] = {"charge_id": cid, "resident_id": charge_rid, "amount": _money(amount)}
            if room["status"] == "maintenance" and not room["open_requests"]:
                room["status"] = "available"
                self._refresh_room_status(room)
        return m

    def t_update_registered_guests(self, args):
        resident = self._resident(_req_str(args, "resident_id"))
        action = _enum(_req_str(args, "action"), "action", GUEST_ACTIONS)
        guest = _req_str(args, "guest_name")
        rid = resident["resident_id"]
        names = [g["guest_name"].lower() for g in resident["registered_guests"]]
        if action == "add":
            if not resident["current_assignment_id"]:
                raise ToolError("resident %s has no active room assignment" % rid)
            if resident["status"] != "enrolled":
                raise ToolError("resident %s is %s; guests cannot be registered" % (rid, resident["status"]))
            if guest.lower() in names:
                raise ToolError("%s is already registered for resident %s" % (guest, rid))
            if len(names) >= MAX_GUESTS:
                raise ToolError(
                    "resident %s already has %d registered guests (limit %d); remove one first"
                    % (rid, len(names), MAX_GUESTS)
                )
            resident["registered_guests"].append({"guest_name": guest, "added_on": TODAY})
        else:
            if guest.lower() not in names:
                raise ToolError("%s is not on resident %s's guest list" % (guest, rid))
            del resident["registered_guests"][names.index(guest.lower())]
        return {"resident_id": rid, "registered_guests": copy.deepcopy(resident["registered_guests"])}


def make():
    return ResidenceOffice()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = errors = sessions = 0
    used = set()
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            traj = json.loads(line)
            sessions += 1
            env = make()
            env.reset(data)
            for c in traj["calls"]:
                r = env.call(c["name"], c["arguments"])
                used.add(c["name"])
                calls += 1
                if not r["ok"]:
                    errors += 1
    print(
        "sessions: %d  calls: %d  refused: %d (%.1f%%)  tools used: %d"
        % (sessions, calls, errors, 100.0 * errors / max(calls, 1), len(used))
    )
    return 0


if __name__ == "__main__":
    sys.exit(_main())
