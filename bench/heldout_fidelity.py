"""Fidelity on held-out systems: synthesis from their docs, measured against their own implementation.

The two shared references are what synthesis was developed against; the systems under bench/heldout/ were
written afterwards, each by a helper who did not read the synthesis code (a vendor's docs, policy, data, a real
implementation behind the reference adapter protocol, and support sessions as trajectories). For each it runs
the documented commands (docs/fidelity.md):

1. `forgegym synth DOCS [policy.md] --data data.json --engine plain --reference DIR`: from docs + policy + data,
   measured on every trajectory;
2. `forgegym fidelity --reference DIR --record first.jsonl --limit H`, `forgegym synth ... --traces first.jsonl`,
   then `forgegym fidelity ENV --reference DIR --skip H`: with traces of the first half, measured on the second.

    python -m bench.heldout_fidelity [--only clinic] [--workdir runs/heldout] [--json PATH] [--quick]

Prints one row per system and route and the `RESULT {...}` line. About a minute per system on 2 cores once the
embedded model's answers are in the LLM cache (several on a cold cache), so no smoke test runs it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench.common import ROOT, emit, print_table

HELDOUT = ROOT / "bench" / "heldout"
DOC_NAMES = ("openapi.json", "openapi.yaml", "tools.json", "tools.md")
FIGURES = ("calls", "ok_agreement", "output_agreement", "change_agreement", "call_fidelity", "final_state_exact")


def docs_of(folder: Path) -> list[Path]:
    """The system's tool docs, then its policy when it has one."""
    docs = [folder / n for n in DOC_NAMES if (folder / n).exists()]
    if not docs:
        raise SystemExit(f"{folder}: no tool docs ({', '.join(DOC_NAMES)})")
    policy = folder / "policy.md"
    return docs[:1] + ([policy] if policy.exists() else [])


class StepFailed(Exception):
    """A CLI step exited non-zero (an environment that did not publish, say)."""


def forgegym(*args: str) -> str:
    """Run the CLI; its stdout (StepFailed with the end of its stderr when it exits non-zero)."""
    env = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false"}
    run = subprocess.run([sys.executable, "-m", "synth.cli.main", *args], capture_output=True, text=True, env=env)
    if run.returncode != 0:
        raise StepFailed(f"forgegym {args[0]} exited {run.returncode}: {run.stderr.strip()[-600:]}")
    return run.stdout


def measure_system(folder: Path, workdir: Path) -> dict[str, Any]:
    """Both routes' figures for one held-out system."""
    name, docs = folder.name, [str(p) for p in docs_of(folder)]
    data = str(folder / "data.json")
    n = sum(1 for line in (folder / "trajectories.jsonl").read_text().splitlines() if line.strip())
    half = n // 2
    out: dict[str, Any] = {"system": name, "trajectories": n}
    env = workdir / name / "docs"
    try:
        forgegym("synth", *docs, "--data", data, "--out", str(env), "--engine", "plain")
        out["docs"] = json.loads(forgegym("fidelity", str(env), "--reference", str(folder), "--json"))
        out["docs_tools"] = _tool_counts(env)
    except StepFailed as ex:  # an unpublished environment scores nothing; the reason is in OUT.unpublished.md
        out["docs"], out["docs_tools"] = {"error": str(ex)}, "-"
    traces = workdir / name / "first.jsonl"
    forgegym("fidelity", "--reference", str(folder), "--record", str(traces), "--limit", str(half))
    traced = workdir / name / "traced"
    try:
        forgegym("synth", *docs, "--data", data, "--traces", str(traces), "--out", str(traced), "--engine", "plain")
        out["traced"] = json.loads(
            forgegym("fidelity", str(traced), "--reference", str(folder), "--skip", str(half), "--json")
        )
        out["traced_tools"] = _tool_counts(traced)
    except StepFailed as ex:
        out["traced"], out["traced_tools"] = {"error": str(ex)}, "-"
    return out


def _tool_counts(env: Path) -> str:
    manifest = json.loads((env / "manifest.json").read_text())
    return f"{len(manifest['tools'])}/{len(manifest['tools']) + len(manifest.get('excluded_tools') or [])}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="one system (a folder name under bench/heldout)")
    ap.add_argument("--workdir", default="runs/heldout", help="where environments and traces go")
    ap.add_argument("--json", default="", help="also write the figures to this path")
    ap.add_argument("--quick", action="store_true", help="the first system only")
    args = ap.parse_args(argv)
    folders = sorted(p for p in HELDOUT.iterdir() if (p / "adapter.py").exists())
    if args.only:
        folders = [p for p in folders if p.name == args.only] or sys.exit(f"{HELDOUT}/{args.only}: no such system")
    rows = [measure_system(f, Path(args.workdir)) for f in (folders[:1] if args.quick else folders)]
    table = []
    for r in rows:
        for route, label in (("docs", "docs + policy + data"), ("traced", "traces, second half")):
            fig = r[route]
            table.append(
                [r["system"], label, r[route + "_tools"]] + [fig.get(k, fig.get("error", "-")) for k in FIGURES]
            )
    print_table("Held-out systems", ["system", "route", "tools", *FIGURES], table)
    emit("heldout_fidelity", {"systems": rows}, args.json or None)


if __name__ == "__main__":
    main()
