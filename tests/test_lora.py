"""LoRA adapters (rl/lora.py): same function at the start, only adapters learn, merged weights equal the
adapted model, and the trainer's RL updates with `lora.rank` move the pretrained weights only by a
low-rank delta, save plain from_pretrained folders and resume exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch
from safetensors.torch import load_file
from test_trainer import _deterministic, _rows, _trainer, tiny_config
from transformers import AutoModelForCausalLM, LlamaConfig, LlamaForCausalLM

from rl.lora import (
    DEFAULT_TARGETS,
    LoRAConfig,
    LoRALinear,
    apply_lora,
    lora_scalings,
    merged_state_dict,
    trainable_parameters,
)
from rl.train_config import config_from_dict, load_train_config
from rl.trainer_setup import load_env_entries
from synth.errors import InputError


def small_llama(seed: int = 0) -> LlamaForCausalLM:
    torch.manual_seed(seed)
    cfg = LlamaConfig(
        vocab_size=64,
        hidden_size=32,
        intermediate_size=48,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=64,
        tie_word_embeddings=True,
    )
    return LlamaForCausalLM(cfg).eval()


IDS = torch.tensor([[1, 5, 9, 33, 2, 17, 40, 8]])


def test_adapters_start_as_the_same_function_and_only_they_are_trainable():
    model = small_llama()
    before = model(input_ids=IDS).logits
    n = apply_lora(model, LoRAConfig(rank=4, alpha=8.0), seed=1)
    assert n == 2 * 7  # q, k, v, o, gate, up, down in each of the 2 layers
    assert torch.equal(model(input_ids=IDS).logits, before)  # B is zero
    names = {name for name, p in model.named_parameters() if p.requires_grad}
    assert names and all(name.endswith(("lora_A", "lora_B")) for name in names)
    assert len(trainable_parameters(model)) == 2 * n


def test_a_step_moves_adapters_only():
    model = small_llama()
    apply_lora(model, LoRAConfig(rank=4, alpha=8.0), seed=1)
    frozen = {k: v.clone() for k, v in model.state_dict().items() if "lora_" not in k}
    opt = torch.optim.AdamW(trainable_parameters(model), lr=1e-2)
    model(input_ids=IDS).logits.logsumexp(-1).mean().backward()
    assert all(p.grad is None for p in model.parameters() if not p.requires_grad)
    opt.step()
    after = model.state_dict()
    assert all(torch.equal(after[k], v) for k, v in frozen.items())
    assert any(float(after[k].abs().sum()) > 0 for k in after if k.endswith("lora_B"))


def test_merged_weights_are_the_adapted_model():
    model = small_llama()
    plain_keys = set(model.state_dict())
    apply_lora(model, LoRAConfig(rank=3, alpha=6.0), seed=2)
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, LoRALinear):
                m.lora_B.normal_(0, 0.2)  # a trained adapter
    adapted = model(input_ids=IDS).logits
    merged = merged_state_dict(model.state_dict(), lora_scalings(model))
    assert set(merged) == plain_keys
    fresh = small_llama(seed=9)
    fresh.load_state_dict(merged)
    assert not torch.equal(
        merged["model.layers.0.self_attn.q_proj.weight"], small_llama().model.layers[0].self_attn.q_proj.weight
    )
    torch.testing.assert_close(fresh(input_ids=IDS).logits, adapted, rtol=1e-4, atol=1e-5)


def test_adapter_draws_depend_on_the_seed_only():
    a, b, c = small_llama(), small_llama(), small_llama()
    torch.manual_seed(123)  # the global generator must not matter
    apply_lora(a, LoRAConfig(rank=2), seed=5)
    apply_lora(b, LoRAConfig(rank=2), seed=5)
    apply_lora(c, LoRAConfig(rank=2), seed=6)
    sa, sb, sc = a.state_dict(), b.state_dict(), c.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert not torch.equal(sa["model.layers.0.mlp.up_proj.lora_A"], sc["model.layers.0.mlp.up_proj.lora_A"])


def test_bad_adapter_settings_are_errors(tmp_path):
    with pytest.raises(ValueError, match="rank must be at least 1"):
        apply_lora(small_llama(), LoRAConfig(rank=0))
    with pytest.raises(ValueError, match="no nn.Linear module named qkv"):
        apply_lora(small_llama(), LoRAConfig(rank=2, targets=["qkv"]))
    for section, field in (
        ({"rank": -1}, "lora.rank"),
        ({"rank": 2, "alpha": 0}, "lora.alpha"),
        ({"rank": 2, "targets": []}, "lora.targets"),
        ({"rnak": 2}, "lora.rnak"),
    ):
        with pytest.raises(InputError, match=rf"cfg\.yaml: {field.replace('.', chr(92) + '.')}"):
            config_from_dict({"envs": ["x"], "lora": section}, source="cfg.yaml")
    tr = _trainer(tiny_config(tmp_path / "t", lora={"rank": 2, "targets": ["wq"]}))
    with pytest.raises(InputError, match=r"lora\.targets: no nn.Linear module named wq"):
        tr.setup()


@pytest.mark.slow
def test_rl_with_adapters_changes_weights_by_a_low_rank_delta_and_resumes(tmp_path):
    lora = {"rank": 2, "alpha": 4.0}
    straight = _trainer(tiny_config(tmp_path / "a", lora=lora))
    straight.run()
    rows = _rows(tmp_path / "a" / "metrics.jsonl")
    assert [r["step"] for r in rows] == [1, 2, 3] and any(r["grad_norm"] > 0 for r in rows)
    # the final folder is a plain from_pretrained model: the SFT weights plus a rank-2 delta per target
    sft = load_file(str(tmp_path / "a" / "sft_model" / "model.safetensors"))
    final = AutoModelForCausalLM.from_pretrained(str(tmp_path / "a" / "final")).state_dict()
    assert not any("lora_" in k or ".base." in k for k in final)
    moved = 0
    for key, w in final.items():
        if key not in sft:  # tied lm_head
            continue
        delta = (w - sft[key]).double()
        if key.rsplit(".", 2)[-2] in DEFAULT_TARGETS:
            moved += int(delta.abs().max() > 0)
            assert torch.linalg.matrix_rank(delta, atol=1e-6) <= 2, key
        else:
            assert torch.equal(w, sft[key]), key  # embeddings and norms stay the SFT's
    assert moved > 0
    # the adapted weights checkpoint and resume like the full ones
    first = _trainer(tiny_config(tmp_path / "b", lora=lora))
    first.run(max_steps=2)
    ckpt = json.loads((tmp_path / "b" / "checkpoints" / "step_000002" / "trainer_state.json").read_text())
    assert ckpt["step"] == 2
    resumed = _trainer(tiny_config(tmp_path / "b", lora=lora))
    assert resumed.run() == {"start_step": 2, "end_step": 3}
    assert [_deterministic(r) for r in _rows(tmp_path / "b" / "metrics.jsonl")] == [_deterministic(r) for r in rows]
    sa, sb = straight.model.state_dict(), resumed.model.state_dict()
    assert all(torch.equal(sa[k], sb[k]) for k in sa)
    assert (
        sum(p.numel() for p in trainable_parameters(resumed.model))
        < sum(p.numel() for p in resumed.model.parameters()) / 4
    )


def test_the_smollm2_lora_example_loads_and_finds_its_environments(monkeypatch):
    root = Path(__file__).parents[1]
    monkeypatch.chdir(root)  # its paths are relative to the repository
    cfg = load_train_config(root / "examples" / "train_smollm2_lora.yaml")
    assert cfg.lora.rank == 16 and cfg.model.kind == "pretrained" and cfg.sft.steps > 0
    entries = load_env_entries(cfg)
    assert len(entries) == 3 and all(e.train and e.heldout for e in entries)
