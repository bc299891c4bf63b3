"""SFT warm start (the paper's cold start): next-token loss on gold trajectories, agent tokens only.

Gold trajectories come from `rl.rollout.render_gold_trajectory`: the same renderer and the same loss
masks as rollouts, so SFT teaches exactly the tokens that RL later samples.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from rl.erpo import first_target, logprobs_from_logits
from rl.sft_state import fingerprint, load_sft_state, restore_sft_state, save_sft_state
from rl.types import TokenRow, Trajectory


@dataclass
class Batch:
    """Right-padded tensors of a list of trajectories, aligned by token index."""

    token_ids: torch.Tensor  # [B, T] long
    attention_mask: torch.Tensor  # [B, T] long
    loss_mask: torch.Tensor  # [B, T] float, 0 on padding
    sampler_logprobs: torch.Tensor  # [B, T] float, the rollout's logprobs (0 off the mask)

    @property
    def num_tokens(self) -> int:
        return int(self.loss_mask.sum().item())


def collate_rows(rows: list[TokenRow], pad_id: int, device: torch.device | str = "cpu") -> Batch:
    """Pad (token_ids, loss_mask, logprobs) rows to the longest one."""
    width = max(len(tok) for tok, _mask, _lps in rows)
    n = len(rows)
    ids = torch.full((n, width), pad_id, dtype=torch.long)
    attn = torch.zeros(n, width, dtype=torch.long)
    mask = torch.zeros(n, width, dtype=torch.float32)
    lps = torch.zeros(n, width, dtype=torch.float32)
    for i, (tok, msk, lp) in enumerate(rows):
        k = len(tok)
        ids[i, :k] = torch.tensor(tok, dtype=torch.long)
        attn[i, :k] = 1
        mask[i, :k] = torch.tensor(msk, dtype=torch.float32)
        if lp:
            lps[i, :k] = torch.tensor(lp, dtype=torch.float32)
    mask[:, 0] = 0.0  # nothing predicts the first token
    return Batch(ids.to(device), attn.to(device), mask.to(device), lps.to(device))


def training_rows(trajs: list[Trajectory]) -> list[TokenRow]:
    """Every training sequence of the trajectories that has at least one agent token."""
    return [row for t in trajs for row in t.training_sequences() if sum(row.loss_mask[1:]) > 0]


def collate(trajs: list[Trajectory], pad_id: int, device: torch.device | str = "cpu") -> Batch:
    """Pad the training sequences of `trajs` into one batch."""
    return collate_rows(training_rows(trajs), pad_id, device)


def forward_logits(model: torch.nn.Module, batch: Batch) -> torch.Tensor:
    """Logits [B, T, V] of a (Hugging Face style) causal LM on a padded batch."""
    return model(input_ids=batch.token_ids, attention_mask=batch.attention_mask).logits


def sft_loss(
    model: torch.nn.Module, batch: Batch, normalizer: float | None = None
) -> tuple[torch.Tensor, dict[str, float]]:
    """Mean negative log-likelihood of the masked-in (agent) tokens, and token accuracy."""
    start = first_target(batch.loss_mask) - 1  # logits of the prompt positions are never needed
    keep = batch.token_ids.shape[1] - start
    try:
        logits = model(input_ids=batch.token_ids, attention_mask=batch.attention_mask, logits_to_keep=keep).logits
    except TypeError:  # a model without logits_to_keep
        logits, start = forward_logits(model, batch), 0
    logits = logits[:, -(batch.token_ids.shape[1] - start) :]
    lp = logprobs_from_logits(logits, batch.token_ids, start)
    n = batch.loss_mask.sum()
    loss = -(lp * batch.loss_mask).sum() / (normalizer if normalizer is not None else n.clamp(min=1.0))
    with torch.no_grad():
        pred = torch.full_like(batch.token_ids, -1)
        pred[:, start + 1 :] = logits[:, :-1].argmax(-1)
        correct = ((pred == batch.token_ids).float() * batch.loss_mask).sum()
    return loss, {"tokens": float(n), "correct": float(correct)}


def sft_train(
    model: torch.nn.Module,
    trajectories: list[Trajectory],
    *,
    steps: int,
    lr: float,
    batch_size: int,
    pad_id: int,
    seed: int = 0,
    weight_decay: float = 0.0,
    grad_clip: float = 1.0,
    micro_batch_size: int | None = None,
    device: torch.device | str = "cpu",
    autocast_dtype: torch.dtype | None = None,
    schedule: str = "constant",
    log: Callable[[dict[str, Any]], None] | None = None,
    state_dir: Path | None = None,
    save_every: int = 0,
    save_state: bool = True,
) -> list[dict[str, Any]]:
    """`steps` AdamW steps over shuffled epochs of `trajectories`; returns one metrics row per step.

    `schedule` "cosine" decays the learning rate from `lr` to `lr / 10` over the steps. With `state_dir`,
    a state saved there by an earlier run of the same settings is resumed, and (when `save_state`, the
    main process) the state is saved every `save_every` steps, so a killed warm start loses at most that many.
    """
    usable = training_rows(trajectories)
    if not usable:
        raise ValueError("sft: no gold trajectory has agent tokens to learn from")
    rng = random.Random(seed)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=lr, weight_decay=weight_decay)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, _lr_factor(schedule, steps))
    model.train()
    order: list[int] = []
    rows: list[dict[str, Any]] = []
    first = 0
    meta = fingerprint(steps=steps, lr=lr, batch_size=batch_size, seed=seed, schedule=schedule, rows=usable)
    saved = load_sft_state(state_dir, meta) if state_dir is not None else None
    if saved is not None:
        first, order, rows = restore_sft_state(saved, model, opt, sched, rng)
    micro = micro_batch_size or batch_size
    dev_type = torch.device(device).type
    for step in range(first, steps):
        t0 = time.perf_counter()
        picked = []
        while len(picked) < min(batch_size, len(usable)):
            if not order:
                order = list(range(len(usable)))
                rng.shuffle(order)
            picked.append(usable[order.pop()])
        total = float(sum(sum(r.loss_mask[1:]) for r in picked))
        loss_sum, correct = 0.0, 0.0
        opt.zero_grad(set_to_none=True)
        for start in range(0, len(picked), micro):
            batch = collate_rows(picked[start : start + micro], pad_id, device)
            with torch.autocast(dev_type, dtype=autocast_dtype or torch.bfloat16, enabled=autocast_dtype is not None):
                loss, m = sft_loss(model, batch, normalizer=total)
            loss.backward()
            loss_sum += loss.item()
            correct += m["correct"]
        grad_norm = torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip).item()
        opt.step()
        sched.step()
        row = {
            "sft_step": step,
            "sft_loss": loss_sum,
            "sft_token_acc": correct / max(total, 1.0),
            "sft_grad_norm": grad_norm,
            "sft_lr": opt.param_groups[0]["lr"],
            "sft_tokens_per_s": total / max(time.perf_counter() - t0, 1e-9),
        }
        rows.append(row)
        if log:
            log(row)
        if (
            state_dir is not None
            and save_state
            and save_every > 0
            and (step + 1) % save_every == 0
            and step + 1 < steps
        ):
            save_sft_state(
                state_dir, step=step, model=model, opt=opt, sched=sched, rng=rng, order=order, rows=rows, meta=meta
            )
    model.eval()
    return rows


def _lr_factor(schedule: str, steps: int) -> Callable[[int], float]:
    """Multiplier of the base learning rate at each step."""
    if schedule == "constant":
        return lambda s: 1.0
    if schedule == "cosine":
        return lambda s: 0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * min(s, steps) / max(steps, 1)))
    raise ValueError(f"sft: unknown learning-rate schedule {schedule!r} (constant or cosine)")
