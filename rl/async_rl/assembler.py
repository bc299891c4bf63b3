"""Complete K-sample groups for the trainer, out of finished trajectories that arrive in any order.

A group is the K episodes one worker ran of one task request. The trainer takes complete groups only;
a group whose oldest sampled turn is more than `max_staleness` policy versions behind the version about
to be updated is dropped (counted in `dropped_groups`, never trained on).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rl.async_rl.queue import Finished
from rl.types import Trajectory


@dataclass
class Group:
    """K finished episodes of one task request, in sample order."""

    group_id: int
    items: list[Finished]

    @property
    def trajectories(self) -> list[Trajectory]:
        return [f.traj for f in self.items]

    @property
    def task_id(self) -> str:
        return self.items[0].traj.task_id

    def oldest_version(self) -> int:
        return min(f.oldest_version() for f in self.items)

    def staleness(self, version: int) -> int:
        """How many versions the group's oldest turn lags behind `version`."""
        return version - self.oldest_version()


@dataclass
class GroupAssembler:
    """Collects finished trajectories by group; hands out complete, fresh-enough groups in completion order."""

    k: int
    max_staleness: int
    pending: dict[int, list[Finished]] = field(default_factory=dict)
    ready: list[Group] = field(default_factory=list)
    dropped_groups: int = 0
    dropped_trajectories: int = 0
    staleness_counts: Counter = field(default_factory=Counter)  # staleness -> groups handed to the trainer

    def add(self, item: Finished) -> bool:
        """Add one trajectory; True when it completed its group."""
        items = self.pending.setdefault(item.group_id, [])
        if any(f.traj.ident.sample_index == item.traj.ident.sample_index for f in items):
            raise ValueError(f"group {item.group_id}: sample {item.traj.ident.sample_index} arrived twice")
        items.append(item)
        if len(items) < self.k:
            return False
        del self.pending[item.group_id]
        self.ready.append(Group(item.group_id, sorted(items, key=lambda f: f.traj.ident.sample_index)))
        return True

    def take(self, n: int, version: int) -> tuple[list[Group], list[Group]]:
        """Up to `n` complete groups fresh enough for an update at `version`, and the stale ones dropped now."""
        fresh, stale, keep = [], [], []
        for g in self.ready:
            if g.staleness(version) > self.max_staleness:
                stale.append(g)
            elif len(fresh) < n:
                fresh.append(g)
            else:
                keep.append(g)
        self.ready = keep
        self.dropped_groups += len(stale)
        self.dropped_trajectories += sum(len(g.items) for g in stale)
        for g in fresh:
            self.staleness_counts[g.staleness(version)] += 1
        return fresh, stale
