"""A create's new record learned from recorded calls (a seed library holding a packet for a member): the member's
tier copied from the member the call names, a constant state, fields never set on creation left empty, and a log
entry naming the member; the docs' plan alone gets them wrong, the learned variant reproduces every recorded call
and a call for a member no recording showed, and a value only the recorded member ids would explain is no rule."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.trace_creates import learned_creates
from synth.envsynth.trace_learn import _any_source
from synth.fidelity.diff import change_list, leaf_changes
from synth.spec import ToolSpec
from tests.recorded import recorded_cases

S = {"type": "string"}
HOLD = ToolSpec(
    "hold_packet",
    "Hold a packet for a member.",
    {"type": "object", "properties": {"member_id": S, "variety": S}, "required": ["member_id", "variety"]},
)
MEMBERS = {
    "M1": {"member_id": "M1", "name": "Ada", "tier": "gold"},
    "M2": {"member_id": "M2", "name": "Bo", "tier": "basic"},
    "M3": {"member_id": "M3", "name": "Cy", "tier": "gold"},
    "M4": {"member_id": "M4", "name": "Di", "tier": "basic"},
}
PLAN = ToolPlan(kind="create", collection="holds", key_field="hold_id", fields=["member_id", "variety"])
SCHEMA = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")


def _call(member: str, variety: str, taken: int, marks: dict[str, Any] | None = None) -> dict[str, Any]:
    holds = {str(i): {"hold_id": str(i), "member_id": "M1", "variety": "kale"} for i in range(1, taken + 1)}
    state = {"members": copy.deepcopy(MEMBERS), "holds": holds}
    key = str(taken + 1)
    log = [{"event": "held", "detail": f"for {MEMBERS[member]['name']}"}]
    made = {
        "hold_id": key,
        "member_id": member,
        "variety": variety,
        "tier": MEMBERS[member]["tier"],
        "status": "held",
        "picked_on": None,
        "log": log,
    }
    after = copy.deepcopy(state)
    after["holds"][key] = made
    for field, value in (marks or {}).items():  # the member's own fields the call sets (`key`: the new hold's)
        after["members"][member][field] = key if value == "key" else value
    changes = change_list(leaf_changes(state, after))
    args = {"member_id": member, "variety": variety}
    return {"name": "hold_packet", "arguments": args, "ok": True, "output": made, "changes": changes, "state": state}


def _cases(tmp_path: Path, rows: list[dict[str, Any]], name: str) -> list:
    return recorded_cases(tmp_path / name, rows, "hold_packet")


def _passed(plan: ToolPlan, cases: list) -> int:
    res, _ = run_cases(render_tool(HOLD, plan, SCHEMA.state_schema), "hold_packet", cases, SCHEMA)
    return res.passed


def test_the_new_records_fields_are_learned_and_fit_an_unseen_member(tmp_path: Path) -> None:
    recorded = _cases(tmp_path, [_call("M1", "kale", 2), _call("M2", "leek", 0), _call("M3", "bean", 1)], "a.jsonl")
    assert _passed(PLAN, recorded) == 0  # the docs' plan alone leaves tier, status and the log out
    variants = learned_creates(PLAN, recorded, _any_source)
    assert variants
    sets = {e["field"]: e["source"] for e in variants[0].effects if e["op"] == "learned_set"}
    assert sets["tier"] == {"from": "named", "collection": "members", "arg": "member_id", "field": "tier"}
    assert sets["status"] == {"from": "const", "value": "held"} and sets["picked_on"] == {
        "from": "const",
        "value": None,
    }
    name = {"from": "named", "collection": "members", "arg": "member_id", "field": "name"}
    entry = {
        "from": "object",
        "fields": {"detail": {"from": "concat", "parts": ["for ", name]}, "event": {"from": "const", "value": "held"}},
    }
    assert sets["log"] == {"from": "list", "items": [entry]}
    assert _passed(variants[0], recorded) == 3
    assert _passed(variants[0], _cases(tmp_path, [_call("M4", "pea", 3)], "b.jsonl")) == 1


def test_a_value_only_the_member_ids_explain_is_not_learned(tmp_path: Path) -> None:
    rows = [_call("M1", "kale", 2), _call("M2", "leek", 0), _call("M3", "bean", 1), _call("M4", "pea", 1)]
    for row, odd in zip(rows, ["x", "y", "y", "x"]):  # neither the member's tier nor anything else holds it
        for change in row["changes"]:
            if change["path"].endswith("/tier"):
                change["value"] = odd
    variants = learned_creates(PLAN, _cases(tmp_path, rows, "c.jsonl"), _any_source)
    assert variants and not any(e.get("field") == "tier" for e in variants[0].effects)


def test_what_every_call_sets_on_the_named_member_is_learned(tmp_path: Path) -> None:
    marks = {"last_hold": "key", "standing": "holding"}
    rows = [_call("M1", "kale", 2, marks), _call("M2", "leek", 0, marks), _call("M3", "bean", 1, marks)]
    rows[2]["changes"].append({"path": "/members/M3/name", "op": "replace", "value": "Cyd"})  # once only: no rule
    recorded = _cases(tmp_path, rows, "d.jsonl")
    variants = learned_creates(PLAN, recorded, _any_source)
    assert variants and variants[0].ref_sets == [
        {"param": "member_id", "collection": "members", "field": "last_hold", "new_key": True},
        {"param": "member_id", "collection": "members", "field": "standing", "value": "holding"},
    ]
    assert _passed(variants[0], recorded[:2]) == 2
    unseen = _cases(tmp_path, [_call("M4", "pea", 3, marks)], "e.jsonl")
    assert _passed(variants[0], unseen) == 1
