"""The policy update of one training step: kept trajectories and their advantages -> optimizer step(s).

`Learner` is the part of training that touches gradients. The trainer builds one after the model is
wrapped and the optimizer made, and calls `learner.update(trajs, advantages, step)` each step; every
dependency is a constructor argument.
"""

from __future__ import annotations

import contextlib
import random
from collections import defaultdict
from typing import Any, NamedTuple

import torch

from rl import distributed as D
from rl.agent_logprobs import agent_logprobs, supports_chunked_head
from rl.erpo import entropy_from_logits, first_target, logprobs_from_logits, policy_loss
from rl.lora import trainable_parameters
from rl.sft import Batch, collate_rows
from rl.train_config import TrainConfig
from rl.types import TokenRow, Trajectory


class UpdateRow(NamedTuple):
    """One training sequence, the advantage of its episode and the agent tokens of the whole episode."""

    seq: TokenRow
    advantage: float
    traj_tokens: float = 0.0  # agent tokens over all the episode's training sequences (0: this row's)

    def traj_share(self) -> float:
        """This row's part of its trajectory (its agent tokens over the trajectory's)."""
        own = float(sum(self.seq.loss_mask))
        return own / self.traj_tokens if self.traj_tokens > 0 else 1.0


class MiniBatch(NamedTuple):
    """The rows of one optimizer step, split into micro-batches.

    `normalizer`: the loss denominator over all ranks (tokens or sequences, per `loss.agg`), divided by
    the world size; `passes`: the number of micro-batches on the busiest rank (the others pad with
    zero-loss passes so DDP/FSDP collectives stay in step).
    """

    micro: list[list[UpdateRow]]
    normalizer: float
    passes: int


def autocast(device: torch.device, dtype: torch.dtype | None) -> Any:
    """Autocast to `dtype` on `device` (None: full precision, no autocast)."""
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device.type, dtype=dtype)


class Learner:
    """ERPO/GRPO optimizer steps over training sequences, micro-batched, DDP/FSDP-aware.

    `model` is the bare module, `wrapped` its DDP/FSDP view (the same module without distribution),
    `ref_model` the frozen reference for the KL term (or None); `temperature` is the rollouts' sampling
    temperature (logits are divided by it, so trainer and sampler score the same distribution).
    """

    def __init__(
        self,
        *,
        config: TrainConfig,
        model: torch.nn.Module,
        wrapped: torch.nn.Module,
        ref_model: torch.nn.Module | None,
        optimizer: torch.optim.Optimizer,
        scheduler: Any,
        dist: D.DistInfo,
        device: torch.device,
        pad_id: int,
        temperature: float,
        amp_dtype: torch.dtype | None = None,
    ):
        self.config, self.model, self.wrapped, self.ref_model = config, model, wrapped, ref_model
        self.optimizer, self.scheduler, self.dist, self.device = optimizer, scheduler, dist, device
        self.pad_id, self.amp_dtype = pad_id, amp_dtype
        self.temperature = temperature if temperature > 0 else 1.0

    def update(
        self, trajs: list[Trajectory], advantages: torch.Tensor, step: int, unmasked: int | None = None
    ) -> dict[str, Any]:
        """Optimizer step(s) on the kept trajectories; every training sequence carries its episode's advantage.

        The kept rows are shuffled (seeded by `step`) into `mini_batches` optimizer steps, each split
        into micro-batches whose gradients add up to the mini-batch loss (global normalizer). With one
        mini-batch the update is on-policy (old logprobs = current ones, ratio 1); with more, the old
        logprobs are computed for every micro-batch before the first step. When no row carries a non-zero
        advantage (and there is no KL term) nothing is computed and no optimizer step is taken.
        `unmasked`: trajectories not masked for a user error over all ranks, the denominator of
        "traj-mean-token-mean" (default: the trajectories given, over all ranks); it counts those whose
        equal-reward group was dropped, whose terms are 0.
        """
        cfg, o = self.config, self.config.optim
        rows = []
        for t, a in zip(trajs, advantages.tolist()):
            seqs = [seq for seq in t.training_sequences() if sum(seq.loss_mask[1:]) > 0]
            total = float(sum(sum(seq.loss_mask) for seq in seqs))
            rows.extend(UpdateRow(seq, float(a), total) for seq in seqs)
        signal = D.all_reduce_sum(float(sum(1 for r in rows if r.advantage != 0.0)), self.dist)
        if signal == 0 and cfg.loss.kl_coef == 0:
            # Every advantage is 0 (all groups equal or masked): the loss and its gradient are 0, but an
            # optimizer step would still move the weights along Adam's momentum from earlier steps.
            return {
                "updated": 0,
                "update_tokens": 0.0,
                "_processed_tokens": 0.0,
                "zero_advantage_skip": int(bool(rows)),
            }
        plan = self._plan(rows, step, unmasked)
        self.wrapped.train()
        old = self._old_logprobs(plan) if o.mini_batches > 1 else {}
        sums: dict[str, float] = defaultdict(float)
        losses, gnorms = [], []
        for i, mb in enumerate(plan):
            self.optimizer.zero_grad(set_to_none=True)
            loss_sum = 0.0
            for j in range(mb.passes):
                last = j == mb.passes - 1
                no_sync = getattr(self.wrapped, "no_sync", None)
                with contextlib.nullcontext() if (last or no_sync is None) else no_sync():
                    if j < len(mb.micro):
                        loss, m = self._micro_step(mb.micro[j], mb.normalizer, old.get((i, j)))
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
        out: dict[str, Any] = {
            "updated": int(bool(plan)),
            "update_tokens": tok,
            "_processed_tokens": sums["processed"],
            "zero_advantage_skip": 0,
        }
        if plan:
            out["loss"] = sum(losses) / len(losses)
            out["grad_norm"] = sum(gnorms) / len(gnorms)
            for k in ("clip_frac", "approx_kl", "entropy", "ref_kl"):
                if k in sums:
                    out[k] = D.all_reduce_sum(sums[k], self.dist) / max(tok, 1.0)
        return out

    def _plan(self, rows: list[UpdateRow], step: int, unmasked: int | None = None) -> list[MiniBatch]:
        """Shuffle the rows (seeded by the step) into mini-batches of micro-batches; empty ones are left out.

        Normalizers: agent tokens ("token-mean"), sequences (the other "seq-" modes), or trajectories
        ("traj-mean-token-mean": the mini-batch's share of the trajectories, scaled so that a single
        mini-batch divides by `unmasked`).
        """
        cfg, o = self.config, self.config.optim
        scale = 1.0
        if cfg.loss.agg == "traj-mean-token-mean" and unmasked is not None:
            present = D.all_reduce_sum(float(sum(r.traj_share() for r in rows)), self.dist)
            scale = unmasked / present if present > 0 else 1.0
        order = list(range(len(rows)))
        random.Random(cfg.seed * 7_919 + step).shuffle(order)
        plan = []
        for i in range(o.mini_batches):
            picked = [rows[j] for j in order[i :: o.mini_batches]]
            g_tok = D.all_reduce_sum(float(sum(sum(r.seq.loss_mask[1:]) for r in picked)), self.dist)
            g_seq = D.all_reduce_sum(float(len(picked)), self.dist)
            if g_seq == 0:
                continue
            if cfg.loss.agg == "token-mean":
                norm = g_tok
            elif cfg.loss.agg == "traj-mean-token-mean":
                norm = D.all_reduce_sum(float(sum(r.traj_share() for r in picked)), self.dist) * scale
            else:
                norm = g_seq
            norm /= self.dist.world_size
            micro = [picked[k : k + o.micro_batch_size] for k in range(0, len(picked), o.micro_batch_size)]
            plan.append(MiniBatch(micro, norm, int(max(D.gather_objects(len(micro), self.dist)))))
        return plan

    def token_logprobs(
        self, model: torch.nn.Module, batch: Batch, entropy: bool = False
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """log p of every agent token ([B, T], 0 elsewhere) at the sampling temperature, and its entropy if asked.

        With `optim.logprob_chunk` > 0 (and a plain output head) only the loss-masked positions reach the
        head, in chunks (rl/agent_logprobs.py); otherwise from full logits (`logits`).
        """
        chunk = self.config.optim.logprob_chunk
        if chunk > 0 and supports_chunked_head(model):
            with autocast(self.device, self.amp_dtype):
                got = agent_logprobs(
                    model,
                    batch.token_ids,
                    batch.attention_mask,
                    batch.loss_mask,
                    temperature=self.temperature,
                    chunk=chunk,
                    entropy=entropy,
                )
            return got.logprobs, got.entropy
        logits, start = self.logits(model, batch)
        logits = logits.float() / self.temperature
        mask = batch.loss_mask.to(torch.float32)
        lp = logprobs_from_logits(logits, batch.token_ids, start) * mask
        ent = entropy_from_logits(logits.detach(), batch.token_ids.shape[1], start) * mask if entropy else None
        return lp, ent

    @torch.no_grad()
    def _old_logprobs(self, plan: list[MiniBatch]) -> dict[tuple[int, int], torch.Tensor]:
        old = {}
        sharded = D.is_sharded(self.wrapped, self.dist)
        for i, mb in enumerate(plan):
            for j in range(mb.passes if sharded else len(mb.micro)):
                if j >= len(mb.micro):  # FSDP: every forward is a collective, so keep step with the busiest rank
                    self._dummy_pass(backward=False)
                    continue
                batch = collate_rows([r.seq for r in mb.micro[j]], self.pad_id, self.device)
                old[(i, j)] = self.token_logprobs(self.model, batch)[0]
        return old

    def logits(self, model: torch.nn.Module, batch: Batch) -> tuple[torch.Tensor, int]:
        """Logits of `model` from the position before the first agent token on, and that position."""
        start = first_target(batch.loss_mask) - 1
        keep = batch.token_ids.shape[1] - start
        with autocast(self.device, self.amp_dtype):
            try:
                out = model(input_ids=batch.token_ids, attention_mask=batch.attention_mask, logits_to_keep=keep)
            except TypeError:  # a model without logits_to_keep: all positions
                out, start = model(input_ids=batch.token_ids, attention_mask=batch.attention_mask), 0
        logits = out.logits
        if logits.shape[1] > keep:
            logits = logits[:, -keep:]
        return logits, start

    def _micro_step(
        self, rows: list[UpdateRow], norm: float, old: torch.Tensor | None
    ) -> tuple[float, dict[str, float]]:
        """Forward, loss, backward of one micro-batch; returns its loss and token-weighted metric sums."""
        cfg = self.config
        batch = collate_rows([r.seq for r in rows], self.pad_id, self.device)
        adv = torch.tensor([r.advantage for r in rows], dtype=torch.float32, device=self.device)
        lp, ent = self.token_logprobs(self.wrapped, batch, entropy=True)
        ref = None
        if self.ref_model is not None:
            with torch.no_grad():
                ref = self.token_logprobs(self.ref_model, batch)[0]
        old = lp.detach() if old is None else old
        loss, m = policy_loss(
            lp,
            old,
            adv,
            batch.loss_mask,
            cfg.loss.clip_low,
            cfg.loss.clip_high,
            cfg.loss.agg,
            ref_logprobs=ref,
            kl_coef=cfg.loss.kl_coef,
            sampler_logprobs=batch.sampler_logprobs if cfg.loss.tis else None,
            tis_cap=cfg.loss.tis_cap,
            normalizer=norm,
            seq_tokens=torch.tensor([r.traj_tokens for r in rows], device=self.device),
        )
        loss.backward()
        assert ent is not None
        tokens = float(batch.loss_mask.sum())
        sums = {
            "tokens": tokens,
            "processed": float(batch.attention_mask.sum()),
            "clip_frac": m["clip_frac"] * tokens,
            "approx_kl": m["approx_kl"] * tokens,
            "entropy": float((ent * batch.loss_mask).sum()),
        }
        if "ref_kl" in m:
            sums["ref_kl"] = m["ref_kl"] * tokens
        return float(loss.detach()), sums

    def _dummy_pass(self, backward: bool = True) -> None:
        """A zero-loss forward (and backward) that joins the other ranks' collectives."""
        ids = torch.full((1, 2), self.pad_id, dtype=torch.long, device=self.device)
        with autocast(self.device, self.amp_dtype):
            logits = self.wrapped(input_ids=ids).logits
        if backward:
            (logits.float().sum() * 0.0).backward()
