"""Write trajectories.jsonl: recorded counter sessions against data.json (seeded, deterministic).

Every trajectory is replayed from the initial state in data.json.  Calls marked X(...) below are
expected to be refused by the system; the marker is not written to the output file.
"""

import json
import os
import random

SEED = 20260316
rng = random.Random(SEED)


def C(tool, /, **arguments):
    return {"name": tool, "arguments": arguments}


def X(tool, /, **arguments):
    return {"name": tool, "arguments": arguments, "_refused": True}


def pick(*options):
    return rng.choice(options)


def item(category, description, value, condition="good"):
    return {"category": category, "description": description, "appraised_value": value, "condition": condition}


def lookup(name, phone):
    """A customer lookup, by name or by phone."""
    if rng.random() < 0.5:
        return C("find_customers", name=name)
    return C("find_customers", phone=phone)


S = []  # (instruction, calls)


def add(instruction, *calls):
    S.append((instruction, list(calls)))


# ---------------------------------------------------------------- redemptions
m = pick("cash", "card")
add(
    "Hi, Dana Whitlock here. I want to pick up my PlayStation today. What do I owe? I'll pay by %s." % m,
    lookup("Whitlock", "503-555-0142"),
    C("get_pledge", pledge_id="PL-3016"),
    C("redeem_pledge", pledge_id="PL-3016", customer_id="CU-2001", method=m),
)
add(
    "I'm Dana Whitlock. I'd like to take both my PlayStation and my emerald ring home today, on my card please.",
    C("find_customers", name="Dana Whitlock"),
    C("get_pledge", pledge_id="PL-3016"),
    C("redeem_pledge", pledge_id="PL-3016", customer_id="CU-2001", method="card"),
    C("get_pledge", pledge_id="PL-3021"),
    C("redeem_pledge", pledge_id="PL-3021", customer_id="CU-2001", method="card"),
)
m = pick("card", "bank_transfer")
add(
    "Marcus Oyelaran. I want to clear loan PL-3017 and get my Tissot and the earrings back. Paying by %s."
    % m.replace("_", " "),
    C("get_pledge", pledge_id="PL-3017"),
    C("redeem_pledge", pledge_id="PL-3017", customer_id="CU-2002", method=m),
)
add(
    "Can I just pay off the whole 1,296 on PL-3017 as a payment? It's Marcus Oyelaran. If not, just do whatever gets me my watch back, bank transfer.",
    C("get_pledge", pledge_id="PL-3017"),
    X("record_payment", pledge_id="PL-3017", amount=1296, method="bank_transfer"),
    C("redeem_pledge", pledge_id="PL-3017", customer_id="CU-2002", method="bank_transfer"),
)
add(
    "Tomasz Wierzbicki. I've come for the Rolex and the bangle, pledge PL-3014. I brought cash; if that doesn't work I'll use my card.",
    C("get_pledge", pledge_id="PL-3014"),
    X("redeem_pledge", pledge_id="PL-3014", customer_id="CU-2004", method="cash"),
    C("redeem_pledge", pledge_id="PL-3014", customer_id="CU-2004", method="card"),
)
add(
    "Yusuf Demir, phone 555-0185. I want my DeWalt drill set back, paying cash.",
    C("find_customers", phone="555-0185"),
    C("get_pledge", pledge_id="PL-3022"),
    C("redeem_pledge", pledge_id="PL-3022", customer_id="CU-2007", method="cash"),
)
m = pick("card", "bank_transfer")
add(
    "Beatriz Solano. I'm settling the diamond necklace loan today, all of it, by %s." % m.replace("_", " "),
    lookup("Solano", "(503) 555-0150"),
    C("get_pledge", pledge_id="PL-3025"),
    C("redeem_pledge", pledge_id="PL-3025", customer_id="CU-2010", method=m),
)
add(
    "I'm Ivan Petrov-Haines. I want to pay off my sapphire pendant and take it home today, cash.",
    C("find_customers", name="Petrov"),
    C("get_pledge", pledge_id="PL-3015"),
    X("redeem_pledge", pledge_id="PL-3015", customer_id="CU-2013", method="cash"),
)
add(
    "Oliver Brandt. I'm here to redeem the Breitling, PL-3012. Bank transfer.",
    C("get_pledge", pledge_id="PL-3012"),
    C("redeem_pledge", pledge_id="PL-3012", customer_id="CU-2015", method="bank_transfer"),
)
m = pick("cash", "card")
add(
    "Sofia Nakashima-Reyes. I'd like another month on my iPad loan please, and if I can't, I'll just pay it off, %s."
    % m,
    C("find_customers", name="Nakashima"),
    C("get_pledge", pledge_id="PL-3007"),
    X("extend_pledge", pledge_id="PL-3007", term_days=30, method=m),
    C("redeem_pledge", pledge_id="PL-3007", customer_id="CU-2016", method=m),
)
m = pick("card", "bank_transfer")
add(
    "Priya Raghunathan. I want my laptop back, pledge PL-3024. I'll pay by %s." % m.replace("_", " "),
    C("get_pledge", pledge_id="PL-3024"),
    C("redeem_pledge", pledge_id="PL-3024", customer_id="CU-2003", method=m),
)
add(
    "Gareth Pellow. I know I'm late, but I want the ring and the TAG back from PL-3009. I'll pay cash.",
    C("get_pledge", pledge_id="PL-3009"),
    X("redeem_pledge", pledge_id="PL-3009", customer_id="CU-2006", method="cash"),
)
add(
    "Hi, I'm Kwame Asante. My friend Hannah Lindqvist asked me to collect her camera gear, pledge PL-3018. I'll pay by card.",
    C("find_customers", name="Kwame Asante"),
    X("redeem_pledge", pledge_id="PL-3018", customer_id="CU-2011", method="card"),
)
m = pick("cash", "card")
add(
    "Elena Marchetti. I'd like to pay off the guitar loan and take the Taylor home, %s." % m,
    lookup("Marchetti", "555 0108"),
    C("get_pledge", pledge_id="PL-3019"),
    C("redeem_pledge", pledge_id="PL-3019", customer_id="CU-2005", method=m),
)

# ---------------------------------------------------------------- part payments
m = pick("card", "cash")
add(
    "Dana Whitlock. Just the interest on the emerald ring please, on %s." % m,
    C("get_pledge", pledge_id="PL-3021"),
    C("record_payment", pledge_id="PL-3021", amount=20, method=m),
)
add(
    "Marcus Oyelaran. Pay this month's interest on PL-3017 plus 200 towards the principal, cash.",
    C("get_pledge", pledge_id="PL-3017"),
    C("record_payment", pledge_id="PL-3017", amount=296, method="cash"),
)
add(
    "Tomasz Wierzbicki. I just want to keep the Rolex loan current - the interest, cash.",
    C("get_pledge", pledge_id="PL-3014"),
    C("record_payment", pledge_id="PL-3014", amount=75, method="cash"),
)
extra = pick(200, 300, 400)
add(
    "Elena Marchetti. Interest on the guitar plus %d off the balance, by bank transfer." % extra,
    C("get_pledge", pledge_id="PL-3019"),
    C("record_payment", pledge_id="PL-3019", amount=32 + extra, method="bank_transfer"),
)
add(
    "Ivan Petrov-Haines. I can only do 50 today on the pendant. If that's not enough, I'll pay whatever the minimum is, cash.",
    C("get_pledge", pledge_id="PL-3015"),
    X("record_payment", pledge_id="PL-3015", amount=50, method="cash"),
    C("record_payment", pledge_id="PL-3015", amount=99, method="cash"),
)
m = pick("cash", "card")
add(
    "Oliver Brandt. I'm behind on the Breitling. Pay the minimum to bring it up to date, %s." % m,
    C("find_customers", email="oliver.brandt@mailbox.test"),
    C("get_pledge", pledge_id="PL-3012"),
    C("record_payment", pledge_id="PL-3012", amount=195, method=m),
)
add(
    "Sofia Nakashima-Reyes. Can I pay the late fee and interest on the iPad by card?",
    C("get_pledge", pledge_id="PL-3007"),
    C("record_payment", pledge_id="PL-3007", amount=40, method="card"),
)
add(
    "Declan Moss. I want to make a payment on my violin loan so you don't sell it. 95 cash.",
    C("find_customers", name="Declan Moss"),
    C("get_pledge", pledge_id="PL-3011"),
    X("record_payment", pledge_id="PL-3011", amount=95, method="cash"),
)
add(
    "Lucy Fairbanks. I'd like to pay the interest on the bracelet and on the Sony camera, both cash.",
    C("find_customers", name="Fairbanks"),
    C("get_pledge", pledge_id="PL-3023"),
    C("record_payment", pledge_id="PL-3023", amount=25, method="cash"),
    C("get_pledge", pledge_id="PL-3026"),
    C("record_payment", pledge_id="PL-3026", amount=22.5, method="cash"),
)

# ---------------------------------------------------------------- extensions
m = pick("card", "cash")
add(
    "Marcus Oyelaran. I need 60 more days on PL-3017. %s." % m.capitalize(),
    C("get_pledge", pledge_id="PL-3017"),
    C("extend_pledge", pledge_id="PL-3017", term_days=60, method=m),
)
add(
    "Tomasz Wierzbicki, 503-555-0163. Extend the Rolex pledge another 30 days on my card.",
    C("find_customers", phone="503-555-0163"),
    C("get_pledge", pledge_id="PL-3014"),
    C("extend_pledge", pledge_id="PL-3014", term_days=30, method="card"),
)
t = pick(30, 60)
add(
    "Hannah Lindqvist. My camera loan is due soon, can you give me %d more days? Card." % t,
    C("get_pledge", pledge_id="PL-3018"),
    C("extend_pledge", pledge_id="PL-3018", term_days=t, method="card"),
)
add(
    "Beatriz Solano. I'd like to extend the necklace by 60 days, paying cash.",
    C("get_pledge", pledge_id="PL-3025"),
    C("extend_pledge", pledge_id="PL-3025", term_days=60, method="cash"),
)
add(
    "Ivan Petrov-Haines. Since I can't take the pendant home, can I at least extend the loan 30 days? Cash.",
    C("get_pledge", pledge_id="PL-3015"),
    C("extend_pledge", pledge_id="PL-3015", term_days=30, method="cash"),
)
m = pick("card", "bank_transfer")
add(
    "Oliver Brandt. Renew the Breitling for another month please, %s." % m.replace("_", " "),
    C("get_pledge", pledge_id="PL-3012"),
    C("extend_pledge", pledge_id="PL-3012", term_days=30, method=m),
)
add(
    "Amara Nwosu, 555-0113. I want to extend my phone pledge by 30 days, cash.",
    C("find_customers", phone="555-0113"),
    C("get_pledge", pledge_id="PL-3013"),
    X("extend_pledge", pledge_id="PL-3013", term_days=30, method="cash"),
)

# ---------------------------------------------------------------- forfeits
add(
    "Declan Moss. I'm not going to be able to pay for the violin. You can keep it.",
    C("get_pledge", pledge_id="PL-3011"),
    C("forfeit_pledge", pledge_id="PL-3011"),
)
add(
    "Amara Nwosu. Honestly, I've replaced the phone. Let the pledge go; I won't be back for it.",
    C("get_pledge", pledge_id="PL-3013"),
    C("forfeit_pledge", pledge_id="PL-3013"),
    C("search_items", pledge_id="PL-3013"),
)
add(
    "Gareth Pellow. Fine, keep the ring and the watch, I'm done with PL-3009. Where does that leave the ring the police wanted?",
    C("forfeit_pledge", pledge_id="PL-3009"),
    C("search_items", pledge_id="PL-3009"),
)
add(
    "Ivan Petrov-Haines. Forget it - just close out the pendant pledge and keep it.",
    C("get_pledge", pledge_id="PL-3015"),
    X("forfeit_pledge", pledge_id="PL-3015"),
)
add(
    "Declan Moss. My partner Amara Nwosu and I are both done: she won't be back for the phone on PL-3013, and I won't for the violin on PL-3011. Close them out.",
    C("forfeit_pledge", pledge_id="PL-3013"),
    C("forfeit_pledge", pledge_id="PL-3011"),
)

# ---------------------------------------------------------------- new pledges
add(
    "Gareth Pellow. I'd like a loan on my Longines watch, 1,000 for 90 days paid into my bank. I've got my new driving licence here, DL1187342, expires 31 January 2034.",
    C("find_customers", name="Pellow"),
    X(
        "open_pledge",
        customer_id="CU-2006",
        items=[item("watch", "Longines Conquest 41mm automatic", 1800)],
        principal=1000,
        term_days=90,
        payout_method="bank_transfer",
    ),
    C(
        "update_customer",
        customer_id="CU-2006",
        id_document={"type": "driving_licence", "number": "DL1187342", "expires": "2034-01-31"},
    ),
    C(
        "open_pledge",
        customer_id="CU-2006",
        items=[item("watch", "Longines Conquest 41mm automatic", 1800)],
        principal=1000,
        term_days=90,
        payout_method="bank_transfer",
    ),
)
t = pick(30, 60, 90)
add(
    "Yusuf Demir. I want to pawn my Nikon D7500 and my Garmin watch for 500 cash, %d days." % t,
    C("find_customers", name="Yusuf"),
    C(
        "open_pledge",
        customer_id="CU-2007",
        items=[
            item("camera", "Nikon D7500 body, shutter count 12k", 800),
            item("electronics", "Garmin Fenix 6 Pro smartwatch", 250),
        ],
        principal=500,
        term_days=t,
        payout_method="cash",
    ),
)
add(
    "Kwame Asante. How much can I get for my Boss Katana amp? I'll take 250 cash for 30 days.",
    lookup("Asante", "503 555 0171"),
    C(
        "open_pledge",
        customer_id="CU-2011",
        items=[item("musical_instrument", "Boss Katana-100 MkII guitar amplifier", 420)],
        principal=250,
        term_days=30,
        payout_method="cash",
    ),
)
add(
    "Rory Callaghan. I want to pawn my Xbox Series X for 200 cash.",
    C("find_customers", name="Callaghan"),
    X(
        "open_pledge",
        customer_id="CU-2009",
        items=[item("electronics", "Xbox Series X 1TB console", 450)],
        principal=200,
        term_days=30,
        payout_method="cash",
    ),
)
add(
    "Lucy Fairbanks. I need 100 on my Michael Kors watch for 30 days, cash.",
    C("find_customers", name="Lucy"),
    X(
        "open_pledge",
        customer_id="CU-2012",
        items=[item("watch", "Michael Kors Lexington chronograph", 180)],
        principal=100,
        term_days=30,
        payout_method="cash",
    ),
)
add(
    "Lucy Fairbanks. I'll pay off the chainsaw today in cash and then pawn my gold locket for 400 cash, 60 days.",
    C("get_pledge", pledge_id="PL-3020"),
    C("redeem_pledge", pledge_id="PL-3020", customer_id="CU-2012", method="cash"),
    C(
        "open_pledge",
        customer_id="CU-2012",
        items=[item("jewellery", "14ct gold oval locket with chain", 600)],
        principal=400,
        term_days=60,
        payout_method="cash",
    ),
)
add(
    "Mei Tanaka. I'd like to pawn my gold chain for 150 cash.",
    C("find_customers", name="Tanaka"),
    X(
        "open_pledge",
        customer_id="CU-2014",
        items=[item("jewellery", "14ct gold rope chain, 18 inch", 300)],
        principal=150,
        term_days=30,
        payout_method="cash",
    ),
)
add(
    "Kwame Asante. I want 400 on my Yamaha digital piano, 60 days, cash. If that's too much give me the most you can.",
    C("find_customers", name="Kwame"),
    X(
        "open_pledge",
        customer_id="CU-2011",
        items=[item("musical_instrument", "Yamaha P-125 digital piano with stand", 550)],
        principal=400,
        term_days=60,
        payout_method="cash",
    ),
    C(
        "open_pledge",
        customer_id="CU-2011",
        items=[item("musical_instrument", "Yamaha P-125 digital piano with stand", 550)],
        principal=330,
        term_days=60,
        payout_method="cash",
    ),
)
add(
    "Beatriz Solano. I want 1,800 in cash on my diamond stud earrings, 90 days. Bank transfer is fine if you can't do cash.",
    C("find_customers", name="Beatriz"),
    X(
        "open_pledge",
        customer_id="CU-2010",
        items=[item("jewellery", "Diamond stud earrings, 1.0ct total, 14ct white gold", 3000, "excellent")],
        principal=1800,
        term_days=90,
        payout_method="cash",
    ),
    C(
        "open_pledge",
        customer_id="CU-2010",
        items=[item("jewellery", "Diamond stud earrings, 1.0ct total, 14ct white gold", 3000, "excellent")],
        principal=1800,
        term_days=90,
        payout_method="bank_transfer",
    ),
)
add(
    "Elena Marchetti. I'd like 600 for my MacBook Pro and an old impact driver, 30 days, cash.",
    C("find_customers", name="Elena"),
    C(
        "open_pledge",
        customer_id="CU-2005",
        items=[
            item("electronics", "MacBook Pro 14in M1 Pro, 16GB/512GB", 1200),
            item("tool", "Milwaukee M18 impact driver, worn battery", 150, "poor"),
        ],
        principal=600,
        term_days=30,
        payout_method="cash",
    ),
)
add(
    "Amara Nwosu. Can I get 250 cash on my white gold wedding band for 30 days?",
    C("find_customers", name="Nwosu"),
    C(
        "open_pledge",
        customer_id="CU-2018",
        items=[item("jewellery", "18ct white gold wedding band, size 7", 400)],
        principal=250,
        term_days=30,
        payout_method="cash",
    ),
)
add(
    "Oliver Brandt. I'd like to pawn two guitars - a Gibson Les Paul Studio and an Epiphone acoustic - for 900, 60 days, into my bank.",
    C("find_customers", name="Brandt"),
    C(
        "open_pledge",
        customer_id="CU-2015",
        items=[
            item("musical_instrument", "Gibson Les Paul Studio, 2019, with case", 1500),
            item("musical_instrument", "Epiphone DR-100 acoustic guitar", 120, "fair"),
        ],
        principal=900,
        term_days=60,
        payout_method="bank_transfer",
    ),
)

# ---------------------------------------------------------------- shop floor
add(
    "Hi, I'm looking for a Bluetooth speaker, something cheap. I'll pay cash.",
    C("search_items", status="for_sale", category="electronics"),
    C("sell_item", item_id="IT-5003", method="cash"),
)
add(
    "That Roland digital piano - would you take 380 for it? If not, 410, on card.",
    C("search_items", status="for_sale", text="piano"),
    X("sell_item", item_id="IT-5011", method="card", price=380),
    C("sell_item", item_id="IT-5011", method="card", price=410),
)
add(
    "My daughter needs a flute for school band. I saw one in your window, I'll pay cash.",
    C("search_items", status="for_sale", category="musical_instrument"),
    X("sell_item", item_id="IT-5008", method="cash"),
)
add(
    "Do you have the Canon EOS 80D still? If it's gone I'll take the 50mm lens instead, cash.",
    C("search_items", text="canon"),
    X("sell_item", item_id="IT-5012", method="cash"),
    C("sell_item", item_id="IT-5013", method="cash"),
)
p = pick(190, 200, 210)
add(
    "Elena Marchetti. I'd like the Seiko automatic. Would you do %d? Card, and put it on my account." % p,
    C("search_items", status="for_sale", category="watch"),
    C("sell_item", item_id="IT-5002", method="card", price=p, buyer_customer_id="CU-2005"),
)
add(
    "Mei Tanaka. I'd like to buy the pearl necklace, card.",
    C("search_items", text="pearl", status="for_sale"),
    C("sell_item", item_id="IT-5009", method="card", buyer_customer_id="CU-2014"),
)
add(
    "Rory Callaghan. I want to buy that JBL speaker, cash.",
    C("find_customers", name="Rory"),
    X("sell_item", item_id="IT-5003", method="cash", buyer_customer_id="CU-2009"),
)
m = pick("cash", "card")
add(
    "What have you got under 150 dollars? I'll buy whatever's cheapest, %s." % m,
    C("search_items", status="for_sale", max_list_price=150),
    C("sell_item", item_id="IT-5003", method=m),
)

# ---------------------------------------------------------------- returns
add(
    "Hannah Lindqvist. I bought a laser level here last week, sale SL-9008. I don't need it after all; can I return it?",
    C("find_customers", name="Hannah"),
    C("refund_sale", sale_id="SL-9008", reason="changed_mind"),
)
add(
    "Kwame Asante. The Canon camera I bought in December, SL-9004, stopped working. I want a refund.",
    C("search_items", text="Canon", status="sold"),
    X("refund_sale", sale_id="SL-9004", reason="defective"),
)
add(
    "Ivan Petrov-Haines. I'm returning the Seiko from sale SL-9007.",
    X("refund_sale", sale_id="SL-9007", reason="defective"),
)
add(
    "I bought a Sony soundbar here on Thursday, receipt SL-9009, and it won't power on. I want my money back.",
    C("search_items", text="soundbar"),
    C("refund_sale", sale_id="SL-9009", reason="defective"),
)
add(
    "Hannah Lindqvist. The laser level from SL-9008 doesn't self-level like the tag said. Refund please.",
    C("refund_sale", sale_id="SL-9008", reason="not_as_described"),
)
add(
    "Receipt SL-9009 - I bought the soundbar but changed my mind. Can I bring it back?",
    C("refund_sale", sale_id="SL-9009", reason="changed_mind"),
)

# ---------------------------------------------------------------- profiles
add(
    "Priya Raghunathan. I have a new number, (503) 555-0199, and my email is now priya.raghu@quillnet.test.",
    C("find_customers", name="Raghunathan"),
    C("update_customer", customer_id="CU-2003", phone="(503) 555-0199", email="priya.raghu@quillnet.test"),
)
add(
    "Dana Whitlock. I moved to 77 Birch Hollow Rd, Millbrook, 97446.",
    lookup("Dana", "5035550142"),
    C(
        "update_customer",
        customer_id="CU-2001",
        address={"street": "77 Birch Hollow Rd", "city": "Millbrook", "zip": "97446"},
    ),
)
add(
    "Amara Nwosu. Change my phone to 503-555-0148, and please note I'd like a call before anything of mine is sold.",
    C("find_customers", email="amara.nwosu@mailbox.test"),
    C(
        "update_customer",
        customer_id="CU-2018",
        phone="503-555-0148",
        note="Customer asks for a phone call before any of her items are sold.",
    ),
)
add(
    "Declan Moss. Please put on my file that I'll be back on the 27th with the money for the violin.",
    C("find_customers", name="Moss"),
    C(
        "update_customer",
        customer_id="CU-2017",
        note="Says he will return on 2026-03-27 with payment for violin pledge PL-3011.",
    ),
)
add(
    "Declan Moss. Here's my ID for the file - passport P90012345, expired December last year. Oh, here's my current licence instead: DL7035562, valid to November 2029.",
    X(
        "update_customer",
        customer_id="CU-2017",
        id_document={"type": "passport", "number": "P90012345", "expires": "2025-12-01"},
    ),
    C(
        "update_customer",
        customer_id="CU-2017",
        id_document={"type": "driving_licence", "number": "DL7035562", "expires": "2029-11-11"},
    ),
)
add(
    "Sofia Nakashima-Reyes. Update my email to sofia.nakashima@hollowmail.test, and show me what I've paid in extension fees.",
    C("update_customer", customer_id="CU-2016", email="sofia.nakashima@hollowmail.test"),
    C("list_payments", customer_id="CU-2016", kind="extension"),
)
add(
    "Mei Tanaka. I'd like to register my state ID so I can pawn things later: SID441902, expires 2030-12-22.",
    C("find_customers", phone="555-0102"),
    C(
        "update_customer",
        customer_id="CU-2014",
        id_document={"type": "state_id", "number": "SID441902", "expires": "2030-12-22"},
    ),
)

# ---------------------------------------------------------------- enquiries
add(
    "Marcus Oyelaran. Can you show me everything I've paid on PL-3017 so far?",
    C("list_payments", pledge_id="PL-3017"),
    C("get_pledge", pledge_id="PL-3017"),
)
add(
    "Beatriz Solano. Can you print me the payments I've made on the necklace loan?",
    C("list_payments", pledge_id="PL-3025"),
)
add(
    "Tomasz Wierzbicki. For my taxes, list all the redemptions I've made with you.",
    C("find_customers", name="Wierzbicki"),
    C("list_payments", customer_id="CU-2004", kind="redemption"),
)
add(
    "Yusuf Demir. What happened with my old camera pledge from September, PL-3005? Did my payment count?",
    C("list_payments", pledge_id="PL-3005"),
    C("get_pledge", pledge_id="PL-3005"),
)
add(
    "Lucy Fairbanks. What do I currently owe across all my pledges, and what have I paid?",
    C("find_customers", name="Fairbanks"),
    C("list_payments", customer_id="CU-2012"),
    C("get_pledge", pledge_id="PL-3020"),
    C("get_pledge", pledge_id="PL-3023"),
    C("get_pledge", pledge_id="PL-3026"),
)
add(
    "Priya Raghunathan. What did you do with the TV and soundbar I pawned last year?",
    C("search_items", customer_id="CU-2003"),
    C("get_pledge", pledge_id="PL-3008"),
)
add(
    "I'm calling about pledge PL-3099 - how much do I owe? Oh sorry, my name is Elena Marchetti.",
    X("get_pledge", pledge_id="PL-3099"),
    C("find_customers", name="Marchetti"),
    C("get_pledge", pledge_id="PL-3019"),
)
add(
    "Gareth Pellow. Why can't I have my ring back? What's going on with it?",
    C("search_items", customer_id="CU-2006", status="in_vault"),
)


def build():
    order = list(range(len(S)))
    rng.shuffle(order)
    out = []
    for n, k in enumerate(order):
        instruction, calls = S[k]
        out.append({"id": "cobalt-%03d" % n, "instruction": instruction, "calls": calls})
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    trajs = build()
    with open(os.path.join(here, "trajectories.jsonl"), "w") as f:
        for t in trajs:
            calls = [{"name": c["name"], "arguments": c["arguments"]} for c in t["calls"]]
            f.write(json.dumps({"id": t["id"], "instruction": t["instruction"], "calls": calls}) + "\n")
    n_calls = sum(len(t["calls"]) for t in trajs)
    n_ref = sum(1 for t in trajs for c in t["calls"] if c.get("_refused"))
    print("wrote %d trajectories, %d calls (%d expected refusals)" % (len(trajs), n_calls, n_ref))


if __name__ == "__main__":
    main()
