"""Checkpoints that resume exactly: weights, optimizer, RNG states, step and data position.

Layout of `<run>/checkpoints/step_000042/`:
  model.safetensors   the policy's weights (fp32 master copy)
  optimizer.pt        optimizer state_dict (loads with weights_only=True)
  rng_state.json      python / numpy / torch (CPU and CUDA) generator states
  trainer_state.json  step, curriculum position, anything else the trainer needs (canonical JSON)
Each checkpoint is written to a temporary folder and renamed into place; `<run>/checkpoints/latest`
names the newest complete one.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_model, save_model

from synth.fsio import staged_folder, write_text_atomic

LATEST = "latest"


def checkpoint_name(step: int) -> str:
    return f"step_{step:06d}"


def capture_rng_state() -> dict[str, Any]:
    """Every generator the trainer draws from, as JSON-able values."""
    state: dict[str, Any] = {
        "python": _to_jsonable(random.getstate()),
        "torch": torch.get_rng_state().tolist(),
    }
    if torch.cuda.is_available():
        state["cuda"] = [s.tolist() for s in torch.cuda.get_rng_state_all()]
    try:
        import numpy as np

        kind, keys, pos, has_gauss, gauss = np.random.get_state()
        state["numpy"] = [kind, keys.tolist(), int(pos), int(has_gauss), float(gauss)]
    except ImportError:  # numpy is optional
        pass
    return state


def restore_rng_state(state: dict[str, Any]) -> None:
    """Inverse of `capture_rng_state`."""
    random.setstate(_to_tuple(state["python"]))
    torch.set_rng_state(torch.tensor(state["torch"], dtype=torch.uint8))
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all([torch.tensor(s, dtype=torch.uint8) for s in state["cuda"]])
    if "numpy" in state:
        import numpy as np

        kind, keys, pos, has_gauss, gauss = state["numpy"]
        np.random.set_state((kind, np.array(keys, dtype=np.uint32), pos, has_gauss, gauss))


def save_checkpoint(
    run_dir: str | Path,
    step: int,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer | dict[str, Any] | None,
    trainer_state: dict[str, Any],
    keep_last: int | None = None,
    rng_states: list[dict[str, Any]] | None = None,
    state_dict: dict[str, torch.Tensor] | None = None,
) -> Path:
    """Write checkpoint `step` atomically, point `latest` at it, prune to `keep_last`; return its folder.

    `optimizer` is an optimizer or its (full) state dict; `rng_states` one state per rank (default: this
    process's); `state_dict` the full weights when `model` is sharded (FSDP).
    """
    root = Path(run_dir) / "checkpoints"
    root.mkdir(parents=True, exist_ok=True)
    final = root / checkpoint_name(step)
    with staged_folder(final) as tmp:
        if state_dict is None:
            save_model(_unwrap(model), str(tmp / "model.safetensors"))
        else:
            _save_state_dict(state_dict, tmp / "model.safetensors")
        if optimizer is not None:
            opt_state = optimizer.state_dict() if isinstance(optimizer, torch.optim.Optimizer) else optimizer
            torch.save(opt_state, tmp / "optimizer.pt")
        for rank, rng in enumerate(rng_states or [capture_rng_state()]):
            _write_json(tmp / rng_file(rank), rng)
        _write_json(tmp / "trainer_state.json", {**trainer_state, "step": step})
    write_text_atomic(root / LATEST, final.name + "\n")
    if keep_last:
        done = sorted(p for p in root.iterdir() if p.is_dir() and p.name.startswith("step_"))
        for p in done[:-keep_last]:
            shutil.rmtree(p)
    return final


def latest_checkpoint(run_dir: str | Path) -> Path | None:
    """The newest complete checkpoint of a run, or None."""
    root = Path(run_dir) / "checkpoints"
    pointer = root / LATEST
    if pointer.exists():
        path = root / pointer.read_text().strip()
        if (path / "trainer_state.json").exists():
            return path
    done = sorted(p for p in root.glob("step_*") if (p / "trainer_state.json").exists()) if root.exists() else []
    return done[-1] if done else None


def rng_file(rank: int) -> str:
    return "rng_state.json" if rank == 0 else f"rng_state_rank{rank}.json"


def load_rng(ckpt_dir: str | Path, rank: int = 0) -> None:
    """Restore this rank's generators from a checkpoint."""
    restore_rng_state(json.loads((Path(ckpt_dir) / rng_file(rank)).read_text()))


def load_optimizer_state(ckpt_dir: str | Path) -> dict[str, Any] | None:
    """The saved optimizer state dict (None when the checkpoint has none)."""
    path = Path(ckpt_dir) / "optimizer.pt"
    return torch.load(path, weights_only=True) if path.exists() else None


def load_checkpoint(
    ckpt_dir: str | Path,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer | None = None,
    restore_rng: bool = True,
    rank: int = 0,
) -> dict[str, Any]:
    """Load weights (and optimizer, this rank's RNG states) in place; return the trainer state."""
    ckpt = Path(ckpt_dir)
    missing, unexpected = load_model(_unwrap(model), str(ckpt / "model.safetensors"), strict=False)
    if unexpected or any(not _is_tied_alias(_unwrap(model), k) for k in missing):
        raise RuntimeError(
            f"{ckpt / 'model.safetensors'}: weights do not match the model (missing {missing}, unexpected {unexpected})"
        )
    if optimizer is not None and (ckpt / "optimizer.pt").exists():
        optimizer.load_state_dict(load_optimizer_state(ckpt))
    if restore_rng:
        load_rng(ckpt, rank)
    return json.loads((ckpt / "trainer_state.json").read_text())


def _save_state_dict(state: dict[str, torch.Tensor], path: Path) -> None:
    """save_file for a plain state dict: one copy of tied tensors, contiguous CPU tensors."""
    from safetensors.torch import save_file

    seen: set[int] = set()
    out = {}
    for name, t in state.items():
        ptr = t.data_ptr()
        if ptr in seen:
            continue
        seen.add(ptr)
        out[name] = t.detach().to("cpu").contiguous()
    save_file(out, str(path))


def _unwrap(model: torch.nn.Module) -> torch.nn.Module:
    """The bare module inside DDP wrappers."""
    return getattr(model, "module", model)


def _is_tied_alias(model: torch.nn.Module, key: str) -> bool:
    """save_model drops one name of each tied pair; the other name loads it."""
    tensors = dict(model.state_dict())
    t = tensors.get(key)
    return t is not None and any(k != key and v.data_ptr() == t.data_ptr() for k, v in tensors.items())


def _to_jsonable(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_to_jsonable(v) for v in x]
    return x


def _to_tuple(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_to_tuple(v) for v in x)
    return x


def _write_json(path: Path, obj: Any) -> None:
    write_text_atomic(path, json.dumps(obj, sort_keys=True, separators=(",", ":")))
