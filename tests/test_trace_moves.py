"""Moves learned from recorded calls (a seed library dispatching a crate): every recorded crate holds one line, yet
the stock move learned on its first line is made for every line, a count that goes down by one is a constant step,
not the line number that happens to be 1, and the member the crate names logs "C1 shipped; 3 crates left" with its
count as the call left it; the learned plan then dispatches a two-line crate no call showed."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.trace_exprs import per_entry_move
from synth.envsynth.trace_learn import learned_variants
from synth.fidelity.diff import change_list, leaf_changes
from synth.spec import ToolSpec
from tests.recorded import recorded_cases

S = {"type": "string"}
SHIP = ToolSpec("ship_crate", "Dispatch a packed crate.", {"type": "object", "properties": {"crate_id": S}})
STOCK = {"V1": {"variety_id": "V1", "packets": 40}, "V2": {"variety_id": "V2", "packets": 25}}


def _state(lines: list[tuple[str, int]], left: int) -> dict[str, Any]:
    crate = {"crate_id": "C1", "member_id": "M1", "status": "packed", "lines": []}
    crate["lines"] = [{"line_no": i + 1, "variety_id": v, "qty": q} for i, (v, q) in enumerate(lines)]
    member = {"member_id": "M1", "crates_left": left, "log": [{"note": "joined"}]}
    return {"crates": {"C1": crate}, "varieties": copy.deepcopy(STOCK), "members": {"M1": member}}


def _after(state: dict[str, Any]) -> dict[str, Any]:
    after = copy.deepcopy(state)
    after["crates"]["C1"]["status"] = "shipped"
    for line in after["crates"]["C1"]["lines"]:
        after["varieties"][line["variety_id"]]["packets"] -= line["qty"]
    after["members"]["M1"]["crates_left"] -= 1
    after["members"]["M1"]["log"].append({"note": f"C1 shipped; {after['members']['M1']['crates_left']} crates left"})
    return after


def _call(lines: list[tuple[str, int]], left: int) -> dict[str, Any]:
    state = _state(lines, left)
    after = _after(state)
    changes = change_list(leaf_changes(state, after))
    return {
        "name": "ship_crate",
        "arguments": {"crate_id": "C1"},
        "ok": True,
        "output": after["crates"]["C1"],
        "changes": changes,
        "state": state,
    }


def _cases(tmp_path: Path, rows: list[dict[str, Any]], name: str) -> list:
    return recorded_cases(tmp_path / name, rows, "ship_crate")


def test_a_first_line_move_is_made_for_every_line_and_one_down_is_a_step(tmp_path: Path) -> None:
    recorded = _cases(tmp_path, [_call([("V1", 3)], 4), _call([("V2", 5)], 2), _call([("V1", 7)], 9)], "a.jsonl")
    plain = ToolPlan(kind="update", collection="crates", key_param="crate_id", fields=[])
    learned = next(v for v in learned_variants(SHIP, plain, recorded) if v.kind == "recorded_update")
    moves = {e["op"]: e for e in learned.effects if e["op"] in ("adjust", "each_entry_adjust")}
    assert moves["each_entry_adjust"] == {
        "op": "each_entry_adjust",
        "list": "lines",
        "via": "variety_id",
        "collection": "varieties",
        "field": "packets",
        "amount": "qty",
        "sign": -1,
    }
    assert moves["adjust"]["delta"] == {"from": "const", "value": -1}
    logged = next(e for e in learned.effects if e["op"] == "ref_append")
    left = {"from": "linked", "collection": "members", "via": "member_id", "field": "crates_left"}
    assert (logged["collection"], logged["via"], logged["field"]) == ("members", "member_id", "log")
    note = {"from": "concat", "parts": ["C1 shipped; ", left, " crates left"]}  # every recorded crate is C1
    assert logged["items"] == [{"fields": {"note": note}}]
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    unseen = _cases(tmp_path, [_call([("V1", 2), ("V2", 6)], 3)], "b.jsonl")
    res, err = run_cases(render_tool(SHIP, learned, schema.state_schema), "ship_crate", unseen, schema)
    assert err == "" and res.passed == 1


def test_only_a_first_entry_move_by_its_own_amount_is_widened() -> None:
    rule = {
        "op": "adjust",
        "collection": "varieties",
        "path": [{"from": "record", "path": ["lines", 0, "variety_id"]}, {"from": "const", "value": "packets"}],
        "delta": {"from": "expr", "expr": {"minus": [{"path": ["lines", 0, "qty"]}], "digits": 2}},
    }
    assert per_entry_move(rule) is not None
    second = copy.deepcopy(rule)
    second["delta"]["expr"]["minus"][0]["path"] = ["lines", 1, "qty"]  # another line's amount: not the same line
    assert per_entry_move(second) is None
    both = copy.deepcopy(rule)
    both["delta"]["expr"]["plus"] = [{"path": ["fee"]}]  # more than the line's amount
    assert per_entry_move(both) is None
