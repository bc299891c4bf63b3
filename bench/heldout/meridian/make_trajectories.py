"""Writes trajectories.jsonl: seeded counter sessions replayed against data.json.

Each session is one customer at the counter: the clerk looks things up, then acts.
Some calls are refused by the system on purpose (rules of the shop).
Standard library only; the output depends only on the seed and data.json.
"""

import json
import os
import random
from decimal import ROUND_HALF_UP, Decimal

SEED = 20250513
HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "data.json")) as f:
    DATA = json.load(f)

CUS = DATA["customers"]
ORD = DATA["orders"]
SVC = DATA["services"]
NEXT_ORDER = "ORD-%d" % (max(int(k.split("-")[1]) for k in ORD) + 1)


def D(x):
    return Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def first(cid):
    return CUS[cid]["name"].split(" ")[0]


def full(cid):
    return CUS[cid]["name"]


def phone(cid):
    return CUS[cid]["phone"]


def c(tool, /, **arguments):
    return {"name": tool, "arguments": arguments}


def orders_where(**kw):
    out = []
    for oid, o in sorted(ORD.items()):
        if all(o.get(k) == v for k, v in kw.items()):
            out.append(oid)
    return out


def net_paid(o):
    return D(sum(D(p["amount"]) for p in o["payments"]) - sum(D(r["amount"]) for r in o["refunds"]))


def storage(o):
    import datetime

    if o["status"] != "ready" or not o.get("ready_date"):
        return D(0)
    days = (datetime.date(2025, 5, 13) - datetime.date.fromisoformat(o["ready_date"])).days - 14
    return D(0) if days <= 0 else D(2 * ((days + 6) // 7))


def balance(o):
    b = D(D(o["pricing"]["total"]) + storage(o) - net_paid(o))
    return b if b > 0 else D(0)


def is_specialty(o):
    return any(SVC[l["service_id"]]["specialty"] for l in o["items"])


def open_count(cid):
    return sum(
        1 for o in ORD.values() if o["customer_id"] == cid and o["status"] in ("received", "in_process", "ready")
    )


ACTIVE_OK = [cid for cid in sorted(CUS) if CUS[cid]["status"] == "active" and open_count(cid) < 4]
NO_ORDERS = [cid for cid in ACTIVE_OK if not any(o["customer_id"] == cid for o in ORD.values())]
WITH_ORDERS = [cid for cid in ACTIVE_OK if cid not in NO_ORDERS]
ON_HOLD = [cid for cid in sorted(CUS) if CUS[cid]["status"] != "active"]
AT_LIMIT = [cid for cid in sorted(CUS) if open_count(cid) >= 4]

EXPRESS_SVCS = [s for s in sorted(SVC) if SVC[s]["express_allowed"] and SVC[s]["active"]]
STD_SVCS = [s for s in sorted(SVC) if SVC[s]["active"] and not SVC[s]["specialty"]]
NO_EXPRESS = [s for s in sorted(SVC) if SVC[s]["active"] and not SVC[s]["express_allowed"] and not SVC[s]["specialty"]]
SPECIALTY = [s for s in sorted(SVC) if SVC[s]["active"] and SVC[s]["specialty"]]

GARMENT_WORDS = {
    "SVC-101": "suit",
    "SVC-102": "shirts",
    "SVC-103": "trousers",
    "SVC-104": "dress",
    "SVC-105": "overcoat",
    "SVC-106": "ties",
    "SVC-107": "bag of washing",
    "SVC-108": "duvet",
    "SVC-109": "bed linen sets",
    "SVC-110": "trouser hems",
    "SVC-111": "sleeves to shorten",
    "SVC-112": "zips to replace",
    "SVC-113": "garments to take in",
    "SVC-114": "wedding gown",
    "SVC-115": "leather jacket",
    "SVC-116": "square metres of rug",
}
ONE_WORD = {
    "SVC-101": "suit",
    "SVC-102": "shirt",
    "SVC-103": "pair of trousers",
    "SVC-104": "dress",
    "SVC-105": "overcoat",
    "SVC-106": "tie",
    "SVC-107": "bag of washing",
    "SVC-108": "duvet",
    "SVC-109": "bed linen set",
    "SVC-110": "trouser hem",
    "SVC-111": "sleeve shortening",
    "SVC-112": "zip replacement",
    "SVC-113": "take-in job",
    "SVC-114": "wedding gown",
    "SVC-115": "leather jacket",
    "SVC-116": "rug",
}


def describe(items):
    return ", ".join(
        "%d x %s" % (it["qty"], (ONE_WORD if it["qty"] == 1 else GARMENT_WORDS)[it["service_id"]]) for it in items
    )


def pick_items(rng, pool, n_lines, max_qty=4):
    sids = rng.sample(pool, n_lines)
    return [{"service_id": s, "qty": rng.randint(1, max_qty)} for s in sids]


# --------------------------------------------------------------------------- templates
def t_status_check(rng, cid):
    oids = [o for o in orders_where(customer_id=cid) if ORD[o]["status"] != "cancelled"]
    oid = max(oids)
    instr = rng.choice(
        [
            "Hi, it's %s, my number is %s. Is my last lot of cleaning ready yet?",
            "Hello, %s here (phone %s). I dropped something off recently and lost the ticket; where is it up to?",
            "I'm %s, %s. Can you check on my most recent order and what I still owe?",
        ]
    ) % (full(cid), phone(cid))
    return instr, [
        c("search_customers", phone=phone(cid)),
        c("search_orders", customer_id=cid),
        c("get_order", order_id=oid),
    ]


def t_ticket_lookup(rng, oid):
    o = ORD[oid]
    instr = rng.choice(
        [
            "I've got ticket %s here. When will it be ready and how much is left to pay?",
            "Can you tell me the status of order %s please? It's %s's.",
        ]
    )
    instr = instr % ((oid,) if instr.count("%s") == 1 else (oid, first(o["customer_id"])))
    return instr, [c("get_order", order_id=oid)]


def t_customer_profile(rng, cid):
    instr = "Hi, I'm %s. How much credit is on my account and which orders are still open?" % full(cid)
    return instr, [c("search_customers", name=CUS[cid]["name"].split(" ")[-1]), c("get_customer", customer_id=cid)]


def t_price_question(rng, cid):
    cat = rng.choice(["dry_clean", "laundry", "alteration"])
    pool = [s for s in STD_SVCS if SVC[s]["category"] == cat]
    items = pick_items(rng, pool, min(len(pool), rng.randint(1, 2)))
    express = cat != "alteration" and rng.random() < 0.4
    instr = "%s here, customer %s. What would %s cost%s, and when would it be ready?" % (
        full(cid),
        cid,
        describe(items),
        " on express" if express else "",
    )
    args = {"customer_id": cid, "items": items}
    if express:
        args["express"] = True
    return instr, [c("list_services", category=cat), c("quote_order", **args)]


def t_quote_bad_promo(rng, cid):
    code = rng.choice(["WINTER20", "STAFF25", "DUVET5"])
    items = pick_items(rng, [s for s in STD_SVCS if SVC[s]["category"] == "dry_clean"], 2, 3)
    items[0]["qty"] = 4
    instr = (
        "I'm %s (%s). I have a code, %s. What would %s come to with it? "
        "If it doesn't work, just give me the normal price." % (full(cid), cid, code, describe(items))
    )
    return instr, [
        c("quote_order", customer_id=cid, items=items, promo_code=code),
        c("quote_order", customer_id=cid, items=items),
    ]


def t_quote_express_refused(rng, cid):
    alt = rng.choice(NO_EXPRESS)
    other = rng.choice([s for s in EXPRESS_SVCS if SVC[s]["category"] == "dry_clean"])
    items = [{"service_id": other, "qty": rng.randint(1, 3)}, {"service_id": alt, "qty": 1}]
    instr = (
        "This is %s, account %s. I need %s back tomorrow, can you do it express? "
        "If not, what's the normal price and date?" % (full(cid), cid, describe(items))
    )
    return instr, [
        c("quote_order", customer_id=cid, items=items, express=True),
        c("quote_order", customer_id=cid, items=items),
    ]


def t_new_order(rng, cid):
    express = rng.random() < 0.3
    pool = EXPRESS_SVCS if express else STD_SVCS
    items = pick_items(rng, pool, rng.randint(1, 3))
    method = rng.choice(["card", "cash"])
    args = {"customer_id": cid, "items": items}
    if express:
        args["express"] = True
    instr = (
        "Hello, %s, customer number %s. I'd like to leave %s%s. Tell me the price first; "
        "I'll pay the lot now by %s." % (full(cid), cid, describe(items), " on express" if express else "", method)
    )
    # the amount is what the quote gives; computed as the shop would
    return instr, [
        c("get_customer", customer_id=cid),
        c("quote_order", **args),
        c("create_order", **args),
        c("record_payment", order_id=NEXT_ORDER, amount="__TOTAL__", method=method),
    ]


def t_new_specialty(rng, cid):
    sid = rng.choice(SPECIALTY)
    qty = 4 if sid == "SVC-116" else 1
    items = [{"service_id": sid, "qty": qty}]
    instr = (
        "I'm %s (%s). What do you charge for specialty cleaning? I'd like to book in my %s, "
        "and pay the minimum deposit by card today."
        % (full(cid), cid, ONE_WORD[sid] if qty == 1 else "rug, %d square metres" % qty)
    )
    return instr, [
        c("list_services", category="specialty"),
        c("quote_order", customer_id=cid, items=items),
        c("create_order", customer_id=cid, items=items, notes="Deposit taken at drop-off"),
        c("record_payment", order_id=NEXT_ORDER, amount="__DEPOSIT__", method="card"),
    ]


def t_welcome(rng, cid):
    items = pick_items(rng, [s for s in STD_SVCS if SVC[s]["category"] == "dry_clean"], 2, 3)
    items[0]["qty"] = 3
    instr = (
        "Hi, I've just signed up, I'm %s. This is my first time here; I'd like to drop off %s "
        "and use the welcome code WELCOME10." % (full(cid), describe(items))
    )
    return instr, [
        c("search_customers", name=full(cid)),
        c("create_order", customer_id=cid, items=items, promo_code="WELCOME10"),
    ]


def t_welcome_refused(rng, cid):
    items = pick_items(rng, [s for s in STD_SVCS if SVC[s]["category"] == "dry_clean"], 2, 3)
    items[0]["qty"] = 4
    instr = "%s here, %s. My friend gave me WELCOME10; can I use it on %s? If not, book them in anyway." % (
        full(cid),
        phone(cid),
        describe(items),
    )
    return instr, [
        c("search_customers", phone=phone(cid)),
        c("create_order", customer_id=cid, items=items, promo_code="WELCOME10"),
        c("create_order", customer_id=cid, items=items),
    ]


def t_on_hold(rng, cid):
    items = pick_items(rng, [s for s in STD_SVCS if SVC[s]["category"] == "dry_clean"], 1, 2)
    instr = "Hello, I'm %s, %s. I want to drop off %s please." % (full(cid), phone(cid), describe(items))
    return instr, [
        c("search_customers", phone=phone(cid)),
        c("get_customer", customer_id=cid),
        c("create_order", customer_id=cid, items=items),
    ]


def t_open_limit(rng, cid):
    items = [{"service_id": "SVC-102", "qty": rng.randint(3, 6)}]
    instr = "Octavia Marchbank's office here for account %s. We need %s done by the usual date." % (
        cid,
        describe(items),
    )
    return instr, [c("get_customer", customer_id=cid), c("create_order", customer_id=cid, items=items)]


def t_add_item(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    pool = EXPRESS_SVCS if o["express"] else STD_SVCS
    pool = [s for s in pool if s not in [l["service_id"] for l in o["items"]]]
    sid = rng.choice(pool)
    qty = rng.randint(1, 2)
    what = ONE_WORD[sid] if qty == 1 else GARMENT_WORDS[sid]
    instr = "It's %s. I left order %s with you the other day; can you add %s %s to it? What's the new total?" % (
        full(cid),
        oid,
        "one more" if qty == 1 else "%d" % qty,
        what,
    )
    return instr, [c("get_order", order_id=oid), c("add_order_item", order_id=oid, service_id=sid, qty=qty)]


def t_add_item_refused(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    if o["express"]:
        sid = rng.choice(NO_EXPRESS)
    else:
        sid = rng.choice(["SVC-102", "SVC-106"])
    instr = "%s here, about %s. I forgot one thing: please add a %s to that order." % (full(cid), oid, ONE_WORD[sid])
    return instr, [c("get_order", order_id=oid), c("add_order_item", order_id=oid, service_id=sid, qty=1)]


def t_remove_item(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    line = rng.choice(o["items"])
    instr = "This is %s. On order %s, please take off the %s; I've decided to keep it at home." % (
        full(cid),
        oid,
        ONE_WORD[line["service_id"]],
    )
    return instr, [c("get_order", order_id=oid), c("remove_order_item", order_id=oid, line_id=line["line_id"])]


def t_remove_item_refused(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    line = o["items"][0]
    instr = "%s, in person: on ticket %s I no longer want the %s done, take it off please." % (
        full(cid),
        oid,
        ONE_WORD[line["service_id"]],
    )
    return instr, [c("get_order", order_id=oid), c("remove_order_item", order_id=oid, line_id=line["line_id"])]


def t_advance(rng, oid):
    o = ORD[oid]
    nxt = {"received": "in_process", "in_process": "ready"}[o["status"]]
    if nxt == "in_process":
        instr = "%s here. Could you get order %s started today? I'd like it back as soon as you can." % (
            full(o["customer_id"]),
            oid,
        )
    else:
        instr = "Workshop to the counter: order %s for %s is finished, please put it on the ready rack." % (
            oid,
            full(o["customer_id"]),
        )
    args = {"order_id": oid, "status": nxt}
    if rng.random() < 0.4:
        args["note"] = rng.choice(["pressed and bagged", "stain pre-treated", "rack B"])
    return instr, [c("get_order", order_id=oid), c("update_order_status", **args)]


def t_deposit_refused(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    need = D(D(o["pricing"]["total"]) * Decimal("0.5"))
    top_up = D(need - net_paid(o))
    method = rng.choice(["card", "cash"])
    instr = "%s, order %s. Please start the cleaning today; if you need more deposit I'll pay it by %s." % (
        full(cid),
        oid,
        method,
    )
    return instr, [
        c("get_order", order_id=oid),
        c("update_order_status", order_id=oid, status="in_process"),
        c("record_payment", order_id=oid, amount=float(top_up), method=method),
        c("update_order_status", order_id=oid, status="in_process"),
    ]


def t_collect(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    bal = balance(o)
    method = rng.choice(["card", "cash"])
    calls = [c("search_orders", customer_id=cid, status="ready"), c("get_order", order_id=oid)]
    if bal > 0:
        calls.append(c("record_payment", order_id=oid, amount=float(bal), method=method))
        instr = "I'm %s, I've come to pick up order %s. I'll settle whatever is owed by %s." % (full(cid), oid, method)
    else:
        instr = "%s here to collect %s; I think it's already paid for." % (full(cid), oid)
    calls.append(c("update_order_status", order_id=oid, status="collected"))
    return instr, calls


def t_collect_refused(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    bal = balance(o)
    instr = (
        "It's %s, here for %s. I paid when I dropped it off, so I'll just take it. "
        "Oh, if there's something extra I'll pay cash." % (full(cid), oid)
    )
    return instr, [
        c("get_order", order_id=oid),
        c("update_order_status", order_id=oid, status="collected"),
        c("record_payment", order_id=oid, amount=float(bal), method="cash"),
        c("update_order_status", order_id=oid, status="collected"),
    ]


def t_cancel(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    refund_to = rng.choice(["account_credit", "original"]) if net_paid(o) > 0 else None
    args = {"order_id": oid, "customer_id": cid}
    if refund_to:
        args["refund_to"] = refund_to
    if rng.random() < 0.5:
        args["reason"] = rng.choice(["moving away", "no longer needed", "customer will treat the stain at home"])
    where = {"account_credit": " Put any refund on my account.", "original": " Refund me the way I paid.", None: ""}[
        refund_to
    ]
    instr = "I'm %s (%s). Please cancel order %s.%s" % (full(cid), phone(cid), oid, where)
    return instr, [c("search_orders", customer_id=cid), c("cancel_order", **args)]


def t_cancel_refused(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    instr = "%s here. Order %s, I don't need it any more. Cancel it and refund me to my card." % (full(cid), oid)
    return instr, [c("get_order", order_id=oid), c("cancel_order", order_id=oid, customer_id=cid, refund_to="original")]


def t_cancel_wrong_customer(rng, oid, caller):
    instr = "I'm %s, %s. Cancel order %s, it's my husband's but I'm handling it." % (full(caller), caller, oid)
    return instr, [
        c("search_customers", name=CUS[caller]["name"].split(" ")[-1]),
        c("cancel_order", order_id=oid, customer_id=caller),
    ]


def t_part_payment(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    bal = balance(o)
    amt = D(min(bal, D(rng.choice([10, 15, 20, 25]))))
    method = rng.choice(["cash", "card"])
    instr = "%s here. I'd like to pay %s toward order %s now, by %s." % (full(cid), amt, oid, method)
    return instr, [c("get_order", order_id=oid), c("record_payment", order_id=oid, amount=float(amt), method=method)]


def t_credit_payment(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    credit = D(CUS[cid]["account_credit"])
    amt = D(min(credit, balance(o)))
    instr = "%s. Please use my account credit toward order %s, as much as it covers." % (full(cid), oid)
    return instr, [
        c("get_customer", customer_id=cid),
        c("record_payment", order_id=oid, amount=float(amt), method="account_credit"),
    ]


def t_credit_refused(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    bal = balance(o)
    credit = D(CUS[cid]["account_credit"])
    instr = (
        "It's %s. Pay off the whole of %s from my account credit please; whatever it doesn't cover "
        "I'll put on card." % (full(cid), oid)
    )
    calls = [
        c("get_order", order_id=oid),
        c("record_payment", order_id=oid, amount=float(bal), method="account_credit"),
    ]
    if credit > 0:
        calls.append(c("record_payment", order_id=oid, amount=float(credit), method="account_credit"))
        calls.append(c("record_payment", order_id=oid, amount=float(D(bal - credit)), method="card"))
    else:
        calls.append(c("record_payment", order_id=oid, amount=float(bal), method="card"))
    return instr, calls


def t_overpay_refused(rng, oid):
    o = ORD[oid]
    cid = o["customer_id"]
    bal = balance(o)
    amt = D(bal + D(rng.choice([5, 10, 20])))
    instr = "%s. Here's %s in cash for order %s; keep the change on the order." % (full(cid), amt, oid)
    return instr, [
        c("get_order", order_id=oid),
        c("record_payment", order_id=oid, amount=float(amt), method="cash"),
        c("record_payment", order_id=oid, amount=float(bal), method="cash"),
    ]


def t_due_check(rng, cid, day):
    instr = "I'm %s (%s). Is anything of mine due back on %s? And which services can you do on express?" % (
        full(cid),
        cid,
        day,
    )
    return instr, [c("search_orders", customer_id=cid, due_on=day), c("list_services", express_only=True)]


def t_promo_min_refused(rng, cid):
    items = [{"service_id": "SVC-102", "qty": rng.randint(2, 4)}]
    instr = (
        "Hi, %s, %s. Just %s today, and I'd like to use SPRING15 from your flyer. "
        "If it doesn't apply, that's fine, book them in." % (full(cid), phone(cid), describe(items))
    )
    return instr, [
        c("search_customers", phone=phone(cid)),
        c("create_order", customer_id=cid, items=items, promo_code="SPRING15"),
        c("create_order", customer_id=cid, items=items),
    ]


def t_qty_refused(rng, cid):
    instr = (
        "%s, customer %s. I've got twelve shirts for you; what will that cost? "
        "If there's a limit, I'll leave ten today." % (full(cid), cid)
    )
    return instr, [
        c("quote_order", customer_id=cid, items=[{"service_id": "SVC-102", "qty": 12}]),
        c("create_order", customer_id=cid, items=[{"service_id": "SVC-102", "qty": 10}]),
    ]


# --------------------------------------------------------------------------- plan
def build(rng):
    received = orders_where(status="received")
    in_process = orders_where(status="in_process")
    ready = orders_where(status="ready")
    multi_line_received = [o for o in received if len(ORD[o]["items"]) > 1]
    ready_owing = [o for o in ready if balance(ORD[o]) > 0 and CUS[ORD[o]["customer_id"]]["status"] == "active"]
    ready_paid = [o for o in ready if balance(ORD[o]) == 0]
    spec_no_deposit = [
        o
        for o in received
        if is_specialty(ORD[o]) and net_paid(ORD[o]) < D(D(ORD[o]["pricing"]["total"]) * Decimal("0.5"))
    ]
    plain_received = [o for o in received if not is_specialty(ORD[o])]
    credit_orders = [
        o
        for o in sorted(ORD)
        if ORD[o]["status"] in ("received", "in_process", "ready")
        and balance(ORD[o]) > 0
        and D(CUS[ORD[o]["customer_id"]]["account_credit"]) > 0
    ]
    owing = [o for o in sorted(ORD) if ORD[o]["status"] in ("received", "in_process", "ready") and balance(ORD[o]) > 0]

    s = []
    for cid in rng.sample(WITH_ORDERS, 4):
        s.append(t_status_check(rng, cid))
    for oid in rng.sample([o for o in sorted(ORD) if ORD[o]["status"] not in ("collected", "cancelled")], 3):
        s.append(t_ticket_lookup(rng, oid))
    for cid in rng.sample([k for k in sorted(CUS) if CUS[k]["account_credit"] > 0], 2):
        s.append(t_customer_profile(rng, cid))
    for cid in rng.sample(ACTIVE_OK, 4):
        s.append(t_price_question(rng, cid))
    for cid in rng.sample(ACTIVE_OK, 2):
        s.append(t_quote_bad_promo(rng, cid))
    for cid in rng.sample(ACTIVE_OK, 2):
        s.append(t_quote_express_refused(rng, cid))
    for cid in rng.sample(WITH_ORDERS, 5):
        s.append(t_new_order(rng, cid))
    for cid in rng.sample(WITH_ORDERS, 2):
        s.append(t_new_specialty(rng, cid))
    for cid in NO_ORDERS:
        s.append(t_welcome(rng, cid))
    for cid in rng.sample(WITH_ORDERS, 2):
        s.append(t_welcome_refused(rng, cid))
    for cid in ON_HOLD:
        s.append(t_on_hold(rng, cid))
    for cid in AT_LIMIT:
        s.append(t_open_limit(rng, cid))
    s.append(t_promo_min_refused(rng, rng.choice(WITH_ORDERS)))
    s.append(t_qty_refused(rng, rng.choice(WITH_ORDERS)))
    for oid in rng.sample(received, 5):
        s.append(t_add_item(rng, oid))
    express_received = [o for o in received if ORD[o]["express"]]
    s.append(t_add_item_refused(rng, express_received[0]))
    s.append(t_add_item_refused(rng, rng.choice(in_process)))
    for oid in rng.sample(multi_line_received, 5):
        s.append(t_remove_item(rng, oid))
    single = [o for o in received if len(ORD[o]["items"]) == 1]
    s.append(t_remove_item_refused(rng, rng.choice(single)))
    s.append(t_remove_item_refused(rng, rng.choice(ready)))
    for oid in rng.sample(plain_received, 3) + rng.sample(in_process, 2):
        s.append(t_advance(rng, oid))
    for oid in spec_no_deposit:
        s.append(t_deposit_refused(rng, oid))
    for oid in rng.sample(ready_owing, 4) + rng.sample(ready_paid, 2):
        s.append(t_collect(rng, oid))
    storage_owing = [o for o in ready_owing if storage(ORD[o]) > 0 and net_paid(ORD[o]) > 0]
    for oid in storage_owing[:2]:
        s.append(t_collect_refused(rng, oid))
    for oid in rng.sample(received, 3) + rng.sample(in_process, 2):
        s.append(t_cancel(rng, oid))
    s.append(t_cancel_refused(rng, rng.choice(ready)))
    s.append(t_cancel_wrong_customer(rng, rng.choice(received), rng.choice(NO_ORDERS)))
    for oid in rng.sample(owing, 2):
        s.append(t_part_payment(rng, oid))
    for oid in credit_orders[1:2]:
        s.append(t_credit_payment(rng, oid))
    s.append(t_credit_refused(rng, credit_orders[0]))
    s.append(t_overpay_refused(rng, rng.choice(owing)))
    due = sorted(
        {
            (ORD[o]["customer_id"], ORD[o]["due_date"])
            for o in received + in_process
            if CUS[ORD[o]["customer_id"]]["status"] == "active"
        }
    )
    s.append(t_due_check(rng, *rng.choice(due)))
    return s


def fill_amounts(sessions):
    """Replace __TOTAL__/__DEPOSIT__ with the amounts the quote in the same session shows."""
    import importlib.util
    import sys

    sys.dont_write_bytecode = True
    spec = importlib.util.spec_from_file_location("counter_adapter", os.path.join(HERE, "adapter.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    api = mod.make()
    for _, calls in sessions:
        api.reset(DATA)
        last_total = None
        for cl in calls:
            a = cl["arguments"]
            if a.get("amount") == "__TOTAL__":
                a["amount"] = last_total
            elif a.get("amount") == "__DEPOSIT__":
                a["amount"] = float(D(D(last_total) * Decimal("0.5")))
            r = api.call(cl["name"], a)
            if r["ok"] and isinstance(r["output"], dict) and "pricing" in r["output"]:
                last_total = r["output"]["pricing"]["total"]


def main():
    rng = random.Random(SEED)
    sessions = build(rng)
    rng.shuffle(sessions)
    fill_amounts(sessions)
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for i, (instr, calls) in enumerate(sessions):
            f.write(json.dumps({"id": "meridian-%03d" % i, "instruction": instr, "calls": calls}) + "\n")
    print("sessions: %d, calls: %d" % (len(sessions), sum(len(cl) for _, cl in sessions)))


if __name__ == "__main__":
    main()
