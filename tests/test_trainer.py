"""The training loop on mini_todo with a tiny random model: real rollouts, real gradient steps.

- a run stopped after 2 steps and resumed reproduces the metrics of an uninterrupted 3-step run;
- trajectories masked for a user error change nothing in the update;
- config errors name the file and the field.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from rl.judge import UserErrorJudge
from rl.train_config import config_from_dict, load_train_config
from rl.train_log import TIMING_PREFIXES
from rl.trainer import Trainer
from rl.user_sim import UserReply
from synth.errors import InputError

MINI_TODO = Path(__file__).parent / "data" / "envs" / "mini_todo"


class CodeUser:
    """Deterministic user; on sample 1 it states a code its instruction does not have (a user error)."""

    name = "code-user"

    def first_message(self, task, sample_index=0):
        return task.user_instruction + (" My code is 4711." if sample_index == 1 else "")

    def reply(self, task, dialogue, sample_index=0):
        return UserReply(text="Thanks.", stop=True)


def varied_reward(traj) -> float:
    """The verifier gives a random model 0 everywhere; this shaping makes advantages non-zero."""
    sampled = [tok for tok, m in zip(traj.tokens.token_ids, traj.tokens.loss_mask) if m]
    return traj.reward + (sum(sampled) % 5) / 4.0


def tiny_config(out: Path, **over) -> dict:
    cfg = {
        "envs": [str(MINI_TODO)],
        "output_dir": str(out),
        "seed": 3,
        "steps": 3,
        "tasks_per_step": 2,
        "rollouts_per_task": 3,
        "torch_threads": 1,
        "model": {"kind": "tiny", "tiny": {"size": "test", "vocab_size": 400}},
        "advantage": {"mode": "erpo"},
        "optim": {"lr": 0.01, "micro_batch_size": 2, "mini_batches": 2},
        "sft": {"steps": 1, "batch_size": 2},
        "curriculum": {"strategy": "uniform"},
        "rollout": {"max_turns": 1, "max_new_tokens": 8, "temperature": 1.0},
        "plots": False,
        "keep_checkpoints": 3,
    }
    for k, v in over.items():
        cfg[k] = v
    return cfg


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _deterministic(row: dict) -> dict:
    return {k: v for k, v in row.items() if not k.startswith(TIMING_PREFIXES) and not k.startswith("_")}


def _trainer(cfg: dict) -> Trainer:
    return Trainer(
        config_from_dict(cfg),
        user=CodeUser(),
        judge=UserErrorJudge(None, mode="prior"),
        reward_fn=varied_reward,
        log=lambda m: None,
    )


def _ready(cfg: dict) -> Trainer:
    """A set-up trainer (model built, environments loaded)."""
    tr = _trainer(cfg)
    tr.setup()
    return tr


def _train_rollouts(tr: Trainer, k: int, seed: int) -> list:
    """K episodes of every training task."""
    return tr.rollout([t for e in tr.entries for t in e.train], k=k, seed=seed)


@pytest.mark.slow
def test_resume_continues_like_an_uninterrupted_run(tmp_path):
    straight = _trainer(tiny_config(tmp_path / "a"))
    straight.run()
    full = _rows(tmp_path / "a" / "metrics.jsonl")
    assert [r["step"] for r in full] == [1, 2, 3]
    assert all(r["updated"] == 1 for r in full)
    assert any(r["grad_norm"] > 0 for r in full) and any(r["loss"] != 0 for r in full)
    assert all(r["masked_ratio"] == pytest.approx(1 / 3) for r in full)  # sample 1 erred, the judge masked it
    assert all(r["rollout/prompt_reused_share"] == 0 for r in full)  # one turn per episode: no prefix to reuse

    first = _trainer(tiny_config(tmp_path / "b"))
    assert first.run(max_steps=2)["end_step"] == 2
    assert (tmp_path / "b" / "checkpoints" / "step_000002" / "model.safetensors").exists()
    resumed = _trainer(tiny_config(tmp_path / "b"))
    summary = resumed.run()
    assert summary == {"start_step": 2, "end_step": 3}
    again = _rows(tmp_path / "b" / "metrics.jsonl")
    assert [_deterministic(r) for r in again] == [_deterministic(r) for r in full]
    # the final weights agree bit for bit
    sa, sb = straight.model.state_dict(), resumed.model.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)


@pytest.mark.slow
def test_masked_trajectories_change_nothing(tmp_path):
    cfg = tiny_config(tmp_path / "m", steps=1)
    cfg["optim"] = {"lr": 0.01, "micro_batch_size": 4, "mini_batches": 1}
    one = _ready(cfg)
    trajs = _train_rollouts(one, k=3, seed=1)
    assert [t.verdict.user_error for t in trajs] == [False, True, False] * 2  # the prior judge caught the code
    for t in trajs:
        t.outcome.reward = varied_reward(t)
    masked = trajs[1]
    trajs[4].verdict.user_error = False  # keep exactly one masked trajectory
    masked.outcome.reward = 1000.0  # a masked trajectory must not move any statistic
    two = _ready(tiny_config(tmp_path / "n", steps=1, optim=cfg["optim"]))
    two.model.load_state_dict(one.model.state_dict())
    one.reward_fn = two.reward_fn = None
    m1 = one.learn_from(trajs)
    m2 = two.learn_from([t for t in trajs if t is not masked])
    assert m1["masked_ratio"] == pytest.approx(1 / 6) and m2["masked_ratio"] == 0.0
    assert m1["loss"] == m2["loss"] and m1["grad_norm"] == m2["grad_norm"] and m1["grad_norm"] > 0
    s1, s2 = one.model.state_dict(), two.model.state_dict()
    assert all(torch.equal(s1[k], s2[k]) for k in s1)


def test_equal_groups_are_dropped_and_counted(tmp_path):
    cfg = tiny_config(tmp_path / "d", steps=1)
    cfg["advantage"] = {"mode": "grpo", "drop_equal_groups": True}
    tr = _trainer(cfg)
    tr.reward_fn = None  # the verifier's reward: 0 for every episode of a random model
    tr.setup()
    row = tr.learn_from(_train_rollouts(tr, k=2, seed=5))
    assert row["dropped_groups"] == 2 and row["updated"] == 0 and row["update_tokens"] == 0
    assert row["reward/mean"] == 0.0 and row["success/mini_todo"] == 0.0


def test_a_step_without_signal_moves_nothing(tmp_path):
    """All advantages 0 after a step with signal: no optimizer step, so Adam's momentum moves no weight."""
    cfg = tiny_config(tmp_path / "z", steps=2)
    cfg["optim"] = {"lr": 0.01, "micro_batch_size": 4, "mini_batches": 1}
    tr = _ready(cfg)
    first = tr.learn_from(_train_rollouts(tr, k=3, seed=1))
    assert first["updated"] == 1 and first["zero_advantage_skip"] == 0 and first["grad_norm"] > 0
    weights = {k: v.clone() for k, v in tr.model.state_dict().items()}
    opt_steps = [s["step"].item() for s in tr.optimizer.state.values()]
    lr_before = tr.scheduler.get_last_lr()
    tr.reward_fn = lambda t: 0.5  # equal rewards in every group: every advantage is 0
    second = tr.learn_from(_train_rollouts(tr, k=3, seed=2))
    assert second["updated"] == 0 and second["zero_advantage_skip"] == 1 and second["update_tokens"] == 0
    assert all(torch.equal(weights[k], v) for k, v in tr.model.state_dict().items())
    assert [s["step"].item() for s in tr.optimizer.state.values()] == opt_steps
    assert tr.scheduler.get_last_lr() == lr_before and tr.step == 2


def test_bad_config_names_file_and_field(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("envs: [x]\noptim: {lr: fast}\n")
    with pytest.raises(InputError, match=r"bad\.yaml: optim\.lr: expected float"):
        load_train_config(bad)
    bad.write_text("envs: [x]\nadvantage: {mode: ppo}\n")
    with pytest.raises(InputError, match=r"advantage\.mode: 'ppo' is not one of"):
        load_train_config(bad)
    bad.write_text("envs: [x]\nstepz: 3\n")
    with pytest.raises(InputError, match=r"stepz: unknown field"):
        load_train_config(bad)
    bad.write_text("envs: [x]\neval_max_tasks: -1\n")
    with pytest.raises(InputError, match=r"bad\.yaml: eval_max_tasks: must be 0 or more"):
        load_train_config(bad)
    bad.write_text("steps: 3\n")
    with pytest.raises(InputError, match=r"envs: list at least one"):
        load_train_config(bad)
    ok = load_train_config(Path(__file__).parents[1] / "examples" / "train_tiny.yaml", {"optim.lr": 0.5})
    assert ok.optim.lr == 0.5 and ok.rollouts_per_task == 4 and math.isclose(ok.loss.clip_high, 0.28)
    with pytest.raises(InputError, match=r"rollout\.max_turnz: unknown field"):
        Trainer(config_from_dict(tiny_config(tmp_path / "r", rollout={"max_turnz": 3})), log=lambda m: None).setup()


def test_split_seed_fixes_the_heldout_split_across_run_seeds(tmp_path):
    from rl.trainer_setup import load_env_entries

    envs = [str(Path(__file__).resolve().parents[1] / "envs_generated" / "todo_api")]

    def held(seed: int, split_seed: int = -1) -> set[str]:
        cfg = config_from_dict(
            {
                "envs": envs,
                "output_dir": str(tmp_path),
                "seed": seed,
                "heldout_fraction": 0.25,
                "split_seed": split_seed,
            }
        )
        return {t.task_id for e in load_env_entries(cfg) for t in e.heldout}

    assert len(held(0)) == 5  # 25 % of the 20 committed tasks
    assert held(0) != held(1)  # by default the split follows the run's seed
    assert held(1, split_seed=0) == held(2, split_seed=0) == held(0)  # fixed: every seed sees the same split


def test_max_train_tasks_keeps_the_first_training_tasks_and_the_same_heldout(tmp_path):
    from rl.trainer_setup import load_env_entries

    envs = [str(Path(__file__).resolve().parents[1] / "envs_generated" / "todo_api")]

    def entry(limit: int):
        cfg = config_from_dict(
            {"envs": envs, "output_dir": str(tmp_path), "heldout_fraction": 0.25, "max_train_tasks": limit}
        )
        return load_env_entries(cfg)[0]

    full, cut = entry(0), entry(4)
    assert len(full.train) == 15 and [t.task_id for t in cut.train] == [t.task_id for t in full.train[:4]]
    assert [t.task_id for t in cut.heldout] == [t.task_id for t in full.heldout]
    with pytest.raises(InputError, match="max_train_tasks"):
        config_from_dict({"envs": envs, "max_train_tasks": "all"})


@pytest.mark.parametrize("agg", ["token-mean", "seq-mean-token-mean", "seq-mean-token-sum"])
def test_an_update_raises_the_logprob_of_positive_advantage_episodes(tmp_path, agg):
    """The sign check of the whole update path: +1 episodes become likelier, -1 episodes less likely."""
    from rl.erpo import logprobs_from_logits
    from rl.sft import collate_rows

    cfg = tiny_config(
        tmp_path / "r",
        sft={"steps": 0},
        optim={"lr": 3e-3, "micro_batch_size": 2, "mini_batches": 1},
        loss={"agg": agg},
        rollout={"max_turns": 1, "max_new_tokens": 8, "temperature": 1.0},
    )
    trainer = _trainer(cfg)
    trainer.setup()
    task = trainer.entries[0].train[0]
    trajs = trainer.rollout([task], k=4, seed=5)
    advantages = torch.tensor([1.0, -1.0, 1.0, -1.0])

    def logprob_sums() -> list[float]:
        sums = []
        with torch.no_grad():
            for t in trajs:
                total = 0.0
                for ids, mask, lps in t.training_sequences():
                    batch = collate_rows([(ids, mask, lps)], trainer.pad_id, trainer.device)
                    logits, start = trainer.learner.logits(trainer.model, batch)
                    lp = logprobs_from_logits(logits.float(), batch.token_ids, start)
                    total += float((lp[:, start:] * batch.loss_mask[:, start:]).sum())
                sums.append(total)
        return sums

    before = logprob_sums()
    trainer.learner.update(trajs, advantages, trainer.step)
    after = logprob_sums()
    deltas = [a - b for a, b in zip(after, before)]
    assert deltas[0] > 0 and deltas[2] > 0 and deltas[1] < 0 and deltas[3] < 0, deltas


def test_multi_turn_rollouts_reuse_the_kv_cache_and_log_it(tmp_path):
    cfg = tiny_config(tmp_path, steps=1, rollout={"max_turns": 3, "max_new_tokens": 8, "temperature": 1.0})
    trainer = _trainer(cfg)
    trainer.run()
    (row,) = _rows(tmp_path / "metrics.jsonl")
    assert row["turns/mean"] > 1  # a random model's turns fail to parse; the feedback starts another turn
    assert 0.1 < row["rollout/prompt_reused_share"] < 1  # later turns encode only what was added


def test_evaluate_limit_keeps_the_first_tasks_of_each_environment(tmp_path):
    cfg = tiny_config(tmp_path, sft={"steps": 0}, rollout={"max_turns": 1, "max_new_tokens": 4, "temperature": 1.0})
    trainer = _trainer(cfg)
    trainer.setup()
    n_train = len(trainer.entries[0].train)
    assert n_train > 1
    assert trainer.evaluate("train")["episodes"] == n_train
    assert trainer.evaluate("train", limit=1)["episodes"] == 1
    with pytest.raises(ValueError, match="limit"):
        trainer.evaluate("train", limit=0)


@pytest.mark.slow
def test_a_finished_warm_start_is_reused_and_leaves_no_state(tmp_path):
    cfg = tiny_config(tmp_path, sft={"steps": 3, "batch_size": 2, "save_every": 1})
    first = _trainer(cfg)
    first.setup()
    assert (tmp_path / "sft_done.json").exists() and not (tmp_path / "sft_state").exists()
    logs: list[str] = []
    again = Trainer(config_from_dict(cfg), user=CodeUser(), judge=UserErrorJudge(None, mode="prior"), log=logs.append)
    again.setup()  # no RL checkpoint yet: the warm start is not trained a second time
    assert any("reusing the finished one" in m for m in logs), logs
    assert [r["sft_loss"] for r in again.sft_rows] == [r["sft_loss"] for r in first.sft_rows]
    for a, b in zip(first.model.state_dict().values(), again.model.state_dict().values()):
        assert torch.equal(a, b)
    changed = tiny_config(tmp_path, sft={"steps": 4, "batch_size": 2})
    logs.clear()
    Trainer(
        config_from_dict(changed), user=CodeUser(), judge=UserErrorJudge(None, mode="prior"), log=logs.append
    ).setup()
    assert not any("reusing" in m for m in logs) and any("4 steps" in m for m in logs)
    assert any(m.startswith("SFT step 4/4 loss=") for m in logs), logs  # progress, for long warm starts


def test_eval_max_tasks_caps_the_heldout_evaluations(tmp_path):
    cfg = tiny_config(
        tmp_path,
        steps=1,
        sft={"steps": 0},
        heldout_fraction=0.5,
        eval_max_tasks=1,
        rollout={"max_turns": 1, "max_new_tokens": 4, "temperature": 1.0},
    )
    trainer = _trainer(cfg)
    calls = []
    real = trainer.evaluate

    def spy(which="heldout", k=None, limit=None):
        calls.append((which, limit))
        return real(which, k=k, limit=limit)

    trainer.evaluate = spy
    trainer.run()
    assert calls == [("heldout", 1), ("heldout", 1)]  # before the first step and after the last
    assert [r["episodes"] for r in _rows(tmp_path / "eval.jsonl")] == [1, 1]
