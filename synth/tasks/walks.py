"""Sequences from the tool graph: seeded random walks, merging two walks, inserting reasoning nodes.

A walk follows kept graph edges; each step's data-edge bindings become argument sources of the
new call (the parameter is read from the earlier call's output). Merging interleaves two walks
(order kept inside each) and removes redundant reads: a read of the same tool with the same bound
arguments as an earlier one, with no write in between to a collection it reads; its consumers
read the earlier call instead. Reasoning nodes go where a value has to be derived:
`pick` / `compare` between a list result and the call that needs one record's key, `compute`
before an update whose number is derived from a value an earlier call showed.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import Any

from synth.tasks.dag import ArgSource, DagNode, TaskDAG
from synth.tasks.envmodel import EnvModel, field_ref, json_type
from synth.tasks.graph import ToolGraph

START_KINDS = {"list", "search", "filter", "get", "create", "batch_create", "dump", "get_many"}


@dataclass
class WalkConfig:
    """Walk lengths and how often each step kind is taken."""

    min_len: int = 2
    max_len: int = 4
    max_visits: int = 2
    p_merge: float = 0.5
    p_compare: float = 0.35
    p_compute: float = 0.5


def _bind(dag: TaskDAG, node: DagNode, graph: ToolGraph, model: EnvModel, prefer: str | None) -> None:
    """Bind `node`'s parameters to earlier calls along kept data edges (the latest producer wins,
    `prefer` first). Writes take only key bindings: copying a field into a write changes nothing."""
    target = model.tools[node.tool]
    deleted = {
        s.node
        for n in dag.nodes
        if n.kind == "call" and model.tools[n.tool].kind in ("delete", "batch_delete")
        for s in n.args.values()
        if s.source == "output"
    }
    earlier = [n for n in dag.nodes if n.kind == "call" and n.id not in deleted]
    order = sorted(earlier, key=lambda n: (n.id != prefer, -dag.nodes.index(n)))
    for prod in order:
        for e in graph.edges_between(prod.tool, node.tool):
            if e.kind != "data":
                continue
            for b in e.bindings:
                if b.param in node.args or (target.is_write and b.via != "key"):
                    continue
                node.args[b.param] = ArgSource(source="output", node=prod.id, binding=asdict(b))


def _start_weights(graph: ToolGraph, model: EnvModel, names: list[str]) -> list[float]:
    out = []
    for n in names:
        w = 2.0 if model.tools[n].kind in START_KINDS else 1.0
        if not graph.successors(n):
            w *= 0.25
        out.append(w)
    return out


def random_walk(
    graph: ToolGraph,
    model: EnvModel,
    rng: random.Random,
    length: int,
    origin: str = "w0",
    start: str | None = None,
    max_visits: int = 2,
) -> TaskDAG:
    """A walk of up to `length` calls along kept edges, as a DAG of call nodes with data edges."""
    names = [n["id"] for n in graph.nodes if n["id"] in model.tools]
    if not names:
        return TaskDAG()
    current = start if start in model.tools else rng.choices(names, weights=_start_weights(graph, model, names))[0]
    dag = TaskDAG()
    visits: dict[str, int] = {}

    def add(tool: str, prefer: str | None) -> DagNode:
        node = DagNode(id=f"{origin}.{len(dag.nodes)}", kind="call", tool=tool, origin=origin)
        _bind(dag, node, graph, model, prefer)
        dag.nodes.append(node)
        visits[tool] = visits.get(tool, 0) + 1
        return node

    last = add(current, None)
    while len(dag.nodes) < length:
        options = [e for e in graph.successors(current) if visits.get(e.target, 0) < max_visits]
        if not options:
            break
        weights = [1.5 if model.tools[e.target].is_write else 1.0 for e in options]
        edge = rng.choices(options, weights=weights)[0]
        current = edge.target
        last = add(current, last.id)
    return dag


def _arg_key(node: DagNode) -> tuple:
    return tuple(sorted((p, s.source, s.node or "", repr(s.binding)) for p, s in node.args.items()))


def _fully_bound(node: DagNode, model: EnvModel) -> bool:
    return all(p in node.args for p in model.tools[node.tool].required)


def merge(a: TaskDAG, b: TaskDAG, rng: random.Random, model: EnvModel) -> tuple[TaskDAG, list[str]]:
    """Interleave two walks (seeded, order kept inside each) and drop redundant reads.

    Returns the merged DAG (renumbered) and the ids (before renumbering) of the calls removed.
    """
    qa, qb = [_copy(n, "a") for n in a.nodes], [_copy(n, "b") for n in b.nodes]
    picks = ["a"] * len(qa) + ["b"] * len(qb)
    rng.shuffle(picks)
    merged: list[DagNode] = []
    ia = ib = 0
    for p in picks:
        if p == "a":
            merged.append(qa[ia])
            ia += 1
        else:
            merged.append(qb[ib])
            ib += 1
    dag = TaskDAG(nodes=merged)
    removed = remove_redundant(dag, model)
    return dag.renumber(), removed


def _copy(node: DagNode, prefix: str) -> DagNode:
    c = DagNode.from_dict(node.to_dict())
    c.id = f"{prefix}:{c.id}"
    c.inputs = [f"{prefix}:{i}" for i in c.inputs]
    for s in c.args.values():
        if s.node:
            s.node = f"{prefix}:{s.node}"
    return c


def remove_redundant(dag: TaskDAG, model: EnvModel) -> list[str]:
    """Drop reads that repeat an earlier identical read with no write in between; rewire consumers."""
    removed: list[str] = []
    i = 0
    while i < len(dag.nodes):
        node = dag.nodes[i]
        tool = model.tools.get(node.tool or "")
        if node.kind == "call" and tool and not tool.is_write and _fully_bound(node, model):
            twin = None
            for j in range(i - 1, -1, -1):
                prev = dag.nodes[j]
                if (
                    prev.kind == "call"
                    and model.tools[prev.tool].is_write
                    and set(model.tools[prev.tool].writes) & set(tool.reads or [tool.collection])
                ):
                    break
                if prev.kind == "call" and prev.tool == node.tool and _arg_key(prev) == _arg_key(node):
                    twin = prev
                    break
            if twin is not None:
                for consumer, pname in dag.consumers(node.id):
                    if pname is None:
                        consumer.inputs = [twin.id if x == node.id else x for x in consumer.inputs]
                    else:
                        consumer.args[pname].node = twin.id
                removed.append(node.id)
                del dag.nodes[i]
                continue
        i += 1
    return removed


def _numeric_fields(model: EnvModel, collection: str | None) -> list[str]:
    col = model.collections.get(collection or "")
    if not col:
        return []
    out = []
    for f, fs in col.fields.items():
        if f == col.key_field or field_ref(model, col.name, f):
            continue
        if json_type(fs) in ("integer", "number"):
            out.append(f)
    return out


def add_reasoning(dag: TaskDAG, model: EnvModel, rng: random.Random, cfg: WalkConfig | None = None) -> TaskDAG:
    """Insert pick/compare nodes after list results that feed a record key, and compute nodes
    before updates whose number an earlier read showed. Renumbers the DAG."""
    cfg = cfg or WalkConfig()
    out: list[DagNode] = []
    count = 0
    for node in dag.nodes:
        if node.kind == "call":
            tool = model.tools[node.tool]
            for pname in sorted(node.args):
                src = node.args[pname]
                if src.source != "output" or not src.binding or src.binding.get("via") != "key":
                    continue
                producer = dag.node(src.node)
                if not model.tools[producer.tool].returns_list:
                    continue
                rcol = model.collections.get(src.binding.get("collection") or "")
                if rcol is None or rcol.map_keyed:
                    continue  # listed records of a map-keyed collection do not show their keys: nothing to pick on
                nums = _numeric_fields(model, src.binding.get("collection"))
                op = "compare" if nums and rng.random() < cfg.p_compare else "pick"
                r = DagNode(
                    id=f"R{count}",
                    kind="reason",
                    op=op,
                    inputs=[producer.id],
                    detail={"collection": src.binding.get("collection")},
                    origin=node.origin,
                )
                count += 1
                out.append(r)
                node.args[pname] = ArgSource(source="reason", node=r.id, binding=src.binding)
            if tool.kind == "update":
                candidates = [
                    f for f in _numeric_fields(model, tool.collection) if f in tool.props and f not in node.args
                ]
                readers = [n for n in out if n.kind == "call" and model.tools[n.tool].collection == tool.collection]
                ksrc = node.args.get(tool.key_param or "")
                if ksrc is not None and ksrc.source == "output":
                    readers = [n for n in readers if n.id == ksrc.node]
                elif ksrc is not None and ksrc.source == "reason":
                    feeding = next(n for n in out if n.id == ksrc.node).inputs
                    readers = [n for n in readers if n.id in feeding]
                if candidates and readers and rng.random() < cfg.p_compute:
                    fname = rng.choice(candidates)
                    r = DagNode(
                        id=f"R{count}",
                        kind="reason",
                        op="compute",
                        inputs=[readers[-1].id],
                        detail={"collection": tool.collection, "field": fname},
                        origin=node.origin,
                    )
                    count += 1
                    out.append(r)
                    node.args[fname] = ArgSource(source="reason", node=r.id, binding={"via": "compute", "field": fname})
        out.append(node)
    dag.nodes = out
    return dag.renumber()


def plan_sequence(
    graph: ToolGraph, model: EnvModel, rng: random.Random, cfg: WalkConfig | None = None
) -> tuple[TaskDAG, dict[str, Any]]:
    """One or two walks (merged), with reasoning nodes; returns the DAG and its provenance."""
    cfg = cfg or WalkConfig()
    walks = []
    n_walks = 2 if rng.random() < cfg.p_merge else 1
    for w in range(n_walks):
        length = rng.randint(cfg.min_len, cfg.max_len)
        walks.append(random_walk(graph, model, rng, length, origin=f"w{w}", max_visits=cfg.max_visits))
    removed: list[str] = []
    if n_walks == 2:
        dag, removed = merge(walks[0], walks[1], rng, model)
    else:
        dag = walks[0].renumber()
    prov = {"walks": [w.signature() for w in walks], "merged": n_walks == 2, "removed_redundant": removed}
    dag = add_reasoning(dag, model, rng, cfg)
    return dag, prov
