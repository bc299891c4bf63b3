"""Synthesis cost: LLM calls, tokens and wall time per published tool and per kept task; the cache on a rerun.

Runs environment synthesis (and task synthesis) on one tool doc twice with the same, initially empty,
LLM answer cache, each run with its own client:
- run 1 (cold cache): every LLM request goes to the endpoint;
- run 2 (warm cache): the same requests should all be answered by the cache (expected: 100% saved),
  and the published files should be byte-identical.
The endpoint is whatever `synth.llm` resolves (OPENAI_BASE_URL, else the embedded SmolLM2-135M started
for the occasion; its start-up time is reported apart). Concurrency use: `busy / wall` is the share of
the wall time with at least one request in flight (failed attempts included); `limit used` is how much
of the client's concurrency limit was used on average (latency summed over successful calls / wall /
max_concurrency; a timed-out attempt, counted in `retries`, is not in it).

    .venv/bin/python -m bench.synth_cost                      # todo API doc, 3 tasks (minutes with the embedded model)
    .venv/bin/python -m bench.synth_cost --quick              # smoke run: 3 MCP memory tools, no tasks
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path
from typing import Any

from bench import common

COUNTERS = ("calls", "cache_hits", "prompt_tokens", "completion_tokens", "retries", "repairs", "failures")
TIMES = ("latency_s", "busy_s")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--env", default="todo_api", choices=sorted(common.DOCS), help="which tool doc to synthesize")
    p.add_argument("--doc", default=None, help="a tool doc to use instead of --env's (env id: the file's stem)")
    p.add_argument("--tasks", type=int, default=3, help="tasks to synthesize after the environment (0: none)")
    p.add_argument("--max-concurrency", type=int, default=4, help="the client's concurrency limit")
    p.add_argument("--cache", default=None, help="cache file (default: a fresh temporary one); must not exist yet")
    p.add_argument("--quick", action="store_true", help="smallest run that still proves the script works")
    p.add_argument("--json", default=None, help="also write the figures to this file")
    args = p.parse_args(argv)
    if args.quick:
        args.env, args.tasks = "mcp_memory", 0
    args.env_id = Path(args.doc).stem if args.doc else args.env
    return args


QUICK_TOOLS = ("create_entities", "open_nodes", "delete_entities")


def quick_doc(folder: Path) -> Path:
    """Three of the MCP memory tools (create, read, delete) as an OpenAI function list: few LLM calls."""
    tools = json.loads(common.tooldoc("mcp_memory").read_text(encoding="utf-8"))
    path = folder / "mcp_memory_mini.json"
    path.write_text(json.dumps([t for t in tools if t["function"]["name"] in QUICK_TOOLS], indent=1), encoding="utf-8")
    return path


def snapshot(client: Any) -> dict[str, float]:
    d = client.stats.to_dict()
    return {k: float(d.get(k) or 0) for k in COUNTERS + TIMES}


def delta(after: dict[str, float], before: dict[str, float]) -> dict[str, float]:
    return {k: after[k] - before[k] for k in after}


def phase_figures(d: dict[str, float], wall_s: float, units: int, limit: int) -> dict[str, Any]:
    """Counts of one phase, per unit (published tool or kept task), and how busy the endpoint was."""
    requests = d["calls"] + d["cache_hits"]
    per = (lambda v: v / units) if units else (lambda v: float("nan"))
    return {
        "units": units,
        "wall_s": wall_s,
        "llm_calls": int(d["calls"]),
        "cache_hits": int(d["cache_hits"]),
        "requests": int(requests),
        "prompt_tokens": int(d["prompt_tokens"]),
        "completion_tokens": int(d["completion_tokens"]),
        "retries": int(d["retries"]),
        "repairs": int(d["repairs"]),
        "failures": int(d["failures"]),
        "calls_per_unit": per(d["calls"]),
        "prompt_tokens_per_unit": per(d["prompt_tokens"]),
        "completion_tokens_per_unit": per(d["completion_tokens"]),
        "wall_s_per_unit": per(wall_s),
        "busy_s": d["busy_s"],
        "latency_s": d["latency_s"],
        "busy_over_wall": common.ratio(d["busy_s"], wall_s),
        "mean_in_flight": common.ratio(d["latency_s"], wall_s),
        "limit_used": common.ratio(d["latency_s"], wall_s * limit),
        "mean_latency_s": common.ratio(d["latency_s"], d["calls"]),
    }


# what must come out the same on a rerun; manifest.json is compared apart: it records the endpoint's URL,
# and the embedded model's port changes from run to run
COMPARED_FILES = ("env.py", "state_schema.json", "tests.json", "graph.json", "tasks.jsonl")


def file_digests(folder: Path) -> dict[str, str]:
    out = {}
    for name in COMPARED_FILES + ("manifest.json",):
        path = folder / name
        out[name] = hashlib.sha256(path.read_bytes()).hexdigest()[:16] if path.exists() else "absent"
    return out


def one_run(args: argparse.Namespace, doc: Path, cache: Path, out_dir: Path) -> dict[str, Any]:
    """Environment then tasks with one fresh client on `cache`; figures per phase."""
    from synth.envsynth.pipeline import SynthConfig, synthesize_environment
    from synth.llm import LLMConfig, open_client

    config = LLMConfig(cache_path=str(cache), max_concurrency=args.max_concurrency)
    t0 = time.perf_counter()
    with open_client(config) as client:
        startup_s = time.perf_counter() - t0
        s0 = snapshot(client)
        t = time.perf_counter()
        draft = synthesize_environment(
            [doc],
            out_dir,
            client,
            SynthConfig(env_id=args.env_id),
            models={"base_url": client.base_url, "model": client.model},
        )
        env_wall = time.perf_counter() - t
        s1 = snapshot(client)
        counts = draft.manifest.get("counts", {})
        tools = int(counts.get("tools_passed") or len(draft.manifest.get("tools", [])))
        out: dict[str, Any] = {
            "endpoint_startup_s": startup_s,
            "model": client.model,
            "env": phase_figures(delta(s1, s0), env_wall, tools, args.max_concurrency),
            "tools_total": int(counts.get("tools_total") or 0),
        }
        if args.tasks > 0:
            from synth.tasks.pipeline import generate_tasks

            t = time.perf_counter()
            report = generate_tasks(out_dir, n=args.tasks, seed=0, client=client)
            tasks_wall = time.perf_counter() - t
            s2 = snapshot(client)
            out["tasks"] = phase_figures(delta(s2, s1), tasks_wall, len(report.kept), args.max_concurrency)
            out["tasks"]["candidates"] = report.candidates
    out["digests"] = file_digests(out_dir)
    return out


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    print(f"machine: {json.dumps(common.machine())}")
    with common.scratch_dir("synth-cost") as tmp:
        work = Path(tmp)
        cache = Path(args.cache) if args.cache else work / "llm.sqlite"
        if cache.exists():
            raise SystemExit(f"{cache}: the cache must start empty (pass a new path or none)")
        doc = Path(args.doc) if args.doc else quick_doc(work) if args.quick else common.tooldoc(args.env)
        first = one_run(args, doc, cache, work / "run1" / args.env_id)
        second = one_run(args, doc, cache, work / "run2" / args.env_id)
    phases = ["env"] + (["tasks"] if "tasks" in first else [])
    rows = []
    for phase in phases:
        unit = "published tool" if phase == "env" else "kept task"
        for label, run in (("cold cache", first), ("warm cache", second)):
            f = run[phase]
            rows.append(
                [
                    f"{phase} ({label})",
                    f"{f['units']} x {unit}",
                    f["llm_calls"],
                    f["cache_hits"],
                    f["retries"],
                    f["prompt_tokens"],
                    f["completion_tokens"],
                    f["wall_s"],
                    f["calls_per_unit"],
                    f["prompt_tokens_per_unit"],
                    f["completion_tokens_per_unit"],
                    f["wall_s_per_unit"],
                    f["busy_over_wall"],
                    f["limit_used"],
                ]
            )
    common.print_table(
        f"synthesis of {doc.name} ({first['model']}, concurrency limit {args.max_concurrency}; "
        f"endpoint start-up {first['endpoint_startup_s']:.1f} s, not counted)",
        [
            "phase",
            "units",
            "LLM calls",
            "cache hits",
            "retries",
            "prompt tok",
            "completion tok",
            "wall s",
            "calls/unit",
            "prompt tok/unit",
            "completion tok/unit",
            "wall s/unit",
            "busy/wall",
            "limit used",
        ],
        rows,
    )
    calls1 = sum(first[p]["llm_calls"] for p in phases)
    calls2 = sum(second[p]["llm_calls"] for p in phases)
    saved = 1 - calls2 / calls1 if calls1 else float("nan")
    wall1 = sum(first[p]["wall_s"] for p in phases)
    wall2 = sum(second[p]["wall_s"] for p in phases)
    differing = [name for name in COMPARED_FILES if first["digests"][name] != second["digests"][name]]
    same = not differing
    print(
        f"\ncache on the rerun: {calls1} -> {calls2} LLM calls ({saved:.1%} saved); "
        f"wall {wall1:.1f} s -> {wall2:.1f} s "
        f"({common.fmt(common.ratio(wall1, wall2))}x); published files identical: {same}"
        + (f" (differ: {', '.join(differing)})" if differing else "")
        + f"; manifest.json identical: {first['digests']['manifest.json'] == second['digests']['manifest.json']}"
    )
    figures = {
        "env": args.env_id,
        "doc": doc.name,
        "tasks_requested": args.tasks,
        "max_concurrency": args.max_concurrency,
        "cold": first,
        "warm": second,
        "calls_saved_share": saved,
        "wall_speedup_warm": common.ratio(wall1, wall2),
        "outputs_identical": same,
        "outputs_differing": differing,
    }
    common.emit("synth_cost", figures, args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
