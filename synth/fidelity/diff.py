"""Changed leaves between two states: {path: new value}, a deleted leaf mapped to `DELETED`.

A state flattens to leaves: scalars and empty containers, each at the path of keys (and list indexes) that
reaches it. The change of a call is every leaf path whose value differs before and after, with its new
value. `leaf_changes` computes that without flattening equal subtrees; `compose` gets one call's change
from two changes measured against a common initial state (cheap for copy-on-write states, which share
unchanged parts with their initial state).
"""

from __future__ import annotations

from typing import Any, Iterator

from synth.fidelity.normalize import canonical

Path = tuple[Any, ...]


class _Deleted:
    """The value of a leaf that no longer exists (one instance: `DELETED`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "DELETED"


DELETED: Any = _Deleted()
DELETED_TEXT = "<deleted>"  # never a canonical JSON text (those of strings start with a quote)


def _inner(value: Any) -> bool:
    """A non-empty dict or list: a node whose leaves lie below it."""
    return (type(value) is dict or type(value) is list) and len(value) > 0


def leaves(value: Any, path: Path = ()) -> Iterator[tuple[Path, Any]]:
    """Every (path, leaf) of a value, depth first."""
    if not _inner(value):
        yield path, value
        return
    items = value.items() if type(value) is dict else enumerate(value)
    for key, item in items:
        yield from leaves(item, path + (key,))


def _equal_leaf(left: Any, right: Any) -> bool:
    return left is right or (type(left) is type(right) and left == right)


def _diff(before: Any, after: Any, path: Path, out: dict[Path, Any]) -> None:
    if before is after:
        return
    kb, ka = type(before), type(after)
    if kb is ka and kb is dict and before and after:
        for key, new in after.items():
            if key in before:
                old = before[key]
                if old is new or (type(old) is type(new) and old == new):
                    continue
                _diff(old, new, path + (key,), out)
            else:
                out.update(leaves(new, path + (key,)))
        for key in before.keys() - after.keys():
            for sub, _ in leaves(before[key], path + (key,)):
                out[sub] = DELETED
        return
    if kb is ka and kb is list and before and after:
        common = min(len(before), len(after))
        for index in range(common):
            _diff(before[index], after[index], path + (index,), out)
        for index in range(common, len(after)):
            out.update(leaves(after[index], path + (index,)))
        for index in range(common, len(before)):
            for sub, _ in leaves(before[index], path + (index,)):
                out[sub] = DELETED
        return
    old_leaves = dict(leaves(before, path))
    for sub, value in leaves(after, path):
        old = old_leaves.pop(sub, DELETED)
        if old is DELETED or not _equal_leaf(old, value):
            out[sub] = value
    for sub in old_leaves:
        out[sub] = DELETED


def leaf_changes(before: Any, after: Any) -> dict[Path, Any]:
    """{path: new leaf value or DELETED} for every leaf that differs between two states."""
    out: dict[Path, Any] = {}
    _diff(before, after, (), out)
    return out


def leaf_at(state: Any, path: Path) -> Any:
    """The leaf at `path`, or DELETED when `path` is not a leaf of `state`."""
    node = state
    for key in path:
        if type(node) is dict:
            if key not in node:
                return DELETED
            node = node[key]
        elif type(node) is list and type(key) is int and 0 <= key < len(node):
            node = node[key]
        else:
            return DELETED
    return DELETED if _inner(node) else node


def compose(initial: Any, previous: dict[Path, Any], current: dict[Path, Any]) -> dict[Path, Any]:
    """One call's change from `leaf_changes(initial, before)` and `leaf_changes(initial, after)`."""
    out: dict[Path, Any] = {}
    for path in previous.keys() | current.keys():
        old = previous[path] if path in previous else leaf_at(initial, path)
        new = current[path] if path in current else leaf_at(initial, path)
        if not _equal_leaf(old, new):
            out[path] = new
    return out


def pointer(path: Path) -> str:
    """The JSON pointer of a path ("" for the root)."""
    return "".join("/" + str(key).replace("~", "~0").replace("/", "~1") for key in path)


def change_signature(changes: dict[Path, Any]) -> dict[str, str]:
    """{pointer: canonical normalised value or DELETED_TEXT}: what two sides' changes are compared by."""
    return {pointer(path): (DELETED_TEXT if value is DELETED else canonical(value)) for path, value in changes.items()}


def change_list(changes: dict[Path, Any]) -> list[dict[str, Any]]:
    """Changes as JSON rows sorted by pointer: {"path", "value"} or {"path", "deleted": true}."""
    rows = []
    for path, value in changes.items():
        rows.append(
            {"path": pointer(path), "deleted": True} if value is DELETED else {"path": pointer(path), "value": value}
        )
    return sorted(rows, key=lambda row: row["path"])
