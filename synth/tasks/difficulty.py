"""Difficulty: DAG measures, a reference agent's measured pass rate, and a band filter.

The pass rate comes from a function the caller supplies (`PassRate`: task -> mean reward of the
reference agent's rollouts on it). This module runs no agent itself: `forgegym tasks --pass-rate-k K`
builds one with `rl.evaluate.pass_rate_fn` on the project's rollout loop (an endpoint policy and the
scripted user, K episodes per task).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from synth.task import Task
from synth.tasks.dag import TaskDAG
from synth.tasks.envmodel import EnvModel

PassRate = Callable[[Task], float]


def dag_measures(dag: TaskDAG, model: EnvModel) -> dict[str, Any]:
    """dag_size (nodes), calls, writes, depth (longest dependency path, in nodes), reasoning_nodes by op."""
    calls = dag.calls()
    reasons = dag.reasons()
    return {
        "dag_size": dag.size(),
        "calls": len(calls),
        "writes": sum(1 for c in calls if model.tools[c.tool].is_write),
        "depth": dag.depth(),
        "reasoning_nodes": len(reasons),
        "reasoning_ops": sorted(r.op for r in reasons),
        "data_edges": sum(1 for e in dag.edges() if e["kind"] == "data"),
        "pass_rate": None,
    }


@dataclass
class Band:
    """Which tasks to keep: DAG size and (when measured) pass rate within bounds."""

    min_size: int = 0
    max_size: int = 10**6
    min_pass: float = 0.0
    max_pass: float = 1.0

    def admits(self, difficulty: dict[str, Any]) -> tuple[bool, str]:
        size = difficulty.get("dag_size", 0)
        if not self.min_size <= size <= self.max_size:
            return False, f"dag_size {size} outside [{self.min_size}, {self.max_size}]"
        rate = difficulty.get("pass_rate")
        if rate is not None and not self.min_pass <= rate <= self.max_pass:
            return False, f"pass_rate {rate} outside [{self.min_pass}, {self.max_pass}]"
        return True, ""


def filter_band(tasks: list[Task], band: Band) -> list[Task]:
    """The tasks whose difficulty the band admits."""
    return [t for t in tasks if band.admits(t.difficulty)[0]]


def measure_pass_rate(task: Task, pass_rate: PassRate, rollouts: int) -> float:
    """Record `pass_rate(task)` and the number of rollouts behind it in task.difficulty; return the rate."""
    if rollouts <= 0:
        raise ValueError("rollouts must be positive")
    rate = pass_rate(task)
    task.difficulty["pass_rate"] = rate
    task.difficulty["rollouts"] = rollouts
    return rate
