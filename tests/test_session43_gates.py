"""Four marina-docs behaviours changed in session 43, each fed made-up harbour data:

- list_rules.sort_fields: the fields the docs order a list by ("ordered by boat id, of boats {...}");
- gate._unmet_stated_changes: an "Effects:" paragraph naming a linked record's field (a skipper's
  `current_charter_id` cleared) that no effect of the plan writes or reads;
- trace_outputs.answered_fields: an answered number learned as one stored number minus another
  (`free_berths` = `berths - moored`), and no rule where two pairs fit or the answer is constant;
- tool_stage.build_tool: a passing write that reproduces none of its recorded calls, or fewer than the recorded
  refusals (which a missing tool would match), is left out.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

import synth.envsynth.gate as gate
import synth.envsynth.tool_stage as tool_stage
from synth.envsynth.gate import EFFECTS_LIST, _unmet_stated_changes
from synth.envsynth.list_rules import sort_fields
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.tool_stage import ToolBuild, build_tool
from synth.envsynth.trace_outputs import answered_fields
from synth.spec import ToolSpec

S, N = {"type": "string"}, {"type": "integer"}

# 1. sort_fields


@pytest.mark.parametrize(
    ("text", "record", "expected"),
    [
        ("Returns a list, ordered by boat id, of boats {boat_id, name}", ["boat_id", "name", "pier_id"], ["boat_id"]),
        ("Results are ordered by skipper id and include retired skippers.", ["skipper_id", "name"], ["skipper_id"]),
        ("Charters are sorted by date, newest first.", ["charter_id", "date"], ["-date"]),
        ("Charters are sorted by date and name.", ["charter_id", "date", "name"], ["date", "name"]),
        ("Tides are ordered by tide and date.", ["tide_id", "date"], []),  # `tide` is no field: first must name one
        ("Charters are sorted by date, newest first, then name.", ["date", "name"], []),  # mixed directions
        ("Lists every boat at the pier.", ["boat_id", "name"], []),  # no order stated
    ],
)
def test_sort_fields(text: str, record: list[str], expected: list[str]) -> None:
    assert sort_fields(text, {f: S for f in record}) == expected


# 2. _unmet_stated_changes

STATE = {
    "charters": {"C1": {"charter_id": "C1", "status": "open", "skipper_id": "K1"}},
    "skippers": {"K1": {"skipper_id": "K1", "current_charter_id": "C1", "balance_owed": 0}},
}
STATUS = {"op": "set", "field": "status", "source": {"from": "const", "value": "closed"}}
CLEARED = "Closes a charter.\n\n**Effects**: the charter becomes `closed`; the skipper's `current_charter_id`\ncleared."
UNMET = "the docs say the call changes `current_charter_id`; the plan leaves that as it is"


def _plan(*effects: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "recorded_update", "collection": "charters", "key_field": "charter_id", "effects": list(effects)}


def _unmet(text: str, plan: dict[str, Any], shown: set[str] | None = None) -> list[str]:
    spec = ToolSpec("close_charter", text, {"type": "object", "properties": {"charter_id": S}})
    case = Case("close_charter", "trace", STATE, {"charter_id": "C1"})
    return _unmet_stated_changes(spec, plan, [(case, SimpleNamespace(status="ok", state_after=STATE))], shown)


def test_effects_paragraph_names_linked_field_the_plan_leaves() -> None:
    assert _unmet(CLEARED, _plan(STATUS)) == [UNMET]


def test_effects_paragraph_field_the_plan_mentions_is_met() -> None:
    linked = {**STATUS, "also": {"collection": "skippers", "path": ["current_charter_id"]}}  # read, not `field`
    assert _unmet(CLEARED, _plan(linked)) == []


def test_effects_paragraph_field_outside_shown_is_dropped() -> None:
    assert _unmet(CLEARED, _plan(STATUS), shown={"status"}) == []
    assert _unmet(CLEARED, _plan(STATUS), shown={"status", "current_charter_id"}) == [UNMET]


def test_effects_sentence_with_when_is_not_counted() -> None:
    text = "**Effects**: the charter becomes `closed`. When a fee is given, it goes to the skipper's `balance_owed`."
    assert _unmet(text, _plan(STATUS)) == []
    always = "**Effects**: the charter becomes `closed`. A fee is added to the skipper's `balance_owed`."
    assert _unmet(always, _plan(STATUS)) == [
        "the docs say the call changes `balance_owed`; the plan leaves that as it is"
    ]


def test_paragraph_without_effects_lead_in_counts_no_linked_field() -> None:
    text = "Closes a charter: the charter becomes `closed` and the skipper's `current_charter_id` is cleared."
    assert _unmet(text, _plan(STATUS)) == []


def test_read_plan_is_not_judged() -> None:
    assert _unmet(CLEARED, {**_plan(STATUS), "kind": "get"}) == []


@pytest.mark.parametrize("line", ["Effects: a berth is freed", "**Effects**: a berth is freed", "Side effects: none"])
def test_effects_list_matches(line: str) -> None:
    assert EFFECTS_LIST.search(line)


@pytest.mark.parametrize("line", ["Effects of the tide: none", "The effects: none", "Tide effects are small"])
def test_effects_list_near_misses(line: str) -> None:
    assert EFFECTS_LIST.search(line) is None


# 3. answered_fields

PIERS = ToolPlan(kind="filter", collection="piers", key_field="pier_id")


def _recorded(piers: list[dict[str, Any]], extra: list[int]) -> list[Case]:
    """One recorded list call per pier, each answering its pier with `free_berths` added; the state holds them all."""
    state = {"piers": {p["pier_id"]: p for p in piers}}
    return [
        Case("list_piers", "trace", state, {"pier_id": p["pier_id"]}, False, [{**p, "free_berths": x}], True)
        for p, x in zip(piers, extra)
    ]


def test_difference_learned_as_calc() -> None:
    piers = [
        {"pier_id": "P1", "name": "North", "berths": 10, "moored": 4},
        {"pier_id": "P2", "name": "South", "berths": 8, "moored": 8},
        {"pier_id": "P3", "name": "East", "berths": 12, "moored": 5},
    ]
    got = answered_fields(PIERS, _recorded(piers, [6, 0, 7]))
    assert got is not None
    assert got.output_fields == ["pier_id", "name", "berths", "moored", "free_berths"]
    assert got.output_map == {
        "free_berths": {"op": "calc", "left": "berths", "operator": "-", "right": "moored", "floor": None}
    }


def test_two_fitting_pairs_learn_no_calc() -> None:
    piers = [
        {"pier_id": "P1", "berths": 10, "moored": 4, "slips": 7, "slips_used": 1},
        {"pier_id": "P2", "berths": 8, "moored": 8, "slips": 3, "slips_used": 3},
    ]
    assert answered_fields(PIERS, _recorded(piers, [6, 0])) is None


def test_constant_extra_learns_no_calc() -> None:
    piers = [
        {"pier_id": "P1", "berths": 10, "moored": 8},
        {"pier_id": "P2", "berths": 5, "moored": 3},
    ]
    assert answered_fields(PIERS, _recorded(piers, [2, 2])) is None


def test_one_recording_learns_nothing() -> None:
    piers = [{"pier_id": "P1", "berths": 10, "moored": 4}]
    assert answered_fields(PIERS, _recorded(piers, [6])) is None


# 4. build_tool

MOOR = ToolSpec("moor_boat", "Moors a boat at a berth.", {"type": "object", "properties": {"boat_id": S}})
CALL = Case("moor_boat", "trace", {"boats": {"B1": {"boat_id": "B1"}}}, {"boat_id": "B1"}, False)
REFUSED = Case("moor_boat", "trace", {"boats": {}}, {"boat_id": "B9"}, True)


def _build(monkeypatch: pytest.MonkeyPatch, kind: str, reproduced: int, recorded: list[Case] | None) -> ToolBuild:
    built = ToolBuild(
        "moor_boat",
        "moor_boat",
        "passed",
        "structured",
        "def moor_boat(state, boat_id): ...",
        {"kind": kind, "collection": "boats", "key_field": "boat_id"},
        [],
        traces_reproduced=reproduced,
        traces_total=len(recorded or []),
    )
    monkeypatch.setattr(tool_stage, "_build_tool", lambda *a, **k: built)
    monkeypatch.setattr(gate, "gate_problems", lambda *a, **k: [])
    return build_tool(MOOR, None, None, SimpleNamespace(), recorded=recorded)  # type: ignore[arg-type]


def test_write_reproducing_no_recorded_call_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _build(monkeypatch, "recorded_update", 0, [CALL, REFUSED])
    assert got.status == "failed"
    assert got.last_error == "publish gate: reproduces none of its 2 recorded calls"
    assert _build(monkeypatch, "recorded_update", 0, [CALL]).status == "failed"  # none reproduced, none refused


@pytest.mark.parametrize(
    ("kind", "reproduced", "recorded"),
    [("recorded_update", 1, [CALL]), ("get", 0, [CALL]), ("recorded_update", 0, None), ("recorded_update", 0, [])],
)
def test_build_stays_passed(
    monkeypatch: pytest.MonkeyPatch, kind: str, reproduced: int, recorded: list[Case] | None
) -> None:
    got = _build(monkeypatch, kind, reproduced, recorded)
    assert (got.status, got.last_error) == ("passed", "")


def test_write_reproducing_fewer_calls_than_the_recorded_refusals_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    got = _build(monkeypatch, "recorded_update", 1, [CALL, REFUSED, REFUSED])
    assert got.status == "failed"
    assert got.last_error == (
        "publish gate: reproduces 1 of its 3 recorded calls, fewer than the 2 the real system refused"
    )
    assert _build(monkeypatch, "recorded_update", 2, [CALL, REFUSED, REFUSED]).status == "passed"


def test_the_effects_list_stops_at_the_next_lead_and_needs_a_change_word() -> None:
    errors = (
        "Closes a charter.\n\n**Effects**: the charter becomes `closed`.\n**Errors**: 404 for an unknown `skipper_id`."
    )
    assert _unmet(errors, _plan(STATUS)) == []
    assert (
        _unmet("Closes a charter.\n\n**Effects**: fees follow the skipper's `current_charter_id`.", _plan(STATUS)) == []
    )
