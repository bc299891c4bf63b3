"""Reference implementation of the DeskLoop Service Desk API (Kestrel Valley School District copy).

Standard library only.  make() returns an object with reset(state) / call(name, arguments) / state().
`python3 adapter.py` replays every trajectory in trajectories.jsonl, each from a fresh reset to data.json.
"""

import copy
import json
import os
import sys
from datetime import datetime, timedelta

# The business clock is fixed; the API never reads the system clock.
NOW = datetime(2026, 3, 4, 10, 0)
TODAY = NOW.date()
TS = "%Y-%m-%dT%H:%M"
API_ACTOR = "desk-api"

PRIORITIES = ("P1", "P2", "P3", "P4")
# priority -> (response hours, resolve hours)
SLA_HOURS = {"P1": (1, 8), "P2": (4, 24), "P3": (8, 72), "P4": (24, 120)}
CATEGORY_TEAM = {
    "hardware": "devices",
    "software": "devices",
    "network": "network",
    "account": "accounts",
    "av": "classroom_av",
}
TEAMS = ("devices", "network", "accounts", "classroom_av")
SITES = ("ARHS", "CHHS", "BMS", "DO")
TICKET_STATUSES = ("new", "assigned", "in_progress", "waiting_on_user", "resolved", "closed", "cancelled")
OPEN_STATUSES = ("new", "assigned", "in_progress", "waiting_on_user")
WORKING_STATUSES = ("assigned", "in_progress", "waiting_on_user")
SETTABLE_STATUSES = ("in_progress", "waiting_on_user", "resolved", "closed", "cancelled")
TRANSITIONS = {
    "new": ("cancelled",),
    "assigned": ("in_progress", "cancelled"),
    "in_progress": ("waiting_on_user", "resolved"),
    "waiting_on_user": ("in_progress", "resolved"),
    "resolved": ("closed", "in_progress"),
    "closed": (),
    "cancelled": (),
}
REOPEN_WINDOW_DAYS = 7
MAX_REOPENS = 2
MAX_ESCALATION = 2
MAX_COMMENT_MINUTES = 480

ASSET_TYPES = ("laptop", "chromebook", "tablet", "hotspot", "camera", "projector")
ASSET_STATUSES = ("available", "on_loan", "issued", "in_repair", "retired")
# asset type -> (default loan days, max loan days, late fee per day in cents)
LOAN_RULES = {
    "laptop": (14, 30, 300),
    "chromebook": (14, 30, 150),
    "tablet": (7, 14, 150),
    "hotspot": (7, 14, 100),
    "camera": (2, 3, 500),
    "projector": (1, 3, 500),
}
STUDENT_LOAN_TYPES = ("chromebook", "tablet", "hotspot")
STUDENT_MAX_LOAN_DAYS = 14
MAX_ACTIVE_LOANS = {"student": 1, "staff": 2}
LATE_FEE_CAP_PCT = 25
RETURN_CONDITIONS = ("good", "minor_damage", "major_damage", "lost")
DAMAGE_PCT = {"good": 0, "minor_damage": 15, "major_damage": 60, "lost": 100}
CONDITION_STEPS = ("new", "good", "fair", "poor")
MAX_ISSUE_QUANTITY = 10

# tool -> {parameter: (type, required)}
TOOLS = {
    "search_tickets": {
        "status": ("string", False),
        "priority": ("string", False),
        "team": ("string", False),
        "assignee_id": ("string", False),
        "requester_id": ("string", False),
        "breached": ("boolean", False),
        "limit": ("integer", False),
    },
    "get_ticket": {"ticket_id": ("string", True)},
    "search_assets": {
        "type": ("string", False),
        "site": ("string", False),
        "status": ("string", False),
        "loanable": ("boolean", False),
        "model": ("string", False),
        "limit": ("integer", False),
    },
    "get_person": {"person_id": ("string", False), "email": ("string", False)},
    "create_ticket": {
        "requester_id": ("string", True),
        "category": ("string", True),
        "summary": ("string", True),
        "priority": ("string", False),
        "description": ("string", False),
        "asset_id": ("string", False),
        "site": ("string", False),
    },
    "assign_ticket": {"ticket_id": ("string", True), "technician_id": ("string", True)},
    "update_ticket_status": {
        "ticket_id": ("string", True),
        "status": ("string", True),
        "note": ("string", False),
        "resolution": ("string", False),
    },
    "escalate_ticket": {"ticket_id": ("string", True), "reason": ("string", True)},
    "add_ticket_comment": {
        "ticket_id": ("string", True),
        "author_id": ("string", True),
        "text": ("string", True),
        "visibility": ("string", False),
        "minutes_spent": ("integer", False),
    },
    "create_loan": {
        "asset_id": ("string", True),
        "borrower_id": ("string", True),
        "due_on": ("string", False),
        "department_id": ("string", False),
        "ticket_id": ("string", False),
    },
    "return_loan": {
        "loan_id": ("string", True),
        "condition": ("string", True),
        "waiver_reason": ("string", False),
        "notes": ("string", False),
    },
    "issue_stock": {
        "sku": ("string", True),
        "ticket_id": ("string", True),
        "quantity": ("integer", False),
        "site": ("string", False),
    },
}
WRITE_TOOLS = (
    "create_ticket",
    "assign_ticket",
    "update_ticket_status",
    "escalate_ticket",
    "add_ticket_comment",
    "create_loan",
    "return_loan",
    "issue_stock",
)


class ApiError(Exception):
    pass


def ts(dt):
    return dt.strftime(TS)


def parse_ts(s):
    return datetime.strptime(s, TS)


def parse_date(s, field):
    try:
        return datetime.strptime(s, "%Y-%m-%d").date()
    except (TypeError, ValueError):
        raise ApiError(f"Invalid {field} '{s}': expected a date as YYYY-MM-DD")


def cents(amount):
    return int(round(float(amount) * 100))


def money(c):
    return round(c / 100.0, 2)


def pct_of(c, pct):
    """pct percent of c cents, rounded half up to the cent."""
    return (c * pct + 50) // 100


def check_enum(value, allowed, field):
    if value not in allowed:
        raise ApiError(f"Invalid {field} '{value}': must be one of {', '.join(allowed)}")


def next_id(keys, prefix, width=4):
    nums = [int(k[len(prefix) :]) for k in keys if k.startswith(prefix) and k[len(prefix) :].isdigit()]
    return f"{prefix}{(max(nums) + 1 if nums else 1):0{width}d}"


class DeskLoop:
    def __init__(self):
        self.s = {}

    # ------------------------------------------------------------------ protocol
    def reset(self, state):
        self.s = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.s)

    def call(self, name, arguments):
        spec = TOOLS.get(name)
        if spec is None:
            return {"ok": False, "output": f"Unknown operation '{name}'"}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be a JSON object"}
        try:
            args = self._check_args(name, spec, arguments)
        except ApiError as e:
            return {"ok": False, "output": str(e)}
        snapshot = copy.deepcopy(self.s) if name in WRITE_TOOLS else None
        try:
            out = getattr(self, "op_" + name)(**args)
        except ApiError as e:
            if snapshot is not None:
                self.s = snapshot
            return {"ok": False, "output": str(e)}
        return {"ok": True, "output": out}

    @staticmethod
    def _check_args(name, spec, arguments):
        args = {}
        for key, value in arguments.items():
            if key not in spec:
                raise ApiError(f"Unknown parameter '{key}' for {name}")
            kind = spec[key][0]
            if value is None:
                continue
            if kind == "string" and not isinstance(value, str):
                raise ApiError(f"Parameter '{key}' must be a string")
            if kind == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
                raise ApiError(f"Parameter '{key}' must be an integer")
            if kind == "boolean" and not isinstance(value, bool):
                raise ApiError(f"Parameter '{key}' must be a boolean")
            args[key] = value
        for key, (kind, required) in spec.items():
            if required and (key not in args or (kind == "string" and not args[key].strip())):
                raise ApiError(f"Missing required parameter '{key}'")
        return args

    # ------------------------------------------------------------------ lookups
    def _ticket(self, ticket_id):
        t = self.s["tickets"].get(ticket_id)
        if t is None:
            raise ApiError(f"Ticket {ticket_id} not found")
        return t

    def _person(self, person_id, label="Person"):
        p = self.s["people"].get(person_id)
        if p is None:
            raise ApiError(f"{label} {person_id} not found")
        return p

    def _tech(self, tech_id):
        t = self.s["technicians"].get(tech_id)
        if t is None:
            raise ApiError(f"Technician {tech_id} not found")
        return t

    def _asset(self, asset_id):
        a = self.s["assets"].get(asset_id)
        if a is None:
            raise ApiError(f"Asset {asset_id} not found")
        return a

    def _department(self, dept_id):
        d = self.s["departments"].get(dept_id)
        if d is None:
            raise ApiError(f"Department {dept_id} not found")
        return d

    def _open_load(self, tech_id):
        return sum(
            1 for t in self.s["tickets"].values() if t["assignee_id"] == tech_id and t["status"] in WORKING_STATUSES
        )

    @staticmethod
    def _remaining(dept):
        return cents(dept["annual_device_budget"]) - cents(dept["spent"])

    def _charge(self, dept, kind, amount_c, ref, note):
        all_ids = [c["charge_id"] for d in self.s["departments"].values() for c in d["ledger"]]
        entry = {
            "charge_id": next_id(all_ids, "CH-"),
            "date": TODAY.isoformat(),
            "kind": kind,
            "amount": money(amount_c),
            "ref": ref,
            "note": note,
        }
        dept["ledger"].append(entry)
        dept["spent"] = money(cents(dept["spent"]) + amount_c)
        return entry

    @staticmethod
    def _history(ticket, by, event, detail):
        ticket["history"].append({"at": ts(NOW), "by": by, "event": event, "detail": detail})

    @staticmethod
    def _end_wait(ticket):
        """Leave waiting_on_user: the resolve deadline moves by the whole hours spent waiting."""
        hours = 0
        if ticket.get("waiting_since"):
            hours = int((NOW - parse_ts(ticket["waiting_since"])).total_seconds() // 3600)
            ticket["resolve_due"] = ts(parse_ts(ticket["resolve_due"]) + timedelta(hours=hours))
        ticket["waiting_since"] = None
        return hours

    @staticmethod
    def _is_breached(t):
        return t["status"] in ("new", "assigned", "in_progress") and parse_ts(t["resolve_due"]) < NOW

    @staticmethod
    def _sla(t):
        resp_due = parse_ts(t["response_due"])
        if t["first_response_at"]:
            resp_breached = parse_ts(t["first_response_at"]) > resp_due
        else:
            resp_breached = t["status"] in OPEN_STATUSES and NOW > resp_due
        if t["resolved_at"]:
            res_breached = parse_ts(t["resolved_at"]) > parse_ts(t["resolve_due"])
        else:
            res_breached = DeskLoop._is_breached(t)
        out = {
            "response_breached": resp_breached,
            "resolve_breached": res_breached,
            "paused": t["status"] == "waiting_on_user",
        }
        if t["status"] in OPEN_STATUSES:
            out["hours_to_resolve_due"] = round((parse_ts(t["resolve_due"]) - NOW).total_seconds() / 3600, 1)
        return out

    # ------------------------------------------------------------------ reads
    def op_search_tickets(
        self, status=None, priority=None, team=None, assignee_id=None, requester_id=None, breached=None, limit=20
    ):
        if status is not None:
            check_enum(status, TICKET_STATUSES, "status")
        if priority is not None:
            check_enum(priority, PRIORITIES, "priority")
        if team is not None:
            check_enum(team, TEAMS, "team")
        if assignee_id is not None:
            self._tech(assignee_id)
        if requester_id is not None:
            self._person(requester_id)
        if not 1 <= limit <= 50:
            raise ApiError("limit must be between 1 and 50")
        rows = []
        for t in self.s["tickets"].values():
            if status is not None and t["status"] != status:
                continue
            if priority is not None and t["priority"] != priority:
                continue
            if team is not None and t["team"] != team:
                continue
            if assignee_id is not None and t["assignee_id"] != assignee_id:
                continue
            if requester_id is not None and t["requester_id"] != requester_id:
                continue
            if breached is not None and self._is_breached(t) != breached:
                continue
            rows.append(t)
        rows.sort(key=lambda t: (t["priority"], t["resolve_due"], t["ticket_id"]))
        return {
            "total": len(rows),
            "tickets": [
                {
                    "ticket_id": t["ticket_id"],
                    "summary": t["summary"],
                    "status": t["status"],
                    "priority": t["priority"],
                    "team": t["team"],
                    "assignee_id": t["assignee_id"],
                    "requester_id": t["requester_id"],
                    "escalation_level": t["escalation_level"],
                    "resolve_due": t["resolve_due"],
                    "breached": self._is_breached(t),
                }
                for t in rows[:limit]
            ],
        }

    def op_get_ticket(self, ticket_id):
        t = copy.deepcopy(self._ticket(ticket_id))
        t["sla"] = self._sla(t)
        return t

    def op_search_assets(self, type=None, site=None, status=None, loanable=None, model=None, limit=20):
        if type is not None:
            check_enum(type, ASSET_TYPES, "type")
        if site is not None:
            check_enum(site, SITES, "site")
        if status is not None:
            check_enum(status, ASSET_STATUSES, "status")
        if not 1 <= limit <= 50:
            raise ApiError("limit must be between 1 and 50")
        rows = []
        for a in sorted(self.s["assets"].values(), key=lambda a: a["asset_id"]):
            if type is not None and a["type"] != type:
                continue
            if site is not None and a["site"] != site:
                continue
            if status is not None and a["status"] != status:
                continue
            if loanable is not None and a["loanable"] != loanable:
                continue
            if model is not None and model.lower() not in a["model"].lower():
                continue
            rows.append(a)
        keys = (
            "asset_id",
            "type",
            "model",
            "site",
            "location",
            "status",
            "condition",
            "loanable",
            "replacement_cost",
            "issued_to",
            "current_loan_id",
        )
        return {"total": len(rows), "assets": [{k: a[k] for k in keys} for a in rows[:limit]]}

    def op_get_person(self, person_id=None, email=None):
        if person_id is None and email is None:
            raise ApiError("Provide person_id or email")
        if person_id is not None:
            p = self._person(person_id)
            if email is not None and p["email"].lower() != email.lower():
                raise ApiError(f"Email {email} does not belong to {person_id}")
        else:
            matches = [p for p in self.s["people"].values() if p["email"].lower() == email.lower()]
            if not matches:
                raise ApiError(f"No person with email {email}")
            p = matches[0]
        out = copy.deepcopy(p)
        dept = self.s["departments"][p["department_id"]]
        out["department"] = {
            "department_id": dept["department_id"],
            "name": dept["name"],
            "budget_remaining": money(self._remaining(dept)),
        }
        loans = []
        for ln in sorted(self.s["loans"].values(), key=lambda l: l["loan_id"]):
            if ln["borrower_id"] == p["person_id"] and ln["status"] == "active":
                days = (TODAY - parse_date(ln["due_on"], "due_on")).days
                loans.append(
                    {
                        "loan_id": ln["loan_id"],
                        "asset_id": ln["asset_id"],
                        "asset_type": self.s["assets"][ln["asset_id"]]["type"],
                        "due_on": ln["due_on"],
                        "days_overdue": max(0, days),
                    }
                )
        out["active_loans"] = loans
        out["open_tickets"] = [
            {"ticket_id": t["ticket_id"], "status": t["status"], "priority": t["priority"], "summary": t["summary"]}
            for t in sorted(self.s["tickets"].values(), key=lambda t: t["ticket_id"])
            if t["requester_id"] == p["person_id"] and t["status"] in OPEN_STATUSES
        ]
        return out

    # ------------------------------------------------------------------ tickets
    def op_create_ticket(
        self, requester_id, category, summary, priority="P3", description="", asset_id=None, site=None
    ):
        person = self._person(requester_id, "Requester")
        if person["status"] != "active":
            raise ApiError(f"Requester {requester_id} is inactive and cannot raise tickets")
        check_enum(category, tuple(CATEGORY_TEAM), "category")
        check_enum(priority, PRIORITIES, "priority")
        if person["role"] == "student" and priority == "P1":
            raise ApiError("Students cannot raise P1 tickets; the highest priority for a student request is P2")
        summary = summary.strip()
        if len(summary) > 120:
            raise ApiError("summary must be at most 120 characters")
        if site is None:
            site = person["site"]
        check_enum(site, SITES, "site")
        if asset_id is not None:
            self._asset(asset_id)
            for t in sorted(self.s["tickets"].values(), key=lambda t: t["ticket_id"]):
                if t["asset_id"] == asset_id and t["status"] in OPEN_STATUSES:
                    raise ApiError(
                        f"Asset {asset_id} already has an open ticket ({t['ticket_id']}); add a comment there instead"
                    )
        tid = next_id(self.s["tickets"], "TK-")
        resp_h, res_h = SLA_HOURS[priority]
        t = {
            "ticket_id": tid,
            "requester_id": requester_id,
            "site": site,
            "category": category,
            "team": CATEGORY_TEAM[category],
            "priority": priority,
            "summary": summary,
            "description": description,
            "asset_id": asset_id,
            "status": "new",
            "assignee_id": None,
            "escalation_level": 0,
            "reopen_count": 0,
            "created_at": ts(NOW),
            "response_due": ts(NOW + timedelta(hours=resp_h)),
            "resolve_due": ts(NOW + timedelta(hours=res_h)),
            "first_response_at": None,
            "waiting_since": None,
            "resolved_at": None,
            "resolution": None,
            "sla_met": None,
            "closed_at": None,
            "worklog_minutes": 0,
            "comments": [],
            "history": [],
        }
        self._history(t, requester_id, "created", f"Ticket created with priority {priority}")
        self.s["tickets"][tid] = t
        return copy.deepcopy(t)

    def op_assign_ticket(self, ticket_id, technician_id):
        t = self._ticket(ticket_id)
        tech = self._tech(technician_id)
        if t["status"] not in OPEN_STATUSES:
            raise ApiError(f"Ticket {ticket_id} is {t['status']}; only open tickets can be assigned")
        if t["assignee_id"] == technician_id:
            raise ApiError(f"Ticket {ticket_id} is already assigned to {technician_id}")
        if tech["status"] != "active":
            raise ApiError(f"Technician {technician_id} is on leave and cannot take tickets")
        if tech["team"] != t["team"] and tech["tier"] < 3:
            raise ApiError(
                f"Technician {technician_id} is on the {tech['team']} team; ticket {ticket_id} belongs to {t['team']}"
            )
        needed = t["escalation_level"] + 1
        if tech["tier"] < needed:
            raise ApiError(
                f"Ticket {ticket_id} is at escalation level {t['escalation_level']} and needs a tier "
                f"{needed} or higher technician; {technician_id} is tier {tech['tier']}"
            )
        load = self._open_load(technician_id)
        if load >= tech["max_open_tickets"]:
            raise ApiError(
                f"Technician {technician_id} already has {load} open tickets (limit {tech['max_open_tickets']})"
            )
        previous = t["assignee_id"]
        t["assignee_id"] = technician_id
        detail = f"Assigned to {technician_id}" + (f" (was {previous})" if previous else "")
        self._history(t, API_ACTOR, "assigned", detail)
        if t["status"] == "new":
            t["status"] = "assigned"
            self._history(t, API_ACTOR, "status_changed", "new -> assigned")
        return copy.deepcopy(t)

    def op_update_ticket_status(self, ticket_id, status, note=None, resolution=None):
        t = self._ticket(ticket_id)
        check_enum(status, SETTABLE_STATUSES, "status")
        current = t["status"]
        if current == status:
            raise ApiError(f"Ticket {ticket_id} is already {status}")
        if status not in TRANSITIONS[current]:
            raise ApiError(f"Cannot change ticket {ticket_id} from {current} to {status}")
        note = note.strip() if note else None
        reopening = current == "resolved" and status == "in_progress"
        if status in ("waiting_on_user", "cancelled") and not note:
            raise ApiError(f"A note is required when setting status {status}")
        if reopening:
            if not note:
                raise ApiError("A note with the reason is required to reopen a ticket")
            if t["reopen_count"] >= MAX_REOPENS:
                raise ApiError(
                    f"Ticket {ticket_id} has already been reopened {t['reopen_count']} times; "
                    f"raise a new ticket instead"
                )
            if NOW - parse_ts(t["resolved_at"]) > timedelta(days=REOPEN_WINDOW_DAYS):
                raise ApiError(
                    f"Ticket {ticket_id} was resolved on {t['resolved_at'][:10]}; tickets can only be "
                    f"reopened within {REOPEN_WINDOW_DAYS} days of resolution"
                )
        if status == "resolved":
            if not resolution or not resolution.strip():
                raise ApiError("A resolution is required when resolving a ticket")
            if t["worklog_minutes"] <= 0:
                raise ApiError(
                    f"Ticket {ticket_id} has no logged work; add a comment with minutes_spent before resolving"
                )
        detail = f"{current} -> {status}"
        if current == "waiting_on_user":
            hours = self._end_wait(t)
            detail += f" (SLA paused {hours} h)"
        if reopening:
            t["reopen_count"] += 1
            t["resolved_at"] = None
            t["resolution"] = None
            t["sla_met"] = None
            t["resolve_due"] = ts(NOW + timedelta(hours=SLA_HOURS[t["priority"]][1]))
            self._history(t, API_ACTOR, "reopened", f"Reopen {t['reopen_count']} of {MAX_REOPENS}: {note}")
        elif status == "in_progress" and t["first_response_at"] is None:
            t["first_response_at"] = ts(NOW)
        if status == "waiting_on_user":
            t["waiting_since"] = ts(NOW)
        if status == "resolved":
            t["resolved_at"] = ts(NOW)
            t["resolution"] = resolution.strip()
            t["sla_met"] = NOW <= parse_ts(t["resolve_due"])
        if status == "closed":
            t["closed_at"] = ts(NOW)
        t["status"] = status
        if note and not reopening:
            detail += f": {note}"
        self._history(t, API_ACTOR, "status_changed", detail)
        return copy.deepcopy(t)

    def op_escalate_ticket(self, ticket_id, reason):
        t = self._ticket(ticket_id)
        if t["status"] not in OPEN_STATUSES:
            raise ApiError(f"Ticket {ticket_id} is {t['status']}; only open tickets can be escalated")
        if t["escalation_level"] >= MAX_ESCALATION:
            raise ApiError(f"Ticket {ticket_id} is already at the highest escalation level ({MAX_ESCALATION})")
        old_p = t["priority"]
        new_p = PRIORITIES[max(0, PRIORITIES.index(old_p) - 1)]
        t["escalation_level"] += 1
        t["priority"] = new_p
        created = parse_ts(t["created_at"])
        resp_h, res_h = SLA_HOURS[new_p]
        t["response_due"] = min(t["response_due"], ts(created + timedelta(hours=resp_h)))
        t["resolve_due"] = min(t["resolve_due"], ts(created + timedelta(hours=res_h)))
        self._history(
            t, API_ACTOR, "escalated", f"Level {t['escalation_level']}, priority {old_p} -> {new_p}: {reason.strip()}"
        )
        if t["assignee_id"]:
            tech = self.s["technicians"][t["assignee_id"]]
            if tech["tier"] < t["escalation_level"] + 1:
                self._history(
                    t,
                    API_ACTOR,
                    "unassigned",
                    f"{t['assignee_id']} is tier {tech['tier']}; level {t['escalation_level']} "
                    f"needs tier {t['escalation_level'] + 1}",
                )
                old_status = t["status"]
                t["assignee_id"] = None
                t["waiting_since"] = None
                t["status"] = "new"
                self._history(t, API_ACTOR, "status_changed", f"{old_status} -> new")
        return copy.deepcopy(t)

    def op_add_ticket_comment(self, ticket_id, author_id, text, visibility="public", minutes_spent=0):
        t = self._ticket(ticket_id)
        if t["status"] in ("closed", "cancelled"):
            raise ApiError(f"Ticket {ticket_id} is {t['status']}; comments are no longer accepted")
        check_enum(visibility, ("public", "internal"), "visibility")
        if not 0 <= minutes_spent <= MAX_COMMENT_MINUTES:
            raise ApiError(f"minutes_spent must be between 0 and {MAX_COMMENT_MINUTES}")
        if len(text) > 2000:
            raise ApiError("text must be at most 2000 characters")
        is_tech = author_id in self.s["technicians"]
        if is_tech:
            if self.s["technicians"][author_id]["status"] != "active":
                raise ApiError(f"Technician {author_id} is on leave and cannot post to tickets")
        elif author_id in self.s["people"]:
            if author_id != t["requester_id"]:
                raise ApiError(f"Only the requester ({t['requester_id']}) or a technician can comment on {ticket_id}")
            if visibility == "internal":
                raise ApiError("Requesters cannot post internal comments")
            if minutes_spent:
                raise ApiError("Only technicians can log work minutes")
        else:
            raise ApiError(f"Author {author_id} not found")
        all_ids = [c["comment_id"] for tk in self.s["tickets"].values() for c in tk["comments"]]
        comment = {
            "comment_id": next_id(all_ids, "CM-"),
            "at": ts(NOW),
            "author_id": author_id,
            "visibility": visibility,
            "text": text.strip(),
            "minutes_spent": minutes_spent,
        }
        t["comments"].append(comment)
        t["worklog_minutes"] += minutes_spent
        detail = f"{visibility.capitalize()} comment {comment['comment_id']}"
        if minutes_spent:
            detail += f" ({minutes_spent} min logged)"
        self._history(t, author_id, "comment_added", detail)
        if is_tech and visibility == "public" and t["first_response_at"] is None:
            t["first_response_at"] = ts(NOW)
        if not is_tech and t["status"] == "waiting_on_user":
            hours = self._end_wait(t)
            t["status"] = "in_progress"
            self._history(
                t,
                author_id,
                "status_changed",
                f"waiting_on_user -> in_progress (requester replied; SLA paused {hours} h)",
            )
        return {
            "ticket_id": ticket_id,
            "comment": comment,
            "status": t["status"],
            "worklog_minutes": t["worklog_minutes"],
            "first_response_at": t["first_response_at"],
            "resolve_due": t["resolve_due"],
        }

    # ------------------------------------------------------------------ loans
    def op_create_loan(self, asset_id, borrower_id, due_on=None, department_id=None, ticket_id=None):
        asset = self._asset(asset_id)
        person = self._person(borrower_id, "Borrower")
        if not asset["loanable"]:
            raise ApiError(f"Asset {asset_id} is not in the loan pool")
        if asset["status"] != "available":
            raise ApiError(f"Asset {asset_id} is {asset['status']} and cannot be loaned")
        if person["status"] != "active":
            raise ApiError(f"Borrower {borrower_id} is inactive and cannot borrow equipment")
        student = person["role"] == "student"
        if student and asset["type"] not in STUDENT_LOAN_TYPES:
            raise ApiError(
                f"Students can borrow only {', '.join(STUDENT_LOAN_TYPES)} assets; {asset_id} is a {asset['type']}"
            )
        active = sorted(
            (l for l in self.s["loans"].values() if l["borrower_id"] == borrower_id and l["status"] == "active"),
            key=lambda l: l["loan_id"],
        )
        for ln in active:
            if parse_date(ln["due_on"], "due_on") < TODAY:
                raise ApiError(
                    f"Borrower {borrower_id} has an overdue loan ({ln['loan_id']}, due {ln['due_on']}); "
                    f"it must be returned first"
                )
        limit = MAX_ACTIVE_LOANS[person["role"]]
        if len(active) >= limit:
            raise ApiError(
                f"Borrower {borrower_id} already has {len(active)} active loan(s) (limit {limit} for {person['role']})"
            )
        default_days, max_days, _fee = LOAN_RULES[asset["type"]]
        if student:
            max_days = min(max_days, STUDENT_MAX_LOAN_DAYS)
            default_days = min(default_days, max_days)
        if due_on is None:
            due = TODAY + timedelta(days=default_days)
        else:
            due = parse_date(due_on, "due_on")
            if due <= TODAY:
                raise ApiError(f"due_on must be after {TODAY.isoformat()}")
            if (due - TODAY).days > max_days:
                raise ApiError(
                    f"Loan period for a {asset['type']} is at most {max_days} days"
                    f"{' for students' if student else ''}; due_on {due.isoformat()} is "
                    f"{(due - TODAY).days} days away"
                )
        if department_id is None:
            department_id = person["department_id"]
        self._department(department_id)
        if student and department_id != person["department_id"]:
            raise ApiError(f"Loans to students are charged to {person['department_id']}")
        if ticket_id is not None:
            self._ticket(ticket_id)
        lid = next_id(self.s["loans"], "LN-")
        loan = {
            "loan_id": lid,
            "asset_id": asset_id,
            "borrower_id": borrower_id,
            "department_id": department_id,
            "ticket_id": ticket_id,
            "loaned_on": TODAY.isoformat(),
            "due_on": due.isoformat(),
            "status": "active",
            "returned_on": None,
            "return_condition": None,
            "late_fee": 0.0,
            "late_fee_waived": 0.0,
            "damage_charge": 0.0,
            "charge_ids": [],
            "notes": None,
        }
        self.s["loans"][lid] = loan
        asset["status"] = "on_loan"
        asset["current_loan_id"] = lid
        return copy.deepcopy(loan)

    def op_return_loan(self, loan_id, condition, waiver_reason=None, notes=None):
        loan = self.s["loans"].get(loan_id)
        if loan is None:
            raise ApiError(f"Loan {loan_id} not found")
        if loan["status"] != "active":
            raise ApiError(f"Loan {loan_id} was already closed on {loan['returned_on']} ({loan['status']})")
        check_enum(condition, RETURN_CONDITIONS, "condition")
        asset = self.s["assets"][loan["asset_id"]]
        dept = self.s["departments"][loan["department_id"]]
        days_late = max(0, (TODAY - parse_date(loan["due_on"], "due_on")).days)
        cost_c = cents(asset["replacement_cost"])
        late_c = 0
        if condition != "lost":
            late_c = min(days_late * LOAN_RULES[asset["type"]][2], pct_of(cost_c, LATE_FEE_CAP_PCT))
        waived_c = 0
        if waiver_reason is not None and waiver_reason.strip():
            if late_c == 0:
                raise ApiError(f"Loan {loan_id} has no late fee to waive")
            waived_c, late_c = late_c, 0
        damage_c = pct_of(cost_c, DAMAGE_PCT[condition])
        charges = []
        if late_c:
            charges.append(
                self._charge(
                    dept, "late_fee", late_c, loan_id, f"{days_late} day(s) late, {asset['type']} {asset['asset_id']}"
                )
            )
        if damage_c:
            charges.append(
                self._charge(
                    dept, "damage", damage_c, loan_id, f"{condition} ({DAMAGE_PCT[condition]}% of {money(cost_c):.2f})"
                )
            )
        loan["status"] = "lost" if condition == "lost" else "returned"
        loan["returned_on"] = TODAY.isoformat()
        loan["return_condition"] = condition
        loan["late_fee"] = money(late_c)
        loan["late_fee_waived"] = money(waived_c)
        loan["damage_charge"] = money(damage_c)
        loan["charge_ids"] = loan["charge_ids"] + [c["charge_id"] for c in charges]
        parts = [
            p
            for p in (
                notes.strip() if notes else None,
                f"Late fee waived: {waiver_reason.strip()}" if waived_c else None,
            )
            if p
        ]
        if parts:
            loan["notes"] = "; ".join(parts)
        asset["current_loan_id"] = None
        if condition == "good":
            asset["status"] = "available"
        elif condition == "minor_damage":
            asset["status"] = "available"
            idx = CONDITION_STEPS.index(asset["condition"])
            asset["condition"] = CONDITION_STEPS[min(idx + 1, len(CONDITION_STEPS) - 1)]
        elif condition == "major_damage":
            asset["status"] = "in_repair"
        else:
            asset["status"] = "retired"
            asset["loanable"] = False
        return {
            "loan": copy.deepcopy(loan),
            "days_late": days_late,
            "charges": copy.deepcopy(charges),
            "total_charged": money(late_c + damage_c),
            "asset_status": asset["status"],
            "asset_condition": asset["condition"],
            "department_budget_remaining": money(self._remaining(dept)),
        }

    # ------------------------------------------------------------------ stock
    def op_issue_stock(self, sku, ticket_id, quantity=1, site=None):
        item = self.s["stock"].get(sku)
        if item is None:
            raise ApiError(f"Stock item {sku} not found")
        t = self._ticket(ticket_id)
        if t["status"] not in WORKING_STATUSES:
            raise ApiError(
                f"Stock can only be issued against an assigned, in-progress or waiting ticket; "
                f"{ticket_id} is {t['status']}"
            )
        if not 1 <= quantity <= MAX_ISSUE_QUANTITY:
            raise ApiError(f"quantity must be between 1 and {MAX_ISSUE_QUANTITY}")
        if site is None:
            site = t["site"]
        check_enum(site, SITES, "site")
        on_hand = item["counts"].get(site, 0)
        if on_hand < quantity:
            raise ApiError(f"Only {on_hand} of {sku} in stock at {site} (requested {quantity})")
        dept = self.s["departments"][self.s["people"][t["requester_id"]]["department_id"]]
        cost_c = cents(item["unit_cost"]) * quantity
        remaining = self._remaining(dept)
        if cost_c > remaining:
            raise ApiError(
                f"Department {dept['department_id']} has {money(remaining):.2f} remaining; "
                f"issuing {quantity} x {sku} costs {money(cost_c):.2f}"
            )
        item["counts"][site] = on_hand - quantity
        item["movements"].append(
            {"at": ts(NOW), "site": site, "change": -quantity, "ticket_id": ticket_id, "note": "issued"}
        )
        charge = self._charge(dept, "parts", cost_c, ticket_id, f"{quantity} x {sku}")
        self._history(
            t,
            API_ACTOR,
            "stock_issued",
            f"{quantity} x {sku} from {site} ({money(cost_c):.2f} charged to {dept['department_id']})",
        )
        return {
            "sku": sku,
            "ticket_id": ticket_id,
            "site": site,
            "quantity": quantity,
            "remaining_at_site": item["counts"][site],
            "reorder_needed": item["counts"][site] <= item["reorder_level"],
            "charge": charge,
            "department_budget_remaining": money(self._remaining(dept)),
        }


def make():
    return DeskLoop()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        initial = json.load(f)
    env = make()
    calls = errors = trajectories = 0
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            traj = json.loads(line)
            trajectories += 1
            env.reset(traj.get("initial_state", initial))
            for c in traj["calls"]:
                res = env.call(c["name"], c["arguments"])
                calls += 1
                if not res["ok"]:
                    errors += 1
                    if "-v" in sys.argv:
                        print(f"{traj['id']} {c['name']}: {res['output']}")
    print(f"trajectories: {trajectories}  calls: {calls}  refused: {errors}")


if __name__ == "__main__":
    main()
