"""A bounded queue of finished trajectories: rollout workers block on it when the trainer falls behind."""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass

from rl.types import Trajectory


@dataclass
class Finished:
    """One finished episode of group `group_id`; `start_version`: the policy version when its group started."""

    group_id: int
    traj: Trajectory
    start_version: int
    max_turns: int = 0

    def oldest_version(self) -> int:
        """The version of its oldest sampled turn (the group's start version when no turn was sampled)."""
        versions = self.traj.tokens.turn_versions
        return min(versions) if versions else self.start_version


class TrajectoryQueue:
    """Thread-safe FIFO of at most `maxsize` finished trajectories (back-pressure on the producers).

    `put` blocks while the queue is full, until there is room or `stop` is set; the time producers
    spent blocked is kept in `blocked_s`.
    """

    def __init__(self, maxsize: int):
        if maxsize < 1:
            raise ValueError(f"TrajectoryQueue: maxsize must be at least 1, got {maxsize}")
        self.maxsize = maxsize
        self._q: queue.Queue[Finished] = queue.Queue(maxsize)
        self._lock = threading.Lock()
        self.blocked_s = 0.0

    def put(self, item: Finished, stop: threading.Event, poll_s: float = 0.05) -> bool:
        """Add `item`, waiting for room; False (item not added) when `stop` was set first."""
        t0 = time.perf_counter()
        try:
            while not stop.is_set():
                try:
                    self._q.put(item, timeout=poll_s)
                    return True
                except queue.Full:
                    continue
            return False
        finally:
            with self._lock:
                self.blocked_s += time.perf_counter() - t0

    def get(self, timeout: float) -> Finished | None:
        """The oldest item, or None when none came within `timeout` seconds."""
        try:
            return self._q.get(timeout=timeout)
        except queue.Empty:
            return None

    def drain(self) -> list[Finished]:
        """Remove and return everything waiting (unblocks producers at shutdown)."""
        out = []
        while True:
            try:
                out.append(self._q.get_nowait())
            except queue.Empty:
                return out

    def qsize(self) -> int:
        return self._q.qsize()
