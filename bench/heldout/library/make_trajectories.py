"""Write trajectories.jsonl: seeded support-desk sessions over data.json, each checked against the adapter.

Each scenario builds a session (an instruction and 1-5 calls) from randomly chosen records and says how many of
its calls the real system refuses. A candidate is kept only when replaying it on the adapter from data.json fails
exactly the calls the scenario intends (the last call of a refused session, or the named steps); otherwise another
candidate is drawn. Run: python make_trajectories.py  (rewrites trajectories.jsonl byte-identically for a seed).
"""

import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import adapter  # noqa: E402

SEED = 20250314
TARGET = 70


def C(name, **arguments):
    return {"name": name, "arguments": arguments}


class Pick:
    """Random choices over the initial data."""

    def __init__(self, data, rng):
        self.d, self.rng = data, rng

    def one(self, items):
        items = sorted(items)
        return self.rng.choice(items) if items else None

    def members(self, pred=lambda m: True):
        return [k for k, m in self.d["members"].items() if pred(m)]

    def loans(self, pred=lambda loan: True):
        return [k for k, loan in self.d["loans"].items() if pred(loan)]

    def copies(self, pred=lambda c: True):
        return [k for k, c in self.d["copies"].items() if pred(c)]

    def name(self, mid):
        return self.d["members"][mid]["name"]

    def title_of_copy(self, cid):
        return self.d["titles"][self.d["copies"][cid]["title_id"]]

    def word(self, title):
        words = [w for w in title.replace("'s", "").split() if len(w) > 3]
        return self.rng.choice(words)


# Each scenario: (pick) -> (instruction, calls, indexes of calls that must fail) or None when no candidate.


def borrow_by_search(p):
    if p.rng.random() < 0.85:
        mid = p.one(p.members(lambda m: m["status"] == "active" and m["fines_balance"] < 5 and m["loans_out"] < 5))
    else:
        mid = p.one(p.members(lambda m: m["status"] == "active"))
    cid = p.one(p.copies(lambda c: c["status"] == "available"))
    title = p.title_of_copy(cid)
    m = p.d["members"][mid]
    calls = [
        C("get_member", member_id=mid),
        C("search_catalog", query=p.word(title["title"]), available_only=True),
        C("get_title", title_id=title["title_id"]),
        C("checkout_copy", member_id=mid, copy_id=cid),
    ]
    has_it = any(
        loan["member_id"] == mid and loan["title_id"] == title["title_id"] and loan["status"] == "active"
        for loan in p.d["loans"].values()
    )
    ok = m["fines_balance"] < 5 and m["loans_out"] < 5 and not title["holds_queue"] and not has_it
    instr = (
        f"I'm {m['name']}, card {mid}. I'd like to borrow '{title['title']}'; I have copy {cid} "
        f"from the {p.d['copies'][cid]['branch']} shelf in my hands."
    )
    return instr, calls, [] if ok else [3]


def borrow_blocked(p):
    kind = p.rng.choice(["fines", "limit", "status", "repair"])
    if kind == "fines":
        mid = p.one(p.members(lambda m: m["status"] == "active" and m["fines_balance"] >= 5))
    elif kind == "limit":
        mid = p.one(p.members(lambda m: m["loans_out"] >= 5))
    elif kind == "status":
        mid = p.one(p.members(lambda m: m["status"] != "active"))
    else:
        mid = p.one(p.members(lambda m: m["status"] == "active" and m["fines_balance"] < 5 and m["loans_out"] < 5))
    if kind == "repair":
        cid = p.one(p.copies(lambda c: c["status"] in ("in_repair", "lost", "on_loan")))
    else:
        cid = p.one(p.copies(lambda c: c["status"] == "available"))
    m, title = p.d["members"][mid], p.title_of_copy(cid)
    instr = f"Member {m['name']} ({mid}) wants to check out copy {cid} of '{title['title']}'."
    return instr, [C("get_member", member_id=mid), C("checkout_copy", member_id=mid, copy_id=cid)], [1]


def pay_then_borrow(p):
    mid = p.one(p.members(lambda m: m["status"] == "active" and m["fines_balance"] >= 5))
    m = p.d["members"][mid]
    cid = p.one(p.copies(lambda c: c["status"] == "available"))
    title = p.title_of_copy(cid)
    bal = m["fines_balance"]
    calls = [
        C("checkout_copy", member_id=mid, copy_id=cid),
        C("get_member", member_id=mid),
        C("pay_fine", member_id=mid, amount=bal),
        C("checkout_copy", member_id=mid, copy_id=cid),
    ]
    instr = (
        f"{m['name']} ({mid}) is at the desk with '{title['title']}' (copy {cid}). If the checkout is refused "
        f"because of fines, they will pay the whole balance and try again."
    )
    return instr, calls, [0]


def return_items(p):
    mid = p.one(p.members(lambda m: m["loans_out"] > 0))
    m = p.d["members"][mid]
    active = sorted(p.loans(lambda loan: loan["member_id"] == mid and loan["status"] == "active"))
    chosen = p.rng.sample(active, min(len(active), p.rng.choice([1, 1, 2])))
    calls = [C("list_member_loans", member_id=mid)]
    calls += [C("return_copy", copy_id=p.d["loans"][lid]["copy_id"]) for lid in sorted(chosen)]
    if p.rng.random() < 0.5:
        calls.append(C("get_member", member_id=mid))
    copies = " and ".join(p.d["loans"][lid]["copy_id"] for lid in sorted(chosen))
    them = "them" if len(chosen) > 1 else "it"
    instr = f"{m['name']} (card {mid}) dropped off {copies}. Check {them} in and tell them if any fine was charged."
    return instr, calls, []


def return_not_on_loan(p):
    cid = p.one(p.copies(lambda c: c["status"] != "on_loan"))
    instr = f"A patron left copy {cid} in the return slot at {p.d['copies'][cid]['branch']}. Check it in."
    return instr, [C("return_copy", copy_id=cid)], [0]


def return_then_hold_pickup(p):
    tids = [t for t, v in p.d["titles"].items() if v["holds_queue"]]
    tid = p.one(tids)
    cid = p.one(p.copies(lambda c: c["title_id"] == tid and c["status"] == "on_loan"))
    first = p.d["titles"][tid]["holds_queue"][0]
    other = p.one(
        p.members(lambda m: m["status"] == "active" and m["member_id"] not in p.d["titles"][tid]["holds_queue"])
    )
    who = first if p.rng.random() < 0.7 else other
    calls = [
        C("return_copy", copy_id=cid),
        C("get_title", title_id=tid),
        C("checkout_copy", member_id=who, copy_id=cid),
    ]
    instr = (
        f"Copy {cid} of '{p.d['titles'][tid]['title']}' just came back. {p.name(who)} ({who}) is asking to take "
        f"it home right away."
    )
    m = p.d["members"][who]
    ok = who == first and m["fines_balance"] < 5 and m["loans_out"] < 5 and m["status"] == "active"
    return instr, calls, [] if ok else [2]


def _renewable(p, loan):
    m, title = p.d["members"][loan["member_id"]], p.d["titles"][loan["title_id"]]
    return (
        m["status"] == "active"
        and m["fines_balance"] < 5
        and loan["renewals"] < 2
        and loan["due_date"] >= "2025-03-14"
        and not title["holds_queue"]
    )


def renew(p):
    if p.rng.random() < 0.6:
        lid = p.one(p.loans(lambda loan: loan["status"] == "active" and _renewable(p, loan)))
    else:
        lid = p.one(p.loans(lambda loan: loan["status"] == "active"))
    loan = p.d["loans"][lid]
    mid = loan["member_id"]
    title = p.d["titles"][loan["title_id"]]
    instr = f"This is {p.name(mid)}, card {mid}. Can I keep '{title['title']}' a bit longer?"
    calls = [C("list_member_loans", member_id=mid), C("renew_loan", loan_id=lid)]
    return instr, calls, [] if _renewable(p, loan) else [1]


def _can_hold(p, mid, tid):
    home = p.d["members"][mid]["home_branch"]
    on_shelf = any(
        c["title_id"] == tid and c["branch"] == home and c["status"] == "available" for c in p.d["copies"].values()
    )
    has_it = any(
        loan["member_id"] == mid and loan["title_id"] == tid and loan["status"] == "active"
        for loan in p.d["loans"].values()
    )
    return not on_shelf and not has_it and mid not in p.d["titles"][tid]["holds_queue"]


def place_hold(p):
    mid = p.one(p.members(lambda m: m["status"] == "active"))
    m = p.d["members"][mid]
    tids = sorted(p.d["titles"])
    if p.rng.random() < 0.7:
        tids = [t for t in tids if _can_hold(p, mid, t)] or tids
    tid = p.rng.choice(tids)
    title = p.d["titles"][tid]
    calls = []
    if p.rng.random() < 0.5:
        calls.append(C("search_catalog", author=p.rng.choice(title["authors"]).split()[-1]))
    else:
        calls.append(C("search_catalog", genre=p.rng.choice(title["genres"]), branch=m["home_branch"]))
    calls += [C("get_title", title_id=tid), C("place_hold", member_id=mid, title_id=tid)]
    ok = _can_hold(p, mid, tid)
    instr = f"{m['name']} ({mid}, home branch {m['home_branch']}) would like to reserve '{title['title']}'."
    return instr, calls, [] if ok else [2]


def cancel_hold(p):
    pairs = sorted((m, t) for t, v in p.d["titles"].items() for m in v["holds_queue"])
    mid, tid = p.rng.choice(pairs)
    if p.rng.random() < 0.2:  # a hold the member does not have
        tid = p.one([t for t, v in p.d["titles"].items() if mid not in v["holds_queue"]])
        fail = [1]
    else:
        fail = []
    instr = f"{p.name(mid)} ({mid}) no longer needs '{p.d['titles'][tid]['title']}'; please drop the reservation."
    return instr, [C("get_member", member_id=mid), C("cancel_hold", member_id=mid, title_id=tid)], fail


def pay(p):
    mid = p.one(p.members(lambda m: m["fines_balance"] > 0))
    bal = p.d["members"][mid]["fines_balance"]
    kind = p.rng.choice(["all", "part", "part", "too_much"])
    amount = {"all": bal, "part": round(min(bal, p.rng.choice([1, 2, 2.5, 5])), 2), "too_much": bal + 5}[kind]
    instr = f"{p.name(mid)} ({mid}) wants to pay {amount:.2f} toward their fines."
    calls = [C("quote_fines", member_id=mid), C("pay_fine", member_id=mid, amount=amount)]
    if kind != "too_much" and p.rng.random() < 0.5:
        calls.append(C("get_member", member_id=mid))
    return instr, calls, [1] if kind == "too_much" else []


def settle_overdue(p):
    loans = p.loans(lambda loan: loan["status"] == "active" and loan["due_date"] < "2025-03-14")
    lid = p.one(loans)
    loan = p.d["loans"][lid]
    mid = loan["member_id"]
    m = p.d["members"][mid]
    fine = min(10.0, 0.25 * adapter._days_overdue(loan))
    total = round(m["fines_balance"] + fine, 2)
    calls = [
        C("quote_fines", member_id=mid),
        C("return_copy", copy_id=loan["copy_id"]),
        C("pay_fine", member_id=mid, amount=total),
        C("get_member", member_id=mid),
    ]
    instr = (
        f"{m['name']} ({mid}) is returning the overdue copy {loan['copy_id']} and wants to clear everything "
        f"they owe today."
    )
    return instr, calls, []


def lost(p):
    lid = p.one(p.loans(lambda loan: loan["status"] == "active"))
    loan = p.d["loans"][lid]
    mid = loan["member_id"]
    title = p.d["titles"][loan["title_id"]]
    calls = [C("list_member_loans", member_id=mid), C("report_lost", loan_id=lid)]
    if p.rng.random() < 0.5:
        calls.append(C("get_member", member_id=mid))
    instr = f"{p.name(mid)} ({mid}) lost their copy of '{title['title']}'. Record it and tell them the charge."
    return instr, calls, []


def lost_already_closed(p):
    lid = p.one(p.loans(lambda loan: loan["status"] != "active"))
    loan = p.d["loans"][lid]
    mid = loan["member_id"]
    calls = [C("list_member_loans", member_id=mid, status="all"), C("report_lost", loan_id=lid)]
    instr = f"{p.name(mid)} ({mid}) says they can't find '{p.d['titles'][loan['title_id']]['title']}' (loan {lid})."
    return instr, calls, [1]


def unknown_record(p):
    kind = p.rng.choice(["member", "copy", "loan", "title"])
    if kind == "member":
        mid = f"M{p.rng.randint(1011, 1099)}"
        return f"Look up the account of card {mid}.", [C("get_member", member_id=mid)], [0]
    if kind == "copy":
        mid = p.one(p.members(lambda m: m["status"] == "active" and m["fines_balance"] < 5 and m["loans_out"] < 5))
        cid = f"C{p.rng.randint(20030, 20099)}"
        instr = f"{p.name(mid)} ({mid}) wants to borrow the item with barcode {cid}."
        return instr, [C("get_member", member_id=mid), C("checkout_copy", member_id=mid, copy_id=cid)], [1]
    if kind == "loan":
        lid = f"L{p.rng.randint(7100, 7199)}"
        return f"Renew loan {lid} please.", [C("renew_loan", loan_id=lid)], [0]
    mid = p.one(p.members(lambda m: m["status"] == "active"))
    tid = f"T{p.rng.randint(313, 399)}"
    return f"{p.name(mid)} ({mid}) wants a hold on title {tid}.", [C("place_hold", member_id=mid, title_id=tid)], [0]


def browse(p):
    m = p.one(p.members(lambda m: True))
    branch = p.d["members"][m]["home_branch"]
    title = p.d["titles"][p.one(list(p.d["titles"]))]
    kind = p.rng.choice(["genre", "author", "query"])
    if kind == "genre":
        calls = [C("search_catalog", genre=p.rng.choice(title["genres"]), branch=branch, available_only=True)]
        instr = f"{p.name(m)} ({m}) asks what {calls[0]['arguments']['genre']} books are on the shelf at {branch}."
    elif kind == "author":
        calls = [C("search_catalog", author=title["authors"][0])]
        instr = f"{p.name(m)} ({m}) asks which books by {title['authors'][0]} the library has."
    else:
        calls = [C("search_catalog", query=p.word(title["title"]))]
        instr = f"{p.name(m)} ({m}) is looking for a book with '{calls[0]['arguments']['query']}' in the title."
    calls.append(C("get_title", title_id=title["title_id"]))
    return instr, calls, []


SCENARIOS = [
    (borrow_by_search, 8),
    (borrow_blocked, 2),
    (pay_then_borrow, 1),
    (return_items, 7),
    (return_not_on_loan, 1),
    (return_then_hold_pickup, 3),
    (renew, 8),
    (place_hold, 6),
    (cancel_hold, 4),
    (pay, 5),
    (settle_overdue, 3),
    (lost, 3),
    (lost_already_closed, 2),
    (unknown_record, 3),
    (browse, 2),
]


def failing(ref, data, calls):
    """Indexes of the calls the adapter refuses, replayed from data."""
    ref.reset(data)
    return [i for i, c in enumerate(calls) if not ref.call(c["name"], c["arguments"])["ok"]]


def generate(data, seed=SEED, n=TARGET):
    """n checked trajectories, deterministic for a seed."""
    rng = random.Random(seed)
    pick, ref = Pick(data, rng), adapter.make()
    funcs, weights = [f for f, _ in SCENARIOS], [w for _, w in SCENARIOS]
    out, seen, tries = [], set(), 0
    while len(out) < n:
        tries += 1
        if tries > 100 * n:
            raise SystemExit("make_trajectories: too few distinct candidates")
        func = rng.choices(funcs, weights)[0]
        instr, calls, expect = func(pick)
        key = instr
        if key in seen:
            continue
        got = failing(ref, data, calls)
        if got != expect:
            raise SystemExit(f"make_trajectories: {func.__name__} expected failures {expect}, got {got}: {calls}")
        seen.add(key)
        out.append({"id": f"library-{len(out):03d}", "instruction": instr, "calls": calls})
    return out


def main():
    with open(os.path.join(HERE, "data.json"), encoding="utf-8") as f:
        data = json.load(f)
    trajs = generate(data)
    n_calls = sum(len(t["calls"]) for t in trajs)
    n_fail = sum(len(failing(adapter.make(), data, t["calls"])) for t in trajs)
    share = n_fail / n_calls
    if not 0.10 <= share <= 0.15:
        raise SystemExit(f"make_trajectories: failing share {share:.3f} outside 0.10-0.15")
    path = os.path.join(HERE, "trajectories.jsonl")
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for t in trajs:
            f.write(json.dumps(t, ensure_ascii=False, sort_keys=True) + "\n")
    os.replace(tmp, path)
    print(f"trajectories {len(trajs)}, calls {n_calls}, failing {n_fail} ({share:.1%})")


if __name__ == "__main__":
    main()
