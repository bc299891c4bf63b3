"""A killed SFT warm start resumes from its saved state and ends exactly where an uninterrupted one does."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from rl.episode import RolloutConfig
from rl.rollout import render_gold_trajectory
from rl.sft import sft_train
from rl.sft_state import STATE_FILE
from rl.tiny_model import build_model, build_tokenizer
from synth.task import load_tasks

MINI_TODO = Path(__file__).parent / "data" / "envs" / "mini_todo"
STEPS = 6


class Killed(Exception):
    pass


@pytest.fixture(scope="module")
def gold():
    torch.set_num_threads(1)
    tok = build_tokenizer(vocab_size=400)
    tasks = load_tasks(MINI_TODO / "tasks.jsonl")
    return tok, [render_gold_trajectory(tok, t, [], RolloutConfig(), env=str(MINI_TODO)) for t in tasks]


def _run(tok, trajs, state_dir=None, kill_at=None, **over):
    def log(row):
        if row["sft_step"] == kill_at:
            raise Killed

    model = build_model(tok, size="test", seed=0)
    kwargs = {"steps": STEPS, "lr": 3e-3, "batch_size": 2, "pad_id": tok.pad_token_id, "seed": 1, "schedule": "cosine"}
    rows = sft_train(model, trajs, **{**kwargs, **over}, state_dir=state_dir, save_every=2, log=log)
    return model, rows


def _same(rows):
    return [{k: v for k, v in r.items() if k != "sft_tokens_per_s"} for r in rows]


@pytest.mark.slow
def test_killed_sft_resumes_like_an_uninterrupted_run(gold, tmp_path):
    tok, trajs = gold
    whole, whole_rows = _run(tok, trajs)
    with pytest.raises(Killed):  # killed during step 3 (0-based): the state after step 1 is on disk
        _run(tok, trajs, state_dir=tmp_path, kill_at=3)
    assert torch.load(tmp_path / STATE_FILE, weights_only=False)["step"] == 1
    resumed, rows = _run(tok, trajs, state_dir=tmp_path)
    assert [r["sft_step"] for r in rows] == list(range(STEPS))
    assert _same(rows) == _same(whole_rows)
    for (name, a), b in zip(whole.state_dict().items(), resumed.state_dict().values()):
        assert torch.equal(a, b), name
    assert resumed is not whole and any(
        not torch.equal(a, b)
        for a, b in zip(whole.state_dict().values(), build_model(tok, size="test", seed=0).state_dict().values())
    )


def test_a_state_of_other_settings_is_refused(gold, tmp_path):
    tok, trajs = gold
    with pytest.raises(Killed):
        _run(tok, trajs, state_dir=tmp_path, kill_at=3)
    with pytest.raises(ValueError, match=r"sft_state\.pt.*delete the file"):
        _run(tok, trajs, state_dir=tmp_path, lr=1e-3)
    with pytest.raises(ValueError, match=r"sft_state\.pt.*delete the file"):  # same count, other data
        _run(tok, list(reversed(trajs)), state_dir=tmp_path)


def test_the_last_step_saves_no_state(gold, tmp_path):
    tok, trajs = gold
    _run(tok, trajs, state_dir=tmp_path, steps=4)  # saves after steps 1 only; step 3 is the end
    assert torch.load(tmp_path / STATE_FILE, weights_only=False)["step"] == 1
