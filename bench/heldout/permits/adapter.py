"""Riverton Department of Building Safety, permit desk API: the real implementation behind openapi.yaml.

make() -> object with reset(state), call(name, arguments) -> {"ok", "output"}, state().
`python adapter.py` replays trajectories.jsonl from data.json and prints the number of calls and errors.
Standard library only; deterministic (the business date is fixed: TODAY).
"""

import copy
import datetime
import json
import os
from decimal import ROUND_HALF_UP, Decimal

TODAY = "2026-03-16"
PERMIT_VALIDITY_DAYS = 180
MAX_INSPECTION_LEAD_DAYS = 30

PERMIT_TYPES = [
    "new_construction",
    "addition",
    "alteration",
    "demolition",
    "electrical",
    "plumbing",
    "mechanical",
    "roofing",
    "fence",
    "sign",
]
TRADE_TYPES = {"electrical", "plumbing", "mechanical"}
PLAN_REVIEW_TYPES = {"new_construction", "addition", "alteration"}
BASE_FEES = {
    "new_construction": "400.00",
    "addition": "250.00",
    "alteration": "150.00",
    "demolition": "200.00",
    "electrical": "90.00",
    "plumbing": "90.00",
    "mechanical": "90.00",
    "roofing": "75.00",
    "fence": "45.00",
    "sign": "60.00",
}
STATUSES = ["submitted", "under_review", "on_hold", "approved", "issued", "finaled", "withdrawn", "rejected"]
WITHDRAWABLE = {"submitted", "under_review", "on_hold", "approved"}
APPROVABLE = {"submitted", "under_review"}
INSPECTION_TYPES = [
    "footing",
    "foundation",
    "framing",
    "electrical_rough",
    "plumbing_rough",
    "mechanical_rough",
    "insulation",
    "final",
]
PAYMENT_METHODS = ["card", "check", "cash", "ach"]
CENT = Decimal("0.01")


class ApiError(Exception):
    pass


def _money(value):
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def _num(d):
    return float(d)


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class PermitDesk:
    def __init__(self):
        self.db = {"applicants": {}, "parcels": {}, "applications": {}, "payments": {}}

    # protocol -------------------------------------------------------------------------------------------
    def reset(self, state):
        self.db = copy.deepcopy(state)

    def state(self):
        return copy.deepcopy(self.db)

    def call(self, name, arguments):
        fn = getattr(self, "op_" + str(name), None)
        if fn is None:
            return {"ok": False, "output": "Error: unknown operation '%s'" % name}
        args = dict(arguments or {})
        try:
            out = fn(args)
        except ApiError as e:
            return {"ok": False, "output": "Error: %s" % e}
        return {"ok": True, "output": copy.deepcopy(out)}

    # helpers --------------------------------------------------------------------------------------------
    @staticmethod
    def _req(args, key, kind=str):
        if key not in args or args[key] is None:
            raise ApiError("missing required parameter '%s'" % key)
        v = args[key]
        if kind is str and not isinstance(v, str):
            raise ApiError("parameter '%s' must be a string" % key)
        if kind == "number" and not _is_number(v):
            raise ApiError("parameter '%s' must be a number" % key)
        if kind is str and not v.strip():
            raise ApiError("parameter '%s' must not be empty" % key)
        return v

    @staticmethod
    def _opt_str(args, key):
        v = args.get(key)
        if v is None:
            return None
        if not isinstance(v, str):
            raise ApiError("parameter '%s' must be a string" % key)
        return v

    def _application(self, app_id):
        app = self.db["applications"].get(app_id)
        if app is None:
            raise ApiError("application '%s' not found" % app_id)
        return app

    def _applicant(self, applicant_id):
        a = self.db["applicants"].get(applicant_id)
        if a is None:
            raise ApiError("applicant '%s' not found" % applicant_id)
        return a

    def _parcel(self, parcel_id):
        p = self.db["parcels"].get(parcel_id)
        if p is None:
            raise ApiError("parcel '%s' not found" % parcel_id)
        return p

    @staticmethod
    def _history(app, event, note=""):
        app["history"].append({"date": TODAY, "event": event, "note": note})

    def _quote(self, app):
        parcel = self._parcel(app["parcel_id"])
        valuation = Decimal(str(app["valuation"]))
        base = _money(BASE_FEES[app["permit_type"]])
        first = min(valuation, Decimal("50000"))
        rest = max(valuation - Decimal("50000"), Decimal("0"))
        valuation_fee = _money(first * Decimal("0.01") + rest * Decimal("0.005"))
        plan_review = _money(valuation_fee * Decimal("0.30")) if app["permit_type"] in PLAN_REVIEW_TYPES else _money(0)
        historic = _money("75.00") if parcel.get("historic_district") else _money(0)
        subtotal = base + valuation_fee + plan_review + historic
        tech = _money(subtotal * Decimal("0.04"))
        total = subtotal + tech
        return {
            "application_id": app["application_id"],
            "permit_type": app["permit_type"],
            "valuation": app["valuation"],
            "historic_district": bool(parcel.get("historic_district")),
            "base_fee": _num(base),
            "valuation_fee": _num(valuation_fee),
            "plan_review_fee": _num(plan_review),
            "historic_review_fee": _num(historic),
            "technology_surcharge": _num(tech),
            "total": _num(total),
        }

    # reads ----------------------------------------------------------------------------------------------
    def op_get_application(self, args):
        return self._application(self._req(args, "application_id"))

    def op_get_applicant(self, args):
        return self._applicant(self._req(args, "applicant_id"))

    def op_get_parcel(self, args):
        return self._parcel(self._req(args, "parcel_id"))

    def op_search_applications(self, args):
        status = self._opt_str(args, "status")
        permit_type = self._opt_str(args, "permit_type")
        applicant_id = self._opt_str(args, "applicant_id")
        zoning = self._opt_str(args, "zoning")
        address = self._opt_str(args, "address")
        applicant_name = self._opt_str(args, "applicant_name")
        ward = args.get("ward")
        if status is not None and status not in STATUSES:
            raise ApiError("unknown status '%s'" % status)
        if permit_type is not None and permit_type not in PERMIT_TYPES:
            raise ApiError("unknown permit_type '%s'" % permit_type)
        if ward is not None:
            if isinstance(ward, str) and ward.strip().isdigit():
                ward = int(ward.strip())
            if not isinstance(ward, int) or isinstance(ward, bool):
                raise ApiError("parameter 'ward' must be an integer")
        rows = []
        for app_id in sorted(self.db["applications"]):
            app = self.db["applications"][app_id]
            parcel = self.db["parcels"].get(app["parcel_id"], {})
            applicant = self.db["applicants"].get(app["applicant_id"], {})
            if status is not None and app["status"] != status:
                continue
            if permit_type is not None and app["permit_type"] != permit_type:
                continue
            if applicant_id is not None and app["applicant_id"] != applicant_id:
                continue
            if ward is not None and parcel.get("ward") != ward:
                continue
            if zoning is not None and str(parcel.get("zoning", "")).lower() != zoning.strip().lower():
                continue
            if address is not None and address.strip().lower() not in str(parcel.get("address", "")).lower():
                continue
            if (
                applicant_name is not None
                and applicant_name.strip().lower() not in str(applicant.get("name", "")).lower()
            ):
                continue
            rows.append(
                {
                    "application_id": app_id,
                    "permit_type": app["permit_type"],
                    "status": app["status"],
                    "applicant_id": app["applicant_id"],
                    "applicant_name": applicant.get("name"),
                    "parcel_id": app["parcel_id"],
                    "address": parcel.get("address"),
                    "submitted_on": app["submitted_on"],
                    "valuation": app["valuation"],
                }
            )
        return rows

    def op_quote_permit_fee(self, args):
        app = self._application(self._req(args, "application_id"))
        if app["status"] in ("withdrawn", "rejected"):
            raise ApiError("application '%s' is %s; no fee applies" % (app["application_id"], app["status"]))
        return self._quote(app)

    # writes ---------------------------------------------------------------------------------------------
    def op_create_application(self, args):
        applicant_id = self._req(args, "applicant_id")
        parcel_id = self._req(args, "parcel_id")
        permit_type = self._req(args, "permit_type")
        description = self._req(args, "description")
        valuation = self._req(args, "valuation", "number")
        applicant = self._applicant(applicant_id)
        parcel = self._parcel(parcel_id)
        if permit_type not in PERMIT_TYPES:
            raise ApiError("unknown permit_type '%s'" % permit_type)
        if valuation < 0:
            raise ApiError("valuation must not be negative")
        if applicant["standing"] == "suspended":
            raise ApiError("applicant '%s' is suspended and may not file new applications" % applicant_id)
        if permit_type in TRADE_TYPES and not (
            applicant["kind"] == "contractor" and applicant.get("license_status") == "active"
        ):
            raise ApiError("%s permits must be filed by a contractor with an active license" % permit_type)
        if permit_type == "demolition" and parcel.get("historic_district"):
            raise ApiError(
                "demolition in a historic district needs a Historic Commission certificate; it cannot be filed online"
            )
        if permit_type == "sign" and str(parcel.get("zoning", "")).startswith("R-"):
            raise ApiError("sign permits are not issued in residential zones (%s)" % parcel["zoning"])
        prefix = "BP-%s-" % TODAY[2:4]
        seq = [int(k[len(prefix) :]) for k in self.db["applications"] if k.startswith(prefix)]
        app_id = "%s%04d" % (prefix, max(seq, default=0) + 1)
        app = {
            "application_id": app_id,
            "applicant_id": applicant_id,
            "parcel_id": parcel_id,
            "permit_type": permit_type,
            "description": description.strip(),
            "valuation": round(float(valuation), 2),
            "status": "submitted",
            "submitted_on": TODAY,
            "reviewed_by": None,
            "approved_on": None,
            "fee_assessed": 0.0,
            "fee_paid": 0.0,
            "issued_on": None,
            "expires_on": None,
            "inspections": [],
            "history": [],
        }
        self._history(app, "submitted")
        self.db["applications"][app_id] = app
        return app

    def op_approve_application(self, args):
        app = self._application(self._req(args, "application_id"))
        reviewer = self._req(args, "reviewer")
        note = self._opt_str(args, "note") or ""
        if app["status"] not in APPROVABLE:
            raise ApiError(
                "application '%s' is %s; only submitted or under_review applications can be approved"
                % (app["application_id"], app["status"])
            )
        fee = self._quote(app)["total"]
        app["status"] = "approved"
        app["reviewed_by"] = reviewer.strip()
        app["approved_on"] = TODAY
        app["fee_assessed"] = fee
        applicant = self._applicant(app["applicant_id"])
        applicant["balance_due"] = _num(_money(applicant["balance_due"]) + _money(fee))
        self._history(app, "approved", note)
        return app

    def op_record_payment(self, args):
        app = self._application(self._req(args, "application_id"))
        amount = self._req(args, "amount", "number")
        method = self._req(args, "method")
        if method not in PAYMENT_METHODS:
            raise ApiError("unknown payment method '%s'" % method)
        if app["status"] != "approved":
            raise ApiError(
                "application '%s' is %s; fees are paid on approved applications"
                % (app["application_id"], app["status"])
            )
        amt = _money(amount)
        if amt <= 0:
            raise ApiError("amount must be positive")
        outstanding = _money(app["fee_assessed"]) - _money(app["fee_paid"])
        if amt > outstanding:
            raise ApiError("amount %.2f exceeds the outstanding fee %.2f" % (amt, outstanding))
        nums = [int(k[4:]) for k in self.db["payments"] if k.startswith("PAY-")]
        pay_id = "PAY-%05d" % (max(nums, default=0) + 1)
        payment = {
            "payment_id": pay_id,
            "application_id": app["application_id"],
            "applicant_id": app["applicant_id"],
            "amount": _num(amt),
            "method": method,
            "received_on": TODAY,
        }
        self.db["payments"][pay_id] = payment
        app["fee_paid"] = _num(_money(app["fee_paid"]) + amt)
        applicant = self._applicant(app["applicant_id"])
        applicant["balance_due"] = _num(_money(applicant["balance_due"]) - amt)
        self._history(app, "payment_received", pay_id)
        return payment

    def op_issue_permit(self, args):
        app = self._application(self._req(args, "application_id"))
        if app["status"] != "approved":
            raise ApiError(
                "application '%s' is %s; only approved applications can be issued"
                % (app["application_id"], app["status"])
            )
        outstanding = _money(app["fee_assessed"]) - _money(app["fee_paid"])
        if outstanding > 0:
            raise ApiError("fee not paid in full: %.2f outstanding" % outstanding)
        applicant = self._applicant(app["applicant_id"])
        if applicant["kind"] == "contractor" and applicant.get("license_status") != "active":
            raise ApiError(
                "contractor license of '%s' is %s" % (applicant["applicant_id"], applicant.get("license_status"))
            )
        parcel = self._parcel(app["parcel_id"])
        app["status"] = "issued"
        app["issued_on"] = TODAY
        expires = datetime.date.fromisoformat(TODAY) + datetime.timedelta(days=PERMIT_VALIDITY_DAYS)
        app["expires_on"] = expires.isoformat()
        parcel["active_permits"] = parcel["active_permits"] + 1
        self._history(app, "issued")
        return app

    def op_withdraw_application(self, args):
        app = self._application(self._req(args, "application_id"))
        reason = self._opt_str(args, "reason") or ""
        if app["status"] not in WITHDRAWABLE:
            raise ApiError("application '%s' is %s and cannot be withdrawn" % (app["application_id"], app["status"]))
        outstanding = _money(app["fee_assessed"]) - _money(app["fee_paid"])
        if outstanding > 0:
            applicant = self._applicant(app["applicant_id"])
            applicant["balance_due"] = _num(_money(applicant["balance_due"]) - outstanding)
            app["fee_assessed"] = app["fee_paid"]
        app["status"] = "withdrawn"
        self._history(app, "withdrawn", reason)
        return app

    def op_request_inspection(self, args):
        app = self._application(self._req(args, "application_id"))
        kind = self._req(args, "inspection_type")
        requested_for = self._req(args, "requested_for")
        if kind not in INSPECTION_TYPES:
            raise ApiError("unknown inspection_type '%s'" % kind)
        try:
            day = datetime.date.fromisoformat(requested_for)
        except ValueError:
            raise ApiError("requested_for must be a date YYYY-MM-DD")
        if app["status"] != "issued":
            raise ApiError(
                "application '%s' is %s; inspections are requested on issued permits"
                % (app["application_id"], app["status"])
            )
        today = datetime.date.fromisoformat(TODAY)
        if day <= today:
            raise ApiError("requested_for must be after %s" % TODAY)
        if (day - today).days > MAX_INSPECTION_LEAD_DAYS:
            raise ApiError("inspections can be requested at most %d days ahead" % MAX_INSPECTION_LEAD_DAYS)
        if day.weekday() >= 5:
            raise ApiError("inspectors do not work on weekends (%s)" % requested_for)
        for item in app["inspections"]:
            if item["inspection_type"] == kind and item["status"] in ("requested", "passed"):
                raise ApiError("a %s inspection is already %s on this permit" % (kind, item["status"]))
        if kind == "final" and any(i["status"] == "requested" for i in app["inspections"]):
            raise ApiError("the final inspection cannot be requested while other inspections are pending")
        app["inspections"].append({"inspection_type": kind, "requested_for": requested_for, "status": "requested"})
        return app

    def op_cancel_inspection(self, args):
        app = self._application(self._req(args, "application_id"))
        kind = self._req(args, "inspection_type")
        for idx, item in enumerate(app["inspections"]):
            if item["inspection_type"] == kind and item["status"] == "requested":
                del app["inspections"][idx]
                return app
        if any(i["inspection_type"] == kind for i in app["inspections"]):
            raise ApiError("the %s inspection already has a result and cannot be cancelled" % kind)
        raise ApiError("no %s inspection on application '%s'" % (kind, app["application_id"]))


def make():
    return PermitDesk()


def _main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "data.json")) as f:
        data = json.load(f)
    calls = errors = n = 0
    with open(os.path.join(here, "trajectories.jsonl")) as f:
        for line in f:
            if not line.strip():
                continue
            traj = json.loads(line)
            n += 1
            env = make()
            env.reset(traj.get("initial_state", data))
            for c in traj["calls"]:
                r = env.call(c["name"], c["arguments"])
                calls += 1
                errors += 0 if r["ok"] else 1
    print("trajectories: %d  calls: %d  errors: %d" % (n, calls, errors))


if __name__ == "__main__":
    _main()
