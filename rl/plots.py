"""metrics.jsonl in, PNG curves out (matplotlib, no display)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synth.fsio import atomic_path

# Curves drawn at the end of training: (file stem, title, metric-name prefixes or names)
PANELS = [
    ("reward", "reward (mean over valid trajectories)", ["reward/mean", "reward/"]),
    ("success", "success rate", ["success/mean", "success/"]),
    ("loss", "policy loss", ["loss"]),
    ("clip_frac", "clip fraction", ["clip_frac"]),
    ("kl", "approximate KL to the sampler / reference", ["approx_kl", "ref_kl"]),
    ("entropy", "token entropy", ["entropy"]),
    ("masked_ratio", "masked (user error) ratio", ["masked_ratio"]),
    ("dropped_groups", "dropped equal-reward groups", ["dropped_groups"]),
    ("throughput", "tokens / s", ["tokens_per_s/"]),
]


def read_metrics(path: str | Path) -> list[dict[str, Any]]:
    """Rows of a metrics.jsonl file (an absent file has none)."""
    p = Path(path)
    if not p.exists():
        return []
    return [json.loads(line) for line in p.read_text().splitlines() if line.strip()]


def _series(rows: list[dict[str, Any]], keys: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    names: list[str] = []
    for row in rows:
        for k, v in row.items():
            if isinstance(v, (int, float)) and any(k == p or (p.endswith("/") and k.startswith(p)) for p in keys):
                if k not in names:
                    names.append(k)
    out = {}
    for name in names:
        xs = [r["step"] for r in rows if isinstance(r.get(name), (int, float))]
        ys = [float(r[name]) for r in rows if isinstance(r.get(name), (int, float))]
        out[name] = (xs, ys)
    return out


def plot_metrics(metrics_path: str | Path, out_dir: str | Path) -> list[Path]:
    """One PNG per panel that has data; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_metrics(metrics_path)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for stem, title, keys in PANELS:
        series = _series(rows, keys)
        if not series:
            continue
        fig, ax = plt.subplots(figsize=(6, 3.5))
        for name, (xs, ys) in series.items():
            ax.plot(xs, ys, marker="." if len(xs) < 40 else None, label=name)
        ax.set_title(title)
        ax.set_xlabel("step")
        ax.grid(alpha=0.3)
        if len(series) > 1:
            ax.legend(fontsize=7)
        fig.tight_layout()
        target = out / f"{stem}.png"
        with atomic_path(target) as tmp:
            fig.savefig(tmp, dpi=100, format="png")
        plt.close(fig)
        written.append(target)
    return written
