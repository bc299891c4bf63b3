"""Questions on a graph-shaped state: records (nodes) and a link collection whose records join two of them.

A link collection has two fields pointing into the same node collection (`from`/`to`) and a text field
naming the kind of link; a node record may carry a list of text (notes about it). Three questions fit:

- `linked_notes` (two hops): every note of the node that A links to by kind K. The gold run reads the
  graph, then opens that node by the name the graph showed (a data edge); the facts are its notes, each
  with the other nodes' notes as the answers it could be confused with.
- `linked_node`: which node A links to by kind K, and (when nodes have a kind field) what kind of node it
  is, read by opening it; the other node names and kinds are the options.
- `link_kind`: how A is linked to the node the user knows by one of its notes (a search for the note finds
  that node alone, then the graph shows the link); without a search tool, how A is linked to B. The other
  link kinds are the options.

The user names nodes by their names (keys a user chose) and link kinds as the state holds them.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

from synth.llm.prompts import render
from synth.spec import ToolCall
from synth.task import Checks, Task
from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.difficulty import dag_measures
from synth.tasks.envmodel import EnvModel, display_name, field_ref, json_type
from synth.tasks.facts import exempt_paths
from synth.tasks.instantiate import Dropped
from synth.tasks.runner import Runner
from synth.tasks.state_fill import fill_state
from synth.tasks.values import TextPool
from synth.words import split_words

RECIPES = ("linked_notes", "linked_node", "linked_notes", "link_kind")


@dataclass
class GraphShape:
    """The node collection, the link collection and the fields and tools the questions use."""

    nodes: str
    links: str
    source: str  # link field naming the node it starts at
    target: str  # link field naming the node it ends at
    kind: str  # link field naming the kind of link
    notes: str | None  # node field holding a list of text
    dump: str  # a read without arguments showing nodes and links
    open: str | None  # a read taking a list of node keys
    open_param: str | None
    node_kind: str | None = None  # node field naming what kind of node it is
    search: str | None = None  # a read finding nodes by a text query
    search_param: str | None = None


def graph_shape(model: EnvModel) -> GraphShape | None:
    """The graph shape of an environment's state, or None when it has no link collection and a tool showing links."""
    for lname, lcol in sorted(model.collections.items()):
        refs: dict[str, list[str]] = {}
        for f in lcol.fields:
            r = field_ref(model, lname, f)
            if r and r in model.collections:
                refs.setdefault(r, []).append(f)
        for nname, pair in sorted(refs.items()):
            if len(pair) != 2:
                continue
            kinds = [f for f, s in lcol.fields.items() if f not in pair and json_type(s) == "string"]
            dumps = [t.name for t in model.tools.values() if t.kind == "dump" and lname in t.reads and not t.required]
            if len(kinds) != 1 or not dumps:
                continue
            ncol = model.collections[nname]
            notes = [
                f
                for f, s in sorted(ncol.fields.items())
                if json_type(s) == "array" and json_type((s or {}).get("items")) == "string"
            ]
            opener, oparam = None, None
            for t in sorted(model.tools.values(), key=lambda t: t.name):
                arrays = [p for p, s in t.props.items() if json_type(s) == "array"]
                if t.kind == "get_many" and t.collection == nname and t.required == arrays and len(arrays) == 1:
                    opener, oparam = t.name, arrays[0]
                    break
            finder, fparam = None, None
            for t in sorted(model.tools.values(), key=lambda t: t.name):
                strings = [p for p, sc in t.props.items() if json_type(sc) == "string"]
                if t.kind == "search" and t.collection == nname and t.required == strings and len(strings) == 1:
                    finder, fparam = t.name, strings[0]
                    break
            own_kinds = [
                f
                for f, sc in sorted(ncol.fields.items())
                if f != ncol.key_field and json_type(sc) == "string" and set(split_words(f)) & {"type", "kind"}
            ]
            src = next(
                (f for f in pair if set(split_words(f)) & {"from", "source", "src", "subject", "start"}), pair[0]
            )
            return GraphShape(
                nodes=nname,
                links=lname,
                source=src,
                target=next(f for f in pair if f != src),
                kind=kinds[0],
                notes=notes[0] if notes else None,
                dump=sorted(dumps)[0],
                open=opener,
                open_param=oparam,
                node_kind=own_kinds[0] if len(own_kinds) == 1 else None,
                search=finder,
                search_param=fparam,
            )
    return None


def _words(name: str) -> str:
    return " ".join(split_words(name)) or name


def _unique_links(state: dict[str, Any], g: GraphShape) -> list[dict[str, Any]]:
    """Links between two different nodes that exist, the only link of their kind from their source node."""
    links = [r for r in (state.get(g.links) or {}).values() if isinstance(r, dict)]
    nodes = state.get(g.nodes) or {}
    out = []
    for r in links:
        a, b, k = r.get(g.source), r.get(g.target), r.get(g.kind)
        if a == b or a not in nodes or b not in nodes or not isinstance(k, str) or not k:
            continue
        same = [x for x in links if x.get(g.source) == a and x.get(g.kind) == k]
        pair = [x for x in links if {x.get(g.source), x.get(g.target)} == {a, b}]
        if len(same) == 1 and len(pair) == 1:
            out.append(r)
    return sorted(out, key=lambda r: (str(r.get(g.source)), str(r.get(g.kind))))


def _unique_note(nodes: dict[str, Any], b: str, g: GraphShape) -> str:
    """A note of node b that no other node's text contains (a search for it finds b alone), or ""."""
    for note in sorted(v for v in nodes[b].get(g.notes or "") or [] if isinstance(v, str) and len(v) >= 6):
        low = note.lower()
        if not any(low in str(r).lower() for n, r in nodes.items() if n != b):
            return note
    return ""


def _clean(values: list[Any], exclude: set[str]) -> list[str]:
    out: list[str] = []
    low = {e.lower() for e in exclude}
    for v in values:
        if isinstance(v, str) and v.strip() and v.lower() not in low and v not in out:
            if not any(v.lower() in e or e in v.lower() for e in low):
                out.append(v)
    return out


def make_graph_question(
    index: int,
    model: EnvModel,
    g: GraphShape,
    runner: Runner,
    rng: random.Random,
    pool: TextPool,
    seed: int,
    min_calls: int = 1,
) -> Task | Dropped:
    """Candidate `index` as a question on the graph (the recipe rotates with the index); stage `size` when
    its gold run has fewer than `min_calls` calls."""
    recipe = RECIPES[index // 5 % len(RECIPES)]
    if recipe == "linked_notes" and not (g.notes and g.open):
        recipe = "linked_node"
    state = fill_state(model, rng, pool)
    links = _unique_links(state, g)
    if not links:
        return Dropped("walk", "no link joins two different nodes as the only link of its kind from its source")
    link = rng.choice(links)
    a, b, k = link[g.source], link[g.target], link[g.kind]
    nodes = state[g.nodes]
    calls = [DagNode(id="n0", kind="call", tool=g.dump, args={})]
    opened = DagNode(
        id="n1", kind="call", tool=g.open or "", args={g.open_param or "": ArgSource("output", node="n0", value=[b])}
    )
    opts: dict[str, list[str]] = {}
    note = ""
    if recipe == "linked_notes":
        own = [v for v in nodes[b].get(g.notes) or [] if isinstance(v, str)]
        facts = _clean(own, {a, b, k})
        others = [v for n, r in sorted(nodes.items()) if n != b for v in (r.get(g.notes) or [])]
        opts = {f: _clean(others, set(own) | {a, b, k}) for f in facts}
        calls.append(opened)
    elif recipe == "linked_node":  # which node, and (opened) what kind of node it is
        facts = [b]
        opts[b] = _clean(sorted(nodes), {a, b})
        kind = nodes[b].get(g.node_kind) if g.node_kind else None
        if g.open and isinstance(kind, str) and kind:
            kinds = sorted({r.get(g.node_kind) for r in nodes.values() if isinstance(r.get(g.node_kind), str)})
            facts.append(kind)
            opts[kind] = _clean(kinds, {kind, a, b})
            calls.append(opened)
    else:  # how A is linked to the node the user knows by one of its notes (found by a search)
        facts = [k]
        kinds = [r.get(g.kind) for r in (state.get(g.links) or {}).values() if isinstance(r, dict)]
        opts[k] = _clean(sorted({x for x in kinds if isinstance(x, str)}), {k, a, b})
        note = _unique_note(nodes, b, g) if g.search else ""
        if note:
            calls = [
                DagNode(id="n0", kind="call", tool=g.search, args={g.search_param: ArgSource("user", value=note)}),
                DagNode(id="n1", kind="call", tool=g.dump, args={}),
            ]
    if len(calls) < min_calls:
        return Dropped("size", f"recipe {recipe}: {len(calls)} gold calls (< {min_calls})")
    if not facts or not all(opts.get(f) for f in facts):
        return Dropped("facts", "a question needs facts, each with answers it could be confused with")
    runner.reset(state)
    outputs, actions = [], []
    for n in calls:
        args = {p: s.value for p, s in n.args.items()}
        out = runner.call(n.tool, args)
        if not out.ok:
            return Dropped("execute", f"{n.id} {n.tool} fails: {out.error}"[:300])
        outputs.append(out.result)
        actions.append(ToolCall(name=n.tool, arguments=args))
    if not all(f in str(outputs) for f in facts):
        return Dropped("facts", "the answer is not in what the reads show")
    words = {
        "node": model.collections[g.nodes].resource,
        "link": model.collections[g.links].resource,
        "notes": _words(g.notes or ""),
        "node_kind": _words(g.node_kind or ""),
    }
    text = render("tasks_graph_clause.j2", recipe=recipe, a=a, b=b, k=k, note=note, facts=len(facts), **words)
    clause = re.sub(r"\s+", " ", text).strip()
    request = re.sub(
        r"\s+",
        " ",
        render("tasks_request.j2", service=display_name(model), persona=index, identity=[], clauses=[clause]),
    ).strip()
    dag = TaskDAG(nodes=calls)
    return Task(
        task_id=f"{model.env_id}-s{seed}-{index:04d}",
        env_id=model.env_id,
        user_instruction=request,
        intent=f"(1) {clause}.",
        initial_state=state,
        gold_actions=actions,
        gold_final_state=runner.state(),
        checks=Checks(
            exempt_paths=exempt_paths(model),
            required_facts=list(facts),
            fact_options={f: list(opts[f]) for f in facts},
        ),
        difficulty=dag_measures(dag, model),
        gold_outputs=outputs,
        provenance={
            "pipeline": "tasks-graph-1",
            "seed": seed,
            "index": index,
            "recipe": recipe,
            "instruction_source": "template",
            "instruction_problems": [],
            "dag": dag.to_dict(),
        },
    )
