"""A measure of the working node's subtree, learned from recorded calls (`synth --traces`).

A read with no node name that no docs rule plans (a disk usage, a count of files) is planned as `tree_total`
when its recorded answers are what one measure of the subtree below the working node gives, alone or inside a
fixed text: the total length of its leaves' text, the number of its leaves, or of all its nodes. The text's
number format (its decimals, the words around it) is read from the recorded answers, which must all agree.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_trees import WORKING_SUFFIX
from synth.spec import ToolSpec

MEASURES = ("text_length", "leaves", "nodes")
NUMBER = re.compile(r"\d+(?:\.(\d+))?")


def working_nodes(state: dict[str, Any], tree: str, info: dict[str, Any]) -> dict[str, Any]:
    """The children of the working node, as the environment's `tree_dir` finds them (without writing)."""
    nodes = state.get(tree) or {}
    kind, branch, children = info.get("kind_field"), info.get("branch"), info.get("children")
    tops = [n for n in nodes.values() if isinstance(n, dict) and n.get(kind) == branch]
    if len(nodes) == 1 and len(tops) == 1:
        nodes = tops[0].get(children) or {}
    path = state.get(tree + WORKING_SUFFIX)
    for part in path if isinstance(path, list) else []:
        node = nodes.get(part)
        if not isinstance(node, dict) or node.get(kind) != branch:
            break
        nodes = node.get(children) or {}
    return nodes


def subtree_measure(nodes: dict[str, Any], info: dict[str, Any], measure: str) -> int:
    """The measure over every node below: leaves' text length, leaves, or nodes."""
    total, stack = 0, list(nodes.values())
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        if node.get(info.get("kind_field")) == info.get("branch"):
            kids = node.get(info.get("children"))
            if isinstance(kids, dict):
                stack.extend(kids.values())
            total += measure == "nodes"
            continue
        total += len(str(node.get(info.get("text_field")) or "")) if measure == "text_length" else 1
    return total


def number_format(answer: Any, value: int) -> dict[str, Any] | None:
    """{} when the answer is the number itself, {prefix, decimals, suffix} when a text shows it, else None."""
    if isinstance(answer, (int, float)) and not isinstance(answer, bool):
        return {} if answer == value else None
    if not isinstance(answer, str):
        return None
    for m in NUMBER.finditer(answer):
        if float(m.group(0)) == value:
            return {"prefix": answer[: m.start()], "decimals": len(m.group(1) or ""), "suffix": answer[m.end() :]}
    return None


def _answers(recorded: list[TestCase]) -> tuple[str | None, list[tuple[TestCase, Any]]] | None:
    """(envelope key or None, [(case, answer)]) of the successful recorded calls, when they share one shape."""
    ok = [c for c in recorded if not c.expect_error and c.expect_result is not None]
    if not ok:
        return None
    if all(isinstance(c.expect_result, dict) and len(c.expect_result) == 1 for c in ok):
        keys = {next(iter(c.expect_result)) for c in ok}
        if len(keys) != 1:
            return None
        key = keys.pop()
        return key, [(c, c.expect_result[key]) for c in ok]
    return None, [(c, c.expect_result) for c in ok]


def learn_tree_total(spec: ToolSpec, trees: dict[str, dict[str, Any]], recorded: list[TestCase]) -> ToolPlan | None:
    """A tree_total plan every successful recorded call agrees with, or None."""
    props = spec.parameters.get("properties") or {}
    if len(trees) != 1 or any(isinstance(s, dict) and s.get("type") == "string" for s in props.values()):
        return None
    tree, info = next(iter(trees.items()))
    shape = _answers(recorded)
    if shape is None:
        return None
    key, answers = shape
    for measure in MEASURES:
        if measure == "text_length" and not info.get("text_field"):
            continue
        formats = [
            number_format(a, subtree_measure(working_nodes(c.state, tree, info), info, measure)) for c, a in answers
        ]
        if formats and all(f is not None and f == formats[0] for f in formats):
            return ToolPlan(
                kind="tree_total",
                collection=tree,
                tree=tree,
                tree_info=dict(info),
                measure=measure,
                number_format=dict(formats[0] or {}),
                output_key=key,
                evidence=[f"recorded answers are the {measure} below the working node"],
            )
    return None


__all__ = ["learn_tree_total", "number_format", "subtree_measure", "working_nodes"]
