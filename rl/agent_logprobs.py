"""Log-probabilities of the agent tokens only, without full-vocabulary logits for every position.

The update needs log p(token t | prefix) where the loss mask is 1 (the reference model's at the same
tokens for the KL term). A plain forward materialises [B, T, V] logits, tool outputs and user turns
included (about 20 GB in fp32 for 4 x 8k tokens and a 150k vocabulary). Here a forward pre-hook on the
model's output head takes the final hidden states, keeps the rows whose next token is an agent token, and
runs the head on them in chunks of `chunk` positions, each under activation checkpointing with its
log-softmax in fp32: the backward pass recomputes one chunk's logits at a time, so at most [chunk, V]
logits exist at once. The head then gets one position per row, so the model's own logits are [B, 1, V].

The hook runs inside the model's forward, so DDP's and FSDP's hooks around it apply (FSDP has the
head's weight unsharded there). Models that post-process the head's output (logit soft-capping, a logit
scale) or have no output embeddings are refused by `supports_chunked_head`; callers use full logits then.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

DEFAULT_CHUNK = 1024


class AgentLogprobs(NamedTuple):
    """[B, T] log-probabilities (and entropies) aligned to token t, 0 where the loss mask is 0."""

    logprobs: torch.Tensor
    entropy: torch.Tensor | None
    positions: int  # agent positions computed
    peak_logits: int  # elements of the largest logits chunk that existed at once


def supports_chunked_head(model: torch.nn.Module) -> bool:
    """True when logits are exactly `output_embeddings(final hidden state)` (Llama, Qwen, SmolLM2, the tiny model)."""
    bare = getattr(model, "module", model)
    get = getattr(bare, "get_output_embeddings", None)
    head = get() if get is not None else None
    if not isinstance(head, torch.nn.Linear):
        return False
    cfg = getattr(bare, "config", None)
    post = [getattr(cfg, k, None) for k in ("final_logit_softcapping", "logit_scale", "output_multiplier_scale")]
    return all(v in (None, 1, 1.0) for v in post)


def _chunk(
    h: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor | None, targets: torch.Tensor, temperature: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-prob of `targets` and entropy (no gradient) for hidden rows `h` [n, H]."""
    logits = F.linear(h, weight, bias).float() / temperature
    logp = torch.log_softmax(logits, dim=-1)
    lp = logp.gather(-1, targets.unsqueeze(-1)).squeeze(-1)
    with torch.no_grad():
        ent = -(logp.exp() * logp).sum(-1)
    return lp, ent


def agent_logprobs(
    model: torch.nn.Module,
    token_ids: torch.Tensor,
    attention_mask: torch.Tensor,
    loss_mask: torch.Tensor,
    *,
    temperature: float = 1.0,
    chunk: int = DEFAULT_CHUNK,
    entropy: bool = False,
) -> AgentLogprobs:
    """Forward `model` (DDP/FSDP view or bare) and return log p at the loss-masked tokens ([B, T], see module doc).

    Position t - 1 predicts token t, so only hidden states at t - 1 with loss_mask[:, t] = 1 reach the head.
    """
    bare = getattr(model, "module", model)
    head = bare.get_output_embeddings()
    b, t = token_ids.shape
    rows, cols = (loss_mask[:, 1:] > 0).nonzero(as_tuple=True)  # hidden position cols predicts token cols + 1
    targets = token_ids[rows, cols + 1]
    first = int(cols.min()) if len(cols) else t - 1
    keep = t - first
    found: dict[str, Any] = {}

    def pre_hook(module: torch.nn.Module, args: tuple[Any, ...]) -> tuple[Any, ...]:
        hidden = args[0]
        offset = t - hidden.shape[1]  # the model may have kept only the last positions
        h = hidden[rows, cols - offset]
        lps, ents, peak = [], [], 0
        for lo in range(0, h.shape[0], chunk):
            part = (h[lo : lo + chunk], module.weight, module.bias, targets[lo : lo + chunk], temperature)
            if torch.is_grad_enabled():
                lp, ent = checkpoint(_chunk, *part, use_reentrant=False)
            else:
                lp, ent = _chunk(*part)
            lps.append(lp)
            ents.append(ent)
            peak = max(peak, part[0].shape[0] * module.weight.shape[0])
        found["lp"] = torch.cat(lps) if lps else h.new_zeros(0, dtype=torch.float32)
        found["ent"] = torch.cat(ents) if ents else h.new_zeros(0, dtype=torch.float32)
        found["peak"] = peak
        return (hidden[:, -1:],) + tuple(args[1:])

    handle = head.register_forward_pre_hook(pre_hook)
    try:
        try:
            model(input_ids=token_ids, attention_mask=attention_mask, logits_to_keep=keep)
        except TypeError:  # a model without logits_to_keep: the hook sees every position
            model(input_ids=token_ids, attention_mask=attention_mask)
    finally:
        handle.remove()
    if "lp" not in found:
        raise RuntimeError(f"{type(bare).__name__}: the output head was not called in forward; use full logits")
    lp_full = torch.zeros(b, t, dtype=torch.float32, device=token_ids.device)
    lp_full = lp_full.index_put((rows, cols + 1), found["lp"])
    ent_full = None
    if entropy:
        ent_full = torch.zeros(b, t, dtype=torch.float32, device=token_ids.device)
        ent_full[rows, cols + 1] = found["ent"].detach()
    return AgentLogprobs(lp_full, ent_full, len(rows), found["peak"])
