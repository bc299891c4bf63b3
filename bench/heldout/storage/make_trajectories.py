"""Writes trajectories.jsonl: front-desk sessions at Cedar Hollow Self Storage.

Seeded (random.Random(SEED)); every session starts from data.json's state. The
adapter is used only to read earlier outputs within a session (new rental ids,
amounts due) the way a desk clerk reads the screen.
"""

import json
import os
import random

import adapter

SEED = 20250918
HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "data.json")) as f:
    DATA = json.load(f)

C = DATA["customers"]
U = DATA["units"]
R = DATA["rentals"]
RS = DATA["reservations"]
PLANS = ["PP-2000", "PP-5000", "PP-10000"]


def full(cid):
    return "%s %s" % (C[cid]["first_name"], C[cid]["last_name"])


def first(cid):
    return C[cid]["first_name"]


def open_rentals(cid):
    return [r for r in R.values() if r["customer_id"] == cid and r["status"] in ("active", "delinquent", "overlocked")]


def can_move_in(cid):
    c = C[cid]
    rs = open_rentals(cid)
    return (
        c["status"] != "do_not_rent"
        and c["photo_id"] is not None
        and all(r["balance_due"] == 0 for r in rs)
        and len(rs) < 3
    )


def available(**flt):
    out = []
    for u in U.values():
        if u["status"] != "available":
            continue
        if any(u[k] != v for k, v in flt.items()):
            continue
        out.append(u)
    return sorted(out, key=lambda u: (u["monthly_rate"], u["unit_id"]))


SIZE_WORDS = {
    "5x5": "a small 5 by 5 locker",
    "5x10": "a 5x10",
    "10x10": "a 10 by 10",
    "10x15": "a 10x15",
    "10x20": "a 10 by 20, garage size",
    "10x30": "the biggest you have, a 10x30",
}
DEFAULT_PLAN_FOR = {
    "5x5": "PP-2000",
    "5x10": "PP-2000",
    "10x10": "PP-5000",
    "10x15": "PP-5000",
    "10x20": "PP-10000",
    "10x30": "PP-10000",
}


class Session:
    def __init__(self, rng):
        self.rng = rng
        self.env = adapter.make()
        self.env.reset(DATA)
        self.calls = []

    def do(self, name, **args):
        self.calls.append({"name": name, "arguments": args})
        return self.env.call(name, args)


def lookup_args(rng, cid):
    k = rng.choice(["last_name", "phone", "phone", "email"])
    if k == "last_name":
        return {"last_name": C[cid]["last_name"]}
    if k == "phone":
        return {"phone": C[cid]["phone"]}
    return {"email": C[cid]["email"]}


def movein_candidates():
    return sorted(cid for cid in C if can_move_in(cid))


def money(x):
    return adapter.money(x)


# ---------------------------------------------------------------- templates
def t_browse_quote(rng):
    s = Session(rng)
    size = rng.choice(["5x5", "5x10", "10x10", "10x15", "10x20", "10x30"])
    climate = rng.choice([None, True, False])
    flt = {"size_code": size}
    if climate is not None:
        flt["climate_controlled"] = climate
    units = available(**flt)
    if not units:
        flt.pop("climate_controlled", None)
        climate = None
        units = available(**flt)
    s.do("search_units", **flt)
    u = units[0]
    plan = DEFAULT_PLAN_FOR[size]
    qa = {"unit_id": u["unit_id"], "protection_plan_id": plan}
    extra = ""
    when = rng.choice([None, None, "2025-09-29", "2025-10-01", "2025-10-10"])
    if when:
        qa["move_in_date"] = when
        extra = " moving in on %s" % when
    if u["climate_controlled"] and rng.random() < 0.5:
        qa["promo_code"] = "CLIMATE20"
    elif size in ("10x20", "10x30") and rng.random() < 0.6:
        qa["promo_code"] = "BIGUNIT50"
    s.do("quote_move_in", **qa)
    kind = {True: " climate-controlled", False: " drive-up", None: ""}[climate]
    instr = "How much would it cost me to get %s%s unit%s, with protection?" % (SIZE_WORDS[size], kind, extra)
    return instr, s.calls


def t_walkin_movein(rng):
    s = Session(rng)
    cid = rng.choice(
        [
            c
            for c in movein_candidates()
            if not C[c]["reservation_ids"] or all(RS[x]["status"] != "held" for x in C[c]["reservation_ids"])
        ]
    )
    size = rng.choice(["5x5", "5x10", "10x10", "10x15", "10x20"])
    s.do("find_customers", **lookup_args(rng, cid))
    units = available(size_code=size)
    s.do("search_units", size_code=size)
    u = rng.choice(units[:2])
    args = {
        "customer_id": cid,
        "unit_id": u["unit_id"],
        "protection_plan_id": rng.choice(PLANS),
        "payment_method": "card",
    }
    if C[cid]["insurance_certificate"] and rng.random() < 0.7:
        args.pop("protection_plan_id")
    if rng.random() < 0.4:
        args["autopay"] = True
    s.do("move_in", **args)
    instr = "Hi, it's %s. I'd like to rent %s unit today and pay by card." % (full(cid), SIZE_WORDS[size])
    return instr, s.calls


def t_quote_then_movein(rng):
    s = Session(rng)
    cid = rng.choice(movein_candidates())
    size = rng.choice(["5x10", "10x10", "10x15", "10x30"])
    units = available(size_code=size)
    u = units[0]
    plan = DEFAULT_PLAN_FOR[size]
    promo = None
    if u["climate_controlled"]:
        promo = "CLIMATE20"
    elif size in ("10x20", "10x30"):
        promo = "BIGUNIT50"
    elif rng.random() < 0.7:
        promo = "SAVE25"
    s.do("find_customers", last_name=C[cid]["last_name"])
    qa = {"unit_id": u["unit_id"], "protection_plan_id": plan}
    if promo:
        qa["promo_code"] = promo
    q = s.do("quote_move_in", **qa)
    total = q["output"]["total_due"]
    method = "cash" if total <= 500 and rng.random() < 0.4 else "card"
    ma = {"customer_id": cid, "unit_id": u["unit_id"], "protection_plan_id": plan, "payment_method": method}
    if promo:
        ma["promo_code"] = promo
    s.do("move_in", **ma)
    instr = "I'm %s. Please quote me the cheapest %s with %s%s and if it's fine I'll take it (paying %s)." % (
        full(cid),
        size,
        adapter_plan_words(plan),
        (" and the %s code" % promo) if promo else "",
        method,
    )
    return instr, s.calls


def adapter_plan_words(plan):
    return {"PP-2000": "basic protection", "PP-5000": "standard protection", "PP-10000": "premium protection"}[plan]


def t_reservation_movein(rng):
    s = Session(rng)
    rsid = rng.choice(["RS-3001", "RS-3002", "RS-3003", "RS-3004"])
    v = RS[rsid]
    cid = v["customer_id"]
    plan = DEFAULT_PLAN_FOR[v["size_code"]]
    s.do("find_customers", phone=C[cid]["phone"])
    qa = {"unit_id": v["unit_id"], "reservation_id": rsid, "protection_plan_id": plan}
    promo = "BIGUNIT50" if v["size_code"] in ("10x20", "10x30") else None
    if promo:
        qa["promo_code"] = promo
    s.do("quote_move_in", **qa)
    ma = {
        "customer_id": cid,
        "unit_id": v["unit_id"],
        "reservation_id": rsid,
        "protection_plan_id": plan,
        "payment_method": "card",
    }
    if promo:
        ma["promo_code"] = promo
    s.do("move_in", **ma)
    instr = "Hello, %s here. I have a reservation for unit %s and I'd like to move in today instead of waiting." % (
        full(cid),
        v["unit_id"],
    )
    if v["move_in_date"] == "2025-09-18":
        instr = "Hi, I'm %s, I reserved unit %s for today. Let's do the move-in, card payment." % (
            full(cid),
            v["unit_id"],
        )
    return instr, s.calls


def delinquent_rentals():
    return sorted(r["rental_id"] for r in R.values() if r["status"] in ("delinquent", "overlocked"))


def t_pay_balance(rng):
    s = Session(rng)
    rid = rng.choice(delinquent_rentals())
    r = R[rid]
    cid = r["customer_id"]
    s.do("find_customers", **lookup_args(rng, cid))
    s.do("get_rental", rental_id=rid)
    method = "card" if r["balance_due"] > 500 or rng.random() < 0.6 else "cash"
    s.do("take_payment", rental_id=rid, amount=r["balance_due"], method=method)
    extra = " and get my gate code working again" if r["status"] == "overlocked" else ""
    instr = "This is %s. I want to pay everything I owe on my unit%s. Paying %s." % (full(cid), extra, method)
    return instr, s.calls


def t_partial_payment(rng):
    s = Session(rng)
    rid = rng.choice(delinquent_rentals())
    R[rid]
    amt = float(rng.choice([50, 75, 100, 120]))
    s.do("get_rental", rental_id=rid)
    s.do("take_payment", rental_id=rid, amount=amt, method=rng.choice(["card", "cash"]))
    instr = "I can only pay $%d today toward rental %s, please put it on the account." % (amt, rid)
    return instr, s.calls


def clean_rentals():
    return sorted(r["rental_id"] for r in R.values() if r["status"] == "active" and r["balance_due"] == 0)


def t_prepay(rng):
    s = Session(rng)
    rid = rng.choice(clean_rentals())
    r = R[rid]
    months = rng.choice([2, 3, 6])
    monthly = money(r["monthly_rent"] + r["protection_premium"])
    amt = money(months * monthly)
    method = rng.choice(["card", "check"]) if amt > 500 else rng.choice(["card", "cash", "check"])
    s.do("get_rental", rental_id=rid)
    s.do("take_payment", rental_id=rid, amount=amt, method=method)
    instr = "Hi, %s on %s. I'm travelling for work, can I pay %d months ahead by %s?" % (
        full(r["customer_id"]),
        r["unit_id"],
        months,
        method,
    )
    return instr, s.calls


def reserve_candidates():
    return sorted(
        cid
        for cid in C
        if C[cid]["status"] != "do_not_rent"
        and all(r["balance_due"] == 0 for r in open_rentals(cid))
        and len([x for x in C[cid]["reservation_ids"] if RS[x]["status"] == "held"]) < 2
    )


def t_reserve(rng):
    s = Session(rng)
    cid = rng.choice(reserve_candidates())
    size = rng.choice(["5x5", "10x10", "10x15", "10x20", "10x30"])
    units = available(size_code=size)
    s.do("search_units", size_code=size)
    u = rng.choice(units)
    day = rng.choice(["2025-09-22", "2025-09-27", "2025-10-01", "2025-10-04", "2025-10-15"])
    s.do("create_reservation", customer_id=cid, unit_id=u["unit_id"], move_in_date=day, payment_method="card")
    instr = "I'm %s (%s). I need %s from %s, can you hold one for me?" % (full(cid), cid, SIZE_WORDS[size], day)
    return instr, s.calls


def t_cancel_reservation(rng):
    s = Session(rng)
    rsid = rng.choice(["RS-3001", "RS-3002", "RS-3003", "RS-3004"])
    cid = RS[rsid]["customer_id"]
    s.do("find_customers", last_name=C[cid]["last_name"])
    reason = rng.choice(["found_other_storage", "plans_changed", "customer_request"])
    s.do("cancel_reservation", reservation_id=rsid, reason=reason)
    why = {
        "found_other_storage": "I found storage closer to home",
        "plans_changed": "my move fell through",
        "customer_request": "I just don't need it anymore",
    }[reason]
    instr = "%s calling. Please cancel my reservation for unit %s, %s." % (full(cid), RS[rsid]["unit_id"], why)
    return instr, s.calls


def t_cancel_and_rebook(rng):
    s = Session(rng)
    rsid = rng.choice(["RS-3002", "RS-3004", "RS-3003"])
    v = RS[rsid]
    cid = v["customer_id"]
    size = rng.choice(["10x10", "10x15"])
    units = available(size_code=size)
    s.do("cancel_reservation", reservation_id=rsid, reason="customer_request")
    s.do("search_units", size_code=size, max_rate=150)
    cands = [u for u in units if u["monthly_rate"] <= 150]
    u = cands[0]
    s.do("create_reservation", customer_id=cid, unit_id=u["unit_id"], move_in_date=v["move_in_date"])
    instr = (
        "It's %s. Unit %s is more space than I need; cancel it and reserve a %s under $150 for the same date instead."
        % (full(cid), v["unit_id"], size)
    )
    return instr, s.calls


FIRST = [
    "Lena",
    "Corwin",
    "Idris",
    "Marguerite",
    "Theo",
    "Annika",
    "Ruairi",
    "Solveig",
    "Bastian",
    "Elodie",
    "Keziah",
    "Florian",
]
LAST = [
    "Fairweather",
    "Ashdown",
    "Mbeki-Hart",
    "Carrow",
    "Penhallow",
    "Lindgard",
    "Tresize",
    "Okonkwo",
    "Vellacott",
    "Hazlett",
]


def person(rng, relationship=None):
    return {
        "name": "%s %s" % (rng.choice(FIRST), rng.choice(LAST)),
        "relationship": relationship or rng.choice(["spouse", "family", "business", "friend", "other"]),
        "phone": "555-%03d-%04d" % (rng.randint(200, 989), rng.randint(0, 9999)),
    }


def t_add_user(rng):
    s = Session(rng)
    rid = rng.choice([r for r in clean_rentals() if len(R[r]["authorized_users"]) < 3])
    r = R[rid]
    p = person(rng)
    s.do("get_rental", rental_id=rid)
    s.do("update_access_list", rental_id=rid, add=[p])
    instr = "I'm %s. Please add %s (%s) to my unit %s so they can get in with my code." % (
        full(r["customer_id"]),
        p["name"],
        p["relationship"],
        r["unit_id"],
    )
    return instr, s.calls


def t_swap_user(rng):
    s = Session(rng)
    rid = rng.choice([r for r in sorted(R) if R[r]["authorized_users"] and R[r]["status"] == "active"])
    r = R[rid]
    old = rng.choice(r["authorized_users"])["name"]
    p = person(rng)
    s.do("get_rental", rental_id=rid)
    s.do("update_access_list", rental_id=rid, remove=[old], add=[p])
    instr = "%s here, rental %s. Take %s off my access list and put %s on instead, phone %s." % (
        full(r["customer_id"]),
        rid,
        old,
        p["name"],
        p["phone"],
    )
    return instr, s.calls


def t_remove_user(rng):
    s = Session(rng)
    rid = rng.choice([r for r in sorted(R) if R[r]["authorized_users"] and R[r]["status"] == "active"])
    r = R[rid]
    s.do("find_customers", customer_id=r["customer_id"])
    old = rng.choice(r["authorized_users"])["name"]
    s.do("update_access_list", rental_id=rid, remove=[old.upper() if rng.random() < 0.3 else old])
    instr = "Please remove %s from the people allowed into my unit %s. I'm %s." % (
        old,
        r["unit_id"],
        full(r["customer_id"]),
    )
    return instr, s.calls


def t_transfer(rng):
    s = Session(rng)
    rid = rng.choice([r for r in clean_rentals() if r != "RN-5019"])
    r = R[rid]
    cur = U[r["unit_id"]]
    order = SIZE_ORDER
    i = order.index(cur["size_code"])
    size = order[min(i + 1, len(order) - 1)] if rng.random() < 0.7 else order[max(i - 1, 0)]
    units = available(size_code=size)
    if not units:
        size = "10x10"
        units = available(size_code=size)
    s.do("get_rental", rental_id=rid)
    s.do("search_units", size_code=size)
    u = units[0]
    s.do("transfer_unit", rental_id=rid, new_unit_id=u["unit_id"], reason="customer_request")
    word = "bigger" if order.index(size) > i else ("smaller" if order.index(size) < i else "different")
    instr = "%s, unit %s. I need a %s unit (%s). Can you move my rental over?" % (
        full(r["customer_id"]),
        r["unit_id"],
        word,
        size,
    )
    return instr, s.calls


SIZE_ORDER = ["5x5", "5x10", "10x10", "10x15", "10x20", "10x30"]


def t_transfer_pay(rng):
    s = Session(rng)
    rid = rng.choice([r for r in clean_rentals() if U[R[r]["unit_id"]]["size_code"] in ("5x5", "5x10", "10x10")])
    r = R[rid]
    units = available(size_code="10x15")
    u = rng.choice(units)
    out = s.do("transfer_unit", rental_id=rid, new_unit_id=u["unit_id"])
    due = out["output"]["amount_due_now"]
    s.do("take_payment", rental_id=rid, amount=due, method="card")
    instr = "I'm %s; move rental %s into unit %s and I'll pay whatever is due now on my card." % (
        full(r["customer_id"]),
        rid,
        u["unit_id"],
    )
    return instr, s.calls


def t_facility_transfer(rng):
    s = Session(rng)
    rid = "RN-5019"
    R[rid]
    units = available(size_code="10x15", climate_controlled=False) or available(size_code="10x15")
    s.do("get_rental", rental_id=rid)
    s.do("search_units", size_code="10x15", drive_up=True)
    u = units[0]
    out = s.do("transfer_unit", rental_id=rid, new_unit_id=u["unit_id"], reason="facility_issue")
    calls = s.calls
    if rng.random() < 0.5:
        s.do("take_payment", rental_id=rid, amount=out["output"]["amount_due_now"], method="card")
    instr = "I'm Horace Wintergreen. The roof over my unit A109 is leaking onto my boxes; I want to be moved to another drive-up 10x15."
    return instr, calls


def t_move_out(rng):
    s = Session(rng)
    rid = rng.choice(clean_rentals())
    r = R[rid]
    bc = rng.random() < 0.75
    lr = rng.random() < 0.8
    rm = rng.choice(["original_payment", "check"])
    s.do("get_rental", rental_id=rid)
    s.do("move_out", rental_id=rid, broom_clean=bc, lock_removed=lr, refund_method=rm)
    state = (
        "swept out and empty"
        if bc and lr
        else ("empty but I didn't get to sweep" if lr else "cleared, but I lost the key to my lock so it's still on")
    )
    instr = "%s here. I'm done with unit %s today, it's %s. Refund to %s please." % (
        full(r["customer_id"]),
        r["unit_id"],
        state,
        "my card" if rm == "original_payment" else "a check",
    )
    return instr, s.calls


def t_supplies(rng):
    s = Session(rng)
    items = []
    for pid in rng.sample(
        ["PR-101", "PR-102", "PR-103", "PR-104", "PR-105", "PR-106", "PR-107", "PR-108"], rng.randint(1, 3)
    ):
        q = 1 if pid in ("PR-101", "PR-102", "PR-107", "PR-108") else rng.choice([2, 5, 10, 15])
        items.append({"product_id": pid, "quantity": q})
    tenant = rng.random() < 0.6
    args = {"items": items, "payment_method": rng.choice(["card", "cash"])}
    if tenant:
        cid = rng.choice(sorted(C))
        s.do("find_customers", last_name=C[cid]["last_name"])
        args["customer_id"] = cid
        who = "I'm %s, I rent here. " % full(cid) if open_rentals(cid) else "I'm %s. " % full(cid)
    else:
        who = ""
    s.do("sell_merchandise", **args)
    names = ", ".join("%d x %s" % (i["quantity"], DATA["products"][i["product_id"]]["name"]) for i in items)
    instr = "%sI'd like %s, paying %s." % (who, names, args["payment_method"])
    return instr, s.calls


def t_movein_lock(rng):
    s = Session(rng)
    cid = rng.choice([c for c in movein_candidates() if not open_rentals(c)])
    size = rng.choice(["5x5", "5x10", "10x10"])
    u = available(size_code=size)[0]
    s.do("move_in", customer_id=cid, unit_id=u["unit_id"], protection_plan_id="PP-2000", payment_method="card")
    s.do(
        "sell_merchandise",
        customer_id=cid,
        items=[{"product_id": rng.choice(["PR-101", "PR-102"]), "quantity": 1}],
        payment_method="card",
    )
    instr = "I'm %s, I'll take unit %s with basic protection, and I need a lock for it too." % (full(cid), u["unit_id"])
    return instr, s.calls


# ------------------------------------------------------------ refusal templates
def r_no_id(rng):
    s = Session(rng)
    cid = "CU-1011"
    u = available(size_code="10x10")[0]
    s.do("find_customers", phone=C[cid]["phone"])
    s.do("move_in", customer_id=cid, unit_id=u["unit_id"], protection_plan_id="PP-5000", payment_method="card")
    s.do("create_reservation", customer_id=cid, unit_id=u["unit_id"], move_in_date="2025-09-20")
    instr = "I'm Wilhelmina Dace, I called yesterday about a 10x10. I left my license at home, can I still move in today? If not, hold it until Saturday."
    return instr, s.calls


def r_balance_first(rng):
    s = Session(rng)
    rid = rng.choice(["RN-5003", "RN-5015"])
    r = R[rid]
    cid = r["customer_id"]
    u = available(size_code="5x10")[0]
    s.do("find_customers", last_name=C[cid]["last_name"])
    s.do("move_in", customer_id=cid, unit_id=u["unit_id"], protection_plan_id="PP-2000", payment_method="card")
    s.do("take_payment", rental_id=rid, amount=r["balance_due"], method="card")
    s.do("move_in", customer_id=cid, unit_id=u["unit_id"], protection_plan_id="PP-2000", payment_method="card")
    instr = "Hi, %s. I want a second, smaller unit (5x10) today on my card." % full(cid)
    return instr, s.calls


def r_overlock_moveout(rng):
    s = Session(rng)
    rid = rng.choice(["RN-5004", "RN-5013"])
    r = R[rid]
    s.do("get_rental", rental_id=rid)
    s.do("move_out", rental_id=rid, broom_clean=True, lock_removed=True)
    s.do("take_payment", rental_id=rid, amount=r["balance_due"], method="card")
    s.do("move_out", rental_id=rid, broom_clean=True, lock_removed=True, refund_method="original_payment")
    instr = "I'm %s. There's a lock on my unit %s that isn't mine. I'm clearing out today and closing the account." % (
        full(r["customer_id"]),
        r["unit_id"],
    )
    return instr, s.calls


def r_check_delinquent(rng):
    s = Session(rng)
    rid = rng.choice(delinquent_rentals())
    r = R[rid]
    s.do("take_payment", rental_id=rid, amount=r["balance_due"], method="check")
    s.do("take_payment", rental_id=rid, amount=r["balance_due"], method="card")
    instr = "I'd like to pay off rental %s with a check... or my card if you won't take it." % rid
    return instr, s.calls


def r_far_reservation(rng):
    s = Session(rng)
    cid = rng.choice(reserve_candidates())
    u = rng.choice(available(size_code=rng.choice(["10x10", "10x15"])))
    s.do(
        "create_reservation",
        customer_id=cid,
        unit_id=u["unit_id"],
        move_in_date=rng.choice(["2025-10-25", "2025-11-01", "2025-11-15"]),
    )
    s.do("create_reservation", customer_id=cid, unit_id=u["unit_id"], move_in_date="2025-10-15")
    instr = (
        "%s speaking. I'd like to reserve unit %s for when my lease ends in November; otherwise as late as you can."
        % (full(cid), u["unit_id"])
    )
    return instr, s.calls


def r_access_limit(rng):
    s = Session(rng)
    rid = "RN-5012"
    p = person(rng, "family")
    s.do("update_access_list", rental_id=rid, add=[p])
    s.do("update_access_list", rental_id=rid, remove=["Rowan Sedgwick"], add=[p])
    instr = "Casimir Ogunleye here. Add my cousin %s to my unit; if there's no room, drop Rowan Sedgwick." % p["name"]
    return instr, s.calls


def r_transfer_balance(rng):
    s = Session(rng)
    rid = rng.choice(delinquent_rentals())
    r = R[rid]
    u = available(size_code="10x10")[0]
    s.do("get_rental", rental_id=rid)
    s.do("transfer_unit", rental_id=rid, new_unit_id=u["unit_id"])
    instr = "I'm %s. Can I switch to unit %s? It's closer to the gate." % (full(r["customer_id"]), u["unit_id"])
    return instr, s.calls


def r_transfer_reserved(rng):
    s = Session(rng)
    rid = rng.choice([r for r in clean_rentals() if U[R[r]["unit_id"]]["size_code"] in ("10x10", "10x15")])
    r = R[rid]
    s.do("transfer_unit", rental_id=rid, new_unit_id="U-A116")
    s.do("search_units", size_code="10x20")
    s.do("transfer_unit", rental_id=rid, new_unit_id=available(size_code="10x20")[0]["unit_id"])
    instr = "%s here on %s. I want to move up to unit A116, or any other 10x20 if that one's taken." % (
        full(r["customer_id"]),
        rid,
    )
    return instr, s.calls


def r_cancel_closed(rng):
    s = Session(rng)
    rsid = rng.choice(["RS-3005", "RS-3007"])
    cid = RS[rsid]["customer_id"]
    s.do("find_customers", email=C[cid]["email"])
    s.do("cancel_reservation", reservation_id=rsid, reason="customer_request")
    instr = "This is %s. I'd like my $25 reservation deposit for unit %s back, please cancel it." % (
        full(cid),
        RS[rsid]["unit_id"],
    )
    return instr, s.calls


def r_expired_promo(rng):
    s = Session(rng)
    u = rng.choice(available(drive_up=True))
    plan = DEFAULT_PLAN_FOR[u["size_code"]]
    s.do("quote_move_in", unit_id=u["unit_id"], protection_plan_id=plan, promo_code="SUMMER10")
    s.do("quote_move_in", unit_id=u["unit_id"], protection_plan_id=plan, promo_code="SAVE25")
    instr = (
        "I got a SUMMER10 coupon in the mail; what would unit %s cost me with it? If it's no good, use whatever deal you have now."
        % u["unit_id"]
    )
    return instr, s.calls


def r_out_of_stock(rng):
    s = Session(rng)
    n = rng.choice([2, 4])
    s.do(
        "sell_merchandise",
        items=[{"product_id": "PR-109", "quantity": n}, {"product_id": "PR-106", "quantity": 2}],
        payment_method="card",
    )
    s.do(
        "sell_merchandise",
        items=[{"product_id": "PR-107", "quantity": 1}, {"product_id": "PR-106", "quantity": 2}],
        payment_method="card",
    )
    instr = (
        "I need %d moving blankets and 2 rolls of tape; if you're out of blankets I'll take a mattress cover instead."
        % n
    )
    return instr, s.calls


def r_bad_rental_id(rng):
    s = Session(rng)
    rid = rng.choice(clean_rentals())
    r = R[rid]
    s.do("get_rental", rental_id=rid.replace("RN-50", "RN-05"))
    s.do("find_customers", last_name=C[r["customer_id"]]["last_name"])
    s.do("get_rental", rental_id=rid)
    instr = "Hi, I'm %s. My receipt says rental number %s; when am I paid through?" % (
        full(r["customer_id"]),
        rid.replace("RN-50", "05"),
    )
    return instr, s.calls


def r_no_plan(rng):
    s = Session(rng)
    cid = rng.choice([c for c in movein_candidates() if not C[c]["insurance_certificate"]])
    u = rng.choice(available(size_code=rng.choice(["5x5", "10x10"])))
    s.do("move_in", customer_id=cid, unit_id=u["unit_id"], payment_method="card")
    s.do("move_in", customer_id=cid, unit_id=u["unit_id"], protection_plan_id="PP-2000", payment_method="card")
    instr = (
        "I'm %s, I'll take unit %s. I don't want the protection add-on, my stuff isn't worth much; if I must, give me the cheapest."
        % (full(cid), u["unit_id"])
    )
    return instr, s.calls


def r_reserve_taken(rng):
    s = Session(rng)
    cid = rng.choice(reserve_candidates())
    taken = rng.choice(["U-B206", "U-A104", "U-B107"])
    size = U[taken]["size_code"]
    s.do("create_reservation", customer_id=cid, unit_id=taken, move_in_date="2025-10-01")
    s.do("search_units", size_code=size)
    s.do(
        "create_reservation",
        customer_id=cid,
        unit_id=available(size_code=size)[0]["unit_id"],
        move_in_date="2025-10-01",
    )
    instr = "%s here. My friend said unit %s is nice; can you reserve it for me for October 1st, or a similar one?" % (
        full(cid),
        taken,
    )
    return instr, s.calls


def r_do_not_rent(rng):
    s = Session(rng)
    cid = "CU-1009"
    s.do("find_customers", last_name="Starkweather")
    s.do(
        "create_reservation",
        customer_id=cid,
        unit_id=available(size_code="10x15")[0]["unit_id"],
        move_in_date="2025-09-25",
    )
    instr = "Genevieve Starkweather. I'd like to reserve a 10x15 for next Thursday."
    return instr, s.calls


def r_fourth_rental(rng):
    s = Session(rng)
    cid = "CU-1007"
    u = available(size_code="5x5")[0]
    s.do("find_customers", phone=C[cid]["phone"])
    s.do(
        "move_in",
        customer_id=cid,
        unit_id=u["unit_id"],
        protection_plan_id="PP-2000",
        payment_method="card",
        autopay=True,
    )
    instr = "Lucinda from Farrowby Florals. We need one more small unit for the holiday stock, put it on autopay like the others."
    return instr, s.calls


def r_reservation_limit(rng):
    s = Session(rng)
    cid = "CU-1015"
    u = available(size_code="5x5")[0]
    s.do("find_customers", last_name="Marchetti-Vale")
    s.do("create_reservation", customer_id=cid, unit_id=u["unit_id"], move_in_date="2025-10-03")
    s.do("cancel_reservation", reservation_id="RS-3003", reason="plans_changed")
    s.do("create_reservation", customer_id=cid, unit_id=u["unit_id"], move_in_date="2025-10-03")
    instr = "Odessa Marchetti-Vale. Add a 5x5 locker to my reservations for October 3rd; if I can't have three, drop the 10x10 I booked for tomorrow."
    return instr, s.calls


def r_delinquent_moveout(rng):
    s = Session(rng)
    rid = rng.choice(["RN-5003", "RN-5015"])
    r = R[rid]
    s.do("move_out", rental_id=rid, broom_clean=True, lock_removed=True)
    need = money(r["balance_due"] - r["deposit_held"])
    s.do("take_payment", rental_id=rid, amount=need, method="cash")
    s.do("move_out", rental_id=rid, broom_clean=True, lock_removed=True, refund_method="check")
    instr = "%s. I'm out of unit %s, it's clean. Take what I owe out of my deposit and I'll pay the rest in cash." % (
        full(r["customer_id"]),
        r["unit_id"],
    )
    return instr, s.calls


def r_cash_limit(rng):
    s = Session(rng)
    rid = rng.choice(["RN-5005", "RN-5010", "RN-5019", "RN-5006"])
    r = R[rid]
    monthly = money(r["monthly_rent"] + r["protection_premium"])
    months = 4 if monthly * 4 > 500 else 6
    amt = money(months * monthly)
    s.do("take_payment", rental_id=rid, amount=amt, method="cash")
    s.do("take_payment", rental_id=rid, amount=amt, method="card")
    instr = "I brought cash to pay %d months ahead on rental %s. If you can't take that much cash, use my card." % (
        months,
        rid,
    )
    return instr, s.calls


def r_overlocked_access(rng):
    s = Session(rng)
    rid = rng.choice(["RN-5004", "RN-5013"])
    r = R[rid]
    p = person(rng, "family")
    s.do("get_rental", rental_id=rid)
    s.do("update_access_list", rental_id=rid, add=[p])
    instr = "I'm %s. My gate code isn't working; please add my %s %s so they can get in for me." % (
        full(r["customer_id"]),
        "relative",
        p["name"],
    )
    return instr, s.calls


def r_military_promo(rng):
    s = Session(rng)
    cid = rng.choice(["CU-1019", "CU-1014", "CU-1006", "CU-1020"])
    u = rng.choice(available(size_code="10x10"))
    s.do("find_customers", customer_id=cid)
    s.do("quote_move_in", unit_id=u["unit_id"], protection_plan_id="PP-5000", promo_code="HEROES15", customer_id=cid)
    instr = "I'm %s, a veteran. What's unit %s with standard protection and the HEROES15 discount?" % (
        full(cid),
        u["unit_id"],
    )
    return instr, s.calls


def r_prepay_too_much(rng):
    s = Session(rng)
    rid = rng.choice(["RN-5007", "RN-5014", "RN-5002"])
    r = R[rid]
    monthly = money(r["monthly_rent"] + r["protection_premium"])
    s.do("get_rental", rental_id=rid)
    s.do("take_payment", rental_id=rid, amount=money(12 * monthly), method="card")
    s.do("take_payment", rental_id=rid, amount=money(6 * monthly), method="card")
    instr = "%s. I want to pay a whole year up front on unit %s; if that's too much, as far ahead as you allow." % (
        full(r["customer_id"]),
        r["unit_id"],
    )
    return instr, s.calls


PLAN = [
    (t_browse_quote, 6),
    (t_walkin_movein, 4),
    (t_quote_then_movein, 3),
    (t_reservation_movein, 2),
    (t_pay_balance, 3),
    (t_partial_payment, 2),
    (t_prepay, 3),
    (t_reserve, 4),
    (t_cancel_reservation, 3),
    (t_cancel_and_rebook, 2),
    (t_add_user, 3),
    (t_swap_user, 2),
    (t_remove_user, 1),
    (t_transfer, 3),
    (t_transfer_pay, 2),
    (t_facility_transfer, 1),
    (t_move_out, 4),
    (t_supplies, 4),
    (t_movein_lock, 2),
    (r_no_id, 1),
    (r_balance_first, 2),
    (r_overlock_moveout, 1),
    (r_check_delinquent, 1),
    (r_far_reservation, 1),
    (r_access_limit, 1),
    (r_transfer_balance, 1),
    (r_transfer_reserved, 1),
    (r_cancel_closed, 2),
    (r_expired_promo, 1),
    (r_out_of_stock, 1),
    (r_bad_rental_id, 1),
    (r_no_plan, 1),
    (r_reserve_taken, 1),
    (r_do_not_rent, 1),
    (r_fourth_rental, 1),
    (r_reservation_limit, 1),
    (r_delinquent_moveout, 1),
    (r_cash_limit, 1),
    (r_overlocked_access, 1),
    (r_military_promo, 1),
    (r_prepay_too_much, 1),
]


def main():
    rng = random.Random(SEED)
    schedule = []
    for fn, n in PLAN:
        schedule += [fn] * n
    rng.shuffle(schedule)
    out = []
    for i, fn in enumerate(schedule):
        instr, calls = fn(rng)
        out.append({"id": "storage-%03d" % i, "instruction": instr, "calls": calls})
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for t in out:
            f.write(json.dumps(t) + "\n")
    print("sessions: %d, calls: %d" % (len(out), sum(len(t["calls"]) for t in out)))


if __name__ == "__main__":
    main()
