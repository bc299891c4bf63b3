"""Teacher-forced accuracy of the learning benchmark's SFT policy on gold episodes, training against held-out.

Greedy success says whether a policy reproduces a whole episode; this says how close it comes. For an
OUT folder of bench/learning.py it renders the gold episodes of the training and the held-out tasks
(the same split as learning.py) and measures next-token accuracy on their agent tokens, for digits
(copied ids) and for the other tokens, the share of episodes without an error and where the first error
falls. A policy that memorized its training tasks scores far higher on them than on held-out ones; one
that learned the format but not to copy from the instruction scores alike on both, well below 1.

    python -m bench.gold_accuracy --out runs/bench_learning_t300 --limit 50

Writes OUT/gold_accuracy.json (for --model, OUT/gold_accuracy_<its path under OUT, / as _>.json). Minutes on
one core; not a CI test.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from bench.learning import policy_config
from rl.gold_accuracy import digit_or_other, teacher_forced_accuracy
from rl.train_config import config_from_dict
from rl.trainer import Trainer
from synth.fsio import write_json_atomic


def measure(out: Path, model: Path, heldout: float, split_seed: int, limit: int) -> dict[str, Any]:
    """Accuracy of `model` on the gold episodes of OUT's environments, per split."""
    cfg = policy_config(out, str(model), out / "gold_accuracy_run", heldout=heldout, sft_seed=split_seed)
    trainer = Trainer(config_from_dict(cfg), log=lambda m: None)
    trainer.setup()
    classify = digit_or_other(trainer.tokenizer.decode)
    res: dict[str, Any] = {"model": str(model), "limit_per_env": limit}
    for which in ("train", "heldout"):
        t0 = time.perf_counter()
        gold = trainer.gold_trajectories(which, limit=limit or None)
        acc = teacher_forced_accuracy(trainer.model, gold, trainer.pad_id, classify, device=trainer.device)
        res[which] = {**acc.summary(), "episodes": len(gold), "wall_s": round(time.perf_counter() - t0, 1)}
    return res


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="an OUT folder of bench/learning.py")
    ap.add_argument("--model", default="", help="a policy folder (default: OUT/sft/sft_model)")
    ap.add_argument("--limit", type=int, default=0, help="gold episodes per environment and split (0: all)")
    ap.add_argument("--heldout", type=float, default=0.25)
    ap.add_argument("--sft-seed", type=int, default=0, help="learning.py's --sft-seed: the train/held-out split")
    args = ap.parse_args(argv)
    out = Path(args.out)
    model = Path(args.model) if args.model else out / "sft" / "sft_model"
    if not (model / "config.json").exists():
        raise SystemExit(f"{model}: no policy here (config.json is missing)")
    if not (out / "envs").is_dir():
        raise SystemExit(f"{out}: not an OUT folder of bench/learning.py (envs/ is missing)")
    if args.limit < 0:
        raise SystemExit(f"--limit must be 0 (all) or more, got {args.limit}")
    res = measure(out, model, args.heldout, args.sft_seed, args.limit)
    tag = (
        model.resolve().relative_to(out.resolve())
        if model.resolve().is_relative_to(out.resolve())
        else Path(model.name)
    )
    name = "gold_accuracy.json" if not args.model else f"gold_accuracy_{'_'.join(tag.parts)}.json"
    write_json_atomic(out / name, res)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
