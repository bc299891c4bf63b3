"""State helpers: canonical JSON, the state hash, a fast structural copy, and a diff by identity."""

from __future__ import annotations

import copy
import hashlib
import json
import marshal
from typing import Any


def canonical_json(obj: Any) -> str:
    """Sorted keys, no spaces, UTF-8 text kept as is, no NaN: the bytes that are hashed and compared."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def state_hash(obj: Any) -> str:
    """sha256 hex digest of `canonical_json(obj)`."""
    return hashlib.sha256(canonical_json(obj).encode("utf-8")).hexdigest()


def _copy_tree(obj: Any) -> Any:
    kind = type(obj)
    if kind is dict:
        out = {}
        for key, value in obj.items():
            vk = type(value)
            out[key] = (
                _copy_tree(value)
                if (vk is dict or vk is list)
                else (value if vk in _IMMUTABLE else copy.deepcopy(value))
            )
        return out
    if kind is list:
        return [
            _copy_tree(v)
            if (type(v) is dict or type(v) is list)
            else (v if type(v) in _IMMUTABLE else copy.deepcopy(v))
            for v in obj
        ]
    return obj if kind in _IMMUTABLE else copy.deepcopy(obj)


_IMMUTABLE = frozenset({str, int, float, bool, type(None), tuple, frozenset, bytes})


def copy_state(obj: Any) -> Any:
    """A deep copy of a JSON-like value (dicts, lists, scalars), several times faster than copy.deepcopy.

    Uses marshal for plain JSON data, a specialised recursive copy otherwise.
    """
    try:
        return marshal.loads(marshal.dumps(obj))
    except ValueError:  # a type marshal cannot write (dict subclasses, sets of objects, ...)
        return _copy_tree(obj)


_ABSENT = object()


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def changed_paths(before: Any, after: Any, prefix: str = "") -> list[str]:
    """JSON-pointer paths where `after` differs from `before` (sorted; "" when the root itself differs).

    Subtrees that are the same object are skipped without looking inside, so comparing a copy-on-write
    state with the initial state it shares costs only the parts a tool wrote.
    """
    if before is after:
        return []
    if type(before) is dict and type(after) is dict:
        get = before.get
        differing = [key for key, value in after.items() if get(key, _ABSENT) is not value]
        differing.extend(before.keys() - after.keys())
        out: list[str] = []
        for key in sorted(differing, key=str):
            path = f"{prefix}/{_escape(key)}"
            if key not in before or key not in after:
                out.append(path)
            else:
                out.extend(changed_paths(before[key], after[key], path))
        return out
    if type(before) is list and type(after) is list and len(before) == len(after):
        out = []
        for index, (x, y) in enumerate(zip(before, after)):
            out.extend(changed_paths(x, y, f"{prefix}/{index}"))
        return out
    if type(before) is not type(after) or before != after:
        return [prefix]
    return []


class SharedIndex:
    """Every container of a state that episodes share: id -> (parent container, key), root -> None.

    Built once per initial-state object (see `shared_index`); the runtime's write guards use it to
    spot writes to shared containers, and its parent links to copy only the path down to them.
    """

    __slots__ = ("root", "parents")

    def __init__(self, root: Any) -> None:
        self.root = root  # keeps every indexed object alive, so ids stay unique
        parents: dict[int, Any] = {id(root): None}
        stack = [root]
        pop, push = stack.pop, stack.append
        while stack:
            node = pop()
            items = node.items() if type(node) is dict else enumerate(node)
            for key, value in items:
                kind = type(value)
                if kind is dict or kind is list:
                    parents[id(value)] = (node, key)
                    push(value)
        self.parents = parents

    def path_to(self, obj: Any) -> list[Any] | None:
        """Keys from the root down to `obj`, or None when `obj` is not a shared container."""
        keys: list[Any] = []
        entry = self.parents.get(id(obj), False)
        if entry is False:
            return None
        while entry is not None:
            parent, key = entry
            keys.append(key)
            entry = self.parents[id(parent)]
        keys.reverse()
        return keys


_INDEX_CACHE: dict[int, SharedIndex] = {}
_INDEX_CACHE_SIZE = 1024  # one per distinct task initial state in a training batch; 32 thrashed at 125 states


def shared_index(root: Any) -> SharedIndex:
    """The cached SharedIndex of `root` (keyed by identity; the cache holds the object alive)."""
    index = _INDEX_CACHE.get(id(root))
    if index is not None and index.root is root:
        return index
    index = SharedIndex(root)
    if len(_INDEX_CACHE) >= _INDEX_CACHE_SIZE:
        _INDEX_CACHE.pop(next(iter(_INDEX_CACHE)))
    _INDEX_CACHE[id(root)] = index
    return index


def forget_index(root: Any) -> None:
    """Drop the cached SharedIndex of `root`, so the cache no longer holds it alive (one-off initial states)."""
    index = _INDEX_CACHE.get(id(root))
    if index is not None and index.root is root:
        del _INDEX_CACHE[id(root)]
