"""Sampled success of the learning benchmark's policies: what RL optimizes, next to bench/learning.py's greedy figure.

For an OUT folder of bench/learning.py, evaluates the shared SFT policy (OUT/sft/sft_model) and the final
policy of every RL run (OUT/<mode>_seed<k>/final) on the tasks RL trained on (--rl-tasks as given to
learning.py; 0 = all training tasks), K episodes per task at --temperature, scripted user. Every policy
is measured with the same sampling seed, so the comparison between policies does not depend on the draw.
One result per policy in OUT/sampled/<name>.json (skipped on a rerun), then OUT/sampled/summary.json;
--sample-seed N > 0 draws other episodes and writes OUT/sampled_seedN/ instead. OUT/sampled_pooled.json
pools every draw measured so far, per policy against the SFT policy on the same draws. --split heldout
measures the held-out tasks instead (OUT/sampled_heldout[_seedN]/, OUT/sampled_heldout_pooled.json):

    python -m bench.sampled_success --out runs/bench_learning_focus_seq-mean-token-sum_lr5e-5 \\
        --rl-tasks 8 --k 8 --jobs 2

Minutes per policy on one core; not a CI test.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from synth.fsio import write_json_atomic


def policies(out: Path) -> dict[str, Path]:
    """name -> model folder: "sft" and every finished RL run."""
    found = {"sft": out / "sft" / "sft_model"}
    for run in sorted(out.glob("*_seed*")):
        if (run / "result.json").exists() and (run / "final").is_dir():
            found[run.name] = run / "final"
    return found


def measure(name: str, model: str, args: argparse.Namespace) -> dict[str, Any]:
    """Success of `model` over K sampled episodes per task (one process, one thread)."""
    from bench.learning import policy_config
    from rl.train_config import config_from_dict
    from rl.trainer import Trainer

    out = Path(args.out)
    folder = results_dir(out, args.sample_seed, args.split)
    # learning.py's defaults; only what shapes an episode is set here. The seed sets the sampling seed only.
    cfg = policy_config(
        out,
        model,
        folder / f"{name}_run",
        seed=args.sample_seed,
        heldout=args.heldout,
        sft_seed=args.sft_seed,
        threads=1,
        max_turns=args.max_turns,
        max_new_tokens=args.max_new_tokens,
        rl_temperature=args.temperature,
    )
    cfg.update({"max_train_tasks": args.rl_tasks, "eval_temperature": args.temperature})
    t0 = time.perf_counter()
    trainer = Trainer(config_from_dict(cfg), log=lambda m: None)
    trainer.setup()
    row = trainer.evaluate(args.split, k=args.k)
    res = {
        "policy": name,
        "model": model,
        "success": row["success/mean"],
        "episodes": row["episodes"],
        "k": args.k,
        "temperature": args.temperature,
        "split": args.split,
        "wall_s": round(time.perf_counter() - t0, 1),
    }
    write_json_atomic(folder / f"{name}.json", res)
    return res


def split_prefix(split: str) -> str:
    return "sampled" if split == "train" else f"sampled_{split}"


def results_dir(out: Path, sample_seed: int, split: str = "train") -> Path:
    """OUT/sampled for the default sampling seed, OUT/sampled_seed<N> for another (sampled_heldout...: held-out)."""
    prefix = split_prefix(split)
    return out / (prefix if sample_seed == 0 else f"{prefix}_seed{sample_seed}")


def summarize(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Per policy, and the mean per advantage mode over seeds."""
    out: dict[str, Any] = {r["policy"]: r["success"] for r in results}
    modes = sorted({r["policy"].split("_seed")[0] for r in results if "_seed" in r["policy"]})
    for mode in modes:
        vals = [r["success"] for r in results if r["policy"].startswith(f"{mode}_seed")]
        out[f"{mode}/mean"] = statistics.fmean(vals)
    return out


def pooled(out: Path, split: str = "train") -> dict[str, Any]:
    """Every policy over every draw of `split` measured so far (OUT/sampled*), against SFT on the same draws.

    Per policy: successes / episodes pooled over the draws that measured both it and the SFT policy,
    the SFT figure on those draws, the difference and its standard error (episodes counted as
    independent, which overstates the precision a little: episodes of one task are correlated).
    """
    draws: dict[str, dict[str, dict[str, Any]]] = {}
    prefix = split_prefix(split)
    for folder in sorted(out.glob(prefix + "*")):
        if folder.is_dir() and (folder.name == prefix or folder.name.startswith(prefix + "_seed")):
            draws[folder.name] = {
                p.stem: json.loads(p.read_text()) for p in folder.glob("*.json") if p.stem != "summary"
            }
    table: dict[str, Any] = {}
    names = sorted({n for d in draws.values() for n in d if n != "sft"})
    for name in names:
        both = [d for d in draws.values() if name in d and "sft" in d]
        if not both:
            continue
        wins = sum(round(d[name]["success"] * d[name]["episodes"]) for d in both)
        base = sum(round(d["sft"]["success"] * d["sft"]["episodes"]) for d in both)
        n, m = sum(d[name]["episodes"] for d in both), sum(d["sft"]["episodes"] for d in both)
        p, q = wins / n, base / m
        table[name] = {
            "draws": len(both),
            "successes": wins,
            "episodes": n,
            "success": round(p, 4),
            "sft_successes": base,
            "sft_episodes": m,
            "sft_success": round(q, 4),
            "difference": round(p - q, 4),
            "standard_error": round(math.sqrt(p * (1 - p) / n + q * (1 - q) / m), 4),
        }
    return table


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="an OUT folder of bench/learning.py")
    ap.add_argument("--rl-tasks", type=int, default=0)
    ap.add_argument("--k", type=int, default=8, help="sampled episodes per task")
    ap.add_argument("--temperature", type=float, default=0.5)
    ap.add_argument("--heldout", type=float, default=0.25)
    ap.add_argument("--sft-seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=5)
    ap.add_argument("--max-new-tokens", type=int, default=160)
    ap.add_argument("--sample-seed", type=int, default=0, help="seed of the sampled episodes (same for every policy)")
    ap.add_argument("--jobs", type=int, default=1, help="policies measured in parallel processes")
    ap.add_argument(
        "--split", default="train", choices=["train", "heldout"], help="the tasks measured (--rl-tasks: train only)"
    )
    args = ap.parse_args(argv)
    out = Path(args.out)
    if not (out / "sft" / "summary.json").exists():
        raise SystemExit(f"{out}: no finished learning benchmark here (sft/summary.json is missing)")
    folder = results_dir(out, args.sample_seed, args.split)
    todo = {n: m for n, m in policies(out).items() if not (folder / f"{n}.json").exists()}
    if args.jobs <= 1:  # one policy after the other in this process
        for name, model in todo.items():
            print(json.dumps(measure(name, str(model), args)), flush=True)
    else:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            futures = {n: pool.submit(measure, n, str(m), args) for n, m in todo.items()}
            for name, fut in futures.items():
                print(json.dumps(fut.result()), flush=True)
    results = [json.loads((folder / f"{n}.json").read_text()) for n in policies(out)]
    summary = {"args": vars(args), "results": results, "success": summarize(results)}
    write_json_atomic(folder / "summary.json", summary)
    print(json.dumps(summary["success"], indent=1))
    table = pooled(out, args.split)
    write_json_atomic(out / f"{split_prefix(args.split)}_pooled.json", table)
    print("pooled over draws:", json.dumps(table, indent=1))


if __name__ == "__main__":
    main()
