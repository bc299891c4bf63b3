"""The SFT warm start: gold episodes of the training tasks, rendered with rollout masks, then SFT on them.

A killed warm start resumes from its saved state (`sft.save_every`); a finished one is reused when its settings and
rows match (rl/sft_state.py).
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from typing import TYPE_CHECKING, Any

from rl.plots import read_metrics
from rl.rollout import render_gold_trajectory
from rl.sft import sft_train, training_rows
from rl.sft_state import fingerprint
from rl.train_log import write_rows
from rl.trainer_setup import load_policy, weight_dtype
from rl.types import Trajectory
from synth.fsio import write_json_atomic

if TYPE_CHECKING:
    from rl.trainer import Trainer


def gold_trajectories(trainer: Trainer, which: str = "train", limit: int | None = None) -> list[Trajectory]:
    """Gold episodes of the tasks (the first `limit` of each environment's split), rendered with rollout masks."""
    out = []
    for e in trainer.entries:
        for task in getattr(e, which)[:limit]:
            room = len(task.gold_actions) + 2  # the gold episode must fit: one call a turn, then the answer
            cfg = dataclasses.replace(
                trainer.rollout_cfg,
                max_turns=max(trainer.rollout_cfg.max_turns, room),
                max_tool_calls=max(trainer.rollout_cfg.max_tool_calls, room),
            )
            traj = render_gold_trajectory(trainer.tokenizer, task, [], cfg, env=str(e.env_dir))
            if traj.reward < 1.0:  # a gold episode the verifier rejects would teach the wrong thing
                trainer.log(
                    f"SFT: skipping {task.task_id}: its gold episode scores {traj.reward} ({traj.dialogue.stop_reason})"
                )
                continue
            out.append(traj)
    return out


def warm_start(trainer: Trainer) -> list[dict[str, Any]]:
    """SFT on the gold trajectories of the training tasks; resumes a killed warm start, reuses a finished one."""
    s = trainer.config.sft
    gold = trainer.gold_trajectories("train")
    meta = fingerprint(
        steps=s.steps,
        lr=s.lr,
        batch_size=s.batch_size,
        seed=trainer.config.seed,
        schedule=s.schedule,
        rows=training_rows(gold),
    )
    done, model_dir, state_dir = trainer.out / "sft_done.json", trainer.out / "sft_model", trainer.out / "sft_state"
    if done.exists() and json.loads(done.read_text()) == meta and (model_dir / "config.json").exists():
        trainer.log(f"SFT warm start: reusing the finished one in {model_dir}")
        finished, _ = load_policy(model_dir, trainer.device, weight_dtype(trainer.config.model.dtype))
        trainer.model.load_state_dict(finished.state_dict())
        return read_metrics(trainer.out / "sft_metrics.jsonl")
    trainer.log(f"SFT warm start: {len(gold)} gold trajectories, {s.steps} steps")
    every = s.save_every if s.save_every > 0 else 50

    def progress(row: dict[str, Any]) -> None:
        if (row["sft_step"] + 1) % every == 0 or row["sft_step"] + 1 == s.steps:
            trainer.log(
                f"SFT step {row['sft_step'] + 1}/{s.steps} loss={row['sft_loss']:.4g} "
                f"token_acc={row['sft_token_acc']:.3f}"
            )

    rows = sft_train(
        trainer.model,
        gold,
        steps=s.steps,
        lr=s.lr,
        batch_size=s.batch_size,
        pad_id=trainer.pad_id,
        seed=trainer.config.seed,
        weight_decay=s.weight_decay,
        grad_clip=s.grad_clip,
        micro_batch_size=trainer.config.optim.micro_batch_size,
        device=trainer.device,
        autocast_dtype=trainer.amp_dtype,
        schedule=s.schedule,
        log=progress,
        state_dir=state_dir,
        save_every=s.save_every,
        save_state=trainer.dist.is_main,
    )
    if trainer.dist.is_main:
        write_rows(trainer.out / "sft_metrics.jsonl", rows)
    trainer._save_pretrained(model_dir)
    if trainer.dist.is_main:
        write_json_atomic(done, meta)
        shutil.rmtree(state_dir, ignore_errors=True)
    return rows
