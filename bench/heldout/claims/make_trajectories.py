"""Generate trajectories.jsonl: seeded support-agent sessions, each checked against the adapter.

Every trajectory starts from data.json. A session is built step by step against a live adapter, so
later calls can use earlier outputs (a new claim id, a line item id), like an agent would.
Run: python make_trajectories.py  (rewrites trajectories.jsonl atomically; prints counts)
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import adapter  # noqa: E402

SEED = 20260301
N_TRAJECTORIES = 72

DESCRIPTIONS = {
    "water": [
        "Washing machine hose split and flooded the laundry room",
        "Roof leak during heavy rain stained the bedroom ceiling",
        "Frozen pipe burst in the crawlspace",
    ],
    "fire": ["Candle left burning set the living-room curtains alight", "Dryer vent fire damaged the laundry room"],
    "wind_hail": [
        "Hailstorm cracked skylights and dented gutters",
        "High winds tore shingles off the south slope of the roof",
    ],
    "theft": ["Bicycle and power tools stolen from the garage", "Jewelry taken during a daytime burglary"],
    "liability": [
        "Visitor tripped on a loose paver and sprained an ankle",
        "Tree limb from the yard fell on a neighbor's car",
    ],
}
ITEMS = {
    "dwelling": [
        ("Drywall and paint", 2380.0),
        ("Roof decking and shingles", 6150.0),
        ("Flooring replacement", 4725.5),
        ("Window replacement", 1890.0),
    ],
    "personal_property": [
        ("Sofa", 1499.99),
        ("Television", 899.0),
        ("Bicycle", 1250.0),
        ("Clothing and linens", 640.25),
    ],
    "additional_living": [("Hotel stay, 4 nights", 720.0), ("Meals during displacement", 310.4)],
    "liability": [("Third-party medical bills", 3260.0), ("Neighbor's vehicle repair", 2145.75)],
}
PERILS = list(DESCRIPTIONS)


class Session:
    """One trajectory being built against a live adapter."""

    def __init__(self, data):
        self.desk = adapter.make()
        self.desk.reset(data)
        self.calls = []
        self.failed = 0

    def run(self, name, arguments):
        """Record and execute a call; returns the adapter's result."""
        self.calls.append({"name": name, "arguments": arguments})
        res = self.desk.call(name, arguments)
        self.failed += 0 if res["ok"] else 1
        return res

    def st(self):
        return self.desk.state()


def _pick(rng, seq):
    return seq[rng.randrange(len(seq))]


def _date_in(rng, start, end):
    y, m = int(start[:4]), int(start[5:7])
    m2 = m + rng.randrange(1, 9)
    y += (m2 - 1) // 12
    m2 = (m2 - 1) % 12 + 1
    d = "%04d-%02d-%02d" % (y, m2, rng.randrange(1, 28))
    return d if d <= end else end


def _claims(s, *statuses):
    return sorted(c for c, r in s.st()["claims"].items() if r["status"] in statuses)


def _holder_state(st, claim):
    return st["policyholders"][claim["holder_id"]]["address"]["state"]


def t_file(rng, s):
    st = s.st()
    pid = _pick(rng, sorted(p for p, r in st["policies"].items() if r["status"] == "active"))
    pol = st["policies"][pid]
    holder = st["policyholders"][pol["holder_id"]]
    peril = _pick(rng, PERILS)
    date = _date_in(rng, pol["start_date"], pol["end_date"])
    s.run("get_policy", {"policy_id": pid})
    res = s.run(
        "file_claim",
        {"policy_id": pid, "peril": peril, "incident_date": date, "description": _pick(rng, DESCRIPTIONS[peril])},
    )
    text = "%s calls about a %s loss on %s (policy %s). File the claim" % (
        holder["name"],
        peril.replace("_", "/"),
        date,
        pid,
    )
    if res["ok"] and rng.random() < 0.6:
        cid = res["output"]["id"]
        adj = s.run(
            "list_adjusters", {"region": holder["address"]["state"], "specialty": peril, "available_only": True}
        )
        if adj["ok"] and adj["output"]:
            s.run("assign_adjuster", {"claim_id": cid, "adjuster_id": adj["output"][0]["id"]})
            text += " and assign an available adjuster"
    return text + "."


def t_file_refused(rng, s):
    st = s.st()
    if rng.random() < 0.5:
        pid = _pick(rng, sorted(p for p, r in st["policies"].items() if r["status"] != "active"))
        date = st["policies"][pid]["end_date"][:8] + "01"
    else:
        pid = _pick(rng, sorted(p for p, r in st["policies"].items() if r["status"] == "active"))
        y = int(st["policies"][pid]["start_date"][:4]) - 1
        date = "%d-%s" % (y, st["policies"][pid]["start_date"][5:])
    pol = st["policies"][pid]
    peril = _pick(rng, PERILS)
    s.run("get_policy", {"policy_id": pid})
    s.run(
        "file_claim",
        {"policy_id": pid, "peril": peril, "incident_date": date, "description": _pick(rng, DESCRIPTIONS[peril])},
    )
    return "%s wants to file a %s claim for %s on policy %s." % (
        st["policyholders"][pol["holder_id"]]["name"],
        peril.replace("_", "/"),
        date,
        pid,
    )


def t_assign(rng, s):
    st = s.st()
    cid = _pick(rng, _claims(s, "submitted"))
    c = st["claims"][cid]
    region = _holder_state(st, c)
    s.run("get_claim", {"claim_id": cid})
    if rng.random() < 0.3:
        aid = _pick(rng, sorted(st["adjusters"]))
        s.run("assign_adjuster", {"claim_id": cid, "adjuster_id": aid})
        return "Assign adjuster %s to claim %s as the customer requested." % (aid, cid)
    adj = s.run("list_adjusters", {"region": region, "specialty": c["peril"], "available_only": True})
    if adj["output"]:
        s.run("assign_adjuster", {"claim_id": cid, "adjuster_id": adj["output"][-1]["id"]})
    return "Find an available %s adjuster in %s for claim %s and assign them." % (c["peril"], region, cid)


def t_items(rng, s):
    st = s.st()
    statuses = ("submitted", "under_review") if rng.random() < 0.85 else ("approved", "paid")
    cid = _pick(rng, _claims(s, *statuses))
    pol = st["policies"][st["claims"][cid]["policy_id"]]
    s.run("get_claim", {"claim_id": cid})
    cats = [k for k, v in sorted(pol["coverage"].items()) if v > 0]
    if rng.random() < 0.15:
        cats = sorted(pol["coverage"])
    added = []
    for _ in range(rng.randrange(1, 3)):
        cat = _pick(rng, cats)
        desc, amt = _pick(rng, ITEMS[cat])
        s.run("add_line_item", {"claim_id": cid, "category": cat, "description": desc, "amount": amt})
        added.append("%s (%s, $%.2f)" % (desc, cat, amt))
    s.run("compute_settlement", {"claim_id": cid})
    return "Add %s to claim %s and tell the policyholder the expected settlement." % (" and ".join(added), cid)


def t_remove(rng, s):
    st = s.st()
    cands = [c for c in _claims(s, "submitted", "under_review", "paid") if st["claims"][c]["line_items"]]
    cid = _pick(rng, cands)
    got = s.run("get_claim", {"claim_id": cid})
    items = got["output"]["line_items"]
    item = _pick(rng, items)["item_id"] if rng.random() < 0.85 else "LI-%d" % (len(items) + 3)
    s.run("remove_line_item", {"claim_id": cid, "item_id": item})
    if rng.random() < 0.5:
        s.run("compute_settlement", {"claim_id": cid})
    return "The policyholder withdrew line item %s from claim %s; remove it." % (item, cid)


def t_approve(rng, s):
    cid = _pick(rng, _claims(s, "under_review", "submitted") if rng.random() < 0.2 else _claims(s, "under_review"))
    s.run("get_claim", {"claim_id": cid})
    s.run("compute_settlement", {"claim_id": cid})
    res = s.run("decide_claim", {"claim_id": cid, "decision": "approve"})
    text = "The adjuster finished the inspection for claim %s; approve it" % cid
    if res["ok"] and rng.random() < 0.5:
        holder = s.st()["policyholders"][res["output"]["holder_id"]]
        s.run("get_policyholder", {"holder_id": holder["id"]})
        s.run("issue_payout", {"claim_id": cid, "method": "direct_deposit" if holder["bank_on_file"] else "check"})
        text += " and pay it out the way the policyholder prefers"
    return text + "."


def t_deny(rng, s):
    cid = _pick(rng, _claims(s, "under_review", "approved"))
    reason = _pick(
        rng, ["Damage predates the policy term", "Excluded: gradual seepage", "Loss not verified at inspection"]
    )
    s.run("get_claim", {"claim_id": cid})
    s.run("decide_claim", {"claim_id": cid, "decision": "deny", "reason": reason})
    return "Deny claim %s: %s." % (cid, reason.lower())


def t_payout(rng, s):
    st = s.st()
    statuses = ("approved",) if rng.random() < 0.75 else ("paid", "under_review")
    cid = _pick(rng, _claims(s, *statuses))
    c = st["claims"][cid]
    holder = st["policyholders"][c["holder_id"]]
    s.run("get_claim", {"claim_id": cid})
    method = "direct_deposit" if rng.random() < 0.6 else "check"
    s.run("issue_payout", {"claim_id": cid, "method": method})
    if rng.random() < 0.5:
        s.run("get_policy", {"policy_id": c["policy_id"]})
    return "%s asks for the payout on claim %s by %s." % (holder["name"], cid, method.replace("_", " "))


def t_search(rng, s):
    st = s.st()
    holder = st["policyholders"][_pick(rng, sorted(st["policyholders"]))]
    if rng.random() < 0.5:
        res = s.run("search_claims", {"holder_name": holder["name"].split()[-1].lower()})
        text = "%s asks about the status of their claims." % holder["name"]
    else:
        state = holder["address"]["state"]
        status = _pick(rng, ["submitted", "under_review", "approved"])
        res = s.run("search_claims", {"state": state, "status": status})
        text = "List the %s claims for properties in %s and check the first." % (status, state)
    if res["output"]:
        s.run("get_claim", {"claim_id": res["output"][0]["id"]})
    return text


def t_missing(rng, s):
    cid = "CLM-%06d" % rng.randrange(130, 200)
    s.run("get_claim", {"claim_id": cid})
    st = s.st()
    holder = st["policyholders"][_pick(rng, sorted(st["policyholders"]))]
    s.run("search_claims", {"holder_name": holder["name"].split()[0]})
    return "%s quotes claim number %s; find their claims." % (holder["name"], cid)


def t_full(rng, s):
    st = s.st()
    pid = _pick(rng, sorted(p for p, r in st["policies"].items() if r["status"] == "active"))
    pol = st["policies"][pid]
    holder = st["policyholders"][pol["holder_id"]]
    peril = _pick(rng, PERILS)
    date = _date_in(rng, pol["start_date"], pol["end_date"])
    res = s.run(
        "file_claim",
        {"policy_id": pid, "peril": peril, "incident_date": date, "description": _pick(rng, DESCRIPTIONS[peril])},
    )
    cid = res["output"]["id"]
    cat = _pick(rng, [k for k, v in sorted(pol["coverage"].items()) if v > 0])
    desc, amt = _pick(rng, ITEMS[cat])
    s.run("add_line_item", {"claim_id": cid, "category": cat, "description": desc, "amount": amt})
    adj = s.run("list_adjusters", {"region": holder["address"]["state"], "specialty": peril})
    if adj["output"]:
        s.run("assign_adjuster", {"claim_id": cid, "adjuster_id": adj["output"][0]["id"]})
    return "%s reports a %s loss on %s: %s for $%.2f. File it, add the item and get an adjuster." % (
        holder["name"],
        peril.replace("_", "/"),
        date,
        desc.lower(),
        amt,
    )


TEMPLATES = [
    (t_file, 10),
    (t_file_refused, 5),
    (t_assign, 9),
    (t_items, 9),
    (t_remove, 7),
    (t_approve, 10),
    (t_deny, 5),
    (t_payout, 7),
    (t_search, 6),
    (t_missing, 3),
    (t_full, 6),
]


def generate(data, seed=SEED, n=N_TRAJECTORIES):
    """Build n trajectories from data; returns (trajectories, calls, failed calls)."""
    rng = random.Random(seed)
    fns = [f for f, w in TEMPLATES for _ in range(w)]
    out, calls, failed = [], 0, 0
    for i in range(n):
        s = Session(data)
        instruction = _pick(rng, fns)(rng, s)
        out.append({"id": "claims-%03d" % (i + 1), "instruction": instruction, "calls": s.calls})
        calls += len(s.calls)
        failed += s.failed
    return out, calls, failed


def check(data, trajectories):
    """Replay every trajectory twice on fresh adapters and require identical results."""
    for t in trajectories:
        runs = []
        for _ in range(2):
            d = adapter.make()
            d.reset(data)
            runs.append([d.call(c["name"], c["arguments"]) for c in t["calls"]] + [d.state()])
        if runs[0] != runs[1]:
            raise SystemExit("trajectory %s does not replay deterministically" % t["id"])
        if not 1 <= len(t["calls"]) <= 5:
            raise SystemExit("trajectory %s has %d calls" % (t["id"], len(t["calls"])))


def main():
    with open(os.path.join(HERE, "data.json")) as f:
        data = json.load(f)
    trajs, calls, failed = generate(data)
    check(data, trajs)
    path = os.path.join(HERE, "trajectories.jsonl")
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for t in trajs:
            f.write(json.dumps(t, sort_keys=True) + "\n")
    os.replace(tmp, path)
    print("trajectories: %d  calls: %d  failing: %d (%.1f%%)" % (len(trajs), calls, failed, 100.0 * failed / calls))
    return 0


if __name__ == "__main__":
    sys.exit(main())
