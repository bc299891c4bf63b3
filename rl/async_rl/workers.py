"""Rollout workers of the asynchronous mode and what they share with the trainer.

- `WeightLock`: many samplers at once (read), or the weight swap alone (write, preferred);
- `VersionedPolicy`: a token policy whose every sample carries the policy version that made it;
- `TaskFeeder`: hands out group requests from the curriculum, no more than `max_staleness` steps ahead;
- `RolloutWorker`: a thread that runs one K-sample group at a time and queues its trajectories.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import torch

from rl.async_rl.queue import Finished, TrajectoryQueue
from rl.backends.base import Sample, SamplingParams
from rl.episode import RolloutConfig
from rl.rollout import run_episodes


class WeightLock:
    """A readers-writer lock: samplers share it, the weight swap takes it alone; a waiting writer goes first."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._readers = 0
        self._writer = False
        self._writers_waiting = 0

    @contextlib.contextmanager
    def read(self) -> Iterator[None]:
        with self._cond:
            while self._writer or self._writers_waiting:
                self._cond.wait()
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if self._readers == 0:
                    self._cond.notify_all()

    @contextlib.contextmanager
    def write(self) -> Iterator[None]:
        with self._cond:
            self._writers_waiting += 1
            while self._writer or self._readers:
                self._cond.wait()
            self._writers_waiting -= 1
            self._writer = True
        try:
            yield
        finally:
            with self._cond:
                self._writer = False
                self._cond.notify_all()


class PolicyClock:
    """The sampler weights' version (updates applied to them) and the lock that guards them."""

    def __init__(self, version: int):
        self.version = version
        self.lock = WeightLock()


class VersionedPolicy:
    """Wraps a token policy: samples under the read lock, each stamped with the version it was drawn with.

    `exclusive`: one generate call at a time (engines that are not thread-safe, e.g. vLLM's `LLM`).
    Everything else (tokenizer, name, prefix cache, renderer binding) is the wrapped policy's.
    """

    def __init__(self, inner: Any, clock: PolicyClock, exclusive: bool = False, serial: threading.Lock | None = None):
        self.inner, self.clock = inner, clock
        self._serial = (serial or threading.Lock()) if exclusive else None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def generate(self, prompts: list[list[int]], params: SamplingParams) -> list[Sample]:
        with self.clock.lock.read(), self._serial if self._serial is not None else contextlib.nullcontext():
            version = self.clock.version
            samples = self.inner.generate(prompts, params)
        for s in samples:
            s.policy_version = version
        return samples


@dataclass(frozen=True)
class GroupRequest:
    """K episodes of `task` with these sampling seed and turn limit; `batch`: the curriculum draw it came from."""

    group_id: int
    batch: int
    task: Any
    seed: int
    max_turns: int


class TaskFeeder:
    """Group requests from the curriculum, `tasks_per_step` tasks per draw (draw b samples as step b would).

    A new group starts only while fewer than (max_staleness + 1) x tasks_per_step groups are live (issued,
    neither trained on nor dropped): workers run at most `max_staleness` steps ahead of the trainer, so
    little sampled work goes stale. The trainer retires the groups of an update after the new weights
    are in place, so with max_staleness 0 every group is sampled by the weights that learn from it.
    """

    def __init__(
        self,
        curriculum: Any,
        curriculum_lock: threading.Lock,
        *,
        tasks_per_step: int,
        max_staleness: int,
        default_max_turns: int,
        seed: int,
        start_step: int,
    ):
        self.curriculum, self.curriculum_lock = curriculum, curriculum_lock
        self.tasks_per_step, self.max_staleness = tasks_per_step, max_staleness
        self.default_max_turns, self.seed, self.start_step = default_max_turns, seed, start_step
        self._cond = threading.Condition()
        self._pending: list[Any] = []
        self._batch = start_step  # the next curriculum draw
        self._pending_batch, self._max_turns = start_step, default_max_turns
        self.issued = 0
        self.retired = 0  # groups trained on or dropped

    def live(self) -> int:
        return self.issued - self.retired

    def next(self, stop: threading.Event, poll_s: float = 0.05) -> GroupRequest | None:
        """The next request, waiting while the workers are far enough ahead; None once `stop` is set."""
        with self._cond:
            while not stop.is_set() and self.live() >= (self.max_staleness + 1) * self.tasks_per_step:
                self._cond.wait(poll_s)
            if stop.is_set():
                return None
            if not self._pending:
                with self.curriculum_lock:
                    self._pending = list(self.curriculum.sample(self._batch, self.tasks_per_step))
                    self._max_turns = self.curriculum.max_turns(self._batch, self.default_max_turns)
                self._pending_batch = self._batch
                self._batch += 1
            task = self._pending.pop(0)
            gid = self.issued
            self.issued += 1
            seed = self.seed * 100_003 + self.start_step * 1_000_033 + gid * 17 + 5  # a resumed run draws new episodes
            return GroupRequest(gid, self._pending_batch, task, seed, self._max_turns)

    def retire(self, n: int) -> None:
        """`n` groups were trained on or dropped: their slots go to new requests."""
        with self._cond:
            self.retired += n
            self._cond.notify_all()


@dataclass
class WorkerStats:
    """Seconds a worker spent running episodes (busy) and waiting for a request or for queue room (idle)."""

    busy_s: float = 0.0
    idle_s: float = 0.0
    groups: int = 0


class RolloutWorker(threading.Thread):
    """Runs group requests with its own policy view until `stop`; a failure is kept in `error` and stops all."""

    def __init__(
        self,
        index: int,
        policy: VersionedPolicy,
        feeder: TaskFeeder,
        out: TrajectoryQueue,
        *,
        k: int,
        rollout_cfg: RolloutConfig,
        env_dirs: dict[str, Any],
        user: Any,
        judge: Any,
        stop: threading.Event,
        autocast: Callable[[], Any],
        on_error: Callable[[BaseException, str], None],
    ):
        super().__init__(name=f"rollout-worker-{index}", daemon=True)
        self.policy, self.feeder, self.out, self.k = policy, feeder, out, k
        self.rollout_cfg, self.env_dirs, self.user, self.judge = rollout_cfg, env_dirs, user, judge
        self.stop, self.autocast, self.on_error = stop, autocast, on_error
        self.stats = WorkerStats()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                t0 = time.perf_counter()
                req = self.feeder.next(self.stop)
                t1 = time.perf_counter()
                self.stats.idle_s += t1 - t0
                if req is None:
                    return
                start_version = self.policy.clock.version
                cfg = dataclasses.replace(self.rollout_cfg, seed=req.seed, max_turns=req.max_turns)
                with torch.no_grad(), self.autocast():
                    trajs = run_episodes(
                        self.policy,
                        [(str(self.env_dirs[req.task.env_id]), req.task)],
                        self.user,
                        cfg,
                        k=self.k,
                        judge=self.judge,
                    )
                t2 = time.perf_counter()
                self.stats.busy_s += t2 - t1
                for t in trajs:
                    if not self.out.put(Finished(req.group_id, t, start_version, req.max_turns), self.stop):
                        break
                self.stats.idle_s += time.perf_counter() - t2
                self.stats.groups += 1
        except BaseException as err:  # noqa: BLE001 - handed to the trainer thread, which raises it
            self.on_error(err, traceback.format_exc())
