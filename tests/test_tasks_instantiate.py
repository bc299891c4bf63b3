"""Initial states and DAG execution: the gold actions come from running the DAG; failures are repaired or dropped."""

from __future__ import annotations

import random

import pytest

from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.envmodel import load_model
from synth.tasks.instantiate import Dropped, Instance, instantiate
from synth.tasks.runner import replay
from synth.tasks.state_fill import check_state, fill_state
from synth.tasks.testing import FakeLLM, function_runner, write_env_dir
from synth.tasks.values import build_pool, clean_answer


@pytest.fixture()
def model(tmp_path):
    return load_model(write_env_dir(tmp_path / "env"))


def _key(node):
    return ArgSource("output", node=node, binding={"via": "key", "collection": "todos", "param": "todo_id"})


def test_filled_states_follow_the_schema_with_references_and_counters(model):
    pool = build_pool(model, FakeLLM())
    for seed in range(10):
        st = fill_state(model, random.Random(seed), pool, {"todos": 7})
        assert check_state(model, st) is None
        assert len(st["todos"]) >= 7 and len(st["projects"]) >= 3
        assert all(k == str(r["id"]) for k, r in st["todos"].items())
        assert all(str(r["project_id"]) in st["projects"] for r in st["todos"].values() if "project_id" in r)
        assert st["next_todo_id"] == max(int(k) for k in st["todos"]) + 1
    assert fill_state(model, random.Random(4), pool) == fill_state(model, random.Random(4), pool)


def test_pool_keeps_valid_model_answers_and_falls_back_otherwise(model):
    pool = build_pool(model, FakeLLM(), per_field=4)
    assert pool.source["todo.title"] == {"llm": 4, "fallback": 0}
    assert all(v.startswith("Plan the") for v in pool.values["todo.title"])
    assert clean_answer('Title: "Buy milk".') == "Buy milk"
    assert clean_answer("Sure! Here is a title for your todo item about the garden") is None
    assert clean_answer("x") is None and clean_answer("{json}") is None


def test_dag_runs_in_order_and_binds_outputs(model):
    dag = TaskDAG(
        [
            DagNode(id="n0", kind="call", tool="create_todo"),
            DagNode(id="n1", kind="call", tool="list_todos"),
            DagNode(id="r0", kind="reason", op="pick", inputs=["n1"], detail={"collection": "todos"}),
            DagNode(
                id="n2",
                kind="call",
                tool="update_todo",
                args={"todo_id": ArgSource("reason", node="r0", binding={"via": "key", "collection": "todos"})},
            ),
            DagNode(id="n3", kind="call", tool="delete_todo", args={"todo_id": _key("n0")}),
        ]
    )
    runner = function_runner()
    inst = instantiate(dag, model, runner, random.Random(5), build_pool(model, None))
    assert isinstance(inst, Instance), inst
    assert [a.name for a in inst.gold_actions] == ["create_todo", "list_todos", "update_todo", "delete_todo"]
    created = inst.gold_outputs[0]
    assert inst.gold_actions[3].arguments["todo_id"] == created["id"]
    pick = dag.node("r0")
    assert pick.value == inst.gold_actions[2].arguments["todo_id"]
    assert pick.detail["field"] and pick.detail["among"] >= 3
    listed = [r["id"] for r in inst.gold_outputs[1]]
    assert pick.value in listed
    # the gold final state is what replaying the gold actions gives
    final, outcomes = replay(runner, inst.initial_state, inst.gold_actions)
    assert all(o.ok for o in outcomes) and final == inst.final_state
    assert str(created["id"]) not in final["todos"]


def test_compute_derives_the_number_from_what_a_read_showed(model):
    dag = TaskDAG(
        [
            DagNode(id="n0", kind="call", tool="get_todo"),
            DagNode(
                id="r0", kind="reason", op="compute", inputs=["n0"], detail={"collection": "todos", "field": "priority"}
            ),
            DagNode(
                id="n1",
                kind="call",
                tool="update_todo",
                args={"todo_id": _key("n0"), "priority": ArgSource("reason", node="r0", binding={"via": "compute"})},
            ),
        ]
    )
    inst = instantiate(dag, model, function_runner(), random.Random(2), build_pool(model, None))
    assert isinstance(inst, Instance), inst
    d = dag.node("r0").detail
    assert d["base"] == inst.gold_outputs[0]["priority"]
    assert inst.gold_actions[1].arguments["priority"] == d["base"] + d["delta"]
    assert 1 <= d["base"] + d["delta"] <= 5


def test_a_dag_that_cannot_run_is_dropped_with_its_reason(model):
    # the update reads a todo the delete before it removed
    dag = TaskDAG(
        [
            DagNode(id="n0", kind="call", tool="get_todo"),
            DagNode(id="n1", kind="call", tool="delete_todo", args={"todo_id": _key("n0")}),
            DagNode(id="n2", kind="call", tool="update_todo", args={"todo_id": _key("n0")}),
        ]
    )
    out = instantiate(dag, model, function_runner(), random.Random(0), build_pool(model, None))
    assert isinstance(out, Dropped) and out.stage == "execute"
    assert "n2 update_todo" in out.reason and "not found" in out.reason


def test_an_unused_failing_read_is_removed_as_a_repair(model):
    dag = TaskDAG(
        [
            DagNode(id="n0", kind="call", tool="create_todo"),
            DagNode(id="n1", kind="call", tool="delete_todo", args={"todo_id": _key("n0")}),
            DagNode(id="n2", kind="call", tool="get_todo", args={"todo_id": _key("n0")}),
        ]
    )
    inst = instantiate(dag, model, function_runner(), random.Random(0), build_pool(model, None))
    assert isinstance(inst, Instance)
    assert [a.name for a in inst.gold_actions] == ["create_todo", "delete_todo"]
    assert any("removed read n2" in r for r in inst.repairs)
