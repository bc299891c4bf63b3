"""The tool dependency graph: which tool's output can feed which tool's input, with the evidence.

Candidate edges come from the schemas and the manifest hints:

- `data` / key: tool B takes a key of collection C (its key parameter, or a parameter named after C)
  and tool A returns records or keys of C (create, get, list, search, ... on C);
- `data` / field: a field of A's declared output has the name and type of one of B's parameters;
- `state`: A writes collection C and B reads C (B sees what A did).

Each candidate is put to the LLM as one yes/no question. Policy: an edge built from the
manifest's collection hints ("strong") is kept whatever the model says (its answer is recorded and
a "no" is flagged as `llm_disagrees`); an edge found by name matching alone ("weak") is kept only
when the model says yes. Without a model every candidate is kept, marked unconfirmed. Rejected
edges stay in graph.json (kept: false) so the evidence can be read.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import networkx as nx

from synth.fsio import write_json_atomic
from synth.llm.ask import ChatClient, ask_yes_no
from synth.llm.prompts import render
from synth.tasks.envmodel import EnvModel, ToolInfo, json_type, ref_collection

GRAPH_VERSION = 1
PRODUCER_KINDS = {"create", "batch_create", "get", "get_many", "list", "search", "filter", "dump"}


@dataclass
class Binding:
    """How one parameter of the target is fed: by a record key of a collection, or a same-named field."""

    param: str
    via: str  # "key" | "field"
    collection: str | None = None
    field: str | None = None
    item_field: str | None = None  # for array-of-object parameters: the field inside each item


@dataclass
class Edge:
    """One candidate edge with its evidence and the LLM's verdict."""

    source: str
    target: str
    kind: str  # "data" | "state"
    bindings: list[Binding] = field(default_factory=list)
    collections: list[str] = field(default_factory=list)
    evidence: list[str] = field(default_factory=list)
    strength: str = "weak"  # "strong" | "weak"
    llm: dict[str, Any] | None = None  # {"question", "answer", "says"}
    kept: bool = True
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["bindings"] = [asdict(b) for b in self.bindings]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Edge":
        d = dict(d)
        d["bindings"] = [Binding(**b) for b in d.get("bindings") or []]
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass
class ToolGraph:
    """Nodes (tools) and candidate edges; `nx()` gives the DiGraph of kept edges."""

    env_id: str
    nodes: list[dict[str, Any]]
    edges: list[Edge]

    def kept_edges(self) -> list[Edge]:
        return [e for e in self.edges if e.kept]

    def nx(self) -> nx.MultiDiGraph:
        g = nx.MultiDiGraph()
        for n in self.nodes:
            g.add_node(n["id"], **n)
        for i, e in enumerate(self.kept_edges()):
            g.add_edge(e.source, e.target, key=i, edge=e)
        return g

    def successors(self, tool: str) -> list[Edge]:
        """Kept edges leaving `tool`, in file order."""
        return [e for e in self.edges if e.kept and e.source == tool]

    def edges_between(self, source: str, target: str) -> list[Edge]:
        return [e for e in self.edges if e.kept and e.source == source and e.target == target]

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": GRAPH_VERSION,
            "env_id": self.env_id,
            "nodes": self.nodes,
            "edges": [e.to_dict() for e in self.edges],
            "counts": {
                "nodes": len(self.nodes),
                "candidates": len(self.edges),
                "kept": len(self.kept_edges()),
                "llm_disagrees": sum(1 for e in self.edges if e.kept and e.reason == "strong; llm_disagrees"),
            },
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ToolGraph":
        return cls(
            env_id=d.get("env_id", ""),
            nodes=list(d.get("nodes") or []),
            edges=[Edge.from_dict(e) for e in d.get("edges") or []],
        )


# ---------------------------------------------------------------------------------------------
# candidates


def _node(t: ToolInfo) -> dict[str, Any]:
    return {
        "id": t.name,
        "kind": t.kind,
        "reads": sorted(t.reads),
        "writes": sorted(t.writes),
        "collection": t.collection,
        "key_param": t.key_param,
        "write": t.is_write,
    }


def _output_fields(model: EnvModel, t: ToolInfo) -> dict[str, str]:
    """Field name -> JSON type of what `t` returns (declared returns, else its collection's records)."""
    out: dict[str, str] = {}
    schema = t.returns or {}
    if schema.get("type") == "array":
        schema = schema.get("items") or {}
    for k, v in (schema.get("properties") or {}).items():
        out[k] = _base_type(v)
    if t.kind in PRODUCER_KINDS and t.collection in model.collections:
        for k, v in model.collections[t.collection].fields.items():
            out.setdefault(k, _base_type(v))
    return out


def _produces(model: EnvModel, t: ToolInfo) -> set[str]:
    """Collections whose records or keys `t` returns."""
    if t.kind == "dump":
        return set(t.reads) or set(model.collections)
    if t.kind in PRODUCER_KINDS and t.collection:
        return {t.collection}
    return set()


def key_params(model: EnvModel, t: ToolInfo) -> list[Binding]:
    """Parameters of `t` that carry record keys, with their collection."""
    out: list[Binding] = []
    for pname, pschema in t.props.items():
        if t.kind in ("create", "batch_create") and pname == t.key_param:
            continue  # a create's key parameter names a new record
        col = model.collection_for_param(t, pname)
        if col and t.kind in ("create", "batch_create") and col == t.collection:
            continue  # a create names its own new record
        if col and model.collections[col].key_field is None:
            continue  # composite keys are whole records, chosen from the state rather than bound
        if col:
            out.append(Binding(param=pname, via="key", collection=col, field=model.collections[col].key_field))
            continue
        items = (pschema or {}).get("items") or {}
        if (pschema or {}).get("type") != "array" or items.get("type") != "object":
            continue
        for ik in items.get("properties") or {}:
            icol = (
                t.collection if ik == t.plan.get("item_key") and t.collection in model.collections else _ref(model, ik)
            )
            if icol is None or model.collections[icol].key_field is None:
                continue
            if t.kind == "batch_create" and icol == t.collection:
                continue  # the key of a record being created
            out.append(
                Binding(param=pname, via="key", collection=icol, field=model.collections[icol].key_field, item_field=ik)
            )
    return out


def _ref(model: EnvModel, name: str) -> str | None:
    return ref_collection(name, model.collections)


def _base_type(schema: dict[str, Any] | None) -> str:
    schema = schema or {}
    t = json_type({k: v for k, v in schema.items() if k != "enum"})
    return t


def _type_ok(a: str, b: str) -> bool:
    num = {"integer", "number"}
    return a == b or (a in num and b in num)


def candidate_edges(model: EnvModel) -> list[Edge]:
    """Every candidate edge, in a stable order (tool order of the manifest)."""
    tools = list(model.tools.values())
    edges: list[Edge] = []
    for a in tools:
        produced = _produces(model, a)
        a_fields = _output_fields(model, a)
        for b in tools:
            if a.name == b.name:
                continue
            data = Edge(source=a.name, target=b.name, kind="data")
            for kb in key_params(model, b):
                if kb.collection in produced:
                    data.bindings.append(kb)
                    data.evidence.append(
                        f"`{a.name}` returns records of `{kb.collection}`; `{b.name}`.{kb.param}"
                        f"{'[].' + kb.item_field if kb.item_field else ''} names a `{kb.collection}` record"
                    )
            bound = {x.param for x in data.bindings}
            for pname, pschema in b.props.items():
                if pname in bound or b.kind in ("create", "batch_create"):
                    continue
                ptype = _base_type(pschema)
                if (
                    pname in a_fields
                    and ptype in ("string", "integer", "number", "boolean")
                    and _type_ok(a_fields[pname], ptype)
                ):
                    data.bindings.append(Binding(param=pname, via="field", field=pname))
                    data.evidence.append(
                        f"output field `{pname}` of `{a.name}` has the name and type ({ptype}) of `{b.name}`.{pname}"
                    )
            if data.bindings:
                has_key = any(x.via == "key" for x in data.bindings)
                data.collections = sorted({x.collection for x in data.bindings if x.collection})
                data.strength = "strong" if has_key and a.hinted and b.hinted else "weak"
                edges.append(data)
            shared = sorted(set(a.writes) & set(b.reads))
            if shared:
                st = Edge(
                    source=a.name,
                    target=b.name,
                    kind="state",
                    collections=shared,
                    evidence=[f"`{a.name}` writes {', '.join(shared)}; `{b.name}` reads it"],
                    strength="strong" if a.hinted and b.hinted else "weak",
                )
                edges.append(st)
    return edges


# ---------------------------------------------------------------------------------------------
# confirmation


def edge_question(model: EnvModel, e: Edge) -> str:
    """The yes/no question for one candidate edge."""
    a, b = model.tools[e.source], model.tools[e.target]
    if e.kind == "state":
        return render(
            "tasks_edge_state.j2",
            a=a.name,
            a_desc=a.description[:200],
            b=b.name,
            b_desc=b.description[:200],
            collection=", ".join(e.collections),
        )
    b0 = e.bindings[0]
    return render(
        "tasks_edge_data.j2",
        a=a.name,
        a_desc=a.description[:200],
        b=b.name,
        b_desc=b.description[:200],
        param=b0.param + (f" (field {b0.item_field} of each item)" if b0.item_field else ""),
        thing=(b0.collection or b0.field or b0.param),
    )


def confirm_edges(model: EnvModel, edges: list[Edge], client: ChatClient | None, confirm: str = "all") -> list[Edge]:
    """Ask the model about each candidate (`confirm`: "all", or "weak" to ask only where the heuristic
    is weak); apply the keep policy of this module's docstring."""
    for e in edges:
        if client is None or confirm == "none" or (confirm == "weak" and e.strength == "strong"):
            e.llm, e.kept, e.reason = (
                None,
                e.strength == "strong" or client is None or confirm == "none",
                f"{e.strength}; not asked",
            )
            continue
        q = edge_question(model, e)
        ballot = ask_yes_no(client, [q], tag="tasks.edge", max_tokens=4)
        says = ballot.votes[0]
        e.llm = {"question": q, "answer": ballot.answers[0][:80], "says": says}
        if e.strength == "strong":
            e.kept = True
            e.reason = (
                "strong; llm_disagrees" if says is False else "strong; llm_agrees" if says else "strong; llm_unclear"
            )
        else:
            e.kept = says is True
            e.reason = "weak; llm_confirms" if says else ("weak; llm_rejects" if says is False else "weak; llm_unclear")
    return edges


def build_graph(model: EnvModel, client: ChatClient | None = None, confirm: str = "all") -> ToolGraph:
    """Candidate edges from the schemas, confirmed or rejected by the model."""
    edges = confirm_edges(model, candidate_edges(model), client, confirm)
    return ToolGraph(env_id=model.env_id, nodes=[_node(t) for t in model.tools.values()], edges=edges)


def save_graph(graph: ToolGraph, env_dir: str | Path) -> Path:
    """Write graph.json into the environment folder."""
    path = Path(env_dir) / "graph.json"
    write_json_atomic(path, graph.to_dict())
    return path


def load_graph(env_dir: str | Path) -> ToolGraph | None:
    """graph.json of an environment folder, or None when absent."""
    path = Path(env_dir) / "graph.json"
    if not path.exists():
        return None
    return ToolGraph.from_dict(json.loads(path.read_text()))
