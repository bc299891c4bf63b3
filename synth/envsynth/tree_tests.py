"""Cases where a tree tool must succeed: a node of the right kind in the working node of an example state.

Generated tests call tree tools with sampled names, which rarely exist; these cases name existing nodes (a leaf
for reads, searches and leaf removals, a branch for changing the working node, any node to move or copy) so a
tool that can never succeed does not pass.
"""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.spec import ToolSpec

NEEDS_NODE = {
    "tree_read": "leaf",
    "tree_search": "leaf",
    "tree_remove": None,
    "tree_cd": "branch",
    "tree_move": "any",
    "tree_copy": "any",
    "tree_write": "leaf",
    "tree_lines": "leaf",
    "tree_find": "any",
}


def _working(state: dict[str, Any], plan: ToolPlan) -> dict[str, Any] | None:
    info = plan.tree_info
    nodes = state.get(plan.tree or "")
    if not isinstance(nodes, dict):
        return None
    tops = [n for n in nodes.values() if isinstance(n, dict) and n.get(info.get("kind_field")) == info.get("branch")]
    if len(nodes) == 1 and len(tops) == 1 and isinstance(tops[0].get(info.get("children")), dict):
        return tops[0][info["children"]]
    return nodes


def tree_success_cases(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> list[TestCase]:
    """One case per example state that has a fitting node: the call must succeed."""
    want = NEEDS_NODE.get(plan.kind, "missing")
    if want == "missing" or not plan.key_param:
        return []
    info = plan.tree_info
    kind = {"leaf": info.get("leaf"), "branch": info.get("branch")}.get(want or "", plan.node_kind)
    props = spec.parameters.get("properties") or {}
    out = []
    for state in state_schema.get("examples") or []:
        nodes = _working(state, plan)
        if not nodes:
            continue
        names = sorted(
            n
            for n, node in nodes.items()
            if isinstance(node, dict) and (want == "any" or kind is None or node.get(info.get("kind_field")) == kind)
        )
        if not names:
            continue
        args: dict[str, Any] = {plan.key_param: names[0]}
        if plan.text_op == "diff" and plan.op_param:  # the second leaf to compare
            args[plan.op_param] = names[-1]
        for p in plan.fields:  # a second name (move/copy destination) or a text to search or write
            if p not in args and p in props:
                args[p] = "new_" + names[0] if plan.kind in ("tree_move", "tree_copy") else "a"
        out.append(
            TestCase(
                tool=spec.name,
                origin="docs-rule",
                state=copy.deepcopy(state),
                arguments=args,
                expect_error=False,
                why=f"{names[0]} exists in the working node",
            )
        )
    return out[:2]


__all__ = ["tree_success_cases"]
