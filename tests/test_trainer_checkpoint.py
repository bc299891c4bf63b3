"""Checkpoints: weights, optimizer and RNG states round-trip exactly; writes are atomic."""

from __future__ import annotations

import json
import random

import torch

from rl.checkpoint import latest_checkpoint, load_checkpoint, save_checkpoint


class Toy(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = torch.nn.Embedding(11, 4)
        self.head = torch.nn.Linear(4, 11, bias=False)
        self.head.weight = self.emb.weight  # tied, like many LMs


def _train_steps(model, opt, n):
    losses = []
    for _ in range(n):
        x = torch.randint(0, 11, (3, 5))
        noise = torch.randn(3, 5, 11) * 0.1  # draws from the torch RNG
        jitter = random.random()  # and from python's
        logits = model.head(model.emb(x)) + noise
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, 11), x.reshape(-1)) * (1 + jitter)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def _fresh(seed=0):
    torch.manual_seed(seed)
    random.seed(seed)
    model = Toy()
    opt = torch.optim.AdamW(model.parameters(), lr=0.05)
    return model, opt


def test_resume_continues_exactly_like_an_uninterrupted_run(tmp_path):
    model, opt = _fresh()
    straight = _train_steps(model, opt, 5)

    model, opt = _fresh()
    first = _train_steps(model, opt, 2)
    save_checkpoint(tmp_path, 2, model, opt, {"curriculum": {"cursor": 2}})
    _train_steps(model, opt, 3)  # wander off: the resumed run must not see any of this

    model2, opt2 = _fresh(seed=123)
    state = load_checkpoint(latest_checkpoint(tmp_path), model2, opt2)
    assert state == {"step": 2, "curriculum": {"cursor": 2}}
    rest = _train_steps(model2, opt2, 3)
    assert first + rest == straight  # bit-exact floats
    assert model2.head.weight.data_ptr() == model2.emb.weight.data_ptr()  # tie survives loading


def test_layout_latest_pointer_and_pruning(tmp_path):
    model, opt = _fresh()
    for step in (1, 2, 3):
        save_checkpoint(tmp_path, step, model, opt, {}, keep_last=2)
    root = tmp_path / "checkpoints"
    assert sorted(p.name for p in root.iterdir() if not p.name.startswith(".")) == [
        "latest",
        "step_000002",
        "step_000003",
    ]
    assert latest_checkpoint(tmp_path) == root / "step_000003"
    files = sorted(p.name for p in (root / "step_000003").iterdir())
    assert files == ["model.safetensors", "optimizer.pt", "rng_state.json", "trainer_state.json"]
    assert json.loads((root / "step_000003" / "trainer_state.json").read_text())["step"] == 3
    # overwriting a step replaces it whole, and no temporary folder is left behind
    save_checkpoint(tmp_path, 3, model, opt, {"again": True})
    assert json.loads((root / "step_000003" / "trainer_state.json").read_text())["again"] is True
    assert not [p for p in root.iterdir() if ".tmp-" in p.name or ".old-" in p.name]


def test_no_checkpoint_and_mismatched_weights(tmp_path):
    assert latest_checkpoint(tmp_path) is None
    model, opt = _fresh()
    ckpt = save_checkpoint(tmp_path, 1, model, opt, {})
    other = torch.nn.Linear(3, 3)
    try:
        load_checkpoint(ckpt, other)
    except RuntimeError as err:
        assert "do not match" in str(err)
    else:
        raise AssertionError("loading weights into the wrong model must fail")
