"""Reference implementation of the HearthGuard claims desk API (standard library only).

make() returns a ClaimsDesk with reset(state), call(name, arguments) and state().
`python adapter.py` replays trajectories.jsonl from data.json and prints calls and errors.
"""

import copy
import json
import os
import re
import sys

PERILS = ("water", "fire", "wind_hail", "theft", "liability")
CATEGORIES = ("dwelling", "personal_property", "liability", "additional_living")
OPEN_STATUSES = ("submitted", "under_review", "approved")
EDITABLE_STATUSES = ("submitted", "under_review")
DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class DeskError(Exception):
    """A refused call; its message becomes the call's output."""


def _money(x):
    return round(float(x) + 0.0, 2)


def _fmt(x):
    return "%.2f" % x


def _valid_date(s):
    if not isinstance(s, str) or not DATE_RE.match(s):
        return False
    y, m, d = (int(p) for p in s.split("-"))
    if not 1 <= m <= 12:
        return False
    days = [31, 29 if (y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)) else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][
        m - 1
    ]
    return 1 <= d <= days


class ClaimsDesk:
    """The claims desk: policyholders, policies, adjusters and claims."""

    def __init__(self):
        self._s = {"policyholders": {}, "policies": {}, "adjusters": {}, "claims": {}}

    def reset(self, state):
        """Start from a deep copy of `state` (data.json's layout)."""
        self._s = copy.deepcopy(state)

    def state(self):
        """The whole state, deep-copied."""
        return copy.deepcopy(self._s)

    def call(self, name, arguments):
        """Run tool `name`; returns {"ok": bool, "output": ...}."""
        fn = getattr(self, "_t_" + str(name), None)
        if fn is None:
            return {"ok": False, "output": "Error: unknown tool %s" % name}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        try:
            return {"ok": True, "output": fn(copy.deepcopy(arguments))}
        except DeskError as e:
            return {"ok": False, "output": "Error: %s" % e}

    # -- helpers -----------------------------------------------------------
    @staticmethod
    def _req(args, key, kind=str):
        if key not in args or args[key] is None:
            raise DeskError("missing required parameter %s" % key)
        val = args[key]
        if kind is float:
            if isinstance(val, bool) or not isinstance(val, (int, float)):
                raise DeskError("%s must be a number" % key)
        elif not isinstance(val, kind):
            raise DeskError("%s must be a %s" % (key, kind.__name__))
        return val

    def _get(self, coll, rid, label):
        rec = self._s[coll].get(rid)
        if rec is None:
            raise DeskError("%s %s not found" % (label, rid))
        return rec

    def _claim(self, args):
        return self._get("claims", self._req(args, "claim_id"), "claim")

    # -- reads -------------------------------------------------------------
    def _t_get_policyholder(self, args):
        return copy.deepcopy(self._get("policyholders", self._req(args, "holder_id"), "policyholder"))

    def _t_get_policy(self, args):
        return copy.deepcopy(self._get("policies", self._req(args, "policy_id"), "policy"))

    def _t_get_claim(self, args):
        return copy.deepcopy(self._claim(args))

    def _t_search_claims(self, args):
        status = args.get("status")
        peril = args.get("peril")
        adjuster_id = args.get("adjuster_id")
        policy_id = args.get("policy_id")
        name = args.get("holder_name")
        state = args.get("state")
        out = []
        for cid in sorted(self._s["claims"]):
            c = self._s["claims"][cid]
            holder = self._s["policyholders"].get(c["holder_id"], {})
            if status is not None and c["status"] != status:
                continue
            if peril is not None and c["peril"] != peril:
                continue
            if adjuster_id is not None and c["adjuster_id"] != adjuster_id:
                continue
            if policy_id is not None and c["policy_id"] != policy_id:
                continue
            if name is not None and str(name).strip().lower() not in holder.get("name", "").lower():
                continue
            if state is not None and holder.get("address", {}).get("state") != str(state).strip().upper():
                continue
            out.append(
                {
                    "id": c["id"],
                    "policy_id": c["policy_id"],
                    "holder_id": c["holder_id"],
                    "status": c["status"],
                    "peril": c["peril"],
                    "incident_date": c["incident_date"],
                    "adjuster_id": c["adjuster_id"],
                }
            )
        return out

    def _t_list_adjusters(self, args):
        region = args.get("region")
        specialty = args.get("specialty")
        available_only = bool(args.get("available_only", False))
        out = []
        for aid in sorted(self._s["adjusters"]):
            a = self._s["adjusters"][aid]
            if region is not None and a["region"] != str(region).strip().upper():
                continue
            if specialty is not None and specialty not in a["specialties"]:
                continue
            if available_only and not (a["active"] and a["caseload"] < a["max_caseload"]):
                continue
            out.append(copy.deepcopy(a))
        return out

    def _settlement(self, claim):
        policy = self._get("policies", claim["policy_id"], "policy")
        by_cat = {}
        for item in claim["line_items"]:
            by_cat.setdefault(item["category"], 0.0)
            by_cat[item["category"]] += item["amount"]
        rows = {}
        claimed = covered = 0.0
        for cat in sorted(by_cat):
            amt = _money(by_cat[cat])
            cov = _money(min(amt, policy["coverage"].get(cat, 0)))
            rows[cat] = {"claimed": amt, "covered": cov}
            claimed += amt
            covered += cov
        covered = _money(covered)
        return {
            "claim_id": claim["id"],
            "by_category": rows,
            "claimed_total": _money(claimed),
            "covered_total": covered,
            "deductible": policy["deductible"],
            "settlement": _money(max(0.0, covered - policy["deductible"])),
        }

    def _t_compute_settlement(self, args):
        return self._settlement(self._claim(args))

    # -- writes ------------------------------------------------------------
    def _t_file_claim(self, args):
        policy = self._get("policies", self._req(args, "policy_id"), "policy")
        peril = self._req(args, "peril")
        date = self._req(args, "incident_date")
        desc = self._req(args, "description").strip()
        if peril not in PERILS:
            raise DeskError("peril must be one of %s" % ", ".join(PERILS))
        if not _valid_date(date):
            raise DeskError("incident_date must be a date YYYY-MM-DD")
        if not desc:
            raise DeskError("description must not be empty")
        if policy["status"] != "active":
            raise DeskError(
                "policy %s is %s; claims can only be filed on active policies" % (policy["id"], policy["status"])
            )
        if not policy["start_date"] <= date <= policy["end_date"]:
            raise DeskError(
                "incident_date %s is outside the policy term %s to %s"
                % (date, policy["start_date"], policy["end_date"])
            )
        for c in self._s["claims"].values():
            if (
                c["policy_id"] == policy["id"]
                and c["peril"] == peril
                and c["incident_date"] == date
                and c["status"] in OPEN_STATUSES
            ):
                raise DeskError("claim %s is already open for this policy, peril and date" % c["id"])
        nums = [int(k.split("-")[1]) for k in self._s["claims"]]
        cid = "CLM-%06d" % (max(nums, default=0) + 1)
        claim = {
            "id": cid,
            "policy_id": policy["id"],
            "holder_id": policy["holder_id"],
            "peril": peril,
            "incident_date": date,
            "description": desc,
            "status": "submitted",
            "adjuster_id": None,
            "line_items": [],
            "approved_amount": None,
            "payout": None,
            "history": [{"event": "filed", "detail": peril}],
        }
        self._s["claims"][cid] = claim
        return copy.deepcopy(claim)

    def _t_assign_adjuster(self, args):
        claim = self._claim(args)
        adj = self._get("adjusters", self._req(args, "adjuster_id"), "adjuster")
        if claim["status"] not in EDITABLE_STATUSES:
            raise DeskError(
                "claim %s is %s; adjusters can only be assigned to submitted or "
                "under_review claims" % (claim["id"], claim["status"])
            )
        if claim["adjuster_id"] == adj["id"]:
            raise DeskError("adjuster %s is already assigned to claim %s" % (adj["id"], claim["id"]))
        if not adj["active"]:
            raise DeskError("adjuster %s is not active" % adj["id"])
        if adj["caseload"] >= adj["max_caseload"]:
            raise DeskError("adjuster %s is at capacity (%d of %d)" % (adj["id"], adj["caseload"], adj["max_caseload"]))
        holder = self._get("policyholders", claim["holder_id"], "policyholder")
        if adj["region"] != holder["address"]["state"]:
            raise DeskError(
                "adjuster %s covers %s but the property is in %s"
                % (adj["id"], adj["region"], holder["address"]["state"])
            )
        if claim["peril"] not in adj["specialties"]:
            raise DeskError("adjuster %s does not handle %s claims" % (adj["id"], claim["peril"]))
        old = claim["adjuster_id"]
        if old is not None and old in self._s["adjusters"]:
            prev = self._s["adjusters"][old]
            prev["caseload"] = max(0, prev["caseload"] - 1)
        adj["caseload"] += 1
        claim["adjuster_id"] = adj["id"]
        claim["status"] = "under_review"
        claim["history"].append({"event": "assigned", "detail": adj["id"]})
        return copy.deepcopy(claim)

    def _t_add_line_item(self, args):
        claim = self._claim(args)
        category = self._req(args, "category")
        desc = self._req(args, "description").strip()
        amount = self._req(args, "amount", float)
        if claim["status"] not in EDITABLE_STATUSES:
            raise DeskError(
                "claim %s is %s; line items can only change while the claim is "
                "submitted or under_review" % (claim["id"], claim["status"])
            )
        if category not in CATEGORIES:
            raise DeskError("category must be one of %s" % ", ".join(CATEGORIES))
        policy = self._get("policies", claim["policy_id"], "policy")
        if policy["coverage"].get(category, 0) <= 0:
            raise DeskError("policy %s has no %s coverage" % (policy["id"], category))
        if amount <= 0:
            raise DeskError("amount must be greater than 0")
        if not desc:
            raise DeskError("description must not be empty")
        nums = [int(i["item_id"].split("-")[1]) for i in claim["line_items"]]
        item_id = "LI-%d" % (max(nums, default=0) + 1)
        claim["line_items"].append(
            {"item_id": item_id, "category": category, "description": desc, "amount": _money(amount)}
        )
        claim["history"].append({"event": "item_added", "detail": item_id})
        return copy.deepcopy(claim)

    def _t_remove_line_item(self, args):
        claim = self._claim(args)
        item_id = self._req(args, "item_id")
        if claim["status"] not in EDITABLE_STATUSES:
            raise DeskError(
                "claim %s is %s; line items can only change while the claim is "
                "submitted or under_review" % (claim["id"], claim["status"])
            )
        idx = next((i for i, it in enumerate(claim["line_items"]) if it["item_id"] == item_id), None)
        if idx is None:
            raise DeskError("line item %s not found on claim %s" % (item_id, claim["id"]))
        del claim["line_items"][idx]
        claim["history"].append({"event": "item_removed", "detail": item_id})
        return copy.deepcopy(claim)

    def _t_decide_claim(self, args):
        claim = self._claim(args)
        decision = self._req(args, "decision")
        reason = args.get("reason")
        if decision not in ("approve", "deny"):
            raise DeskError("decision must be approve or deny")
        if claim["status"] != "under_review":
            raise DeskError("claim %s is %s; only under_review claims can be decided" % (claim["id"], claim["status"]))
        if decision == "deny":
            if not isinstance(reason, str) or not reason.strip():
                raise DeskError("a reason is required to deny a claim")
            claim["status"] = "denied"
            adj = self._s["adjusters"].get(claim["adjuster_id"])
            if adj is not None:
                adj["caseload"] = max(0, adj["caseload"] - 1)
            claim["history"].append({"event": "denied", "detail": reason.strip()})
            return copy.deepcopy(claim)
        if not claim["line_items"]:
            raise DeskError("claim %s has no line items to approve" % claim["id"])
        amount = self._settlement(claim)["settlement"]
        if amount <= 0:
            raise DeskError("settlement for claim %s is 0.00 after the deductible; deny it instead" % claim["id"])
        claim["status"] = "approved"
        claim["approved_amount"] = amount
        claim["history"].append({"event": "approved", "detail": _fmt(amount)})
        return copy.deepcopy(claim)

    def _t_issue_payout(self, args):
        claim = self._claim(args)
        method = self._req(args, "method")
        if method not in ("check", "direct_deposit"):
            raise DeskError("method must be check or direct_deposit")
        if claim["status"] != "approved":
            raise DeskError("claim %s is %s; only approved claims can be paid" % (claim["id"], claim["status"]))
        holder = self._get("policyholders", claim["holder_id"], "policyholder")
        if method == "direct_deposit" and not holder["bank_on_file"]:
            raise DeskError("policyholder %s has no bank account on file; pay by check" % holder["id"])
        policy = self._get("policies", claim["policy_id"], "policy")
        amount = claim["approved_amount"]
        claim["status"] = "paid"
        claim["payout"] = {"amount": amount, "method": method}
        policy["claims_paid_total"] = _money(policy["claims_paid_total"] + amount)
        adj = self._s["adjusters"].get(claim["adjuster_id"])
        if adj is not None:
            adj["caseload"] = max(0, adj["caseload"] - 1)
        claim["history"].append({"event": "paid", "detail": "%s via %s" % (_fmt(amount), method)})
        return copy.deepcopy(claim)


def make():
    """A fresh claims desk (empty until reset)."""
    return ClaimsDesk()


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = errors = trajs = 0
    desk = make()
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            t = json.loads(line)
            desk.reset(t.get("initial_state", data))
            trajs += 1
            for c in t["calls"]:
                r = desk.call(c["name"], c["arguments"])
                calls += 1
                errors += 0 if r["ok"] else 1
    print("trajectories: %d  calls: %d  errors: %d" % (trajs, calls, errors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
