"""The task DAG: tool calls and reasoning steps, with data edges and reasoning edges.

A call node's arguments come from one of three sources: `user` (the user states the value; the
instruction must contain it), `output` (a field of an earlier call's result: a data edge) or
`reason` (a reasoning node that derives the value from earlier outputs: pick a record by a stated
attribute, compare records by a number, compute a number; reasoning edges). Node order in the list
is the execution order, a topological order of the edges; writes keep the order of their walk.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

import networkx as nx

REASON_OPS = ("pick", "compare", "compute")


@dataclass
class ArgSource:
    """Where one argument value comes from, and (once instantiated) the value."""

    source: str  # "user" | "output" | "reason"
    node: str | None = None  # producer node (output / reason)
    binding: dict[str, Any] | None = None  # graph Binding as dict: via, collection, field, item_field
    value: Any = None
    path: str | None = None  # where in the producer's output the value was found


@dataclass
class DagNode:
    """A tool call or a reasoning step."""

    id: str
    kind: str  # "call" | "reason"
    tool: str | None = None
    args: dict[str, ArgSource] = field(default_factory=dict)  # call: bound parameters
    op: str | None = None  # reason: pick | compare | compute
    inputs: list[str] = field(default_factory=list)  # reason: producer nodes
    detail: dict[str, Any] = field(default_factory=dict)  # reason: the concrete criterion
    value: Any = None  # reason: the derived value
    origin: str = ""  # which walk it came from ("w0", "w1")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["args"] = {k: asdict(v) for k, v in self.args.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "DagNode":
        d = dict(d)
        d["args"] = {k: ArgSource(**v) for k, v in (d.get("args") or {}).items()}
        return cls(**{k: v for k, v in d.items() if k in cls.__dataclass_fields__})


@dataclass
class TaskDAG:
    """Nodes in execution order; edges are derived from argument sources and reasoning inputs."""

    nodes: list[DagNode] = field(default_factory=list)

    # ----- access ---------------------------------------------------------------------------

    def node(self, node_id: str) -> DagNode:
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def calls(self) -> list[DagNode]:
        return [n for n in self.nodes if n.kind == "call"]

    def reasons(self) -> list[DagNode]:
        return [n for n in self.nodes if n.kind == "reason"]

    def edges(self) -> list[dict[str, Any]]:
        """[{source, target, kind: data|reason, param}] in node order."""
        out = []
        for n in self.nodes:
            if n.kind == "reason":
                for i in n.inputs:
                    out.append({"source": i, "target": n.id, "kind": "reason", "param": None})
            for pname, src in n.args.items():
                if src.source in ("output", "reason") and src.node:
                    out.append(
                        {
                            "source": src.node,
                            "target": n.id,
                            "kind": "data" if src.source == "output" else "reason",
                            "param": pname,
                        }
                    )
        return out

    def nx(self) -> nx.DiGraph:
        g = nx.DiGraph()
        for n in self.nodes:
            g.add_node(n.id, kind=n.kind, tool=n.tool, op=n.op)
        for e in self.edges():
            if g.has_edge(e["source"], e["target"]):
                g[e["source"]][e["target"]]["params"].append(e["param"])
            else:
                g.add_edge(e["source"], e["target"], kind=e["kind"], params=[e["param"]])
        return g

    # ----- measures ---------------------------------------------------------------------------

    def size(self) -> int:
        return len(self.nodes)

    def depth(self) -> int:
        """Nodes on the longest dependency path (1 for independent calls)."""
        g = self.nx()
        if not g.nodes:
            return 0
        return nx.dag_longest_path_length(g) + 1

    def topo_order(self) -> list[str]:
        """A topological order that keeps list order where edges allow (list order when valid)."""
        pos = {n.id: i for i, n in enumerate(self.nodes)}
        return list(nx.lexicographical_topological_sort(self.nx(), key=lambda x: pos[x]))

    def is_valid(self) -> str | None:
        """None when ids are unique, sources exist and precede their consumers, and there is no cycle."""
        seen: set[str] = set()
        for n in self.nodes:
            if n.id in seen:
                return f"duplicate node id {n.id}"
            if n.kind == "reason":
                for i in n.inputs:
                    if i not in seen:
                        return f"{n.id} reads {i} before it runs"
            for pname, src in n.args.items():
                if src.source in ("output", "reason") and src.node not in seen:
                    return f"{n.id}.{pname} reads {src.node} before it runs"
            seen.add(n.id)
        if not nx.is_directed_acyclic_graph(self.nx()):
            return "cycle"
        return None

    # ----- edits ---------------------------------------------------------------------------

    def renumber(self) -> "TaskDAG":
        """Ids n0.. for calls and r0.. for reasoning nodes, in list order (references rewritten)."""
        mapping: dict[str, str] = {}
        nc = nr = 0
        for n in self.nodes:
            if n.kind == "call":
                mapping[n.id] = f"n{nc}"
                nc += 1
            else:
                mapping[n.id] = f"r{nr}"
                nr += 1
        for n in self.nodes:
            n.id = mapping[n.id]
            n.inputs = [mapping[i] for i in n.inputs]
            for src in n.args.values():
                if src.node:
                    src.node = mapping[src.node]
        return self

    def consumers(self, node_id: str) -> list[tuple[DagNode, str | None]]:
        """(node, param) pairs that read `node_id` (param None for reasoning inputs)."""
        out = []
        for n in self.nodes:
            if node_id in n.inputs:
                out.append((n, None))
            for pname, src in n.args.items():
                if src.node == node_id:
                    out.append((n, pname))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"nodes": [n.to_dict() for n in self.nodes], "edges": self.edges()}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TaskDAG":
        return cls(nodes=[DagNode.from_dict(n) for n in d.get("nodes") or []])

    def signature(self) -> list[str]:
        """Tool names and reasoning ops in order (for provenance and reports)."""
        return [n.tool if n.kind == "call" else f"<{n.op}>" for n in self.nodes]
