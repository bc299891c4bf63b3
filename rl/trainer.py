"""The ERPO training loop: sample tasks, K rollouts each, judge, rewards, advantages, update, repeat.

    trainer = Trainer(load_train_config("examples/train_tiny.yaml"))
    summary = trainer.run()

Every step appends one row to `<output_dir>/metrics.jsonl`; checkpoints (rl/checkpoint.py) make a
resumed run continue exactly as an uninterrupted one (timing fields aside). Trajectories whose simulated
user erred (`user_error`) are dropped from the advantage statistics and from the loss.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import random
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

import torch

from rl import distributed as D
from rl.checkpoint import (
    capture_rng_state,
    latest_checkpoint,
    load_checkpoint,
    load_optimizer_state,
    load_rng,
    save_checkpoint,
)
from rl.curriculum import Curriculum
from rl.erpo import compute_advantages, equal_reward_groups
from rl.lora import apply_lora, has_lora, lora_scalings, merged_state_dict, trainable_parameters
from rl.rollout import run_episodes
from rl.train_config import TrainConfig
from rl.train_log import (
    per_env_means,
    quiet_transformers,
    short_row,
    truncate_rows,
    warmup,
    write_rows,
)
from rl.trainer_setup import (
    EnvEntry,
    load_env_entries,
    load_policy,
    make_judge,
    make_user,
    needs_llm,
    prepare_model_folder,
    rollout_config,
    weight_dtype,
)
from rl.types import EpisodeStat, Trajectory
from rl.update_step import Learner, autocast
from rl.warm_start import gold_trajectories, warm_start
from synth.errors import InputError
from synth.fsio import staged_folder


class Trainer:
    """One training run; `user` and `judge` may be injected (tests), otherwise built from the config."""

    def __init__(
        self,
        config: TrainConfig,
        *,
        user: Any = None,
        judge: Any = None,
        source: str = "config",
        reward_fn: Callable[[Trajectory], float] | None = None,
        log: Callable[[str], None] | None = None,
    ):
        self.config = config
        self.source = source
        self.out = Path(config.output_dir)
        self.dist = D.init_distributed()
        self._user, self._judge = user, judge
        self.reward_fn = reward_fn  # replaces the verifier's reward (shaping; tests use it on random models)
        self.log = log or (lambda msg: print(msg, flush=True) if self.dist.is_main else None)
        self.entries: list[EnvEntry] = []
        self.step = 0
        self._last_reused_share: float | None = None  # share of the last rollout's prompt tokens from the KV cache
        self.curriculum_lock = threading.Lock()  # the asynchronous mode's task feeder samples from another thread
        self.sync_weights_in_update = True  # the asynchronous mode syncs under its own lock (rl/async_rl/loop.py)

    # ---- setup -----------------------------------------------------------------------------------
    def _device(self) -> torch.device:
        want = self.config.model.device
        if want == "auto":
            want = "cuda" if torch.cuda.is_available() else "cpu"
        if want == "cuda":
            return torch.device("cuda", self.dist.local_rank)
        return torch.device("cpu")

    def setup(self) -> None:
        """Environments, model, optimizer, curriculum; resume from the latest checkpoint when there is one."""
        cfg = self.config
        self._make_user_and_judge(None)
        random.seed(cfg.seed)
        torch.manual_seed(cfg.seed)
        if cfg.torch_threads > 0:
            torch.set_num_threads(cfg.torch_threads)
        quiet_transformers()
        self.entries = load_env_entries(cfg, self.source)
        self.env_dirs = {e.env_id: e.env_dir for e in self.entries}
        self.rollout_cfg = rollout_config(cfg, self.source)
        self.device = self._device()
        self.out.mkdir(parents=True, exist_ok=True)
        if self.dist.is_main:
            prepare_model_folder(cfg, self.entries, self.out / "model_init")
        D.barrier(self.dist)
        init = Path(cfg.model.path) if cfg.model.kind == "pretrained" else self.out / "model_init"
        self.model, self.tokenizer = load_policy(init, self.device, weight_dtype(cfg.model.dtype))
        if cfg.model.gradient_checkpointing:
            self.model.gradient_checkpointing_enable()
        self.pad_id = int(
            self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else self.tokenizer.eos_token_id
        )
        self.amp_dtype = self._amp_dtype()
        train_tasks = [t for e in self.entries for t in e.train]
        self.curriculum = Curriculum(train_tasks, cfg.curriculum, total_steps=cfg.steps, seed=cfg.seed)
        self.ckpt = latest_checkpoint(self.out) if cfg.resume else None
        self.sft_rows: list[dict[str, Any]] = []
        if self.ckpt is None and cfg.sft.steps > 0:
            self.sft_rows = self.warm_start()
        if cfg.lora.rank > 0:  # after the warm start, which trains every weight; before a checkpoint's weights
            self._add_adapters()
        self.ref_model = self._reference() if cfg.loss.kl_coef > 0 else None
        state = None
        if self.ckpt is not None:  # weights go into the bare model, before any sharding
            state = load_checkpoint(self.ckpt, self.model, None, restore_rng=False)
        # FSDP makes every forward a collective, but ranks roll out different episodes (different numbers
        # of generate calls): rollouts use an unsharded copy, refreshed from the shards after each update.
        fsdp_rollouts = self.dist.enabled and cfg.model.parallel == "fsdp" and cfg.backend == "transformers"
        self.rollout_model = copy.deepcopy(self.model) if fsdp_rollouts else self.model
        self.wrapped = D.wrap_model(self.model, self.dist, cfg.model.parallel)
        o = cfg.optim
        self.optimizer = torch.optim.AdamW(
            trainable_parameters(self.wrapped), lr=o.lr, betas=tuple(o.betas), weight_decay=o.weight_decay
        )
        self.scheduler = torch.optim.lr_scheduler.LambdaLR(self.optimizer, warmup(o.warmup_steps))
        self.learner = Learner(
            config=cfg,
            model=self.model,
            wrapped=self.wrapped,
            ref_model=self.ref_model,
            optimizer=self.optimizer,
            scheduler=self.scheduler,
            dist=self.dist,
            device=self.device,
            pad_id=self.pad_id,
            temperature=self.rollout_cfg.temperature,
            amp_dtype=self.amp_dtype,
        )
        if state is not None:
            D.load_optimizer_state(self.wrapped, self.optimizer, load_optimizer_state(self.ckpt), self.dist)
            self.step = int(state["step"])
            self.curriculum.load_state_dict(state["curriculum"])
            self.scheduler.load_state_dict(state["scheduler"])
            load_rng(self.ckpt, self.dist.rank)
            self.log(f"resumed from {self.ckpt} at step {self.step}")
        self.policy = self._make_policy()

    def _add_adapters(self) -> None:
        try:
            n = apply_lora(self.model, self.config.lora, seed=self.config.seed)
        except ValueError as err:
            raise InputError(self.source, "lora.targets", str(err)) from err
        trainable = sum(p.numel() for p in trainable_parameters(self.model))
        self.log(
            f"LoRA: {n} layers adapted at rank {self.config.lora.rank}, {trainable / 1e6:.2f}M trainable parameters"
        )

    def plain_state_dict(self, every_rank: bool = False) -> dict[str, torch.Tensor]:
        """The policy's full weights under the names of a model without adapters (LoRA merged in).

        Under FSDP only rank 0 gets them unless `every_rank` (then on every rank's device; all ranks call).
        """
        state = D.full_state_dict(self.wrapped, self.dist, every_rank=every_rank)
        return merged_state_dict(state, lora_scalings(self.model)) if has_lora(self.model) else state

    def _make_user_and_judge(self, client: Any) -> None:
        """Build the configured user simulator and judge unless injected; LLM ones need `client` (see run)."""
        if self._user is None:
            if client is None and self.config.user.get("kind", "scripted") == "llm":
                raise RuntimeError("an LLM user simulator needs an endpoint: call Trainer.run(), which opens one")
            self._user = make_user(self.config, client)
        if self._judge is None and self.config.judge.get("mode", "none") != "none":
            if client is None and self.config.judge.get("mode") != "prior":
                raise RuntimeError("an LLM judge needs an endpoint: call Trainer.run(), which opens one")
            self._judge = make_judge(self.config, client)

    def _amp_dtype(self) -> torch.dtype | None:
        want = self.config.model.dtype
        if want in ("fp32", "float32"):
            return None
        if self.device.type == "cuda" and torch.cuda.is_bf16_supported():
            return torch.bfloat16
        if want in ("bf16", "bfloat16"):
            return torch.bfloat16  # CPU autocast in bf16 (weights are bf16 too): slow, but asked for
        return None

    def _autocast(self) -> Any:
        return autocast(self.device, self.amp_dtype)

    def _make_policy(self) -> Any:
        if self.config.backend == "vllm":
            from rl.backends.vllm_backend import VLLMPolicy

            self._save_pretrained(self.out / "model_vllm")
            D.barrier(self.dist)  # rank 0 writes the folder every rank's engine loads
            return VLLMPolicy(str(self.out / "model_vllm"), seed=self.config.seed, **self.config.vllm)
        from rl.backends.transformers_backend import TransformersPolicy

        return TransformersPolicy(
            self.rollout_model,
            self.tokenizer,
            device=str(self.device),
            max_batch=self.rollout_cfg.max_batch,
            prefix_cache_mb=self.rollout_cfg.prefix_cache_mb,
        )

    def _reference(self) -> torch.nn.Module:
        """Frozen copy of the policy at the start of RL (after SFT), for the KL term."""
        src = (
            self.out / "sft_model"
            if (self.out / "sft_model" / "config.json").exists()
            else (Path(self.config.model.path) if self.config.model.kind == "pretrained" else self.out / "model_init")
        )
        ref, _ = load_policy(src, self.device, weight_dtype(self.config.model.dtype))
        ref.eval()
        for p in ref.parameters():
            p.requires_grad_(False)
        return ref

    def _save_pretrained(self, folder: Path) -> None:
        """Model and tokenizer as a from_pretrained folder (full weights gathered first under FSDP)."""
        wrapped = getattr(self, "wrapped", None)
        full = None
        if wrapped is not None and (D.is_sharded(wrapped, self.dist) or has_lora(self.model)):
            full = self.plain_state_dict()
        if not self.dist.is_main:
            return
        with staged_folder(folder) as tmp:
            if full is not None:
                self.model.save_pretrained(tmp, state_dict=full)
            else:
                self.model.save_pretrained(tmp)
            self.tokenizer.save_pretrained(tmp)

    # ---- SFT warm start (rl/warm_start.py) ------------------------------------------------------------
    def gold_trajectories(self, which: str = "train", limit: int | None = None) -> list[Trajectory]:
        """Gold episodes of the tasks (the first `limit` of each environment's split), rendered with rollout masks."""
        return gold_trajectories(self, which, limit)

    def warm_start(self) -> list[dict[str, Any]]:
        """SFT on the gold trajectories of the training tasks; resumes a killed warm start, reuses a finished one."""
        return warm_start(self)

    # ---- rollouts ----------------------------------------------------------------------------------
    def rollout(
        self, tasks: list[Any], k: int, seed: int, max_turns: int | None = None, temperature: float | None = None
    ) -> list[Trajectory]:
        """K episodes of each task through the rollout loop, with the run's user and judge."""
        cfg = dataclasses.replace(self.rollout_cfg, seed=seed)
        if max_turns is not None:
            cfg = dataclasses.replace(cfg, max_turns=max_turns)
        if temperature is not None:
            cfg = dataclasses.replace(cfg, temperature=temperature)
        self.rollout_model.eval()
        cache = getattr(self.policy, "prefix_cache", None)
        before = (cache.stats.prompt_tokens, cache.stats.reused_tokens) if cache is not None else (0, 0)
        with torch.no_grad(), self._autocast():
            trajs = run_episodes(
                self.policy, [(str(self.env_dirs[t.env_id]), t) for t in tasks], self._user, cfg, k=k, judge=self._judge
            )
        cache = getattr(self.policy, "prefix_cache", None)  # None if the backend turned reuse off on the way
        if cache is not None:
            prompt, reused = cache.stats.prompt_tokens - before[0], cache.stats.reused_tokens - before[1]
            self._last_reused_share = reused / prompt if prompt else 0.0
        return trajs

    # ---- one training step -------------------------------------------------------------------------
    def train_step(self) -> dict[str, Any]:
        """Sample tasks, roll out K episodes each (this rank's share), learn from them; one metrics row."""
        cfg = self.config
        t0 = time.perf_counter()
        tasks = self.curriculum.sample(self.step, cfg.tasks_per_step)
        max_turns = self.curriculum.max_turns(self.step, self.rollout_cfg.max_turns)
        seed = cfg.seed * 100_003 + self.step * 17 + self.dist.rank
        local = self.rollout(D.shard(tasks, self.dist), cfg.rollouts_per_task, seed=seed, max_turns=max_turns)
        t_roll = time.perf_counter() - t0
        row = self.learn_from(local)
        row["max_turns"] = max_turns
        sampled = D.all_reduce_sum(float(sum(t.tokens.sampled_tokens() for t in local)), self.dist)
        row.update(
            {
                "time/rollout_s": t_roll,
                "time/update_s": row.pop("_update_s"),
                "time/step_s": time.perf_counter() - t0,
                "tokens_per_s/rollout": sampled / max(t_roll, 1e-9),
            }
        )
        if self._last_reused_share is not None:
            row["rollout/prompt_reused_share"] = self._last_reused_share
        row["tokens_per_s/update"] = row.pop("_processed_tokens") / max(row["time/update_s"], 1e-9)
        return row

    def learn_from(self, local: list[Trajectory]) -> dict[str, Any]:
        """Rewards -> advantages (masked trajectories left out) -> optional group dropping -> update."""
        cfg = self.config
        if self.reward_fn is not None:
            for t in local:
                t.outcome.reward = float(self.reward_fn(t))
        stats = [EpisodeStat.of(t) for t in local]
        everything: list[EpisodeStat] = [m for part in D.gather_objects(stats, self.dist) for m in part]
        offset = sum(D.gather_objects(len(local), self.dist)[: self.dist.rank])
        rewards = torch.tensor([m.reward for m in everything], dtype=torch.float32)
        valid = torch.tensor([m.valid for m in everything], dtype=torch.bool)
        tids, eids = [m.task_id for m in everything], [m.env_id for m in everything]
        adv_all = compute_advantages(rewards, tids, eids, valid, mode=cfg.advantage.mode, eps=cfg.advantage.eps)
        dropped = (
            equal_reward_groups(rewards.tolist(), tids, valid.tolist()) if cfg.advantage.drop_equal_groups else set()
        )
        adv = adv_all[offset : offset + len(local)]
        keep = [i for i, t in enumerate(local) if t.valid and t.task_id not in dropped]
        t1 = time.perf_counter()
        upd = self.learner.update([local[i] for i in keep], adv[keep], self.step, unmasked=int(valid.sum()))
        upd["_update_s"] = time.perf_counter() - t1
        self.step += 1
        by_task: dict[str, list[float]] = defaultdict(list)
        for m in everything:
            if m.valid:
                by_task[m.task_id].append(float(m.success))
        with self.curriculum_lock:
            self.curriculum.update({tid: sum(v) / len(v) for tid, v in sorted(by_task.items())})
        if self.sync_weights_in_update:
            self.sync_rollout_weights()
        return self._step_metrics(everything, local, dropped, upd)

    def sync_rollout_weights(self) -> None:
        """The updated weights into the sampler: the vLLM engine, or the unsharded rollout copy under FSDP."""
        if self.config.backend == "vllm" and hasattr(self.policy, "update_weights"):
            self.policy.update_weights(self.plain_state_dict(every_rank=True).items())  # every rank's engine
        if self.rollout_model is not self.model:  # FSDP: refresh the unsharded rollout copy
            self.rollout_model.load_state_dict(D.full_state_dict(self.wrapped, self.dist, every_rank=True))

    def _step_metrics(
        self, everything: list[EpisodeStat], local: list[Trajectory], dropped: set[str], upd: dict[str, Any]
    ) -> dict[str, Any]:
        valid_items = [m for m in everything if m.valid]
        n = len(everything)
        row: dict[str, Any] = {
            "step": self.step,
            "trajectories": n,
            "masked_ratio": (n - len(valid_items)) / max(n, 1),
            "dropped_groups": len(dropped),
            "lr": self.scheduler.get_last_lr()[0],
        }
        row.update(per_env_means(valid_items, lambda m: m.reward, "reward"))
        row.update(per_env_means(valid_items, lambda m: float(m.success), "success"))
        if local:
            row["turns/mean"] = sum(t.dialogue.num_turns for t in local) / len(local)
            row["tool_calls/mean"] = sum(t.dialogue.num_tool_calls for t in local) / len(local)
            row["sampled_tokens/mean"] = sum(t.tokens.sampled_tokens() for t in local) / len(local)
            stops: dict[str, int] = defaultdict(int)
            for t in local:
                stops[str(t.dialogue.stop_reason) or "unknown"] += 1
            row.update({f"stop/{k}": v / len(local) for k, v in sorted(stops.items())})
        row.update(upd)
        return row

    # ---- evaluation, checkpoints, the run ----------------------------------------------------------
    def evaluate(self, which: str = "heldout", k: int | None = None, limit: int | None = None) -> dict[str, Any]:
        """Success and reward on the held-out (or training) tasks; `eval_temperature` 0 is greedy.

        `limit` keeps the first `limit` tasks of each environment's split (None: all of them).
        """
        if limit is not None and limit < 1:
            raise ValueError(f"evaluate: limit must be at least 1 or None, got {limit}")
        tasks = [t for e in self.entries for t in getattr(e, which)[:limit]]
        if not tasks:
            return {}
        k = k or self.config.eval_rollouts
        mine = D.shard(tasks, self.dist)
        trajs = self.rollout(mine, k, seed=self.config.seed * 31 + 1, temperature=self.config.eval_temperature)
        stats = [EpisodeStat.of(t) for t in trajs]
        allm: list[EpisodeStat] = [m for part in D.gather_objects(stats, self.dist) for m in part]
        row: dict[str, Any] = {"split": which, "episodes": len(allm)}
        row.update(per_env_means(allm, lambda m: float(m.success), "success"))
        row.update(per_env_means(allm, lambda m: m.reward, "reward"))
        return row

    def trainer_state(self) -> dict[str, Any]:
        return {
            "curriculum": self.curriculum.state_dict(),
            "scheduler": self.scheduler.state_dict(),
            "config": self.config.to_dict(),
        }

    def save(self) -> Path | None:
        """Checkpoint at the current step (rank 0 writes; every rank's RNG state is kept)."""
        rngs = D.gather_objects(capture_rng_state(), self.dist)
        sharded = D.is_sharded(self.wrapped, self.dist)
        weights = D.full_state_dict(self.wrapped, self.dist) if sharded else None
        opt_state = D.optimizer_state(self.wrapped, self.optimizer, self.dist)
        if not self.dist.is_main:
            return None
        return save_checkpoint(
            self.out,
            self.step,
            self.model,
            opt_state,
            self.trainer_state(),
            keep_last=self.config.keep_checkpoints,
            rng_states=rngs,
            state_dict=weights,
        )

    def run(self, max_steps: int | None = None) -> dict[str, Any]:
        """Train until `config.steps` (or `max_steps` more steps, to stop early); returns a summary."""
        with contextlib.ExitStack() as stack:
            if (self._user is None or self._judge is None) and needs_llm(self.config):
                from synth.llm import LLMConfig, open_client

                client = stack.enter_context(open_client(LLMConfig(**self.config.llm)))
            else:
                client = None
            self._make_user_and_judge(client)
            self.setup()
            return self._loop(max_steps)

    def _loop(self, max_steps: int | None) -> dict[str, Any]:
        cfg = self.config
        metrics_path, eval_path = self.out / "metrics.jsonl", self.out / "eval.jsonl"
        if self.dist.is_main:
            for path in (metrics_path, eval_path):
                truncate_rows(path, self.step)
        summary: dict[str, Any] = {"start_step": self.step}
        has_heldout = any(e.heldout for e in self.entries)
        if self.step == 0 and has_heldout:
            self._log_eval(eval_path, self.evaluate("heldout", limit=cfg.eval_max_tasks or None))
        end = cfg.steps if max_steps is None else min(cfg.steps, self.step + max_steps)
        runner = None
        if cfg.async_rl.enabled and self.step < end:  # rollout workers start with the first step
            from rl.async_rl.loop import AsyncRunner

            runner = AsyncRunner(self)
        try:
            while self.step < end:
                row = runner.train_step() if runner is not None else self.train_step()
                if self.dist.is_main:
                    write_rows(metrics_path, [row], append=True)
                self.log(short_row(row))
                if cfg.eval_every and self.step % cfg.eval_every == 0 and self.step < cfg.steps and has_heldout:
                    self._log_eval(eval_path, self.evaluate("heldout", limit=cfg.eval_max_tasks or None))
                if self.step % cfg.checkpoint_every == 0 or self.step == end:
                    self.save()
        finally:
            if runner is not None:  # in-flight episodes are dropped
                summary.update(runner.finish())
        if self.step >= cfg.steps:
            if has_heldout:
                self._log_eval(eval_path, {**self.evaluate("heldout", limit=cfg.eval_max_tasks or None), "final": True})
            self._save_pretrained(self.out / "final")
            if cfg.plots and self.dist.is_main:
                from rl.plots import plot_metrics

                summary["plots"] = [str(p) for p in plot_metrics(metrics_path, self.out / "plots")]
        summary["end_step"] = self.step
        D.barrier(self.dist)
        return summary

    def _log_eval(self, path: Path, row: dict[str, Any]) -> None:
        if not row:
            return
        row = {"step": self.step, **row}
        if self.dist.is_main:
            write_rows(path, [row], append=True)
        self.log("eval " + short_row(row))
