"""Synchronous against asynchronous training: the same work, a simulated user with a hosted model's latency.

One shared SFT warm start on mini_todo (tiny random Llama), then the same ERPO run twice from it: `sync`
(rollouts, then the update, in lock step) and `async` (config section `async:`: rollout workers keep
sampling while the trainer updates; rl/async_rl/). Both see the same simulated user: the scripted user
behind an in-process fake endpoint that answers each call after a seeded 1 to 3 s wait (`time.sleep`,
as a hosted model's round trip; no network). Both run `--steps` steps of `--tasks-per-step` x K episodes,
so they train on the same number of samples. Reported per mode: steps per hour (over the sum of the
steps' wall times), trainer idle share (time the trainer waited for rollouts), rollout idle share (time
rollout capacity waited: the update in sync mode; workers waiting for a request or queue room in async
mode), the staleness histogram of the trained groups, and the sampled success of the final policy on the
training tasks (temperature 1, `--eval-k` episodes per task, user without latency) with its standard error.

    python -m bench.async_rl                   # about 15 minutes on 2 cores (--modes sync,async,sync_wide: more)
    python -m bench.async_rl --quick           # seconds: proves the script runs
"""

from __future__ import annotations

import argparse
import math
import random
import time
from pathlib import Path
from typing import Any

from bench import common

MINI_TODO = common.MINI_TODO


class LatencyUser:
    """The scripted user behind a fake endpoint: every call returns after a seeded wait in [lo_s, hi_s]."""

    def __init__(self, lo_s: float, hi_s: float, seed: int = 0):
        from rl.user_sim import ScriptedUser

        self.inner, self.lo_s, self.hi_s, self.seed = ScriptedUser(), lo_s, hi_s, seed
        self.name = f"scripted+latency[{lo_s:g},{hi_s:g}]s"
        self.calls = 0
        self.waited_s = 0.0

    def _wait(self, *key: Any) -> None:
        delay = random.Random(f"{self.seed}:{key}").uniform(self.lo_s, self.hi_s)
        self.calls += 1
        self.waited_s += delay
        time.sleep(delay)

    def first_message(self, task: Any, sample_index: int = 0) -> str:
        self._wait(task.task_id, sample_index, "first")
        return self.inner.first_message(task, sample_index)

    def reply(self, task: Any, dialogue: list[dict[str, Any]], sample_index: int = 0) -> Any:
        self._wait(task.task_id, sample_index, len(dialogue))
        return self.inner.reply(task, dialogue, sample_index)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--tasks-per-step", type=int, default=4)
    p.add_argument("--k", type=int, default=4, help="rollouts per task")
    p.add_argument(
        "--latency", type=float, nargs=2, default=[1.0, 3.0], metavar=("LO", "HI"), help="user reply latency, seconds"
    )
    p.add_argument("--max-staleness", type=int, default=1)
    p.add_argument(
        "--lr", type=float, default=1e-4, help="RL learning rate (1e-3 undoes the tiny SFT policy in a few steps)"
    )
    p.add_argument("--workers", type=int, default=0, help="async rollout workers (0: tasks per step)")
    p.add_argument(
        "--user-concurrency", type=int, default=4, help="simultaneous user calls per rollout call (both modes)"
    )
    p.add_argument("--sft-steps", type=int, default=200, help="shared SFT warm start (200: about 0.5 sampled success)")
    p.add_argument("--eval-k", type=int, default=32, help="sampled episodes per training task for the success figure")
    p.add_argument("--threads", type=int, default=2, help="torch threads (both modes)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--modes",
        default="sync,async",
        help="comma list of sync, async, sync_wide (control: sync with workers x user-concurrency user threads)",
    )
    p.add_argument("--out", default=None, help="keep the runs here (default: a temporary folder)")
    p.add_argument("--quick", action="store_true", help="tiny sizes and 0.05-0.15 s latency: proves the script runs")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    args = p.parse_args(argv)
    if args.quick:
        args.steps, args.tasks_per_step, args.k, args.latency = 2, 2, 2, [0.05, 0.15]
        args.sft_steps, args.eval_k = 4, 2
    return args


def base_config(args: argparse.Namespace, out: Path) -> dict[str, Any]:
    return {
        "envs": [str(MINI_TODO)],
        "output_dir": str(out),
        "seed": args.seed,
        "steps": args.steps,
        "tasks_per_step": args.tasks_per_step,
        "rollouts_per_task": args.k,
        "torch_threads": args.threads,
        "model": {"kind": "tiny", "tiny": {"size": "test", "vocab_size": 768}},
        "advantage": {"mode": "erpo"},
        "optim": {"lr": args.lr, "micro_batch_size": 8, "mini_batches": 1},
        "sft": {"steps": 0, "lr": 3e-3, "batch_size": 2},
        "curriculum": {"strategy": "uniform"},
        "rollout": {
            "max_turns": 4,
            "max_new_tokens": 48,
            "max_context_tokens": 1536,
            "temperature": 1.0,
            "user_concurrency": args.user_concurrency,
        },
        "checkpoint_every": args.steps,
        "keep_checkpoints": 1,
        "plots": False,
        "resume": False,
    }


def warm_start(args: argparse.Namespace, work: Path) -> Path:
    """The shared starting policy: SFT on the gold episodes, saved as a from_pretrained folder."""
    from rl.train_config import config_from_dict
    from rl.trainer import Trainer

    cfg = base_config(args, work / "sft")
    cfg["sft"]["steps"] = args.sft_steps
    trainer = Trainer(config_from_dict(cfg), log=lambda m: None)
    trainer.setup()
    if args.sft_steps == 0:
        trainer._save_pretrained(work / "sft" / "sft_model")
    return work / "sft" / "sft_model"


def train(args: argparse.Namespace, mode: str, start: Path, work: Path) -> dict[str, Any]:
    """One RL run from `start` in `mode`; its timing figures and final policy folder."""
    from rl.train_config import config_from_dict
    from rl.trainer import Trainer

    cfg = base_config(args, work / mode)
    cfg["model"] = {"kind": "pretrained", "path": str(start)}
    if mode == "sync_wide":  # as many user calls at once as the async workers make together
        cfg["rollout"]["user_concurrency"] = args.user_concurrency * (args.workers or args.tasks_per_step)
    if mode == "async":
        cfg["async"] = {"max_staleness": args.max_staleness, "workers": args.workers}
    user = LatencyUser(*args.latency, seed=args.seed)
    trainer = Trainer(config_from_dict(cfg), user=user, log=lambda m: None)
    t0 = time.perf_counter()
    summary = trainer.run()
    wall = time.perf_counter() - t0
    rows = [r for r in _rows(work / mode / "metrics.jsonl")]
    step_s = sum(r["time/step_s"] for r in rows)
    if mode == "async":
        trainer_idle = sum(r["time/trainer_wait_s"] for r in rows)
        rollout_idle_share = sum(r["time/rollout_idle_share"] * r["time/step_s"] for r in rows) / step_s
        hist = {int(k): v for k, v in summary["async_staleness_histogram"].items()}
    else:
        trainer_idle = sum(r["time/rollout_s"] for r in rows)
        rollout_idle_share = sum(r["time/update_s"] for r in rows) / step_s
        hist = {0: len(rows) * args.tasks_per_step}
    return {
        "steps": len(rows),
        "trajectories": sum(r["trajectories"] for r in rows),
        "steps_s": step_s,
        "run_wall_s": wall,
        "steps_per_hour": 3600.0 * len(rows) / step_s,
        "trainer_idle_share": trainer_idle / step_s,
        "rollout_idle_share": rollout_idle_share,
        "staleness_histogram": hist,
        "stale_dropped_groups": summary.get("async_stale_dropped_groups", 0),
        "user_calls": user.calls,
        "user_wait_s": user.waited_s,
        "train_success_last_step": rows[-1].get("success/mean"),
        "final": str(work / mode / "final"),
    }


def sampled_success(args: argparse.Namespace, policy: Path, work: Path, name: str) -> dict[str, float]:
    """Success of `policy` on the training tasks: eval_k episodes per task at temperature 1, seeded alike."""
    from rl.train_config import config_from_dict
    from rl.trainer import Trainer

    cfg = base_config(args, work / f"eval_{name}")
    cfg.update({"model": {"kind": "pretrained", "path": str(policy)}, "eval_temperature": 1.0})
    trainer = Trainer(config_from_dict(cfg), log=lambda m: None)
    trainer.setup()
    row = trainer.evaluate("train", k=args.eval_k)
    p, n = row["success/mean"], row["episodes"]
    return {"success": p, "episodes": n, "stderr": math.sqrt(max(p * (1 - p), 0.0) / max(n, 1))}


def _rows(path: Path) -> list[dict[str, Any]]:
    import json

    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"machine: {common.machine()}", flush=True)
    import torch

    torch.set_num_threads(args.threads)
    with common.scratch_dir("async") as tmp:
        work = Path(args.out) if args.out else Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        start = warm_start(args, work)
        modes: dict[str, dict[str, Any]] = {}
        for mode in args.modes.split(","):
            print(f"{mode}: {args.steps} steps of {args.tasks_per_step} x {args.k} episodes ...", flush=True)
            modes[mode] = train(args, mode, start, work)
            modes[mode].update(sampled_success(args, Path(modes[mode]["final"]), work, mode))
    names = list(modes)
    rows = [
        [k] + [modes[m][k] for m in names]
        for k in (
            "steps_per_hour",
            "trainer_idle_share",
            "rollout_idle_share",
            "steps_s",
            "trajectories",
            "stale_dropped_groups",
            "user_calls",
            "success",
            "stderr",
            "staleness_histogram",
        )
    ]
    common.print_table(
        f"{' vs '.join(names)}: {args.steps} steps x {args.tasks_per_step} tasks x K={args.k}, user latency "
        f"{args.latency[0]:g}-{args.latency[1]:g} s, max_staleness {args.max_staleness}",
        ["figure"] + names,
        rows,
    )
    speedup = gap = se = float("nan")
    if "sync" in modes and "async" in modes:
        s, a = modes["sync"], modes["async"]
        speedup = a["steps_per_hour"] / s["steps_per_hour"]
        gap = abs(a["success"] - s["success"])
        se = math.sqrt(a["stderr"] ** 2 + s["stderr"] ** 2)
        print(f"speed-up {speedup:.2f}x (target >= 1.5); success gap {gap:.3f} vs combined standard error {se:.3f}")
    figures = {
        "lr": args.lr,
        "steps": args.steps,
        "tasks_per_step": args.tasks_per_step,
        "k": args.k,
        "latency_s": args.latency,
        "max_staleness": args.max_staleness,
        "workers": args.workers or args.tasks_per_step,
        "user_concurrency": args.user_concurrency,
        "sft_steps": args.sft_steps,
        "eval_k": args.eval_k,
        "threads": args.threads,
        "modes": modes,
        "speedup": speedup,
        "success_gap": gap,
        "success_gap_stderr": se,
        "within_stderr": gap <= se,
    }
    common.emit("async_rl", figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
