"""Writes trajectories.jsonl: permit-desk support sessions replayed from data.json.

Deterministic (seeded). Every call states whether the real system should accept it; each trajectory is
replayed against adapter.py and the script stops if any call disagrees with that expectation.
Run: python make_trajectories.py
"""

import datetime
import json
import os
import random

import adapter

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20260316
REVIEWERS = ["K. Nguyen", "J. Alvarez", "R. Osei"]
METHODS = ["card", "check", "cash", "ach"]


def load():
    with open(os.path.join(HERE, "data.json")) as f:
        return json.load(f)


DATA = load()
APPS = DATA["applications"]
APPLICANTS = DATA["applicants"]
PARCELS = DATA["parcels"]
TODAY = datetime.date.fromisoformat(adapter.TODAY)


def by_status(*statuses):
    return sorted(k for k, a in APPS.items() if a["status"] in statuses)


def quote_total(app_id, state=None):
    env = adapter.make()
    env.reset(state or DATA)
    return env.call("quote_permit_fee", {"application_id": app_id})["output"]["total"]


def outstanding(app_id):
    a = APPS[app_id]
    return round(a["fee_assessed"] - a["fee_paid"], 2)


def weekdays(rng, n=1):
    days = [TODAY + datetime.timedelta(days=d) for d in range(1, 31)]
    days = [d.isoformat() for d in days if d.weekday() < 5]
    return rng.sample(days, n) if n > 1 else rng.choice(days)


def weekend(rng):
    days = [TODAY + datetime.timedelta(days=d) for d in range(1, 31)]
    return rng.choice([d.isoformat() for d in days if d.weekday() >= 5])


def C(name, ok=True, **arguments):
    return {"name": name, "arguments": arguments, "ok": ok}


# --- session templates: each returns (instruction, calls) ------------------------------------------------


def t_approve(rng):
    a = rng.choice(by_status("submitted", "under_review"))
    r = rng.choice(REVIEWERS)
    note = rng.choice(
        [
            "",
            "Plans conform to the 2024 residential code",
            "Approved with standard conditions",
            "Structural calcs reviewed",
        ]
    )
    args = {"application_id": a, "reviewer": r}
    if note:
        args["note"] = note
    return (
        "Plan reviewer %s finished the review of %s and asks you to approve it%s. Quote the fee first."
        % (r, a, " with the note '%s'" % note if note else ""),
        [
            C("get_application", application_id=a),
            C("quote_permit_fee", application_id=a),
            C("approve_application", **args),
        ],
    )


def t_approve_pay_issue(rng):
    a = rng.choice(
        sorted(
            k
            for k in by_status("submitted", "under_review")
            if APPLICANTS[APPS[k]["applicant_id"]].get("license_status") != "expired"
        )
    )
    r = rng.choice(REVIEWERS)
    total = quote_total(a)
    m = rng.choice(METHODS)
    return (
        "%s approved %s today; the applicant is at the counter to pay the whole fee by %s and pick up the "
        "permit." % (r, a, m),
        [
            C("quote_permit_fee", application_id=a),
            C("approve_application", application_id=a, reviewer=r),
            C("record_payment", application_id=a, amount=total, method=m),
            C("issue_permit", application_id=a),
        ],
    )


def t_pay_and_issue(rng):
    a = rng.choice(["BP-26-0011", "BP-26-0088", "BP-26-0033"])
    apl = APPS[a]["applicant_id"]
    m = rng.choice(METHODS)
    return (
        "%s wants to pay what is still owed on %s by %s and have the permit issued." % (APPLICANTS[apl]["name"], a, m),
        [
            C("get_applicant", applicant_id=apl),
            C("get_application", application_id=a),
            C("record_payment", application_id=a, amount=outstanding(a), method=m),
            C("issue_permit", application_id=a),
        ],
    )


def t_expired_license_issue(rng):
    a = "BP-26-0079"
    m = rng.choice(["ach", "check"])
    return (
        "Ironwood Builders pays the full fee on %s by %s and wants the permit issued right away." % (a, m),
        [
            C("get_application", application_id=a),
            C("record_payment", application_id=a, amount=outstanding(a), method=m),
            C("issue_permit", ok=False, application_id=a),
            C("get_applicant", applicant_id="APL-1008"),
        ],
    )


def t_partial(rng):
    a = rng.choice(["BP-26-0011", "BP-26-0088"])
    amt = float(rng.choice([25, 40, 50, 60]))
    m = rng.choice(METHODS)
    return (
        "The applicant on %s can only pay $%.2f today (%s) but asks whether the permit can be issued." % (a, amt, m),
        [
            C("get_application", application_id=a),
            C("record_payment", application_id=a, amount=amt, method=m),
            C("issue_permit", ok=False, application_id=a),
        ],
    )


def t_overpay(rng):
    a = rng.choice(["BP-26-0011", "BP-26-0088", "BP-26-0033"])
    m = rng.choice(METHODS)
    over = round(outstanding(a) + rng.choice([10, 20, 100]), 2)
    return (
        "A caller wants to pay $%.2f on %s by %s; if that is more than owed, take exactly the balance." % (over, a, m),
        [
            C("get_application", application_id=a),
            C("record_payment", ok=False, application_id=a, amount=over, method=m),
            C("record_payment", application_id=a, amount=outstanding(a), method=m),
        ],
    )


def t_issue_paid(rng):
    a = rng.choice(["BP-26-0017", "BP-26-0052"])
    return (
        "The applicant on %s says the fee is paid; check and issue the permit." % a,
        [C("get_application", application_id=a), C("issue_permit", application_id=a)],
    )


def t_issue_unpaid(rng):
    a = rng.choice(["BP-26-0011", "BP-26-0088", "BP-26-0033"])
    return (
        "A contractor asks you to issue %s today." % a,
        [
            C("get_application", application_id=a),
            C("issue_permit", ok=False, application_id=a),
            C("quote_permit_fee", application_id=a),
        ],
    )


VALID_CREATES = [
    ("APL-1012", "PCL-30406", "roofing", "Replace asphalt shingle roof, 22 squares", 14800),
    ("APL-1003", "PCL-30127", "alteration", "Convert attached garage to home office", 27500),
    ("APL-1002", "PCL-30502", "electrical", "EV charging stations, four Level 2 chargers", 21000),
    ("APL-1004", "PCL-30411", "plumbing", "Replace domestic water risers in building B", 33000),
    ("APL-1011", "PCL-30340", "mechanical", "Install ductless mini-split system, three zones", 15600),
    ("APL-1005", "PCL-30219", "alteration", "Second-floor office build-out, 3,100 sq ft", 126000),
    ("APL-1009", "PCL-30340", "sign", "Monument sign at driveway entrance, 24 sq ft", 7400),
    ("APL-1007", "PCL-30318", "fence", "4 ft wood picket fence along front yard", 3200),
    ("APL-1001", "PCL-30112", "demolition", "Remove detached shed and concrete slab", 4500),
    ("APL-1006", "PCL-30517", "roofing", "Re-roof two-family house, architectural shingles", 19200),
    ("APL-1005", "PCL-30528", "new_construction", "Detached accessory dwelling unit, 750 sq ft", 168000),
    ("APL-1012", "PCL-30406", "addition", "Screened porch addition, 240 sq ft", 36000),
    ("APL-1009", "PCL-30502", "sign", "Pylon sign replacement, 60 sq ft double-faced", 18500),
]
BAD_CREATES = [
    (
        ("APL-1007", "PCL-30318", "electrical", "Add circuits for basement workshop", 4200),
        "homeowner trade",
        ("APL-1002", "PCL-30318", "electrical", "Add circuits for basement workshop", 4200),
    ),
    (
        ("APL-1012", "PCL-30406", "plumbing", "Add half bath on first floor", 9800),
        "homeowner trade",
        ("APL-1004", "PCL-30406", "plumbing", "Add half bath on first floor", 9800),
    ),
    (
        ("APL-1008", "PCL-30301", "mechanical", "Warehouse unit heaters", 22000),
        "expired license",
        ("APL-1011", "PCL-30301", "mechanical", "Warehouse unit heaters", 22000),
    ),
    (("APL-1010", "PCL-30433", "roofing", "Re-roof single-family house", 12500), "suspended", None),
    (("APL-1005", "PCL-30539", "demolition", "Demolish rear ell of two-family house", 38000), "historic demo", None),
    (("APL-1001", "PCL-30244", "demolition", "Remove rear storage addition", 15000), "historic demo", None),
    (("APL-1009", "PCL-30517", "sign", "Home business wall sign, 6 sq ft", 900), "residential sign", None),
    (
        ("APL-1009", "PCL-30411", "sign", "Leasing banner frame, 20 sq ft", 1600),
        "residential sign",
        ("APL-1009", "PCL-30502", "sign", "Leasing banner frame, 20 sq ft", 1600),
    ),
    (
        ("APL-1003", "PCL-30999", "fence", "Side yard fence, 5 ft", 2800),
        "unknown parcel",
        ("APL-1003", "PCL-30127", "fence", "Side yard fence, 5 ft", 2800),
    ),
    (
        ("APL-1005", "PCL-30502", "alteration", "Tenant improvement, suite 110", -5000),
        "negative valuation",
        ("APL-1005", "PCL-30502", "alteration", "Tenant improvement, suite 110", 85000),
    ),
]


def create_args(t):
    return {"applicant_id": t[0], "parcel_id": t[1], "permit_type": t[2], "description": t[3], "valuation": t[4]}


def t_create(rng, spec):
    calls = [
        C("get_applicant", applicant_id=spec[0]),
        C("get_parcel", parcel_id=spec[1]),
        C("create_application", **create_args(spec)),
    ]
    if rng.random() < 0.3:
        calls = calls[1:]
    name = APPLICANTS[spec[0]]["name"]
    return (
        "%s wants to file a %s permit for '%s' at %s, valued at $%s."
        % (name, spec[2].replace("_", " "), spec[3], PARCELS[spec[1]]["address"], format(spec[4], ",")),
        calls,
    )


def t_create_quote(rng, spec):
    r = rng.choice(REVIEWERS)
    new_id = "BP-26-0099"
    return (
        "File a %s application for %s at parcel %s ('%s', $%s), tell them the fee, and since it is an "
        "over-the-counter permit, %s approves it right away."
        % (spec[2], APPLICANTS[spec[0]]["name"], spec[1], spec[3], format(spec[4], ","), r),
        [
            C("create_application", **create_args(spec)),
            C("quote_permit_fee", application_id=new_id),
            C("approve_application", application_id=new_id, reviewer=r, note="Over-the-counter approval"),
        ],
    )


def t_create_bad(rng, bad):
    spec, why, fix = bad
    calls = [C("get_applicant", applicant_id=spec[0]), C("get_parcel", ok=spec[1] in PARCELS, parcel_id=spec[1])]
    calls.append(C("create_application", ok=False, **create_args(spec)))
    instr = "A caller wants to file a %s permit ('%s') as %s on parcel %s, valued at $%s." % (
        spec[2].replace("_", " "),
        spec[3],
        spec[0],
        spec[1],
        format(spec[4], ","),
    )
    if fix:
        calls.append(C("create_application", **create_args(fix)))
        instr += (
            " If it cannot be filed that way, file it as %s on %s." % (fix[0], fix[1])
            if fix[0] != spec[0] or fix[1] != spec[1]
            else " If refused, correct it to $%s." % format(fix[4], ",")
        )
    return instr, calls


SEARCHES = [
    ({"ward": 5, "status": "submitted"}, "the submitted applications in ward 5"),
    ({"zoning": "R-1", "permit_type": "fence"}, "the fence applications on R-1 parcels"),
    ({"applicant_name": "halvorsen"}, "everything filed by Halvorsen Architects"),
    ({"address": "elm st"}, "the applications on Elm St"),
    ({"status": "approved"}, "the approved applications waiting for payment or issuance"),
    ({"ward": 2, "permit_type": "alteration"}, "the alteration applications in ward 2"),
    ({"applicant_id": "APL-1004"}, "the applications of Cortez & Sons Plumbing"),
    ({"zoning": "C-2"}, "the applications on C-2 parcels"),
    ({"address": "birch", "status": "approved"}, "the approved applications on Birch Ln"),
    ({"ward": 3, "status": "under_review"}, "the applications under review in ward 3"),
]


def t_search_then(rng):
    filters, what = rng.choice(SEARCHES)
    env = adapter.make()
    env.reset(DATA)
    rows = env.call("search_applications", filters)["output"]
    calls = [C("search_applications", **filters)]
    instr = "Find %s" % what
    if rows:
        pick = rng.choice(rows)["application_id"]
        st = APPS[pick]["status"]
        calls.append(C("get_application", application_id=pick))
        if st in ("submitted", "under_review"):
            r = rng.choice(REVIEWERS)
            calls.append(C("approve_application", application_id=pick, reviewer=r))
            instr += "; %s approves %s." % (r, pick)
        elif st == "approved" and outstanding(pick) > 0:
            calls.append(C("quote_permit_fee", application_id=pick))
            calls.append(C("record_payment", application_id=pick, amount=outstanding(pick), method="card"))
            instr += "; the applicant of %s pays the balance by card." % pick
        elif st == "approved":
            calls.append(
                C(
                    "issue_permit",
                    ok=APPLICANTS[APPS[pick]["applicant_id"]]["license_status"] != "expired",
                    application_id=pick,
                )
            )
            instr += "; issue %s if it is paid." % pick
        else:
            instr += " and read out the details of %s." % pick
    else:
        instr += "."
    return instr, calls


def t_withdraw(rng):
    a = rng.choice(by_status("submitted", "under_review", "on_hold", "approved"))
    reason = rng.choice(
        [
            "",
            "Project postponed to next year",
            "Owner sold the property",
            "Hired a different contractor who will refile",
            "Scope changed; will refile",
        ]
    )
    args = {"application_id": a}
    if reason:
        args["reason"] = reason
    calls = [C("get_application", application_id=a), C("withdraw_application", **args)]
    apl = APPS[a]["applicant_id"]
    if APPS[a]["status"] == "approved":
        calls.append(C("get_applicant", applicant_id=apl))
    return (
        "%s asks to withdraw application %s%s."
        % (APPLICANTS[apl]["name"], a, " (%s)" % reason.lower() if reason else ""),
        calls,
    )


def t_withdraw_bad(rng):
    a = rng.choice(by_status("issued", "finaled", "withdrawn", "rejected"))
    return (
        "The caller wants to withdraw %s." % a,
        [
            C("get_application", application_id=a),
            C("withdraw_application", ok=False, application_id=a, reason="No longer needed"),
        ],
    )


def t_approve_bad(rng):
    a = rng.choice(by_status("on_hold", "approved", "withdrawn", "rejected"))
    r = rng.choice(REVIEWERS)
    return (
        "%s asks you to approve %s." % (r, a),
        [C("get_application", application_id=a), C("approve_application", ok=False, application_id=a, reviewer=r)],
    )


def t_inspect(rng):
    a = rng.choice(["BP-26-0003", "BP-26-0072", "BP-25-0871", "BP-25-0944"])
    taken = {i["inspection_type"] for i in APPS[a]["inspections"] if i["status"] in ("requested", "passed")}
    pending = any(i["status"] == "requested" for i in APPS[a]["inspections"])
    free = [t for t in adapter.INSPECTION_TYPES if t not in taken and t != "final"]
    if not pending and "final" not in taken:
        free.append("final")
    kind = rng.choice(free)
    day = weekdays(rng)
    article = "an" if kind[0] in "aeiou" else "a"
    return (
        "The contractor on permit %s needs %s %s inspection on %s." % (a, article, kind.replace("_", " "), day),
        [
            C("get_application", application_id=a),
            C("request_inspection", application_id=a, inspection_type=kind, requested_for=day),
        ],
    )


def t_inspect_bad(rng):
    variant = rng.choice(["weekend", "past", "far", "dup", "final_pending", "not_issued"])
    if variant == "weekend":
        a, kind, day = rng.choice(["BP-26-0003", "BP-26-0072"]), "plumbing_rough", weekend(rng)
        fix = weekdays(rng)
    elif variant == "past":
        a, kind, day, fix = "BP-26-0072", "plumbing_rough", "2026-03-16", "2026-03-18"
    elif variant == "far":
        a, kind, day, fix = "BP-26-0003", "final", "2026-04-30", "2026-04-14"
    elif variant == "dup":
        a, kind, day, fix = rng.choice(
            [
                ("BP-25-0871", "insulation", "2026-03-24", None),
                ("BP-25-0944", "framing", "2026-03-20", None),
                ("BP-26-0003", "electrical_rough", "2026-03-25", None),
            ]
        )
    elif variant == "final_pending":
        a, kind, day, fix = rng.choice(["BP-25-0871", "BP-25-0944"]), "final", weekdays(rng), None
    else:
        a, kind, day, fix = rng.choice(by_status("approved", "submitted")), "footing", weekdays(rng), None
    calls = [
        C("get_application", application_id=a),
        C("request_inspection", ok=False, application_id=a, inspection_type=kind, requested_for=day),
    ]
    instr = "Book a %s inspection on %s for %s." % (kind.replace("_", " "), a, day)
    if fix:
        calls.append(C("request_inspection", application_id=a, inspection_type=kind, requested_for=fix))
        instr += " If that day is not possible, book %s instead." % fix
    return instr, calls


def t_reschedule(rng):
    a, kind = rng.choice([("BP-25-0871", "insulation"), ("BP-25-0944", "framing")])
    day = weekdays(rng)
    return (
        "The builder on %s needs to move the pending %s inspection to %s." % (a, kind, day),
        [
            C("get_application", application_id=a),
            C("cancel_inspection", application_id=a, inspection_type=kind),
            C("request_inspection", application_id=a, inspection_type=kind, requested_for=day),
        ],
    )


def t_cancel(rng):
    a, kind, ok = rng.choice(
        [
            ("BP-25-0871", "insulation", True),
            ("BP-25-0944", "framing", True),
            ("BP-26-0003", "electrical_rough", False),
            ("BP-25-0944", "footing", False),
            ("BP-26-0072", "final", False),
        ]
    )
    return (
        "Cancel the %s inspection on %s; the caller says the work is not ready." % (kind, a),
        [C("get_application", application_id=a), C("cancel_inspection", ok=ok, application_id=a, inspection_type=kind)],
    )


def t_inspect_then_final(rng):
    a = "BP-26-0072"
    d1, d2 = sorted(weekdays(rng, 2))
    return (
        "On gas-line permit %s, book the plumbing rough inspection for %s, then the final for %s." % (a, d1, d2),
        [
            C("request_inspection", application_id=a, inspection_type="plumbing_rough", requested_for=d1),
            C("request_inspection", ok=False, application_id=a, inspection_type="final", requested_for=d2),
            C("get_application", application_id=a),
        ],
    )


def t_balance(rng):
    apl = rng.choice(["APL-1003", "APL-1004", "APL-1011"])
    env = adapter.make()
    env.reset(DATA)
    rows = env.call("search_applications", {"applicant_id": apl, "status": "approved"})["output"]
    a = rows[0]["application_id"]
    m = rng.choice(METHODS)
    return (
        "%s asks what they owe and pays it by %s." % (APPLICANTS[apl]["name"], m),
        [
            C("get_applicant", applicant_id=apl),
            C("search_applications", applicant_id=apl, status="approved"),
            C("record_payment", application_id=a, amount=outstanding(a), method=m),
            C("get_applicant", applicant_id=apl),
        ],
    )


def t_misc_fail(rng):
    v = rng.choice(["quote_withdrawn", "pay_submitted", "unknown_app", "unknown_applicant", "bad_method"])
    if v == "quote_withdrawn":
        a = rng.choice(["BP-26-0068", "BP-26-0046"])
        return (
            "The caller asks how much the fee on %s would be." % a,
            [C("get_application", application_id=a), C("quote_permit_fee", ok=False, application_id=a)],
        )
    if v == "pay_submitted":
        a = rng.choice(by_status("submitted"))
        return (
            "The applicant wants to prepay the fee on %s by card." % a,
            [
                C("quote_permit_fee", application_id=a),
                C("record_payment", ok=False, application_id=a, amount=quote_total(a), method="card"),
            ],
        )
    if v == "unknown_app":
        return (
            "Look up application BP-26-0150 for a caller, then BP-26-0057.",
            [
                C("get_application", ok=False, application_id="BP-26-0150"),
                C("get_application", application_id="BP-26-0057"),
            ],
        )
    if v == "unknown_applicant":
        return (
            "A caller gives applicant number APL-1020; check it, then search by their name 'Whitfield'.",
            [
                C("get_applicant", ok=False, applicant_id="APL-1020"),
                C("search_applications", applicant_name="Whitfield"),
            ],
        )
    a = "BP-26-0088"
    return (
        "Dan Whitfield wants to pay the fee on %s with a gift card; otherwise by card." % a,
        [
            C("record_payment", ok=False, application_id=a, amount=outstanding(a), method="gift_card"),
            C("record_payment", application_id=a, amount=outstanding(a), method="card"),
        ],
    )


PLAN = (
    [t_approve] * 5
    + [t_approve_pay_issue] * 4
    + [t_pay_and_issue] * 4
    + [t_expired_license_issue]
    + [t_partial] * 2
    + [t_overpay] * 2
    + [t_issue_paid] * 2
    + [t_issue_unpaid] * 1
    + [t_search_then] * 8
    + [t_withdraw] * 5
    + [t_withdraw_bad] * 2
    + [t_approve_bad] * 2
    + [t_inspect] * 4
    + [t_inspect_bad] * 4
    + [t_reschedule] * 2
    + [t_cancel] * 3
    + [t_inspect_then_final]
    + [t_balance] * 2
    + [t_misc_fail] * 3
)


def build():
    rng = random.Random(SEED)
    sessions = [fn(rng) for fn in PLAN]
    for spec in VALID_CREATES:
        sessions.append(t_create(rng, spec))
    for spec in rng.sample(VALID_CREATES, 2):
        sessions.append(t_create_quote(rng, spec))
    for bad in rng.sample(BAD_CREATES, 6):
        sessions.append(t_create_bad(rng, bad))
    order = list(range(len(sessions)))
    rng.shuffle(order)
    out = []
    for n, i in enumerate(order, 1):
        instr, calls = sessions[i]
        out.append({"id": "permits-%03d" % n, "instruction": instr, "calls": calls})
    return out


def check(trajs):
    calls = fails = 0
    for t in trajs:
        env = adapter.make()
        env.reset(DATA)
        for c in t["calls"]:
            r = env.call(c["name"], c["arguments"])
            if r["ok"] != c["ok"]:
                raise SystemExit(
                    "%s: %s %s expected ok=%s, got %s" % (t["id"], c["name"], c["arguments"], c["ok"], r["output"])
                )
            calls += 1
            fails += 0 if r["ok"] else 1
    return calls, fails


def main():
    trajs = build()
    calls, fails = check(trajs)
    with open(os.path.join(HERE, "trajectories.jsonl"), "w") as f:
        for t in trajs:
            rec = {
                "id": t["id"],
                "instruction": t["instruction"],
                "calls": [{"name": c["name"], "arguments": c["arguments"]} for c in t["calls"]],
            }
            f.write(json.dumps(rec) + "\n")
    print("trajectories: %d  calls: %d  failing: %d (%.1f%%)" % (len(trajs), calls, fails, 100.0 * fails / calls))


if __name__ == "__main__":
    main()
