"""The update step under torchrun: two CPU processes (gloo), DDP, rollouts sharded, statistics gathered."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MINI_TODO = ROOT / "tests" / "data" / "envs" / "mini_todo"

WORKER = textwrap.dedent(
    """
    import json, os, sys
    import torch
    sys.path.insert(0, {root!r})
    from rl.train_config import config_from_dict
    from rl.trainer import Trainer

    def reward(t):  # varied rewards so the update is not a no-op on a random model
        return float(sum(tok for tok, m in zip(t.token_ids, t.loss_mask) if m) % 3)

    cfg = config_from_dict({{
        "envs": [{env!r}], "output_dir": {out!r}, "seed": 1, "steps": 2, "tasks_per_step": 2, "rollouts_per_task": 2,
        "torch_threads": 1, "plots": False, "model": {{"kind": "tiny", "tiny": {{"vocab_size": 400}}}},
        "optim": {{"lr": 0.01, "micro_batch_size": 1}}, "rollout": {{"max_turns": 1, "max_new_tokens": 6}},
    }})
    tr = Trainer(cfg, reward_fn=reward, log=lambda m: None)
    tr.run()
    flat = torch.cat([p.detach().flatten() for p in tr.model.parameters()])
    rank = int(os.environ["RANK"])
    with open(os.path.join({out!r}, f"rank{{rank}}.json"), "w") as f:
        json.dump({{"sum": float(flat.double().sum()), "abs": float(flat.double().abs().sum())}}, f)
    """
)


@pytest.mark.slow
def test_two_rank_ddp_training_keeps_ranks_in_sync(tmp_path):
    out = tmp_path / "run"
    script = tmp_path / "worker.py"
    script.write_text(WORKER.format(root=str(ROOT), env=str(MINI_TODO), out=str(out)))
    env = {**os.environ, "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2", str(script)]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    r0 = json.loads((out / "rank0.json").read_text())
    r1 = json.loads((out / "rank1.json").read_text())
    assert r0 == r1  # DDP kept the replicas identical
    rows = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert [r["step"] for r in rows] == [1, 2]  # rank 0 writes, once per step
    assert all(r["trajectories"] == 4 for r in rows)  # statistics over both ranks' rollouts
    assert any(r["grad_norm"] > 0 for r in rows)
    ckpt = out / "checkpoints" / "step_000002"
    assert (ckpt / "rng_state.json").exists() and (ckpt / "rng_state_rank1.json").exists()
