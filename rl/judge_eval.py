"""Measure the user-error judge on the labeled dialogues: `python -m rl.judge_eval [--out FILE]`.

Reads tests/data/judge_labeled.jsonl (instruction, dialogue, user_error label), judges every dialogue
with each mode (prior only, LLM only, prior+LLM) against the configured endpoint (the embedded
SmolLM2 by default), prints the accuracies and writes them as JSON (default docs/judge_accuracy.json).
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from rl.judge import JUDGE_MODES, UserErrorJudge
from synth.errors import InputError
from synth.fsio import write_json_atomic

DEFAULT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "judge_labeled.jsonl"
DEFAULT_OUT = Path(__file__).resolve().parent.parent / "docs" / "judge_accuracy.json"


def load_labeled(path: str | Path = DEFAULT_DATA) -> list[dict[str, Any]]:
    """Labeled dialogues; each row needs id, instruction, dialogue (list of {role, content}), user_error (bool)."""
    rows = []
    for n, line in enumerate(Path(path).read_text().splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        for key, kind in (("id", str), ("instruction", str), ("dialogue", list), ("user_error", bool)):
            if not isinstance(row.get(key), kind):
                raise InputError(str(path), f"line {n}: {key}", f"must be a {kind.__name__}")
        rows.append(row)
    return rows


def measure(client: Any, rows: list[dict[str, Any]], modes: tuple[str, ...] = JUDGE_MODES) -> dict[str, Any]:
    """Accuracy (and confusion counts) of each judge mode on `rows`; per-row verdicts included."""
    results: dict[str, Any] = {"n": len(rows), "errors": sum(r["user_error"] for r in rows), "modes": {}}
    for mode in modes:
        judge = UserErrorJudge(client if mode != "prior" else None, mode=mode, explain=False)
        tp = fp = tn = fn = 0
        verdicts = {}
        for row in rows:
            v = judge.judge(row["instruction"], row["dialogue"])
            verdicts[row["id"]] = {"verdict": v.user_error, "votes": v.votes, "prior_hits": len(v.prior_hits)}
            if v.user_error and row["user_error"]:
                tp += 1
            elif v.user_error:
                fp += 1
            elif row["user_error"]:
                fn += 1
            else:
                tn += 1
        results["modes"][mode] = {"accuracy": (tp + tn) / max(1, len(rows)), "tp": tp, "fp": fp, "tn": tn, "fn": fn,
                                  "verdicts": verdicts}  # fmt: skip
    return results


def main(argv: list[str] | None = None) -> dict[str, Any]:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    from synth.llm import config_from_cli, open_client

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    args = parser.parse_args(argv)
    rows = load_labeled(args.data)
    with open_client(config_from_cli(args.base_url, args.model)) as client:
        results = measure(client, rows)
        results["model"] = client.model
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, results, indent=2)
    for mode, r in results["modes"].items():
        print(f"{mode:10s} accuracy {r['accuracy']:.3f}  (tp {r['tp']} fp {r['fp']} tn {r['tn']} fn {r['fn']}; n={results['n']})")
    print(f"written: {out}")
    return results


if __name__ == "__main__":
    main()
