"""Questions on a graph-shaped state (nodes and typed links) on a small hand-made environment."""

from __future__ import annotations

import copy
import random

from synth.task import Task
from synth.tasks.envmodel import model_from_parts
from synth.tasks.graph_questions import _unique_links, graph_shape, make_graph_question
from synth.tasks.probes import run_probes
from synth.tasks.runner import FunctionRunner
from synth.tasks.values import TextPool

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "people": {
            "type": "object",
            "x-key-field": "name",
            "additionalProperties": {
                "type": "object",
                "properties": {"name": S, "person_type": S, "notes": {"type": "array", "items": S}},
                "required": ["name"],
            },
        },
        "ties": {
            "type": "object",
            "x-composite-key": ["source", "kind", "target"],
            "additionalProperties": {
                "type": "object",
                "properties": {"source": S, "kind": S, "target": S},
                "required": ["source", "kind", "target"],
            },
        },
    },
    "required": ["people", "ties"],
}


def _tool(name, kind, params, required=(), reads=("people",), collection="people"):
    return {
        "name": name,
        "kind": kind,
        "description": "",
        "collection": collection,
        "reads": list(reads),
        "writes": [],
        "parameters": {"type": "object", "properties": params, "required": list(required)},
    }


TOOLS = [
    _tool("whole_map", "dump", {}, reads=("people", "ties"), collection=None),
    _tool("fetch_people", "get_many", {"who": {"type": "array", "items": S}}, ["who"]),
]


def whole_map(state):
    return {
        "people": [state["people"][k] for k in sorted(state["people"])],
        "ties": sorted(state["ties"].values(), key=str),
    }


def fetch_people(state, who):
    return [copy.deepcopy(state["people"][w]) for w in who if w in state["people"]]


def lookup_people(state, text):
    return [copy.deepcopy(r) for k, r in sorted(state["people"].items()) if text.lower() in str(r).lower()]


RUNNER_FUNCS = {"whole_map": whole_map, "fetch_people": fetch_people, "lookup_people": lookup_people}
SEARCH = _tool("lookup_people", "search", {"text": S}, ["text"])


def _model(extra=()):
    return model_from_parts("ties_env", copy.deepcopy(TOOLS + list(extra)), copy.deepcopy(SCHEMA), "Team Map")


def _pool():
    pool = TextPool()
    pool.values["person.notes"] = [
        "Prefers calls after lunch",
        "Owns the garden budget",
        "Speaks Portuguese",
        "Runs the book club",
        "Allergic to peanuts",
    ]
    pool.values["person.person_type"] = ["editor", "coach", "designer"]
    pool.values["tie.kind"] = ["mentors", "reports to", "works with", "married to"]
    return pool


def test_shape_names_the_link_fields_and_tools():
    g = graph_shape(_model())
    assert (g.nodes, g.links, g.source, g.target, g.kind) == ("people", "ties", "source", "target", "kind")
    assert (g.notes, g.dump, g.open, g.open_param) == ("notes", "whole_map", "fetch_people", "who")
    assert (g.node_kind, g.search) == ("person_type", None)
    assert graph_shape(_model([SEARCH])).search == "lookup_people"
    tools = [t for t in copy.deepcopy(TOOLS) if t["kind"] != "dump"]
    assert graph_shape(model_from_parts("x", tools, copy.deepcopy(SCHEMA))) is None


def test_only_links_that_name_one_other_node_are_asked_about():
    g = graph_shape(_model())
    people = {n: {"name": n} for n in ("A", "B", "C")}
    ties = {
        "1": {"source": "A", "kind": "mentors", "target": "B"},
        "2": {"source": "A", "kind": "mentors", "target": "C"},  # two links of one kind from A: ambiguous
        "3": {"source": "B", "kind": "knows", "target": "B"},  # a loop
        "4": {"source": "C", "kind": "knows", "target": "B"},
        "5": {"source": "C", "kind": "helps", "target": "A"},  # A and C are linked twice (2 and 5)
    }
    assert _unique_links({"people": people, "ties": ties}, g) == [ties["4"]]


def _questions(recipe_index, extra=(), min_calls=1):
    model = _model(extra)
    g = graph_shape(model)
    runner = FunctionRunner(RUNNER_FUNCS)
    out = []
    for i in range(30):
        index = recipe_index * 5 + 4 + 20 * i  # RECIPES[index // 5 % 4] == RECIPES[recipe_index]
        t = make_graph_question(index, model, g, runner, random.Random(i), _pool(), 0, min_calls)
        if isinstance(t, Task):
            out.append((t, runner, model))
    assert out, "no question kept in 30 candidates"
    return out


def test_linked_notes_needs_two_hops_and_names_only_the_start():
    for task, runner, model in _questions(0)[:5]:
        first, second = task.gold_actions
        assert first.name == "whole_map" and second.name == "fetch_people"
        (target,) = second.arguments["who"]
        node = task.provenance["dag"]["nodes"][1]["args"]["who"]
        assert node["source"] == "output" and node["node"] == "n0"
        assert f"'{target}'" not in task.user_instruction  # the user does not know whom the link leads to
        notes = task.initial_state["people"][target]["notes"]
        assert set(task.checks.required_facts) <= set(notes)
        for f in task.checks.required_facts:
            assert task.checks.fact_options[f] and not set(task.checks.fact_options[f]) & set(notes)
        report = run_probes(task, runner, model)
        assert report.ok, report.problems()


def test_link_kind_question_has_the_other_kinds_as_options():
    for task, runner, model in _questions(3)[:5]:
        (fact,) = task.checks.required_facts
        kinds = {t["kind"] for t in task.initial_state["ties"].values()}
        opts = set(task.checks.fact_options[fact])
        assert fact in kinds and opts and opts <= kinds - {fact}
        names = {x.lower() for x in task.initial_state["people"]}
        for k in kinds - opts - {fact}:  # left out only when it overlaps the answer or a name in the question
            assert any(k.lower() in x or x in k.lower() for x in names | {fact.lower()})
        assert f"'{fact}'" not in task.user_instruction
        assert run_probes(task, runner, model).ok


def test_linked_node_also_asks_the_kind_of_node_after_opening_it():
    for task, runner, model in _questions(1)[:5]:
        target, kind = task.checks.required_facts
        assert [a.name for a in task.gold_actions] == ["whole_map", "fetch_people"]
        assert task.gold_actions[1].arguments == {"who": [target]}
        assert task.initial_state["people"][target]["person_type"] == kind
        assert kind not in task.checks.fact_options[kind] and target not in task.checks.fact_options[target]
        assert run_probes(task, runner, model).ok


def test_link_kind_names_the_other_node_by_a_note_a_search_finds():
    kept = _questions(3, extra=[SEARCH], min_calls=2)
    for task, runner, model in kept[:5]:
        first, second = task.gold_actions
        assert first.name == "lookup_people" and second.name == "whole_map"
        note = first.arguments["text"]
        (found,) = task.gold_outputs[0]  # the note names one person
        assert f"'{note}'" in task.user_instruction and f"'{found['name']}'" not in task.user_instruction
        assert run_probes(task, runner, model).ok


def test_one_call_questions_are_dropped_below_min_calls():
    model = _model()
    g = graph_shape(model)
    runner = FunctionRunner(RUNNER_FUNCS)
    outs = [make_graph_question(15 + 20 * i, model, g, runner, random.Random(i), _pool(), 0, 2) for i in range(10)]
    assert not any(isinstance(o, Task) for o in outs) and any(o.stage == "size" for o in outs)
