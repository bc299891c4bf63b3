"""--traces (synth/envsynth/traces.py, trace_learn.py): recorded calls rebuilt into states and test cases,
plans learned from them, and the choice among candidate plans by the recorded calls they reproduce."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import choose_plan
from synth.envsynth.plan_choice import run_cases as _run
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.trace_learn import learned_variants
from synth.envsynth.traces import (
    apply_changes,
    cut_state,
    load_traces,
    pick_calls,
    trace_case,
)
from synth.errors import InputError
from synth.fidelity import record_traces
from synth.fidelity.diff import change_list, leaf_changes
from synth.fidelity.normalize import canonical
from synth.spec import ToolSpec
from tests.recorded import recorded_cases

ROOT = Path(__file__).resolve().parents[1]
REF = ROOT / "tests" / "data" / "fidelity" / "ref_store"


def test_recorded_changes_rebuild_every_state(tmp_path: Path) -> None:
    out = tmp_path / "traces.jsonl"
    record_traces(REF, out)
    data = json.loads((REF / "data.json").read_text())
    calls = load_traces(out, data)
    assert len(calls) == 11 and calls[0].state == data
    for call in calls:
        after = apply_changes(call.state, call.changes)
        assert canonical(change_list(leaf_changes(call.state, after))) == canonical(call.changes)
    # t2 removes item a: the state before its last call has no `a`, and the first state was not modified
    assert "a" not in calls[7].state["items"] and "a" in data["items"]


def test_apply_changes_lists_new_containers_and_empties() -> None:
    state = {"r": {"x": {"tags": ["a", "b", "c"], "n": 1}}, "empty": {}}
    changes = [
        {"path": "/r/x/tags/1", "value": "c"},
        {"path": "/r/x/tags/2", "deleted": True},
        {"path": "/r/y/list/0", "value": 5},
        {"path": "/r/y/list/1", "value": 6},
        {"path": "/empty", "deleted": True},
        {"path": "/empty/k/v", "value": 1},
    ]
    after = apply_changes(state, changes)
    assert after == {"r": {"x": {"tags": ["a", "c"], "n": 1}, "y": {"list": [5, 6]}}, "empty": {"k": {"v": 1}}}
    assert state["r"]["x"]["tags"] == ["a", "b", "c"]  # shared parts are copied before a write
    gone = apply_changes({"c": {"k": {"v": 1}}}, [{"path": "/c/k/v", "deleted": True}, {"path": "/c", "value": {}}])
    assert gone == {"c": {}}


def test_bad_traces_name_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"format": "forgegym-traces/1", "id": "a", "calls": [{"name": "x", "arguments": {}}]}\n')
    with pytest.raises(InputError, match="line 1/calls/0/ok"):
        load_traces(bad, {})
    bad.write_text('{"format": "forgegym-traces/1", "id": "a", "calls": []}\n')
    with pytest.raises(InputError, match="initial_state"):
        load_traces(bad, None)


def _order_case(status: str, reason: str, ok: bool, key: str = "o1") -> dict:
    state = {
        "orders": {
            key: {"id": key, "status": status, "history": [{"kind": "paid", "amount": 7}]},
            "zz": {"id": "zz", "status": "x", "history": []},
        }
    }
    changes = (
        []
        if not ok
        else [
            {"path": f"/orders/{key}/history/1/amount", "value": 7},
            {"path": f"/orders/{key}/history/1/kind", "value": "refund"},
            {"path": f"/orders/{key}/note", "value": reason},
            {"path": f"/orders/{key}/status", "value": "closed"},
        ]
    )
    after = apply_changes(state, changes)
    return {
        "name": "close_order",
        "arguments": {"order_id": key, "why": reason},
        "ok": ok,
        "output": after["orders"][key] if ok else "Error",
        "changes": changes,
        "state": state,
    }


def test_learned_update_reproduces_sets_appends_and_preconditions(tmp_path: Path) -> None:
    rows = [
        _order_case("open", "late", True, "o1"),
        _order_case("open", "broken", True, "o2"),
        _order_case("closed", "again", False, "o3"),
    ]
    path = tmp_path / "t.jsonl"
    path.write_text(
        "".join(
            json.dumps({"format": "forgegym-traces/1", "id": f"t{i}", "initial_state": r.pop("state"), "calls": [r]})
            + "\n"
            for i, r in enumerate(rows)
        )
    )
    recorded = [trace_case(c) for c in pick_calls(load_traces(path, None), "close_order", 10)]
    assert [c.expect_error for c in recorded] == [False, False, True]
    spec = ToolSpec(
        name="close_order",
        description="Close an order.",
        parameters={"type": "object", "properties": {"order_id": {"type": "string"}, "why": {"type": "string"}}},
    )
    plain = ToolPlan(kind="update", collection="orders", key_param="order_id", fields=[])
    variants = learned_variants(spec, plain, recorded)
    learned = variants[0]
    assert learned.kind == "recorded_update" and learned.preconditions == {"status": ["open"]}
    effects = {e["field"]: e for e in learned.effects}
    assert effects["note"]["source"] == {"from": "arg", "name": "why"}
    assert effects["status"]["source"] == {"from": "const", "value": "closed"}
    assert effects["history"]["items"][0]["fields"]["amount"] == {"from": "record", "path": ["history", 0, "amount"]}
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    res, err = _run(render_tool(spec, learned, schema.state_schema), "close_order", recorded, schema)
    assert err == "" and res.passed == 3
    res, _ = _run(render_tool(spec, plain, schema.state_schema), "close_order", recorded, schema)
    assert res.passed < 3
    chosen, why, _ = choose_plan(spec, plain, [plain] + variants, [], recorded, schema)
    assert chosen.kind == "recorded_update" and chosen.preconditions and why["recorded"] == 3


def test_cut_state_keeps_the_named_records_and_their_references() -> None:
    state = {
        "users": {f"u{i}": {"name": f"n{i}", "orders": [f"o{i}"]} for i in range(50)},
        "orders": {f"o{i}": {"user": f"u{i}"} for i in range(50)},
        "meta": {"v": 1},
    }
    rows = [{"name": "get_user", "arguments": {"user_id": "u3"}, "ok": True, "output": {"name": "n3"}, "changes": []}]
    call = load_traces_from(rows, state)
    cut = cut_state(state, call)
    # and the highest numbered key of each collection, which a create's next id counts on from (u49 names o49)
    assert set(cut["users"]) == {"u3", "u49"} and set(cut["orders"]) == {"o3", "o49"} and cut["meta"] == {"v": 1}


def load_traces_from(rows: list[dict], state: dict):
    from synth.envsynth.traces import TraceCall

    r = rows[0]
    return TraceCall(r["name"], "t", 0, r["arguments"], r["ok"], r["output"], r["changes"], state)


def test_learned_adjustment_of_a_balance_on_a_referenced_record(tmp_path: Path) -> None:
    rows = []
    for i, (method, refund) in enumerate([("card", False), ("wallet", True), ("wallet", True)]):
        state = {
            "orders": {f"o{i}": {"user": f"u{i}", "paid": 5 + i, "method": method, "status": "open"}},
            "users": {f"u{i}": {"methods": {"card": {"kind": "card"}, "wallet": {"balance": 10}}}},
        }
        changes = [{"path": f"/orders/o{i}/status", "value": "void"}]
        if refund:
            changes.append({"path": f"/users/u{i}/methods/wallet/balance", "value": 10 + 5 + i})
        after = apply_changes(state, changes)
        rows.append(
            {
                "format": "forgegym-traces/1",
                "id": f"t{i}",
                "initial_state": state,
                "calls": [
                    {
                        "name": "void_order",
                        "arguments": {"order_id": f"o{i}"},
                        "ok": True,
                        "output": after["orders"][f"o{i}"],
                        "changes": changes,
                    }
                ],
            }
        )
    path = tmp_path / "t.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    recorded = [trace_case(c) for c in load_traces(path, None)]
    spec = ToolSpec(
        name="void_order",
        description="Void an order.",
        parameters={"type": "object", "properties": {"order_id": {"type": "string"}}},
    )
    plan = ToolPlan(kind="update", collection="orders", key_param="order_id")
    learned = next(v for v in learned_variants(spec, plan, recorded) if v.kind == "recorded_update")
    adjust = next(e for e in learned.effects if e["op"] == "adjust")
    assert adjust["collection"] == "users" and adjust["delta"] == {"from": "record", "path": ["paid"]}
    assert adjust["path"][0] == {"from": "record", "path": ["user"]} and adjust["path"][2] == {
        "from": "record",
        "path": ["method"],
    }
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    res, err = _run(render_tool(spec, learned, schema.state_schema), "void_order", recorded, schema)
    assert err == "" and res.passed == 3


def test_recorded_tree_calls_start_in_the_working_node_they_show() -> None:
    from synth.envsynth.testgen import TestCase as Case
    from synth.envsynth.trace_trees import working_path

    info = {"children": "kids", "kind_field": "type", "branch": "dir", "leaf": "file", "text_field": "text"}
    state = {
        "fs": {
            "top": {
                "type": "dir",
                "kids": {
                    "a": {"type": "dir", "kids": {"x.txt": {"type": "file", "text": "1"}}},
                    "b": {"type": "dir", "kids": {"y.txt": {"type": "file", "text": "2"}}},
                },
            }
        }
    }
    made = Case(
        "mk",
        "trace",
        state,
        {"name": "new"},
        state_checks=[{"op": "changes", "changes": [{"path": "/fs/top/kids/b/kids/new/type", "value": "dir"}]}],
    )
    assert working_path(made, "fs", info) == ["b"]
    read = Case("cat", "trace", state, {"file": "x.txt"}, state_checks=[{"op": "changes", "changes": []}])
    assert working_path(read, "fs", info) == ["a"]
    listed = Case("ls", "trace", state, {}, expect_result={"content": ["y.txt"]}, state_checks=[])
    assert working_path(listed, "fs", info) == ["b"]
    assert working_path(Case("ls", "trace", state, {}, expect_result=[], state_checks=[]), "fs", info) is None


def test_a_message_learned_from_recorded_outputs() -> None:
    from synth.envsynth.testgen import TestCase as Case
    from synth.envsynth.trace_messages import recorded_message

    rows = [
        Case(
            "mv",
            "trace",
            {},
            {"src": s, "dst": d},
            expect_error=False,
            has_expected_result=True,
            expect_result={"result": f"'{s}' moved to '{d}/{s}'"},
        )
        for s, d in [("a.txt", "docs"), ("b.md", "tmp")]
    ]
    key, pieces = recorded_message(rows)
    assert key == "result" and pieces == [
        ["text", "'"],
        ["arg", "src"],
        ["text", "' moved to '"],
        ["arg", "dst"],
        ["text", "/"],
        ["arg", "src"],
        ["text", "'"],
    ]
    spec = ToolSpec(name="mv", description="Move.", parameters={"type": "object", "properties": {"src": {}, "dst": {}}})
    plan = ToolPlan(kind="action", output_key=key, output_format=pieces)
    source = render_tool(spec, plan, {"type": "object", "properties": {}})
    assert "moved to" in source and "def mv(" in source


def test_a_move_message_names_where_the_node_lands_and_a_value_keeps_its_own_answer() -> None:
    from synth.envsynth.testgen import TestCase as Case
    from synth.envsynth.trace_learn import learned_variants
    from synth.envsynth.trace_messages import special_outputs

    info = {"children": "kids", "kind_field": "type", "branch": "dir", "leaf": "file", "text_field": "text"}
    state = {
        "fs": {
            "top": {
                "type": "dir",
                "kids": {"a.txt": {"type": "file", "text": "1"}, "docs": {"type": "dir", "kids": {}}},
            }
        }
    }

    def moved(src: str, dst: str, shown: str) -> Case:
        return Case(
            "shift",
            "trace",
            state,
            {"src": src, "dst": dst},
            expect_error=False,
            has_expected_result=True,
            expect_result={"result": f"'{src}' went to '{shown}'"},
            state_checks=[],
        )

    recorded = [moved("a.txt", "docs", "docs/a.txt"), moved("a.txt", "b.txt", "b.txt")]
    spec = ToolSpec(
        name="shift",
        description="Move a file.",
        parameters={"type": "object", "properties": {"src": {"type": "string"}, "dst": {"type": "string"}}},
    )
    plan = ToolPlan(kind="tree_move", collection="fs", tree="fs", tree_info=info, key_param="src", fields=["dst"])
    variants = learned_variants(spec, plan, recorded)
    landed = next(v for v in variants if any(kind == "landed" for kind, _ in v.output_format))
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    res, err = _run(render_tool(spec, landed, schema.state_schema), "shift", recorded, schema)
    assert err == "" and res.passed == 2  # into a folder and a rename, one rule
    assert not any(v.output_format and v is not landed for v in variants)  # no one literal message fits both

    def went(folder: str, answer: Any) -> Case:
        return Case("go", "trace", state, {"folder": folder}, expect_error=False, expect_result=answer)

    calls = [went("..", {}), went("docs", {"at": "docs"}), went("..", {}), went("docs", {"at": "docs"})]
    assert special_outputs(calls) == [{"arg": "folder", "value": "..", "output": {}}]  # `docs` names itself
    assert special_outputs(calls[:2] + [went("x", {"at": "x"})]) == []  # one call is no rule


CLOSE = ToolSpec(
    name="close_order",
    description="Close an order.",
    parameters={"type": "object", "properties": {"order_id": {"type": "string"}, "why": {"type": "string"}}},
)


def _close(key: str, why: str, before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """One recorded close of the order `key`, its changes written as the recorder writes them."""
    state = {"orders": {key: before}}
    changes = change_list(leaf_changes(state, {"orders": {key: after}}))
    call = {"name": "close_order", "arguments": {"order_id": key, "why": why}, "ok": True}
    return {**call, "output": after, "changes": changes, "state": state}


def _learned_closes(tmp_path: Path, rows: list[dict[str, Any]]) -> ToolPlan:
    """The first plan learned from these recorded closes; it reproduces every one of them."""
    recorded = recorded_cases(tmp_path / "t.jsonl", rows, "close_order")
    plain = ToolPlan(kind="update", collection="orders", key_param="order_id", fields=[])
    learned = learned_variants(CLOSE, plain, recorded)[0]
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    res, err = _run(render_tool(CLOSE, learned, schema.state_schema), "close_order", recorded, schema)
    assert err == "" and res.passed == len(rows)
    return learned


def _source_of(plan: ToolPlan, field: str) -> Any:
    effect = next(e for e in plan.effects if e.get("field") == field)
    return effect["source"] if "source" in effect else effect["items"][0]["fields"]


def test_an_object_written_whole_is_learned_key_by_key(tmp_path: Path) -> None:
    # every close writes a `refund` block: the reason given, the order's total, the business date
    def case(key: str, total: float, why: str) -> dict[str, Any]:
        before = {"order_id": key, "status": "open", "total": total, "refund": None}
        block = {"reason": why, "amount": total, "on": "2030-01-01"}
        return _close(key, why, before, {**before, "refund": block, "status": "closed"})

    rows = [case("o1", 12.5, "late"), case("o2", 40.0, "broken"), case("o3", 7.0, "late")]
    learned = _learned_closes(tmp_path, rows)
    assert _source_of(learned, "refund") == {
        "from": "object",
        "fields": {
            "amount": {"from": "record", "path": ["total"]},
            "on": {"from": "const", "value": "2030-01-01"},
            "reason": {"from": "arg", "name": "why"},
        },
    }


def test_a_value_that_depends_on_one_argument_is_learned_as_a_switch(tmp_path: Path) -> None:
    # the fee is the order's total, except for goodwill closes, which cost nothing
    def case(key: str, total: float, why: str) -> dict[str, Any]:
        before = {"order_id": key, "status": "open", "total": total, "fee": 1.0}
        return _close(key, why, before, {**before, "fee": 0.0 if why == "goodwill" else total, "status": "closed"})

    rows = [case("o1", 12.5, "late"), case("o2", 40.0, "goodwill"), case("o3", 7.0, "broken"), case("o4", 9.0, "late")]
    learned = _learned_closes(tmp_path, rows)
    assert _source_of(learned, "fee") == {
        "from": "switch",
        "when": {"arg": "why", "in": ["broken", "late"]},
        "then": {"from": "record", "path": ["total"]},
        "else": {"from": "const", "value": 0.0},
    }


def test_a_logged_text_is_learned_from_the_arguments_and_the_record(tmp_path: Path) -> None:
    # each close logs "<why>; <total with two decimals> refunded"
    def case(key: str, total: float, why: str) -> dict[str, Any]:
        before = {"order_id": key, "status": "open", "total": total, "log": []}
        entry = {"event": "closed", "detail": f"{why}; {total:.2f} refunded"}
        return _close(key, why, before, {**before, "status": "closed", "log": [entry]})

    rows = [case("o1", 12.5, "late"), case("o2", 40.0, "broken"), case("o3", 7.25, "no show")]
    learned = _learned_closes(tmp_path, rows)
    total = {"from": "fixed", "of": {"from": "record", "path": ["total"]}, "decimals": 2}
    assert _source_of(learned, "log")["detail"] == {
        "from": "concat",
        "parts": [{"from": "arg", "name": "why"}, "; ", total, " refunded"],
    }
