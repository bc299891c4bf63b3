"""Measure the user-error judge on the labeled dialogues: `python -m rl.judge_eval [--out FILE]`.

Reads tests/data/judge_labeled.jsonl (instruction, dialogue, user_error label), judges every dialogue
with each mode (prior only, LLM only, prior+LLM) against the configured endpoint (the embedded
SmolLM2 by default), prints the accuracies and writes them as JSON (default docs/judge_accuracy.json).

`python -m rl.judge_eval --prior-only` needs no LLM: the prior's precision and recall on the dialogues of
an LLM user (tests/data/judge_llm_user.jsonl: SmolLM2 as the user on committed tasks, labelled by hand,
plus injected paraphrases and changed values), per `source` and over all rows, written to
docs/judge_prior_llm_user.json.
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
LLM_USER_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "judge_llm_user.jsonl"
PRIOR_OUT = Path(__file__).resolve().parent.parent / "docs" / "judge_prior_llm_user.json"


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
        results["modes"][mode] = {
            "accuracy": (tp + tn) / max(1, len(rows)),
            "tp": tp,
            "fp": fp,
            "tn": tn,
            "fn": fn,
            "verdicts": verdicts,
        }
    return results


def _confusion(pairs: list[tuple[bool, bool]]) -> dict[str, Any]:
    """tp/fp/tn/fn, precision (None without a positive verdict) and recall of (verdict, label) pairs."""
    tp = sum(v and y for v, y in pairs)
    fp = sum(v and not y for v, y in pairs)
    fn = sum(y and not v for v, y in pairs)
    tn = len(pairs) - tp - fp - fn
    return {
        "n": len(pairs),
        "tp": tp,
        "fp": fp,
        "tn": tn,
        "fn": fn,
        "precision": round(tp / (tp + fp), 4) if tp + fp else None,
        "recall": round(tp / (tp + fn), 4) if tp + fn else None,
    }


def prior_scores(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The prior's confusion counts, precision and recall over all rows and per row `source` (no LLM)."""
    judge = UserErrorJudge(None, mode="prior", explain=False)
    by_source: dict[str, list[tuple[bool, bool]]] = {}
    flagged = []
    for row in rows:
        verdict = judge.judge(row["instruction"], row["dialogue"]).user_error
        by_source.setdefault(str(row.get("source", "")), []).append((verdict, row["user_error"]))
        if verdict:
            flagged.append(row["id"])
    everything = [p for pairs in by_source.values() for p in pairs]
    return {
        "all": _confusion(everything),
        "by_source": {k: _confusion(v) for k, v in sorted(by_source.items())},
        "flagged": sorted(flagged),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
    from synth.llm import config_from_cli, open_client

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--data", default=str(DEFAULT_DATA))
    parser.add_argument("--out", default=str(DEFAULT_OUT))
    parser.add_argument("--base-url")
    parser.add_argument("--model")
    parser.add_argument(
        "--prior-only", action="store_true", help="the prior alone, no LLM (default data: the LLM-user set)"
    )
    args = parser.parse_args(argv)
    if args.prior_only:
        data = LLM_USER_DATA if args.data == str(DEFAULT_DATA) else Path(args.data)
        out = PRIOR_OUT if args.out == str(DEFAULT_OUT) else Path(args.out)
        scores = {"data": data.name, **prior_scores(load_labeled(data))}
        write_json_atomic(out, scores, indent=2)
        for name, c in [("all", scores["all"]), *scores["by_source"].items()]:
            print(
                f"{name:20s} precision {c['precision']}  recall {c['recall']}  "
                f"(tp {c['tp']} fp {c['fp']} tn {c['tn']} fn {c['fn']})"
            )
        print(f"written: {out}")
        return scores
    rows = load_labeled(args.data)
    with open_client(config_from_cli(args.base_url, args.model)) as client:
        results = measure(client, rows)
        results["model"] = client.model
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(out, results, indent=2)
    for mode, r in results["modes"].items():
        print(
            f"{mode:10s} accuracy {r['accuracy']:.3f}  "
            f"(tp {r['tp']} fp {r['fp']} tn {r['tn']} fn {r['fn']}; n={results['n']})"
        )
    print(f"written: {out}")
    return results


if __name__ == "__main__":
    main()
