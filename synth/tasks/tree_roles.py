"""Which tool does what on a tree-shaped state, from the manifest's tree kinds and the parameter names.

Environment synthesis tags tree tools with kinds (`tree_find`, `tree_cd`, `tree_list`, `tree_read`,
`tree_lines`, `tree_search`, `tree_move`, `tree_copy`, `tree_make`, `tree_remove`, `tree_write`);
a make or remove tool acts on leaves or branches, told by its name parameter ("dir_id" -> the branch
kind, e.g. "dirs" or "directories"). A counting tool is a `tree_lines` tool returning an integer; its mode values come
from its mode parameter's description ("'l' for lines").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from synth.tasks.envmodel import EnvModel, ToolInfo, json_type
from synth.tasks.tree_values import TreeInfo
from synth.words import split_words

MODE_PAIR = re.compile(r"'(\w+)'\s+(?:for|=|means)\s+(lines|words|characters|chars|bytes)", re.IGNORECASE)


@dataclass
class Role:
    """A tool in one role: its name, the parameter naming the node, and a second parameter when it has one."""

    tool: str
    name_param: str | None = None
    other_param: str | None = None
    modes: dict[str, str] = field(default_factory=dict)  # counting tools: unit ("lines") -> mode value
    result_field: str | None = None  # searching tools: the list field of the result holding the paths


def node_kind_of_param(pname: str, info: TreeInfo) -> str | None:
    """The node kind a parameter name points at ("dir_id" -> a branch kind named "dirs"), or None."""
    for word in split_words(pname):
        for value in (info.branch, info.leaf):
            low = value.lower()
            if len(word) >= 3 and (low.startswith(word) or word.startswith(low)):
                return value
    return None


def _strings(tool: ToolInfo, skip: str | None) -> list[str]:
    return [p for p, s in sorted(tool.props.items()) if p != skip and json_type(s) == "string"]


def _modes(tool: ToolInfo, pname: str) -> dict[str, str]:
    desc = str((tool.props.get(pname) or {}).get("description") or "")
    out: dict[str, str] = {}
    for value, unit in MODE_PAIR.findall(desc):
        unit = {"chars": "characters", "bytes": "characters"}.get(unit.lower(), unit.lower())
        out.setdefault(unit, value)
    return out


def _list_result(tool: ToolInfo) -> str | None:
    props = (tool.returns or {}).get("properties") or {}
    lists = [k for k, v in sorted(props.items()) if json_type(v) == "array"]
    return lists[0] if len(lists) == 1 else None


def _int_result(tool: ToolInfo) -> str | None:
    props = (tool.returns or {}).get("properties") or {}
    ints = [k for k, v in sorted(props.items()) if json_type(v) == "integer"]
    return ints[0] if len(ints) == 1 else None


@dataclass
class TreeRoles:
    """The tools of a tree environment by role (None where the environment has no such tool)."""

    locate: Role | None = None  # searches the tree by (part of) a name
    enter: Role | None = None  # makes a branch the working node
    listing: Role | None = None
    read: Role | None = None
    tally: Role | None = None  # counts a leaf's lines
    search: Role | None = None
    move: Role | None = None
    copy: Role | None = None
    make_leaf: Role | None = None
    make_branch: Role | None = None
    remove_leaf: Role | None = None
    remove_branch: Role | None = None
    write: Role | None = None
    tally_field: str | None = None  # the integer field of the counting tool's result


def tree_roles(model: EnvModel, info: TreeInfo) -> TreeRoles:
    """Roles of the tools acting on tree `info.key` (the first tool of a role, by name, wins)."""
    r = TreeRoles()
    for name in sorted(model.tools):
        t = model.tools[name]
        if t.collection not in (info.key, None) and info.key not in t.reads + t.writes:
            continue
        key = t.key_param
        others = _strings(t, key)
        kind = t.kind
        if kind == "tree_find" and r.locate is None:
            r.locate = Role(name, key or (others[0] if others else None), result_field=_list_result(t))
        elif kind == "tree_cd" and r.enter is None and key:
            r.enter = Role(name, key)
        elif kind == "tree_list" and r.listing is None and not t.required:
            r.listing = Role(name)
        elif kind == "tree_read" and r.read is None and key:
            r.read = Role(name, key)
        elif kind == "tree_lines" and r.tally is None and key and _int_result(t):
            unit_param = others[0] if len(others) == 1 else None
            modes = _modes(t, unit_param) if unit_param else {}
            if unit_param is None or "lines" in modes:
                r.tally, r.tally_field = Role(name, key, unit_param, modes), _int_result(t)
        elif kind == "tree_search" and r.search is None and key and len(others) == 1:
            r.search = Role(name, key, others[0])
        elif kind in ("tree_move", "tree_copy") and key and len(others) == 1:
            if kind == "tree_move" and r.move is None:
                r.move = Role(name, key, others[0])
            elif kind == "tree_copy" and r.copy is None:
                r.copy = Role(name, key, others[0])
        elif kind in ("tree_make", "tree_remove") and key:
            which = node_kind_of_param(key, info)
            slot = {
                ("tree_make", info.leaf): "make_leaf",
                ("tree_make", info.branch): "make_branch",
                ("tree_remove", info.leaf): "remove_leaf",
                ("tree_remove", info.branch): "remove_branch",
            }.get((kind, which or ""))
            if slot and getattr(r, slot) is None:
                setattr(r, slot, Role(name, key))
        elif kind == "tree_write" and r.write is None and len(others) == 1:
            text_param = others[0]
            r.write = Role(name, key or text_param, text_param if key else None)
    if r.write is not None and r.write.other_param is None:  # the text parameter is the non-name one
        r.write = None
    return r


def search_paths(result: Any) -> list[list[str]]:
    """The paths a search result lists, each as its parts ("./a/b.txt" -> ["a", "b.txt"])."""
    items: list[Any] = []
    if isinstance(result, list):
        items = result
    elif isinstance(result, dict):
        for v in result.values():
            if isinstance(v, list):
                items = v
                break
    out = []
    for it in items:
        if isinstance(it, str):
            out.append([p for p in it.split("/") if p not in ("", ".")])
    return out
