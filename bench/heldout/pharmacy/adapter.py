"""Reference implementation of the Larkspur Community Pharmacy counter API.

Written for forgegym (MIT license). Standard library only, deterministic: the
business date is the constant BUSINESS_DATE and nothing reads the clock.

    make() -> object with reset(state), call(name, arguments), state()

`python adapter.py` replays every session of trajectories.jsonl from data.json
and prints how many calls were made and how many were refused.
"""

import copy
import datetime
import json
import os
import re
from decimal import ROUND_HALF_UP, Decimal

BUSINESS_DATE = "2025-03-14"

PLANS = ("none", "basic", "standard", "premier")
# plan -> (coverage % for generic medicines, coverage % for brand medicines)
COVERAGE = {
    "none": (0, 0),
    "basic": (60, 30),
    "standard": (80, 50),
    "premier": (90, 70),
}
CASH_GENERIC_DISCOUNT = Decimal("0.15")  # uninsured patients, generic Rx lines
MINIMUM_COPAY = Decimal("5.00")  # insured patients, per Rx line
CONTROLLED_FEE = Decimal("3.00")  # per controlled Rx line
ACCOUNT_LIMIT = Decimal("200.00")  # max copay balance on a patient account
CONTROLLED_REFILL_DAYS = 28
MAX_OTC_QUANTITY = 24

RX_STATUSES = ("active", "on_hold", "expired", "cancelled", "transferred")
ORDER_STATUSES = ("queued", "filled", "picked_up", "cancelled")
PAYMENT_METHODS = ("cash", "card", "account")
CANCEL_REASONS = ("patient_request", "prescriber_request", "out_of_stock", "duplicate", "other")

HERE = os.path.dirname(os.path.abspath(__file__))


class ToolError(Exception):
    pass


def _money(value):
    return Decimal(value).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _dec(value):
    return Decimal(str(value))


def _out(value):
    return float(_money(value))


def _date(text):
    return datetime.date.fromisoformat(text)


# --------------------------------------------------------------------------- #
# argument checking


def _check_args(args, spec, required=()):
    """spec: name -> type ('string', 'integer', 'boolean', 'number') or tuple of enum values."""
    if not isinstance(args, dict):
        raise ToolError("arguments must be an object")
    for key in args:
        if key not in spec:
            raise ToolError("unexpected argument '%s'" % key)
    for key in required:
        if key not in args or args[key] is None:
            raise ToolError("missing required argument '%s'" % key)
    for key, kind in spec.items():
        if key not in args or args[key] is None:
            continue
        val = args[key]
        if isinstance(kind, tuple):
            if not isinstance(val, str) or val not in kind:
                raise ToolError("%s must be one of: %s" % (key, ", ".join(kind)))
        elif kind == "string":
            if not isinstance(val, str) or not val.strip():
                raise ToolError("%s must be a non-empty string" % key)
        elif kind == "integer":
            if isinstance(val, bool) or not isinstance(val, int):
                raise ToolError("%s must be an integer" % key)
        elif kind == "boolean":
            if not isinstance(val, bool):
                raise ToolError("%s must be true or false" % key)
        elif kind == "number":
            if isinstance(val, bool) or not isinstance(val, (int, float)):
                raise ToolError("%s must be a number" % key)


# --------------------------------------------------------------------------- #
# the system


class PharmacyCounter:
    def __init__(self):
        self._s = {"patients": {}, "medications": {}, "prescriptions": {}, "fill_orders": {}}

    # -- protocol -------------------------------------------------------------
    def reset(self, state):
        self._s = copy.deepcopy(state)
        for key in ("patients", "medications", "prescriptions", "fill_orders"):
            self._s.setdefault(key, {})

    def state(self):
        return copy.deepcopy(self._s)

    def call(self, name, arguments):
        handler = getattr(self, "_t_" + name, None) if isinstance(name, str) else None
        if handler is None:
            return {"ok": False, "output": "Error: unknown tool '%s'" % name}
        if arguments is None:
            arguments = {}
        backup = copy.deepcopy(self._s)
        try:
            result = handler(arguments)
        except ToolError as exc:
            self._s = backup
            return {"ok": False, "output": "Error: %s" % exc}
        return {"ok": True, "output": copy.deepcopy(result)}

    # -- lookups --------------------------------------------------------------
    def _patient(self, pid):
        rec = self._s["patients"].get(pid)
        if rec is None:
            raise ToolError("patient %s not found" % pid)
        return rec

    def _med(self, mid):
        rec = self._s["medications"].get(mid)
        if rec is None:
            raise ToolError("medication %s not found" % mid)
        return rec

    def _rx(self, rid):
        rec = self._s["prescriptions"].get(rid)
        if rec is None:
            raise ToolError("prescription %s not found" % rid)
        return rec

    def _order(self, oid):
        rec = self._s["fill_orders"].get(oid)
        if rec is None:
            raise ToolError("fill order %s not found" % oid)
        return rec

    def _open_order_for(self, rid):
        for oid in sorted(self._s["fill_orders"]):
            o = self._s["fill_orders"][oid]
            if o["prescription_id"] == rid and o["status"] in ("queued", "filled"):
                return oid
        return None

    def _next_order_id(self):
        nums = [int(k.split("-")[1]) for k in self._s["fill_orders"] if re.match(r"^FO-\d+$", k)]
        return "FO-%d" % (max(nums) + 1 if nums else 7001)

    @staticmethod
    def _history(rec, event, detail):
        rec.setdefault("history", []).append({"date": BUSINESS_DATE, "event": event, "detail": detail})

    # -- pricing --------------------------------------------------------------
    def _dispensed_med(self, rx, quantity, substitute_generic):
        med = self._med(rx["medication_id"])
        if (
            substitute_generic
            and not rx.get("dispense_as_written")
            and not med["generic"]
            and med.get("generic_equivalent")
        ):
            alt = self._s["medications"].get(med["generic_equivalent"])
            if alt is not None and alt["stock"] >= quantity:
                return alt, True
        return med, False

    def _price_rx_line(self, patient, med, quantity):
        base = _money(_dec(med["unit_price"]) * quantity)
        plan = patient["plan"]
        discount = Decimal("0.00")
        coverage = 0
        if plan == "none":
            plan_pays = Decimal("0.00")
            if med["generic"]:
                discount = _money(base * CASH_GENERIC_DISCOUNT)
            share = base - discount
        else:
            coverage = COVERAGE[plan][0 if med["generic"] else 1]
            plan_pays = _money(base * coverage / Decimal(100))
            share = base - plan_pays
            if share < MINIMUM_COPAY:
                share = min(base, MINIMUM_COPAY)
                plan_pays = base - share
        fee = CONTROLLED_FEE if med["controlled"] else Decimal("0.00")
        return {
            "base": base,
            "coverage": coverage,
            "discount": discount,
            "plan_pays": plan_pays,
            "share": share,
            "fee": fee,
            "patient_pays": share + fee,
        }

    def _reprice(self, order):
        patient = self._patient(order["patient_id"])
        subtotal = Decimal("0.00")
        discount = plan_pays = fees = Decimal("0.00")
        patient_pays = Decimal("0.00")
        for line in order["lines"]:
            med = self._med(line["medication_id"])
            total = _money(_dec(line["unit_price"]) * line["quantity"])
            line["line_total"] = _out(total)
            subtotal += total
            if line["rx_line"]:
                p = self._price_rx_line(patient, med, line["quantity"])
                discount += p["discount"]
                plan_pays += p["plan_pays"]
                fees += p["fee"]
                patient_pays += p["patient_pays"]
            else:
                patient_pays += total
        order["subtotal"] = _out(subtotal)
        order["discount"] = _out(discount)
        order["plan_pays"] = _out(plan_pays)
        order["fees"] = _out(fees)
        order["patient_pays"] = _out(patient_pays)

    # -- tools: reads -----------------------------------------------------------
    def _t_get_patient(self, a):
        _check_args(a, {"patient_id": "string"}, ["patient_id"])
        p = self._patient(a["patient_id"])
        out = copy.deepcopy(p)
        out["prescription_ids"] = sorted(
            r for r, rx in self._s["prescriptions"].items() if rx["patient_id"] == p["patient_id"]
        )
        out["open_order_ids"] = sorted(
            o
            for o, od in self._s["fill_orders"].items()
            if od["patient_id"] == p["patient_id"] and od["status"] in ("queued", "filled")
        )
        return out

    def _t_search_medications(self, a):
        _check_args(
            a,
            {
                "query": "string",
                "ingredient_class": "string",
                "controlled": "boolean",
                "requires_prescription": "boolean",
                "generic": "boolean",
                "in_stock_only": "boolean",
                "limit": "integer",
            },
        )
        limit = a.get("limit", 20)
        if limit < 1 or limit > 50:
            raise ToolError("limit must be between 1 and 50")
        q = a.get("query")
        results = []
        for mid in sorted(self._s["medications"]):
            m = self._s["medications"][mid]
            if q is not None and q.strip().lower() not in m["name"].lower():
                continue
            if (
                a.get("ingredient_class") is not None
                and (m.get("ingredient_class") or "").lower() != a["ingredient_class"].strip().lower()
            ):
                continue
            if a.get("controlled") is not None and m["controlled"] != a["controlled"]:
                continue
            if a.get("requires_prescription") is not None and m["requires_prescription"] != a["requires_prescription"]:
                continue
            if a.get("generic") is not None and m["generic"] != a["generic"]:
                continue
            if a.get("in_stock_only") and m["stock"] <= 0:
                continue
            results.append(copy.deepcopy(m))
        return {"count": len(results), "medications": results[:limit]}

    def _t_get_prescription(self, a):
        _check_args(a, {"prescription_id": "string"}, ["prescription_id"])
        rx = self._rx(a["prescription_id"])
        out = copy.deepcopy(rx)
        med = self._s["medications"].get(rx["medication_id"], {})
        out["medication_name"] = "%s %s" % (med.get("name", "?"), med.get("strength", ""))
        out["open_order_id"] = self._open_order_for(rx["prescription_id"])
        return out

    def _t_list_prescriptions(self, a):
        _check_args(
            a, {"patient_id": "string", "status": RX_STATUSES, "medication_id": "string", "prescriber": "string"}
        )
        if not any(a.get(k) is not None for k in ("patient_id", "status", "medication_id", "prescriber")):
            raise ToolError("provide at least one filter (patient_id, status, medication_id or prescriber)")
        if a.get("patient_id") is not None:
            self._patient(a["patient_id"])
        if a.get("medication_id") is not None:
            self._med(a["medication_id"])
        rows = []
        for rid in sorted(self._s["prescriptions"]):
            rx = self._s["prescriptions"][rid]
            if a.get("patient_id") is not None and rx["patient_id"] != a["patient_id"]:
                continue
            if a.get("status") is not None and rx["status"] != a["status"]:
                continue
            if a.get("medication_id") is not None and rx["medication_id"] != a["medication_id"]:
                continue
            if a.get("prescriber") is not None and a["prescriber"].strip().lower() not in rx["prescriber"].lower():
                continue
            med = self._s["medications"].get(rx["medication_id"], {})
            rows.append(
                {
                    "prescription_id": rid,
                    "patient_id": rx["patient_id"],
                    "medication_id": rx["medication_id"],
                    "medication_name": "%s %s" % (med.get("name", "?"), med.get("strength", "")),
                    "prescriber": rx["prescriber"],
                    "quantity": rx["quantity"],
                    "refills_remaining": rx["refills_remaining"],
                    "status": rx["status"],
                    "expires_on": rx["expires_on"],
                }
            )
        return {"count": len(rows), "prescriptions": rows}

    def _t_get_fill_order(self, a):
        _check_args(a, {"order_id": "string"}, ["order_id"])
        return copy.deepcopy(self._order(a["order_id"]))

    # -- tools: quote -------------------------------------------------------------
    def _t_quote_fill(self, a):
        _check_args(
            a,
            {"prescription_id": "string", "quantity": "integer", "substitute_generic": "boolean"},
            ["prescription_id"],
        )
        rx = self._rx(a["prescription_id"])
        patient = self._patient(rx["patient_id"])
        qty = a.get("quantity", rx["quantity"])
        if qty < 1 or qty > rx["quantity"]:
            raise ToolError("quantity must be between 1 and %d (the prescribed quantity)" % rx["quantity"])
        sub = a.get("substitute_generic", True)
        med, substituted = self._dispensed_med(rx, qty, sub)
        p = self._price_rx_line(patient, med, qty)
        return {
            "prescription_id": rx["prescription_id"],
            "patient_id": patient["patient_id"],
            "plan": patient["plan"],
            "prescribed_medication_id": rx["medication_id"],
            "medication_id": med["medication_id"],
            "medication_name": "%s %s" % (med["name"], med["strength"]),
            "substituted": substituted,
            "quantity": qty,
            "unit_price": med["unit_price"],
            "base_price": _out(p["base"]),
            "coverage_percent": p["coverage"],
            "cash_discount": _out(p["discount"]),
            "plan_pays": _out(p["plan_pays"]),
            "patient_share": _out(p["share"]),
            "controlled_fee": _out(p["fee"]),
            "patient_pays": _out(p["patient_pays"]),
            "in_stock": med["stock"] >= qty,
            "allergy_conflict": (med.get("ingredient_class") or "") in patient["allergies"],
            "prescription_status": rx["status"],
            "refills_remaining": rx["refills_remaining"],
        }

    # -- tools: orders ------------------------------------------------------------
    def _t_create_fill_order(self, a):
        _check_args(
            a,
            {"prescription_id": "string", "quantity": "integer", "substitute_generic": "boolean"},
            ["prescription_id"],
        )
        rx = self._rx(a["prescription_id"])
        rid = rx["prescription_id"]
        patient = self._patient(rx["patient_id"])
        if rx["status"] != "active":
            raise ToolError("prescription %s is %s; only active prescriptions can be filled" % (rid, rx["status"]))
        if rx["expires_on"] < BUSINESS_DATE:
            raise ToolError("prescription %s expired on %s" % (rid, rx["expires_on"]))
        if rx["refills_remaining"] < 1:
            raise ToolError("prescription %s has no refills remaining" % rid)
        qty = a.get("quantity", rx["quantity"])
        if qty < 1 or qty > rx["quantity"]:
            raise ToolError("quantity must be between 1 and %d (the prescribed quantity)" % rx["quantity"])
        open_id = self._open_order_for(rid)
        if open_id:
            raise ToolError("prescription %s already has an open fill order %s" % (rid, open_id))
        prescribed = self._med(rx["medication_id"])
        if prescribed["controlled"]:
            last = None
            for o in self._s["fill_orders"].values():
                if o["prescription_id"] == rid and o["status"] != "cancelled" and o.get("filled_on"):
                    if last is None or o["filled_on"] > last:
                        last = o["filled_on"]
            if last is not None:
                next_ok = _date(last) + datetime.timedelta(days=CONTROLLED_REFILL_DAYS)
                if _date(BUSINESS_DATE) < next_ok:
                    raise ToolError(
                        "controlled prescription %s was last filled on %s; the next fill is allowed "
                        "from %s" % (rid, last, next_ok.isoformat())
                    )
        med, substituted = self._dispensed_med(rx, qty, a.get("substitute_generic", True))
        cls = med.get("ingredient_class")
        if cls and cls in patient["allergies"]:
            raise ToolError(
                "patient %s has a recorded %s allergy; %s cannot be dispensed"
                % (patient["patient_id"], cls, med["medication_id"])
            )
        oid = self._next_order_id()
        order = {
            "order_id": oid,
            "patient_id": patient["patient_id"],
            "prescription_id": rid,
            "status": "queued",
            "created_on": BUSINESS_DATE,
            "filled_on": None,
            "picked_up_on": None,
            "verified_by": None,
            "substituted": substituted,
            "payment_method": None,
            "lines": [
                {
                    "line_no": 1,
                    "medication_id": med["medication_id"],
                    "description": "%s %s %s" % (med["name"], med["strength"], med["form"]),
                    "quantity": qty,
                    "unit_price": med["unit_price"],
                    "line_total": 0.0,
                    "rx_line": True,
                }
            ],
            "subtotal": 0.0,
            "discount": 0.0,
            "plan_pays": 0.0,
            "fees": 0.0,
            "patient_pays": 0.0,
            "history": [],
        }
        self._reprice(order)
        detail = "queued for %s" % rid
        if substituted:
            detail += "; generic %s substituted for %s" % (med["medication_id"], rx["medication_id"])
        self._history(order, "created", detail)
        self._s["fill_orders"][oid] = order
        return copy.deepcopy(order)

    def _t_update_order_items(self, a):
        _check_args(
            a,
            {
                "order_id": "string",
                "action": ("add", "remove"),
                "medication_id": "string",
                "quantity": "integer",
                "line_no": "integer",
            },
            ["order_id", "action"],
        )
        order = self._order(a["order_id"])
        if order["status"] != "queued":
            raise ToolError(
                "order %s is %s; items can only be changed while it is queued" % (order["order_id"], order["status"])
            )
        if a["action"] == "add":
            if a.get("line_no") is not None:
                raise ToolError("line_no is only used with action 'remove'")
            if a.get("medication_id") is None or a.get("quantity") is None:
                raise ToolError("action 'add' needs medication_id and quantity")
            med = self._med(a["medication_id"])
            if med["requires_prescription"]:
                raise ToolError(
                    "%s requires a prescription and cannot be added as an item; create a fill order "
                    "from a prescription instead" % med["medication_id"]
                )
            qty = a["quantity"]
            if qty < 1 or qty > MAX_OTC_QUANTITY:
                raise ToolError("quantity must be between 1 and %d" % MAX_OTC_QUANTITY)
            patient = self._patient(order["patient_id"])
            cls = med.get("ingredient_class")
            if cls and cls in patient["allergies"]:
                raise ToolError(
                    "patient %s has a recorded %s allergy; %s cannot be added"
                    % (patient["patient_id"], cls, med["medication_id"])
                )
            line_no = max(ln["line_no"] for ln in order["lines"]) + 1
            order["lines"].append(
                {
                    "line_no": line_no,
                    "medication_id": med["medication_id"],
                    "description": "%s %s %s" % (med["name"], med["strength"], med["form"]),
                    "quantity": qty,
                    "unit_price": med["unit_price"],
                    "line_total": 0.0,
                    "rx_line": False,
                }
            )
            self._reprice(order)
            self._history(order, "item_added", "line %d: %d x %s" % (line_no, qty, med["medication_id"]))
        else:
            if a.get("medication_id") is not None or a.get("quantity") is not None:
                raise ToolError("action 'remove' takes only line_no")
            if a.get("line_no") is None:
                raise ToolError("action 'remove' needs line_no")
            match = [ln for ln in order["lines"] if ln["line_no"] == a["line_no"]]
            if not match:
                raise ToolError("order %s has no line %d" % (order["order_id"], a["line_no"]))
            if match[0]["rx_line"]:
                raise ToolError(
                    "line %d is the prescription line and cannot be removed; cancel the order instead" % a["line_no"]
                )
            order["lines"] = [ln for ln in order["lines"] if ln["line_no"] != a["line_no"]]
            self._reprice(order)
            self._history(order, "item_removed", "line %d: %s" % (a["line_no"], match[0]["medication_id"]))
        return copy.deepcopy(order)

    def _t_fill_order(self, a):
        _check_args(a, {"order_id": "string", "verified_by": "string"}, ["order_id"])
        order = self._order(a["order_id"])
        oid = order["order_id"]
        if order["status"] != "queued":
            raise ToolError("order %s is %s; only queued orders can be filled" % (oid, order["status"]))
        vb = a.get("verified_by")
        if vb is not None and not re.match(r"^[A-Z]{2,3}$", vb):
            raise ToolError("verified_by must be the pharmacist's initials (2-3 capital letters)")
        meds = [(line, self._med(line["medication_id"])) for line in order["lines"]]
        if any(m["controlled"] for _, m in meds) and vb is None:
            raise ToolError(
                "order %s contains a controlled substance; verified_by (pharmacist initials) is required" % oid
            )
        need = {}
        for line, m in meds:
            need[m["medication_id"]] = need.get(m["medication_id"], 0) + line["quantity"]
        for mid in sorted(need):
            m = self._s["medications"][mid]
            if m["stock"] < need[mid]:
                raise ToolError("insufficient stock for %s: %d on hand, %d needed" % (mid, m["stock"], need[mid]))
        rx = self._rx(order["prescription_id"])
        if rx["refills_remaining"] < 1:
            raise ToolError("prescription %s has no refills remaining" % rx["prescription_id"])
        for mid in sorted(need):
            self._s["medications"][mid]["stock"] -= need[mid]
        rx["refills_remaining"] -= 1
        order["status"] = "filled"
        order["filled_on"] = BUSINESS_DATE
        order["verified_by"] = vb
        self._history(order, "filled", "verified by %s" % vb if vb else "dispensed")
        self._history(rx, "filled", "%s; %d refills remaining" % (oid, rx["refills_remaining"]))
        return copy.deepcopy(order)

    def _t_pickup_order(self, a):
        _check_args(
            a,
            {"order_id": "string", "payment_method": PAYMENT_METHODS, "id_verified": "boolean"},
            ["order_id", "payment_method"],
        )
        order = self._order(a["order_id"])
        oid = order["order_id"]
        if order["status"] != "filled":
            raise ToolError("order %s is %s; only filled orders can be picked up" % (oid, order["status"]))
        controlled = any(self._med(ln["medication_id"])["controlled"] for ln in order["lines"])
        if controlled and not a.get("id_verified", False):
            raise ToolError(
                "order %s contains a controlled substance; photo ID must be checked (id_verified=true)" % oid
            )
        patient = self._patient(order["patient_id"])
        due = _dec(order["patient_pays"])
        if a["payment_method"] == "account":
            new_balance = _dec(patient["copay_balance"]) + due
            if new_balance > ACCOUNT_LIMIT:
                raise ToolError(
                    "charging %s to the account would bring the copay balance of %s to %s, over the "
                    "%s limit" % (_money(due), patient["patient_id"], _money(new_balance), ACCOUNT_LIMIT)
                )
            patient["copay_balance"] = _out(new_balance)
        order["status"] = "picked_up"
        order["picked_up_on"] = BUSINESS_DATE
        order["payment_method"] = a["payment_method"]
        self._history(order, "picked_up", "%s paid by %s" % (_money(due), a["payment_method"]))
        out = copy.deepcopy(order)
        out["copay_balance"] = patient["copay_balance"]
        return out

    def _t_cancel_order(self, a):
        _check_args(a, {"order_id": "string", "reason": CANCEL_REASONS}, ["order_id", "reason"])
        order = self._order(a["order_id"])
        oid = order["order_id"]
        if order["status"] not in ("queued", "filled"):
            raise ToolError("order %s is %s and cannot be cancelled" % (oid, order["status"]))
        if order["status"] == "filled":
            for line in order["lines"]:
                self._med(line["medication_id"])["stock"] += line["quantity"]
            rx = self._rx(order["prescription_id"])
            rx["refills_remaining"] += 1
            self._history(
                rx,
                "fill_reversed",
                "%s cancelled (%s); %d refills remaining" % (oid, a["reason"], rx["refills_remaining"]),
            )
            detail = "%s; stock returned" % a["reason"]
        else:
            detail = a["reason"]
        order["status"] = "cancelled"
        self._history(order, "cancelled", detail)
        return copy.deepcopy(order)

    def _t_transfer_prescription(self, a):
        _check_args(
            a,
            {"prescription_id": "string", "to_pharmacy": "string", "to_pharmacy_phone": "string"},
            ["prescription_id", "to_pharmacy"],
        )
        rx = self._rx(a["prescription_id"])
        rid = rx["prescription_id"]
        if rx["status"] != "active":
            raise ToolError("prescription %s is %s; only active prescriptions can be transferred" % (rid, rx["status"]))
        if rx["expires_on"] < BUSINESS_DATE:
            raise ToolError("prescription %s expired on %s" % (rid, rx["expires_on"]))
        med = self._med(rx["medication_id"])
        if med.get("schedule") == "II":
            raise ToolError("%s is a Schedule II medicine; Schedule II prescriptions cannot be transferred" % rid)
        if rx["refills_remaining"] < 1:
            raise ToolError("prescription %s has no refills remaining to transfer" % rid)
        open_id = self._open_order_for(rid)
        if open_id:
            raise ToolError("prescription %s has an open fill order %s; cancel or complete it first" % (rid, open_id))
        moved = rx["refills_remaining"]
        target = a["to_pharmacy"].strip()
        if a.get("to_pharmacy_phone"):
            target += " (%s)" % a["to_pharmacy_phone"].strip()
        rx["refills_remaining"] = 0
        rx["status"] = "transferred"
        rx["transferred_to"] = target
        self._history(rx, "transferred", "%d fills moved to %s" % (moved, target))
        return {
            "prescription_id": rid,
            "status": "transferred",
            "transferred_to": target,
            "refills_transferred": moved,
            "transferred_on": BUSINESS_DATE,
        }


def make():
    return PharmacyCounter()


def _main():
    with open(os.path.join(HERE, "data.json")) as fh:
        data = json.load(fh)
    calls = errors = 0
    sessions = 0
    env = make()
    with open(os.path.join(HERE, "trajectories.jsonl")) as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            sessions += 1
            env.reset(data)
            for c in traj["calls"]:
                res = env.call(c["name"], c["arguments"])
                calls += 1
                if not res["ok"]:
                    errors += 1
    print("sessions=%d calls=%d errors=%d" % (sessions, calls, errors))


if __name__ == "__main__":
    _main()
