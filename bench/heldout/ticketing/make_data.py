"""Build data.json deterministically (seeded), placing orders through the adapter so counters agree."""

import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
r = random.Random(7)
customers = {}
names = [
    ("Maya Okafor", "maya.okafor@example.net"),
    ("Jonas Lindqvist", "jonas.l@example.com"),
    ("Priya Raman", "priya.raman@example.org"),
    ("Diego Alvarez", "d.alvarez@example.com"),
    ("Hannah Weiss", "hweiss@example.net"),
    ("Tomasz Nowak", "tnowak@example.com"),
    ("Aisha Bello", "aisha.bello@example.org"),
    ("Liam Gallagher-Ross", "liam.gr@example.com"),
    ("Sofia Marchetti", "sofia.m@example.net"),
    ("Kenji Watanabe", "kenji.w@example.com"),
    ("Chloe Dubois", "chloe.dubois@example.org"),
    ("Marcus Reid", "marcus.reid@example.com"),
]
for i, (n, e) in enumerate(names):
    cid = f"CU-{1001 + i}"
    customers[cid] = {
        "customer_id": cid,
        "name": n,
        "email": e,
        "wallet_balance": float(r.choice([0, 15, 40, 60, 85, 120, 150, 210, 300])) + r.choice([0, 0.5, 0.25]),
        "loyalty_points": r.choice([0, 35, 80, 120, 240, 410, 55]),
    }
events = {}
ev = [
    ("The Velvet Static", "2026-11-12", "completed", [("GA", 28.0, 180), ("BALC", 42.0, 40)]),
    ("Nora Quill Trio", "2026-11-27", "on_sale", [("GA", 24.0, 150), ("TABLE", 55.0, 24)]),
    ("Bassline Cartography", "2026-11-28", "on_sale", [("GA", 32.0, 200), ("BALC", 48.0, 40), ("VIP", 95.0, 10)]),
    ("Hollow Pines (acoustic)", "2026-12-03", "on_sale", [("GA", 30.0, 120)]),
    ("Mariachi Luz de Luna", "2026-12-05", "on_sale", [("GA", 26.0, 180), ("BALC", 38.0, 40)]),
    ("Open Mic Winter Edition", "2026-12-09", "on_sale", [("GA", 8.0, 100)]),
    ("Static Bloom", "2026-12-12", "cancelled", [("GA", 35.0, 200), ("BALC", 50.0, 40)]),
    ("Ezra Kell & The Lanterns", "2026-12-18", "on_sale", [("GA", 40.0, 200), ("BALC", 58.0, 40), ("VIP", 120.0, 12)]),
    ("New Year's Eve Swing Night", "2026-12-31", "scheduled", [("GA", 45.0, 220), ("TABLE", 90.0, 30)]),
    ("Kids' Saturday Matinee", "2026-11-29", "on_sale", [("GA", 12.0, 90)]),
]
for i, (t, d, s, tiers) in enumerate(ev):
    eid = f"EV-{301 + i}"
    events[eid] = {
        "event_id": eid,
        "title": t,
        "date": d,
        "doors_open": r.choice(["18:30", "19:00", "19:30"]) if "Matinee" not in t else "11:00",
        "status": s,
        "tiers": [{"tier": c, "price": p, "capacity": cap, "sold": 0} for c, p, cap in tiers],
    }

# tickets sold through partners and at the door before the orders below
baseline = {
    "EV-301": [150, 36],
    "EV-302": [61, 20],
    "EV-303": [120, 31, 8],
    "EV-304": [116],
    "EV-305": [44, 12],
    "EV-306": [37],
    "EV-307": [90, 18],
    "EV-308": [141, 36, 10],
    "EV-309": [0, 0],
    "EV-310": [80],
}
for eid, sold in baseline.items():
    for t, s in zip(events[eid]["tiers"], sold):
        t["sold"] = s
promo_codes = {}
for code, pct, eid, uses, mx, active in [
    ("WINTER10", 10, None, 14, 100, True),
    ("NORA20", 20, "EV-302", 3, 25, True),
    ("BASSVIP15", 15, "EV-303", 5, 5, True),
    ("FRIENDS5", 5, None, 41, 200, True),
    ("SUMMER25", 25, None, 60, 60, False),
    ("KIDSFREE50", 50, "EV-310", 2, 20, True),
    ("LANTERN12", 12, "EV-308", 0, 10, True),
]:
    promo_codes[code] = {
        "code": code,
        "percent_off": pct,
        "event_id": eid,
        "uses": uses,
        "max_uses": mx,
        "active": active,
    }

status_after = {"EV-301": "completed", "EV-307": "cancelled"}
for eid in status_after:
    events[eid]["status"] = "on_sale"
import adapter  # noqa: E402

api = adapter.make()
api.reset({"customers": customers, "events": events, "orders": {}, "promo_codes": promo_codes})


def do(name, **kw):
    res = api.call(name, kw)
    assert res["ok"], (name, kw, res)
    return res["output"]


# past concert: paid orders; the event completes afterwards
plan = [
    ("CU-1001", "EV-301", "GA", 2, None, "pay"),
    ("CU-1003", "EV-301", "BALC", 2, "WINTER10", "pay"),
    ("CU-1006", "EV-301", "GA", 1, None, "pay"),
    ("CU-1009", "EV-307", "GA", 2, None, "pay"),
    ("CU-1002", "EV-307", "BALC", 1, None, "reserve"),
    ("CU-1003", "EV-302", "TABLE", 2, "NORA20", "pay"),
    ("CU-1005", "EV-302", "GA", 3, None, "reserve"),
    ("CU-1008", "EV-302", "GA", 2, None, "pay"),
    ("CU-1001", "EV-303", "GA", 2, None, "reserve"),
    ("CU-1007", "EV-303", "BALC", 4, "FRIENDS5", "pay"),
    ("CU-1011", "EV-303", "VIP", 1, None, "reserve"),
    ("CU-1004", "EV-305", "GA", 1, None, "reserve"),
    ("CU-1010", "EV-305", "BALC", 2, "WINTER10", "pay"),
    ("CU-1012", "EV-305", "GA", 4, None, "reserve"),
    ("CU-1006", "EV-306", "GA", 2, None, "pay"),
    ("CU-1002", "EV-306", "GA", 1, None, "reserve"),
    ("CU-1009", "EV-308", "VIP", 2, None, "reserve"),
    ("CU-1003", "EV-308", "GA", 3, None, "pay"),
    ("CU-1011", "EV-308", "BALC", 2, "LANTERN12", "reserve"),
    ("CU-1008", "EV-310", "GA", 3, "KIDSFREE50", "pay"),
    ("CU-1012", "EV-310", "GA", 2, None, "reserve"),
    ("CU-1005", "EV-303", "GA", 2, None, "cancel"),
    ("CU-1010", "EV-302", "GA", 1, None, "paycancel"),
    ("CU-1004", "EV-310", "GA", 2, None, "reserve"),
    ("CU-1009", "EV-304", "GA", 4, None, "pay"),
]
top = {"CU-1003": 300, "CU-1007": 250, "CU-1010": 200, "CU-1008": 150, "CU-1006": 100, "CU-1009": 250, "CU-1001": 60}
for cid, amt in top.items():
    do("topUpWallet", customer_id=cid, amount=amt)
for cid, eid, tier, qty, promo, then in plan:
    kw = dict(customer_id=cid, event_id=eid, tier=tier, quantity=qty)
    if promo:
        kw["promo_code"] = promo
    o = do("createOrder", **kw)
    if then in ("pay", "paycancel"):
        do("payOrder", order_id=o["order_id"])
    if then in ("cancel", "paycancel"):
        do("cancelOrder", order_id=o["order_id"])
state = api.state()
# the cancelled concert: every order was cancelled and refunded by the venue
for o in state["orders"].values():
    if o["event_id"] == "EV-307" and o["status"] != "cancelled":
        api.reset(state)
        api.call("cancelOrder", {"order_id": o["order_id"]})
        state = api.state()
for eid, st in status_after.items():
    state["events"][eid]["status"] = st
out = "data.json"
with open(out + ".tmp", "w", encoding="utf-8") as fh:
    json.dump(state, fh, indent=1, sort_keys=False)
    fh.write("\n")
os.replace(out + ".tmp", out)
print({k: len(v) for k, v in state.items()})
