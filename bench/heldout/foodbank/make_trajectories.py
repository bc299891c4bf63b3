"""Write trajectories.jsonl: seeded support-desk sessions, each checked against the adapter.

Every template states which of its calls should succeed; the script replays each session from data.json
and stops (exit 1) if the adapter disagrees with that intent. Same seed, same bytes.
Usage: python make_trajectories.py [--seed 7] [--count 70]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path
from typing import Callable

import adapter

HERE = Path(__file__).resolve().parent
DATA = json.loads((HERE / "data.json").read_text())
TODAY = adapter.TODAY
Session = tuple[str, list[dict], list[bool]]


def c(name: str, **arguments) -> dict:
    """One call."""
    return {"name": name, "arguments": arguments}


def outcome(calls: list[dict]) -> list[bool]:
    """Replay `calls` from data.json; the ok flag of each."""
    desk = adapter.make()
    desk.reset(DATA)
    return [desk.call(x["name"], x["arguments"])["ok"] for x in calls]


def works(*calls: dict) -> bool:
    return all(outcome(list(calls)))


V, S, A, D = (DATA[k] for k in ("volunteers", "shifts", "agencies", "distributions"))
ACTIVE = sorted(k for k, v in V.items() if v["status"] == "active")
NOT_ACTIVE = sorted(k for k, v in V.items() if v["status"] != "active")
SIGNUPS = [(s, v) for s in sorted(S) for v in ACTIVE if works(c("sign_up_for_shift", shift_id=s, volunteer_id=v))]
ROSTERED = [(s, v) for s in sorted(S) for v in S[s]["volunteer_ids"] if S[s]["status"] in ("open", "full")]
CLOSED_ROSTER = [(s, v) for s in sorted(S) for v in S[s]["volunteer_ids"] if S[s]["status"] not in ("open", "full")]
DUE = sorted(s for s in S if S[s]["status"] in ("open", "full") and S[s]["date"] <= TODAY and S[s]["volunteer_ids"])
FUTURE = sorted(s for s in S if S[s]["status"] in ("open", "full") and S[s]["date"] > TODAY)
CERT_SHIFTS = sorted(s for s in S if S[s]["requires"] and S[s]["status"] == "open" and S[s]["date"] >= TODAY)
ACTIVE_AG = sorted(k for k, a in A.items() if a["status"] == "active")
SCHEDULED = sorted(k for k, d in D.items() if d["status"] == "scheduled")
FINAL = sorted(k for k, d in D.items() if d["status"] != "scheduled")
CATS = sorted(adapter.RATES_CENTS)
WEEKDAYS = ["2025-03-%02d" % d for d in range(10, 32) if d not in (15, 16, 22, 23, 29, 30)]
WEEKENDS = ["2025-03-15", "2025-03-16", "2025-03-22", "2025-03-23", "2025-03-29"]


def items(rng: random.Random, budget: int) -> list[dict]:
    cats = rng.sample(CATS, rng.randint(1, 3))
    return [
        {"category": k, "pounds": max(10, rng.randrange(50, max(60, budget // len(cats)), 25) // 25 * 25)} for k in cats
    ]


def fit(rng: random.Random, agency: str) -> list[dict]:
    left = A[agency]["allocation_remaining_lbs"]
    for _ in range(50):
        lines = items(rng, left)
        if sum(i["pounds"] for i in lines) <= left:
            return lines
    return [{"category": "produce", "pounds": 50}]


def t_signup(rng):
    s, v = rng.choice(SIGNUPS)
    return (
        f"Volunteer {V[v]['name']} ({v}) wants to help on {S[s]['date']} ({S[s]['role']}, "
        f"{S[s]['start']}-{S[s]['end']}). Find the shift and sign them up.",
        [
            c("get_volunteer", volunteer_id=v),
            c("list_shifts", date=S[s]["date"], status="open"),
            c("sign_up_for_shift", shift_id=s, volunteer_id=v),
        ],
        [True, True, True],
    )


def t_signup_direct(rng):
    s, v = rng.choice(SIGNUPS)
    return (f"Sign {v} up for shift {s}.", [c("sign_up_for_shift", shift_id=s, volunteer_id=v)], [True])


def t_signup_not_active(rng):
    v = rng.choice(NOT_ACTIVE)
    s = rng.choice(sorted({x for x, _ in SIGNUPS}))
    return (
        f"{V[v]['name']} ({v}) called asking to join shift {s}. Check their record and sign them up if "
        f"they are allowed to.",
        [c("get_volunteer", volunteer_id=v), c("sign_up_for_shift", shift_id=s, volunteer_id=v)],
        [True, False],
    )


def t_signup_cert(rng):
    s = rng.choice(CERT_SHIFTS)
    lacking = [v for v in ACTIVE if S[s]["requires"] not in V[v]["certifications"]]
    v = rng.choice(lacking)
    alt = sorted(x for x, y in SIGNUPS if y == v and not S[x]["requires"])
    calls = [c("get_volunteer", volunteer_id=v), c("sign_up_for_shift", shift_id=s, volunteer_id=v)]
    text = f"Put {V[v]['name']} ({v}) on shift {s}."
    if alt and rng.random() < 0.7:
        a = rng.choice(alt)
        calls.append(c("sign_up_for_shift", shift_id=a, volunteer_id=v))
        text += f" If that is not possible, put them on {a} instead."
        return text, calls, [True, False, True]
    return text, calls, [True, False]


def t_signup_full(rng):
    full = sorted(s for s in S if S[s]["status"] == "full" and S[s]["date"] >= TODAY)
    s = rng.choice(full)
    v = rng.choice([x for x in ACTIVE if x not in S[s]["volunteer_ids"]])
    alts = sorted(x for x, y in SIGNUPS if y == v and S[x]["role"] == S[s]["role"] and x != s)
    calls = [c("sign_up_for_shift", shift_id=s, volunteer_id=v)]
    if alts:
        a = rng.choice(alts)
        calls += [
            c("list_shifts", role=S[s]["role"], status="open"),
            c("sign_up_for_shift", shift_id=a, volunteer_id=v),
        ]
        return (
            f"{v} would like shift {s}; if it is taken, find another open {S[s]['role']} shift and book {a}.",
            calls,
            [False, True, True],
        )
    return f"{v} would like shift {s}.", calls, [False]


def t_cancel(rng):
    s, v = rng.choice(ROSTERED)
    reason = rng.choice(["Family emergency", "Out of town", "Feeling unwell", "Work conflict", ""])
    args = {"shift_id": s, "volunteer_id": v}
    if reason:
        args["reason"] = reason
    return (
        f"{V[v]['name']} ({v}) can no longer make it to their {S[s]['date']} shift"
        + (f" ({reason.lower()})" if reason else "")
        + ". Find it and cancel the sign-up.",
        [c("list_shifts", volunteer_id=v), c("cancel_shift_signup", **args)],
        [True, True],
    )


def t_cancel_closed(rng):
    s, v = rng.choice(CLOSED_ROSTER)
    return (
        f"{v} says they want to cancel their spot on shift {s}.",
        [c("cancel_shift_signup", shift_id=s, volunteer_id=v, reason="Schedule change")],
        [False],
    )


def t_cancel_not_on(rng):
    s = rng.choice(sorted(s for s in S if S[s]["status"] == "open"))
    v = rng.choice([x for x in ACTIVE if x not in S[s]["volunteer_ids"]])
    return (
        f"Take {v} off shift {s}.",
        [c("list_shifts", volunteer_id=v), c("cancel_shift_signup", shift_id=s, volunteer_id=v)],
        [True, False],
    )


def t_swap(rng):
    s, v = rng.choice(ROSTERED)
    options = sorted(
        x
        for x in S
        if x != s
        and works(
            c("cancel_shift_signup", shift_id=s, volunteer_id=v), c("sign_up_for_shift", shift_id=x, volunteer_id=v)
        )
    )
    if not options:
        return t_cancel(rng)
    x = rng.choice(options)
    return (
        f"{v} wants to move from shift {s} to shift {x}.",
        [
            c("cancel_shift_signup", shift_id=s, volunteer_id=v, reason=f"Moved to {x}"),
            c("sign_up_for_shift", shift_id=x, volunteer_id=v),
            c("get_volunteer", volunteer_id=v),
        ],
        [True, True, True],
    )


def t_complete(rng):
    s = rng.choice(DUE)
    roster = S[s]["volunteer_ids"]
    absent = sorted(rng.sample(roster, rng.randint(0, min(2, len(roster) - 1))))
    args = {"shift_id": s}
    if absent or rng.random() < 0.3:
        args["absent_volunteer_ids"] = absent
    text = (
        f"The shift lead for {s} on {S[s]['date']} reports it is done; "
        + (f"{', '.join(absent)} did not show up." if absent else "everyone came.")
        + " Close it out."
    )
    calls = [c("list_shifts", date=S[s]["date"]), c("complete_shift", **args)]
    if absent:
        calls.append(c("get_volunteer", volunteer_id=absent[0]))
    return text, calls, [True] * len(calls)


def t_complete_future(rng):
    s = rng.choice(FUTURE)
    return (f"Mark shift {s} as completed.", [c("complete_shift", shift_id=s)], [False])


def t_complete_empty(rng):
    s = rng.choice(sorted(x for x in S if S[x]["status"] == "completed"))
    return (
        f"Shift {s} needs closing out, please credit the volunteers.",
        [c("list_shifts", status="completed"), c("complete_shift", shift_id=s)],
        [True, False],
    )


def t_quote(rng):
    ag = rng.choice(sorted(A))
    lines = items(rng, A[ag]["allocation_remaining_lbs"])
    desc = ", ".join(f"{i['pounds']} lbs of {i['category'].replace('_', ' ')}" for i in lines)
    return (
        f"{A[ag]['name']} ({ag}) asks what {desc} would cost them and whether it fits their allocation.",
        [c("get_agency", agency_id=ag), c("quote_distribution", agency_id=ag, items=lines)],
        [True, True],
    )


def t_schedule(rng):
    ag = rng.choice(ACTIVE_AG)
    lines = fit(rng, ag)
    day = rng.choice(WEEKDAYS)
    args = {"agency_id": ag, "pickup_date": day, "items": lines}
    if rng.random() < 0.5:
        args["note"] = rng.choice(["Van arrives 10am", "Call contact on arrival", "Loading dock B"])
    calls = [
        c("get_agency", agency_id=ag),
        c("quote_distribution", agency_id=ag, items=lines),
        c("schedule_distribution", **args),
    ]
    if rng.random() < 0.4:
        calls = calls[:1] + calls[2:]
    desc = ", ".join(f"{i['pounds']} lbs {i['category']}" for i in lines)
    return (f"Book a pickup for {A[ag]['name']} ({ag}) on {day}: {desc}.", calls, [True] * len(calls))


def t_schedule_over(rng):
    ag = rng.choice(ACTIVE_AG)
    left = A[ag]["allocation_remaining_lbs"]
    big = [{"category": "produce", "pounds": min(2000, left + 250)}]
    if big[0]["pounds"] <= left:
        big.append({"category": "canned", "pounds": 1500})
    small = [{"category": "produce", "pounds": max(25, left // 2 // 25 * 25)}]
    day = rng.choice(WEEKDAYS)
    return (
        f"{ag} wants {sum(i['pounds'] for i in big)} lbs on {day}; if that is over their allocation, book "
        f"half of what they have left in produce instead.",
        [
            c("get_agency", agency_id=ag),
            c("schedule_distribution", agency_id=ag, pickup_date=day, items=big),
            c("schedule_distribution", agency_id=ag, pickup_date=day, items=small),
        ],
        [True, False, True],
    )


def t_schedule_hold(rng):
    lines = fit(rng, "AG-105")
    day = rng.choice(WEEKDAYS)
    return (
        f"Riverbend Tenants' Pantry (AG-105) wants to book a pickup on {day}.",
        [
            c("get_agency", agency_id="AG-105"),
            c("schedule_distribution", agency_id="AG-105", pickup_date=day, items=lines),
        ],
        [True, False],
    )


def t_schedule_weekend(rng):
    ag = rng.choice(ACTIVE_AG)
    lines = fit(rng, ag)
    day = rng.choice(WEEKENDS)
    monday = {"15": "17", "16": "17", "22": "24", "23": "24", "29": "31"}[day[-2:]]
    nxt = day[:-2] + monday
    return (
        f"{ag} asks for a pickup on {day}, or the following Monday if that day is not possible.",
        [
            c("schedule_distribution", agency_id=ag, pickup_date=day, items=lines),
            c("schedule_distribution", agency_id=ag, pickup_date=nxt, items=lines),
        ],
        [False, True],
    )


def t_add_item(rng):
    d = rng.choice([x for x in SCHEDULED if A[D[x]["agency_id"]]["status"] == "active"])
    ag = D[d]["agency_id"]
    cat = rng.choice(CATS)
    lbs = rng.choice([25, 50, 75, 100, 150, 200])
    lbs = min(lbs, A[ag]["allocation_remaining_lbs"])
    return (
        f"{A[ag]['name']} wants to add {lbs} lbs of {cat.replace('_', ' ')} to their pickup on {D[d]['pickup_date']}.",
        [
            c("list_distributions", agency_id=ag, status="scheduled"),
            c("add_distribution_item", distribution_id=d, category=cat, pounds=lbs),
        ],
        [True, True],
    )


def t_add_item_hold(rng):
    return (
        "Riverbend Tenants' Pantry (AG-105) wants 100 more lbs of dairy on DIS-3011.",
        [c("add_distribution_item", distribution_id="DIS-3011", category="dairy", pounds=100)],
        [False],
    )


def t_remove_item(rng):
    d = rng.choice([x for x in SCHEDULED if len(D[x]["items"]) > 1])
    cat = rng.choice([i["category"] for i in D[d]["items"]])
    ag = D[d]["agency_id"]
    return (
        f"{ag} does not need the {cat.replace('_', ' ')} on their {D[d]['pickup_date']} pickup any more. "
        f"Remove it and tell them their new allocation balance.",
        [
            c("list_distributions", agency_id=ag, from_date=D[d]["pickup_date"], to_date=D[d]["pickup_date"]),
            c("remove_distribution_item", distribution_id=d, category=cat),
            c("get_agency", agency_id=ag),
        ],
        [True, True, True],
    )


def t_remove_final(rng):
    d = rng.choice(FINAL)
    cat = D[d]["items"][0]["category"]
    return (
        f"Remove the {cat} line from distribution {d}.",
        [c("remove_distribution_item", distribution_id=d, category=cat)],
        [False],
    )


def t_cancel_dist(rng):
    d = rng.choice(SCHEDULED)
    ag = D[d]["agency_id"]
    note = rng.choice(["Agency van broken down", "Site closed for inspection", "Duplicate booking", ""])
    args = {"distribution_id": d, "status": "cancelled"}
    if note:
        args["note"] = note
    return (
        f"{A[ag]['name']} ({ag}) needs to cancel their pickup on {D[d]['pickup_date']}.",
        [
            c("list_distributions", agency_id=ag, status="scheduled"),
            c("set_distribution_status", **args),
            c("get_agency", agency_id=ag),
        ],
        [True, True, True],
    )


def t_pickup(rng):
    due = [x for x in SCHEDULED if D[x]["pickup_date"] <= TODAY]
    d = rng.choice(due)
    who = rng.choice(["Helen Ortiz", "Dana Fisher", "agency driver", ""])
    args = {"distribution_id": d, "status": "picked_up"}
    if who:
        args["note"] = f"Picked up by {who}"
    return (
        f"The dock reports that {D[d]['agency_id']}'s pickup today has left the warehouse. Record it.",
        [
            c("list_distributions", from_date=TODAY, to_date=TODAY, status="scheduled"),
            c("set_distribution_status", **args),
        ],
        [True, True],
    )


def t_pickup_early(rng):
    d = rng.choice([x for x in SCHEDULED if D[x]["pickup_date"] > TODAY])
    return (
        f"Record distribution {d} as picked up.",
        [c("set_distribution_status", distribution_id=d, status="picked_up")],
        [False],
    )


def t_lookup_missing(rng):
    kind = rng.choice(["volunteer", "agency", "distribution"])
    if kind == "volunteer":
        v = rng.choice(["VOL-1020", "VOL-0999", "VOL-1100"])
        s, _ = rng.choice(SIGNUPS)
        return (
            f"A caller says they are volunteer {v} and want shift {s}.",
            [c("get_volunteer", volunteer_id=v)],
            [False],
        )
    if kind == "agency":
        ag = rng.choice(["AG-109", "AG-110", "AG-201"])
        return (f"Agency {ag} asks how much of its allocation is left.", [c("get_agency", agency_id=ag)], [False])
    d = rng.choice(["DIS-3100", "DIS-2999", "DIS-3030"])
    return (
        f"Cancel distribution {d}; the agency called it off.",
        [c("set_distribution_status", distribution_id=d, status="cancelled")],
        [False],
    )


def t_history(rng):
    ag = rng.choice(sorted(A))
    return (
        f"{A[ag]['name']} asks what they have picked up so far this month.",
        [c("get_agency", agency_id=ag), c("list_distributions", agency_id=ag, status="picked_up")],
        [True, True],
    )


TEMPLATES: list[tuple[Callable, int]] = [
    (t_signup, 7),
    (t_signup_direct, 3),
    (t_signup_not_active, 2),
    (t_signup_cert, 2),
    (t_signup_full, 2),
    (t_cancel, 5),
    (t_cancel_closed, 1),
    (t_cancel_not_on, 1),
    (t_swap, 3),
    (t_complete, 4),
    (t_complete_future, 1),
    (t_complete_empty, 1),
    (t_quote, 4),
    (t_schedule, 7),
    (t_schedule_over, 2),
    (t_schedule_hold, 1),
    (t_schedule_weekend, 2),
    (t_add_item, 5),
    (t_add_item_hold, 1),
    (t_remove_item, 4),
    (t_remove_final, 1),
    (t_cancel_dist, 3),
    (t_pickup, 3),
    (t_pickup_early, 1),
    (t_lookup_missing, 2),
    (t_history, 2),
]


def generate(seed: int, count: int) -> list[dict]:
    """`count` distinct sessions; exits 1 when a session's outcome differs from its template's intent."""
    rng = random.Random(seed)
    funcs, weights = zip(*TEMPLATES)
    out, seen = [], set()
    order = list(funcs) + [None] * (count - len(funcs))
    attempts = 0
    for slot in order:
        while True:
            attempts += 1
            if attempts > 5000:
                sys.exit("make_trajectories.py: could not find enough distinct sessions")
            f = slot or rng.choices(funcs, weights)[0]
            text, calls, expect = f(rng)
            key = json.dumps(calls, sort_keys=True)
            if key not in seen:
                break
        got = outcome(calls)
        if got != expect:
            sys.exit(f"make_trajectories.py: {f.__name__} expected {expect}, adapter gave {got}: {calls}")
        seen.add(key)
        out.append({"id": f"foodbank-{len(out) + 1:03d}", "instruction": text, "calls": calls})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count", type=int, default=70)
    args = parser.parse_args()
    rows = generate(args.seed, args.count)
    fd, tmp = tempfile.mkstemp(dir=HERE, suffix=".tmp")
    with os.fdopen(fd, "w") as fh:
        for row in rows:
            fh.write(json.dumps(row) + "\n")
    os.replace(tmp, HERE / "trajectories.jsonl")
    calls = sum(len(r["calls"]) for r in rows)
    failing = sum(x.count(False) for x in (outcome(r["calls"]) for r in rows))
    print(f"{len(rows)} trajectories, {calls} calls, {failing} failing ({failing / calls:.0%})")


if __name__ == "__main__":
    main()
