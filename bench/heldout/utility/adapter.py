"""Brookfield Water & Power customer-service desk API: the real implementation.

Standard library only and deterministic: the business date is `settings.business_date` in the state,
new ids come from the records already in the state. `make()` returns the adapter used by forgegym's
fidelity measure; `python adapter.py` replays every trajectory of trajectories.jsonl.
"""

from __future__ import annotations

import copy
import datetime as _dt
import inspect
import json
import os
import sys
from decimal import ROUND_DOWN, ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")
ORDER_FEES = {"connect": "25.00", "disconnect": "0.00", "reconnect": "45.00", "meter_test": "30.00"}
ORDER_TRANSITIONS = {"scheduled": ("dispatched", "cancelled"), "dispatched": ("completed", "cancelled")}
RELATIONSHIPS = ("spouse", "family", "tenant", "landlord", "property_manager", "other")
PAY_METHODS = ("card", "bank_transfer", "check", "cash")
READING_SOURCES = ("customer", "field", "smart_meter")
ACCOUNT_STATUSES = ("pending", "active", "delinquent", "disconnected", "closed")
BILL_STATUSES = ("open", "partial", "paid", "void")


class ApiError(Exception):
    """A refused call; its message becomes the output `Error: ...`."""


def _money(value) -> Decimal:
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def _num(value: Decimal) -> float:
    return float(value.quantize(CENT, rounding=ROUND_HALF_UP))


def _date(value, field: str) -> _dt.date:
    if not isinstance(value, str):
        raise ApiError(f"{field} must be a date string YYYY-MM-DD")
    try:
        return _dt.date.fromisoformat(value)
    except ValueError:
        raise ApiError(f"{field} must be a date string YYYY-MM-DD") from None


def _add_months(day: _dt.date, months: int, dom: int) -> _dt.date:
    index = day.month - 1 + months
    return _dt.date(day.year + index // 12, index % 12 + 1, dom)


class UtilityDesk:
    """The desk's API over one in-memory state (data.json's layout)."""

    def __init__(self) -> None:
        self._s: dict = {}

    # ---- adapter protocol -------------------------------------------------------------------
    def reset(self, state: dict) -> None:
        """Start from a deep copy of `state`."""
        self._s = copy.deepcopy(state)

    def state(self) -> dict:
        """The whole current state, deep-copied."""
        return copy.deepcopy(self._s)

    def call(self, name: str, arguments: dict) -> dict:
        """Run one operation; a refusal is `{"ok": False, "output": "Error: ..."}`."""
        handler = getattr(self, "op_" + str(name), None)
        if handler is None:
            return {"ok": False, "output": f"Error: unknown operation '{name}'"}
        if not isinstance(arguments, dict):
            return {"ok": False, "output": "Error: arguments must be an object"}
        params = inspect.signature(handler).parameters
        unknown = sorted(k for k in arguments if k not in params)
        missing = [k for k, p in params.items() if p.default is inspect.Parameter.empty and k not in arguments]
        if unknown or missing:
            what = f"unknown parameter '{unknown[0]}'" if unknown else f"missing required parameter '{missing[0]}'"
            return {"ok": False, "output": f"Error: {what}"}
        snapshot = copy.deepcopy(self._s)
        try:
            return {"ok": True, "output": copy.deepcopy(handler(**copy.deepcopy(arguments)))}
        except ApiError as exc:
            self._s = snapshot
            return {"ok": False, "output": f"Error: {exc}"}

    # ---- helpers ------------------------------------------------------------------------------
    @property
    def today(self) -> _dt.date:
        return _dt.date.fromisoformat(self._s["settings"]["business_date"])

    def _account(self, account_id) -> dict:
        acct = self._s["accounts"].get(account_id) if isinstance(account_id, str) else None
        if acct is None:
            raise ApiError(f"account {account_id} not found")
        return acct

    def _meter(self, meter_id) -> dict:
        meter = self._s["meters"].get(meter_id) if isinstance(meter_id, str) else None
        if meter is None:
            raise ApiError(f"meter {meter_id} not found")
        return meter

    def _order(self, order_id) -> dict:
        order = self._s["service_orders"].get(order_id) if isinstance(order_id, str) else None
        if order is None:
            raise ApiError(f"service order {order_id} not found")
        return order

    def _log(self, acct: dict, event: str, **fields) -> None:
        acct["history"].append({"date": self.today.isoformat(), "event": event, **fields})

    @staticmethod
    def _plan_active(acct: dict) -> bool:
        plan = acct.get("payment_plan")
        return bool(plan) and plan.get("status") == "active"

    # ---- reads ----------------------------------------------------------------------------------
    def op_get_account(self, account_id):
        return self._account(account_id)

    def op_find_accounts(self, name=None, city=None, status=None, meter_serial=None, min_balance=None):
        if status is not None and status not in ACCOUNT_STATUSES:
            raise ApiError(f"status must be one of {', '.join(ACCOUNT_STATUSES)}")
        if min_balance is not None and (isinstance(min_balance, bool) or not isinstance(min_balance, (int, float))):
            raise ApiError("min_balance must be a number")
        owners = None
        if meter_serial is not None:
            owners = {
                m["account_id"]
                for m in self._s["meters"].values()
                if m["serial"].lower() == str(meter_serial).strip().lower()
            }
        found = []
        for acct_id in sorted(self._s["accounts"]):
            acct = self._s["accounts"][acct_id]
            if name is not None and str(name).strip().lower() not in acct["holder_name"].lower():
                continue
            if city is not None and acct["service_address"]["city"].lower() != str(city).strip().lower():
                continue
            if status is not None and acct["status"] != status:
                continue
            if owners is not None and acct_id not in owners:
                continue
            if min_balance is not None and acct["balance"] < min_balance:
                continue
            found.append(
                {
                    "account_id": acct_id,
                    "holder_name": acct["holder_name"],
                    "city": acct["service_address"]["city"],
                    "status": acct["status"],
                    "balance": acct["balance"],
                }
            )
        return found

    def op_list_bills(self, account_id, status=None):
        self._account(account_id)
        if status is not None and status not in BILL_STATUSES:
            raise ApiError(f"status must be one of {', '.join(BILL_STATUSES)}")
        bills = [
            b
            for b in self._s["bills"].values()
            if b["account_id"] == account_id and (status is None or b["status"] == status)
        ]
        return sorted(bills, key=lambda b: (b["due_date"], b["bill_id"]))

    def op_get_meter(self, meter_id):
        return self._meter(meter_id)

    def op_list_service_orders(self, account_id=None, meter_id=None, status=None, order_type=None):
        if account_id is not None:
            self._account(account_id)
        if meter_id is not None:
            self._meter(meter_id)
        orders = []
        for order_id in sorted(self._s["service_orders"]):
            order = self._s["service_orders"][order_id]
            if account_id is not None and order["account_id"] != account_id:
                continue
            if meter_id is not None and order["meter_id"] != meter_id:
                continue
            if status is not None and order["status"] != status:
                continue
            if order_type is not None and order["order_type"] != order_type:
                continue
            orders.append(order)
        return orders

    def op_estimate_bill(self, meter_id, reading):
        meter = self._meter(meter_id)
        usage = self._usage(meter, reading)
        tariff = self._s["tariffs"][meter["tariff_id"]]
        usage_charge, floor = Decimal("0"), 0
        for tier in tariff["tiers"]:
            top = tier["up_to"]
            units = usage - floor if top is None else max(0, min(usage, top) - floor)
            usage_charge += Decimal(units) * Decimal(str(tier["rate"]))
            if top is None or usage <= top:
                break
            floor = top
        usage_charge = _money(usage_charge)
        base = _money(tariff["base_charge"])
        subtotal = base + usage_charge
        tax = _money(subtotal * Decimal(str(tariff["tax_rate"])))
        return {
            "meter_id": meter_id,
            "tariff_id": meter["tariff_id"],
            "service": meter["service"],
            "previous_reading": meter["last_reading"],
            "reading": reading,
            "usage": usage,
            "unit": tariff["unit"],
            "base_charge": _num(base),
            "usage_charge": _num(usage_charge),
            "tax": _num(tax),
            "total": _num(subtotal + tax),
        }

    @staticmethod
    def _usage(meter: dict, reading) -> int:
        if isinstance(reading, bool) or not isinstance(reading, int):
            raise ApiError("reading must be a whole number")
        if reading < meter["last_reading"]:
            raise ApiError(f"reading {reading} is lower than the last reading {meter['last_reading']}")
        return reading - meter["last_reading"]

    # ---- writes ---------------------------------------------------------------------------------
    def op_submit_meter_reading(self, meter_id, reading, source="customer"):
        meter = self._meter(meter_id)
        if source not in READING_SOURCES:
            raise ApiError(f"source must be one of {', '.join(READING_SOURCES)}")
        if meter["status"] != "on":
            raise ApiError(f"meter {meter_id} is {meter['status']}; readings are taken only on meters that are on")
        usage = self._usage(meter, reading)
        day = self.today.isoformat()
        if meter["last_read_date"] == day:
            raise ApiError(f"meter {meter_id} was already read on {day}")
        previous = meter["last_reading"]
        meter["readings"].append({"date": day, "value": reading, "source": source})
        meter["last_reading"], meter["last_read_date"] = reading, day
        return {
            "meter_id": meter_id,
            "previous_reading": previous,
            "reading": reading,
            "usage": usage,
            "date": day,
            "source": source,
        }

    def op_post_payment(self, account_id, amount, method):
        acct = self._account(account_id)
        if acct["status"] == "closed":
            raise ApiError(f"account {account_id} is closed")
        if method not in PAY_METHODS:
            raise ApiError(f"method must be one of {', '.join(PAY_METHODS)}")
        if isinstance(amount, bool) or not isinstance(amount, (int, float)):
            raise ApiError("amount must be a number")
        paid = Decimal(str(amount))
        if paid <= 0 or paid != paid.quantize(CENT):
            raise ApiError("amount must be positive with at most two decimals")
        if method == "cash" and paid > Decimal("500"):
            raise ApiError("cash payments at the desk are limited to 500.00")
        left, applied = paid, []
        open_bills = sorted(
            (
                b
                for b in self._s["bills"].values()
                if b["account_id"] == account_id and b["status"] in ("open", "partial")
            ),
            key=lambda b: (b["due_date"], b["bill_id"]),
        )
        for bill in open_bills:
            if left <= 0:
                break
            owed = _money(bill["amount"]) - _money(bill["amount_paid"])
            part = min(owed, left)
            left -= part
            bill["amount_paid"] = _num(_money(bill["amount_paid"]) + part)
            bill["status"] = "paid" if part == owed else "partial"
            applied.append({"bill_id": bill["bill_id"], "applied": _num(part), "status": bill["status"]})
        acct["balance"] = _num(_money(acct["balance"]) - paid)
        count = sum(1 for h in acct["history"] if h["event"] == "payment")
        receipt = f"{account_id}-P{count + 1}"
        self._log(acct, "payment", amount=_num(paid), method=method, receipt=receipt)
        if acct["balance"] <= 0:
            if acct["status"] == "delinquent":
                acct["status"] = "active"
            if self._plan_active(acct):
                acct["payment_plan"]["status"] = "completed"
        return {
            "receipt": receipt,
            "account_id": account_id,
            "amount": _num(paid),
            "method": method,
            "balance": acct["balance"],
            "account_status": acct["status"],
            "applied_to": applied,
        }

    def op_create_payment_plan(self, account_id, installments):
        acct = self._account(account_id)
        if acct["status"] not in ("active", "delinquent"):
            raise ApiError(
                f"account {account_id} is {acct['status']}; plans are offered only to active or delinquent accounts"
            )
        if self._plan_active(acct):
            raise ApiError(f"account {account_id} already has an active payment plan")
        limit = 12 if acct["account_type"] == "commercial" else 6
        if isinstance(installments, bool) or not isinstance(installments, int) or not 2 <= installments <= limit:
            raise ApiError(
                f"installments must be a whole number from 2 to {limit} for a {acct['account_type']} account"
            )
        total = _money(acct["balance"])
        if total < Decimal("100"):
            raise ApiError(f"balance {_num(total):.2f} is below the 100.00 minimum for a payment plan")
        each = (total / installments).quantize(CENT, rounding=ROUND_DOWN)
        count = sum(1 for h in acct["history"] if h["event"] == "payment_plan_created")
        plan_id = f"PP-{account_id.split('-')[1]}-{count + 1}"
        schedule = []
        for number in range(1, installments + 1):
            amount = each if number < installments else total - each * (installments - 1)
            due = _add_months(self.today, number, 15).isoformat()
            schedule.append({"number": number, "due_date": due, "amount": _num(amount)})
        acct["payment_plan"] = {
            "plan_id": plan_id,
            "status": "active",
            "created": self.today.isoformat(),
            "total": _num(total),
            "installments": schedule,
        }
        if acct["status"] == "delinquent":
            acct["status"] = "active"
        self._log(acct, "payment_plan_created", plan_id=plan_id, amount=_num(total))
        return acct["payment_plan"]

    def op_create_service_order(self, account_id, meter_id, order_type, scheduled_date, notes=None):
        acct = self._account(account_id)
        meter = self._meter(meter_id)
        if meter["account_id"] != account_id:
            raise ApiError(f"meter {meter_id} is not on account {account_id}")
        if order_type not in ORDER_FEES:
            raise ApiError(f"order_type must be one of {', '.join(ORDER_FEES)}")
        day = _date(scheduled_date, "scheduled_date")
        if not self.today < day <= self.today + _dt.timedelta(days=30):
            raise ApiError("scheduled_date must be after the business date and at most 30 days ahead")
        if day.weekday() >= 5:
            raise ApiError(f"field crews do not work weekends ({scheduled_date} is a {day.strftime('%A')})")
        for other in self._s["service_orders"].values():
            if other["meter_id"] == meter_id and other["status"] in ("scheduled", "dispatched"):
                raise ApiError(f"meter {meter_id} already has open service order {other['order_id']}")
        self._check_order_allowed(acct, meter, order_type)
        number = max(int(k.split("-")[1]) for k in self._s["service_orders"]) + 1
        order_id = f"SO-{number}"
        order = {
            "order_id": order_id,
            "account_id": account_id,
            "meter_id": meter_id,
            "order_type": order_type,
            "status": "scheduled",
            "scheduled_date": day.isoformat(),
            "fee": float(ORDER_FEES[order_type]),
            "notes": notes if notes is not None else "",
            "history": [{"date": self.today.isoformat(), "status": "scheduled"}],
        }
        self._s["service_orders"][order_id] = order
        self._log(acct, "service_order", order_id=order_id, order_type=order_type)
        return order

    def _check_order_allowed(self, acct: dict, meter: dict, order_type: str) -> None:
        status, meter_id = acct["status"], meter["meter_id"]
        if status == "closed":
            raise ApiError(f"account {acct['account_id']} is closed")
        if order_type == "connect":
            if status != "pending":
                raise ApiError("connect orders are only for pending (new) accounts")
            if meter["status"] != "off":
                raise ApiError(f"meter {meter_id} is already on")
        elif order_type == "disconnect":
            if status != "delinquent":
                raise ApiError("disconnection for nonpayment requires a delinquent account")
            if self._plan_active(acct):
                raise ApiError("the account has an active payment plan and cannot be disconnected")
            if meter["status"] != "on":
                raise ApiError(f"meter {meter_id} is already off")
        elif order_type == "reconnect":
            if status != "disconnected":
                raise ApiError("reconnect orders are only for disconnected accounts")
            if meter["status"] != "off":
                raise ApiError(f"meter {meter_id} is already on")
            if acct["balance"] > 0 and not self._plan_active(acct):
                raise ApiError(f"balance {acct['balance']:.2f} must be paid in full before reconnection")
        elif meter["status"] != "on":
            raise ApiError(f"meter {meter_id} must be on for a meter test")

    def op_update_service_order(self, order_id, status, note=None):
        order = self._order(order_id)
        current = order["status"]
        if status not in ORDER_TRANSITIONS.get(current, ()):
            raise ApiError(f"service order {order_id} cannot go from {current} to {status}")
        acct = self._s["accounts"][order["account_id"]]
        meter = self._s["meters"][order["meter_id"]]
        if status == "completed":
            kind = order["order_type"]
            if kind == "disconnect" and acct["status"] != "delinquent":
                raise ApiError(f"account {acct['account_id']} is no longer delinquent; cancel the order instead")
            if kind in ("connect", "reconnect"):
                meter["status"], acct["status"] = "on", "active"
            elif kind == "disconnect":
                meter["status"], acct["status"] = "off", "disconnected"
            if order["fee"] > 0:
                acct["balance"] = _num(_money(acct["balance"]) + _money(order["fee"]))
                self._log(acct, "fee", amount=order["fee"], order_id=order_id)
        order["status"] = status
        entry = {"date": self.today.isoformat(), "status": status}
        if note is not None:
            entry["note"] = note
        order["history"].append(entry)
        return order

    def op_update_authorized_contacts(self, account_id, action, name, relationship=None):
        acct = self._account(account_id)
        if acct["status"] == "closed":
            raise ApiError(f"account {account_id} is closed")
        if not isinstance(name, str) or not name.strip():
            raise ApiError("name is required")
        name = name.strip()
        contacts = acct["authorized_contacts"]
        match = [c for c in contacts if c["name"].lower() == name.lower()]
        if action == "add":
            if relationship not in RELATIONSHIPS:
                raise ApiError(f"relationship must be one of {', '.join(RELATIONSHIPS)}")
            if match:
                raise ApiError(f"{name} is already an authorized contact")
            if len(contacts) >= 3:
                raise ApiError("an account can have at most 3 authorized contacts")
            contacts.append({"name": name, "relationship": relationship, "added": self.today.isoformat()})
            self._log(acct, "contact_added", name=name)
        elif action == "remove":
            if not match:
                raise ApiError(f"{name} is not an authorized contact on account {account_id}")
            contacts.remove(match[0])
            self._log(acct, "contact_removed", name=match[0]["name"])
        else:
            raise ApiError("action must be add or remove")
        return contacts


def make() -> UtilityDesk:
    """A fresh desk; call reset(state) before use."""
    return UtilityDesk()


def replay(folder: str) -> tuple[int, int, int]:
    """Replay every trajectory from data.json; returns (trajectories, calls, errors)."""
    with open(os.path.join(folder, "data.json"), encoding="utf-8") as fh:
        data = json.load(fh)
    desk, trajectories, calls, errors = make(), 0, 0, 0
    with open(os.path.join(folder, "trajectories.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            traj = json.loads(line)
            desk.reset(traj.get("initial_state", data))
            trajectories += 1
            for step in traj["calls"]:
                calls += 1
                errors += 0 if desk.call(step["name"], step["arguments"])["ok"] else 1
    return trajectories, calls, errors


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    n_traj, n_calls, n_errors = replay(here)
    print(f"trajectories: {n_traj}  calls: {n_calls}  errors: {n_errors}")
    sys.exit(0)
