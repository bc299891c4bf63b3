"""Kestrel Mobile customer-support desk: the real implementation behind tools.json and policy.md.

make() returns a desk with reset(state), call(name, arguments) and state(); `python adapter.py` replays
every session of trajectories.jsonl from data.json and prints the number of calls and refusals.
Standard library only. The business date is fixed; new ids are derived from the records in the state.
"""

import calendar
import copy
import datetime
import json
import os
import re
import sys

TODAY = datetime.date(2025, 3, 14)
CARD_LIMIT = 1000.00
MAX_ACTIVE_BUNDLES = 3
TOPUP_MIN, TOPUP_MAX, TOPUP_DAILY_LIMIT = 5, 100, 150.00
TOPUP_BONUS_FROM, TOPUP_BONUS = 30, 3.00
ROAMING_MIN_PREPAID_CREDIT = 5.00
SIM_SWAP_FEES = {"lost_stolen": 10.00, "damaged": 5.00, "upgrade": 5.00, "esim_conversion": 0.00}
SIM_SWAP_GAP_DAYS = 30
PAC_BLOCK_AFTER_SWAP_DAYS = 7
PAC_VALID_DAYS = 30
SCHEDULE_WINDOW_DAYS = 30
PREPAID_PLAN_DAYS = 30

# name -> {param: (json type, required, enum or None)}
PARAMS = {
    "get_account": {"account_id": ("string", False, None), "msisdn": ("string", False, None)},
    "list_bills": {
        "account_id": ("string", True, None),
        "status": ("string", False, ["open", "overdue", "paid", "disputed"]),
    },
    "browse_catalog": {
        "kind": ("string", True, ["plans", "addons"]),
        "account_type": ("string", False, ["prepaid", "postpaid"]),
        "include_withdrawn": ("boolean", False, None),
    },
    "change_plan": {"line_id": ("string", True, None), "plan_id": ("string", True, None)},
    "add_bundle": {
        "line_id": ("string", True, None),
        "addon_id": ("string", True, None),
        "start_date": ("string", False, None),
    },
    "cancel_bundle": {"line_id": ("string", True, None), "bundle_ref": ("string", True, None)},
    "manage_line": {
        "line_id": ("string", True, None),
        "action": ("string", True, ["suspend", "reactivate", "roaming_on", "roaming_off"]),
        "reason": ("string", False, ["lost_stolen", "customer_request"]),
    },
    "swap_sim": {
        "line_id": ("string", True, None),
        "new_iccid": ("string", True, None),
        "reason": ("string", True, ["lost_stolen", "damaged", "upgrade", "esim_conversion"]),
    },
    "request_pac": {"line_id": ("string", True, None)},
    "pay_bill": {
        "bill_id": ("string", True, None),
        "amount": ("number", True, None),
        "method": ("string", True, ["card", "account_credit"]),
    },
    "top_up": {"account_id": ("string", True, None), "amount": ("number", True, None)},
    "settle_instalment": {
        "instalment_id": ("string", True, None),
        "method": ("string", True, ["card", "account_credit"]),
    },
}


class DeskError(Exception):
    pass


def _d(s):
    return datetime.date.fromisoformat(s)


def _iso(d):
    return d.isoformat()


def _cents(x):
    return int(round(float(x) * 100))


def _money(c):
    return round(c / 100.0, 2)


def _fmt(x):
    return "%.2f" % x


def _type_ok(value, t):
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return True


def _next_id(prefix, existing, start):
    n = start - 1
    for x in existing:
        if isinstance(x, str) and x.startswith(prefix):
            tail = x[len(prefix) :]
            if tail.isdigit():
                n = max(n, int(tail))
    return "%s%d" % (prefix, n + 1)


class MobileDesk:
    def __init__(self):
        self.s = {}

    # protocol -------------------------------------------------------------------------------------------
    def reset(self, state):
        self.s = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.s)

    def call(self, name, arguments):
        spec = PARAMS.get(name)
        if spec is None:
            return {"ok": False, "output": "Unknown tool: %s" % name}
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Arguments must be a JSON object"}
        for k in arguments:
            if k not in spec:
                return {"ok": False, "output": "Unknown argument '%s' for %s" % (k, name)}
        for k, (t, req, enum) in spec.items():
            if k not in arguments or arguments[k] is None:
                if req:
                    return {"ok": False, "output": "Missing required argument '%s'" % k}
                continue
            v = arguments[k]
            if not _type_ok(v, t):
                return {"ok": False, "output": "Argument '%s' must be a %s" % (k, t)}
            if enum is not None and v not in enum:
                return {"ok": False, "output": "Argument '%s' must be one of: %s" % (k, ", ".join(enum))}
        args = {k: v for k, v in arguments.items() if v is not None}
        work = copy.deepcopy(self.s)
        saved, self.s = self.s, work
        try:
            out = getattr(self, "_t_" + name)(**args)
        except DeskError as e:
            self.s = saved
            return {"ok": False, "output": str(e)}
        return {"ok": True, "output": out}

    # lookups --------------------------------------------------------------------------------------------
    def _account(self, aid):
        a = self.s.get("accounts", {}).get(aid)
        if a is None:
            raise DeskError("Account %s not found" % aid)
        return a

    def _line(self, lid):
        l = self.s.get("lines", {}).get(lid)
        if l is None:
            raise DeskError("Line %s not found" % lid)
        return l

    def _open_account(self, a):
        if a["status"] == "closed":
            raise DeskError("Account %s is closed" % a["account_id"])

    def _overdue_bills(self, aid):
        return sorted(
            b["bill_id"]
            for b in self.s.get("bills", {}).values()
            if b["account_id"] == aid and b["status"] == "overdue"
        )

    @staticmethod
    def _outstanding(b):
        return _money(_cents(b["total"]) - _cents(b["amount_paid"]))

    def _charge(self, account, line_id, amount, description):
        """Prepaid: taken from credit now. Postpaid: added to the next bill. Returns where it went."""
        c = _cents(amount)
        if c == 0:
            return "none"
        if account["type"] == "prepaid":
            bal = _cents(account["credit_balance"])
            if bal < c:
                raise DeskError(
                    "Insufficient credit: %s costs %s, balance is %s"
                    % (description, _fmt(amount), _fmt(account["credit_balance"]))
                )
            account["credit_balance"] = _money(bal - c)
            return "credit"
        account["unbilled_charges"].append(
            {"date": _iso(TODAY), "line_id": line_id, "description": description, "amount": _money(c)}
        )
        return "next_bill"

    def _check_amount(self, amount, name="amount"):
        if abs(amount * 100 - round(amount * 100)) > 1e-6:
            raise DeskError("%s must have at most 2 decimal places" % name)
        if amount <= 0:
            raise DeskError("%s must be greater than 0" % name)

    # reads ----------------------------------------------------------------------------------------------
    def _t_get_account(self, account_id=None, msisdn=None):
        if account_id is None and msisdn is None:
            raise DeskError("Provide account_id or msisdn")
        if account_id is not None and msisdn is not None:
            raise DeskError("Provide either account_id or msisdn, not both")
        if msisdn is not None:
            num = re.sub(r"[\s\-()]", "", msisdn)
            if num.startswith("+44"):
                num = "0" + num[3:]
            elif num.startswith("44") and len(num) == 12:
                num = "0" + num[2:]
            found = [l for l in self.s["lines"].values() if l["msisdn"] == num and l["status"] != "ported_out"]
            if not found:
                raise DeskError("No account found for number %s" % msisdn)
            account_id = found[0]["account_id"]
        a = self._account(account_id)
        out = copy.deepcopy(a)
        out["lines"] = [copy.deepcopy(self.s["lines"][lid]) for lid in a["line_ids"] if lid in self.s["lines"]]
        out["instalments"] = [
            copy.deepcopy(i) for _, i in sorted(self.s["instalments"].items()) if i["account_id"] == a["account_id"]
        ]
        out["unbilled_total"] = _money(sum(_cents(c["amount"]) for c in a["unbilled_charges"]))
        return out

    def _t_list_bills(self, account_id, status=None):
        self._account(account_id)
        bills = [b for b in self.s["bills"].values() if b["account_id"] == account_id]
        if status is not None:
            bills = [b for b in bills if b["status"] == status]
        bills.sort(key=lambda b: (b["issue_date"], b["bill_id"]), reverse=True)
        out = []
        total = 0
        for b in bills:
            x = copy.deepcopy(b)
            x["outstanding"] = self._outstanding(b)
            if b["status"] in ("open", "overdue"):
                total += _cents(x["outstanding"])
            out.append(x)
        return {"account_id": account_id, "bills": out, "total_outstanding": _money(total)}

    def _t_browse_catalog(self, kind, account_type=None, include_withdrawn=False):
        coll = self.s["plans"] if kind == "plans" else self.s["addons"]
        items = []
        for key in sorted(coll):
            x = coll[key]
            if not include_withdrawn and x["status"] != "available":
                continue
            if account_type is not None:
                if kind == "plans" and x["type"] != account_type:
                    continue
                if kind == "addons" and account_type not in x["available_to"]:
                    continue
            items.append(copy.deepcopy(x))
        return {"kind": kind, "items": items}

    # writes ---------------------------------------------------------------------------------------------
    def _t_change_plan(self, line_id, plan_id):
        line = self._line(line_id)
        acc = self._account(line["account_id"])
        self._open_account(acc)
        if line["status"] != "active":
            raise DeskError("Line %s is %s; plan changes need an active line" % (line_id, line["status"]))
        plan = self.s["plans"].get(plan_id)
        if plan is None:
            raise DeskError("Plan %s not found" % plan_id)
        if plan["status"] != "available":
            raise DeskError("Plan %s (%s) is no longer sold" % (plan_id, plan["name"]))
        if plan["type"] != acc["type"]:
            raise DeskError(
                "Plan %s is a %s plan and cannot be used on a %s account" % (plan_id, plan["type"], acc["type"])
            )
        if plan_id == line["plan_id"]:
            raise DeskError("Line %s is already on plan %s" % (line_id, plan_id))
        old = self.s["plans"][line["plan_id"]]
        new_c, old_c = _cents(plan["monthly_fee"]), _cents(old["monthly_fee"])
        result = {"line_id": line_id, "from_plan": old["plan_id"], "to_plan": plan_id}
        if acc["type"] == "prepaid":
            where = self._charge(acc, line_id, plan["monthly_fee"], "Plan %s" % plan_id)
            line["plan_id"] = plan_id
            line["pending_plan_id"] = None
            line["renewal_date"] = _iso(TODAY + datetime.timedelta(days=PREPAID_PLAN_DAYS))
            result.update(
                {
                    "effective": _iso(TODAY),
                    "charge": plan["monthly_fee"],
                    "charged_to": where,
                    "renewal_date": line["renewal_date"],
                    "credit_balance": acc["credit_balance"],
                }
            )
            line["history"].append(
                {
                    "date": _iso(TODAY),
                    "event": "plan_changed",
                    "from": old["plan_id"],
                    "to": plan_id,
                    "charge": plan["monthly_fee"],
                }
            )
            return result
        if new_c > old_c:
            days_in_month = calendar.monthrange(TODAY.year, TODAY.month)[1]
            days_left = days_in_month - TODAY.day + 1
            prorated = int(round((new_c - old_c) * days_left / float(days_in_month)))
            charge = _money(prorated)
            self._charge(
                acc,
                line_id,
                charge,
                "Plan upgrade %s to %s (prorated, %d of %d days)" % (old["plan_id"], plan_id, days_left, days_in_month),
            )
            line["plan_id"] = plan_id
            line["pending_plan_id"] = None
            line["history"].append(
                {"date": _iso(TODAY), "event": "plan_changed", "from": old["plan_id"], "to": plan_id, "charge": charge}
            )
            result.update({"effective": _iso(TODAY), "charge": charge, "charged_to": "next_bill" if charge else "none"})
            return result
        # downgrade or same price: next billing cycle, not inside the minimum term
        if line["contract_end"] and _d(line["contract_end"]) >= TODAY:
            raise DeskError(
                "Line %s is in its minimum term until %s; it cannot move to a cheaper plan before then"
                % (line_id, line["contract_end"])
            )
        if line.get("pending_plan_id") == plan_id:
            raise DeskError("A change to plan %s is already scheduled for line %s" % (plan_id, line_id))
        first_next = (TODAY.replace(day=1) + datetime.timedelta(days=32)).replace(day=1)
        line["pending_plan_id"] = plan_id
        line["history"].append(
            {
                "date": _iso(TODAY),
                "event": "plan_change_scheduled",
                "from": old["plan_id"],
                "to": plan_id,
                "effective": _iso(first_next),
            }
        )
        result.update({"effective": _iso(first_next), "charge": 0.0, "charged_to": "none"})
        return result

    def _active_bundles(self, line):
        return [b for b in line["bundles"] if b["status"] == "active"]

    def _t_add_bundle(self, line_id, addon_id, start_date=None):
        line = self._line(line_id)
        acc = self._account(line["account_id"])
        self._open_account(acc)
        if line["status"] != "active":
            raise DeskError("Line %s is %s; add-ons can only be bought for an active line" % (line_id, line["status"]))
        ad = self.s["addons"].get(addon_id)
        if ad is None:
            raise DeskError("Add-on %s not found" % addon_id)
        if ad["status"] != "available":
            raise DeskError("Add-on %s (%s) is no longer sold" % (addon_id, ad["name"]))
        if acc["type"] not in ad["available_to"]:
            raise DeskError("Add-on %s (%s) is not available on %s accounts" % (addon_id, ad["name"], acc["type"]))
        if start_date is None:
            start = TODAY
        else:
            try:
                start = _d(start_date)
            except ValueError:
                raise DeskError("start_date must be a date in YYYY-MM-DD format")
            if ad["category"] != "roaming" and start != TODAY:
                raise DeskError("Only roaming passes can be scheduled to start on a later date")
            last = TODAY + datetime.timedelta(days=SCHEDULE_WINDOW_DAYS)
            if start < TODAY or start > last:
                raise DeskError("start_date must be between %s and %s" % (_iso(TODAY), _iso(last)))
        if ad["category"] == "roaming":
            if not line["roaming_enabled"]:
                raise DeskError("Roaming is not enabled on line %s" % line_id)
            plan = self.s["plans"][line["plan_id"]]
            if ad["zone"] == "EU" and plan["eu_roaming_included"]:
                raise DeskError("Plan %s on line %s already includes EU roaming" % (plan["plan_id"], line_id))
        active = self._active_bundles(line)
        for b in active:
            if b["addon_id"] == addon_id:
                raise DeskError("Line %s already has an active %s (%s)" % (line_id, addon_id, b["ref"]))
        if len(active) >= MAX_ACTIVE_BUNDLES:
            raise DeskError("Line %s already has %d active add-ons (the maximum)" % (line_id, MAX_ACTIVE_BUNDLES))
        where = self._charge(acc, line_id, ad["price"], "%s %s" % (addon_id, ad["name"]))
        refs = [b["ref"] for l in self.s["lines"].values() for b in l["bundles"]]
        ref = _next_id("BN-", refs, 5001)
        bundle = {
            "ref": ref,
            "addon_id": addon_id,
            "purchased": _iso(TODAY),
            "starts": _iso(start),
            "expires": _iso(start + datetime.timedelta(days=ad["validity_days"])),
            "price_paid": ad["price"],
            "status": "active",
        }
        line["bundles"].append(bundle)
        return {
            "line_id": line_id,
            "bundle": copy.deepcopy(bundle),
            "charged": ad["price"],
            "charged_to": where,
            "credit_balance": acc["credit_balance"],
        }

    def _t_cancel_bundle(self, line_id, bundle_ref):
        line = self._line(line_id)
        acc = self._account(line["account_id"])
        self._open_account(acc)
        b = next((x for x in line["bundles"] if x["ref"] == bundle_ref), None)
        if b is None:
            raise DeskError("Bundle %s not found on line %s" % (bundle_ref, line_id))
        if b["status"] != "active":
            raise DeskError("Bundle %s is %s" % (bundle_ref, b["status"]))
        ad = self.s["addons"][b["addon_id"]]
        starts = _d(b["starts"])
        if ad["category"] == "roaming" and starts <= TODAY:
            raise DeskError("Roaming pass %s started on %s and cannot be cancelled" % (bundle_ref, b["starts"]))
        if starts > TODAY or b["purchased"] == _iso(TODAY):
            refund = b["price_paid"]
        else:
            refund = 0.0
        b["status"] = "cancelled"
        b["cancelled_on"] = _iso(TODAY)
        if refund:
            acc["credit_balance"] = _money(_cents(acc["credit_balance"]) + _cents(refund))
            acc["history"].append(
                {
                    "date": _iso(TODAY),
                    "event": "refund_to_credit",
                    "amount": refund,
                    "note": "Cancelled %s" % bundle_ref,
                }
            )
        return {
            "line_id": line_id,
            "bundle_ref": bundle_ref,
            "status": "cancelled",
            "refund": refund,
            "credit_balance": acc["credit_balance"],
        }

    def _t_manage_line(self, line_id, action, reason=None):
        line = self._line(line_id)
        acc = self._account(line["account_id"])
        self._open_account(acc)
        if line["status"] in ("terminated", "ported_out"):
            raise DeskError("Line %s is %s" % (line_id, line["status"]))
        if action == "suspend":
            if reason is None:
                raise DeskError("A reason is required to suspend a line")
            if line["status"] != "active":
                raise DeskError("Line %s is not active (status: %s)" % (line_id, line["status"]))
            line["status"] = "suspended"
            line["suspension_reason"] = reason
            line["suspended_on"] = _iso(TODAY)
            line["history"].append({"date": _iso(TODAY), "event": "suspended", "reason": reason})
        elif action == "reactivate":
            if line["status"] != "suspended":
                raise DeskError("Line %s is not suspended" % line_id)
            why = line["suspension_reason"]
            if why == "lost_stolen":
                raise DeskError("Line %s was reported lost or stolen; a SIM swap is needed to reactivate it" % line_id)
            if why == "non_payment":
                overdue = self._overdue_bills(acc["account_id"])
                if overdue:
                    raise DeskError(
                        "Line %s is barred for non-payment; overdue bill %s must be paid first" % (line_id, overdue[0])
                    )
            line["status"] = "active"
            line["suspension_reason"] = None
            line["suspended_on"] = None
            line["history"].append({"date": _iso(TODAY), "event": "reactivated"})
        elif action == "roaming_on":
            if line["roaming_enabled"]:
                raise DeskError("Roaming is already enabled on line %s" % line_id)
            if acc["type"] == "postpaid":
                overdue = self._overdue_bills(acc["account_id"])
                if overdue:
                    raise DeskError(
                        "Roaming cannot be enabled while account %s has an overdue bill (%s)"
                        % (acc["account_id"], overdue[0])
                    )
            elif _cents(acc["credit_balance"]) < _cents(ROAMING_MIN_PREPAID_CREDIT):
                raise DeskError(
                    "Prepaid lines need at least %s credit to enable roaming (balance %s)"
                    % (_fmt(ROAMING_MIN_PREPAID_CREDIT), _fmt(acc["credit_balance"]))
                )
            line["roaming_enabled"] = True
            line["history"].append({"date": _iso(TODAY), "event": "roaming_enabled"})
        else:  # roaming_off
            if not line["roaming_enabled"]:
                raise DeskError("Roaming is already disabled on line %s" % line_id)
            line["roaming_enabled"] = False
            line["history"].append({"date": _iso(TODAY), "event": "roaming_disabled"})
        return {
            "line_id": line_id,
            "status": line["status"],
            "suspension_reason": line["suspension_reason"],
            "roaming_enabled": line["roaming_enabled"],
        }

    def _t_swap_sim(self, line_id, new_iccid, reason):
        line = self._line(line_id)
        acc = self._account(line["account_id"])
        self._open_account(acc)
        if line["status"] in ("terminated", "ported_out"):
            raise DeskError("Line %s is %s" % (line_id, line["status"]))
        if line["status"] == "suspended" and line["suspension_reason"] == "non_payment":
            raise DeskError("Line %s is barred for non-payment; SIM swaps are not available" % line_id)
        if not re.fullmatch(r"8944\d{15,16}", new_iccid):
            raise DeskError("new_iccid must be a 19 or 20 digit ICCID starting with 8944")
        for other in self.s["lines"].values():
            if other["sim"]["iccid"] == new_iccid:
                raise DeskError("SIM %s is already assigned to line %s" % (new_iccid, other["line_id"]))
        if reason == "esim_conversion" and line["sim"]["type"] == "esim":
            raise DeskError("Line %s already uses an eSIM" % line_id)
        for h in reversed(line["history"]):
            if h.get("event") == "sim_swap":
                if (TODAY - _d(h["date"])).days < SIM_SWAP_GAP_DAYS:
                    raise DeskError(
                        "Line %s had a SIM swap on %s; only one swap is allowed every %d days"
                        % (line_id, h["date"], SIM_SWAP_GAP_DAYS)
                    )
                break
        fee = SIM_SWAP_FEES[reason]
        where = self._charge(acc, line_id, fee, "SIM swap fee (%s)" % reason)
        old = line["sim"]["iccid"]
        sim_type = "esim" if reason == "esim_conversion" else line["sim"]["type"]
        line["sim"] = {"iccid": new_iccid, "type": sim_type, "issued": _iso(TODAY)}
        line["history"].append(
            {
                "date": _iso(TODAY),
                "event": "sim_swap",
                "old_iccid": old,
                "new_iccid": new_iccid,
                "reason": reason,
                "fee": fee,
            }
        )
        pac_cancelled = False
        if line["pac"] and line["pac"].get("status") == "issued":
            line["pac"]["status"] = "cancelled"
            pac_cancelled = True
        reactivated = False
        if line["status"] == "suspended" and line["suspension_reason"] == "lost_stolen":
            line["status"] = "active"
            line["suspension_reason"] = None
            line["suspended_on"] = None
            line["history"].append({"date": _iso(TODAY), "event": "reactivated"})
            reactivated = True
        return {
            "line_id": line_id,
            "iccid": new_iccid,
            "sim_type": sim_type,
            "fee": fee,
            "charged_to": where,
            "line_status": line["status"],
            "reactivated": reactivated,
            "pac_cancelled": pac_cancelled,
        }

    def _t_request_pac(self, line_id):
        line = self._line(line_id)
        acc = self._account(line["account_id"])
        self._open_account(acc)
        if line["status"] != "active":
            raise DeskError("Line %s is %s; a PAC can only be issued for an active line" % (line_id, line["status"]))
        for h in reversed(line["history"]):
            if h.get("event") == "sim_swap":
                until = _d(h["date"]) + datetime.timedelta(days=PAC_BLOCK_AFTER_SWAP_DAYS)
                if TODAY < until:
                    raise DeskError(
                        "Line %s had a SIM swap on %s; a PAC cannot be issued before %s"
                        % (line_id, h["date"], _iso(until))
                    )
                break
        pac = line.get("pac")
        if pac and pac.get("status") == "issued" and _d(pac["expires"]) >= TODAY:
            new = False
        else:
            codes = []
            for l in self.s["lines"].values():
                if l.get("pac"):
                    codes.append(l["pac"]["code"])
                codes += [h.get("code") for h in l["history"] if h.get("code")]
            code = _next_id("KST", codes, 480101)
            pac = {
                "code": code,
                "issued": _iso(TODAY),
                "expires": _iso(TODAY + datetime.timedelta(days=PAC_VALID_DAYS)),
                "status": "issued",
            }
            line["pac"] = pac
            line["history"].append({"date": _iso(TODAY), "event": "pac_issued", "code": code})
            new = True
        plan = self.s["plans"][line["plan_id"]]
        etf = 0
        months = 0
        if acc["type"] == "postpaid" and line["contract_end"] and _d(line["contract_end"]) >= TODAY:
            ce = _d(line["contract_end"])
            months = (ce.year - TODAY.year) * 12 + (ce.month - TODAY.month)
            etf = int(round(_cents(plan["monthly_fee"]) * months * 0.5))
        device = sum(
            _cents(i["remaining_balance"])
            for i in self.s["instalments"].values()
            if i["line_id"] == line_id and i["status"] in ("active", "in_arrears")
        )
        return {
            "line_id": line_id,
            "msisdn": line["msisdn"],
            "pac": pac["code"],
            "expires": pac["expires"],
            "new": new,
            "months_left_in_term": months,
            "early_termination_charge": _money(etf),
            "device_balance_due": _money(device),
        }

    def _payment_ids(self):
        ids = [p["payment_id"] for b in self.s["bills"].values() for p in b["payments"]]
        ids += [i["settlement"]["payment_id"] for i in self.s["instalments"].values() if i.get("settlement")]
        return ids

    def _take_payment(self, acc, amount, method):
        if method == "card":
            if _cents(amount) > _cents(CARD_LIMIT):
                raise DeskError("Card payments are limited to %s per transaction" % _fmt(CARD_LIMIT))
        else:
            if _cents(acc["credit_balance"]) < _cents(amount):
                raise DeskError("Insufficient account credit (balance %s)" % _fmt(acc["credit_balance"]))
            acc["credit_balance"] = _money(_cents(acc["credit_balance"]) - _cents(amount))

    def _t_pay_bill(self, bill_id, amount, method):
        b = self.s["bills"].get(bill_id)
        if b is None:
            raise DeskError("Bill %s not found" % bill_id)
        if b["status"] == "paid":
            raise DeskError("Bill %s is already paid" % bill_id)
        if b["status"] == "disputed":
            raise DeskError("Bill %s is under dispute and cannot be paid until the dispute is resolved" % bill_id)
        self._check_amount(amount)
        outstanding = self._outstanding(b)
        if _cents(amount) > _cents(outstanding):
            raise DeskError(
                "Amount %s exceeds the outstanding balance of %s on bill %s"
                % (_fmt(amount), _fmt(outstanding), bill_id)
            )
        acc = self._account(b["account_id"])
        self._take_payment(acc, amount, method)
        pid = _next_id("PY-", self._payment_ids(), 9001)
        pay = {"payment_id": pid, "date": _iso(TODAY), "amount": _money(_cents(amount)), "method": method}
        b["payments"].append(pay)
        b["amount_paid"] = _money(_cents(b["amount_paid"]) + _cents(amount))
        restored = []
        if _cents(b["amount_paid"]) >= _cents(b["total"]):
            b["status"] = "paid"
            if not self._overdue_bills(acc["account_id"]):
                for lid in acc["line_ids"]:
                    l = self.s["lines"].get(lid)
                    if l and l["status"] == "suspended" and l["suspension_reason"] == "non_payment":
                        l["status"] = "active"
                        l["suspension_reason"] = None
                        l["suspended_on"] = None
                        l["history"].append({"date": _iso(TODAY), "event": "reactivated"})
                        restored.append(lid)
                if acc["status"] == "suspended":
                    acc["status"] = "active"
                    acc["history"].append({"date": _iso(TODAY), "event": "account_restored"})
        return {
            "payment": pay,
            "bill_id": bill_id,
            "bill_status": b["status"],
            "outstanding": self._outstanding(b),
            "lines_restored": restored,
            "credit_balance": acc["credit_balance"],
        }

    def _t_top_up(self, account_id, amount):
        acc = self._account(account_id)
        self._open_account(acc)
        if acc["type"] != "prepaid":
            raise DeskError("Account %s is a postpaid account; top-ups are for prepaid accounts only" % account_id)
        if amount != int(amount) or not (TOPUP_MIN <= amount <= TOPUP_MAX):
            raise DeskError("Top-up amount must be a whole number from %d to %d" % (TOPUP_MIN, TOPUP_MAX))
        today_total = sum(
            _cents(h["amount"]) for h in acc["history"] if h.get("event") == "top_up" and h.get("date") == _iso(TODAY)
        )
        if today_total + _cents(amount) > _cents(TOPUP_DAILY_LIMIT):
            raise DeskError(
                "Daily top-up limit of %s reached: %s already topped up today"
                % (_fmt(TOPUP_DAILY_LIMIT), _fmt(_money(today_total)))
            )
        bonus = TOPUP_BONUS if amount >= TOPUP_BONUS_FROM else 0.0
        refs = [h.get("ref") for a in self.s["accounts"].values() for h in a["history"]]
        ref = _next_id("TU-", refs, 6001)
        acc["credit_balance"] = _money(_cents(acc["credit_balance"]) + _cents(amount) + _cents(bonus))
        acc["history"].append(
            {"date": _iso(TODAY), "event": "top_up", "ref": ref, "amount": _money(_cents(amount)), "bonus": bonus}
        )
        return {
            "account_id": account_id,
            "ref": ref,
            "amount": _money(_cents(amount)),
            "bonus": bonus,
            "credit_balance": acc["credit_balance"],
        }

    def _t_settle_instalment(self, instalment_id, method):
        ip = self.s["instalments"].get(instalment_id)
        if ip is None:
            raise DeskError("Instalment plan %s not found" % instalment_id)
        if ip["status"] == "paid_off":
            raise DeskError("Instalment plan %s is already paid off" % instalment_id)
        if ip["status"] == "in_arrears":
            raise DeskError(
                "Instalment plan %s is in arrears; it cannot be settled early until the overdue "
                "bills are paid" % instalment_id
            )
        acc = self._account(ip["account_id"])
        self._open_account(acc)
        amount = ip["remaining_balance"]
        self._take_payment(acc, amount, method)
        pid = _next_id("PY-", self._payment_ids(), 9001)
        ip["settlement"] = {"payment_id": pid, "date": _iso(TODAY), "amount": amount, "method": method}
        ip["months_paid"] = ip["months_total"]
        ip["remaining_balance"] = 0.0
        ip["status"] = "paid_off"
        ip["device_locked"] = False
        return {
            "instalment_id": instalment_id,
            "payment_id": pid,
            "amount": amount,
            "method": method,
            "status": "paid_off",
            "device_locked": False,
            "credit_balance": acc["credit_balance"],
        }


def make():
    return MobileDesk()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    desk = make()
    calls = refused = sessions = 0
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for raw in f:
            if not raw.strip():
                continue
            t = json.loads(raw)
            sessions += 1
            desk.reset(t.get("initial_state", data))
            for c in t["calls"]:
                r = desk.call(c["name"], c["arguments"])
                calls += 1
                if not r["ok"]:
                    refused += 1
                    if "-v" in sys.argv:
                        print("%s %s: %s" % (t["id"], c["name"], r["output"]))
    print(
        "trajectories: %d  calls: %d  refused: %d (%.1f%%)"
        % (sessions, calls, refused, 100.0 * refused / max(calls, 1))
    )


if __name__ == "__main__":
    _main()
