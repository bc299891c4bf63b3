"""Write data.json: the desk's initial state (seeded, byte-identical on every run).

Accounts are listed by hand; meter readings and bill amounts are drawn from a seeded generator and the
account balances are derived from the bills (plus fees), so the state is consistent with the policy.
"""

from __future__ import annotations

import json
import os
import random
import tempfile

SEED = 20260414
TODAY = "2026-04-14"

TARIFFS = {
    "W-RES": {
        "tariff_id": "W-RES",
        "service": "water",
        "rate_class": "residential",
        "unit": "CCF",
        "base_charge": 14.0,
        "tax_rate": 0.0,
        "tiers": [{"up_to": 6, "rate": 3.85}, {"up_to": 18, "rate": 4.6}, {"up_to": None, "rate": 6.15}],
    },
    "W-COM": {
        "tariff_id": "W-COM",
        "service": "water",
        "rate_class": "commercial",
        "unit": "CCF",
        "base_charge": 38.0,
        "tax_rate": 0.0,
        "tiers": [{"up_to": 50, "rate": 4.1}, {"up_to": None, "rate": 4.95}],
    },
    "E-RES": {
        "tariff_id": "E-RES",
        "service": "electric",
        "rate_class": "residential",
        "unit": "kWh",
        "base_charge": 11.5,
        "tax_rate": 0.05,
        "tiers": [{"up_to": 600, "rate": 0.1285}, {"up_to": None, "rate": 0.154}],
    },
    "E-COM": {
        "tariff_id": "E-COM",
        "service": "electric",
        "rate_class": "commercial",
        "unit": "kWh",
        "base_charge": 29.0,
        "tax_rate": 0.07,
        "tiers": [{"up_to": None, "rate": 0.119}],
    },
}

# id, holder, email, phone, street, city, zip, type, status, opened, services, autopay, contacts
ACCOUNTS = [
    (
        "AC-10214",
        "Marisol Ortega",
        "m.ortega",
        "555-0142",
        "118 Birchwood Ln",
        "Fairhaven",
        "97310",
        "residential",
        "active",
        "2016-05-02",
        "we",
        False,
        [("Luis Ortega", "spouse")],
    ),
    (
        "AC-10237",
        "Dennis Whitfield",
        "dwhitfield",
        "555-0187",
        "42 Quarry Rd",
        "Fairhaven",
        "97310",
        "residential",
        "delinquent",
        "2018-09-14",
        "we",
        False,
        [],
    ),
    (
        "AC-10251",
        "Priya Raman",
        "priya.raman",
        "555-0113",
        "9 Lantern Ct",
        "Millbrook",
        "97344",
        "residential",
        "active",
        "2021-02-01",
        "e",
        True,
        [],
    ),
    (
        "AC-10268",
        "Harbor Street Bakery LLC",
        "accounts",
        "555-0160",
        "301 Harbor St",
        "Millbrook",
        "97344",
        "commercial",
        "active",
        "2015-11-20",
        "we",
        False,
        [("Nadia Bell", "property_manager")],
    ),
    (
        "AC-10273",
        "Gloria Benson",
        "gbenson",
        "555-0109",
        "77 Elm Hollow Dr",
        "Cedar Falls",
        "97402",
        "residential",
        "disconnected",
        "2019-03-11",
        "w",
        False,
        [],
    ),
    (
        "AC-10289",
        "Tobias Lindqvist",
        "t.lindqvist",
        "555-0175",
        "15 Ridgeview Ter",
        "Cedar Falls",
        "97402",
        "residential",
        "disconnected",
        "2020-07-06",
        "we",
        False,
        [("Ada Lindqvist", "family")],
    ),
    (
        "AC-10295",
        "Annette Kowalczyk",
        "annette.k",
        "555-0131",
        "260 Mill Pond Rd",
        "Fairhaven",
        "97311",
        "residential",
        "active",
        "2014-01-27",
        "we",
        False,
        [],
    ),
    (
        "AC-10302",
        "Kenji Watanabe",
        "kenji.w",
        "555-0194",
        "5 Orchard Row",
        "Millbrook",
        "97345",
        "residential",
        "pending",
        "2026-04-06",
        "e",
        False,
        [],
    ),
    (
        "AC-10318",
        "Ruth Adeyemi",
        "ruth.adeyemi",
        "555-0126",
        "88 Sparrow Way",
        "Fairhaven",
        "97311",
        "residential",
        "delinquent",
        "2017-08-30",
        "w",
        False,
        [("Tunde Adeyemi", "spouse")],
    ),
    (
        "AC-10326",
        "Cedar Falls Veterinary Clinic",
        "billing",
        "555-0150",
        "12 Commerce Pkwy",
        "Cedar Falls",
        "97403",
        "commercial",
        "delinquent",
        "2012-04-16",
        "we",
        False,
        [],
    ),
    (
        "AC-10331",
        "Samuel Oyelaran",
        "s.oyelaran",
        "555-0168",
        "402 Willow Bend",
        "Millbrook",
        "97344",
        "residential",
        "closed",
        "2017-02-13",
        "e",
        False,
        [],
    ),
    (
        "AC-10347",
        "Lena Fischer",
        "lena.fischer",
        "555-0121",
        "31 Aspen Loop",
        "Cedar Falls",
        "97402",
        "residential",
        "pending",
        "2026-04-09",
        "w",
        False,
        [],
    ),
    (
        "AC-10352",
        "Omar Haddad",
        "ohaddad",
        "555-0177",
        "19 Foundry Ln",
        "Millbrook",
        "97345",
        "residential",
        "active",
        "2022-10-03",
        "we",
        False,
        [("Yasmin Haddad", "spouse"), ("Karim Haddad", "family"), ("Brightkey Rentals", "landlord")],
    ),
    (
        "AC-10365",
        "Fairhaven Self Storage Inc.",
        "office",
        "555-0104",
        "700 Industrial Blvd",
        "Fairhaven",
        "97312",
        "commercial",
        "active",
        "2013-06-24",
        "e",
        False,
        [("Curtis Mayhew", "property_manager")],
    ),
]

# Bills per account: (period, paid share) where share 1 = paid, 0 = open, 0<x<1 partial.
BILLS = {
    "AC-10214": [("2026-02", 1), ("2026-03", 0)],
    "AC-10237": [("2026-01", 0.4), ("2026-02", 0), ("2026-03", 0)],
    "AC-10251": [("2026-02", 1), ("2026-03", 1)],
    "AC-10268": [("2026-02", 1), ("2026-03", 0)],
    "AC-10273": [("2026-01", 1), ("2026-02", 1)],
    "AC-10289": [("2026-01", 0), ("2026-02", 0)],
    "AC-10295": [("2026-02", 1 / 3), ("2026-03", 0)],
    "AC-10318": [("2026-01", 0), ("2026-02", 0), ("2026-03", 0)],
    "AC-10326": [("2026-02", 0), ("2026-03", 0)],
    "AC-10331": [("2025-12", 1)],
    "AC-10352": [("2026-02", 1), ("2026-03", 0)],
    "AC-10365": [("2026-02", 1), ("2026-03", 0.5)],
}
ISSUE = {
    "2025-12": ("2026-01-05", "2026-01-26"),
    "2026-01": ("2026-02-03", "2026-02-24"),
    "2026-02": ("2026-03-03", "2026-03-24"),
    "2026-03": ("2026-04-02", "2026-04-23"),
}

ORDERS = [  # id, account, service, type, status, scheduled, dates of history
    ("SO-7701", "AC-10214", "w", "meter_test", "completed", "2026-01-20", ["2026-01-12", "2026-01-20", "2026-01-20"]),
    ("SO-7702", "AC-10273", "w", "disconnect", "completed", "2026-02-26", ["2026-02-18", "2026-02-26", "2026-02-26"]),
    ("SO-7703", "AC-10289", "w", "disconnect", "completed", "2026-03-12", ["2026-03-05", "2026-03-12", "2026-03-12"]),
    ("SO-7704", "AC-10289", "e", "disconnect", "completed", "2026-03-12", ["2026-03-05", "2026-03-12", "2026-03-12"]),
    ("SO-7705", "AC-10237", "e", "disconnect", "cancelled", "2026-03-19", ["2026-03-10", "2026-03-16"]),
    ("SO-7706", "AC-10331", "e", "meter_test", "cancelled", "2025-12-08", ["2025-12-01", "2025-12-03"]),
    ("SO-7707", "AC-10302", "e", "connect", "scheduled", "2026-04-16", ["2026-04-06"]),
    ("SO-7708", "AC-10318", "w", "disconnect", "scheduled", "2026-04-17", ["2026-04-10"]),
    ("SO-7709", "AC-10352", "e", "meter_test", "dispatched", "2026-04-15", ["2026-04-08", "2026-04-14"]),
    ("SO-7710", "AC-10268", "w", "meter_test", "scheduled", "2026-04-22", ["2026-04-13"]),
]
FEES = {"connect": 25.0, "disconnect": 0.0, "reconnect": 45.0, "meter_test": 30.0}
STEPS = {
    "completed": ["scheduled", "dispatched", "completed"],
    "cancelled": ["scheduled", "cancelled"],
    "dispatched": ["scheduled", "dispatched"],
    "scheduled": ["scheduled"],
}


def _meters(rng: random.Random) -> dict:
    meters, number = {}, 40110
    for acct in ACCOUNTS:
        acct_id, status, services, kind = acct[0], acct[8], acct[10], acct[7]
        for svc in services:
            number += 7
            water = svc == "w"
            tariff = ("W-" if water else "E-") + ("COM" if kind == "commercial" else "RES")
            low, high = {"W-RES": (5, 14), "W-COM": (30, 80), "E-RES": (420, 950), "E-COM": (2600, 6100)}[tariff]
            start = rng.randint(800, 4000) if water else rng.randint(20000, 90000)
            on = status in ("active", "delinquent")
            dates = ["2026-02-27", "2026-03-30"] if status != "pending" else ["2026-04-06"]
            if status == "disconnected":
                dates = ["2026-01-29", "2026-02-26"]
            if status == "closed":
                dates = ["2025-11-26", "2025-12-29"]
            value, readings = start, []
            for day in dates:
                value += rng.randint(low, high) if readings else 0
                readings.append({"date": day, "value": value, "source": "field"})
            if acct_id == "AC-10268" and not water:
                value += rng.randint(low, high) // 2
                readings.append({"date": TODAY, "value": value, "source": "smart_meter"})
            meter_id = f"MTR-{number}"
            meters[meter_id] = {
                "meter_id": meter_id,
                "account_id": acct_id,
                "serial": (f"WB-{rng.randint(100000, 999999)}" if water else f"EK-{rng.randint(1000000, 9999999)}"),
                "service": "water" if water else "electric",
                "tariff_id": tariff,
                "status": "on" if on else "off",
                "installed": acct[9] if acct[9] > "2016" else "2016-03-01",
                "last_reading": value,
                "last_read_date": readings[-1]["date"],
                "readings": readings,
            }
    return meters


def _bills(rng: random.Random) -> dict:
    bills, accounts = {}, {a[0]: a for a in ACCOUNTS}
    for acct_id, entries in BILLS.items():
        kind, services = accounts[acct_id][7], accounts[acct_id][10]
        for period, share in entries:
            amount = 0.0
            for svc in services:
                amount += rng.uniform(38, 95) if svc == "w" else rng.uniform(70, 160)
            if kind == "commercial":
                amount *= 4.2
            amount = round(amount, 2)
            paid = round(amount * share, 2) if share < 1 else amount
            status = "paid" if share == 1 else ("partial" if share > 0 else "open")
            bill_id = f"BL-{acct_id[3:]}-{period.replace('-', '')}"
            issue, due = ISSUE[period]
            bills[bill_id] = {
                "bill_id": bill_id,
                "account_id": acct_id,
                "period": period,
                "issue_date": issue,
                "due_date": due,
                "amount": amount,
                "amount_paid": paid,
                "status": status,
            }
    return bills


def _orders(meters: dict) -> dict:
    orders = {}
    for order_id, acct_id, svc, kind, status, when, dates in ORDERS:
        meter_id = next(m for m, rec in meters.items() if rec["account_id"] == acct_id and rec["service"][0] == svc)
        history = [{"date": d, "status": s} for d, s in zip(dates, STEPS[status])]
        orders[order_id] = {
            "order_id": order_id,
            "account_id": acct_id,
            "meter_id": meter_id,
            "order_type": kind,
            "status": status,
            "scheduled_date": when,
            "fee": FEES[kind],
            "notes": "",
            "history": history,
        }
    orders["SO-7705"]["history"][-1]["note"] = "customer paid part of the balance at the desk"
    return orders


def _accounts(bills: dict, orders: dict) -> dict:
    accounts = {}
    for acct_id, holder, mail, phone, street, city, zip_code, kind, status, opened, _s, autopay, contacts in ACCOUNTS:
        history, balance = [], 0.0
        mine = sorted((b for b in bills.values() if b["account_id"] == acct_id), key=lambda b: b["period"])
        for bill in mine:
            balance += bill["amount"] - bill["amount_paid"]
            if bill["amount_paid"] > 0:
                pay_day = "2026-03-20" if bill["period"] == "2026-02" else bill["due_date"]
                if bill["period"] == "2026-03":
                    pay_day = "2026-04-08"
                count = sum(1 for h in history if h["event"] == "payment")
                history.append(
                    {
                        "date": pay_day,
                        "event": "payment",
                        "amount": bill["amount_paid"],
                        "method": "bank_transfer" if autopay or kind == "commercial" else "card",
                        "receipt": f"{acct_id}-P{count + 1}",
                    }
                )
        for order in sorted(orders.values(), key=lambda o: o["order_id"]):
            if order["account_id"] == acct_id:
                history.append(
                    {
                        "date": order["history"][0]["date"],
                        "event": "service_order",
                        "order_id": order["order_id"],
                        "order_type": order["order_type"],
                    }
                )
                if order["status"] == "completed" and order["fee"]:
                    history.append(
                        {
                            "date": order["history"][-1]["date"],
                            "event": "fee",
                            "amount": order["fee"],
                            "order_id": order["order_id"],
                        }
                    )
                    balance += order["fee"]
        history.sort(key=lambda h: h["date"])
        accounts[acct_id] = {
            "account_id": acct_id,
            "holder_name": holder,
            "email": f"{mail}@example.test",
            "phone": phone,
            "service_address": {"street": street, "city": city, "zip": zip_code},
            "account_type": kind,
            "status": status,
            "opened": opened,
            "balance": round(balance, 2),
            "autopay": autopay,
            "authorized_contacts": [{"name": n, "relationship": r, "added": opened} for n, r in contacts],
            "payment_plan": None,
            "history": history,
        }
    return accounts


def _fixups(accounts: dict, bills: dict) -> None:
    """Records whose story the generic builders do not tell."""
    # AC-10214 paid the meter-test fee along with the February bill.
    acct = accounts["AC-10214"]
    acct["balance"] = round(acct["balance"] - 30.0, 2)
    pay = next(h for h in acct["history"] if h["event"] == "payment")
    pay["amount"] = round(pay["amount"] + 30.0, 2)
    # AC-10273 paid off both bills in one payment after the disconnection; nothing owed.
    acct = accounts["AC-10273"]
    total = round(sum(h["amount"] for h in acct["history"] if h["event"] == "payment"), 2)
    acct["history"] = [h for h in acct["history"] if h["event"] != "payment"]
    acct["history"].append(
        {"date": "2026-03-20", "event": "payment", "amount": total, "method": "card", "receipt": "AC-10273-P1"}
    )
    # AC-10237's partial payment is what made collections cancel the March disconnection.
    next(h for h in accounts["AC-10237"]["history"] if h["event"] == "payment")["date"] = "2026-03-16"
    accounts["AC-10237"]["history"].sort(key=lambda h: h["date"])
    # AC-10295 is on a payment plan for the February bill; the first installment is paid.
    acct = accounts["AC-10295"]
    feb = bills["BL-10295-202602"]
    per = round(feb["amount"] / 3 - 0.005, 2)
    feb["amount_paid"] = per
    feb["status"] = "partial"
    acct["balance"] = round(feb["amount"] - per + bills["BL-10295-202603"]["amount"], 2)
    last = round(feb["amount"] - 2 * per, 2)
    acct["payment_plan"] = {
        "plan_id": "PP-10295-1",
        "status": "active",
        "created": "2026-03-10",
        "total": feb["amount"],
        "installments": [
            {"number": 1, "due_date": "2026-04-15", "amount": per},
            {"number": 2, "due_date": "2026-05-15", "amount": per},
            {"number": 3, "due_date": "2026-06-15", "amount": last},
        ],
    }
    acct["history"] = [h for h in acct["history"] if h["event"] != "payment"]
    acct["history"].append(
        {"date": "2026-03-10", "event": "payment_plan_created", "plan_id": "PP-10295-1", "amount": feb["amount"]}
    )
    acct["history"].append(
        {"date": "2026-04-02", "event": "payment", "amount": per, "method": "card", "receipt": "AC-10295-P1"}
    )
    # AC-10365 had a completed earlier plan; a new one would be PP-10365-2.
    accounts["AC-10365"]["history"].insert(
        0, {"date": "2025-06-03", "event": "payment_plan_created", "plan_id": "PP-10365-1", "amount": 1480.0}
    )
    accounts["AC-10365"]["payment_plan"] = {
        "plan_id": "PP-10365-1",
        "status": "completed",
        "created": "2025-06-03",
        "total": 1480.0,
        "installments": [{"number": k, "due_date": f"2025-{6 + k:02d}-15", "amount": 370.0} for k in range(1, 5)],
    }


def build() -> dict:
    """The whole initial state."""
    rng = random.Random(SEED)
    meters = _meters(rng)
    bills = _bills(rng)
    orders = _orders(meters)
    accounts = _accounts(bills, orders)
    _fixups(accounts, bills)
    return {
        "settings": {"business_date": TODAY, "utility": "Brookfield Water & Power"},
        "accounts": accounts,
        "meters": meters,
        "bills": bills,
        "service_orders": orders,
        "tariffs": TARIFFS,
    }


def write_json(path: str, value) -> None:
    """Atomic write (temp file + rename)."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(value, fh, indent=1, ensure_ascii=False)
        fh.write("\n")
    os.replace(tmp, path)


if __name__ == "__main__":
    write_json(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data.json"), build())
