"""The asynchronous mode (rl/async_rl/): queue, group assembler, staleness bound, versions, the run and its resume.

Tiny random model on mini_todo, a scripted user with an injectable reply latency; a few seconds in all.
"""

from __future__ import annotations

import json
import math
import threading
import time
from pathlib import Path

import pytest
import torch

from rl.async_rl.assembler import GroupAssembler
from rl.async_rl.queue import Finished, TrajectoryQueue
from rl.async_rl.workers import PolicyClock, VersionedPolicy, WeightLock
from rl.erpo import logprobs_from_logits
from rl.judge import UserErrorJudge
from rl.sft import collate_rows
from rl.train_config import config_from_dict, load_train_config
from rl.trainer import Trainer
from rl.types import EpisodeId, TokenStream, Trajectory
from rl.user_sim import UserReply
from synth.errors import InputError

MINI_TODO = Path(__file__).parent / "data" / "envs" / "mini_todo"


class SlowUser:
    """States the instruction, stops after the agent's first text reply; every call waits `latency_s`."""

    name = "slow-user"

    def __init__(self, latency_s: float = 0.0, fail: bool = False):
        self.latency_s, self.fail = latency_s, fail

    def first_message(self, task, sample_index=0):
        time.sleep(self.latency_s)
        if self.fail:
            raise ConnectionError("user endpoint down")
        return task.user_instruction

    def reply(self, task, dialogue, sample_index=0):
        time.sleep(self.latency_s)
        return UserReply(text="Thanks.", stop=True)


def shaped(traj) -> float:
    """Random models score 0 everywhere; this makes advantages non-zero so updates happen."""
    sampled = [tok for tok, m in zip(traj.tokens.token_ids, traj.tokens.loss_mask) if m]
    return traj.reward + (sum(sampled) % 5) / 4.0


def config(out: Path, **over) -> dict:
    cfg = {
        "envs": [str(MINI_TODO)],
        "output_dir": str(out),
        "seed": 5,
        "steps": 3,
        "tasks_per_step": 2,
        "rollouts_per_task": 3,
        "torch_threads": 1,
        "model": {"kind": "tiny", "tiny": {"size": "test", "vocab_size": 400}},
        "optim": {"lr": 0.01, "micro_batch_size": 3, "mini_batches": 1},
        "curriculum": {"strategy": "uniform"},
        "rollout": {"max_turns": 2, "max_new_tokens": 8, "temperature": 1.0},
        "plots": False,
        "keep_checkpoints": 5,
        "async": {"max_staleness": 1},
    }
    cfg.update(over)
    return cfg


def trainer(cfg: dict, user=None) -> Trainer:
    return Trainer(
        config_from_dict(cfg),
        user=user or SlowUser(),
        judge=UserErrorJudge(None, mode="prior"),
        reward_fn=shaped,
        log=lambda m: None,
    )


def rows(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]


def finished(group: int, sample: int, versions: list[int], start: int = 0) -> Finished:
    traj = Trajectory(ident=EpisodeId("env", f"task{group}", sample), tokens=TokenStream(turn_versions=versions))
    return Finished(group, traj, start)


# ---- parts ---------------------------------------------------------------------------------------------


def test_queue_is_bounded_and_blocks_producers_until_there_is_room():
    q, stop = TrajectoryQueue(2), threading.Event()
    assert q.put(finished(0, 0, [0]), stop) and q.put(finished(0, 1, [0]), stop)
    done = threading.Event()
    producer = threading.Thread(target=lambda: (q.put(finished(0, 2, [0]), stop), done.set()))
    producer.start()
    time.sleep(0.3)
    assert not done.is_set() and q.qsize() == 2  # full: the third put waits
    assert q.get(timeout=1.0).traj.ident.sample_index == 0
    producer.join(2.0)
    assert done.is_set() and q.qsize() == 2 and q.blocked_s >= 0.25
    stop.set()  # a stopped queue refuses instead of blocking
    assert q.put(finished(1, 0, [0]), stop) is False
    with pytest.raises(ValueError, match="maxsize"):
        TrajectoryQueue(0)


def test_assembler_emits_only_complete_k_groups_in_sample_order():
    asm = GroupAssembler(k=3, max_staleness=5)
    assert not asm.add(finished(7, 2, [1]))
    assert not asm.add(finished(8, 0, [1]))
    assert not asm.add(finished(7, 0, [1]))
    assert asm.take(4, version=1) == ([], [])  # nothing complete yet
    assert asm.add(finished(7, 1, [1]))
    fresh, stale = asm.take(4, version=1)
    assert [g.group_id for g in fresh] == [7] and not stale
    assert [t.ident.sample_index for t in fresh[0].trajectories] == [0, 1, 2]
    assert list(asm.pending) == [8]
    with pytest.raises(ValueError, match="arrived twice"):
        asm.add(finished(8, 0, [1]))


def test_a_group_older_than_max_staleness_is_dropped_and_counted():
    asm = GroupAssembler(k=2, max_staleness=1)
    for s in range(2):
        asm.add(finished(1, s, [3, 4]))  # oldest turn: version 3
        asm.add(finished(2, s, [4, 5] if s else [5]))  # oldest turn: version 4
        asm.add(finished(3, s, [], start=5))  # no sampled turn: the group's start version counts
    fresh, stale = asm.take(5, version=5)
    assert [g.group_id for g in fresh] == [2, 3] and [g.group_id for g in stale] == [1]
    assert asm.dropped_groups == 1 and asm.dropped_trajectories == 2
    assert dict(asm.staleness_counts) == {1: 1, 0: 1}


def test_take_hands_out_at_most_n_groups_and_keeps_the_rest():
    asm = GroupAssembler(k=1, max_staleness=0)
    for g in range(3):
        asm.add(finished(g, 0, [2]))
    fresh, _ = asm.take(2, version=2)
    assert [g.group_id for g in fresh] == [0, 1] and [g.group_id for g in asm.ready] == [2]


def test_weight_lock_lets_readers_share_and_the_writer_wait_for_them():
    lock, events = WeightLock(), []
    with lock.read(), lock.read():  # readers share
        writer = threading.Thread(target=lambda: (lock.write().__enter__(), events.append("w")))
        writer.start()
        time.sleep(0.2)
        assert events == []  # the writer waits for the readers
    writer.join(2.0)
    assert events == ["w"]


def test_every_sampled_turn_records_the_version_that_sampled_it(tmp_path):
    from rl.backends.transformers_backend import TransformersPolicy
    from rl.rollout import load_env_tasks, run_episodes
    from rl.tiny_model import build_model, build_tokenizer

    tok = build_tokenizer(vocab_size=400)
    inner = TransformersPolicy(build_model(tok, size="test", seed=0), tok, device="cpu")
    clock = PolicyClock(version=7)
    calls = []

    class Bumping(VersionedPolicy):  # the weights change between every two generate calls
        def generate(self, prompts, params):
            out = super().generate(prompts, params)
            calls.append(self.clock.version)
            self.clock.version += 1
            return out

    task = load_env_tasks(MINI_TODO)[0]
    from rl.episode import RolloutConfig

    cfg = RolloutConfig(max_turns=3, max_new_tokens=6, seed=1)
    with torch.no_grad():
        trajs = run_episodes(Bumping(inner, clock), [(str(MINI_TODO), task)], SlowUser(), cfg, k=2)
    assert calls and calls[0] == 7
    for t in trajs:
        v = t.tokens.turn_versions
        assert len(v) == t.dialogue.num_turns >= 1 and v == sorted(v) and set(v) <= set(calls)
        assert t.to_dict()["turn_versions"] == v and Trajectory.from_dict(t.to_dict()) == t
    # the synchronous loop does not track versions, and its dumps keep their fields
    with torch.no_grad():
        [plain] = run_episodes(inner, [(str(MINI_TODO), task)], SlowUser(), cfg, k=1)
    assert plain.tokens.turn_versions == [] and "turn_versions" not in plain.to_dict()


# ---- config ----------------------------------------------------------------------------------------------


def test_the_async_section_turns_the_mode_on_and_is_checked(tmp_path):
    base = config(tmp_path / "c")
    base.pop("async")
    assert not config_from_dict(base).async_rl.enabled and config_from_dict(base).loss.tis is None
    on = config_from_dict({**base, "async": {"max_staleness": 2, "queue_size": 9}})
    assert on.async_rl.enabled and on.async_rl.max_staleness == 2 and on.async_rl.resolved_queue_size(2, 3) == 9
    assert config_from_dict({**base, "async": {}}).async_rl.resolved_workers(4) == 4
    assert not config_from_dict({**base, "async": {"enabled": False}}).async_rl.enabled
    path = tmp_path / "train.yaml"
    path.write_text(json.dumps({**base, "async": {"max_staleness": "old"}}))
    with pytest.raises(InputError, match=r"train.yaml: async.max_staleness: expected int"):
        load_train_config(path)
    path.write_text(json.dumps({**base, "async": {"max_staleness": -1}}))
    with pytest.raises(InputError, match="async.max_staleness: must be 0 or more"):
        load_train_config(path)
    path.write_text(json.dumps(base))  # `forgegym train CONFIG --set async.max_staleness=2` turns it on too
    over = load_train_config(path, {"async.max_staleness": 2})
    assert over.async_rl.enabled and over.async_rl.max_staleness == 2 and not load_train_config(path).async_rl.enabled
    path.write_text(json.dumps({**base, "asink": {}}))
    with pytest.raises(InputError, match=r"asink: unknown field \(known: .*\basync\b"):
        load_train_config(path)
    path.write_text(json.dumps({**base, "loss": {"tis": "yes"}}))
    with pytest.raises(InputError, match="loss.tis: expected bool"):
        load_train_config(path)


# ---- the run -------------------------------------------------------------------------------------------------


def test_async_run_trains_with_tis_on_logs_staleness_and_checkpoints(tmp_path):
    out = tmp_path / "run"
    t = trainer(config(out, steps=3), user=SlowUser(latency_s=0.02))
    summary = t.run()
    assert summary["end_step"] == 3 and t.config.loss.tis is True  # TIS on by default in this mode
    got = rows(out)
    assert [r["step"] for r in got] == [1, 2, 3]
    assert any(r["updated"] for r in got)  # (a step whose groups all tie takes no optimizer step)
    for r in got:
        assert r["trajectories"] == 6 and (not r["updated"] or math_ok(r["loss"]))
        assert r["async/policy_version"] == r["step"] and 0 <= r["async/staleness_max"] <= 1
        assert 0.0 <= r["time/trainer_idle_share"] <= 1.0 and 0.0 <= r["time/rollout_idle_share"] <= 1.0
    assert sum(summary["async_staleness_histogram"].values()) == 3 * 2  # every trained group, by staleness
    assert set(summary["async_staleness_histogram"]) <= {0, 1}
    assert (out / "checkpoints" / "latest").exists() and (out / "final" / "config.json").exists()
    # the sampler is a copy that followed every update: its weights equal the trainer's
    for a, b in zip(t.rollout_model.state_dict().values(), t.model.state_dict().values()):
        assert torch.equal(a, b)
    assert t.rollout_model is not t.model


def math_ok(x: float) -> bool:
    return math.isfinite(x) and abs(x) < 1e6


def test_max_staleness_zero_trains_only_on_the_current_policy(tmp_path):
    out = tmp_path / "fresh"
    summary = trainer(config(out, steps=2, **{"async": {"max_staleness": 0}})).run()
    assert summary["async_staleness_histogram"] == {0: 4}
    assert summary["async_stale_dropped_groups"] == 0  # new groups start only once the new weights are in
    assert all(r["async/staleness_max"] == 0 and r["async/turn_staleness_mean"] == 0 for r in rows(out))


def test_async_resume_continues_from_the_last_checkpoint(tmp_path):
    out = tmp_path / "resume"
    cfg = config(out, steps=4)
    first = trainer(cfg).run(max_steps=2)
    assert first["end_step"] == 2 and "async_dropped_in_flight" in first
    second = trainer(cfg).run()
    assert second["start_step"] == 2 and second["end_step"] == 4
    got = rows(out)
    assert [r["step"] for r in got] == [1, 2, 3, 4]
    assert got[2]["async/policy_version"] == 3  # versions continue from the checkpoint's step


def test_a_failing_worker_stops_the_run_with_its_error(tmp_path):
    with pytest.raises(RuntimeError, match="user endpoint down"):
        trainer(config(tmp_path / "fail", steps=2), user=SlowUser(fail=True)).run()


def test_sync_mode_keeps_tis_off_and_samples_with_the_trained_model(tmp_path):
    cfg = config(tmp_path / "sync", steps=1)
    cfg.pop("async")
    t = trainer(cfg)
    t.run()
    assert (
        not t.config.loss.tis
        and t.rollout_model is t.model
        and "async/policy_version" not in rows(tmp_path / "sync")[0]
    )


def test_transformers_sampler_logprobs_match_the_trainer_so_tis_weights_are_one_on_policy(tmp_path):
    """TIS weighs each token by min(exp(trainer - sampler), cap): with the transformers backend the
    sampler's logprobs are the trainer's own, so on-policy the weights are 1 and only staleness moves them."""
    cfg = config(tmp_path / "tis", steps=1)
    t = trainer(cfg)
    t.setup()
    trajs = t.rollout(t.curriculum.sample(0, 2), 2, seed=11)
    batch = collate_rows([s for tr in trajs for s in tr.training_sequences()], t.pad_id, t.device)
    with torch.no_grad():
        logits, start = t.learner.logits(t.model, batch)
        lp = logprobs_from_logits(logits.float() / t.learner.temperature, batch.token_ids, start)
    mask = batch.loss_mask[:, start:].bool()
    diff = (lp[:, start:] - batch.sampler_logprobs[:, start:])[mask]
    assert mask.sum() > 0 and float(diff.abs().max()) < 1e-4


def test_engine_backends_sample_one_call_at_a_time_and_get_weights_under_the_write_lock():
    """backend vllm: one engine for every worker (its LLM is not thread-safe), weights pushed by update_weights."""
    from types import SimpleNamespace

    from rl.async_rl.loop import AsyncRunner
    from rl.backends.base import Sample, SamplingParams

    class Engine:
        tokenizer, name = object(), "fake-engine"

        def __init__(self):
            self.active, self.overlap, self.loaded = 0, False, []

        def generate(self, prompts, params):
            self.active += 1
            self.overlap |= self.active > 1
            time.sleep(0.02)
            self.active -= 1
            return [Sample([1], [-0.5], "stop") for _ in prompts]

        def update_weights(self, named):
            assert self.active == 0  # no sample is drawn while the weights change
            self.loaded.append(dict(named))

    engine = Engine()
    cfg = config_from_dict(config(Path("unused")))
    cfg.backend = "vllm"
    t = SimpleNamespace(
        config=cfg,
        dist=SimpleNamespace(enabled=False),
        source="cfg",
        step=4,
        policy=engine,
        plain_state_dict=lambda: {"w": torch.ones(2)},
    )
    runner = AsyncRunner(t)
    assert cfg.loss.tis is True  # resolved by the runner: on in this mode
    runner.clock = PolicyClock(version=3)
    serial = threading.Lock()
    views = [VersionedPolicy(engine, runner.clock, exclusive=True, serial=serial) for _ in range(3)]
    got: list[int] = []
    threads = [
        threading.Thread(
            target=lambda v=v: got.extend(
                s.policy_version for _ in range(5) for s in v.generate([[1, 2]], SamplingParams())
            )
        )
        for v in views
    ]
    for th in threads:
        th.start()
    time.sleep(0.05)
    runner.sync_weights()  # while the workers sample
    for th in threads:
        th.join(5.0)
    assert not engine.overlap and len(got) == 15 and set(got) <= {3, 4} and got.count(4) >= 1
    assert runner.clock.version == 4 and len(engine.loaded) == 1 and torch.equal(engine.loaded[0]["w"], torch.ones(2))
