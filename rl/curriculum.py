"""Which tasks each training step sees, and how many turns an episode may take.

Tasks are ordered by measured difficulty (`order`): "pass_rate" (1 - pass rate, unknown = 0.5, ties by
DAG size), "dag_size" (DAG size, then depth), or "none" (task id). Strategies (`strategy`):

- "uniform":     shuffled epochs over all tasks, no ordering;
- "sequential":  walk the ordered list easy -> hard, cyclically;
- "competence":  draw from the easiest fraction of tasks, the fraction growing linearly from
                 `start_fraction` to 1 over the first `warmup_fraction` of training;
- "weighted":    sample in proportion to a learnability weight p (1 - p) (p = live pass rate), floored at
                 `min_weight`: tasks always solved or never solved carry no signal for group baselines.

Pass rates start from `task.difficulty["pass_rate"]` and follow the training successes (EMA), so the
difficulty is measured, not assumed. `turn_schedule` grows the maximum number of turns in phases
(AgentGym-RL's ScalingInter-RL): `[8, 12, 15]` splits training into three equal phases, or give
`[{"until_step": 100, "max_turns": 8}, {"max_turns": 12}]`.
The whole position (cursor, RNG, pass rates) is in `state_dict()`, so a resumed run draws the same tasks.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

from synth.task import Task

ORDERS = ("pass_rate", "dag_size", "none")
STRATEGIES = ("uniform", "sequential", "competence", "weighted")


@dataclass
class CurriculumConfig:
    order: str = "pass_rate"
    strategy: str = "competence"
    start_fraction: float = 0.5
    warmup_fraction: float = 0.5
    min_weight: float = 0.05
    pass_rate_ema: float = 0.5  # weight of the newest measurement
    turn_schedule: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.order not in ORDERS:
            raise ValueError(f"order: {self.order!r} is not one of {ORDERS}")
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy: {self.strategy!r} is not one of {STRATEGIES}")
        if not 0.0 < self.start_fraction <= 1.0:
            raise ValueError(f"start_fraction: {self.start_fraction} must be in (0, 1]")


def difficulty_key(task: Task, order: str, pass_rate: float | None = None) -> tuple:
    """Sort key, easiest first."""
    d = task.difficulty or {}
    dag = float(d.get("dag_size", len(task.gold_actions)) or 0)
    depth = float(d.get("depth", 0) or 0)
    if order == "pass_rate":
        p = pass_rate if pass_rate is not None else d.get("pass_rate")
        return (1.0 - float(p) if p is not None else 0.5, dag, depth, task.task_id)
    if order == "dag_size":
        return (dag, depth, task.task_id)
    return (task.task_id,)


class Curriculum:
    """Deterministic task sampler with a resumable position."""

    def __init__(self, tasks: list[Task], config: CurriculumConfig, total_steps: int, seed: int = 0):
        if not tasks:
            raise ValueError("curriculum: no tasks to train on")
        self.config = config
        self.total_steps = max(1, total_steps)
        self.tasks = {t.task_id: t for t in tasks}
        if len(self.tasks) != len(tasks):
            raise ValueError("curriculum: task ids must be unique")
        self.pass_rates: dict[str, float] = {
            t.task_id: float(t.difficulty["pass_rate"])
            for t in tasks
            if (t.difficulty or {}).get("pass_rate") is not None
        }
        self.order = self._ordered_ids()
        self.cursor = 0
        self.epoch_order: list[str] = []
        self.rng = random.Random(seed)

    # ---- ordering and sampling ------------------------------------------------------------------
    def _ordered_ids(self) -> list[str]:
        cfg = self.config
        return sorted(self.tasks, key=lambda tid: difficulty_key(self.tasks[tid], cfg.order, self.pass_rates.get(tid)))

    def pool_size(self, step: int) -> int:
        """Number of easiest tasks eligible at `step` under "competence"."""
        cfg = self.config
        warm = max(1.0, cfg.warmup_fraction * self.total_steps)
        frac = min(1.0, cfg.start_fraction + (1.0 - cfg.start_fraction) * step / warm)
        return max(1, math.ceil(frac * len(self.order)))

    def sample(self, step: int, n: int) -> list[Task]:
        """The `n` tasks of training step `step` (distinct when the pool is large enough)."""
        strategy = self.config.strategy
        if strategy == "sequential":
            ids = [self.order[(self.cursor + i) % len(self.order)] for i in range(n)]
            self.cursor = (self.cursor + n) % len(self.order)
        elif strategy == "uniform":
            ids = []
            for _ in range(n):
                if self.cursor >= len(self.epoch_order):
                    self.epoch_order = sorted(self.tasks)
                    self.rng.shuffle(self.epoch_order)
                    self.cursor = 0
                ids.append(self.epoch_order[self.cursor])
                self.cursor += 1
        elif strategy == "competence":
            pool = self.order[: self.pool_size(step)]
            ids = self.rng.sample(pool, n) if n <= len(pool) else [self.rng.choice(pool) for _ in range(n)]
        else:  # weighted
            ids = self._weighted_sample(n)
        return [self.tasks[i] for i in ids]

    def weights(self) -> dict[str, float]:
        """Learnability weight per task for the "weighted" strategy."""
        out = {}
        for tid in self.order:
            p = self.pass_rates.get(tid, 0.5)
            out[tid] = max(p * (1.0 - p), self.config.min_weight)
        return out

    def _weighted_sample(self, n: int) -> list[str]:
        w = self.weights()
        ids, chosen = list(self.order), []
        for _ in range(min(n, len(ids))):  # without replacement
            pick = self.rng.choices(ids, weights=[w[i] for i in ids])[0]
            chosen.append(pick)
            ids.remove(pick)
        while len(chosen) < n:
            chosen.append(self.rng.choices(self.order, weights=[w[i] for i in self.order])[0])
        return chosen

    # ---- measured difficulty ---------------------------------------------------------------------
    def update(self, success_by_task: dict[str, float]) -> None:
        """Fold this step's success rates into the live pass rates and re-order."""
        a = self.config.pass_rate_ema
        for tid, rate in success_by_task.items():
            if tid in self.tasks:
                old = self.pass_rates.get(tid)
                self.pass_rates[tid] = float(rate) if old is None else (1 - a) * old + a * float(rate)
        if self.config.strategy in ("competence", "weighted"):
            self.order = self._ordered_ids()

    # ---- turns -----------------------------------------------------------------------------------
    def max_turns(self, step: int, default: int) -> int:
        """Maximum agent turns at `step` under the turn schedule (or `default`)."""
        return max_turns_at(self.config.turn_schedule, step, self.total_steps, default)

    # ---- position ----------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        version, internal, gauss = self.rng.getstate()
        return {
            "cursor": self.cursor,
            "epoch_order": list(self.epoch_order),
            "order": list(self.order),
            "pass_rates": dict(sorted(self.pass_rates.items())),
            "rng": [version, list(internal), gauss],
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.cursor = int(state["cursor"])
        self.epoch_order = list(state["epoch_order"])
        self.order = list(state["order"])
        self.pass_rates = {k: float(v) for k, v in state["pass_rates"].items()}
        version, internal, gauss = state["rng"]
        self.rng.setstate((version, tuple(internal), gauss))


def max_turns_at(schedule: list[Any], step: int, total_steps: int, default: int) -> int:
    """Turn limit at `step`: equal phases for a list of ints, or `until_step` bounds for a list of dicts."""
    if not schedule:
        return default
    if all(isinstance(s, int) for s in schedule):
        phase = min(len(schedule) - 1, step * len(schedule) // max(1, total_steps))
        return int(schedule[phase])
    for entry in schedule:
        if not isinstance(entry, dict) or "max_turns" not in entry:
            raise ValueError(f"turn_schedule: entry {entry!r} needs max_turns")
        until = entry.get("until_step")
        if until is None or step < int(until):
            return int(entry["max_turns"])
    return int(schedule[-1]["max_turns"])
