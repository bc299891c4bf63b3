"""A measure of the working node's subtree learned from recorded answers (trace_measure.py)."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_measure import learn_tree_total, number_format, subtree_measure, working_nodes
from synth.spec import ToolSpec

INFO = {"children": "kids", "kind_field": "type", "branch": "dir", "leaf": "file", "text_field": "text"}
SPEC = ToolSpec(
    "usage",
    "Estimate the space a folder takes.",
    {"type": "object", "properties": {"pretty": {"type": "boolean", "description": "Readable units."}}},
)


def _state(texts: dict[str, str], cwd: list[str] | None = None) -> dict:
    inner = {n: {"type": "file", "text": t} for n, t in texts.items()}
    top = {"type": "dir", "kids": {"a.txt": {"type": "file", "text": "abc"}, "sub": {"type": "dir", "kids": inner}}}
    state: dict = {"fs": {"home": top}}
    if cwd is not None:
        state["fs_cwd"] = cwd
    return state


def _case(state: dict, answer: object) -> Case:
    return Case(
        "usage", "trace", state, {"pretty": True}, expect_error=False, expect_result=answer, has_expected_result=True
    )


def test_number_formats() -> None:
    assert number_format("86.00 B", 86) == {"prefix": "", "decimals": 2, "suffix": " B"}
    assert number_format("total: 7 files", 7) == {"prefix": "total: ", "decimals": 0, "suffix": " files"}
    assert number_format(7, 7) == {} and number_format(7, 8) is None and number_format("12 B", 7) is None
    assert number_format(True, 1) is None


def test_measures_follow_the_working_node() -> None:
    state = _state({"b.txt": "hello", "c.txt": "xy"})
    assert subtree_measure(working_nodes(state, "fs", INFO), INFO, "text_length") == 3 + 5 + 2
    assert subtree_measure(working_nodes(state, "fs", INFO), INFO, "leaves") == 3
    assert subtree_measure(working_nodes(state, "fs", INFO), INFO, "nodes") == 4
    below = _state({"b.txt": "hello", "c.txt": "xy"}, cwd=["sub"])
    assert subtree_measure(working_nodes(below, "fs", INFO), INFO, "text_length") == 7


def test_learned_total_reproduces_the_recorded_answers() -> None:
    recorded = [
        _case(_state({"b.txt": "hello"}), {"usage": "8.00 B"}),
        _case(_state({"b.txt": "hi", "c.txt": "there"}, cwd=["sub"]), {"usage": "7.00 B"}),
    ]
    plan = learn_tree_total(SPEC, {"fs": INFO}, recorded)
    assert plan is not None and plan.measure == "text_length" and plan.output_key == "usage"
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    res, err = run_cases(render_tool(SPEC, plan, schema.state_schema), "usage", recorded, schema)
    assert err == "" and res.passed == 2
    counted = [_case(_state({"b.txt": "hello", "c.txt": "x"}), {"usage": "3 files"})]
    assert learn_tree_total(SPEC, {"fs": INFO}, counted).measure == "leaves"


def test_no_total_when_no_measure_explains_every_answer() -> None:
    recorded = [_case(_state({"b.txt": "hello"}), {"usage": "8.00 B"}), _case(_state({}), {"usage": "99.00 B"})]
    assert learn_tree_total(SPEC, {"fs": INFO}, recorded) is None
    mixed = [_case(_state({"b.txt": "hello"}), {"usage": "8.00 B"}), _case(_state({}), {"size": "3.00 B"})]
    assert learn_tree_total(SPEC, {"fs": INFO}, mixed) is None
    named = ToolSpec("usage", "x", {"type": "object", "properties": {"folder": {"type": "string"}}})
    assert learn_tree_total(named, {"fs": INFO}, recorded[:1]) is None  # a node name: not a working-node total
