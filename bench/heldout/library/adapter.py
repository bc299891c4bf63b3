"""Reference adapter: the Lantern Circulation API of a public library network, over a JSON state.

make() -> Circulation with reset(state), call(name, arguments) -> {"ok": bool, "output": JSON value or str}
and state() -> dict in the layout of data.json (members, titles, copies, loans keyed by id).
A refused or malformed call returns {"ok": False, "output": "Error: ..."}.
The business date is fixed (TODAY); nothing reads the clock or draws random numbers.
Self-test: python adapter.py  (replays every trajectory from data.json and prints counts).
"""

import copy
import datetime
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

TODAY = datetime.date(2025, 3, 14)
BRANCHES = ("Central", "Eastside", "Northgate")
DAILY_FINE = 0.25
FINE_CAP_PER_LOAN = 10.0
LOAN_LIMIT = 5
FINE_BLOCK = 5.0
SUSPEND_AT = 20.0
MAX_RENEWALS = 2
LOAN_STATUSES = ("active", "returned", "lost", "all")


class ApiError(Exception):
    """A refused call; its text is the error message."""


def _money(x):
    return round(float(x) + 0.0, 2)


def _date(s):
    return datetime.date.fromisoformat(s)


def _days_overdue(loan):
    late = (TODAY - _date(loan["due_date"])).days
    return late if late > 0 else 0


def _overdue_fine(days):
    return _money(min(FINE_CAP_PER_LOAN, DAILY_FINE * days))


# name -> (required arguments, optional arguments with their defaults)
SIGNATURES = {
    "get_member": (("member_id",), {}),
    "get_title": (("title_id",), {}),
    "search_catalog": ((), {"query": None, "author": None, "genre": None, "branch": None, "available_only": False}),
    "list_member_loans": (("member_id",), {"status": "active"}),
    "checkout_copy": (("member_id", "copy_id"), {}),
    "return_copy": (("copy_id",), {}),
    "renew_loan": (("loan_id",), {}),
    "place_hold": (("member_id", "title_id"), {}),
    "cancel_hold": (("member_id", "title_id"), {}),
    "pay_fine": (("member_id", "amount"), {}),
    "report_lost": (("loan_id",), {}),
    "quote_fines": (("member_id",), {}),
}
NUMBER_ARGS = {"amount"}
BOOL_ARGS = {"available_only"}


def _check_args(name, arguments):
    """Validate arguments against the tool's signature; return them with defaults filled in."""
    if not isinstance(arguments, dict):
        raise ApiError("arguments must be an object")
    required, optional = SIGNATURES[name]
    for key in arguments:
        if key not in required and key not in optional:
            raise ApiError(f"unexpected argument '{key}' for {name}")
    out = dict(optional)
    for key in required:
        if key not in arguments or arguments[key] is None:
            raise ApiError(f"missing required argument '{key}'")
    for key, value in arguments.items():
        if value is None and key in optional:
            continue
        if key in NUMBER_ARGS:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ApiError(f"argument '{key}' must be a number")
        elif key in BOOL_ARGS:
            if not isinstance(value, bool):
                raise ApiError(f"argument '{key}' must be a boolean")
        elif not isinstance(value, str):
            raise ApiError(f"argument '{key}' must be a string")
        out[key] = value
    return out


class Circulation:
    """The circulation system: one state, twelve operations."""

    def __init__(self):
        self.data = {"members": {}, "titles": {}, "copies": {}, "loans": {}}

    def reset(self, state):
        """Start over from this state (data.json's layout)."""
        self.data = copy.deepcopy(state)

    def state(self):
        """The whole state, deep-copied."""
        return copy.deepcopy(self.data)

    def call(self, name, arguments):
        """Run one operation; errors come back as {"ok": False, "output": "Error: ..."}."""
        if name not in SIGNATURES:
            return {"ok": False, "output": f"Error: unknown tool '{name}'"}
        try:
            args = _check_args(name, arguments)
            out = getattr(self, "_" + name)(**args)
        except ApiError as e:
            return {"ok": False, "output": f"Error: {e}"}
        return {"ok": True, "output": copy.deepcopy(out)}

    # ---- lookups -------------------------------------------------------------------------------
    def _member(self, member_id):
        m = self.data["members"].get(member_id)
        if m is None:
            raise ApiError(f"member {member_id} not found")
        return m

    def _title(self, title_id):
        t = self.data["titles"].get(title_id)
        if t is None:
            raise ApiError(f"title {title_id} not found")
        return t

    def _copy(self, copy_id):
        c = self.data["copies"].get(copy_id)
        if c is None:
            raise ApiError(f"copy {copy_id} not found")
        return c

    def _loan(self, loan_id):
        loan = self.data["loans"].get(loan_id)
        if loan is None:
            raise ApiError(f"loan {loan_id} not found")
        return loan

    def _active_loan_of_copy(self, copy_id):
        for loan in self.data["loans"].values():
            if loan["copy_id"] == copy_id and loan["status"] == "active":
                return loan
        return None

    def _log(self, member, action, ref, amount=0.0):
        member["history"].append({"date": TODAY.isoformat(), "action": action, "ref": ref, "amount": _money(amount)})

    def _charge(self, member, amount):
        member["fines_balance"] = _money(member["fines_balance"] + amount)
        if member["status"] == "active" and member["fines_balance"] >= SUSPEND_AT:
            member["status"] = "suspended"
            self._log(member, "suspended", None)

    def _require_in_good_standing(self, member):
        if member["status"] != "active":
            raise ApiError(f"member {member['member_id']} is {member['status']}")

    def _next_loan_id(self):
        numbers = [int(k[1:]) for k in self.data["loans"] if k[1:].isdigit()]
        return f"L{max(numbers, default=7000) + 1}"

    # ---- reads ---------------------------------------------------------------------------------
    def _get_member(self, member_id):
        return self._member(member_id)

    def _get_title(self, title_id):
        t = dict(self._title(title_id))
        t["copies"] = [
            {"copy_id": c["copy_id"], "branch": c["branch"], "status": c["status"]}
            for _, c in sorted(self.data["copies"].items())
            if c["title_id"] == title_id
        ]
        return t

    def _search_catalog(self, query, author, genre, branch, available_only):
        if branch is not None and branch not in BRANCHES:
            raise ApiError(f"unknown branch '{branch}' (branches: {', '.join(BRANCHES)})")
        results = []
        for tid, t in sorted(self.data["titles"].items()):
            if query is not None and query.strip().lower() not in t["title"].lower():
                continue
            if author is not None and not any(author.strip().lower() in a.lower() for a in t["authors"]):
                continue
            if genre is not None and genre.strip().lower() not in [g.lower() for g in t["genres"]]:
                continue
            copies = [
                c
                for c in self.data["copies"].values()
                if c["title_id"] == tid and c["status"] != "lost" and (branch is None or c["branch"] == branch)
            ]
            if branch is not None and not copies:
                continue
            available = sum(1 for c in copies if c["status"] == "available")
            if available_only and not available:
                continue
            results.append(
                {
                    "title_id": tid,
                    "title": t["title"],
                    "authors": t["authors"],
                    "year": t["year"],
                    "available_copies": available,
                }
            )
        return results

    def _list_member_loans(self, member_id, status):
        self._member(member_id)
        if status not in LOAN_STATUSES:
            raise ApiError(f"status must be one of {', '.join(LOAN_STATUSES)}")
        return [
            loan
            for _, loan in sorted(self.data["loans"].items())
            if loan["member_id"] == member_id and (status == "all" or loan["status"] == status)
        ]

    def _quote_fines(self, member_id):
        member = self._member(member_id)
        overdue = []
        for _, loan in sorted(self.data["loans"].items()):
            if loan["member_id"] != member_id or loan["status"] != "active":
                continue
            days = _days_overdue(loan)
            if days:
                overdue.append({"loan_id": loan["loan_id"], "days_overdue": days, "accrued": _overdue_fine(days)})
        accrued = _money(sum(o["accrued"] for o in overdue))
        return {
            "member_id": member_id,
            "fines_balance": member["fines_balance"],
            "overdue_loans": overdue,
            "accrued_total": accrued,
            "total_due": _money(member["fines_balance"] + accrued),
        }

    # ---- writes --------------------------------------------------------------------------------
    def _checkout_copy(self, member_id, copy_id):
        member = self._member(member_id)
        item = self._copy(copy_id)
        title = self._title(item["title_id"])
        self._require_in_good_standing(member)
        if member["fines_balance"] >= FINE_BLOCK:
            raise ApiError(f"member {member_id} owes {member['fines_balance']:.2f} in fines (limit {FINE_BLOCK:.2f})")
        if member["loans_out"] >= LOAN_LIMIT:
            raise ApiError(f"member {member_id} already has {LOAN_LIMIT} items on loan")
        if item["status"] != "available":
            raise ApiError(f"copy {copy_id} is not available (status: {item['status']})")
        for loan in self.data["loans"].values():
            if loan["member_id"] == member_id and loan["status"] == "active" and loan["title_id"] == title["title_id"]:
                raise ApiError(f"member {member_id} already has a copy of {title['title_id']} on loan")
        queue = title["holds_queue"]
        if queue and queue[0] != member_id:
            raise ApiError(f"title {title['title_id']} is reserved for member {queue[0]} (next in the holds queue)")
        if queue:
            queue.pop(0)
        loan_id = self._next_loan_id()
        loan = {
            "loan_id": loan_id,
            "copy_id": copy_id,
            "title_id": title["title_id"],
            "member_id": member_id,
            "checkout_date": TODAY.isoformat(),
            "due_date": (TODAY + datetime.timedelta(days=title["loan_period_days"])).isoformat(),
            "renewals": 0,
            "status": "active",
            "returned_date": None,
            "fine": 0.0,
        }
        self.data["loans"][loan_id] = loan
        item["status"] = "on_loan"
        member["loans_out"] += 1
        self._log(member, "checkout", loan_id)
        return loan

    def _return_copy(self, copy_id):
        item = self._copy(copy_id)
        loan = self._active_loan_of_copy(copy_id)
        if item["status"] != "on_loan" or loan is None:
            raise ApiError(f"copy {copy_id} is not on loan (status: {item['status']})")
        member = self._member(loan["member_id"])
        fine = _overdue_fine(_days_overdue(loan))
        loan["status"] = "returned"
        loan["returned_date"] = TODAY.isoformat()
        loan["fine"] = fine
        item["status"] = "available"
        member["loans_out"] -= 1
        self._log(member, "return", loan["loan_id"], fine)
        if fine:
            self._charge(member, fine)
        return loan

    def _renew_loan(self, loan_id):
        loan = self._loan(loan_id)
        if loan["status"] != "active":
            raise ApiError(f"loan {loan_id} is {loan['status']}, only active loans can be renewed")
        member = self._member(loan["member_id"])
        title = self._title(loan["title_id"])
        self._require_in_good_standing(member)
        if member["fines_balance"] >= FINE_BLOCK:
            raise ApiError(f"member {member['member_id']} owes {member['fines_balance']:.2f} in fines")
        if loan["renewals"] >= MAX_RENEWALS:
            raise ApiError(f"loan {loan_id} has already been renewed {MAX_RENEWALS} times")
        if _days_overdue(loan):
            raise ApiError(f"loan {loan_id} is overdue (due {loan['due_date']}) and cannot be renewed")
        if title["holds_queue"]:
            raise ApiError(f"title {title['title_id']} has holds waiting; the loan cannot be renewed")
        due = _date(loan["due_date"]) + datetime.timedelta(days=title["loan_period_days"])
        loan["due_date"] = due.isoformat()
        loan["renewals"] += 1
        self._log(member, "renew", loan_id)
        return loan

    def _report_lost(self, loan_id):
        loan = self._loan(loan_id)
        if loan["status"] != "active":
            raise ApiError(f"loan {loan_id} is {loan['status']}, only active loans can be reported lost")
        member = self._member(loan["member_id"])
        title = self._title(loan["title_id"])
        item = self._copy(loan["copy_id"])
        cost = _money(title["replacement_cost"])
        loan["status"] = "lost"
        loan["fine"] = cost
        item["status"] = "lost"
        member["loans_out"] -= 1
        self._log(member, "lost", loan_id, cost)
        self._charge(member, cost)
        return loan

    def _place_hold(self, member_id, title_id):
        member = self._member(member_id)
        title = self._title(title_id)
        self._require_in_good_standing(member)
        if member_id in title["holds_queue"]:
            raise ApiError(f"member {member_id} already has a hold on {title_id}")
        for loan in self.data["loans"].values():
            if loan["member_id"] == member_id and loan["status"] == "active" and loan["title_id"] == title_id:
                raise ApiError(f"member {member_id} already has {title_id} on loan")
        for c in self.data["copies"].values():
            if c["title_id"] == title_id and c["branch"] == member["home_branch"] and c["status"] == "available":
                raise ApiError(f"copy {c['copy_id']} of {title_id} is available at {c['branch']}; check it out instead")
        title["holds_queue"].append(member_id)
        self._log(member, "hold", title_id)
        return {"title_id": title_id, "member_id": member_id, "position": len(title["holds_queue"])}

    def _cancel_hold(self, member_id, title_id):
        member = self._member(member_id)
        title = self._title(title_id)
        if member_id not in title["holds_queue"]:
            raise ApiError(f"member {member_id} has no hold on {title_id}")
        title["holds_queue"].remove(member_id)
        self._log(member, "hold_cancelled", title_id)
        return {"title_id": title_id, "holds_queue": title["holds_queue"]}

    def _pay_fine(self, member_id, amount):
        member = self._member(member_id)
        paid = _money(amount)
        if paid <= 0:
            raise ApiError("amount must be positive")
        if paid > member["fines_balance"]:
            raise ApiError(f"amount {paid:.2f} exceeds the balance of {member['fines_balance']:.2f}")
        member["fines_balance"] = _money(member["fines_balance"] - paid)
        self._log(member, "payment", None, paid)
        if member["status"] == "suspended" and member["fines_balance"] == 0:
            member["status"] = "active"
            self._log(member, "reinstated", None)
        return {
            "member_id": member_id,
            "paid": paid,
            "fines_balance": member["fines_balance"],
            "status": member["status"],
        }


def make():
    """A fresh circulation system with an empty state; call reset(state) first."""
    return Circulation()


if __name__ == "__main__":
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as f:
        data = json.load(f)
    ref, n, errors = make(), 0, 0
    with open(os.path.join(HERE, "trajectories.jsonl"), encoding="utf-8") as f:
        for line in f:
            t = json.loads(line)
            ref.reset(t.get("initial_state", data))
            for c in t["calls"]:
                n += 1
                errors += not ref.call(c["name"], c["arguments"])["ok"]
    print(f"calls {n}, errors {errors}")
