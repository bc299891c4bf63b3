"""The trainer's log files and rows: JSON-line metrics (appended, or rewritten atomically), their truncation on
resume, per-environment means, and the short form printed to the console."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Callable

from synth.fsio import write_text_atomic

# Metric names that depend on wall-clock time (everything else is reproducible bit for bit).
TIMING_PREFIXES = ("time/", "tokens_per_s/")


def per_env_means(items: Sequence[Any], value: Callable[[Any], float], prefix: str) -> dict[str, float]:
    """`prefix/mean` over all items (trajectories or EpisodeStats), and `prefix/<env_id>` per environment."""
    if not items:
        return {}
    groups: dict[str, list[float]] = defaultdict(list)
    for t in items:
        groups[t.env_id].append(value(t))
    out = {f"{prefix}/mean": sum(value(t) for t in items) / len(items)}
    out.update({f"{prefix}/{env}": sum(v) / len(v) for env, v in sorted(groups.items())})
    return out


def quiet_transformers() -> None:
    """No progress bars or deprecation chatter from transformers in training logs."""
    try:
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()
        hf_logging.set_verbosity_error()
    except ImportError:
        pass


def warmup(steps: int) -> Callable[[int], float]:
    """Linear learning-rate warm-up over `steps` optimizer steps, then constant."""
    return lambda s: min(1.0, (s + 1) / steps) if steps > 0 else 1.0


def short_row(row: dict[str, Any]) -> str:
    keys = ("step", "split", "reward/mean", "success/mean", "loss", "entropy", "masked_ratio", "dropped_groups")
    return " ".join(f"{k}={row[k]:.4g}" if isinstance(row[k], float) else f"{k}={row[k]}" for k in keys if k in row)


def write_rows(path: Path, rows: list[dict[str, Any]], append: bool = False) -> None:
    """Append (or write) JSON lines; a rewrite goes through a temporary file."""
    text = "".join(json.dumps(r, sort_keys=True) + "\n" for r in rows)
    if append:
        with path.open("a") as f:
            f.write(text)
        return
    write_text_atomic(path, text)


def truncate_rows(path: Path, step: int) -> None:
    """Keep the rows a resumed run will not write again: steps up to `step`, final evaluations dropped.

    A fresh run (step 0) starts with empty files.
    """
    if not path.exists():
        return
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    keep = [r for r in rows if step > 0 and r.get("step", 0) <= step and not r.get("final")]
    write_rows(path, keep)
