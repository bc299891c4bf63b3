"""The tool dependency graph: candidate edges from schemas and hints, the LLM keep policy, graph.json."""

from __future__ import annotations

import json

from synth.tasks.envmodel import load_model, model_from_parts
from synth.tasks.graph import build_graph, candidate_edges, load_graph, save_graph
from synth.tasks.testing import STATE_SCHEMA, FakeLLM, manifest_tools, write_env_dir


def _model(tmp_path):
    return load_model(write_env_dir(tmp_path / "env"))


def _edge(edges, source, target, kind="data"):
    return next((e for e in edges if e.source == source and e.target == target and e.kind == kind), None)


def test_key_edges_connect_record_producers_to_key_parameters(tmp_path):
    edges = candidate_edges(_model(tmp_path))
    e = _edge(edges, "create_todo", "update_todo")
    assert e is not None and e.strength == "strong"
    assert [(b.param, b.via, b.collection) for b in e.bindings if b.via == "key"] == [("todo_id", "key", "todos")]
    assert any("todo_id" in ev for ev in e.evidence)
    # a project record feeds create_todo.project_id; a create never takes its own new key from elsewhere
    assert _edge(edges, "list_projects", "create_todo").bindings[0].param == "project_id"
    assert _edge(edges, "list_todos", "create_todo") is None
    # the search query is not a record key
    assert _edge(edges, "get_todo", "search_todos") is None or all(
        b.via != "key" for b in _edge(edges, "get_todo", "search_todos").bindings
    )


def test_state_edges_join_writers_to_readers(tmp_path):
    edges = candidate_edges(_model(tmp_path))
    st = _edge(edges, "delete_todo", "list_todos", kind="state")
    assert st is not None and st.collections == ["todos"]
    assert _edge(edges, "list_todos", "delete_todo", kind="state") is None  # a read writes nothing


def test_field_edges_need_same_name_and_type(tmp_path):
    edges = candidate_edges(_model(tmp_path))
    e = _edge(edges, "get_todo", "list_todos")
    assert e is not None and [(b.param, b.via) for b in e.bindings] == [("done", "field")]
    assert e.strength == "weak"


def test_policy_strong_edges_survive_a_no_weak_ones_do_not(tmp_path):
    model = _model(tmp_path)
    g = build_graph(model, FakeLLM(answer_no=True))
    strong = [e for e in g.edges if e.strength == "strong"]
    weak = [e for e in g.edges if e.strength == "weak"]
    assert strong and weak
    assert all(e.kept and e.reason == "strong; llm_disagrees" for e in strong)
    assert all(not e.kept and e.llm["says"] is False for e in weak)
    g2 = build_graph(model, FakeLLM())
    assert all(e.kept for e in g2.edges)
    assert all(e.llm["question"] and e.llm["answer"] for e in g2.edges)


def test_without_hints_edges_come_from_names(tmp_path):
    tools = [
        {k: v for k, v in t.items() if k not in ("kind", "reads", "writes", "key_param", "collection")}
        for t in manifest_tools()
    ]
    model = model_from_parts("nohints", tools, STATE_SCHEMA)
    assert model.tools["delete_todo"].kind == "delete" and model.tools["delete_todo"].key_param == "todo_id"
    e = _edge(candidate_edges(model), "get_todo", "delete_todo")
    assert e is not None and e.strength == "weak" and e.bindings[0].collection == "todos"


def test_graph_json_roundtrip_and_networkx(tmp_path):
    model = _model(tmp_path)
    g = build_graph(model, FakeLLM(answer_no=True))
    path = save_graph(g, tmp_path / "env")
    data = json.loads(path.read_text())
    assert data["counts"]["candidates"] == len(g.edges)
    assert data["counts"]["kept"] == len(g.kept_edges()) < len(g.edges)
    back = load_graph(tmp_path / "env")
    assert back.to_dict() == g.to_dict()
    nxg = back.nx()
    assert set(nxg.nodes) == set(model.tools)
    assert nxg.number_of_edges() == len(g.kept_edges())
