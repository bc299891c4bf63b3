"""The trainer's side of the asynchronous mode: complete groups in, update, weight swap, version bump.

    runner = AsyncRunner(trainer)      # Trainer._loop does this when the config has an `async:` section
    row = runner.train_step()          # the first call starts the rollout workers
    runner.stop()                      # in-flight episodes are dropped

Rollout workers (rl/async_rl/workers.py) sample with a copy of the policy (transformers) or the vLLM
engine, while the trainer updates its own weights; after each update the weights are copied into the
sampler under the write lock (the only time workers wait for the trainer) and the version goes up. Every
sampled turn records its version; groups more than `async.max_staleness` versions old are dropped, and
the loss weighs every token by the truncated ratio of the current policy to the sampler (`loss.tis`, on
by default in this mode). Not bit-reproducible: which worker finishes first depends on timing.
"""

from __future__ import annotations

import copy
import threading
import time
from typing import Any

import torch

from rl.async_rl.assembler import GroupAssembler
from rl.async_rl.queue import TrajectoryQueue
from rl.async_rl.workers import PolicyClock, RolloutWorker, TaskFeeder, VersionedPolicy
from synth.errors import InputError


def resolve_async_defaults(config: Any) -> None:
    """Settings the asynchronous mode changes: `loss.tis` "auto" (null) becomes on."""
    if config.loss.tis is None:
        config.loss.tis = True


class AsyncRunner:
    """Drives one asynchronous run for `trainer` (a set-up `rl.trainer.Trainer`)."""

    def __init__(self, trainer: Any):
        cfg = trainer.config
        if trainer.dist.enabled:
            raise InputError(trainer.source, "async", "the asynchronous mode runs in one process (not under torchrun)")
        resolve_async_defaults(cfg)
        a = cfg.async_rl
        self.trainer = trainer
        self.k, self.tasks_per_step = cfg.rollouts_per_task, cfg.tasks_per_step
        self.n_workers = a.resolved_workers(cfg.tasks_per_step)
        self.queue = TrajectoryQueue(a.resolved_queue_size(cfg.tasks_per_step, cfg.rollouts_per_task))
        self.assembler = GroupAssembler(self.k, a.max_staleness)
        self.max_staleness = a.max_staleness
        self.stop_event = threading.Event()
        self.workers: list[RolloutWorker] = []
        self.errors: list[tuple[BaseException, str]] = []
        self.clock: PolicyClock | None = None
        self.feeder: TaskFeeder | None = None
        self._last_busy = self._last_idle = 0.0

    # ---- lifecycle ---------------------------------------------------------------------------------
    def start(self) -> None:
        """A sampler copy of the policy (transformers), the feeder and the worker threads."""
        t = self.trainer
        t.sync_weights_in_update = False
        self.clock = PolicyClock(t.step)
        if t.config.backend == "transformers":
            t.rollout_model = copy.deepcopy(t.model)  # the trainer's weights change in place during updates
            t.rollout_model.eval()
            t.policy = t._make_policy()
            policies = [t._make_policy() for _ in range(self.n_workers)]  # each its own prefix cache
            exclusive = False
        else:  # one engine, not thread-safe: one generate call at a time
            policies, exclusive = [t.policy] * self.n_workers, True
        self.feeder = TaskFeeder(
            t.curriculum,
            t.curriculum_lock,
            tasks_per_step=self.tasks_per_step,
            max_staleness=self.max_staleness,
            default_max_turns=t.rollout_cfg.max_turns,
            seed=t.config.seed,
            start_step=t.step,
        )
        serial = threading.Lock()
        for i, pol in enumerate(policies):
            worker = RolloutWorker(
                i,
                VersionedPolicy(pol, self.clock, exclusive, serial),
                self.feeder,
                self.queue,
                k=self.k,
                rollout_cfg=t.rollout_cfg,
                env_dirs=t.env_dirs,
                user=t._user,
                judge=t._judge,
                stop=self.stop_event,
                autocast=t._autocast,
                on_error=self._on_error,
            )
            self.workers.append(worker)
            worker.start()

    def _on_error(self, err: BaseException, trace: str) -> None:
        self.errors.append((err, trace))
        self.stop_event.set()

    def stop(self, timeout_s: float = 60.0) -> int:
        """Stop the workers (episodes in flight are dropped); returns the number of trajectories dropped."""
        self.stop_event.set()
        dropped = len(self.queue.drain())
        deadline = time.perf_counter() + timeout_s
        for w in self.workers:
            w.join(max(0.0, deadline - time.perf_counter()))
            dropped += len(self.queue.drain())
        return dropped

    def _raise_errors(self) -> None:
        if self.errors:
            err, trace = self.errors[0]
            self.stop(timeout_s=5.0)
            raise RuntimeError(f"a rollout worker failed:\n{trace}") from err

    # ---- one step ----------------------------------------------------------------------------------
    def train_step(self) -> dict[str, Any]:
        """Wait for `tasks_per_step` complete fresh groups, learn from them, swap the weights in; one metrics row."""
        t = self.trainer
        if self.clock is None:
            self.start()
        assert self.clock is not None and self.feeder is not None
        t0 = time.perf_counter()
        version = self.clock.version
        groups, dropped = [], 0
        while True:
            self._raise_errors()
            fresh, stale = self.assembler.take(self.tasks_per_step - len(groups), version)
            groups += fresh
            if stale:
                dropped += len(stale)
                self.feeder.retire(len(stale))
                t.log(
                    f"async: dropped {len(stale)} group(s) older than {self.max_staleness} version(s) "
                    f"at version {version}"
                )
            if len(groups) >= self.tasks_per_step:
                break
            item = self.queue.get(timeout=0.05)
            if item is not None:
                self.assembler.add(item)
        wait_s = time.perf_counter() - t0
        trajs = [tr for g in groups for tr in g.trajectories]
        row = t.learn_from(trajs)
        t1 = time.perf_counter()
        self.sync_weights()
        sync_s = time.perf_counter() - t1
        self.feeder.retire(len(groups))
        stale = [g.staleness(version) for g in groups]
        turn_lags = [version - v for tr in trajs for v in tr.tokens.turn_versions]
        busy = sum(w.stats.busy_s for w in self.workers)
        idle = sum(w.stats.idle_s for w in self.workers)
        d_busy, d_idle = busy - self._last_busy, idle - self._last_idle
        self._last_busy, self._last_idle = busy, idle
        step_s = time.perf_counter() - t0
        row.update(
            {
                "max_turns": max(f.max_turns for g in groups for f in g.items),
                "time/trainer_wait_s": wait_s,
                "time/update_s": row.pop("_update_s"),
                "time/sync_s": sync_s,
                "time/step_s": step_s,
                "time/trainer_idle_share": wait_s / max(step_s, 1e-9),
                "time/rollout_idle_share": d_idle / max(d_idle + d_busy, 1e-9),
                "async/policy_version": self.clock.version,
                "async/staleness_max": max(stale),
                "async/staleness_mean": sum(stale) / len(stale),
                "async/turn_staleness_mean": sum(turn_lags) / len(turn_lags) if turn_lags else 0.0,
                "async/stale_dropped_groups": dropped,
                "async/queue_size": self.queue.qsize(),
            }
        )
        row["tokens_per_s/update"] = row.pop("_processed_tokens") / max(row["time/update_s"], 1e-9)
        return row

    def sync_weights(self) -> None:
        """The trainer's weights into the sampler under the write lock; then the version is the trainer's step."""
        t = self.trainer
        assert self.clock is not None
        if t.config.backend == "vllm":
            state = list(t.plain_state_dict().items())  # gathered before the lock: workers wait only for the load
            with self.clock.lock.write():
                t.policy.update_weights(state)
                self.clock.version = t.step
            return
        with torch.no_grad(), self.clock.lock.write():
            t.rollout_model.load_state_dict(t.model.state_dict())
            self.clock.version = t.step

    def finish(self) -> dict[str, Any]:
        """Stop the workers; the run summary's asynchronous figures."""
        return {
            "async_dropped_in_flight": self.stop(),
            "async_staleness_histogram": self.staleness_histogram(),
            "async_stale_dropped_groups": self.assembler.dropped_groups,
        }

    def staleness_histogram(self) -> dict[int, int]:
        """Groups trained on, by staleness (versions between sampling their oldest turn and the update)."""
        return dict(sorted(self.assembler.staleness_counts.items()))
