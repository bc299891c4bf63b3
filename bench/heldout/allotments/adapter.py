"""Fernbrook Allotment Society office: the real system behind tools.json.

Written for forgegym. MIT License. Standard library only; deterministic (the office's
business date is fixed below, nothing reads the clock).

    make() -> Office with reset(state), call(name, arguments), state()

`python adapter.py` replays every trajectory in trajectories.jsonl from data.json and prints
the number of calls and refused calls.
"""

import copy
import datetime as _dt
import json
import os
import sys
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = _dt.date(2025, 4, 12)
SEASON_YEAR = 2025
SITES = ("Northfield", "Mill Lane", "Orchard Corner")
PLOT_STATUSES = ("vacant", "let", "overgrown")
TENANCY_STATUSES = ("active", "ended")
RESULTS = ("pass", "fail")
CONDITIONS = ("good", "damaged")

CONCESSION_RATE = Decimal("0.50")
WATER_SURCHARGE = Decimal("18.00")
HALF_YEAR_FROM = (7, 1)  # tenancies starting on or after 1 July pay half a year
SECOND_PLOT_HOURS = 20
SECOND_PLOT_MAX_SQM = 60
MAX_ACTIVE_TENANCIES = 2
BASE_LOAN_LIMIT = 2
VOLUNTEER_LOAN_LIMIT = 3
VOLUNTEER_LOAN_HOURS = 10
LATE_FEE_CAP = Decimal("20.00")
REPAIR_CHARGE = Decimal("10.00")
MAX_WAITING_ENTRIES = 2
WARNINGS_FOR_NOTICE = 3
REFUND_SHARE = Decimal("0.50")


class ToolError(Exception):
    pass


def _money(x):
    return float(Decimal(x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def _d(x):
    return Decimal(str(x))


# ---------------------------------------------------------------- argument checks


def _check_known(args, allowed):
    for k in args:
        if k not in allowed:
            raise ToolError("unexpected parameter '%s'" % k)


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


def _site(value):
    if value is None:
        return None
    for s in SITES:
        if s.lower() == value.lower():
            return s
    raise ToolError("unknown site '%s' (sites: %s)" % (value, ", ".join(SITES)))


def _date(value, key):
    try:
        if len(value) != 10:
            raise ValueError
        return _dt.date.fromisoformat(value)
    except (ValueError, TypeError):
        raise ToolError("'%s' must be a date in YYYY-MM-DD format" % key)


class Office:
    def __init__(self):
        self.db = {"plotholders": {}, "plots": {}, "tenancies": {}, "waiting_list": {}, "tools": {}}

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
            _check_known(arguments, PARAMS[name])
            out = fn(arguments)
        except ToolError as e:
            self.db = snapshot
            return {"ok": False, "output": "Error: %s" % e}
        return {"ok": True, "output": copy.deepcopy(out)}

    # ------------------------------------------------------------ lookups
    def _holder(self, pid):
        p = self.db["plotholders"].get(pid)
        if p is None:
            raise ToolError("plotholder %s not found" % pid)
        return p

    def _plot(self, pid):
        p = self.db["plots"].get(pid)
        if p is None:
            raise ToolError("plot %s not found" % pid)
        return p

    def _tenancy(self, tid):
        t = self.db["tenancies"].get(tid)
        if t is None:
            raise ToolError("tenancy %s not found" % tid)
        return t

    def _tool(self, tid):
        t = self.db["tools"].get(tid)
        if t is None:
            raise ToolError("tool %s not found" % tid)
        return t

    def _active_tenancies(self, pid):
        return [
            self.db["tenancies"][k]
            for k in sorted(self.db["tenancies"])
            if self.db["tenancies"][k]["plotholder_id"] == pid and self.db["tenancies"][k]["status"] == "active"
        ]

    def _active_tenancy_for_plot(self, plot_id):
        for k in sorted(self.db["tenancies"]):
            t = self.db["tenancies"][k]
            if t["plot_id"] == plot_id and t["status"] == "active":
                return t
        return None

    def _waiting(self, site=None, pid=None):
        rows = []
        for k in sorted(self.db["waiting_list"]):
            e = self.db["waiting_list"][k]
            if e["status"] != "waiting":
                continue
            if site is not None and e["preferred_site"] != site:
                continue
            if pid is not None and e["plotholder_id"] != pid:
                continue
            rows.append(e)
        rows.sort(key=lambda e: (e["position"], e["entry_id"]))
        return rows

    def _close_entry(self, entry, status):
        pos = entry["position"]
        site = entry["preferred_site"]
        entry["status"] = status
        entry["position"] = None
        entry["closed_on"] = BUSINESS_DATE.isoformat()
        for e in self._waiting(site=site):
            if e["position"] > pos:
                e["position"] -= 1

    def _next_id(self, ids, prefix, first):
        nums = [int(k.split("-")[1]) for k in ids if k.startswith(prefix + "-")]
        return "%s-%d" % (prefix, max(nums) + 1 if nums else first)

    def _all_loan_ids(self):
        ids = []
        for p in self.db["plotholders"].values():
            ids.extend(ln["loan_id"] for ln in p["loans"])
        for t in self.db["tools"].values():
            ids.extend(h["loan_id"] for h in t["loan_history"])
        return ids

    def _start_date(self, args):
        raw = _opt_str(args, "start_date")
        if raw is None:
            return BUSINESS_DATE
        start = _date(raw, "start_date")
        if start < BUSINESS_DATE:
            raise ToolError("start_date %s is in the past (today is %s)" % (raw, BUSINESS_DATE.isoformat()))
        if start.year != SEASON_YEAR:
            raise ToolError("start_date must fall within the %d season" % SEASON_YEAR)
        return start

    def _rent(self, plot, concession, start):
        base = _d(_money(_d(plot["size_sqm"]) * _d(plot["rate_per_sqm"])))
        discount = _d(_money(base * CONCESSION_RATE)) if concession else Decimal("0")
        water = WATER_SURCHARGE if plot["water_access"] else Decimal("0")
        subtotal = base - discount + water
        half = (start.month, start.day) >= HALF_YEAR_FROM
        total = subtotal * Decimal("0.5") if half else subtotal
        return {
            "base_rent": _money(base),
            "concession_discount": _money(discount),
            "water_surcharge": _money(water),
            "subtotal": _money(subtotal),
            "proration": "half_year" if half else "full_year",
            "total": _money(total),
        }

    # ------------------------------------------------------------ reads
    def t_get_plotholder(self, args):
        pid = _opt_str(args, "plotholder_id")
        mem = _opt_str(args, "membership_number")
        if (pid is None) == (mem is None):
            raise ToolError("give exactly one of 'plotholder_id' or 'membership_number'")
        if pid is not None:
            return self._holder(pid)
        for k in sorted(self.db["plotholders"]):
            p = self.db["plotholders"][k]
            if p["membership_number"].upper() == mem.upper():
                return p
        raise ToolError("no plotholder with membership number %s" % mem)

    def t_get_plot(self, args):
        plot = self._plot(_req_str(args, "plot_id"))
        out = copy.deepcopy(plot)
        t = self._active_tenancy_for_plot(plot["plot_id"])
        out["current_tenancy_id"] = t["tenancy_id"] if t else None
        return out

    def t_get_tenancy(self, args):
        return self._tenancy(_req_str(args, "tenancy_id"))

    def t_search_plots(self, args):
        site = _site(_opt_str(args, "site"))
        status = _enum(_opt_str(args, "status"), "status", PLOT_STATUSES)
        min_size = _opt_num(args, "min_size_sqm")
        water = _opt_bool(args, "water_access")
        out = []
        for k in sorted(self.db["plots"]):
            p = self.db["plots"][k]
            if site is not None and p["site"] != site:
                continue
            if status is not None and p["status"] != status:
                continue
            if min_size is not None and p["size_sqm"] < min_size:
                continue
            if water is not None and p["water_access"] != water:
                continue
            out.append(copy.deepcopy(p))
        return out

    def t_list_tenancies(self, args):
        pid = _req_str(args, "plotholder_id")
        self._holder(pid)
        status = _enum(_opt_str(args, "status"), "status", TENANCY_STATUSES)
        year = _opt_int(args, "season_year")
        rows = []
        for k in sorted(self.db["tenancies"]):
            t = self.db["tenancies"][k]
            if t["plotholder_id"] != pid:
                continue
            if status is not None and t["status"] != status:
                continue
            if year is not None and t["season_year"] != year:
                continue
            rows.append(
                {
                    "tenancy_id": t["tenancy_id"],
                    "plot_id": t["plot_id"],
                    "site": self.db["plots"][t["plot_id"]]["site"],
                    "season_year": t["season_year"],
                    "status": t["status"],
                    "start_date": t["start_date"],
                    "end_date": t["end_date"],
                    "rent_due": t["rent_due"],
                    "rent_paid": t["rent_paid"],
                    "warnings": t["warnings"],
                }
            )
        return rows

    def t_quote_rent(self, args):
        plot = self._plot(_req_str(args, "plot_id"))
        pid = _opt_str(args, "plotholder_id")
        concession = False
        if pid is not None:
            concession = bool(self._holder(pid)["concession"])
        start = self._start_date(args)
        q = {
            "plot_id": plot["plot_id"],
            "site": plot["site"],
            "size_sqm": plot["size_sqm"],
            "rate_per_sqm": plot["rate_per_sqm"],
            "water_access": plot["water_access"],
            "plotholder_id": pid,
            "concession": concession,
            "start_date": start.isoformat(),
        }
        q.update(self._rent(plot, concession, start))
        return q

    # ------------------------------------------------------------ writes
    def t_let_plot(self, args):
        holder = self._holder(_req_str(args, "plotholder_id"))
        plot = self._plot(_req_str(args, "plot_id"))
        use_credit = _opt_bool(args, "use_credit", False)
        start = self._start_date(args)
        pid = holder["plotholder_id"]
        if holder["status"] != "active":
            raise ToolError("plotholder %s is %s; only active members can take a plot" % (pid, holder["status"]))
        if plot["status"] == "let":
            raise ToolError("plot %s is already let" % plot["plot_id"])
        if plot["status"] == "overgrown":
            raise ToolError(
                "plot %s is overgrown and must be cleared by the society before it is re-let" % plot["plot_id"]
            )
        current = self._active_tenancies(pid)
        if len(current) >= MAX_ACTIVE_TENANCIES:
            raise ToolError("plotholder %s already holds %d plots, the maximum" % (pid, len(current)))
        if current:
            if holder["volunteer_hours"] < SECOND_PLOT_HOURS:
                raise ToolError(
                    "plotholder %s already holds plot %s; a second plot needs %d volunteer hours (has %s)"
                    % (pid, current[0]["plot_id"], SECOND_PLOT_HOURS, holder["volunteer_hours"])
                )
            if plot["size_sqm"] > SECOND_PLOT_MAX_SQM:
                raise ToolError(
                    "a second plot may be at most %d square metres (plot %s is %s)"
                    % (SECOND_PLOT_MAX_SQM, plot["plot_id"], plot["size_sqm"])
                )
        queue = self._waiting(site=plot["site"])
        if queue and queue[0]["plotholder_id"] != pid:
            mine = [e for e in queue if e["plotholder_id"] == pid]
            where = "position %d" % mine[0]["position"] if mine else "not on that list"
            raise ToolError(
                "vacancies at %s go to the waiting list first: position 1 is %s (%s); plotholder %s is %s"
                % (plot["site"], queue[0]["entry_id"], queue[0]["plotholder_id"], pid, where)
            )
        rent = self._rent(plot, holder["concession"], start)
        due = _d(rent["total"])
        paid = Decimal("0")
        if use_credit:
            credit = _d(holder["credit"])
            if credit > 0:
                paid = min(credit, due)
                holder["credit"] = _money(credit - paid)
        tid = self._next_id(self.db["tenancies"], "T", 2001)
        t = {
            "tenancy_id": tid,
            "plotholder_id": pid,
            "plot_id": plot["plot_id"],
            "season_year": SEASON_YEAR,
            "status": "active",
            "start_date": start.isoformat(),
            "end_date": None,
            "rent_due": _money(due),
            "rent_paid": _money(paid),
            "warnings": 0,
            "notice_served": False,
            "inspections": [],
            "refund_amount": None,
            "end_reason": None,
        }
        self.db["tenancies"][tid] = t
        plot["status"] = "let"
        for e in self._waiting(pid=pid):
            if e["status"] != "waiting":
                continue
            self._close_entry(e, "housed" if e["preferred_site"] == plot["site"] else "withdrawn")
        return t

    def t_record_inspection(self, args):
        t = self._tenancy(_req_str(args, "tenancy_id"))
        result = _enum(_req_str(args, "result"), "result", RESULTS)
        inspector = _req_str(args, "inspector")
        notes = _opt_str(args, "notes") or ""
        if t["status"] != "active":
            raise ToolError("tenancy %s has ended; only active tenancies are inspected" % t["tenancy_id"])
        if _dt.date.fromisoformat(t["start_date"]) > BUSINESS_DATE:
            raise ToolError("tenancy %s starts on %s and cannot be inspected yet" % (t["tenancy_id"], t["start_date"]))
        today = BUSINESS_DATE.isoformat()
        if any(i["date"] == today for i in t["inspections"]):
            raise ToolError("tenancy %s has already been inspected today" % t["tenancy_id"])
        t["inspections"].append({"date": today, "result": result, "inspector": inspector, "notes": notes})
        plot = self.db["plots"][t["plot_id"]]
        if result == "fail":
            plot["status"] = "overgrown"
            t["warnings"] += 1
            if t["warnings"] >= WARNINGS_FOR_NOTICE:
                t["notice_served"] = True
        elif plot["status"] == "overgrown":
            plot["status"] = "let"
        return t

    def t_end_tenancy(self, args):
        t = self._tenancy(_req_str(args, "tenancy_id"))
        reason = _opt_str(args, "reason") or "Plotholder request"
        if t["status"] != "active":
            raise ToolError("tenancy %s has already ended (on %s)" % (t["tenancy_id"], t["end_date"]))
        holder = self.db["plotholders"][t["plotholder_id"]]
        if holder["loans"]:
            raise ToolError(
                "plotholder %s still has tool-shed loans out (%s); they must be returned first"
                % (holder["plotholder_id"], ", ".join(ln["loan_id"] for ln in holder["loans"]))
            )
        plot = self.db["plots"][t["plot_id"]]
        paid = _d(t["rent_paid"])
        start = _dt.date.fromisoformat(t["start_date"])
        if plot["status"] == "overgrown":
            refund = Decimal("0")
        elif BUSINESS_DATE < start:
            refund = paid
        elif (BUSINESS_DATE.month, BUSINESS_DATE.day) < HALF_YEAR_FROM:
            refund = paid * REFUND_SHARE
        else:
            refund = Decimal("0")
        refund = _d(_money(refund))
        t["status"] = "ended"
        t["end_date"] = BUSINESS_DATE.isoformat()
        t["refund_amount"] = _money(refund)
        t["end_reason"] = reason
        if plot["status"] != "overgrown":
            plot["status"] = "vacant"
        holder["credit"] = _money(_d(holder["credit"]) + refund)
        return t

    def t_lend_tool(self, args):
        holder = self._holder(_req_str(args, "plotholder_id"))
        tool = self._tool(_req_str(args, "tool_id"))
        days = _opt_int(args, "days")
        pid = holder["plotholder_id"]
        if holder["status"] != "active":
            raise ToolError("plotholder %s is %s; the tool shed lends to active members only" % (pid, holder["status"]))
        if not self._active_tenancies(pid):
            raise ToolError("plotholder %s holds no active tenancy; the tool shed lends to tenants only" % pid)
        overdue = [ln for ln in holder["loans"] if _dt.date.fromisoformat(ln["due_on"]) < BUSINESS_DATE]
        if overdue:
            raise ToolError(
                "plotholder %s has an overdue loan (%s, %s, due %s); return it before borrowing again"
                % (pid, overdue[0]["loan_id"], overdue[0]["tool_name"], overdue[0]["due_on"])
            )
        limit = VOLUNTEER_LOAN_LIMIT if holder["volunteer_hours"] >= VOLUNTEER_LOAN_HOURS else BASE_LOAN_LIMIT
        if len(holder["loans"]) >= limit:
            raise ToolError(
                "plotholder %s already has %d tools out, the limit is %d" % (pid, len(holder["loans"]), limit)
            )
        if tool["status"] == "on_loan":
            due = ""
            lender = self.db["plotholders"].get(tool["on_loan_to"])
            if lender:
                for ln in lender["loans"]:
                    if ln["tool_id"] == tool["tool_id"]:
                        due = ", due back %s" % ln["due_on"]
            raise ToolError("%s (%s) is out on loan%s" % (tool["name"], tool["tool_id"], due))
        if tool["status"] != "available":
            raise ToolError("%s (%s) is away for repair and cannot be lent" % (tool["name"], tool["tool_id"]))
        if days is None:
            days = tool["max_loan_days"]
        if days < 1 or days > tool["max_loan_days"]:
            raise ToolError(
                "%s can be borrowed for 1 to %d days (asked for %d)" % (tool["name"], tool["max_loan_days"], days)
            )
        lid = self._next_id(self._all_loan_ids(), "LN", 5001)
        loan = {
            "loan_id": lid,
            "tool_id": tool["tool_id"],
            "tool_name": tool["name"],
            "lent_on": BUSINESS_DATE.isoformat(),
            "due_on": (BUSINESS_DATE + _dt.timedelta(days=days)).isoformat(),
        }
        holder["loans"].append(loan)
        tool["status"] = "on_loan"
        tool["on_loan_to"] = pid
        out = dict(loan)
        out["plotholder_id"] = pid
        return out

    def t_return_tool(self, args):
        lid = _req_str(args, "loan_id")
        condition = _enum(_opt_str(args, "condition") or "good", "condition", CONDITIONS)
        holder = loan = None
        for k in sorted(self.db["plotholders"]):
            p = self.db["plotholders"][k]
            for ln in p["loans"]:
                if ln["loan_id"] == lid:
                    holder, loan = p, ln
        if loan is None:
            for k in sorted(self.db["tools"]):
                for h in self.db["tools"][k]["loan_history"]:
                    if h["loan_id"] == lid:
                        raise ToolError("loan %s was already returned on %s" % (lid, h["returned_on"]))
            raise ToolError("loan %s not found" % lid)
        tool = self.db["tools"][loan["tool_id"]]
        due = _dt.date.fromisoformat(loan["due_on"])
        late = max(0, (BUSINESS_DATE - due).days)
        fee = min(_d(tool["late_fee_per_day"]) * late, LATE_FEE_CAP)
        repair = REPAIR_CHARGE if condition == "damaged" else Decimal("0")
        charged = fee + repair
        holder["loans"] = [ln for ln in holder["loans"] if ln["loan_id"] != lid]
        holder["credit"] = _money(_d(holder["credit"]) - charged)
        tool["status"] = "repair" if condition == "damaged" else "available"
        tool["on_loan_to"] = None
        tool["loan_history"].append(
            {
                "loan_id": lid,
                "plotholder_id": holder["plotholder_id"],
                "lent_on": loan["lent_on"],
                "due_on": loan["due_on"],
                "returned_on": BUSINESS_DATE.isoformat(),
                "days_late": late,
                "late_fee": _money(fee),
                "condition": condition,
            }
        )
        return {
            "loan_id": lid,
            "tool_id": tool["tool_id"],
            "tool_name": tool["name"],
            "plotholder_id": holder["plotholder_id"],
            "returned_on": BUSINESS_DATE.isoformat(),
            "days_late": late,
            "late_fee": _money(fee),
            "repair_charge": _money(repair),
            "total_charged": _money(charged),
            "credit_balance": holder["credit"],
            "tool_status": tool["status"],
        }

    def t_join_waiting_list(self, args):
        holder = self._holder(_req_str(args, "plotholder_id"))
        site = _site(_req_str(args, "preferred_site"))
        pid = holder["plotholder_id"]
        if holder["status"] != "active":
            raise ToolError(
                "plotholder %s is %s; only active members can join the waiting list" % (pid, holder["status"])
            )
        mine = self._waiting(pid=pid)
        for e in mine:
            if e["preferred_site"] == site:
                raise ToolError(
                    "plotholder %s is already waiting for %s (%s, position %d)"
                    % (pid, site, e["entry_id"], e["position"])
                )
        if len(mine) >= MAX_WAITING_ENTRIES:
            raise ToolError("plotholder %s is already on %d waiting lists, the maximum" % (pid, MAX_WAITING_ENTRIES))
        current = self._active_tenancies(pid)
        if len(current) >= MAX_ACTIVE_TENANCIES:
            raise ToolError("plotholder %s already holds %d plots, the maximum" % (pid, len(current)))
        if current and holder["volunteer_hours"] < SECOND_PLOT_HOURS:
            raise ToolError(
                "plotholder %s already holds a plot; members need %d volunteer hours to wait for a second one (has %s)"
                % (pid, SECOND_PLOT_HOURS, holder["volunteer_hours"])
            )
        eid = self._next_id(self.db["waiting_list"], "WL", 301)
        entry = {
            "entry_id": eid,
            "plotholder_id": pid,
            "preferred_site": site,
            "position": len(self._waiting(site=site)) + 1,
            "joined_on": BUSINESS_DATE.isoformat(),
            "status": "waiting",
            "closed_on": None,
        }
        self.db["waiting_list"][eid] = entry
        return entry


PARAMS = {
    "get_plotholder": ("plotholder_id", "membership_number"),
    "get_plot": ("plot_id",),
    "get_tenancy": ("tenancy_id",),
    "search_plots": ("site", "status", "min_size_sqm", "water_access"),
    "list_tenancies": ("plotholder_id", "status", "season_year"),
    "quote_rent": ("plot_id", "plotholder_id", "start_date"),
    "let_plot": ("plotholder_id", "plot_id", "start_date", "use_credit"),
    "record_inspection": ("tenancy_id", "result", "inspector", "notes"),
    "end_tenancy": ("tenancy_id", "reason"),
    "lend_tool": ("plotholder_id", "tool_id", "days"),
    "return_tool": ("loan_id", "condition"),
    "join_waiting_list": ("plotholder_id", "preferred_site"),
}


def make():
    return Office()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = errors = sessions = 0
    used = {}
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
                calls += 1
                used[c["name"]] = used.get(c["name"], 0) + 1
                if not r["ok"]:
                    errors += 1
    print("sessions: %d  calls: %d  refused: %d  tools used: %d" % (sessions, calls, errors, len(used)))


if __name__ == "__main__":
    sys.exit(_main())
