"""CPU learning benchmark: one SFT warm start on gold trajectories, then ERPO against GRPO over several seeds.

1. Tasks: each committed environment is copied under OUT/envs and `forgegym tasks --no-llm --max-size 3
   --max-walk 2` writes --make-tasks short tasks there (deterministic; `--make-tasks 0` uses the folders'
   own tasks.jsonl). The trainer holds out --heldout of each environment's tasks (seeded hash split).
2. SFT (once, shared by every seed and mode; OUT/sft): a random Llama from rl.tiny_model (--size) with a
   byte-level BPE trained on the environments' texts, digits split, is measured (greedy success on the
   training and held-out tasks), trained by SFT on the gold trajectories of the training tasks, measured again.
   --base-model DIR starts from a pretrained Hugging Face model folder (with its tokenizer) instead, for
   example SmolLM2-135M on a GPU machine: a model that already reads and copies text.
3. RL (OUT/<mode>_seed<k>): for each seed and mode, --rl-steps steps from the SFT weights, K episodes per
   task at --rl-temperature, scripted user, --loss-agg aggregation; ERPO and GRPO see the same task stream
   for a seed. Greedy success on both splits after the last step. --rl-lora-rank R trains rank-R LoRA
   adapters instead of every weight (for a pretrained --base-model). --rl-tasks N trains RL on the first N
   training tasks of each environment only, and measures the SFT policy on them before the first step.
Every phase writes its result file and is skipped on a rerun; an RL run stopped before its result file
resumes from its latest checkpoint (--checkpoint-every), and a rerun with a smaller --rl-steps ends it there.
Seeds and modes can run as parallel processes on the same OUT and be combined with --merge:

    python -m bench.learning --sft-only --threads 2                     # the shared SFT
    python -m bench.learning --modes erpo & python -m bench.learning --modes grpo & wait
    python -m bench.learning --merge --plots-dir docs/img/learning       # summary.json and plots

Tens of minutes on 2 CPU cores; not a CI test.
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

from rl.curriculum import STRATEGIES
from rl.erpo import ADVANTAGE_MODES, AGGREGATIONS
from rl.plots import read_metrics
from rl.train_config import config_from_dict
from rl.trainer import Trainer
from synth.fsio import write_json_atomic

ROOT = Path(__file__).resolve().parents[1]


SIZES = {
    "bench": {"hidden_size": 192, "num_hidden_layers": 3, "num_attention_heads": 4, "intermediate_size": 512},  # ~1.8M
    "bench-s": {
        "hidden_size": 128,
        "num_hidden_layers": 3,
        "num_attention_heads": 4,
        "intermediate_size": 352,
    },  # ~1.1M
}


def model_size(name: str) -> Any:
    """A size name of rl.tiny_model ("test", "small") or of this benchmark ("bench", "bench-s")."""
    return SIZES.get(name, name)


def base_config(args, seed: int, out: Path, mode: str) -> dict[str, Any]:
    return {
        "envs": list(args.envs),
        "output_dir": str(out),
        "seed": seed,
        "steps": args.rl_steps,
        "tasks_per_step": args.tasks_per_step,
        "rollouts_per_task": args.k,
        "heldout_fraction": args.heldout,
        "split_seed": args.sft_seed,  # one train/held-out split for the SFT and every RL seed
        "eval_temperature": 0.0,
        "eval_max_tasks": args.eval_tasks,
        "torch_threads": args.threads,
        "plots": False,
        "keep_checkpoints": 1,
        "checkpoint_every": args.checkpoint_every or max(1, args.rl_steps),
        "model": (
            {"kind": "pretrained", "path": args.base_model}
            if args.base_model
            else {
                "kind": "tiny",
                "tiny": {"size": model_size(args.size), "vocab_size": args.vocab, "split_digits": True},
            }
        ),
        "advantage": {"mode": mode, "drop_equal_groups": False},
        "loss": {"clip_low": 0.2, "clip_high": 0.28, "agg": args.loss_agg},
        "optim": {
            "lr": args.rl_lr,
            "micro_batch_size": args.micro_batch,
            "mini_batches": args.mini_batches,
            "warmup_steps": args.rl_warmup,
        },
        "sft": {"steps": args.sft_steps, "lr": args.sft_lr, "batch_size": args.sft_batch, "schedule": "cosine"},
        "curriculum": {"order": "pass_rate", "strategy": args.curriculum},
        "rollout": {
            "max_turns": args.max_turns,
            "max_new_tokens": args.max_new_tokens,
            "temperature": args.rl_temperature,
            "max_context_tokens": 4096,
            "max_batch": 32,
        },
        "user": {"kind": "scripted"},
        "judge": {"mode": "none"},
    }


def policy_config(out: Path, model: str, run_dir: Path, seed: int = 0, **options: Any) -> dict[str, Any]:
    """Config of a trainer that loads `model` (no SFT, no resume) on OUT's environments with learning.py's split.

    `options` set learning.py arguments (heldout, sft_seed, max_turns, ...) on top of its defaults.
    """
    ns = build_parser().parse_args([])
    ns.envs = [str(p) for p in sorted((out / "envs").iterdir()) if (p / "tasks.jsonl").exists()]
    for name, value in options.items():
        setattr(ns, name, value)
    cfg = base_config(ns, seed, run_dir, "erpo")
    cfg.update({"model": {"kind": "pretrained", "path": str(model)}, "sft": {"steps": 0}, "resume": False})
    return cfg


def made_envs(envs: list[str], out: Path, n: int) -> list[str]:
    """Copy each environment under out/envs and synthesize n short tasks there without an LLM (once)."""
    made = []
    for env in envs:
        src = Path(env)
        dst = out / "envs" / src.name
        if (dst / "tasks.jsonl").exists():
            made.append(str(dst))
            continue
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(src, dst, ignore=shutil.ignore_patterns("tasks.jsonl", "tasks_dropped.jsonl", "graph.json"))
        cmd = [
            sys.executable,
            "-m",
            "synth.cli.main",
            "tasks",
            str(dst),
            "--n",
            str(n),
            "--no-llm",
            "--seed",
            "0",
            "--max-size",
            "3",
            "--max-walk",
            "2",
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
        if proc.returncode != 0:
            raise SystemExit(f"task synthesis failed for {src}: {proc.stderr.strip()[-500:]}")
        print("   ", proc.stdout.strip().splitlines()[0], flush=True)
        made.append(str(dst))
    return made


def quiet(msg: str) -> None:
    if msg.startswith(("step=", "eval", "SFT", "resumed")):
        print("   ", msg, flush=True)


def measure(trainer: Trainer, heldout: bool = True, limit: int = 0) -> dict[str, float]:
    """Greedy success on the training tasks, and on the held-out tasks unless the trainer just measured them.

    `limit` > 0 measures only the first `limit` tasks of each environment's split.
    """
    cap = limit or None
    out = {"train": trainer.evaluate("train", limit=cap).get("success/mean", float("nan"))}
    if heldout:
        out["heldout"] = trainer.evaluate("heldout", limit=cap).get("success/mean", float("nan"))
    return out


def trainer_evals(run_dir: Path) -> tuple[float, float]:
    """Held-out success the trainer measured before its first step and after its last."""
    rows = [r for r in read_metrics(run_dir / "eval.jsonl") if r.get("split") == "heldout"]
    if not rows:  # no held-out tasks (--heldout 0)
        return float("nan"), float("nan")
    return rows[0]["success/mean"], rows[-1]["success/mean"]


def sft_phase(args) -> dict[str, Any]:
    """One SFT warm start shared by every seed and mode: random model measured, SFT, SFT model measured.

    Skipped when OUT/sft/summary.json exists (a rerun or a parallel RL process reuses it). A killed phase
    resumes: the random model's measurement is kept in before_sft.json, the warm start from its saved state.
    """
    root = Path(args.out) / "sft"
    done = root / "summary.json"
    if done.exists():
        return json.loads(done.read_text())
    t0 = time.perf_counter()
    cfg = base_config(args, args.sft_seed, root, "erpo")
    before = root / "before_sft.json"
    if not before.exists():
        probe = Trainer(config_from_dict({**cfg, "sft": {"steps": 0}}), log=quiet)
        probe.setup()
        write_json_atomic(
            before,
            {
                "before_sft": measure(probe, limit=args.eval_tasks),
                "params_m": round(sum(p.numel() for p in probe.model.parameters()) / 1e6, 2),
                "tasks": {
                    "train": sum(len(e.train) for e in probe.entries),
                    "heldout": sum(len(e.heldout) for e in probe.entries),
                },
            },
        )
        del probe
    res: dict[str, Any] = {"seed": args.sft_seed, **json.loads(before.read_text())}
    t1 = time.perf_counter()
    sft = Trainer(config_from_dict(cfg), log=quiet)
    sft.setup()  # runs the warm start and saves OUT/sft/sft_model
    res["sft_s"] = round(time.perf_counter() - t1, 1)
    res["after_sft"] = measure(sft, limit=args.eval_tasks)
    rows = read_metrics(root / "sft_metrics.jsonl")
    res["sft_loss_curve"] = [r["sft_loss"] for r in rows]
    res["sft_token_acc_curve"] = [r["sft_token_acc"] for r in rows]
    res["phase_s"] = round(time.perf_counter() - t0, 1)
    write_json_atomic(done, res)  # a killed run leaves no half-written result behind
    return res


def rl_run(args, seed: int, mode: str) -> dict[str, Any]:
    """`mode` ("erpo" or "grpo") from the shared SFT weights for --rl-steps steps; success before/after."""
    root = Path(args.out) / f"{mode}_seed{seed}"
    done = root / "result.json"
    if done.exists():
        return json.loads(done.read_text())
    cfg = base_config(args, seed, root, mode)
    cfg["model"] = {"kind": "pretrained", "path": str(Path(args.out) / "sft" / "sft_model")}
    cfg["sft"] = {"steps": 0}
    cfg["max_train_tasks"] = args.rl_tasks
    if args.rl_lora_rank:
        cfg["lora"] = {"rank": args.rl_lora_rank, "alpha": args.rl_lora_alpha}
    t0 = time.perf_counter()
    trainer = Trainer(config_from_dict(cfg), log=quiet)
    trainer.setup()
    res: dict[str, Any] = {
        "seed": seed,
        "mode": mode,
        "rl_lr": args.rl_lr,
        "rl_temperature": args.rl_temperature,
        "loss_agg": args.loss_agg,
        "lora_rank": args.rl_lora_rank,
    }
    if args.rl_tasks:  # the SFT policy on the RL task subset (the SFT summary measured all training tasks)
        before = root / "before.json"  # kept, so a resumed run (its model is a checkpoint) does not measure again
        if not before.exists():
            if trainer.step:
                raise SystemExit(
                    f"{root}: resumed at step {trainer.step} but before.json is missing; delete the folder"
                )
            write_json_atomic(before, measure(trainer, heldout=False, limit=args.eval_tasks))
        res["before"] = json.loads(before.read_text())
    trainer._loop(None)  # evaluates the held-out tasks before the first step and after the last
    res["after"] = measure(trainer, heldout=False, limit=args.eval_tasks)
    res["after"]["heldout"] = trainer_evals(root)[1]
    rows = read_metrics(root / "metrics.jsonl")
    res["reward_curve"] = [r.get("reward/mean", 0.0) for r in rows]
    res["success_curve"] = [r.get("success/mean", 0.0) for r in rows]
    res["wall_s"] = round(time.perf_counter() - t0, 1)
    write_json_atomic(done, res)  # a killed run leaves no half-written result behind
    return res


MODE_COLORS = {"erpo": "tab:blue", "grpo": "tab:orange", "reinforce++": "tab:red"}


def modes_of(runs: list[dict[str, Any]]) -> list[str]:
    """The advantage modes that have results, in a fixed order."""
    present = {r["mode"] for r in runs}
    return [m for m in MODE_COLORS if m in present] + sorted(present - set(MODE_COLORS))


def plot(sft: dict[str, Any], runs: list[dict[str, Any]], out_dir: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    axes[0].plot(range(1, len(sft["sft_loss_curve"]) + 1), sft["sft_loss_curve"], color="tab:green")
    axes[0].set_xlabel("SFT step")
    axes[0].set_ylabel("loss on agent tokens")
    axes[0].set_yscale("log")
    axes[0].set_title("SFT warm start")
    axes[0].grid(alpha=0.3)
    ax = axes[1]
    for mode in modes_of(runs):
        curves = [r["success_curve"] for r in runs if r["mode"] == mode]
        color = MODE_COLORS.get(mode, "tab:purple")
        n = min(len(c) for c in curves)
        mean = [statistics.fmean(c[i] for c in curves) for i in range(n)]
        xs = list(range(1, n + 1))
        ax.plot(xs, mean, color=color, label=f"{mode} (mean of {len(curves)} seeds)")
        ax.fill_between(
            xs,
            [min(c[i] for c in curves) for i in range(n)],
            [max(c[i] for c in curves) for i in range(n)],
            color=color,
            alpha=0.2,
        )
    ax.set_xlabel("RL step")
    ax.set_ylabel("success of sampled episodes")
    ax.set_title("RL from the SFT weights (min-max band)")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    written.append(out_dir / "learning_curves.png")
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(8, 3.5), sharey=True)
    modes = modes_of(runs)
    stages = ["before SFT", "after SFT"] + [m.upper() for m in modes]
    colors = ["gray", "tab:green"] + [MODE_COLORS.get(m, "tab:purple") for m in modes]
    for ax, split in zip(axes, ("train", "heldout")):
        after_sft = sft_train_baseline(sft, runs) if split == "train" else sft["after_sft"][split]
        values = [[sft["before_sft"][split]], [after_sft]]
        values += [[r["after"][split] for r in runs if r["mode"] == m] for m in modes]
        xs = list(range(len(stages)))
        ax.bar(xs, [statistics.fmean(v) for v in values], color=colors)
        for i, v in enumerate(values):
            ax.scatter([i] * len(v), v, color="black", s=10, zorder=3)
        ax.set_xticks(xs, stages, fontsize=8)
        subset = split == "train" and any("before" in r for r in runs)
        ax.set_title("RL's training tasks (greedy)" if subset else f"{split} tasks (greedy)")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("success rate")
    fig.tight_layout()
    written.append(out_dir / "learning_success.png")
    fig.savefig(written[-1], dpi=100)
    plt.close(fig)
    return written


def sft_train_baseline(sft: dict[str, Any], runs: list[dict[str, Any]]) -> float:
    """Greedy success of the SFT policy on the tasks RL trained on (a subset when --rl-tasks was given)."""
    before = [r["before"]["train"] for r in runs if "before" in r]
    return statistics.fmean(before) if before else sft["after_sft"]["train"]


def summarize(sft: dict[str, Any], runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Means over seeds per mode and split, next to the shared before/after-SFT figures."""
    out: dict[str, Any] = {}
    for split in ("train", "heldout"):
        out[f"before_sft/{split}"] = sft["before_sft"][split]
        out[f"after_sft/{split}"] = sft["after_sft"][split]
    out["after_sft/rl_tasks"] = sft_train_baseline(sft, runs)
    for split in ("train", "heldout"):
        for mode in modes_of(runs):
            vals = [r["after"][split] for r in runs if r["mode"] == mode]
            out[f"{mode}/{split}/mean"] = statistics.fmean(vals)
            out[f"{mode}/{split}/seeds"] = vals
    for mode in modes_of(runs):
        curves = [r["success_curve"] for r in runs if r["mode"] == mode]
        out[f"{mode}/batch_success_first_last"] = [
            statistics.fmean(c[0] for c in curves),
            statistics.fmean(c[-1] for c in curves),
        ]
    return out


def build_parser() -> argparse.ArgumentParser:
    """The benchmark's options; bench/sampled_success.py takes its run settings from the same defaults."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", nargs="+", default=["envs_generated/todo_api", "envs_generated/mcp_memory"])
    ap.add_argument(
        "--make-tasks", type=int, default=40, help="tasks to synthesize per environment (0: use tasks.jsonl)"
    )
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--modes", nargs="+", default=["erpo", "grpo"], choices=list(ADVANTAGE_MODES))
    ap.add_argument("--sft-only", action="store_true", help="stop after the shared SFT phase")
    ap.add_argument("--out", default="runs/bench_learning")
    ap.add_argument("--plots-dir", default="")
    ap.add_argument("--size", default="bench")
    ap.add_argument(
        "--base-model", default="", help="a pretrained HF model folder to start from (default: a random --size model)"
    )
    ap.add_argument("--vocab", type=int, default=1024)
    ap.add_argument("--heldout", type=float, default=0.25)
    ap.add_argument("--sft-seed", type=int, default=0)
    ap.add_argument("--sft-steps", type=int, default=500)
    ap.add_argument("--sft-lr", type=float, default=3e-3)
    ap.add_argument("--sft-batch", type=int, default=8)
    ap.add_argument(
        "--micro-batch",
        type=int,
        default=8,
        help="episodes per forward/backward pass in SFT and RL (smaller for a larger --base-model)",
    )
    ap.add_argument("--rl-steps", type=int, default=6)
    ap.add_argument("--rl-lr", type=float, default=2e-4)
    ap.add_argument(
        "--rl-tasks",
        type=int,
        default=0,
        help="RL trains on the first N training tasks of each environment (0: all); "
        "success on them is measured before and after",
    )
    ap.add_argument(
        "--loss-agg", default="token-mean", choices=list(AGGREGATIONS), help="aggregation of the RL loss over tokens"
    )
    ap.add_argument("--rl-temperature", type=float, default=0.5, help="sampling temperature of RL rollouts")
    ap.add_argument("--mini-batches", type=int, default=2, help="optimizer steps per RL step")
    ap.add_argument(
        "--rl-lora-rank",
        type=int,
        default=0,
        help="RL trains LoRA adapters of this rank on the SFT weights (0: every weight)",
    )
    ap.add_argument(
        "--rl-lora-alpha", type=float, default=32.0, help="LoRA scaling numerator (update scaled by alpha / rank)"
    )
    ap.add_argument("--rl-warmup", type=int, default=0, help="optimizer steps of linear learning-rate warm-up")
    ap.add_argument("--curriculum", default="uniform", choices=list(STRATEGIES))
    ap.add_argument("--checkpoint-every", type=int, default=0, help="RL steps between checkpoints (0: at the end only)")
    ap.add_argument("--tasks-per-step", type=int, default=3)
    ap.add_argument("--k", type=int, default=4)
    ap.add_argument("--max-turns", type=int, default=5)
    ap.add_argument("--max-new-tokens", type=int, default=160)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument(
        "--eval-tasks",
        type=int,
        default=0,
        help="measure greedy success on the first N tasks of each environment's split only (0: all)",
    )
    ap.add_argument("--merge", action="store_true", help="only combine the results already under --out")
    return ap


def main(argv: list[str] | None = None) -> None:
    args = build_parser().parse_args(argv)
    if args.base_model and not (Path(args.base_model) / "config.json").exists():
        raise SystemExit(f"--base-model {args.base_model}: not a Hugging Face model folder (config.json is missing)")
    started = time.perf_counter()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    if args.make_tasks:
        args.envs = made_envs(args.envs, out, args.make_tasks)
    if not args.merge:
        sft = sft_phase(args)
        print("SFT:", json.dumps({k: v for k, v in sft.items() if not k.endswith("_curve")}), flush=True)
        if not args.sft_only:
            for seed in args.seeds:
                for mode in args.modes:
                    print(f"{mode} seed {seed}", flush=True)
                    res = rl_run(args, seed, mode)
                    print(json.dumps({k: v for k, v in res.items() if not k.endswith("_curve")}), flush=True)
    sft = json.loads((out / "sft" / "summary.json").read_text())
    runs = [json.loads(p.read_text()) for p in sorted(out.glob("*_seed*/result.json"))]
    summary = {
        "args": vars(args),
        "sft": sft,
        "runs": runs,
        "mean": summarize(sft, runs),
        "wall_s": round(time.perf_counter() - started, 1),
    }
    write_json_atomic(out / "summary.json", summary)
    files = plot(sft, runs, Path(args.plots_dir) if args.plots_dir else out)
    print(json.dumps(summary["mean"], indent=1))
    print("plots:", ", ".join(str(f) for f in files), f"wall {summary['wall_s']} s")


if __name__ == "__main__":
    main()
