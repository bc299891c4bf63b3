"""Writes trajectories.jsonl: seeded support sessions at the Kestrel Mobile desk.

Each session starts from data.json. The agent looks the customer up first and uses the ids it finds
there; some sessions contain the mistakes a desk agent makes (ineligible plan, wrong status, credit too
low, limits), which the real system refuses. Run: python make_trajectories.py
"""

import json
import os
import random

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20250314

with open(os.path.join(HERE, "data.json")) as f:
    DATA = json.load(f)

ACC = DATA["accounts"]
LINES = DATA["lines"]
BILLS = DATA["bills"]
PLANS = DATA["plans"]
ADDONS = DATA["addons"]
INST = DATA["instalments"]
USED_ICCIDS = {l["sim"]["iccid"] for l in LINES.values()}


def C(name, **args):
    return {"name": name, "arguments": args}


def spaced(msisdn):
    return msisdn[:5] + " " + msisdn[5:]


def holder(line_id):
    return ACC[LINES[line_id]["account_id"]]["holder"]


def first(name):
    return name.split()[0]


def lookup(rng, line_id):
    """How the agent finds the account: by the caller's number or by the account number they read out."""
    line = LINES[line_id]
    if rng.random() < 0.6 and line["status"] != "ported_out":
        fmt = rng.choice([line["msisdn"], spaced(line["msisdn"]), "+44" + line["msisdn"][1:]])
        return C("get_account", msisdn=fmt), "my number is %s" % spaced(line["msisdn"])
    return C("get_account", account_id=line["account_id"]), "account %s" % line["account_id"]


def new_iccid(rng):
    while True:
        x = "894410" + "".join(rng.choice("0123456789") for _ in range(13))
        if x not in USED_ICCIDS:
            USED_ICCIDS.add(x)
            return x


def outstanding(bill_id):
    b = BILLS[bill_id]
    return round(b["total"] - b["amount_paid"], 2)


def bills_of(aid, status):
    return sorted(b for b in BILLS if BILLS[b]["account_id"] == aid and BILLS[b]["status"] == status)


# ------------------------------------------------------------------------------------------------------
# sessions that go through


def s_bill_enquiry(rng):
    lid = rng.choice(["LN-3001", "LN-3004", "LN-3008", "LN-3012", "LN-3014", "LN-3018", "LN-3005"])
    aid = LINES[lid]["account_id"]
    look, who = lookup(rng, lid)
    status = rng.choice([None, "open", None])
    calls = [look, C("list_bills", account_id=aid, status=status) if status else C("list_bills", account_id=aid)]
    ask = rng.choice(
        [
            "How much do I owe at the moment and when is it due?",
            "Can you go through my latest bill with me? It looks higher than usual.",
            "I just want to check what's still unpaid on my account.",
        ]
    )
    return "Hello, I'm %s, %s. %s" % (holder(lid), who, ask), calls


def s_pay_open_bill(rng):
    aid = rng.choice(["AC-1001", "AC-1006", "AC-1008", "AC-1012", "AC-1003", "AC-1011"])
    lid = ACC[aid]["line_ids"][0]
    look, who = lookup(rng, lid)
    bid = bills_of(aid, "open")[0]
    amt = outstanding(bid)
    part = rng.random() < 0.3
    if part:
        amt = float(rng.choice([20, 25, 40]))
        ask = "I'd like to pay %.2f off the February bill by card today, the rest on payday." % amt
    else:
        ask = "I'd like to clear my February bill in full with my debit card."
    calls = [
        look,
        C("list_bills", account_id=aid, status="open"),
        C("pay_bill", bill_id=bid, amount=amt, method="card"),
    ]
    return "Hi, %s here, %s. %s" % (ACC[aid]["holder"], who, ask), calls


def s_pay_overdue_restore(rng):
    look, who = lookup(rng, "LN-3005")
    calls = [
        look,
        C("list_bills", account_id="AC-1004", status="overdue"),
        C("pay_bill", bill_id="BL-7008", amount=93.00, method="card"),
    ]
    if rng.random() < 0.5:
        calls.append(C("get_account", account_id="AC-1004"))
    return (
        "Daniel Hughes, %s. Both our phones have been cut off. I want to pay whatever is overdue so "
        "they come back on." % who
    ), calls


def s_pay_with_credit(rng):
    calls = [
        C("get_account", account_id="AC-1008"),
        C("list_bills", account_id="AC-1008", status="open"),
        C("pay_bill", bill_id="BL-7015", amount=20.00, method="account_credit"),
        C("pay_bill", bill_id="BL-7015", amount=106.00, method="card"),
    ]
    return (
        "This is the office manager at Hollis Bakery, account AC-1008. Use the 20 pounds credit we have "
        "towards the February bill and put the rest on the company card."
    ), calls


def s_top_up(rng):
    lid = rng.choice(["LN-3003", "LN-3007", "LN-3015", "LN-3019", "LN-3003"])
    aid = LINES[lid]["account_id"]
    look, who = lookup(rng, lid)
    amt = rng.choice([10, 15, 20, 30, 50]) if aid != "AC-1007" else rng.choice([10, 20, 50])
    return (
        "Hi, %s, %s. Can you put %d pounds of credit on my phone please?" % (holder(lid), who, amt),
        [look, C("top_up", account_id=aid, amount=amt)],
    )


def s_buy_data(rng):
    lid, ad = rng.choice(
        [
            ("LN-3003", "AD-201"),
            ("LN-3019", "AD-202"),
            ("LN-3010", "AD-202"),
            ("LN-3002", "AD-201"),
            ("LN-3009", "AD-202"),
            ("LN-3014", "AD-201"),
            ("LN-3020", "AD-208"),
            ("LN-3017", "AD-206"),
        ]
    )
    aid = LINES[lid]["account_id"]
    look, who = lookup(rng, lid)
    typ = ACC[aid]["type"]
    want = {
        "AD-201": "a small data top-up, 5GB or so",
        "AD-202": "the bigger 20GB data boost",
        "AD-208": "the streaming pass",
        "AD-206": "an international calling bundle",
    }[ad]
    calls = [look, C("browse_catalog", kind="addons", account_type=typ), C("add_bundle", line_id=lid, addon_id=ad)]
    return "%s, %s. I've nearly run out this month - I'd like %s." % (holder(lid), who, want), calls


def s_book_roaming_pass(rng):
    lid, ad, start, where = rng.choice(
        [
            ("LN-3004", "AD-204", "2025-03-28", "Canada"),
            ("LN-3012", "AD-203", "2025-04-03", "Lisbon"),
            ("LN-3018", "AD-205", "2025-03-14", "New York, just for today"),
            ("LN-3003", "AD-203", "2025-03-21", "Krakow"),
            ("LN-3001", "AD-204", "2025-04-10", "Japan"),
        ]
    )
    look, who = lookup(rng, lid)
    typ = ACC[LINES[lid]["account_id"]]["type"]
    args = {"line_id": lid, "addon_id": ad}
    if start != "2025-03-14":
        args["start_date"] = start
    calls = [look, C("browse_catalog", kind="addons", account_type=typ), C("add_bundle", **args)]
    return (
        "%s, %s. I'm travelling to %s from %s; can you set up a roaming pass for the trip?"
        % (holder(lid), who, where, start),
        calls,
    )


def s_roaming_on_then_pass(rng):
    lid = rng.choice(["LN-3002", "LN-3009", "LN-3014"])
    look, who = lookup(rng, lid)
    calls = [
        look,
        C("manage_line", line_id=lid, action="roaming_on"),
        C("add_bundle", line_id=lid, addon_id="AD-203", start_date="2025-03-22"),
    ]
    return (
        "%s, %s. I'm off to Spain on the 22nd for a week. Please switch on roaming and add the EU pass from "
        "that day." % (holder(lid), who),
        calls,
    )


def s_cancel_bundle(rng):
    lid, ref, why = rng.choice(
        [
            ("LN-3010", "BN-5004", "I bought the 5GB boost by mistake this morning"),
            ("LN-3004", "BN-5003", "my trip to Dublin next week is off"),
            ("LN-3003", "BN-5002", "I don't use the night data any more"),
            ("LN-3011", "BN-5006", "we no longer call abroad from that phone"),
        ]
    )
    look, who = lookup(rng, lid)
    return (
        "%s, %s. %s, so please cancel that add-on." % (holder(lid), who, why),
        [look, C("cancel_bundle", line_id=lid, bundle_ref=ref)],
    )


def s_upgrade_plan(rng):
    lid, pid = rng.choice(
        [
            ("LN-3002", "PL-103"),
            ("LN-3009", "PL-102"),
            ("LN-3014", "PL-101"),
            ("LN-3012", "PL-103"),
            ("LN-3004", "PL-104"),
            ("LN-3020", "PL-102"),
            ("LN-3018", "PL-104"),
        ]
    )
    look, who = lookup(rng, lid)
    calls = [
        look,
        C("browse_catalog", kind="plans", account_type="postpaid"),
        C("change_plan", line_id=lid, plan_id=pid),
    ]
    return (
        "%s, %s. I keep running out of data. Move me to the %s plan from today please."
        % (holder(lid), who, PLANS[pid]["name"]),
        calls,
    )


def s_downgrade_scheduled(rng):
    lid, pid = rng.choice([("LN-3002", "PL-101"), ("LN-3018", "PL-101"), ("LN-3002", "PL-109")])
    look, who = lookup(rng, lid)
    calls = [
        look,
        C("browse_catalog", kind="plans", account_type="postpaid"),
        C("change_plan", line_id=lid, plan_id=pid),
    ]
    return (
        "%s, %s. I'm paying for more data than I use. Can I go down to %s?" % (holder(lid), who, PLANS[pid]["name"]),
        calls,
    )


def s_prepaid_plan_change(rng):
    look, who = lookup(rng, "LN-3019")
    calls = [
        look,
        C("browse_catalog", kind="plans", account_type="prepaid"),
        C("change_plan", line_id="LN-3019", plan_id="PL-107"),
    ]
    return (
        "Sofia Marchetti, %s. My second phone is on Go 5GB; put it on Go 25GB now, take it from my credit." % who,
        calls,
    )


def s_lost_phone(rng):
    lid = rng.choice(["LN-3001", "LN-3009", "LN-3012", "LN-3003", "LN-3010", "LN-3018", "LN-3020"])
    look, who = lookup(rng, lid)
    return (
        "%s, %s. My phone was stolen on the bus an hour ago - please block the line." % (holder(lid), who),
        [look, C("manage_line", line_id=lid, action="suspend", reason="lost_stolen")],
    )


def s_replacement_sim_lost(rng):
    look, who = lookup(rng, "LN-3008")
    icc = new_iccid(rng)
    return (
        "Liam Fletcher, %s. I reported my phone lost on Wednesday; I've got a new SIM from the shop, the number on "
        "it is %s. Can you move my number onto it?" % (who, icc),
        [look, C("swap_sim", line_id="LN-3008", new_iccid=icc, reason="lost_stolen")],
    )


def s_lost_then_swap(rng):
    lid = rng.choice(["LN-3002", "LN-3012"])
    look, who = lookup(rng, lid)
    icc = new_iccid(rng)
    return (
        "%s, %s. I lost my phone yesterday. Block it, and I have a spare Kestrel SIM here, %s - put my "
        "number on that." % (holder(lid), who, icc),
        [
            look,
            C("manage_line", line_id=lid, action="suspend", reason="lost_stolen"),
            C("swap_sim", line_id=lid, new_iccid=icc, reason="lost_stolen"),
        ],
    )


def s_unsuspend_request(rng):
    return (
        "Hollis Bakery, account AC-1008. Our driver is back from leave, please switch the line we paused back on.",
        [C("get_account", account_id="AC-1008"), C("manage_line", line_id="LN-3013", action="reactivate")],
    )


def s_pause_line(rng):
    lid = rng.choice(["LN-3012", "LN-3009", "LN-3020"])
    look, who = lookup(rng, lid)
    return (
        "%s, %s. I'm going away for two months and won't use this number. Can you pause it?" % (holder(lid), who),
        [look, C("manage_line", line_id=lid, action="suspend", reason="customer_request")],
    )


def s_roaming_off(rng):
    lid = rng.choice(["LN-3001", "LN-3012", "LN-3003", "LN-3017"])
    look, who = lookup(rng, lid)
    return (
        "%s, %s. My son ran up roaming charges last time - turn roaming off on this line." % (holder(lid), who),
        [look, C("manage_line", line_id=lid, action="roaming_off")],
    )


def s_sim_swap(rng):
    lid, reason = rng.choice(
        [
            ("LN-3014", "damaged"),
            ("LN-3020", "damaged"),
            ("LN-3009", "upgrade"),
            ("LN-3003", "damaged"),
            ("LN-3001", "esim_conversion"),
            ("LN-3012", "esim_conversion"),
            ("LN-3004", "upgrade"),
        ]
    )
    look, who = lookup(rng, lid)
    icc = new_iccid(rng)
    what = {
        "damaged": "my SIM got bent and the phone says no SIM",
        "upgrade": "my new phone needs a nano SIM",
        "esim_conversion": "I'd like to switch to an eSIM",
    }[reason]
    return (
        "%s, %s. %s. The new one is %s." % (holder(lid), who, what, icc),
        [look, C("swap_sim", line_id=lid, new_iccid=icc, reason=reason)],
    )


def s_pac(rng):
    lid = rng.choice(["LN-3001", "LN-3009", "LN-3014", "LN-3003", "LN-3020", "LN-3012", "LN-3018"])
    look, who = lookup(rng, lid)
    return (
        "%s, %s. I'm moving to another network and need my PAC code. What will it cost me to leave?"
        % (holder(lid), who),
        [look, C("request_pac", line_id=lid)],
    )


def s_settle(rng):
    iid, method = rng.choice(
        [("IP-401", "card"), ("IP-403", "card"), ("IP-405", "card"), ("IP-406", "card"), ("IP-409", "account_credit")]
    )
    ip = INST[iid]
    look, who = lookup(rng, ip["line_id"])
    how = "with my card" if method == "card" else "using the credit on the account"
    return (
        "%s, %s. I want to pay off my %s in one go %s so it gets unlocked."
        % (holder(ip["line_id"]), who, ip["handset"], how),
        [look, C("settle_instalment", instalment_id=iid, method=method)],
    )


# ------------------------------------------------------------------------------------------------------
# sessions with a refused call


def r_pay_credit_too_low(rng):
    return (
        "Grace Okafor, account AC-1003. Pay the February bill with the credit on my account please.",
        [
            C("get_account", account_id="AC-1003"),
            C("list_bills", account_id="AC-1003", status="open"),
            C("pay_bill", bill_id="BL-7006", amount=54.00, method="account_credit"),
            C("pay_bill", bill_id="BL-7006", amount=5.00, method="account_credit"),
            C("pay_bill", bill_id="BL-7006", amount=49.00, method="card"),
        ],
    )


def r_pay_disputed(rng):
    look, who = lookup(rng, "LN-3014")
    return (
        "Ewan McAllister, %s. I'll just pay the February bill so I stop getting reminders." % who,
        [look, C("list_bills", account_id="AC-1009"), C("pay_bill", bill_id="BL-7018", amount=41.80, method="card")],
    )


def r_pay_too_much(rng):
    look, who = lookup(rng, "LN-3017")
    return (
        "Nadia Petrov, %s. Pay my whole February bill, 104 pounds, on my card." % who,
        [
            look,
            C("list_bills", account_id="AC-1012", status="open"),
            C("pay_bill", bill_id="BL-7024", amount=104.00, method="card"),
            C("pay_bill", bill_id="BL-7024", amount=74.00, method="card"),
        ],
    )


def r_partial_overdue_then_reactivate(rng):
    return (
        "Daniel Hughes, account AC-1004. I can pay 50 pounds now towards what's overdue. Will that get my "
        "phone working again?",
        [
            C("get_account", account_id="AC-1004"),
            C("list_bills", account_id="AC-1004", status="overdue"),
            C("pay_bill", bill_id="BL-7008", amount=50.00, method="card"),
            C("manage_line", line_id="LN-3005", action="reactivate"),
        ],
    )


def r_top_up_postpaid(rng):
    return (
        "Hi, Priya Raman, number 07700 900102. I want to add 20 pounds credit to my daughter's phone.",
        [C("get_account", msisdn="07700900102"), C("top_up", account_id="AC-1001", amount=20)],
    )


def r_top_up_limit(rng):
    return (
        "Sofia Marchetti, account AC-1007. Top me up with another 60 pounds; if that's too much, whatever you can.",
        [
            C("get_account", account_id="AC-1007"),
            C("top_up", account_id="AC-1007", amount=60),
            C("top_up", account_id="AC-1007", amount=50),
        ],
    )


def r_eu_pass_included(rng):
    lid = rng.choice(["LN-3001", "LN-3017", "LN-3010"])
    look, who = lookup(rng, lid)
    return (
        "%s, %s. I'm in Paris next week, add the EU Roam Pass to my line." % (holder(lid), who),
        [look, C("add_bundle", line_id=lid, addon_id="AD-203")],
    )


def r_pass_roaming_off(rng):
    look, who = lookup(rng, "LN-3009")
    return (
        "Liam Fletcher, %s. Add a World day pass, I'm in Boston today for a meeting." % who,
        [
            look,
            C("add_bundle", line_id="LN-3009", addon_id="AD-205"),
            C("manage_line", line_id="LN-3009", action="roaming_on"),
            C("add_bundle", line_id="LN-3009", addon_id="AD-205"),
        ],
    )


def r_bundle_no_credit(rng):
    lid = rng.choice(["LN-3007", "LN-3015"])
    aid = LINES[lid]["account_id"]
    look, who = lookup(rng, lid)
    return (
        "%s, %s. Give me the 5GB data boost, and top me up by 10 if I need it." % (holder(lid), who),
        [
            look,
            C("add_bundle", line_id=lid, addon_id="AD-201"),
            C("top_up", account_id=aid, amount=10),
            C("add_bundle", line_id=lid, addon_id="AD-201"),
        ],
    )


def r_bundle_max(rng):
    return (
        "Hollis Bakery, account AC-1008. Add a 5GB boost to the manager's phone, 07700 900811. Drop the "
        "streaming pass if you have to.",
        [
            C("get_account", account_id="AC-1008"),
            C("add_bundle", line_id="LN-3011", addon_id="AD-201"),
            C("cancel_bundle", line_id="LN-3011", bundle_ref="BN-5005"),
            C("add_bundle", line_id="LN-3011", addon_id="AD-201"),
        ],
    )


def r_bundle_wrong_type(rng):
    if rng.random() < 0.5:
        return (
            "Tomasz Nowicki, number 07700 900203. I'd like the Stream Pass for watching football.",
            [
                C("get_account", msisdn="07700 900203"),
                C("browse_catalog", kind="addons"),
                C("add_bundle", line_id="LN-3003", addon_id="AD-208"),
            ],
        )
    return (
        "Priya Raman, account AC-1001. Add the Night Owl unlimited night data to 07700 900102.",
        [
            C("get_account", account_id="AC-1001"),
            C("browse_catalog", kind="addons"),
            C("add_bundle", line_id="LN-3002", addon_id="AD-207"),
        ],
    )


def r_cancel_started_pass(rng):
    return (
        "Nadia Petrov, number 07700 901218. Put a World day pass on this line, I land in New York in an hour. "
        "... Oh no, my flight has just been cancelled - take the pass off again and refund it please.",
        [
            C("get_account", msisdn="07700901218"),
            C("add_bundle", line_id="LN-3018", addon_id="AD-205"),
            C("cancel_bundle", line_id="LN-3018", bundle_ref="BN-5008"),
        ],
    )


def r_downgrade_in_term(rng):
    lid, pid = rng.choice([("LN-3004", "PL-101"), ("LN-3012", "PL-101"), ("LN-3001", "PL-102"), ("LN-3017", "PL-103")])
    look, who = lookup(rng, lid)
    return (
        "%s, %s. Money is tight; move me to the cheaper %s plan." % (holder(lid), who, PLANS[pid]["name"]),
        [look, C("browse_catalog", kind="plans", account_type="postpaid"), C("change_plan", line_id=lid, plan_id=pid)],
    )


def r_legacy_plan(rng):
    if rng.random() < 0.5:
        return (
            "Priya Raman, number 07700 900102. Put this line on Classic 5GB like my dad has, it's cheaper.",
            [
                C("get_account", msisdn="07700 900102"),
                C("browse_catalog", kind="plans", include_withdrawn=True),
                C("change_plan", line_id="LN-3002", plan_id="PL-105"),
            ],
        )
    return (
        "Tomasz Nowicki, account AC-1002. I want Go Lite, I hardly use data.",
        [
            C("get_account", account_id="AC-1002"),
            C("browse_catalog", kind="plans", include_withdrawn=True),
            C("change_plan", line_id="LN-3003", plan_id="PL-108"),
        ],
    )


def r_prepaid_change_no_credit(rng):
    return (
        "Tomasz Nowicki, number 07700 900203. Switch me to Go 25GB. Top up 10 pounds if you need to.",
        [
            C("get_account", msisdn="07700 900203"),
            C("change_plan", line_id="LN-3003", plan_id="PL-107"),
            C("top_up", account_id="AC-1002", amount=10),
            C("change_plan", line_id="LN-3003", plan_id="PL-107"),
        ],
    )


def r_plan_wrong_type(rng):
    return (
        "Liam Fletcher, number 07700 900609. I saw Go 5GB is only 8 pounds, put my line on that.",
        [
            C("get_account", msisdn="07700 900609"),
            C("browse_catalog", kind="plans"),
            C("change_plan", line_id="LN-3009", plan_id="PL-106"),
        ],
    )


def r_reactivate_lost(rng):
    icc = new_iccid(rng)
    return (
        "Liam Fletcher, account AC-1006. I blocked my line when I lost my phone; please turn it back on. "
        "I have a new SIM, %s." % icc,
        [
            C("get_account", account_id="AC-1006"),
            C("manage_line", line_id="LN-3008", action="reactivate"),
            C("swap_sim", line_id="LN-3008", new_iccid=icc, reason="lost_stolen"),
        ],
    )


def r_swap_too_soon(rng):
    icc = new_iccid(rng)
    return (
        "Nadia Petrov, number 07700 901217. The eSIM you gave me on Monday isn't working on my new phone, "
        "swap me to this physical SIM: %s." % icc,
        [C("get_account", msisdn="07700 901217"), C("swap_sim", line_id="LN-3017", new_iccid=icc, reason="damaged")],
    )


def r_esim_already(rng):
    icc = new_iccid(rng)
    return (
        "Sofia Marchetti, number 07700 900719. Convert my second line to eSIM, the code is %s." % icc,
        [
            C("get_account", msisdn="07700900719"),
            C("swap_sim", line_id="LN-3019", new_iccid=icc, reason="esim_conversion"),
        ],
    )


def r_swap_iccid_in_use(rng):
    icc = new_iccid(rng)
    return (
        "Ewan McAllister, account AC-1009. My SIM is damaged; the new card's number is %s." % icc,
        [
            C("get_account", account_id="AC-1009"),
            C("swap_sim", line_id="LN-3014", new_iccid=LINES["LN-3014"]["sim"]["iccid"], reason="damaged"),
            C("swap_sim", line_id="LN-3014", new_iccid=icc, reason="damaged"),
        ],
    )


def r_swap_no_credit(rng):
    icc = new_iccid(rng)
    return (
        "Mei Lin Zhou, number 07700 901015. My SIM cracked. Here's the new one: %s. Top up 10 if needed." % icc,
        [
            C("get_account", msisdn="07700 901015"),
            C("swap_sim", line_id="LN-3015", new_iccid=icc, reason="damaged"),
            C("top_up", account_id="AC-1010", amount=10),
            C("swap_sim", line_id="LN-3015", new_iccid=icc, reason="damaged"),
        ],
    )


def r_pac_after_swap(rng):
    return (
        "Nadia Petrov, number 07700 901217. I'm leaving for another network, give me the PAC for this number.",
        [C("get_account", msisdn="07700 901217"), C("request_pac", line_id="LN-3017")],
    )


def r_pac_suspended(rng):
    lid = rng.choice(["LN-3008", "LN-3005"])
    look, who = lookup(rng, lid)
    return (
        "%s, %s. I want my PAC code to switch networks." % (holder(lid), who),
        [look, C("request_pac", line_id=lid)],
    )


def r_pac_existing(rng):
    return (
        "Nadia Petrov, number 07700 901218. I lost the PAC you sent me last week, can I have it again?",
        [C("get_account", msisdn="07700 901218"), C("request_pac", line_id="LN-3018")],
    )


def r_settle_over_card_limit(rng):
    return (
        "Nadia Petrov, account AC-1012. Pay off the rest of my Pixelon Fold on my card today.",
        [C("get_account", account_id="AC-1012"), C("settle_instalment", instalment_id="IP-407", method="card")],
    )


def r_settle_arrears(rng):
    return (
        "Daniel Hughes, number 07700 900405. I want to pay off the Novaphone and be done with it.",
        [C("get_account", msisdn="07700 900405"), C("settle_instalment", instalment_id="IP-404", method="card")],
    )


def r_roaming_low_credit(rng):
    return (
        "Amira Haddad, number 07700 900507. I'm flying to Beirut tonight, switch on roaming. Top up 20 if you must.",
        [
            C("get_account", msisdn="07700 900507"),
            C("manage_line", line_id="LN-3007", action="roaming_on"),
            C("top_up", account_id="AC-1005", amount=20),
            C("manage_line", line_id="LN-3007", action="roaming_on"),
        ],
    )


def r_roaming_overdue(rng):
    return (
        "Grace Okafor, number 07700 900320. Turn roaming on for this line please, I'm going to Rome.",
        [
            C("get_account", msisdn="07700 900320"),
            C("manage_line", line_id="LN-3020", action="roaming_on"),
            C("list_bills", account_id="AC-1003", status="overdue"),
            C("pay_bill", bill_id="BL-7005", amount=33.40, method="card"),
            C("manage_line", line_id="LN-3020", action="roaming_on"),
        ],
    )


PLAN = [
    # (function, sessions)
    (s_bill_enquiry, 2),
    (s_pay_open_bill, 3),
    (s_pay_overdue_restore, 1),
    (s_pay_with_credit, 1),
    (s_top_up, 3),
    (s_buy_data, 3),
    (s_book_roaming_pass, 2),
    (s_roaming_on_then_pass, 2),
    (s_cancel_bundle, 4),
    (s_upgrade_plan, 3),
    (s_downgrade_scheduled, 2),
    (s_prepaid_plan_change, 1),
    (s_lost_phone, 2),
    (s_replacement_sim_lost, 1),
    (s_lost_then_swap, 1),
    (s_unsuspend_request, 1),
    (s_pause_line, 2),
    (s_roaming_off, 1),
    (s_sim_swap, 3),
    (s_pac, 3),
    (s_settle, 4),
    (r_pac_existing, 1),
    (r_pay_credit_too_low, 1),
    (r_pay_disputed, 1),
    (r_pay_too_much, 1),
    (r_partial_overdue_then_reactivate, 1),
    (r_top_up_postpaid, 1),
    (r_top_up_limit, 1),
    (r_eu_pass_included, 1),
    (r_pass_roaming_off, 1),
    (r_bundle_no_credit, 1),
    (r_bundle_max, 1),
    (r_bundle_wrong_type, 1),
    (r_cancel_started_pass, 1),
    (r_downgrade_in_term, 1),
    (r_legacy_plan, 1),
    (r_prepaid_change_no_credit, 1),
    (r_plan_wrong_type, 1),
    (r_reactivate_lost, 1),
    (r_swap_too_soon, 1),
    (r_esim_already, 1),
    (r_swap_iccid_in_use, 1),
    (r_swap_no_credit, 1),
    (r_pac_after_swap, 1),
    (r_pac_suspended, 1),
    (r_settle_over_card_limit, 1),
    (r_settle_arrears, 1),
    (r_roaming_low_credit, 1),
    (r_roaming_overdue, 1),
]


def main():
    rng = random.Random(SEED)
    order = [f for f, n in PLAN for _ in range(n)]
    rng.shuffle(order)
    sessions = []
    for i, f in enumerate(order):
        instruction, calls = f(rng)
        sessions.append({"id": "mobile-%03d" % i, "instruction": instruction, "calls": calls})
    # check against the real system
    desk = adapter.make()
    n_calls = n_ref = 0
    per_tool = {}
    for s in sessions:
        desk.reset(DATA)
        for c in s["calls"]:
            r = desk.call(c["name"], c["arguments"])
            n_calls += 1
            n_ref += 0 if r["ok"] else 1
            per_tool[c["name"]] = per_tool.get(c["name"], 0) + 1
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for s in sessions:
            f.write(json.dumps(s) + "\n")
    print("sessions %d, calls %d, refused %d (%.1f%%)" % (len(sessions), n_calls, n_ref, 100.0 * n_ref / n_calls))
    print(sorted(per_tool.items(), key=lambda kv: kv[1]))


if __name__ == "__main__":
    main()
