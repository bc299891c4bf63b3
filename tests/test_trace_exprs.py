"""Learning computed values, list swaps, balance moves and checks from recorded calls (trace_exprs, trace_checks).

A hand-made rental shop is the "real system": `swap_gear` trades booked gear for other sizes of the same kit,
records the cost difference as a charge or a credit, moves a voucher's balance, and refuses unavailable sizes and
vouchers that cannot cover the difference. The learner sees only its recorded calls.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.expr_runtime import fg_check, fg_evaluate, fg_find_by_id, fg_swap
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import choose_plan
from synth.envsynth.plan_choice import run_cases as _run
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.trace_exprs import learn_choice, learn_number
from synth.envsynth.trace_learn import learned_variants
from synth.envsynth.traces import load_traces, pick_calls, trace_case
from synth.fidelity.diff import change_list, leaf_changes
from synth.spec import ToolSpec

KITS = {
    "k1": {"title": "tent", "sizes": {f"t{i}": {"sid": f"t{i}", "fee": 20 + 3 * i, "free": i != 3} for i in range(5)}},
    "k2": {"title": "skis", "sizes": {f"s{i}": {"sid": f"s{i}", "fee": 40 + 7 * i, "free": True} for i in range(5)}},
}


def _state(rng: random.Random) -> dict[str, Any]:
    kit = rng.choice(["k1", "k2"])
    sizes = sorted(KITS[kit]["sizes"])
    gear = [
        {"sid": sid, "fee": KITS[kit]["sizes"][sid]["fee"], "title": KITS[kit]["title"]}
        for sid in rng.sample([s for s in sizes if KITS[kit]["sizes"][s]["free"]], 2)
    ]
    total = sum(g["fee"] for g in gear)
    return {
        "bookings": {"b1": {"gear": gear, "ledger": [{"sum": total, "via": "v1", "type": "charge"}], "member": "m1"}},
        "kits": copy.deepcopy(KITS),
        "members": {"m1": {"wallet": {"v1": {"left": rng.choice([5, 60])}, "card1": {"brand": "x"}}}},
    }


def swap_gear(state: dict[str, Any], booking_id: str, old_ids: list[str], new_ids: list[str], via: str) -> Any:
    """The real system (an oracle the learner never sees)."""
    booking = state["bookings"][booking_id]
    looked = [fg_find_by_id(state["kits"], sid) for sid in new_ids]
    if any(x is None or not x["free"] for x in looked):
        raise ValueError("size not available")
    diff = sum(x["fee"] for x in looked) - sum(g["fee"] for g in booking["gear"] if g["sid"] in old_ids)
    wallet = state["members"][booking["member"]]["wallet"]
    if "left" in wallet[via] and wallet[via]["left"] < diff:
        raise ValueError("voucher too low")
    for old, new in zip(old_ids, new_ids):
        item = next(g for g in booking["gear"] if g["sid"] == old)
        item.update(sid=new, fee=fg_find_by_id(state["kits"], new)["fee"])
    booking["ledger"].append({"sum": abs(diff), "via": via, "type": "charge" if diff > 0 else "credit"})
    if "left" in wallet[via]:
        wallet[via]["left"] = round(wallet[via]["left"] - diff, 2)
    return booking


def _traces(path: Path, n: int, seed: int) -> Path:
    rng = random.Random(seed)
    lines = []
    for i in range(n):
        state = _state(rng)
        booking = state["bookings"]["b1"]
        old = [g["sid"] for g in booking["gear"]][: rng.choice([1, 2])]
        kit = next(k for k, v in KITS.items() if old[0] in v["sizes"])
        new = [rng.choice(sorted(KITS[kit]["sizes"])) for _ in old]
        via = rng.choice(["v1", "card1"])
        after = copy.deepcopy(state)
        args = {"booking_id": "b1", "old_ids": old, "new_ids": new, "via": via}
        try:
            out, ok = swap_gear(after, **args), True
        except ValueError as err:
            out, ok, after = str(err), False, state
        call = {"name": "swap_gear", "arguments": args, "ok": ok, "output": out}
        call["changes"] = change_list(leaf_changes(state, after))
        lines.append({"format": "forgegym-traces/1", "id": f"r{i}", "initial_state": state, "calls": [call]})
    path.write_text("".join(json.dumps(x, sort_keys=True) + "\n" for x in lines))
    return path


SPEC = ToolSpec(
    name="swap_gear",
    description="Swap gear of a booking for other sizes.",
    parameters={
        "type": "object",
        "properties": {
            "booking_id": {"type": "string"},
            "old_ids": {"type": "array", "items": {"type": "string"}},
            "new_ids": {"type": "array", "items": {"type": "string"}},
            "via": {"type": "string"},
        },
    },
)
SCHEMA = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")


def _recorded(tmp_path: Path, n: int, seed: int, name: str) -> list:
    calls = load_traces(_traces(tmp_path / name, n, seed), None)
    return [trace_case(c) for c in pick_calls(calls, "swap_gear", n)]


def test_learned_swap_reproduces_unseen_calls_of_the_real_system(tmp_path: Path) -> None:
    train = _recorded(tmp_path, 24, 0, "train.jsonl")
    assert any(c.expect_error for c in train) and any(not c.expect_error for c in train)
    plain = ToolPlan(kind="update", collection="bookings", key_param="booking_id")
    variants = learned_variants(SPEC, plain, train)
    learned = next(v for v in variants if v.kind == "recorded_update")
    ops = {e["op"] for e in learned.effects}
    assert {"swap", "append", "adjust"} <= ops, learned.effects
    assert {c["op"] for c in learned.checks} >= {"enough"}, learned.checks
    chosen, _, _ = choose_plan(SPEC, plain, [plain] + variants, [], train, SCHEMA)
    source = render_tool(SPEC, chosen, SCHEMA.state_schema)
    assert "fg_" in header_source("x", "0", source) and "fg_" not in header_source("x", "0", "")
    test = _recorded(tmp_path, 30, 1, "test.jsonl")  # calls the learner never saw
    res, err = _run(source, "swap_gear", test, SCHEMA)
    assert res.passed == len(test), err
    res, _ = _run(render_tool(SPEC, plain, SCHEMA.state_schema), "swap_gear", test, SCHEMA)
    assert res.passed < len(test)


def test_number_and_choice_need_every_sample() -> None:
    state = {"kits": KITS}
    rec = {"gear": [{"sid": "t0", "fee": 20}]}
    samples = [(v, {"new": [n]}, rec, state) for v, n in ((3, "t1"), (9, "t3"))]
    src = learn_number(samples)
    assert src is not None and fg_evaluate(src["expr"], {"new": ["t4"]}, rec, state) == 12
    assert learn_number([(3, {"new": ["t1"]}, rec, state), (4, {"new": ["t3"]}, rec, state)]) is None
    dear = {"gear": [{"sid": "t0", "fee": 99}]}
    words = [("up", {"new": ["t1"], "old": ["t0"]}, rec, state), ("down", {"new": ["t0"], "old": ["t0"]}, dear, state)]
    choice = learn_choice(words)
    assert choice is not None and (choice["rule"]["positive"], choice["rule"]["negative"]) == ("up", "down")
    same_sign = [
        ("up", {"new": ["t1"], "old": ["t0"]}, rec, state),
        ("down", {"new": ["t2"], "old": ["t0"]}, rec, state),
    ]
    assert learn_choice(same_sign) is None


def test_runtime_swap_and_checks_refuse_what_they_cannot_resolve() -> None:
    state = {"kits": KITS, "members": {"m1": {"wallet": {"v1": {"left": 5}}}}}
    rec = {"gear": [{"sid": "t0", "fee": 20, "title": "tent"}], "member": "m1"}
    rule = {"old": "old", "new": "new", "match": "sid", "scope": ["state", "kits"]}
    assert fg_swap(rule, rec["gear"], {"old": ["t0"], "new": ["t2"]}, rec, state)[0] == {
        "sid": "t2",
        "fee": 26,
        "title": "tent",
    }
    assert fg_swap(rule, rec["gear"], {"old": ["zz"], "new": ["t2"]}, rec, state) is None
    path = [
        {"from": "record", "path": ["member"]},
        {"from": "const", "value": "wallet"},
        {"from": "arg", "name": "via"},
    ]
    exists = {"op": "exists", "collection": "members", "path": path}
    assert fg_check(exists, {"via": "v1"}, rec, state) and not fg_check(exists, {"via": "nope"}, rec, state)
    enough = {**exists, "op": "enough", "field": "left", "amount": {"plus": [{"path": ["gear", 0, "fee"]}]}}
    assert not fg_check(enough, {"via": "v1"}, rec, state)
    assert fg_check(enough, {"via": "v1"}, {**rec, "gear": [{"sid": "t0", "fee": 5}]}, state)
    flag = {"op": "flag", "ids": "new", "scope": ["state", "kits"], "field": "free"}
    assert fg_check(flag, {"new": ["t1"]}, rec, state) and not fg_check(flag, {"new": ["t1", "t3"]}, rec, state)


def test_an_enough_check_needs_an_amount_the_call_moves_or_records() -> None:
    from synth.envsynth.trace_checks import _enough

    exists = {"op": "exists", "collection": "members", "path": [{"from": "arg", "name": "member_id"}]}
    state = {"members": {"m1": {"owed": 5.0}, "m2": {"owed": 50.0}}}
    ok = [({"member_id": "m1"}, {"fee": 10.0, "cap": 3.0}, state)]
    bad = [({"member_id": "m2"}, {"fee": 10.0, "cap": 3.0}, state)]
    assert _enough([exists], ok, bad, []) == []  # moves nothing: no balance has an amount to cover
    recorded = [{"op": "set", "field": "charge", "source": {"from": "expr", "expr": {"plus": [{"path": ["fee"]}]}}}]
    found = _enough([exists], ok, bad, recorded)
    assert found and found[0]["amount"]["plus"] == [{"path": ["fee"]}] and found[0]["field"] == "owed"
