"""One training step through Trainer.run with the LLM user simulator and the prior+LLM judge on the embedded
SmolLM2 (llama_cpp.server, started by Trainer.run because no endpoint is configured; answers cached)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rl.judge import UserErrorJudge
from rl.train_config import config_from_dict
from rl.trainer import Trainer
from rl.user_sim import LLMUser

MINI_TODO = Path(__file__).parent / "data" / "envs" / "mini_todo"


@pytest.mark.embedded
@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_trainer_run_with_llm_user_and_llm_judge(tmp_path):
    cfg = config_from_dict(
        {
            "envs": [str(MINI_TODO)],
            "output_dir": str(tmp_path / "run"),
            "seed": 0,
            "steps": 1,
            "tasks_per_step": 1,
            "rollouts_per_task": 2,
            "torch_threads": 1,
            "plots": False,
            "model": {"kind": "tiny", "tiny": {"size": "test", "vocab_size": 400}},
            "rollout": {"max_turns": 2, "max_new_tokens": 8, "temperature": 1.0},
            "user": {"kind": "llm", "max_tokens": 32},
            "judge": {"mode": "prior+llm"},
        }
    )
    trainer = Trainer(
        config_from_dict(cfg.to_dict()), reward_fn=lambda t: float(len(t.tokens.token_ids) % 2), log=lambda m: None
    )
    summary = trainer.run()
    assert summary["end_step"] == 1
    assert isinstance(trainer._user, LLMUser) and isinstance(trainer._judge, UserErrorJudge)
    assert trainer._judge.mode == "prior+llm" and trainer._judge.client is trainer._user.client
    tags = trainer._user.client.stats.by_tag
    for tag in ("user_sim", "judge"):  # both talked to the model (or were served from its cache)
        assert tags[tag].calls + tags[tag].cache_hits > 0, tag
    [row] = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    assert row["trajectories"] == 2 and 0.0 <= row["masked_ratio"] <= 1.0
    assert (tmp_path / "run" / "final" / "config.json").exists()
