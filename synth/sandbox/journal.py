"""Per-call write journal: what makes tool calls atomic and lets episodes share their initial state.

While a `WriteContext` is active (one per tool call, per thread), every write that sandboxed code makes
to a container goes through the guards, which call `WriteContext.touch(obj)` first:
- an object listed in `shared` (part of a state shared with other episodes) raises `SharedWrite`, so the
  runtime can copy that path and run the call again;
- otherwise the container's contents are saved once (a shallow snapshot), so `rollback()` can put every
  written container back when the call fails.
"""

from __future__ import annotations

import collections
import threading
from typing import Any

from synth.sandbox.errors import SharedWrite

#: Container types sandboxed code may write (items) or mutate (methods).
MUTABLE_TYPES: frozenset[type] = frozenset(
    {
        dict,
        list,
        set,
        collections.defaultdict,
        collections.OrderedDict,
        collections.Counter,
        collections.deque,
    }
)

_EMPTY: frozenset[int] = frozenset()


class _ThreadState(threading.local):
    ctx: "WriteContext | None" = None


THREAD = _ThreadState()


class WriteContext:
    """The writes of one tool call: shared objects to protect and snapshots for rollback."""

    __slots__ = ("shared", "saved")

    def __init__(self, shared: set[int] | frozenset[int] = _EMPTY) -> None:
        self.shared = shared
        self.saved: dict[int, tuple[Any, Any]] = {}

    def touch(self, obj: Any) -> None:
        """Called before `obj` is written: refuse shared objects, snapshot the rest once."""
        key = id(obj)
        if key in self.shared:
            raise SharedWrite(obj)
        if key not in self.saved:
            self.saved[key] = (obj, _snapshot(obj))

    def rollback(self) -> None:
        """Put every container written since the context began back as it was."""
        for obj, snap in self.saved.values():
            _restore(obj, snap)
        self.saved.clear()


def activate(ctx: WriteContext | None) -> WriteContext | None:
    """Make `ctx` the current thread's write context; returns the previous one (pass it to `activate`)."""
    previous = THREAD.ctx
    THREAD.ctx = ctx
    return previous


def _snapshot(obj: Any) -> Any:
    if type(obj) is list:
        return obj[:]
    return obj.copy()  # dict, set, deque and the collections dict subclasses


def _restore(obj: Any, snap: Any) -> None:
    if isinstance(obj, list):
        obj[:] = snap
    elif isinstance(obj, dict):
        obj.clear()
        dict.update(obj, snap)  # not Counter.update, which adds counts
    elif isinstance(obj, collections.deque):
        obj.clear()
        obj.extend(snap)
    else:  # set
        obj.clear()
        obj.update(snap)
