"""The training flow: curriculum from an environments root, then training, as one Prefect flow run."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

MINI_TODO = Path(__file__).parent / "data" / "envs" / "mini_todo"


@pytest.mark.prefect
@pytest.mark.slow
def test_train_flow_builds_curriculum_and_trains(tmp_path):
    from flows.train import run_train_flow

    root = tmp_path / "envs_generated"
    shutil.copytree(MINI_TODO, root / "mini_todo")
    cfg = tmp_path / "train.yaml"
    cfg.write_text(
        json.dumps(
            {
                "envs": ["unused-replaced-by-root"],
                "output_dir": str(tmp_path / "run"),
                "steps": 1,
                "tasks_per_step": 2,
                "rollouts_per_task": 2,
                "torch_threads": 1,
                "model": {"kind": "tiny", "tiny": {"vocab_size": 400}},
                "curriculum": {"order": "dag_size", "strategy": "sequential"},
                "rollout": {"max_turns": 1, "max_new_tokens": 8},
                "plots": True,
            }
        )
    )
    summary = run_train_flow(cfg, envs_root=str(root))
    assert summary["end_step"] == 1 and summary["curriculum"]["tasks"] == 2
    cur = json.loads((tmp_path / "run" / "curriculum.json").read_text())
    assert [t["task_id"] for t in cur["order"]] == ["mini_todo-0001", "mini_todo-0002"]  # same DAG size: by depth
    assert summary["last"]["step"] == 1 and summary["last"]["trajectories"] == 4
    assert (tmp_path / "run" / "plots" / "reward.png").exists()
    assert (tmp_path / "run" / "final" / "model.safetensors").exists()
