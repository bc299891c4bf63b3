"""Write trajectories.jsonl: seeded support sessions of the repair workshop, checked against adapter.py.

Each template builds one session on a fresh workshop reset to data.json, choosing records from the live
state, and states for every call whether the real system must accept or refuse it; a mismatch aborts.
Run: python make_trajectories.py  (deterministic: the same seed writes the same bytes).
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import adapter  # noqa: E402

SEED = 20250612
ISSUES = {
    "classic": [
        "Chain slipping under load",
        "Rear brake squealing",
        "Flat rear tyre",
        "Saddle clamp loose",
        "Front light not working",
        "Bell missing",
        "Gears skipping",
    ],
    "ebike": [
        "Battery drains overnight",
        "Assist cuts out",
        "Front brake rubbing",
        "Rear light dead",
        "Display blank",
        "Flat front tyre",
    ],
    "cargo": ["Cargo box lid loose", "Flat rear tyre", "Brakes weak when loaded", "Kickstand bent"],
}
CERTIFIED = [m for m, v in adapter.MECHANICS.items() if v["ebike_certified"]]
REASONS = [
    "fault could not be reproduced",
    "duplicate of a report handled on site",
    "rider report withdrawn",
    "bike to be inspected at the next station round",
]


class Session:
    """One trajectory being built: runs each call on the adapter and checks the expected outcome."""

    def __init__(self, data):
        self.ws = adapter.make()
        self.ws.reset(data)
        self.calls = []

    @property
    def db(self):
        return self.ws.db

    def do(self, name, args, ok=True):
        res = self.ws.call(name, args)
        if res["ok"] != ok:
            raise SystemExit("make_trajectories.py: %s(%s) gave %s, expected ok=%s" % (name, args, res, ok))
        self.calls.append({"name": name, "arguments": args})
        return res["output"]


def bikes(s, statuses, free=None):
    out = [b for b in sorted(s.db["bikes"].values(), key=lambda b: b["bike_id"]) if b["status"] in statuses]
    if free is not None:
        out = [b for b in out if (b["open_ticket_id"] is None) == free]
    return out


def tickets(s, statuses, pred=lambda t: True):
    return [
        t for t in sorted(s.db["tickets"].values(), key=lambda t: t["ticket_id"]) if t["status"] in statuses and pred(t)
    ]


def model_of(s, t):
    return s.db["bikes"][t["bike_id"]]["model"]


def active(s, mech):
    return sum(1 for t in s.db["tickets"].values() if t["mechanic"] == mech and t["status"] in adapter.ACTIVE)


def eligible(s, t, exclude=None):
    ms = CERTIFIED if model_of(s, t) == "ebike" else sorted(adapter.MECHANICS)
    return [m for m in ms if m != exclude and m != t["mechanic"] and active(s, m) < adapter.MAX_ACTIVE]


def fitting(s, t, in_stock=True):
    m = model_of(s, t)
    return [
        p
        for p in sorted(s.db["parts"].values(), key=lambda p: p["part_id"])
        if m in p["fits"] and (p["stock"] > 0) == in_stock
    ]


def room(s):
    return [
        x
        for x in sorted(s.db["stations"].values(), key=lambda x: x["station_id"])
        if x["status"] == "active" and x["docked"] < x["capacity"]
    ]


def hours(r):
    return r.choice([0.5, 0.75, 1.0, 1.25, 1.5, 2.0])


# ---- sessions that succeed ---------------------------------------------------------------
def t_open(s, r):
    b = r.choice(bikes(s, ("available", "flagged"), free=True))
    issue, prio = r.choice(ISSUES[b["model"]]), r.choice(["low", "normal", "normal", "urgent"])
    s.do("get_bike", {"bike_id": b["bike_id"]})
    args = {"bike_id": b["bike_id"], "issue": issue, "priority": prio}
    if r.random() < 0.5:
        args["labour_hours"] = hours(r)
    s.do("open_ticket", args)
    return "A rider reported bike %s: '%s'. Open a repair ticket for it, priority %s." % (b["bike_id"], issue, prio)


def t_open_assign(s, r):
    b = r.choice(bikes(s, ("available", "flagged"), free=True))
    issue = r.choice(ISSUES[b["model"]])
    t = s.do("open_ticket", {"bike_id": b["bike_id"], "issue": issue})
    m = r.choice(eligible(s, t))
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": m})
    return "Station staff say bike %s has this fault: %s. Open a ticket and give it to %s." % (b["bike_id"], issue, m)


def t_assign_open(s, r):
    t = r.choice(tickets(s, ("open",)))
    s.do("search_tickets", {"status": "open"})
    m = r.choice(eligible(s, t))
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": m})
    return "Find the unassigned tickets and assign %s (bike %s) to %s." % (t["ticket_id"], t["bike_id"], m)


def t_start(s, r):
    t = r.choice(tickets(s, ("assigned",)))
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    s.do("start_repair", {"ticket_id": t["ticket_id"]})
    return "%s has picked up the bike of ticket %s; mark the repair as started." % (t["mechanic"], t["ticket_id"])


def t_fit(s, r):
    t = r.choice(tickets(s, ("in_progress",)))
    m = model_of(s, t)
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    s.do("list_parts", {"model": m, "in_stock_only": True})
    p = r.choice(fitting(s, t))
    q = r.randint(1, min(2, p["stock"]))
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"], "quantity": q})
    return "The mechanic on %s fitted %d x %s. Record it on the ticket." % (t["ticket_id"], q, p["name"])


def t_fit_quote(s, r):
    t = r.choice(tickets(s, ("in_progress",)))
    p = r.choice(fitting(s, t))
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"]})
    s.do("quote_repair", {"ticket_id": t["ticket_id"]})
    return "Add one %s to ticket %s and tell me what the repair will cost." % (p["name"], t["ticket_id"])


def t_remove(s, r):
    t = r.choice(tickets(s, ("in_progress",), lambda t: t["parts"]))
    item = r.choice(t["parts"])
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    s.do("remove_part", {"ticket_id": t["ticket_id"], "part_id": item["part_id"]})
    return "On ticket %s the %s was not needed after all; take it off the ticket." % (t["ticket_id"], item["part_id"])


def t_complete(s, r):
    t = r.choice(tickets(s, ("in_progress",)))
    st, h = r.choice(room(s)), hours(r)
    s.do("quote_repair", {"ticket_id": t["ticket_id"], "labour_hours": h})
    s.do("complete_ticket", {"ticket_id": t["ticket_id"], "station_id": st["station_id"], "labour_hours": h})
    return "Ticket %s is done after %s hours of work. Quote it, then close it and dock the bike at %s." % (
        t["ticket_id"],
        h,
        st["name"],
    )


def t_cancel(s, r):
    t = r.choice(tickets(s, ("open", "assigned")))
    reason = r.choice(REASONS)
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    s.do("cancel_ticket", {"ticket_id": t["ticket_id"], "reason": reason})
    return "Cancel ticket %s: %s." % (t["ticket_id"], reason)


def t_full(s, r):
    b = r.choice(bikes(s, ("available", "flagged"), free=True))
    issue = r.choice(ISSUES[b["model"]])
    s.do("get_bike", {"bike_id": b["bike_id"]})
    t = s.do("open_ticket", {"bike_id": b["bike_id"], "issue": issue, "priority": "urgent"})
    m = r.choice(eligible(s, t))
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": m})
    s.do("start_repair", {"ticket_id": t["ticket_id"]})
    p = r.choice(fitting(s, t))
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"]})
    return (
        "Urgent: bike %s, '%s'. Open the ticket, give it to %s, who is collecting the bike now, and record "
        "one %s fitted." % (b["bike_id"], issue, m, p["name"])
    )


def t_station(s, r):
    st = r.choice(
        [
            x
            for x in s.db["stations"]
            if any(b["station_id"] == x and b["open_ticket_id"] for b in s.db["bikes"].values())
        ]
    )
    found = s.do("search_tickets", {"station_id": st})
    s.do("get_ticket", {"ticket_id": r.choice(found)["ticket_id"]})
    return "Which bikes docked at %s have a ticket? Show me the details of one of them." % st


def t_model_quote(s, r):
    model, status = r.choice(
        [
            ("ebike", "in_progress"),
            ("classic", "completed"),
            ("cargo", "assigned"),
            ("classic", "open"),
            ("ebike", "completed"),
            ("classic", "in_progress"),
        ]
    )
    found = s.do("search_tickets", {"model": model, "status": status})
    t = r.choice(found)
    s.do("quote_repair", {"ticket_id": t["ticket_id"]})
    return "List the %s tickets of %s bikes and give me a cost estimate for %s." % (status, model, t["ticket_id"])


def t_reassign(s, r):
    t = r.choice(tickets(s, ("assigned",), lambda t: eligible(s, t)))
    m = r.choice(eligible(s, t))
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": m})
    return "%s is off sick; move ticket %s to %s." % (t["mechanic"], t["ticket_id"], m)


def t_start_finish(s, r):
    t = r.choice(tickets(s, ("assigned",)))
    s.do("start_repair", {"ticket_id": t["ticket_id"]})
    p = r.choice(fitting(s, t))
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"]})
    st, h = r.choice(room(s)), hours(r)
    s.do("complete_ticket", {"ticket_id": t["ticket_id"], "station_id": st["station_id"], "labour_hours": h})
    return "Quick fix on ticket %s: bike collected, one %s fitted, %s h of work, back at %s." % (
        t["ticket_id"],
        p["name"],
        h,
        st["station_id"],
    )


def t_mechanic_load(s, r):
    m = r.choice(sorted(adapter.MECHANICS))
    s.do("search_tickets", {"mechanic": m, "status": "assigned"})
    s.do("search_tickets", {"mechanic": m, "status": "in_progress"})
    return "How many active tickets does %s have right now?" % m


# ---- sessions with a refused call ---------------------------------------------------------
def f_open_blocked(s, r):
    b = r.choice(bikes(s, ("retired", "in_workshop")))
    s.do("get_bike", {"bike_id": b["bike_id"]})
    s.do("open_ticket", {"bike_id": b["bike_id"], "issue": r.choice(ISSUES[b["model"]])}, ok=False)
    return "Open a ticket for bike %s, a rider says it is faulty." % b["bike_id"]


def f_open_twice(s, r):
    b = r.choice(bikes(s, ("flagged",), free=False))
    s.do("open_ticket", {"bike_id": b["bike_id"], "issue": r.choice(ISSUES[b["model"]])}, ok=False)
    s.do("get_ticket", {"ticket_id": b["open_ticket_id"]})
    return "Bike %s has another complaint; open a ticket, or show me the one it already has." % b["bike_id"]


def f_uncertified(s, r):
    t = r.choice(tickets(s, ("open",), lambda t: model_of(s, t) == "ebike"))
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": "MEC-DEV"}, ok=False)
    m = r.choice(eligible(s, t))
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": m})
    return "Give e-bike ticket %s to Dev; if that is not allowed, to %s." % (t["ticket_id"], m)


def f_overloaded(s, r):
    t = r.choice(tickets(s, ("open",), lambda t: model_of(s, t) != "ebike"))
    s.do("search_tickets", {"mechanic": "MEC-BEN"})
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": "MEC-BEN"}, ok=False)
    return "Assign ticket %s to Ben Okafor." % t["ticket_id"]


def f_no_stock(s, r):
    t = r.choice(tickets(s, ("in_progress",), lambda t: fitting(s, t, in_stock=False)))
    p = r.choice(fitting(s, t, in_stock=False))
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"]}, ok=False)
    s.do("list_parts", {"model": model_of(s, t), "in_stock_only": True})
    return "Record a %s on ticket %s; if we have none, show me what is in stock for that bike." % (
        p["name"],
        t["ticket_id"],
    )


def f_wrong_model(s, r):
    t = r.choice(tickets(s, ("in_progress",)))
    m = model_of(s, t)
    p = r.choice([p for p in sorted(s.db["parts"].values(), key=lambda p: p["part_id"]) if m not in p["fits"]])
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"]}, ok=False)
    return "Put a %s on ticket %s." % (p["name"], t["ticket_id"])


def f_full_station(s, r):
    t = r.choice(tickets(s, ("in_progress",)))
    bad = r.choice(["ST-102", "ST-106"])
    st, h = r.choice(room(s)), hours(r)
    s.do("complete_ticket", {"ticket_id": t["ticket_id"], "station_id": bad, "labour_hours": h}, ok=False)
    s.do("complete_ticket", {"ticket_id": t["ticket_id"], "station_id": st["station_id"], "labour_hours": h})
    return "Close ticket %s (%s h) and dock the bike at %s; if that station cannot take it, use %s." % (
        t["ticket_id"],
        h,
        bad,
        st["station_id"],
    )


def f_cancel_in_progress(s, r):
    t = r.choice(tickets(s, ("in_progress", "completed")))
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    s.do("cancel_ticket", {"ticket_id": t["ticket_id"], "reason": r.choice(REASONS)}, ok=False)
    return "Cancel ticket %s, the rider withdrew the complaint." % t["ticket_id"]


def f_start_unassigned(s, r):
    t = r.choice(tickets(s, ("open",)))
    s.do("start_repair", {"ticket_id": t["ticket_id"]}, ok=False)
    m = r.choice(eligible(s, t))
    s.do("assign_ticket", {"ticket_id": t["ticket_id"], "mechanic": m})
    s.do("start_repair", {"ticket_id": t["ticket_id"]})
    return "%s is collecting the bike of ticket %s now; start the repair (assign it to them first if needed)." % (
        m,
        t["ticket_id"],
    )


def f_missing(s, r):
    kind = r.choice(["bike", "ticket"])
    if kind == "bike":
        bid = "BK-%d" % r.choice([2099, 2310, 1987])
        s.do("get_bike", {"bike_id": bid}, ok=False)
        return "What is the status of bike %s?" % bid
    tid = "RT-%04d" % r.choice([31, 44, 120])
    s.do("get_ticket", {"ticket_id": tid}, ok=False)
    s.do("search_tickets", {"status": "open"})
    return "Look up ticket %s; if it does not exist, list the open tickets." % tid


def f_quote_cancelled(s, r):
    t = r.choice(tickets(s, ("cancelled",)))
    s.do("quote_repair", {"ticket_id": t["ticket_id"]}, ok=False)
    return "What would ticket %s have cost?" % t["ticket_id"]


def f_remove_absent(s, r):
    t = r.choice(tickets(s, ("in_progress",)))
    have = {i["part_id"] for i in t["parts"]}
    p = r.choice([p for p in sorted(s.db["parts"]) if p not in have])
    s.do("remove_part", {"ticket_id": t["ticket_id"], "part_id": p}, ok=False)
    s.do("get_ticket", {"ticket_id": t["ticket_id"]})
    return "Take %s off ticket %s." % (p, t["ticket_id"])


def f_part_too_early(s, r):
    t = r.choice(tickets(s, ("assigned",)))
    p = r.choice(fitting(s, t))
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"]}, ok=False)
    s.do("start_repair", {"ticket_id": t["ticket_id"]})
    s.do("add_part", {"ticket_id": t["ticket_id"], "part_id": p["part_id"]})
    return "Ticket %s needs a %s; the mechanic has the bike now." % (t["ticket_id"], p["name"])


SUCCESS = [
    t_open,
    t_open_assign,
    t_assign_open,
    t_start,
    t_fit,
    t_fit_quote,
    t_remove,
    t_complete,
    t_cancel,
    t_full,
    t_station,
    t_model_quote,
    t_reassign,
    t_start_finish,
    t_mechanic_load,
]
FAILING = [
    f_open_blocked,
    f_open_twice,
    f_uncertified,
    f_overloaded,
    f_no_stock,
    f_wrong_model,
    f_full_station,
    f_cancel_in_progress,
    f_start_unassigned,
    f_missing,
    f_quote_cancelled,
    f_remove_absent,
    f_part_too_early,
]


def main():
    r = random.Random(SEED)
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as f:
        data = json.load(f)
    plan = [fn for fn in SUCCESS for _ in range(3)] + FAILING + r.sample(FAILING, 6)
    plan += [r.choice(SUCCESS) for _ in range(72 - len(plan))]
    r.shuffle(plan)
    lines, n_calls, n_fail = [], 0, 0
    for i, fn in enumerate(plan, 1):
        s = Session(data)
        instruction = fn(s, r)
        lines.append(
            json.dumps(
                {"id": "repairs-%03d" % i, "instruction": instruction, "calls": s.calls},
                ensure_ascii=False,
                sort_keys=True,
            )
        )
        n_calls += len(s.calls)
    for line in lines:  # independent replay check from data.json
        traj, ws = json.loads(line), adapter.make()
        ws.reset(data)
        n_fail += sum(not ws.call(c["name"], c["arguments"])["ok"] for c in traj["calls"])
    share = n_fail / n_calls
    if not 0.10 <= share <= 0.15:
        raise SystemExit(
            "make_trajectories.py: %d of %d calls fail (%.1f%%), outside 10-15%%" % (n_fail, n_calls, 100 * share)
        )
    tmp = os.path.join(HERE, "trajectories.jsonl.tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, os.path.join(HERE, "trajectories.jsonl"))
    print("trajectories: %d  calls: %d  failing: %d (%.1f%%)" % (len(lines), n_calls, n_fail, 100 * share))
    return 0


if __name__ == "__main__":
    sys.exit(main())
