"""The working node of a recorded call on a tree: a reference may keep it outside its state, so a case made from
the call would start at the top. It is read from the call itself: the parent of the first node it changed that
an argument names, else the one branch holding a node an argument names, else the branch whose children are the
names the call returned. The path (names below the top) goes to the environment's `<tree>_cwd` key."""

from __future__ import annotations

from typing import Any

from synth.envsynth.testgen import TestCase
from synth.envsynth.traces import parse_pointer

WORKING_SUFFIX = "_cwd"


def _node_names(parts: list[str], children: str) -> list[str]:
    """Node names along a pointer below the tree key: top, then every name after a children key."""
    names = parts[1:2]
    for i in range(2, len(parts) - 1):
        if parts[i] == children:
            names.append(parts[i + 1])
    return names


def _branches(nodes: dict[str, Any], info: dict[str, Any], path: list[str]) -> list[tuple[list[str], dict[str, Any]]]:
    out = []
    for name, node in sorted(nodes.items()):
        if isinstance(node, dict) and node.get(info.get("kind_field")) == info.get("branch"):
            kids = node.get(info["children"])
            if isinstance(kids, dict):
                out.append((path + [name], kids))
                out += _branches(kids, info, path + [name])
    return out


def working_path(case: TestCase, tree: str, info: dict[str, Any]) -> list[str] | None:
    """Names below the top of the branch the call worked in, or None when the call does not show it."""
    names = {v for v in case.arguments.values() if isinstance(v, str) and v not in (".", "..")}
    for check in case.state_checks:
        for row in check.get("changes") or []:
            parts = parse_pointer(row["path"])
            if parts[:1] != [tree]:
                continue
            seq = _node_names(parts, info["children"])
            for i, name in enumerate(seq[1:], start=1):
                if name in names:
                    return seq[1:i]
    nodes = case.state.get(tree)
    if not isinstance(nodes, dict):
        return None
    branches = _branches(nodes, info, [])
    holding = [path for path, kids in branches if names & set(kids)]
    if len(holding) == 1:
        return holding[0][1:]
    out = case.expect_result
    if isinstance(out, dict) and len(out) == 1:
        out = next(iter(out.values()))
    if isinstance(out, list) and out and all(isinstance(x, str) for x in out):
        listed = [path for path, kids in branches if set(kids) == set(out)]
        if len(listed) == 1:
            return listed[0][1:]
    return None


def place_in_tree(case: TestCase, trees: dict[str, dict[str, Any]]) -> TestCase:
    """The case with the environment's working node set where the recorded call worked (when it shows)."""
    for tree, info in sorted(trees.items()):
        path = working_path(case, tree, info)
        if path:
            case.state[f"{tree}{WORKING_SUFFIX}"] = path
    return case


__all__ = ["place_in_tree", "working_path"]
