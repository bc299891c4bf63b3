"""ERPO: advantages normalized per environment, clipped surrogate loss, token-level aggregation.

Advantage modes (only valid trajectories, i.e. not masked for a simulated-user error, enter any statistic):

- "erpo":        A_i = (R_i - mean{R_j : task_j = task_i}) / (std{R_j : env_j = env_i} + eps)
- "grpo":        A_i = (R_i - mean{R_j : task_j = task_i}) / (std{R_j : task_j = task_i} + eps)
- "reinforce++": A_i = (R_i - mean{R_j : all j}) / (std{R_j : all j} + eps)   (batch-level normalization)

std is the population standard deviation (ddof = 0). Invalid entries get advantage 0.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any, NamedTuple

import torch

ADVANTAGE_MODES = ("erpo", "grpo", "reinforce++")
# "traj-mean-token-mean" is the paper's normaliser: each trajectory's token-mean term, averaged over the
# trajectories not masked for a user error (the trainer passes per-trajectory token counts and that count).
AGGREGATIONS = ("traj-mean-token-mean", "token-mean", "seq-mean-token-mean", "seq-mean-token-sum")


class GroupStats(NamedTuple):
    """Mean and population standard deviation of one group's rewards."""

    mean: float
    std: float


def _group_stats(values: list[float], keys: Sequence[str], members: list[int]) -> dict[str, GroupStats]:
    """Mean and population std of `values` over `members`, grouped by key (float64 math)."""
    groups: dict[str, list[float]] = defaultdict(list)
    for i in members:
        groups[keys[i]].append(values[i])
    stats = {}
    for key, vals in groups.items():
        t = torch.tensor(vals, dtype=torch.float64)
        stats[key] = GroupStats(t.mean().item(), t.std(correction=0).item())
    return stats


def compute_advantages(
    rewards: torch.Tensor,
    task_ids: Sequence[str],
    env_ids: Sequence[str],
    valid: torch.Tensor,
    mode: str = "erpo",
    eps: float = 1e-6,
) -> torch.Tensor:
    """Per-trajectory advantages [N] for `mode` in ADVANTAGE_MODES (see the module docstring)."""
    if mode not in ADVANTAGE_MODES:
        raise ValueError(f"unknown advantage mode {mode!r}; expected one of {ADVANTAGE_MODES}")
    rewards = torch.as_tensor(rewards)
    n = rewards.shape[0]
    if len(task_ids) != n or len(env_ids) != n or valid.shape[0] != n:
        raise ValueError(
            f"length mismatch: rewards {n}, task_ids {len(task_ids)}, env_ids {len(env_ids)}, valid {valid.shape[0]}"
        )
    out_dtype = rewards.dtype if rewards.is_floating_point() else torch.float32
    vals = rewards.detach().to(torch.float64).tolist()
    members = [i for i in range(n) if bool(valid[i])]
    adv = [0.0] * n
    if not members:
        return torch.zeros(n, dtype=out_dtype)
    if mode == "reinforce++":
        everyone = ["*"] * n
        batch = _group_stats(vals, everyone, members)["*"]
        for i in members:
            adv[i] = (vals[i] - batch.mean) / (batch.std + eps)
        return torch.tensor(adv, dtype=torch.float64).to(out_dtype)
    by_task = _group_stats(vals, task_ids, members)
    by_scale = by_task if mode == "grpo" else _group_stats(vals, env_ids, members)
    scale_keys = task_ids if mode == "grpo" else env_ids
    for i in members:
        adv[i] = (vals[i] - by_task[task_ids[i]].mean) / (by_scale[scale_keys[i]].std + eps)
    return torch.tensor(adv, dtype=torch.float64).to(out_dtype)


def equal_reward_groups(rewards: Sequence[float], task_ids: Sequence[str], valid: Sequence[bool]) -> set[str]:
    """Tasks whose valid rewards are all equal (no learning signal under a per-task baseline)."""
    groups: dict[str, list[float]] = defaultdict(list)
    for r, t, v in zip(rewards, task_ids, valid):
        if v:
            groups[t].append(float(r))
    return {t for t, rs in groups.items() if max(rs) == min(rs)}


def kl_k3(logprobs: torch.Tensor, ref_logprobs: torch.Tensor) -> torch.Tensor:
    """Per-token unbiased, non-negative KL(pi || ref) estimate: exp(ref - lp) - (ref - lp) - 1."""
    d = ref_logprobs - logprobs
    return torch.exp(d) - d - 1.0


def policy_loss(
    logprobs: torch.Tensor,
    old_logprobs: torch.Tensor,
    advantages: torch.Tensor,
    loss_mask: torch.Tensor,
    clip_low: float = 0.2,
    clip_high: float = 0.2,
    agg: str = "token-mean",
    *,
    ref_logprobs: torch.Tensor | None = None,
    kl_coef: float = 0.0,
    sampler_logprobs: torch.Tensor | None = None,
    tis_cap: float | None = None,
    normalizer: float | None = None,
    seq_tokens: torch.Tensor | None = None,
) -> tuple[torch.Tensor, dict[str, float]]:
    """Clipped-surrogate loss over [B, T] tokens; returns (scalar loss, metrics).

    Per token: r = exp(logprobs - old_logprobs), term = -min(r A, clip(r, 1 - clip_low, 1 + clip_high) A),
    plus `kl_coef * k3(logprobs, ref_logprobs)` when a reference is given.
    `sampler_logprobs` (the rollout engine's, e.g. vLLM's) turns on truncated importance sampling: each
    term is weighted by min(exp(old_logprobs - sampler_logprobs), tis_cap), a constant.
    `normalizer` overrides the denominator (masked tokens for "token-mean", non-empty sequences for the
    sequence modes) so micro-batches of one batch add up to the loss of the whole batch.
    "traj-mean-token-mean" divides each sequence's sum by `seq_tokens` [B] (the agent tokens of its whole
    trajectory, which may span several sequences; default: its own) and the sum of those by `normalizer`
    (the unmasked trajectories); without either it equals "seq-mean-token-mean".
    """
    if agg not in AGGREGATIONS:
        raise ValueError(f"unknown aggregation {agg!r}; expected one of {AGGREGATIONS}")
    mask = loss_mask.to(logprobs.dtype)
    adv = advantages.to(logprobs.dtype).unsqueeze(-1)
    log_ratio = (logprobs - old_logprobs) * mask  # zero outside the mask: no overflow from padding
    ratio = torch.exp(log_ratio)
    clipped = torch.clamp(ratio, 1.0 - clip_low, 1.0 + clip_high)
    surrogate = torch.minimum(ratio * adv, clipped * adv)
    terms = -surrogate
    if sampler_logprobs is not None:
        cap = float("inf") if tis_cap is None else tis_cap
        weight = torch.exp((old_logprobs - sampler_logprobs).detach() * mask).clamp(max=cap)
        terms = terms * weight
    kl = None
    if ref_logprobs is not None:
        kl = kl_k3(logprobs, ref_logprobs.detach()) * mask
        if kl_coef:
            terms = terms + kl_coef * kl
    masked = terms * mask
    tokens_per_seq = mask.sum(-1)
    non_empty = (tokens_per_seq > 0).to(logprobs.dtype)
    n_tokens = tokens_per_seq.sum()
    if agg == "token-mean":
        denom = normalizer if normalizer is not None else n_tokens.clamp(min=1.0)
        loss = masked.sum() / denom
    else:
        per_seq = masked.sum(-1)
        if agg == "seq-mean-token-mean":
            per_seq = per_seq / tokens_per_seq.clamp(min=1.0)
        elif agg == "traj-mean-token-mean":
            own = tokens_per_seq if seq_tokens is None else seq_tokens.to(per_seq.dtype).to(per_seq.device)
            per_seq = per_seq / own.clamp(min=1.0)
        denom = normalizer if normalizer is not None else non_empty.sum().clamp(min=1.0)
        loss = (per_seq * non_empty).sum() / denom
    metrics = _loss_metrics(log_ratio.detach(), ratio.detach(), adv.detach(), mask, n_tokens, clip_low, clip_high, kl)
    return loss, metrics


def _loss_metrics(
    log_ratio: torch.Tensor,
    ratio: torch.Tensor,
    adv: torch.Tensor,
    mask: torch.Tensor,
    n_tokens: torch.Tensor,
    clip_low: float,
    clip_high: float,
    kl: torch.Tensor | None,
) -> dict[str, Any]:
    """Clip fraction (tokens whose clipped branch is the active one), approximate KL (k3), ratio range."""
    count = max(float(n_tokens), 1.0)
    clipped_high = (ratio > 1.0 + clip_high) & (adv > 0)
    clipped_low = (ratio < 1.0 - clip_low) & (adv < 0)
    clip_frac = ((clipped_high | clipped_low).to(mask.dtype) * mask).sum().item() / count
    approx_kl = (((ratio - 1.0) - log_ratio) * mask).sum().item() / count
    inside = mask > 0
    metrics: dict[str, Any] = {
        "clip_frac": clip_frac,
        "approx_kl": approx_kl,
        "ratio_max": ratio[inside].max().item() if inside.any() else 1.0,
        "ratio_min": ratio[inside].min().item() if inside.any() else 1.0,
        "tokens": float(n_tokens),
    }
    if kl is not None:
        metrics["ref_kl"] = kl.detach().sum().item() / count
    return metrics


def logprobs_from_logits(
    logits: torch.Tensor, token_ids: torch.Tensor, start: int = 0, chunk: int = 1024
) -> torch.Tensor:
    """log p(token_ids[:, t] | prefix) aligned to t: [B, T], 0 in columns 0..start.

    `logits` [B, L, V] are the model outputs at positions start .. start + L - 1 (position t predicts
    token t + 1); `start` > 0 when the model was asked for the last L positions only (logits_to_keep).
    Computed as gathered logit minus logsumexp, in chunks of positions, in fp32.
    """
    b, t = token_ids.shape
    n = min(logits.shape[1], t - 1 - start)
    out = [torch.zeros(b, start + 1, dtype=torch.float32, device=logits.device)]
    for lo in range(0, n, chunk):
        lg = logits[:, lo : min(n, lo + chunk)].float()
        tg = token_ids[:, start + lo + 1 : start + lo + 1 + lg.shape[1]]
        out.append(lg.gather(-1, tg.unsqueeze(-1)).squeeze(-1) - torch.logsumexp(lg, dim=-1))
    return torch.cat(out, dim=1)


@torch.no_grad()
def entropy_from_logits(logits: torch.Tensor, width: int, start: int = 0, chunk: int = 1024) -> torch.Tensor:
    """Entropy of each next-token distribution, aligned like `logprobs_from_logits` ([B, width])."""
    b = logits.shape[0]
    n = min(logits.shape[1], width - 1 - start)
    out = [torch.zeros(b, start + 1, dtype=torch.float32, device=logits.device)]
    for lo in range(0, n, chunk):
        logp = torch.log_softmax(logits[:, lo : min(n, lo + chunk)].float(), dim=-1)
        out.append(-(logp.exp() * logp).sum(-1))
    return torch.cat(out, dim=1)


def first_target(loss_mask: torch.Tensor) -> int:
    """Smallest t with a masked-in token in any row (>= 1); the logits before t - 1 are not needed."""
    cols = (loss_mask > 0).any(0).nonzero()
    return max(1, int(cols[0])) if len(cols) else 1
