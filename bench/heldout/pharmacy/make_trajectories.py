"""Generate trajectories.jsonl: seeded counter sessions for the pharmacy reference system.

Written for forgegym (MIT license). Standard library only. Every session is replayed on the
real implementation (adapter.py) from data.json; a session is kept only when exactly the calls
meant to be refused are refused. Running this twice writes the same file byte for byte.
"""

import json
import os
import random

import adapter

SEED = 20250314
N_SESSIONS = 75
HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "data.json")) as _fh:
    DATA = json.load(_fh)

PATIENTS = DATA["patients"]
MEDS = DATA["medications"]
RXS = DATA["prescriptions"]
ORDERS = DATA["fill_orders"]
NEW_ORDER = "FO-%d" % (max(int(k.split("-")[1]) for k in ORDERS) + 1)

PHARMACISTS = ["ALM", "JRK", "TS"]
OTHER_PHARMACIES = [
    ("Harbor Lane Pharmacy", "555-0300"),
    ("Ridgeview Drug", "555-0412"),
    ("Maple & Fifth Apothecary", "555-0527"),
    ("Northgate Family Pharmacy", None),
]

FILLABLE = ["RX-50101", "RX-50102", "RX-50103", "RX-50105", "RX-50106", "RX-50114"]
NON_CONTROLLED_FILLABLE = ["RX-50101", "RX-50102", "RX-50103", "RX-50105", "RX-50114"]
BLOCKED_CREATE = [
    "RX-50104",
    "RX-50107",
    "RX-50108",
    "RX-50109",
    "RX-50111",
    "RX-50112",
    "RX-50113",
    "RX-50118",
    "RX-50120",
]
TRANSFERABLE = ["RX-50101", "RX-50102", "RX-50103", "RX-50105", "RX-50114"]
BLOCKED_TRANSFER = [
    "RX-50106",
    "RX-50116",
    "RX-50110",
    "RX-50111",
    "RX-50112",
    "RX-50113",
    "RX-50118",
    "RX-50104",
    "RX-50119",
]
QUEUED = ["FO-7004", "FO-7006", "FO-7009"]
FILLED = ["FO-7005", "FO-7007", "FO-7010", "FO-7011"]
DONE = ["FO-7001", "FO-7002", "FO-7003", "FO-7008"]
OTC = ["MED-415", "MED-416", "MED-417", "MED-418", "MED-420"]


def first(pid):
    return PATIENTS[pid]["name"].split()[0]


def full(pid):
    return PATIENTS[pid]["name"]


def medname(mid):
    return MEDS[mid]["name"]


def rx_med(rid):
    return medname(RXS[rid]["medication_id"])


def rx_patient(rid):
    return RXS[rid]["patient_id"]


def C(name, **arguments):
    return {"name": name, "arguments": arguments}


def dob(pid):
    return PATIENTS[pid]["date_of_birth"]


# --------------------------------------------------------------------------- #
# session templates: each returns (instruction, calls, indices of calls meant to be refused)


def t_price_check(r):
    rid = r.choice(
        [
            "RX-50101",
            "RX-50102",
            "RX-50103",
            "RX-50104",
            "RX-50105",
            "RX-50108",
            "RX-50110",
            "RX-50114",
            "RX-50115",
            "RX-50117",
            "RX-50119",
            "RX-50106",
        ]
    )
    pid = rx_patient(rid)
    calls = [C("get_patient", patient_id=pid)]
    args = {"prescription_id": rid}
    extra = ""
    roll = r.random()
    if roll < 0.3 and RXS[rid]["quantity"] > 10:
        q = r.choice([RXS[rid]["quantity"] // 2, RXS[rid]["quantity"] // 3])
        args["quantity"] = q
        extra = " if I only take %d this time" % q
    elif roll < 0.5 and MEDS[RXS[rid]["medication_id"]].get("generic_equivalent"):
        args["substitute_generic"] = False
        extra = " if I stick with the brand"
    calls.append(C("quote_fill", **args))
    text = r.choice(
        [
            "Hi, this is %s (born %s, patient %s). What would my %s (%s) cost me%s?",
            "%s here, DOB %s, id %s. Before I come in, how much will my copay be for the %s prescription %s%s?",
        ]
    ) % (full(pid), dob(pid), pid, rx_med(rid), rid, extra)
    return text, calls, []


def t_refill_ok(r):
    rid = r.choice(FILLABLE)
    pid = rx_patient(rid)
    calls = [C("list_prescriptions", patient_id=pid, status="active"), C("create_fill_order", prescription_id=rid)]
    if r.random() < 0.4:
        calls.insert(0, C("get_patient", patient_id=pid))
    text = r.choice(
        [
            "I'm %s (%s). Could you refill my %s please? I think the number is %s.",
            "Patient %s, id %s here; please put my %s prescription (%s) through for a refill.",
        ]
    ) % (full(pid), pid, rx_med(rid), rid)
    return text, calls, []


def t_quote_then_create(r):
    rid = r.choice(NON_CONTROLLED_FILLABLE)
    pid = rx_patient(rid)
    args = {"prescription_id": rid}
    note = ""
    med = MEDS[RXS[rid]["medication_id"]]
    if med.get("generic_equivalent") and r.random() < 0.5:
        args["substitute_generic"] = False
        note = " I want the brand name, not the generic."
    elif r.random() < 0.4:
        args["quantity"] = RXS[rid]["quantity"] // 2
        note = " Only half the usual amount this time, %d." % args["quantity"]
    calls = [C("quote_fill", **args), C("create_fill_order", **args)]
    text = "This is %s, patient %s. Tell me the price for %s (%s) and then go ahead and order it.%s" % (
        full(pid),
        pid,
        rx_med(rid),
        rid,
        note,
    )
    return text, calls, []


def t_refill_blocked(r):
    rid = r.choice(BLOCKED_CREATE)
    pid = rx_patient(rid)
    calls = [C("get_patient", patient_id=pid), C("create_fill_order", prescription_id=rid)]
    fails = [1]
    if r.random() < 0.6:
        calls.append(C("get_prescription", prescription_id=rid))
    text = r.choice(
        [
            "%s (DOB %s, %s) wants a refill of %s on prescription %s.",
            "Hello, %s calling, born %s, id %s. Please refill my %s, number %s.",
        ]
    ) % (full(pid), dob(pid), pid, rx_med(rid), rid)
    return text, calls, fails


def t_full_flow(r):
    rid = r.choice(FILLABLE)
    pid = rx_patient(rid)
    ctrl = MEDS[RXS[rid]["medication_id"]]["controlled"]
    ini = r.choice(PHARMACISTS)
    pay = r.choice(["cash", "card", "account"])
    calls = [C("create_fill_order", prescription_id=rid)]
    if ctrl or r.random() < 0.5:
        calls.append(C("fill_order", order_id=NEW_ORDER, verified_by=ini))
    else:
        calls.append(C("fill_order", order_id=NEW_ORDER))
    pk = {"order_id": NEW_ORDER, "payment_method": pay}
    if ctrl:
        pk["id_verified"] = True
    calls.append(C("pickup_order", **pk))
    text = (
        "%s (%s) is at the counter and wants to wait for %s (%s): fill it now (pharmacist %s is checking) "
        "and they'll pay by %s%s."
        % (full(pid), pid, rx_med(rid), rid, ini, pay, "; their photo ID has been checked" if ctrl else "")
    )
    return text, calls, []


def t_controlled_pickup_no_id(r):
    ini = r.choice(PHARMACISTS)
    pay = r.choice(["cash", "card"])
    calls = [
        C("create_fill_order", prescription_id="RX-50106"),
        C("fill_order", order_id=NEW_ORDER, verified_by=ini),
        C("pickup_order", order_id=NEW_ORDER, payment_method=pay),
        C("pickup_order", order_id=NEW_ORDER, payment_method=pay, id_verified=True),
    ]
    text = (
        "Rupert Okafor-Lind (PT-2004) needs his new Oxavane script RX-50106 filled today; %s will verify. "
        "He'll pay by %s and shows his driver's licence when asked." % (ini, pay)
    )
    return text, calls, [2]


def t_controlled_fill_no_initials(r):
    ini = r.choice(PHARMACISTS)
    if r.random() < 0.5:
        calls = [
            C("create_fill_order", prescription_id="RX-50106"),
            C("fill_order", order_id=NEW_ORDER),
            C("fill_order", order_id=NEW_ORDER, verified_by=ini),
        ]
        text = (
            "Queue and dispense RX-50106 (Oxavane) for Rupert Okafor-Lind, PT-2004. %s is the pharmacist on "
            "duty if anyone asks." % ini
        )
        return text, calls, [1]
    calls = [
        C("get_fill_order", order_id="FO-7009"),
        C("fill_order", order_id="FO-7009"),
        C("fill_order", order_id="FO-7009", verified_by=ini),
    ]
    text = (
        "Saoirse Lindqvist (PT-2011) asks whether her Oxadone order FO-7009 can be dispensed now; "
        "pharmacist %s is checking today." % ini
    )
    return text, calls, [1, 2]


def t_pickup_ok(r):
    oid = r.choice(FILLED)
    pid = ORDERS[oid]["patient_id"]
    pay = r.choice(["cash", "card"] if oid == "FO-7011" else ["cash", "card", "account"])
    calls = [C("get_fill_order", order_id=oid), C("pickup_order", order_id=oid, payment_method=pay)]
    if r.random() < 0.5:
        calls.insert(0, C("get_patient", patient_id=pid))
    text = r.choice(
        [
            "%s here to collect order %s. I'll pay by %s.",
            "Hi, I'm %s. I got a text that %s is ready; paying with %s.",
        ]
    ) % (full(pid), oid, pay)
    return text, calls, []


def t_pickup_over_limit(r):
    pay = r.choice(["card", "cash"])
    calls = [
        C("get_patient", patient_id="PT-2005"),
        C("pickup_order", order_id="FO-7011", payment_method="account"),
        C("pickup_order", order_id="FO-7011", payment_method=pay),
    ]
    text = (
        "Dagny Holloway (PT-2005, born 1984-12-05) is picking up her Thyrovel order FO-7011 and wants it put "
        "on her pharmacy account; if that doesn't work she'll use %s." % pay
    )
    return text, calls, [1]


def t_pickup_not_ready(r):
    oid = r.choice(QUEUED[:2] + ["FO-7001", "FO-7008"])
    pid = ORDERS[oid]["patient_id"]
    calls = [
        C("pickup_order", order_id=oid, payment_method=r.choice(["card", "cash"])),
        C("get_fill_order", order_id=oid),
    ]
    text = "%s says they're here for order %s and want to pay and take it home now." % (full(pid), oid)
    return text, calls, [0]


def t_add_item(r):
    oid = r.choice(QUEUED)
    pid = ORDERS[oid]["patient_id"]
    mid = r.choice([m for m in OTC if MEDS[m]["ingredient_class"] not in PATIENTS[pid]["allergies"]])
    qty = r.choice([1, 1, 2, 3]) if MEDS[mid]["form"] in ("device", "box") else r.choice([10, 12, 20, 24])
    word = MEDS[mid]["name"].split()[0]
    calls = [
        C("search_medications", query=word, requires_prescription=False),
        C("update_order_items", order_id=oid, action="add", medication_id=mid, quantity=qty),
    ]
    if r.random() < 0.5:
        calls.append(C("get_fill_order", order_id=oid))
    text = "%s (%s) would like %d x %s added to order %s, and wants the new total." % (
        full(pid),
        pid,
        qty,
        MEDS[mid]["name"],
        oid,
    )
    return text, calls, []


def t_add_rx_item(r):
    oid = r.choice(["FO-7004", "FO-7006"])
    pid = ORDERS[oid]["patient_id"]
    rx_item = r.choice(["MED-412", "MED-402", "MED-414"])
    otc = r.choice(["MED-418", "MED-420", "MED-416"])
    calls = [
        C("update_order_items", order_id=oid, action="add", medication_id=rx_item, quantity=30),
        C("update_order_items", order_id=oid, action="add", medication_id=otc, quantity=1),
    ]
    text = "%s asks to throw a pack of %s onto order %s (no prescription for it), plus one %s." % (
        full(pid),
        medname(rx_item),
        oid,
        MEDS[otc]["name"],
    )
    return text, calls, [0]


def t_add_allergy(r):
    calls = [
        C("create_fill_order", prescription_id="RX-50106"),
        C("update_order_items", order_id=NEW_ORDER, action="add", medication_id="MED-415", quantity=24),
        C("update_order_items", order_id=NEW_ORDER, action="add", medication_id="MED-418", quantity=1),
    ]
    text = (
        "Rupert Okafor-Lind (PT-2004) is starting Oxavane (RX-50106). Queue it and add a box of 24 Ibuprex "
        "and a weekly pill organizer."
    )
    return text, calls, [1]


def t_add_to_filled(r):
    oid = r.choice(["FO-7005", "FO-7007", "FO-7010"])
    pid = ORDERS[oid]["patient_id"]
    mid = r.choice(["MED-418", "MED-420"])
    calls = [C("update_order_items", order_id=oid, action="add", medication_id=mid, quantity=1)]
    if r.random() < 0.6:
        calls.append(C("get_fill_order", order_id=oid))
    text = "%s wants a %s added to the order %s that's already bagged." % (full(pid), MEDS[mid]["name"], oid)
    return text, calls, [0]


def t_remove_item(r):
    calls = [
        C("get_fill_order", order_id="FO-7004"),
        C("update_order_items", order_id="FO-7004", action="remove", line_no=2),
    ]
    text = r.choice(
        [
            "Theo Abernathy (PT-2002) already has a spacer at home; please take it off his inhaler order FO-7004.",
            "Theo Abernathy here, order FO-7004. Drop the spacer chamber, I just need the inhaler.",
        ]
    )
    return text, calls, []


def t_remove_rx_line(r):
    oid = r.choice(["FO-7006", "FO-7004", "FO-7009"])
    pid = ORDERS[oid]["patient_id"]
    calls = [
        C("update_order_items", order_id=oid, action="remove", line_no=1),
        C("cancel_order", order_id=oid, reason="patient_request"),
    ]
    text = "%s (%s) no longer wants the %s on order %s. Take it off, or drop the whole order if needed." % (
        full(pid),
        pid,
        medname(ORDERS[oid]["lines"][0]["medication_id"]),
        oid,
    )
    return text, calls, [0]


def t_cancel_queued(r):
    oid = r.choice(QUEUED)
    pid = ORDERS[oid]["patient_id"]
    reason = r.choice(["patient_request", "duplicate", "other"]) if oid != "FO-7009" else "out_of_stock"
    calls = [C("get_fill_order", order_id=oid), C("cancel_order", order_id=oid, reason=reason)]
    if r.random() < 0.4:
        calls.insert(0, C("get_patient", patient_id=pid))
    text = "%s called: please cancel order %s (%s)." % (full(pid), oid, reason.replace("_", " "))
    return text, calls, []


def t_cancel_filled(r):
    oid = r.choice(FILLED)
    pid = ORDERS[oid]["patient_id"]
    reason = r.choice(["patient_request", "prescriber_request"])
    calls = [
        C("cancel_order", order_id=oid, reason=reason),
        C("get_prescription", prescription_id=ORDERS[oid]["prescription_id"]),
    ]
    who = "the prescriber changed the dose" if reason == "prescriber_request" else "they changed their mind"
    text = "Order %s for %s is filled but not collected; cancel it because %s, and check the refill came back." % (
        oid,
        full(pid),
        who,
    )
    return text, calls, []


def t_cancel_done(r):
    oid = r.choice(DONE)
    pid = ORDERS[oid]["patient_id"]
    calls = [C("get_fill_order", order_id=oid), C("cancel_order", order_id=oid, reason="patient_request")]
    text = "%s wants order %s cancelled and refunded." % (full(pid), oid)
    return text, calls, [1]


def t_transfer_ok(r):
    rid = r.choice(TRANSFERABLE)
    pid = rx_patient(rid)
    name, phone = r.choice(OTHER_PHARMACIES)
    args = {"prescription_id": rid, "to_pharmacy": name}
    if phone:
        args["to_pharmacy_phone"] = phone
    calls = [C("list_prescriptions", patient_id=pid), C("transfer_prescription", **args)]
    if r.random() < 0.5:
        calls.append(C("get_prescription", prescription_id=rid))
    text = "%s (%s) is moving closer to %s%s and wants the %s prescription %s sent over there." % (
        full(pid),
        pid,
        name,
        (" (phone %s)" % phone) if phone else "",
        rx_med(rid),
        rid,
    )
    return text, calls, []


def t_transfer_blocked(r):
    rid = r.choice(BLOCKED_TRANSFER)
    pid = rx_patient(rid)
    name, phone = r.choice(OTHER_PHARMACIES)
    args = {"prescription_id": rid, "to_pharmacy": name}
    if phone:
        args["to_pharmacy_phone"] = phone
    calls = [C("get_prescription", prescription_id=rid), C("transfer_prescription", **args)]
    text = "%s (born %s) asks us to transfer %s (%s) to %s." % (full(pid), dob(pid), rid, rx_med(rid), name)
    return text, calls, [1]


def t_transfer_after_cancel(r):
    oid = r.choice(["FO-7004", "FO-7005", "FO-7006", "FO-7010", "FO-7011"])
    rid = ORDERS[oid]["prescription_id"]
    pid = rx_patient(rid)
    name, phone = r.choice(OTHER_PHARMACIES)
    args = {"prescription_id": rid, "to_pharmacy": name}
    if phone:
        args["to_pharmacy_phone"] = phone
    calls = [
        C("transfer_prescription", **args),
        C("cancel_order", order_id=oid, reason="patient_request"),
        C("transfer_prescription", **args),
    ]
    text = "%s (%s) is switching to %s for %s (%s); they don't need the pending order %s any more." % (
        full(pid),
        pid,
        name,
        rx_med(rid),
        rid,
        oid,
    )
    return text, calls, [0]


def t_short_stock(r):
    ini = r.choice(PHARMACISTS)
    calls = [
        C("fill_order", order_id="FO-7009", verified_by=ini),
        C("cancel_order", order_id="FO-7009", reason="out_of_stock"),
        C("create_fill_order", prescription_id="RX-50116", quantity=25),
        C("fill_order", order_id=NEW_ORDER, verified_by=ini),
    ]
    text = (
        "Dispense Saoirse Lindqvist's Oxadone order FO-7009 (%s verifying). If we're short she'll take what we "
        "have on the shelf today." % ini
    )
    return text, calls, [0]


def t_search(r):
    opts = [
        ({"controlled": True, "in_stock_only": True}, "Which controlled medicines do we have on the shelf right now?"),
        ({"requires_prescription": False}, "A customer asks what we sell without a prescription."),
        ({"ingredient_class": "statin"}, "What statins do we carry, and how do brand and generic prices compare?"),
        ({"query": "Glucorin"}, "Is Glucorin XR in stock, and does it have a generic?"),
        (
            {"generic": True, "requires_prescription": True, "in_stock_only": True, "limit": 5},
            "Show me five generic prescription products we have in stock.",
        ),
        (
            {"ingredient_class": "antihistamine", "requires_prescription": False},
            "Do we have an allergy tablet over the counter?",
        ),
        ({"query": "Metfolex"}, "A patient asks whether the Metfolex generic is back in stock."),
    ]
    args, text = r.choice(opts)
    calls = [C("search_medications", **args)]
    if r.random() < 0.4:
        calls.append(C("search_medications", **{"query": "strips", "in_stock_only": True}))
        text += " Also, do we have glucose test strips?"
    return text, calls, []


def t_prescriber_list(r):
    who = r.choice(["Strand", "Mensah-Hart", "Castellane", "Ferraby", "Whitcombe"])
    args = {"prescriber": who}
    if r.random() < 0.5:
        args["status"] = "active"
    calls = [C("list_prescriptions", **args)]
    if r.random() < 0.3:
        calls.insert(0, C("list_prescriptions"))
        fails = [0]
    else:
        fails = []
    text = "Dr. %s's office is calling to ask which of their %sprescriptions we hold." % (
        who,
        "active " if "status" in args else "",
    )
    return text, calls, fails


def t_quote_too_many(r):
    rid = r.choice(["RX-50101", "RX-50102", "RX-50103", "RX-50114", "RX-50105"])
    pid = rx_patient(rid)
    q = RXS[rid]["quantity"] * r.choice([2, 3])
    calls = [C("quote_fill", prescription_id=rid, quantity=q), C("quote_fill", prescription_id=rid)]
    text = "%s (%s) is travelling and asks what %d %s (%s) would cost, or else the normal amount." % (
        full(pid),
        pid,
        q,
        rx_med(rid),
        rid,
    )
    return text, calls, [0]


def t_fill_queued_pickup(r):
    oid = r.choice(["FO-7004", "FO-7006"])
    pid = ORDERS[oid]["patient_id"]
    pay = r.choice(["cash", "card", "account"])
    calls = [
        C("get_fill_order", order_id=oid),
        C("fill_order", order_id=oid, verified_by=r.choice(PHARMACISTS)),
        C("pickup_order", order_id=oid, payment_method=pay),
    ]
    text = "%s is waiting for queued order %s; fill it and ring it up on %s." % (full(pid), oid, pay)
    return text, calls, []


def t_uninsured_generic(r):
    pay = r.choice(["cash", "card"])
    ini = r.choice(PHARMACISTS + [None])
    fill = {"order_id": NEW_ORDER}
    if ini:
        fill["verified_by"] = ini
    calls = [
        C("get_patient", patient_id="PT-2003"),
        C("quote_fill", prescription_id="RX-50105"),
        C("create_fill_order", prescription_id="RX-50105"),
        C("fill_order", **fill),
        C("pickup_order", order_id=NEW_ORDER, payment_method=pay),
    ]
    text = (
        "Ines Valcourt (PT-2003, 1990-01-23) has no insurance. She wants the cheapest option for her antibiotic "
        "RX-50105, then to have it filled while she waits and pay by %s." % pay
    )
    return text, calls, []


def t_refill_with_extras(r):
    rid = r.choice(NON_CONTROLLED_FILLABLE)
    pid = rx_patient(rid)
    mid = r.choice([m for m in OTC if MEDS[m]["ingredient_class"] not in PATIENTS[pid]["allergies"]])
    qty = r.choice([1, 2]) if MEDS[mid]["form"] in ("device", "box") else r.choice([12, 24])
    calls = [
        C("create_fill_order", prescription_id=rid),
        C("search_medications", query=MEDS[mid]["name"].split()[0], in_stock_only=True),
        C("update_order_items", order_id=NEW_ORDER, action="add", medication_id=mid, quantity=qty),
    ]
    if r.random() < 0.5:
        calls.append(C("fill_order", order_id=NEW_ORDER, verified_by=r.choice(PHARMACISTS)))
    text = "%s (%s) needs a refill of %s (%s) and, while we're at it, %d x %s." % (
        full(pid),
        pid,
        rx_med(rid),
        rid,
        qty,
        MEDS[mid]["name"],
    )
    return text, calls, []


def t_patient_overview(r):
    pid = r.choice(sorted(PATIENTS))
    calls = [C("get_patient", patient_id=pid), C("list_prescriptions", patient_id=pid)]
    text = "%s (DOB %s) asks what prescriptions we have on file for them and what they owe." % (full(pid), dob(pid))
    return text, calls, []


TEMPLATES = [
    (t_price_check, 6),
    (t_refill_ok, 5),
    (t_quote_then_create, 5),
    (t_refill_blocked, 5),
    (t_full_flow, 7),
    (t_controlled_pickup_no_id, 1),
    (t_controlled_fill_no_initials, 1),
    (t_pickup_ok, 5),
    (t_pickup_over_limit, 1),
    (t_pickup_not_ready, 1),
    (t_add_item, 4),
    (t_add_rx_item, 1),
    (t_add_allergy, 1),
    (t_add_to_filled, 1),
    (t_remove_item, 2),
    (t_remove_rx_line, 1),
    (t_cancel_queued, 3),
    (t_cancel_filled, 3),
    (t_cancel_done, 1),
    (t_transfer_ok, 4),
    (t_transfer_blocked, 2),
    (t_transfer_after_cancel, 1),
    (t_short_stock, 0.6),
    (t_search, 4),
    (t_prescriber_list, 2),
    (t_quote_too_many, 1),
    (t_fill_queued_pickup, 3),
    (t_uninsured_generic, 2),
    (t_refill_with_extras, 4),
    (t_patient_overview, 2),
]


def replay_fails(calls):
    env = adapter.make()
    env.reset(DATA)
    fails = []
    for i, c in enumerate(calls):
        if not env.call(c["name"], c["arguments"])["ok"]:
            fails.append(i)
    return fails


def main():
    r = random.Random(SEED)
    funcs = [f for f, _ in TEMPLATES]
    weights = [w for _, w in TEMPLATES]
    sessions, seen = [], set()
    attempts = 0
    while len(sessions) < N_SESSIONS:
        attempts += 1
        if attempts > 5000:
            raise SystemExit("could not build enough sessions")
        f = r.choices(funcs, weights)[0]
        instruction, calls, intended = f(r)
        key = json.dumps(calls, sort_keys=True)
        if key in seen:
            continue
        if replay_fails(calls) != intended:
            continue
        seen.add(key)
        sessions.append({"instruction": instruction, "calls": calls})
    n_calls = sum(len(s["calls"]) for s in sessions)
    n_fail = sum(len(replay_fails(s["calls"])) for s in sessions)
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as fh:
        for i, s in enumerate(sessions):
            row = {"id": "pharmacy-%03d" % i, "instruction": s["instruction"], "calls": s["calls"]}
            fh.write(json.dumps(row) + "\n")
    print("sessions=%d calls=%d refused=%d (%.1f%%)" % (len(sessions), n_calls, n_fail, 100.0 * n_fail / n_calls))


if __name__ == "__main__":
    main()
