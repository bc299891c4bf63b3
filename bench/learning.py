"""CPU learning benchmark: SFT warm start on gold trajectories, then ERPO against GRPO, over several seeds.

For each seed: a tiny Llama (rl.tiny_model, size --size) with a tokenizer trained on the environments'
texts is measured before training, trained by SFT on the gold trajectories of the training tasks, then
trained by ERPO for --rl-steps steps; GRPO starts from the same SFT weights and runs the same number of
steps with the same task stream. Success (greedy, one episode per task) is measured on the held-out
tasks and on the training tasks: before SFT, after SFT, after RL. Results go to OUT/summary.json and
plots to OUT/*.png (and --plots-dir).

    python bench/learning.py --seeds 0 1 2 --out runs/bench_learning

By default the tasks are made for the benchmark from the committed environments (`--make-tasks N`: each
environment folder is copied under OUT/envs and `forgegym tasks --no-llm --max-size 3 --max-walk 2`
writes N short tasks, deterministic for the seed), so the figures do not depend on which tasks.jsonl
happens to be committed; `--make-tasks 0` uses the folders' own tasks.jsonl.
Minutes on 2 CPU cores per seed; not a CI test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rl.plots import read_metrics  # noqa: E402
from rl.train_config import config_from_dict  # noqa: E402
from rl.trainer import Trainer  # noqa: E402


SIZES = {
    "bench": {"hidden_size": 192, "num_hidden_layers": 3, "num_attention_heads": 4, "intermediate_size": 512},  # ~1.8M
    "bench-s": {"hidden_size": 128, "num_hidden_layers": 3, "num_attention_heads": 4, "intermediate_size": 352},  # ~1.1M
}


def model_size(name: str) -> Any:
    """A size name of rl.tiny_model ("test", "small") or of this benchmark ("bench", "bench-s")."""
    return SIZES.get(name, name)


def base_config(args, seed: int, out: Path, mode: str) -> dict[str, Any]:
    return {
        "envs": list(args.envs), "output_dir": str(out), "seed": seed, "steps": args.rl_steps,
        "tasks_per_step": args.tasks_per_step, "rollouts_per_task": args.k, "heldout_fraction": args.heldout,
        "eval_temperature": 0.0, "torch_threads": args.threads, "plots": False, "keep_checkpoints": 1,
        "checkpoint_every": max(1, args.rl_steps),
        "model": {"kind": "tiny", "tiny": {"size": model_size(args.size), "vocab_size": args.vocab}},
        "advantage": {"mode": mode, "drop_equal_groups": False},
        "loss": {"clip_low": 0.2, "clip_high": 0.28, "agg": "token-mean"},
        "optim": {"lr": args.rl_lr, "micro_batch_size": 8, "mini_batches": 2},
        "sft": {"steps": args.sft_steps, "lr": args.sft_lr, "batch_size": args.sft_batch},
        "curriculum": {"order": "pass_rate", "strategy": "uniform"},
        "rollout": {"max_turns": args.max_turns, "max_new_tokens": args.max_new_tokens, "temperature": 1.0,
                    "max_context_tokens": 4096, "max_batch": 32},
        "user": {"kind": "scripted"}, "judge": {"mode": "none"},
    }  # fmt: skip


def make_tasks(envs: list[str], out: Path, n: int) -> list[str]:
    """Copy each environment under out/envs and synthesize n short tasks there without an LLM."""
    made = []
    for env in envs:
        src = Path(env)
        dst = out / "envs" / src.name
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("tasks.jsonl", "tasks_dropped.jsonl", "graph.json"))
        cmd = [sys.executable, "-m", "synth.cli.main", "tasks", str(dst), "--n", str(n), "--no-llm", "--seed", "0",
               "--max-size", "3", "--max-walk", "2"]  # fmt: skip
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            raise SystemExit(f"task synthesis failed for {src}: {proc.stderr.strip()[-500:]}")
        print("   ", proc.stdout.strip().splitlines()[0], flush=True)
        made.append(str(dst))
    return made


def quiet(msg: str) -> None:
    if msg.startswith(("step=", "eval", "SFT", "resumed")):
        print("   ", msg, flush=True)


def measure(trainer: Trainer, heldout: bool = True) -> dict[str, float]:
    """Greedy success on the training tasks, and on the held-out tasks unless the trainer just measured them."""
    out = {"train": trainer.evaluate("train").get("success/mean", float("nan"))}
    if heldout:
        out["heldout"] = trainer.evaluate("heldout").get("success/mean", float("nan"))
    return out


def trainer_evals(run_dir: Path) -> tuple[float, float]:
    """Held-out success the trainer measured before its first step and after its last."""
    rows = [r for r in read_metrics(run_dir / "eval.jsonl") if r.get("split") == "heldout"]
    if not rows:  # no held-out tasks (--heldout 0)
        return float("nan"), float("nan")
    return rows[0]["success/mean"], rows[-1]["success/mean"]


def run_seed(args, seed: int) -> dict[str, Any]:
    root = Path(args.out) / f"seed{seed}"
    shutil.rmtree(root, ignore_errors=True)
    res: dict[str, Any] = {"seed": seed}
    # before any training: the random model
    t0 = time.perf_counter()
    cfg = base_config(args, seed, root / "erpo", "erpo")
    probe = Trainer(config_from_dict({**cfg, "sft": {"steps": 0}}), log=quiet)
    probe.setup()
    res["before_sft"] = {"heldout": probe.evaluate("heldout").get("success/mean", float("nan")),
                         "train": probe.evaluate("train").get("success/mean", float("nan")) if args.probe_train else float("nan")}
    res["params_m"] = round(sum(p.numel() for p in probe.model.parameters()) / 1e6, 2)
    del probe
    # ERPO run (does the SFT warm start itself and saves the SFT weights)
    erpo = Trainer(config_from_dict(cfg), log=quiet)
    erpo.setup()
    res["after_sft"] = measure(erpo, heldout=False)
    res["sft_s"] = round(time.perf_counter() - t0, 1)
    t1 = time.perf_counter()
    erpo._loop(None)
    res["erpo"] = measure(erpo, heldout=False)
    res["after_sft"]["heldout"], res["erpo"]["heldout"] = trainer_evals(root / "erpo")
    res["erpo_s"] = round(time.perf_counter() - t1, 1)
    # GRPO from the same SFT weights, same seed (same task stream), same number of steps
    gcfg = base_config(args, seed, root / "grpo", "grpo")
    gcfg["model"] = {"kind": "pretrained", "path": str(root / "erpo" / "sft_model")}
    gcfg["sft"] = {"steps": 0}
    t2 = time.perf_counter()
    grpo = Trainer(config_from_dict(gcfg), log=quiet)
    grpo.setup()
    grpo._loop(None)
    res["grpo"] = measure(grpo, heldout=False)
    res["grpo"]["heldout"] = trainer_evals(root / "grpo")[1]
    res["grpo_s"] = round(time.perf_counter() - t2, 1)
    for mode in ("erpo", "grpo"):
        rows = read_metrics(root / mode / "metrics.jsonl")
        res[f"{mode}_reward_curve"] = [r.get("reward/mean", 0.0) for r in rows]
        res[f"{mode}_success_curve"] = [r.get("success/mean", 0.0) for r in rows]
    res["sft_final_loss"] = read_metrics(root / "erpo" / "sft_metrics.jsonl")[-1]["sft_loss"]
    return res


def plot(results: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    fig, ax = plt.subplots(figsize=(6, 3.5))
    for mode, color in (("erpo", "tab:blue"), ("grpo", "tab:orange")):
        curves = [r[f"{mode}_success_curve"] for r in results]
        n = min(len(c) for c in curves)
        mean = [statistics.fmean(c[i] for c in curves) for i in range(n)]
        lo = [min(c[i] for c in curves) for i in range(n)]
        hi = [max(c[i] for c in curves) for i in range(n)]
        xs = list(range(1, n + 1))
        ax.plot(xs, mean, color=color, label=f"{mode} (mean of {len(curves)} seeds)")
        ax.fill_between(xs, lo, hi, color=color, alpha=0.2)
    ax.set_xlabel("RL step")
    ax.set_ylabel("training-batch success")
    ax.set_title("success of sampled episodes during RL")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    written.append(out_dir / "learning_curves.png")
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(8, 3.5), sharey=True)
    stages = ["before_sft", "after_sft", "erpo", "grpo"]
    for ax, split in zip(axes, ("train", "heldout")):
        means = [statistics.fmean(r[s][split] for r in results) for s in stages]  # nan: not measured
        xs = list(range(len(stages)))
        ax.bar(xs, [0.0 if m != m else m for m in means], color=["gray", "tab:green", "tab:blue", "tab:orange"])
        for i, s in enumerate(stages):
            ys = [r[s][split] for r in results if r[s][split] == r[s][split]]  # measured values only
            ax.scatter([i] * len(ys), ys, color="black", s=10, zorder=3)
            if not ys:
                ax.text(i, 0.02, "n/m", ha="center", fontsize=8)
        ax.set_xticks(xs, stages, fontsize=8)
        ax.set_title(f"{split} tasks (greedy)")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("success rate")
    fig.tight_layout()
    written.append(out_dir / "learning_success.png")
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)
    return written


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", nargs="+", default=["envs_generated/todo_api", "envs_generated/mcp_memory"])
    ap.add_argument("--make-tasks", type=int, default=12, help="tasks to synthesize per environment (0: use tasks.jsonl)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--out", default="runs/bench_learning")
    ap.add_argument("--plots-dir", default="")
    ap.add_argument("--size", default="bench")
    ap.add_argument("--vocab", type=int, default=2048)
    ap.add_argument("--heldout", type=float, default=0.25)
    ap.add_argument("--sft-steps", type=int, default=50)
    ap.add_argument("--sft-lr", type=float, default=3e-3)
    ap.add_argument("--sft-batch", type=int, default=4)
    ap.add_argument("--rl-steps", type=int, default=6)
    ap.add_argument("--rl-lr", type=float, default=3e-4)
    ap.add_argument("--tasks-per-step", type=int, default=4)
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--max-turns", type=int, default=4)
    ap.add_argument("--max-new-tokens", type=int, default=80)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--probe-train", action="store_true", help="also measure the random model on the training tasks")
    ap.add_argument("--merge", nargs="+", default=[], help="only combine the summary.json of earlier runs (one seed each)")
    args = ap.parse_args()
    started = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = []
    if args.merge:  # seeds run as separate processes (in parallel), combined here
        for d in args.merge:
            results.extend(json.loads((Path(d) / "summary.json").read_text())["results"])
    else:
        if args.make_tasks:
            args.envs = make_tasks(args.envs, out, args.make_tasks)
        for seed in args.seeds:
            print(f"seed {seed}", flush=True)
            results.append(run_seed(args, seed))
            print(json.dumps({k: v for k, v in results[-1].items() if not k.endswith("_curve")}), flush=True)
    summary = {"args": vars(args), "results": results, "wall_s": round(time.perf_counter() - started, 1)}
    for stage in ("before_sft", "after_sft", "erpo", "grpo"):
        for split in ("train", "heldout"):
            summary[f"mean/{stage}/{split}"] = statistics.fmean(r[stage][split] for r in results)
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True))
    files = plot(results, Path(args.plots_dir) if args.plots_dir else out)
    print(json.dumps({k: v for k, v in summary.items() if k.startswith("mean/")}, indent=1))
    print("plots:", ", ".join(str(f) for f in files), f"wall {summary['wall_s']} s")


if __name__ == "__main__":
    main()
