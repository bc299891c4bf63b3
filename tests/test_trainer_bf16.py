"""`model.dtype: bf16` loads the policy in bf16 (LoRA adapters stay fp32) and a training step runs on CPU;
`optim.logprob_chunk` 0 (full logits) and > 0 (agent positions, chunked) make the same update."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from rl.train_config import config_from_dict
from rl.trainer import Trainer
from rl.user_sim import ScriptedUser

MINI_TODO = Path(__file__).parent / "data" / "envs" / "mini_todo"


def varied_reward(traj) -> float:
    sampled = [tok for tok, m in zip(traj.tokens.token_ids, traj.tokens.loss_mask) if m]
    return (sum(sampled) % 5) / 4.0


def run_one_step(out: Path, **over) -> Trainer:
    cfg = {
        "envs": [str(MINI_TODO)],
        "output_dir": str(out),
        "seed": 3,
        "steps": 1,
        "tasks_per_step": 2,
        "rollouts_per_task": 3,
        "torch_threads": 1,
        "plots": False,
        "checkpoint_every": 5,
        "model": {"kind": "tiny", "tiny": {"size": "test", "vocab_size": 400}},
        "optim": {"lr": 0.01, "micro_batch_size": 2},
        "rollout": {"max_turns": 1, "max_new_tokens": 8, "temperature": 1.0},
    }
    for k, v in over.items():
        cfg[k] = {**cfg.get(k, {}), **v} if isinstance(v, dict) else v
    trainer = Trainer(config_from_dict(cfg), user=ScriptedUser(), reward_fn=varied_reward, log=lambda m: None)
    trainer.setup()
    trainer.before = {k: v.detach().clone() for k, v in trainer.model.state_dict().items()}
    trainer.row = trainer.train_step()
    return trainer


def moved(trainer: Trainer) -> float:
    after = trainer.model.state_dict()
    return max(float((after[k].float() - v.float()).abs().max()) for k, v in trainer.before.items())


def test_bf16_weights_train_a_step(tmp_path):
    tr = run_one_step(tmp_path / "bf16", model={"dtype": "bf16"})
    assert {p.dtype for p in tr.model.parameters()} == {torch.bfloat16}
    assert tr.amp_dtype == torch.bfloat16
    assert tr.row["updated"] == 1 and torch.isfinite(torch.tensor(tr.row["loss"])) and tr.row["grad_norm"] > 0
    assert moved(tr) > 0


def test_bf16_base_with_fp32_lora_adapters(tmp_path):
    tr = run_one_step(tmp_path / "lora", model={"dtype": "bfloat16"}, lora={"rank": 2, "alpha": 4.0})
    dtypes = {n: p.dtype for n, p in tr.model.named_parameters()}
    assert all(d == torch.float32 for n, d in dtypes.items() if "lora_" in n)
    assert all(d == torch.bfloat16 for n, d in dtypes.items() if "lora_" not in n)
    assert tr.row["updated"] == 1 and moved(tr) > 0


def test_chunked_and_full_logits_make_the_same_update(tmp_path):
    full = run_one_step(tmp_path / "full", model={"dtype": "fp32"}, optim={"logprob_chunk": 0})
    chunked = run_one_step(tmp_path / "chunked", model={"dtype": "fp32"}, optim={"logprob_chunk": 2})
    assert full.row["loss"] == pytest.approx(chunked.row["loss"], abs=1e-5)
    assert full.row["entropy"] == pytest.approx(chunked.row["entropy"], abs=1e-5)
    assert full.row["grad_norm"] == pytest.approx(chunked.row["grad_norm"], rel=1e-5)
    # AdamW's first step moves a weight by about lr whatever its gradient's size, so weights whose gradient
    # is near 0 amplify float noise: compare against the step size (lr 0.01), not 1e-5
    a, b = full.model.state_dict(), chunked.model.state_dict()
    assert max(float((a[k] - b[k]).abs().max()) for k in a) < 1e-3 < moved(full)


def test_lora_with_gradient_checkpointing_moves_the_adapters(tmp_path):
    """Frozen embeddings feed the checkpointed layers: the adapters inside them must still get gradients."""
    tr = run_one_step(
        tmp_path / "gc", model={"dtype": "bf16", "gradient_checkpointing": True}, lora={"rank": 2, "alpha": 4.0}
    )
    after = dict(tr.model.named_parameters())
    moved_b = [float(after[k].detach().abs().max()) for k in after if "lora_B" in k]
    assert tr.row["grad_norm"] > 0 and min(moved_b) > 0  # B starts at 0 in every layer; every layer's moved


def test_the_gpu_example_configuration_validates():
    from rl.train_config import load_train_config

    cfg = load_train_config(Path(__file__).resolve().parents[1] / "examples" / "train_qwen3_0.6b_gpu.yaml")
    assert cfg.backend == "vllm" and cfg.model.dtype == "bf16" and cfg.lora.rank > 0
    assert cfg.loss.agg == "traj-mean-token-mean" and cfg.loss.tis and cfg.optim.logprob_chunk > 0
    assert cfg.user["kind"] == "llm" and cfg.judge["mode"] == "prior+llm" and cfg.llm["base_url"]
