"""Walks on the tool graph, merging two walks, reasoning nodes, and the DAG structure."""

from __future__ import annotations

import random

import pytest

from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.envmodel import load_model
from synth.tasks.graph import build_graph
from synth.tasks.testing import write_env_dir
from synth.tasks.walks import WalkConfig, add_reasoning, merge, plan_sequence, random_walk, remove_redundant


@pytest.fixture()
def env(tmp_path):
    model = load_model(write_env_dir(tmp_path / "env"))
    return model, build_graph(model, None)


def _call(i, tool, **args):
    return DagNode(id=i, kind="call", tool=tool, args=dict(args))


def test_walks_follow_kept_edges_and_are_seeded(env):
    model, graph = env
    kept = {(e.source, e.target) for e in graph.kept_edges()}
    for seed in range(20):
        a = random_walk(graph, model, random.Random(seed), 5)
        b = random_walk(graph, model, random.Random(seed), 5)
        assert a.to_dict() == b.to_dict()
        tools = [n.tool for n in a.nodes]
        assert 1 <= len(tools) <= 5
        assert all((x, y) in kept for x, y in zip(tools, tools[1:]))
        assert a.is_valid() is None


def test_walk_binds_key_parameters_to_earlier_outputs(env):
    model, graph = env
    dag = random_walk(graph, model, random.Random(0), 2, start="create_todo")
    dag.nodes = dag.nodes[:1]
    dag.nodes.append(DagNode(id="w0.1", kind="call", tool="update_todo"))
    from synth.tasks.walks import _bind

    node = dag.nodes.pop()
    _bind(dag, node, graph, model, "w0.0")
    assert node.args["todo_id"].source == "output" and node.args["todo_id"].node == "w0.0"
    assert "title" not in node.args  # a write never copies a field from an earlier output


def test_merge_keeps_each_order_and_removes_a_repeated_read(env):
    model, _ = env
    a = TaskDAG([_call("x0", "list_todos"), _call("x1", "get_todo")])
    b = TaskDAG(
        [
            _call("y0", "list_todos"),
            _call(
                "y1",
                "delete_todo",
                todo_id=ArgSource("output", node="y0", binding={"via": "key", "collection": "todos"}),
            ),
        ]
    )
    merged, removed = merge(a, b, random.Random(3), model)
    tools = [n.tool for n in merged.nodes]
    assert tools.count("list_todos") == 1 and len(removed) == 1
    delete = next(n for n in merged.nodes if n.tool == "delete_todo")
    lister = next(n for n in merged.nodes if n.tool == "list_todos")
    assert delete.args["todo_id"].node == lister.id  # rewired to the kept read
    assert merged.is_valid() is None
    assert tools.index("get_todo") > tools.index("list_todos")


def test_a_read_after_a_write_to_its_collection_is_not_redundant(env):
    model, _ = env
    dag = TaskDAG([_call("a", "list_todos"), _call("b", "delete_todo"), _call("c", "list_todos")])
    assert remove_redundant(dag, model) == []
    dag = TaskDAG([_call("a", "list_todos"), _call("b", "create_project"), _call("c", "list_todos")])
    assert remove_redundant(dag, model) == ["c"]


def test_reasoning_nodes_sit_between_a_list_and_the_call_that_needs_one_record(env):
    model, _ = env
    src = ArgSource("output", node="a", binding={"via": "key", "collection": "todos", "param": "todo_id"})
    dag = TaskDAG([_call("a", "list_todos"), _call("b", "update_todo", todo_id=src)])
    out = add_reasoning(dag, model, random.Random(1), WalkConfig(p_compare=1.0, p_compute=1.0))
    kinds = [(n.kind, n.op) for n in out.nodes]
    assert kinds[0] == ("call", None) and kinds[-1] == ("call", None)
    ops = [n.op for n in out.reasons()]
    assert "compare" in ops and "compute" in ops
    upd = out.nodes[-1]
    assert upd.args["todo_id"].source == "reason"
    assert any(e["kind"] == "reason" for e in out.edges())
    assert out.is_valid() is None
    assert out.depth() == 3  # list -> compare -> update


def test_plan_sequence_spreads_sizes_and_merges_some(env):
    model, graph = env
    sizes, merged = set(), 0
    for seed in range(30):
        dag, prov = plan_sequence(graph, model, random.Random(seed))
        assert dag.is_valid() is None
        sizes.add(dag.size())
        merged += prov["merged"]
    assert len(sizes) >= 4
    assert 0 < merged < 30


def test_dag_checks_order_and_roundtrips(env):
    dag = TaskDAG(
        [
            _call("a", "list_todos"),
            DagNode(id="r", kind="reason", op="pick", inputs=["a"]),
            _call("b", "delete_todo", todo_id=ArgSource("reason", node="r")),
        ]
    )
    assert dag.is_valid() is None
    assert dag.topo_order() == ["a", "r", "b"]
    assert TaskDAG.from_dict(dag.to_dict()).to_dict() == dag.to_dict()
    bad = TaskDAG(
        [
            _call("b", "delete_todo", todo_id=ArgSource("reason", node="r")),
            DagNode(id="r", kind="reason", op="pick", inputs=["a"]),
            _call("a", "list_todos"),
        ]
    )
    assert "before it runs" in bad.is_valid()
    dag.renumber()
    assert [n.id for n in dag.nodes] == ["n0", "r0", "n1"] and dag.nodes[2].args["todo_id"].node == "r0"
