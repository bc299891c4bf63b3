"""Resumable SFT: the loop's whole state in one file, written atomically every few steps.

A killed warm start reruns from its last saved step with the same batches, learning rates and metrics
rows as an uninterrupted run (the batch order is a seeded shuffle whose position is saved with it).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import torch

from synth.fsio import atomic_path

STATE_FILE = "sft_state.pt"


def fingerprint(
    *,
    steps: int,
    lr: float,
    batch_size: int,
    seed: int,
    schedule: str,
    rows: list[tuple[list[int], list[int], list[float]]],
) -> dict[str, Any]:
    """What a saved state must agree on to be resumed: the settings that shape the batches and the schedule,
    and the training rows themselves (their count and a digest of their tokens and masks)."""
    digest = hashlib.sha256()
    for ids, mask, _ in rows:
        digest.update(json.dumps([ids, mask], separators=(",", ":")).encode())
    return {
        "steps": steps,
        "lr": lr,
        "batch_size": batch_size,
        "seed": seed,
        "schedule": schedule,
        "rows": len(rows),
        "data_sha256": digest.hexdigest(),
    }


def save_sft_state(
    folder: Path,
    *,
    step: int,
    model: torch.nn.Module,
    opt: torch.optim.Optimizer,
    sched: Any,
    rng: random.Random,
    order: list[int],
    rows: list[dict[str, Any]],
    meta: dict[str, Any],
) -> Path:
    """Write the state after `step` (0-based, done) to folder/sft_state.pt through a temporary file."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / STATE_FILE
    with atomic_path(path) as tmp:
        torch.save(
            {
                "step": step,
                "model": model.state_dict(),
                "optimizer": opt.state_dict(),
                "scheduler": sched.state_dict(),
                "rng": rng.getstate(),
                "torch_rng": torch.get_rng_state(),
                "order": list(order),
                "rows": rows,
                "meta": meta,
            },
            tmp,
        )
    return path


def load_sft_state(folder: Path, meta: dict[str, Any]) -> dict[str, Any] | None:
    """The saved state under `folder`, or None when there is none; a state of other settings is an error."""
    path = folder / STATE_FILE
    if not path.exists():
        return None
    state = torch.load(path, map_location="cpu", weights_only=False)
    if state.get("meta") != meta:
        raise ValueError(
            f"{path}: saved for SFT settings {state.get('meta')}, this run has {meta}; "
            "delete the file to start the warm start over"
        )
    return state


def restore_sft_state(
    state: dict[str, Any], model: torch.nn.Module, opt: torch.optim.Optimizer, sched: Any, rng: random.Random
) -> tuple[int, list[int], list[dict[str, Any]]]:
    """Load a saved state into the live objects; returns (next step, shuffle order left, metrics rows so far)."""
    model.load_state_dict(state["model"])
    opt.load_state_dict(state["optimizer"])
    sched.load_state_dict(state["scheduler"])
    rng.setstate(state["rng"])
    torch.set_rng_state(state["torch_rng"])
    return state["step"] + 1, list(state["order"]), list(state["rows"])
