"""An entry text showing a number as the change leaves it ("'launch try <n> failed' (n = the new `tries`)") while
the same change adds 1 to it (after_values.py, docs_appends.noted_entries): planned from the docs and run."""

from __future__ import annotations

from synth.envsynth.after_values import after_values
from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
LOG = {
    "type": "object",
    "properties": {"date": S, "status": {"type": "string", "x-enum": ["ready", "waiting"]}, "note": S},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "launches": collection(
            {
                "launch_id": S,
                "status": {"type": "string", "x-enum": ["ready", "waiting"]},
                "tries": {"type": "integer"},
                "log": {"type": "array", "items": LOG},
            }
        )
    },
}
TEXT = (
    "Records a failed launch. The launch must be 'ready'. The launch's tries goes up by 1, status becomes "
    "'waiting' with log note 'launch try <n> failed' (n = the new tries). "
    "Log entries are dated with the yard's business date, 2031-04-02."
)
FAIL = ToolSpec("fail_launch", TEXT, {"type": "object", "properties": {"launch_id": S}, "required": ["launch_id"]})
BASE = ToolPlan(kind="update", collection="launches", key_param="launch_id")


def test_the_entry_shows_the_count_after_the_step() -> None:
    plan = docs_transition(FAIL, BASE, SCHEMA, "")
    assert plan is not None
    logged = next(e for e in plan.effects if e["op"] == "append")["items"][0]["fields"]["note"]
    moved = {"from": "expr", "expr": {"plus": [{"path": ["tries"]}, {"const": 1}], "minus": []}}
    assert logged == {"from": "concat", "parts": ["launch try ", moved, " failed"]}
    state = {"launches": {"L1": {"launch_id": "L1", "status": "ready", "tries": 2, "log": []}}}
    case = Case("fail_launch", "x", state, {"launch_id": "L1"}, expect_error=False)
    entry = {"date": "2031-04-02", "status": "waiting", "note": "launch try 3 failed"}
    case.state_checks = [
        {"op": "field_equals", "collection": "launches", "key": "L1", "field": "log", "value": [entry]},
        {"op": "field_equals", "collection": "launches", "key": "L1", "field": "tries", "value": 3},
    ]
    res, err = run_cases(render_tool(FAIL, plan, SCHEMA), "fail_launch", [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_no_step_on_the_field_leaves_the_reading_as_it_is() -> None:
    entry = {"op": "append", "field": "log", "items": [{"fields": {"note": {"from": "record", "path": ["tries"]}}}]}
    said = "'try <n>' (n = the new tries)"
    assert after_values(said, [entry], "launch_id") == [entry]
    step = {
        "op": "adjust",
        "collection": "launches",
        "path": [{"from": "arg", "name": "launch_id"}, {"from": "const", "value": "tries"}],
        "delta": {"from": "expr", "expr": {"plus": [{"const": 1}]}},
    }
    moved = after_values(said, [step, entry], "launch_id")[1]["items"][0]["fields"]["note"]
    assert moved == {"from": "expr", "expr": {"plus": [{"path": ["tries"]}, {"const": 1}], "minus": []}}
    assert after_values("'try <n>'", [step, entry], "launch_id")[1] == entry  # the docs do not say "the new"


HAND = ToolSpec(
    "hand_over_launch",
    "Hands the launch to another yard: status becomes 'waiting', all of its spare_berths move to the other yard "
    "(the local count drops to 0) and a 'waiting' log entry is written.",
    {"type": "object", "properties": {"launch_id": S, "yard": S}, "required": ["launch_id", "yard"]},
)


def test_a_count_moved_away_is_the_number_the_call_found() -> None:
    from synth.envsynth.after_values import moved_counts

    zero = {"op": "set", "field": "spare_berths", "source": {"from": "const", "value": 0}}
    text = {"from": "concat", "parts": ["2 berths moved to ", {"from": "arg", "name": "yard"}]}
    entry = {"op": "append", "field": "log", "items": [{"fields": {"note": text}}]}
    _, moved = moved_counts(HAND.description, [zero, entry])
    found = {"from": "record", "path": ["spare_berths"], "before": True}
    assert moved["items"][0]["fields"]["note"]["parts"] == [found, " berths moved to ", {"from": "arg", "name": "yard"}]
    other = {"from": "concat", "parts": ["2 crews moved to ", {"from": "arg", "name": "yard"}]}  # no field counts crews
    kept = {**entry, "items": [{"fields": {"note": other}}]}
    assert moved_counts(HAND.description, [zero, kept])[1] == kept
    quiet = HAND.description.replace("move to the other yard", "are cleared")  # the docs do not say they move
    assert moved_counts(quiet, [zero, entry])[1] == entry
