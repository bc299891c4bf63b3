"""Make trajectories.jsonl: seeded support sessions at the parcel depot counter, each checked against adapter.py.

Each scenario builds its calls with the outcome it expects (True: the system accepts it, False: it refuses);
the script replays every trajectory from data.json and stops if any call's outcome differs.
"""

import json
import os
import random

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260314
N_TRAJ = 78

DATA = json.load(open(os.path.join(HERE, "data.json")))
CUST = DATA["customers"]
PARC = DATA["parcels"]
FIRST = [
    "Alys",
    "Bram",
    "Chidi",
    "Dorota",
    "Eamon",
    "Farah",
    "Gideon",
    "Hana",
    "Idris",
    "Jolene",
    "Kasia",
    "Leon",
    "Mirela",
    "Nikhil",
    "Orla",
    "Pavel",
    "Quinn",
    "Rhiannon",
    "Sanjay",
    "Tove",
    "Uma",
    "Viktor",
    "Wren",
    "Zainab",
]
LAST = [
    "Abernethy",
    "Brennan",
    "Costa",
    "Dalgliesh",
    "Eriksen",
    "Fairbairn",
    "Grewal",
    "Hughes",
    "Iwu",
    "Jankowski",
    "Kowalczyk",
    "Lennox",
    "Mbeki",
    "Nakamura",
    "O'Dowd",
    "Petrakis",
    "Quayle",
    "Rahman",
    "Sorensen",
    "Thornbury",
]
LETTERS = "ABDEFGHJLNPQRSTUWXYZ"
ZONE_COURIERS = {"LR1": ["CR-01", "CR-02"], "LR2": ["CR-03"], "LR3": ["CR-04"], "LR4": ["CR-06"]}
BIKES = {"CR-02", "CR-04"}
REASONS = [
    "sender changed the delivery address",
    "recipient has moved away",
    "sending a different item instead",
    "customer found a cheaper option",
    "item no longer needed",
    "parcel packed with the wrong item",
]
NEXT_ID = "PX-4124"


def C(name, ok=True, **args):
    return {"name": name, "arguments": args, "_ok": ok}


def person(r):
    return "%s %s" % (r.choice(FIRST), r.choice(LAST))


def postcode(r, zone=None):
    zone = zone or r.choice(list(ZONE_COURIERS))
    return "%s %d%s%s" % (zone, r.randint(1, 9), r.choice(LETTERS), r.choice(LETTERS))


def weight(r, lo=0.2, hi=9.5):
    return round(r.uniform(lo, hi), 1)


def quote_total(w, service, cid):
    d = adapter.make()
    d.reset(DATA)
    return d.call("quote_postage", {"weight_kg": w, "service": service, "customer_id": cid})["output"]["total"]


def active_with_credit(r, w, service):
    ids = [c for c, v in CUST.items() if v["status"] == "active" and v["credit_balance"] >= quote_total(w, service, c)]
    return r.choice(ids)


def parcels(status=None, pred=lambda p: True):
    return sorted(p for p, v in PARC.items() if (status is None or v["status"] == status) and pred(v))


SERVICES = ["economy", "standard", "express"]


# ---- scenarios: each returns (instruction, calls)
def send_on_account(r):
    w, s = weight(r), r.choice(SERVICES)
    cid = active_with_credit(r, w, s)
    name, pc = person(r), postcode(r)
    return (
        "Customer %s wants to send a %.1f kg parcel %s to %s, %s, paid from their account credit; quote first."
        % (cid, w, s, name, pc),
        [
            C("get_customer", customer_id=cid),
            C("quote_postage", weight_kg=w, service=s, customer_id=cid),
            C(
                "create_parcel",
                sender_id=cid,
                recipient_name=name,
                recipient_postcode=pc,
                weight_kg=w,
                service=s,
                payment_method="account",
            ),
        ],
    )


def send_by_card(r):
    cid = r.choice([c for c, v in CUST.items() if v["status"] == "active"])
    w, s, name, pc = weight(r, 0.3, 28), r.choice(SERVICES), person(r), postcode(r)
    calls = [
        C(
            "create_parcel",
            sender_id=cid,
            recipient_name=name,
            recipient_postcode=pc,
            weight_kg=w,
            service=s,
            payment_method="card",
        )
    ]
    if r.random() < 0.5:
        calls.insert(0, C("get_customer", customer_id=cid))
    return ("%s pays by card to send %.1f kg %s to %s at %s." % (cid, w, s, name, pc), calls)


def send_short_of_credit(r):
    cid = r.choice(["CU-1004", "CU-1009", "CU-1011"])
    w, s, name, pc = weight(r, 5.5, 9.5), r.choice(SERVICES), person(r), postcode(r)
    a = dict(sender_id=cid, recipient_name=name, recipient_postcode=pc, weight_kg=w, service=s)
    return (
        "%s wants to send %.1f kg %s to %s, %s, from account credit; if the credit is short they will pay by card."
        % (cid, w, s, name, pc),
        [
            C("get_customer", customer_id=cid),
            C("create_parcel", False, payment_method="account", **a),
            C("create_parcel", payment_method="card", **a),
        ],
    )


def send_suspended(r):
    cid = r.choice(["CU-1005", "CU-1010"])
    w, s, name, pc = weight(r), r.choice(SERVICES), person(r), postcode(r)
    return (
        "Account %s asks to send a %.1f kg %s parcel to %s, %s, paid by card." % (cid, w, s, name, pc),
        [
            C("get_customer", customer_id=cid),
            C(
                "create_parcel",
                False,
                sender_id=cid,
                recipient_name=name,
                recipient_postcode=pc,
                weight_kg=w,
                service=s,
                payment_method="card",
            ),
        ],
    )


def send_outside_area(r):
    cid = r.choice([c for c, v in CUST.items() if v["status"] == "active"])
    w, s, name = weight(r), r.choice(SERVICES), person(r)
    bad = "LR%d %d%s%s" % (r.choice([5, 6, 7, 9]), r.randint(1, 9), r.choice(LETTERS), r.choice(LETTERS))
    good = postcode(r)
    a = dict(sender_id=cid, recipient_name=name, weight_kg=w, service=s, payment_method="card")
    return (
        "%s wants to send %.1f kg %s to %s at %s; if that is outside the area, they have a second address %s."
        % (cid, w, s, name, bad, good),
        [C("create_parcel", False, recipient_postcode=bad, **a), C("create_parcel", recipient_postcode=good, **a)],
    )


def send_too_heavy(r):
    cid = r.choice([c for c, v in CUST.items() if v["status"] == "active"])
    w = round(r.uniform(30.5, 38), 1)
    s = r.choice(SERVICES)
    return (
        "%s asks what it costs to send %.1f kg %s, then whether half the weight (%.2f kg) would go."
        % (cid, w, s, w / 2),
        [
            C("quote_postage", False, weight_kg=w, service=s, customer_id=cid),
            C("quote_postage", weight_kg=round(w / 2, 2), service=s, customer_id=cid),
        ],
    )


def send_and_dispatch(r):
    zone = r.choice(list(ZONE_COURIERS))
    cr = r.choice(ZONE_COURIERS[zone])
    w = weight(r, 0.2, 9.8 if cr in BIKES else 19)
    s, name, pc = r.choice(SERVICES), person(r), postcode(r, zone)
    cid = r.choice([c for c, v in CUST.items() if v["status"] == "active"])
    return (
        "%s hands in %.1f kg %s for %s, %s, paid by card; send it straight out with courier %s."
        % (cid, w, s, name, pc, cr),
        [
            C(
                "create_parcel",
                sender_id=cid,
                recipient_name=name,
                recipient_postcode=pc,
                weight_kg=w,
                service=s,
                payment_method="card",
            ),
            C("assign_courier", parcel_id=NEXT_ID, courier_id=cr),
        ],
    )


def send_to_locker(r):
    w, s = weight(r, 0.2, 1.9), r.choice(SERVICES)
    cid = active_with_credit(r, w, s)
    name, pc = person(r), postcode(r)
    lk = r.choice(["LK-A02", "LK-C01"])
    return (
        "%s sends %.1f kg %s to %s (%s) on account; the recipient will pick it up here, "
        "so put it in a free small locker." % (cid, w, s, name, pc),
        [
            C(
                "create_parcel",
                sender_id=cid,
                recipient_name=name,
                recipient_postcode=pc,
                weight_kg=w,
                service=s,
                payment_method="account",
            ),
            C("list_lockers", size="small", available_only=True),
            C("store_in_locker", parcel_id=NEXT_ID, locker_id=lk),
        ],
    )


RECEIVED_ROUTABLE = {
    "PX-4107": "CR-04",
    "PX-4108": "CR-06",
    "PX-4110": "CR-03",
    "PX-4115": "CR-06",
    "PX-4118": "CR-06",
    "PX-4119": "CR-04",
    "PX-4121": "CR-01",
    "PX-4122": "CR-04",
    "PX-4106": "CR-03",
}


def dispatch_existing(r):
    pid = r.choice(sorted(RECEIVED_ROUTABLE))
    return (
        "Send parcel %s out with courier %s." % (pid, RECEIVED_ROUTABLE[pid]),
        [C("get_parcel", parcel_id=pid), C("assign_courier", parcel_id=pid, courier_id=RECEIVED_ROUTABLE[pid])],
    )


def dispatch_wrong_courier(r):
    kind = r.choice(["zone", "bike", "offshift", "zone"])
    if kind == "zone":
        pid = r.choice(sorted(RECEIVED_ROUTABLE))
        zone = PARC[pid]["recipient_postcode"][:3]
        wrong = r.choice([c for z, cs in ZONE_COURIERS.items() if z != zone for c in cs if c not in BIKES])
        return (
            "Give %s to %s; if %s cannot take it, use the courier for its zone." % (pid, wrong, wrong),
            [
                C("assign_courier", False, parcel_id=pid, courier_id=wrong),
                C("assign_courier", parcel_id=pid, courier_id=RECEIVED_ROUTABLE[pid]),
            ],
        )
    if kind == "bike":
        pid, bike, van = "PX-4121", "CR-02", "CR-01"
        return (
            "Parcel %s for LR1: try the cargo bike %s first, otherwise the van %s." % (pid, bike, van),
            [
                C("get_parcel", parcel_id=pid),
                C("assign_courier", False, parcel_id=pid, courier_id=bike),
                C("assign_courier", parcel_id=pid, courier_id=van),
            ],
        )
    pid = r.choice(["PX-4107", "PX-4119", "PX-4122"])
    return (
        "Send %s out with Ruben Castillo (CR-05), or with Keiko Tanaka (CR-04) if he is not available." % pid,
        [
            C("assign_courier", False, parcel_id=pid, courier_id="CR-05"),
            C("assign_courier", parcel_id=pid, courier_id="CR-04"),
        ],
    )


def two_attempts_to_locker(r):
    return (
        "Parcel PX-4111 came back again; the sender asks for one more delivery attempt with CR-04, otherwise hold it "
        "in a small locker for Meera Raghunathan.",
        [
            C("get_parcel", parcel_id="PX-4111"),
            C("assign_courier", False, parcel_id="PX-4111", courier_id="CR-04"),
            C("list_lockers", size="small", available_only=True),
            C("store_in_locker", parcel_id="PX-4111", locker_id=r.choice(["LK-A02", "LK-C01"])),
        ],
    )


OUT = {"PX-4104": "CR-06", "PX-4113": "CR-05", "PX-4114": "CR-02", "PX-4120": "CR-03"}


def courier_reports(r):
    pid = r.choice(sorted(OUT))
    outcome = r.choice(["delivered", "delivered", "failed"])
    calls = [C("search_parcels", courier_id=OUT[pid]), C("record_delivery_outcome", parcel_id=pid, outcome=outcome)]
    instr = "Courier %s reports parcel %s %s." % (OUT[pid], pid, outcome)
    if outcome == "failed" and r.random() < 0.6:
        lk = "LK-B04" if PARC[pid]["weight_kg"] > 8 else r.choice(["LK-B02", "LK-A04"])
        calls.append(C("store_in_locker", parcel_id=pid, locker_id=lk))
        instr += " Hold it in locker %s for collection." % lk
    return instr, calls


def report_wrong_status(r):
    pid = r.choice(parcels("received") + parcels("delivered"))
    return (
        "A courier says parcel %s was delivered; record it." % pid,
        [C("get_parcel", parcel_id=pid), C("record_delivery_outcome", False, parcel_id=pid, outcome="delivered")],
    )


IN_LOCKER = {
    "PX-4105": "Rosa Ferreira",
    "PX-4112": "Aylin Demir",
    "PX-4116": "Ciara Moriarty",
    "PX-4123": "Olu Bankole",
}


def collect(r):
    pid = r.choice(sorted(IN_LOCKER))
    name = IN_LOCKER[pid]
    shown = r.choice([name, name.upper(), " " + name.lower() + " "])
    return (
        "%s has come to collect parcel %s." % (name, pid),
        [C("get_parcel", parcel_id=pid), C("collect_parcel", parcel_id=pid, collector_name=shown)],
    )


def collect_wrong_person(r):
    pid = r.choice(sorted(IN_LOCKER))
    sender = CUST[PARC[pid]["sender_id"]]["name"]
    return (
        "%s (the sender) wants to pick up parcel %s for the recipient." % (sender, pid),
        [C("get_parcel", parcel_id=pid), C("collect_parcel", False, parcel_id=pid, collector_name=sender)],
    )


def collect_by_bank(r):
    bank = r.choice(["A", "B", "C"])
    d = adapter.make()
    d.reset(DATA)
    found = d.call("search_parcels", {"locker_bank": bank})["output"]
    pid = r.choice(found)["parcel_id"]
    return (
        "Someone at the bank %s lockers asks which parcels are there; %s then collects %s."
        % (bank, IN_LOCKER[pid], pid),
        [C("search_parcels", locker_bank=bank), C("collect_parcel", parcel_id=pid, collector_name=IN_LOCKER[pid])],
    )


def store_existing(r):
    pid = r.choice(["PX-4107", "PX-4108", "PX-4115", "PX-4119", "PX-4122", "PX-4106"])
    w = PARC[pid]["weight_kg"]
    size = "small" if w <= 2 else "medium" if w <= 8 else "large"
    d = adapter.make()
    d.reset(DATA)
    free = [lk["locker_id"] for lk in d.call("list_lockers", {"size": size, "available_only": True})["output"]]
    return (
        "Put parcel %s in a free %s locker for collection." % (pid, size),
        [
            C("list_lockers", size=size, available_only=True),
            C("store_in_locker", parcel_id=pid, locker_id=r.choice(free)),
        ],
    )


def store_refused(r):
    kind = r.choice(["heavy", "occupied", "oos"])
    if kind == "heavy":
        pid = r.choice(["PX-4115", "PX-4108"])
        return (
            "Store %s in small locker LK-C01, or in medium locker LK-A05 if it does not fit." % pid,
            [
                C("store_in_locker", False, parcel_id=pid, locker_id="LK-C01"),
                C("store_in_locker", parcel_id=pid, locker_id="LK-A05"),
            ],
        )
    if kind == "occupied":
        pid = r.choice(["PX-4119", "PX-4122"])
        return (
            "Store %s in locker LK-B01; if that is taken, look for another free medium locker in bank B." % pid,
            [
                C("store_in_locker", False, parcel_id=pid, locker_id="LK-B01"),
                C("list_lockers", bank="B", size="medium", available_only=True),
                C("store_in_locker", parcel_id=pid, locker_id="LK-B02"),
            ],
        )
    pid = r.choice(["PX-4106", "PX-4118"])
    return (
        "Put the large parcel %s into locker LK-C04, else LK-B04." % pid,
        [
            C("store_in_locker", False, parcel_id=pid, locker_id="LK-C04"),
            C("store_in_locker", parcel_id=pid, locker_id="LK-B04"),
        ],
    )


def cancel_ok(r):
    pid = r.choice(
        ["PX-4107", "PX-4108", "PX-4110", "PX-4115", "PX-4118", "PX-4119", "PX-4121", "PX-4122", "PX-4106", "PX-4111"]
    )
    sid = PARC[pid]["sender_id"]
    reason = r.choice(REASONS)
    calls = [C("get_parcel", parcel_id=pid), C("cancel_parcel", parcel_id=pid, reason=reason)]
    if PARC[pid]["payment_method"] == "account" and r.random() < 0.7:
        calls.append(C("get_customer", customer_id=sid))
    return ("Sender %s cancels parcel %s (%s) and asks where the refund goes." % (sid, pid, reason), calls)


def cancel_too_late(r):
    pid = r.choice(parcels("out_for_delivery") + parcels("in_locker") + parcels("delivered") + parcels("cancelled"))
    return (
        "Sender %s wants to cancel parcel %s: %s." % (PARC[pid]["sender_id"], pid, r.choice(REASONS)),
        [C("get_parcel", parcel_id=pid), C("cancel_parcel", False, parcel_id=pid, reason=r.choice(REASONS))],
    )


def cancel_by_phone(r):
    cid = r.choice(["CU-1002", "CU-1003", "CU-1006", "CU-1012", "CU-1001"])
    phone = CUST[cid]["phone"]
    d = adapter.make()
    d.reset(DATA)
    got = d.call("search_parcels", {"sender_phone": phone, "status": "received"})["output"]
    if not got:
        return None
    pid = r.choice(got)["parcel_id"]
    return (
        "Caller with phone %s wants to cancel the parcel to %s that has not left yet."
        % (phone, PARC[pid]["recipient_name"]),
        [
            C("search_parcels", sender_phone=phone, status="received"),
            C("cancel_parcel", parcel_id=pid, reason=r.choice(REASONS)),
            C("get_customer", customer_id=cid),
        ],
    )


LABELABLE = [
    "PX-4105",
    "PX-4106",
    "PX-4107",
    "PX-4108",
    "PX-4110",
    "PX-4112",
    "PX-4115",
    "PX-4116",
    "PX-4119",
    "PX-4121",
    "PX-4122",
    "PX-4123",
]


def labels_add(r):
    pid = r.choice(LABELABLE)
    have = PARC[pid]["labels"]
    lab = r.choice([x for x in adapter.LABELS if x not in have])
    calls = [C("get_parcel", parcel_id=pid), C("edit_handling_labels", parcel_id=pid, action="add", label=lab)]
    if have and r.random() < 0.5:
        calls.append(C("edit_handling_labels", parcel_id=pid, action="remove", label=have[0]))
        return ("On parcel %s add the %s label and take off %s." % (pid, lab, have[0]), calls)
    return ("Mark parcel %s as %s." % (pid, lab), calls)


def labels_refused(r):
    kind = r.choice(["dup", "full", "status", "absent"])
    if kind == "dup":
        pid = r.choice(["PX-4107", "PX-4116", "PX-4122"])
        lab = PARC[pid]["labels"][0]
        return (
            "The sender of %s wants it labelled %s." % (pid, lab),
            [C("get_parcel", parcel_id=pid), C("edit_handling_labels", False, parcel_id=pid, action="add", label=lab)],
        )
    if kind == "full":
        pid = r.choice(["PX-4118", "PX-4106"])
        have = PARC[pid]["labels"]
        extra = [x for x in adapter.LABELS if x not in have]
        return (
            "Add %s, %s and %s labels to %s." % (extra[0], extra[1], extra[2], pid),
            [
                C("edit_handling_labels", parcel_id=pid, action="add", label=x, ok=(len(have) + i < 3))
                for i, x in enumerate(extra[:3])
            ],
        )
    if kind == "status":
        pid = r.choice(parcels("out_for_delivery") + parcels("delivered"))
        return (
            "Add a signature_required label to %s." % pid,
            [C("edit_handling_labels", False, parcel_id=pid, action="add", label="signature_required")],
        )
    pid = r.choice(["PX-4108", "PX-4110", "PX-4121"])
    return (
        "Remove the fragile label from %s." % pid,
        [
            C("get_parcel", parcel_id=pid),
            C("edit_handling_labels", False, parcel_id=pid, action="remove", label="fragile"),
        ],
    )


def lookup(r):
    kind = r.choice(["phone", "zone", "missing", "sender"])
    if kind == "phone":
        cid = r.choice(sorted(CUST))
        return (
            "Caller with phone %s asks about their parcels." % CUST[cid]["phone"],
            [C("search_parcels", sender_phone=CUST[cid]["phone"])],
        )
    if kind == "zone":
        z = r.choice(list(ZONE_COURIERS))
        pid = None
        for p in parcels("received"):
            if PARC[p]["recipient_postcode"][:3] == z and p in RECEIVED_ROUTABLE:
                pid = p
        if pid is None:
            return None
        return (
            "Send out the waiting parcels for zone %s, starting with the highest-numbered one." % z,
            [
                C("search_parcels", zone=z, status="received"),
                C("assign_courier", parcel_id=pid, courier_id=RECEIVED_ROUTABLE[pid]),
            ],
        )
    if kind == "missing":
        pid = "PX-%d" % r.choice([4087, 4130, 4199, 4011])
        return ("A customer asks where parcel %s is." % pid, [C("get_parcel", False, parcel_id=pid)])
    cid = r.choice(sorted(CUST))
    s = r.choice(SERVICES)
    return (
        "List customer %s's %s parcels." % (cid, s),
        [C("get_customer", customer_id=cid), C("search_parcels", sender_id=cid, service=s)],
    )


def quote_only(r):
    cid = r.choice(sorted(CUST))
    w = r.choice([0.5, 2, 5, 10, 20, 30, weight(r, 0.1, 29.9)])
    ss = r.sample(SERVICES, 2)
    return (
        "%s wants prices for a %s kg parcel, %s and %s." % (cid, w, ss[0], ss[1]),
        [
            C("quote_postage", weight_kg=w, service=ss[0], customer_id=cid),
            C("quote_postage", weight_kg=w, service=ss[1], customer_id=cid),
        ],
    )


SCENARIOS = [
    (send_on_account, 6),
    (send_by_card, 4),
    (send_short_of_credit, 3),
    (send_suspended, 2),
    (send_outside_area, 2),
    (send_too_heavy, 1),
    (send_and_dispatch, 5),
    (send_to_locker, 3),
    (dispatch_existing, 5),
    (dispatch_wrong_courier, 3),
    (two_attempts_to_locker, 1),
    (courier_reports, 6),
    (report_wrong_status, 1),
    (collect, 4),
    (collect_wrong_person, 2),
    (collect_by_bank, 2),
    (store_existing, 3),
    (store_refused, 2),
    (cancel_ok, 5),
    (cancel_too_late, 2),
    (cancel_by_phone, 2),
    (labels_add, 4),
    (labels_refused, 3),
    (lookup, 4),
    (quote_only, 3),
]


def check(calls):
    d = adapter.make()
    d.reset(DATA)
    for c in calls:
        res = d.call(c["name"], c["arguments"])
        if res["ok"] != c["_ok"]:
            raise SystemExit("unexpected outcome for %s %s: %s" % (c["name"], c["arguments"], res["output"]))
    return sum(1 for c in calls if not c["_ok"])


def main():
    r = random.Random(SEED)
    funcs = [f for f, w in SCENARIOS for _ in range(w)]
    r.shuffle(funcs)
    out, seen, ncalls, nfail = [], set(), 0, 0
    while len(out) < N_TRAJ:
        f = funcs[len(out)] if len(out) < len(funcs) else r.choice(funcs)
        got = f(r)
        if got is None:
            continue
        instr, calls = got
        key = json.dumps([(c["name"], c["arguments"]) for c in calls], sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        nfail += check(calls)
        ncalls += len(calls)
        out.append(
            {
                "id": "parcels-%03d" % (len(out) + 1),
                "instruction": instr,
                "calls": [{"name": c["name"], "arguments": c["arguments"]} for c in calls],
            }
        )
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as fh:
        for t in out:
            fh.write(json.dumps(t, ensure_ascii=False) + "\n")
    print(
        "trajectories: %d, calls: %d, expected failures: %d (%.1f%%)"
        % (len(out), ncalls, nfail, 100.0 * nfail / ncalls)
    )


if __name__ == "__main__":
    main()
