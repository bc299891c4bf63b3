"""Boat lines a marina charter gains and loses by an `action` value (line_toggle.py): the new line numbered after
the highest, its fields copied from the boat, multiplied and joined as the sample lines show, the refusals the docs
state (not open, a boat due a refit, a rig on the skipper's banned list, the lead line, a missing line), a log entry
of each kind and the totals recomputed; planned, rendered and run. Also line_cases, the named label form of
mode_rules.mode_segments, the `next_number` / `product` sources of codegen and the `named_not_listed` list rule."""

from __future__ import annotations

import copy
from typing import Any

import synth
from synth.envsynth.codegen import _pysource, header_source, render_tool
from synth.envsynth.expr_runtime import fg_number
from synth.envsynth.line_cases import line_cases
from synth.envsynth.line_toggle import line_toggle
from synth.envsynth.list_runtime import fg_list_rule
from synth.envsynth.mode_rules import mode_segments
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S, N, B, INT = {"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "integer"}
LINE = {
    "line_no": INT,
    "boat_id": {**S, "x-references": "boats"},
    "title": S,
    "days": INT,
    "day_rate": N,
    "line_total": N,
    "lead": B,
}
ENTRY = {"kind": {**S, "x-enum": ["line_added"]}, "note": S, "date": S}
CHARTER = {
    "charter_id": S,
    "status": {**S, "enum": ["open", "sailing", "closed"]},
    "skipper_id": {**S, "x-references": "skippers"},
    "lines": {"type": "array", "items": {"type": "object", "properties": LINE}},
    "subtotal": N,
    "paid": N,
    "balance": N,
    "history": {"type": "array", "items": {"type": "object", "properties": ENTRY}},
}
COLS = {
    "charters": collection(CHARTER),
    "boats": collection({"boat_id": S, "name": S, "rig": S, "day_rate": N, "needs_refit": B}),
    "skippers": collection({"skipper_id": S, "banned_rigs": {"type": "array", "items": S}}),
}
SCHEMA = {"type": "object", "properties": COLS}
ADD = (
    'action "add" (requires boat_id and days 1-14): appends a new line numbered after the highest existing line_no. '
    "The title and day_rate are copied from the catalogue. Only fitted boats (needs_refit false) can be added; "
    "the skipper's banned rigs list is checked against the boat's rig.\n"
)
TEXT = (
    "Change the boat lines of an open charter.\n\n" + ADD + 'action "remove" (requires line_no): deletes that line. '
    "The lead line (lead true, line 1) cannot be removed.\n\n"
    "Charter totals (subtotal, balance) are recalculated and a line_added / line_removed history entry is written. "
    "Returns the updated charter.\n\n"
    'Errors: "Error: charter <id> is <status>; lines can only be changed while it is open".'
)
ARGS = {
    "type": "object",
    "properties": {
        "action": {"type": "string", "enum": ["add", "remove"]},
        "charter_id": S,
        "boat_id": S,
        "days": {"type": "integer", "minimum": 1, "maximum": 14},
        "line_no": INT,
    },
    "required": ["action", "charter_id"],
}
SPEC = ToolSpec("update_charter_lines", TEXT, ARGS)
GLOSSARY = "get_charter: returns one charter with its lines; balance = subtotal - paid."
POLICY = "The business date is 2031-06-02."
BASE = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")
BOATS = {
    "BT-1": {"boat_id": "BT-1", "name": "Tern", "rig": "sloop", "day_rate": 120.0, "needs_refit": False},
    "BT-2": {"boat_id": "BT-2", "name": "Petrel", "rig": "ketch", "day_rate": 95.5, "needs_refit": False},
    "BT-3": {"boat_id": "BT-3", "name": "Gull", "rig": "cat", "day_rate": 80.0, "needs_refit": True},
    "BT-4": {"boat_id": "BT-4", "name": "Skua", "rig": "yawl", "day_rate": 60.0, "needs_refit": False},
}


def _line(n: int, boat: str, days: int, lead: bool = False) -> dict[str, Any]:
    b = BOATS[boat]
    title, total = f"{b['name']} {b['rig']}", round(days * b["day_rate"], 2)
    return {"line_no": n, "boat_id": boat, "title": title, "days": days, "day_rate": b["day_rate"]} | {
        "line_total": total,
        "lead": lead,
    }


def _logged(n: int, days: int, boat: str, kind: str = "line_added", date: str = "2031-05-01") -> dict[str, Any]:
    return {"kind": kind, "note": f"line {n}: {days} x {boat}", "date": date}


def _charter(key: str, status: str, skipper: str, lines: list, paid: float, history: list) -> dict[str, Any]:
    sub = round(sum(x["line_total"] for x in lines), 2)
    return {"charter_id": key, "status": status, "skipper_id": skipper, "lines": lines, "subtotal": sub} | {
        "paid": paid,
        "balance": round(sub - paid, 2),
        "history": history,
    }


STATE = {
    "charters": {
        "CH-1": _charter(
            "CH-1", "open", "SK-1", [_line(1, "BT-1", 2, True), _line(2, "BT-2", 3)], 100.0, [_logged(2, 3, "BT-2")]
        ),
        "CH-2": _charter(
            "CH-2",
            "open",
            "SK-2",
            [_line(1, "BT-2", 1, True), _line(2, "BT-4", 4), _line(3, "BT-1", 2)],
            0.0,
            [_logged(2, 4, "BT-4"), _logged(3, 2, "BT-1")],
        ),
        "CH-3": _charter("CH-3", "sailing", "SK-1", [_line(1, "BT-4", 5, True)], 50.0, []),
    },
    "boats": BOATS,
    "skippers": {
        "SK-1": {"skipper_id": "SK-1", "banned_rigs": ["yawl"]},
        "SK-2": {"skipper_id": "SK-2", "banned_rigs": []},
    },
}
RECORDS = list(STATE["charters"].values())


def _plan(text: str = TEXT, state: dict[str, Any] = STATE) -> ToolPlan | None:
    spec = ToolSpec(SPEC.name, text, ARGS)
    return line_toggle(spec, BASE, SCHEMA, list(state["charters"].values()), POLICY, state, GLOSSARY)


def _run(calls: list[dict[str, Any]], state: dict[str, Any] = STATE) -> list[Any]:
    """Each call's outcome on the rendered tool: (status, error, the state after)."""
    source = render_tool(SPEC, _plan(), SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    outcomes = run_cases(module, [{"function": SPEC.name, "state": state, "arguments": a} for a in calls])
    return [(o.status, o.error, o.state_after) for o in outcomes]


def test_the_plan_has_an_adding_and_a_removing_mode() -> None:
    plan = _plan()
    assert plan is not None and plan.kind == "by_mode" and plan.op_param == "action"
    assert plan.preconditions == {"status": ["open"]}
    assert {v: m["requires"] for v, m in plan.modes.items()} == {"add": ["boat_id", "days"], "remove": ["line_no"]}
    add, remove = plan.modes["add"]["plan"], plan.modes["remove"]["plan"]
    assert [e["op"] for e in add["effects"]] == ["append", "append", "derive"]
    assert [e["op"] for e in remove["effects"]] == ["entry_drop", "append", "derive"]
    assert add["ref_checks"] == {"boat_id": "boats"} and remove["ref_checks"] == {}


def test_the_new_line_is_numbered_copied_multiplied_and_joined() -> None:
    fields = _plan().modes["add"]["plan"]["effects"][0]["items"][0]["fields"]
    rate = {"from": "named", "collection": "boats", "arg": "boat_id", "field": "day_rate"}
    assert fields["line_no"] == {"from": "next_number", "list": "lines", "field": "line_no"}
    assert fields["boat_id"] == {"from": "arg", "name": "boat_id"} and fields["day_rate"] == rate
    assert fields["line_total"] == {"from": "product", "of": [rate, {"from": "arg", "name": "days"}], "digits": 2}
    assert fields["lead"] == {"from": "const", "value": False}
    name, rig = ({**rate, "field": f} for f in ("name", "rig"))
    assert fields["title"] == {"from": "concat", "parts": [name, " ", rig]}


def test_the_refusals_and_totals_are_read_from_the_docs() -> None:
    add, remove = (_plan().modes[v]["plan"] for v in ("add", "remove"))
    assert add["ref_requires"] == {"boat_id": {"needs_refit": [False]}}
    banned = {"op": "named_not_listed", "collection": "boats", "arg": "boat_id", "field": "rig"}
    assert add["checks"] == [banned | {"holder": "skippers", "via": "skipper_id", "list": "banned_rigs"}]
    kept = {"op": "entry_refused", "list": "lines", "match": "line_no", "arg": "line_no", "field": "lead"}
    assert remove["checks"] == [kept | {"in": [True]}]
    steps = add["effects"][-1]["steps"]
    assert [name for name, _ in steps] == ["subtotal", "balance"]
    assert steps[0][1]["round"] == {"sum": "lines", "of": "line_total"}
    assert steps[1][1]["round"] == {"op": "-", "args": [{"val": "subtotal"}, {"val": "paid"}]}


def test_adding_appends_the_line_logs_it_and_recomputes_the_totals() -> None:
    [(status, error, after)] = _run([{"action": "add", "charter_id": "CH-1", "boat_id": "BT-2", "days": 2}])
    assert status == "ok", error
    charter = after["charters"]["CH-1"]
    assert charter["lines"][-1] == _line(3, "BT-2", 2)
    assert (charter["subtotal"], charter["balance"]) == (717.5, 617.5)
    assert charter["history"][-1] == _logged(3, 2, "BT-2", date="2031-06-02")


def test_removing_drops_the_line_logs_it_and_recomputes_the_totals() -> None:
    [(status, error, after)] = _run([{"action": "remove", "charter_id": "CH-2", "line_no": 2}])
    assert status == "ok", error
    charter = after["charters"]["CH-2"]
    assert [x["line_no"] for x in charter["lines"]] == [1, 3]
    assert (charter["subtotal"], charter["balance"]) == (335.5, 335.5)
    assert charter["history"][-1] == _logged(2, 4, "BT-4", "line_removed", "2031-06-02")


def test_each_refusal_refuses_and_changes_nothing() -> None:
    calls = [
        {"action": "add", "charter_id": "CH-3", "boat_id": "BT-2", "days": 2},  # sailing, not open
        {"action": "add", "charter_id": "CH-1", "boat_id": "BT-3", "days": 2},  # due a refit
        {"action": "add", "charter_id": "CH-1", "boat_id": "BT-4", "days": 2},  # yawl: banned for SK-1
        {"action": "add", "charter_id": "CH-1", "boat_id": "BT-9", "days": 2},  # no such boat
        {"action": "remove", "charter_id": "CH-1", "line_no": 1},  # the lead line
        {"action": "remove", "charter_id": "CH-1", "line_no": 9},  # no such line
    ]
    for call, (status, error, after) in zip(calls, _run(calls)):
        assert status == "tool_error" and error, call
        assert after in (None, STATE), call
    [(status, _, _)] = _run([{"action": "add", "charter_id": "CH-2", "boat_id": "BT-4", "days": 2}])
    assert status == "ok"  # the yawl is banned only for the first skipper


def test_line_cases_reach_both_modes_where_the_random_arguments_do_not() -> None:
    hard = copy.deepcopy(STATE)
    hard["charters"]["CH-1"] = _charter("CH-1", "closed", "SK-1", [_line(1, "BT-1", 2, True)], 0.0, [])
    hard["skippers"]["SK-1"]["banned_rigs"] = ["sloop", "ketch"]
    wild = {"action": "add", "charter_id": "CH-9", "boat_id": "BT-0", "days": 0}
    plan = _plan()
    cases = line_cases(plan, [Case(SPEC.name, "llm-cases", hard, wild)], ARGS["properties"])
    assert sorted(c.arguments["action"] for c in cases) == ["add", "remove"]
    args = {c.arguments["action"]: c.arguments for c in cases}
    assert args["add"] == {"action": "add", "charter_id": "CH-1", "boat_id": "BT-4", "days": 1}
    assert args["remove"] == {"action": "remove", "charter_id": "CH-1", "line_no": 2}
    source = render_tool(SPEC, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    runs = [{"function": SPEC.name, "state": c.state, "arguments": c.arguments} for c in cases]
    assert [o.status for o in run_cases(module, runs)] == ["ok", "ok"]
    assert [o.status for o in run_cases(module, [{"function": SPEC.name, "state": hard, "arguments": wild}])] == [
        "tool_error"
    ]


def test_line_cases_need_a_by_mode_plan_and_a_state() -> None:
    assert line_cases(BASE, [Case(SPEC.name, "llm-cases", STATE, {})], ARGS["properties"]) == []
    assert line_cases(_plan(), [Case(SPEC.name, "llm-cases", {"charters": {}}, {})], ARGS["properties"]) == []


def test_mode_segments_reads_the_named_label_with_its_needs() -> None:
    param, segments, shared = mode_segments(SPEC)
    assert param == "action" and sorted(segments) == ["add", "remove"]
    assert segments["add"].startswith("(requires boat_id and days 1-14): appends a new line")
    assert segments["remove"].startswith("(requires line_no): deletes that line.")
    assert "Change the boat lines" in shared and "are recalculated" in shared and "appends" not in shared


def test_next_number_and_product_sources_render() -> None:
    number = _pysource({"from": "next_number", "list": "lines", "field": "line_no"}, "f")
    space = {"fg_number": fg_number, "copy": copy, "arguments": {"days": 3}}
    assert eval(number, {**space, "record": {"lines": [{"line_no": 4}, {"line_no": 7}, "x"]}}) == 8
    assert eval(number, {**space, "record": {"lines": []}}) == 1
    product = {"from": "product", "of": [{"from": "arg", "name": "days"}, {"from": "const", "value": 33.335}]}
    assert eval(_pysource({**product, "digits": 2}, "f"), {**space, "record": {}}) == round(3 * 33.335, 2)
    assert eval(_pysource({**product, "digits": 2}, "f"), {**space, "arguments": {}, "record": {}}) is None


def test_named_not_listed_refuses_only_a_listed_value() -> None:
    check = {"op": "named_not_listed", "collection": "boats", "arg": "boat_id", "field": "rig"}
    check |= {"holder": "skippers", "via": "skipper_id", "list": "banned_rigs"}
    record = {"skipper_id": "SK-1"}
    assert not fg_list_rule(check, {"boat_id": "BT-4"}, record, STATE)
    assert fg_list_rule(check, {"boat_id": "BT-1"}, record, STATE)
    assert fg_list_rule(check, {"boat_id": "BT-9"}, record, STATE)  # no such boat: another check's refusal
    assert fg_list_rule(check, {"boat_id": "BT-4"}, {"skipper_id": "SK-9"}, STATE)


def test_no_plan_without_the_numbering_sentence() -> None:
    assert _plan() is not None
    assert _plan(TEXT.replace("numbered after the highest existing line_no", "at the end")) is None


def test_no_plan_when_the_title_cannot_be_joined() -> None:
    odd = copy.deepcopy(STATE)
    odd["charters"]["CH-2"]["lines"][2]["title"] = "Mystery boat"
    assert _plan(state=odd) is None


def test_no_plan_when_the_banned_list_is_not_a_field() -> None:
    assert _plan(TEXT.replace("banned rigs list", "banned hulls list")) is None
