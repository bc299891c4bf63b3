"""A change crediting every skipper on a race's crew list but the ones listed as absent, who get a missed count and
a `missed` log entry each (shaped like the log's entries naming a skipper); planned from the docs and run."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.roster_moves import roster_moves
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

TODAY = "2031-06-10"
S = {"type": "string"}
N = {"type": "number"}
ENTRY = {
    "type": "object",
    "properties": {"date": S, "event": {"type": "string", "x-enum": ["entered", "sailed"]}, "skipper_id": S, "note": S},
}
RACE = {
    "race_id": S,
    "miles": N,
    "status": S,
    "skipper_ids": {"type": "array", "items": S},
    "log": {"type": "array", "items": ENTRY},
}
SKIPPER = {"skipper_id": S, "miles_sailed": N, "races_sailed": {"type": "integer"}, "missed_count": {"type": "integer"}}
SCHEMA = {"type": "object", "properties": {"races": _collection(RACE), "skippers": _collection(SKIPPER)}}
TEXT = (
    "Closes out a race. Every skipper on the crew list who is not listed as absent is credited the race's `miles` "
    "(added to `miles_sailed`) and one more `races_sailed`. Each absent skipper gets one more `missed_count` and a "
    "`missed` log entry on the race. Finally a `sailed` entry is appended to the race's log."
)
PARAMS = {"race_id": S, "absent_skipper_ids": {"type": "array", "items": S}}
CLOSE = ToolSpec("close_race", TEXT, {"type": "object", "properties": PARAMS, "required": ["race_id"]})
LOG = [
    {"date": "2031-06-01", "event": "entered", "skipper_id": "K1", "note": ""},
    {"date": "2031-06-02", "event": "entered", "skipper_id": "K2", "note": ""},
    {"date": "2031-05-01", "event": "sailed", "note": "fog"},
]
STATE = {
    "races": {"R1": {"race_id": "R1", "miles": 12.5, "status": "open", "skipper_ids": ["K1", "K2"], "log": LOG}},
    "skippers": {
        k: {"skipper_id": k, "miles_sailed": 100.0, "races_sailed": 3, "missed_count": 0} for k in ("K1", "K2")
    },
}
SAILED = {"fields": {"date": {"from": "const", "value": TODAY}, "event": {"from": "const", "value": "sailed"}}}
BASE = ToolPlan(
    kind="recorded_update",
    collection="races",
    key_field="race_id",
    key_param="race_id",
    effects=[
        {"op": "set", "field": "status", "source": {"from": "const", "value": "done"}},
        {"op": "append", "field": "log", "items": [SAILED]},
        {"op": "set", "field": "close_absent_skippers", "source": {"from": "arg", "name": "absent_skipper_ids"}},
    ],
)


def test_the_crew_credited_and_the_absent_marked() -> None:
    plan = roster_moves(CLOSE, BASE, SCHEMA, TEXT, STATE, TODAY)
    assert [e["op"] for e in plan.effects] == ["set", "each_id_append", "append"] + ["each_id_adjust"] * 3
    after = copy.deepcopy(STATE)
    after["races"]["R1"]["status"] = "done"
    after["races"]["R1"]["log"] += [
        {"date": TODAY, "event": "missed", "skipper_id": "K2", "note": ""},
        {"date": TODAY, "event": "sailed"},
    ]
    after["skippers"]["K1"].update(miles_sailed=112.5, races_sailed=4)
    after["skippers"]["K2"]["missed_count"] = 1
    case = Case(CLOSE.name, "x", STATE, {"race_id": "R1", "absent_skipper_ids": ["K2"]}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    everyone = copy.deepcopy(STATE)
    everyone["races"]["R1"]["status"] = "done"
    everyone["races"]["R1"]["log"].append({"date": TODAY, "event": "sailed"})
    for k in ("K1", "K2"):
        everyone["skippers"][k].update(miles_sailed=112.5, races_sailed=4)
    full = Case(CLOSE.name, "x", STATE, {"race_id": "R1"}, expect_error=False)
    full.state_checks = [{"op": "equals", "state": everyone}]
    res, err = run_cases(
        render_tool(CLOSE, plan, SCHEMA), CLOSE.name, [case, full], SchemaResult(SCHEMA, {}, {}, "docs")
    )
    assert err == "" and res.passed == 2


def test_nothing_read_without_the_roster_or_its_list_argument() -> None:
    bare = ToolSpec(CLOSE.name, TEXT, {"type": "object", "properties": {"race_id": S}, "required": ["race_id"]})
    assert roster_moves(bare, BASE, SCHEMA, TEXT, STATE, TODAY) == BASE  # no list of absent ones
    odd = TEXT.replace("`missed` log entry", "`missed` tally entry")  # no such list: the entry is not read
    assert roster_moves(CLOSE, BASE, SCHEMA, odd, STATE, TODAY) == BASE
