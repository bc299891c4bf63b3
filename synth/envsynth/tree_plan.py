"""ToolPlans on a grounded tree (a state key holding name -> node maps with nested child maps).

The working node is the tree's single top branch when there is one, else its top level. Kinds: tree_list
(names in the working node), tree_read (a leaf's text), tree_search (the lines of a leaf's text that contain
a value), tree_make (a new branch or leaf), tree_remove, tree_write (set a leaf's text). A tool that fits none of them
is unsupported, with the reason.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.priors import ToolPriors, description_verb
from synth.spec import ToolSpec
from synth.words import split_words


def _kind_of_param(pname: str, info: dict[str, Any]) -> str | None:
    """The node kind (branch or leaf value) a parameter name points at: `dir_name` -> `directory`."""
    for word in split_words(pname):
        for value in (info.get("branch"), info.get("leaf")):
            if (
                isinstance(value, str)
                and len(word) >= 3
                and (value.lower().startswith(word) or word.startswith(value.lower()))
            ):
                return value
    return None


SOURCE_WORDS = ("source", "src", "from", "old")


def _move_or_copy(spec: ToolSpec, strings: list[str], text: str | None) -> tuple[str, str, str] | None:
    """(tree_move | tree_copy, source param, destination param) for a two-name tool that moves or copies a node."""
    if len(strings) != 2 or text in strings:
        return None
    found = re.search(r"\b(move|moves|rename|renames|copy|copies)\b", spec.description, re.IGNORECASE)
    if not found:
        return None
    kind = "tree_copy" if found.group(1).lower().startswith("cop") else "tree_move"
    first = next((p for p in strings if any(w in SOURCE_WORDS for w in split_words(p))), strings[0])
    return kind, first, next(p for p in strings if p != first)


MODE_PAIR = re.compile(r"'(\w+)'\s+for\s+(lines|words|characters|chars|bytes)", re.IGNORECASE)


def _text_op(spec: ToolSpec, strings: list[str], info: dict[str, Any]) -> dict[str, Any] | None:
    """A read of a leaf's lines the docs name: sort them, the last N, or count lines/words/characters by a mode."""
    props = spec.parameters.get("properties") or {}
    leaves = [p for p in strings if _kind_of_param(p, info) == info.get("leaf")]
    if len(leaves) == 2 and re.search(r"\b(compare|diff)", spec.description, re.IGNORECASE) and info.get("text_field"):
        return {"kind": "tree_lines", "key_param": leaves[0], "text_op": "diff", "op_param": leaves[1]}
    if len(leaves) != 1 or not info.get("text_field"):
        return None
    desc = spec.description
    others = [p for p in props if p != leaves[0]]
    base = {"kind": "tree_lines", "key_param": leaves[0]}
    if re.search(r"\bsort", desc, re.IGNORECASE) and not others:
        return {**base, "text_op": "sort"}
    if re.search(r"\b(compare|diff)", desc, re.IGNORECASE) and len(others) == 1 and others[0] in strings:
        return {**base, "text_op": "diff", "op_param": others[0]}
    numbers = [p for p in others if (props[p] or {}).get("type") == "integer"]
    if re.search(r"\blast\b", desc, re.IGNORECASE) and len(others) == 1 and numbers:
        return {
            **base,
            "text_op": "tail",
            "op_param": numbers[0],
            "op_default": (props[numbers[0]] or {}).get("default", 10),
        }
    if re.search(r"\bcount", desc, re.IGNORECASE) and len(others) == 1 and others[0] in strings:
        pairs = MODE_PAIR.findall(str((props[others[0]] or {}).get("description", "")))
        returns = (spec.returns or {}).get("properties") or {} if isinstance(spec.returns, dict) else {}
        number = [k for k, v in returns.items() if (v or {}).get("type") == "integer"]
        name = [k for k, v in returns.items() if (v or {}).get("type") == "string"]
        if pairs and len(number) == 1 and len(name) == 1:
            names = {"chars": "characters", "bytes": "characters"}
            mode_map = {m: names.get(w.lower(), w.lower()) for m, w in pairs}
            default = (props[others[0]] or {}).get("default", pairs[0][0])
            return {
                **base,
                "text_op": "count",
                "op_param": others[0],
                "op_default": default,
                "mode_map": mode_map,
                "result_keys": [number[0], name[0]],
            }
    return None


def _find(spec: ToolSpec, strings: list[str]) -> tuple[str, str] | None:
    """(name part param, path param) of a recursive search of node names under a path."""
    if len(strings) != 2 or not re.search(r"\b(find|search)", spec.description, re.IGNORECASE):
        return None
    paths = [p for p in strings if any(w in ("path", "dir", "directory", "folder") for w in split_words(p))]
    if len(paths) != 1:
        return None
    return next(p for p in strings if p != paths[0]), paths[0]


def decide_tree_plan(
    spec: ToolSpec, pri: ToolPriors, ctx: PlanContext, mutates: bool, votes: dict[str, Any], evidence: list[str]
) -> ToolPlan:
    """The tree kind of a tool that no collection serves, or `unsupported` with the reason."""
    if len(ctx.trees) != 1:
        return ToolPlan(
            kind="unsupported", evidence=evidence + [f"{len(ctx.trees)} trees in the data; no collection"], votes=votes
        )
    tree, info = next(iter(ctx.trees.items()))
    props = spec.parameters.get("properties") or {}
    strings = [p for p, s in props.items() if isinstance(s, dict) and s.get("type") == "string"]
    verb = description_verb(spec)
    if pri.mutates is None and verb is not None:  # the docs' own verb wins over the LLM's vote
        mutates = verb in ("create", "delete", "update")
    base = dict(collection=tree, tree=tree, tree_info=dict(info), votes=votes)

    def unsupported(why: str) -> ToolPlan:
        return ToolPlan(kind="unsupported", evidence=evidence + [f"tree `{tree}`: {why}"], votes=votes)

    text = info.get("text_field")
    working = re.search(r"\b(current|working)\s+(working\s+)?director", spec.description, re.IGNORECASE)
    if working and re.search(r"\bchange", spec.description, re.IGNORECASE) and len(strings) == 1:
        return ToolPlan(kind="tree_cd", key_param=strings[0], evidence=evidence + ["changes the working node"], **base)
    if working and not props and re.search(r"\b(return|print|show|display)", spec.description, re.IGNORECASE):
        return ToolPlan(kind="tree_pwd", evidence=evidence + ["returns the working node's path"], **base)
    lines = _text_op(spec, strings, info)
    if lines is not None:
        return ToolPlan(evidence=evidence + [f"{lines['text_op']} on a leaf's lines"], **lines, **base)
    found = _find(spec, strings)
    if found is not None:
        return ToolPlan(
            kind="tree_find",
            key_param=found[0],
            op_param=found[1],
            evidence=evidence + ["finds nodes below a path by a part of their name"],
            **base,
        )
    pair = _move_or_copy(spec, strings, text)
    if pair is not None:
        return ToolPlan(
            kind=pair[0],
            key_param=pair[1],
            fields=[pair[2]],
            evidence=evidence + [f"{pair[0]}: source and destination"],
            **base,
        )
    if mutates:
        named = [p for p in strings if _kind_of_param(p, info) is not None]
        if len(strings) == 2 and text not in strings and len(named) == 1:  # the parameter naming no node is the text
            text = next(p for p in strings if p not in named)
        if len(strings) == 2 and text in strings:
            name = next(p for p in strings if p != text)
            if _kind_of_param(name, info) in (info.get("leaf"), None):
                return ToolPlan(
                    kind="tree_write",
                    key_param=name,
                    fields=[text],
                    evidence=evidence + ["writes a leaf's text"],
                    **base,
                )
        if len(strings) != 1:
            return unsupported(f"a write with {len(strings)} name parameters is not planned on the tree")
        kind = _kind_of_param(strings[0], info)
        if verb == "create":
            return ToolPlan(
                kind="tree_make",
                key_param=strings[0],
                node_kind=kind or info.get("leaf"),
                evidence=evidence + [f"creates a {kind or info.get('leaf')} node"],
                **base,
            )
        if verb == "delete":
            return ToolPlan(
                kind="tree_remove", key_param=strings[0], node_kind=kind, evidence=evidence + ["removes a node"], **base
            )
        return unsupported("a write that neither creates nor removes a node")
    if not strings:
        if verb == "list":
            return ToolPlan(kind="tree_list", evidence=evidence + ["lists the working node"], **base)
        return unsupported("a read without a node name that does not list")
    leaves = [p for p in strings if info.get("leaf") and _kind_of_param(p, info) == info.get("leaf")]
    if len(strings) == 1 and leaves:
        return ToolPlan(kind="tree_read", key_param=strings[0], evidence=evidence + ["reads a leaf"], **base)
    if len(strings) == 2 and len(leaves) == 1 and verb == "search" and text:
        needle = next(p for p in strings if p != leaves[0])
        return ToolPlan(
            kind="tree_search",
            key_param=leaves[0],
            fields=[needle],
            evidence=evidence + ["searches a leaf's text"],
            **base,
        )
    return unsupported(f"a read of {strings} is not planned on the tree")


__all__ = ["decide_tree_plan"]
