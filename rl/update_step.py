"""The policy update of one training step: kept trajectories and their advantages -> optimizer step(s).

`PolicyUpdateMixin` is the half of `rl.trainer.Trainer` that touches gradients. It expects the trainer's
attributes: `config`, `model` (the bare module), `wrapped` (the DDP/FSDP view of it), `ref_model` (or
None), `optimizer`, `scheduler`, `dist`, `device`, `pad_id`, `rollout_cfg`, `step` and `_autocast()`.
"""

from __future__ import annotations

import contextlib
import random
from collections import defaultdict
from typing import Any

import torch

from rl import distributed as D
from rl.erpo import entropy_from_logits, first_target, logprobs_from_logits, policy_loss
from rl.lora import trainable_parameters
from rl.sft import collate_rows
from rl.types import Trajectory


class PolicyUpdateMixin:
    """ERPO/GRPO optimizer steps over training sequences, micro-batched, DDP/FSDP-aware."""

    def update(self, trajs: list[Trajectory], advantages: torch.Tensor) -> dict[str, Any]:
        """Optimizer step(s) on the kept trajectories; every training sequence carries its episode's advantage.

        The kept rows are shuffled (seeded by the step) into `mini_batches` optimizer steps, each split
        into micro-batches whose gradients add up to the mini-batch loss (global normalizer). With one
        mini-batch the update is on-policy (old logprobs = current ones, ratio 1); with more, the old
        logprobs are computed for every micro-batch before the first step. When no row carries a non-zero
        advantage (and there is no KL term) nothing is computed and no optimizer step is taken.
        """
        cfg, o = self.config, self.config.optim
        rows = [(ids, mask, lps, float(a)) for t, a in zip(trajs, advantages.tolist())
                for ids, mask, lps in t.training_sequences() if sum(mask[1:]) > 0]  # fmt: skip
        signal = D.all_reduce_sum(float(sum(1 for r in rows if r[3] != 0.0)), self.dist)
        if signal == 0 and cfg.loss.kl_coef == 0:
            # Every advantage is 0 (all groups equal or masked): the loss and its gradient are 0, but an
            # optimizer step would still move the weights along Adam's momentum from earlier steps.
            return {"updated": 0, "update_tokens": 0.0, "_processed_tokens": 0.0, "zero_advantage_skip": int(bool(rows))}
        order = list(range(len(rows)))
        random.Random(cfg.seed * 7_919 + self.step).shuffle(order)
        plan = []  # per mini-batch: (micro-batches, normalizer, number of micro passes on the busiest rank)
        for i in range(o.mini_batches):
            picked = [rows[j] for j in order[i :: o.mini_batches]]
            g_tok = D.all_reduce_sum(float(sum(sum(r[1][1:]) for r in picked)), self.dist)
            g_seq = D.all_reduce_sum(float(len(picked)), self.dist)
            if g_seq == 0:
                continue
            norm = (g_tok if cfg.loss.agg == "token-mean" else g_seq) / self.dist.world_size
            micro = [picked[k : k + o.micro_batch_size] for k in range(0, len(picked), o.micro_batch_size)]
            plan.append((micro, norm, int(max(D.gather_objects(len(micro), self.dist)))))
        temp = self.rollout_cfg.temperature if self.rollout_cfg.temperature > 0 else 1.0
        self.wrapped.train()
        old = self._old_logprobs(plan, temp) if o.mini_batches > 1 else {}
        sums: dict[str, float] = defaultdict(float)
        losses, gnorms = [], []
        for i, (micro, norm, n_micro) in enumerate(plan):
            self.optimizer.zero_grad(set_to_none=True)
            loss_sum = 0.0
            for j in range(n_micro):
                last = j == n_micro - 1
                no_sync = getattr(self.wrapped, "no_sync", None)
                with contextlib.nullcontext() if (last or no_sync is None) else no_sync():
                    if j < len(micro):
                        loss, m = self._micro_step(micro[j], norm, temp, old.get((i, j)))
                        loss_sum += loss
                        for k, v in m.items():
                            sums[k] += v
                    else:  # this rank ran out of rows: a zero-loss pass keeps DDP's all-reduce in step
                        self._dummy_pass()
            gnorms.append(float(torch.nn.utils.clip_grad_norm_(trainable_parameters(self.wrapped), o.grad_clip)))
            self.optimizer.step()
            self.scheduler.step()
            losses.append(D.all_reduce_sum(loss_sum, self.dist) / self.dist.world_size)
        tok = D.all_reduce_sum(sums["tokens"], self.dist)
        out: dict[str, Any] = {"updated": int(bool(plan)), "update_tokens": tok, "_processed_tokens": sums["processed"],
                               "zero_advantage_skip": 0}  # fmt: skip
        if plan:
            out["loss"] = sum(losses) / len(losses)
            out["grad_norm"] = sum(gnorms) / len(gnorms)
            for k in ("clip_frac", "approx_kl", "entropy", "ref_kl"):
                if k in sums:
                    out[k] = D.all_reduce_sum(sums[k], self.dist) / max(tok, 1.0)
        return out

    @torch.no_grad()
    def _old_logprobs(self, plan, temp: float) -> dict[tuple[int, int], torch.Tensor]:
        old = {}
        sharded = D.is_sharded(self.wrapped, self.dist)
        for i, (micro, _norm, n_micro) in enumerate(plan):
            for j in range(n_micro if sharded else len(micro)):
                if j >= len(micro):  # FSDP: every forward is a collective, so keep step with the busiest rank
                    self._dummy_pass(backward=False)
                    continue
                batch = collate_rows([r[:3] for r in micro[j]], self.pad_id, self.device)
                logits, start = self._logits(self.model, batch)
                old[(i, j)] = logprobs_from_logits(logits.float() / temp, batch.token_ids, start)
        return old

    def _logits(self, model: torch.nn.Module, batch) -> tuple[torch.Tensor, int]:
        """Logits from the position before the first agent token on (the prompt's are never needed)."""
        start = first_target(batch.loss_mask) - 1
        keep = batch.token_ids.shape[1] - start
        with self._autocast():
            try:
                out = model(input_ids=batch.token_ids, attention_mask=batch.attention_mask, logits_to_keep=keep)
            except TypeError:  # a model without logits_to_keep: all positions
                out, start = model(input_ids=batch.token_ids, attention_mask=batch.attention_mask), 0
        logits = out.logits
        if logits.shape[1] > keep:
            logits = logits[:, -keep:]
        return logits, start

    def _micro_step(self, rows, norm: float, temp: float, old: torch.Tensor | None) -> tuple[float, dict[str, float]]:
        """Forward, loss, backward of one micro-batch; returns its loss and token-weighted metric sums."""
        cfg = self.config
        batch = collate_rows([r[:3] for r in rows], self.pad_id, self.device)
        adv = torch.tensor([r[3] for r in rows], dtype=torch.float32, device=self.device)
        logits, start = self._logits(self.wrapped, batch)
        logits = logits.float() / temp
        lp = logprobs_from_logits(logits, batch.token_ids, start)
        ref = None
        if self.ref_model is not None:
            with torch.no_grad():
                ref_logits, ref_start = self._logits(self.ref_model, batch)
                ref = logprobs_from_logits(ref_logits.float() / temp, batch.token_ids, ref_start)
        cut = slice(start, None)  # columns before `start` hold no agent token
        old = lp.detach() if old is None else old
        loss, m = policy_loss(lp[:, cut], old[:, cut], adv, batch.loss_mask[:, cut], cfg.loss.clip_low,
                              cfg.loss.clip_high, cfg.loss.agg, ref_logprobs=None if ref is None else ref[:, cut],
                              kl_coef=cfg.loss.kl_coef,
                              sampler_logprobs=batch.sampler_logprobs[:, cut] if cfg.loss.tis else None,
                              tis_cap=cfg.loss.tis_cap, normalizer=norm)  # fmt: skip
        loss.backward()
        ent = entropy_from_logits(logits.detach(), batch.token_ids.shape[1], start)
        tokens = float(batch.loss_mask.sum())
        sums = {"tokens": tokens, "processed": float(batch.attention_mask.sum()),
                "clip_frac": m["clip_frac"] * tokens, "approx_kl": m["approx_kl"] * tokens,
                "entropy": float((ent * batch.loss_mask).sum())}  # fmt: skip
        if "ref_kl" in m:
            sums["ref_kl"] = m["ref_kl"] * tokens
        return float(loss.detach()), sums

    def _dummy_pass(self, backward: bool = True) -> None:
        """A zero-loss forward (and backward) that joins the other ranks' collectives."""
        ids = torch.full((1, 2), self.pad_id, dtype=torch.long, device=self.device)
        with self._autocast():
            logits = self.wrapped(input_ids=ids).logits
        if backward:
            (logits.float().sum() * 0.0).backward()
