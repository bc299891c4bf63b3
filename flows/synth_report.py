"""What a synthesis flow run reports: per-stage rows, run figures (run_stats.json), the summary, and the
Prefect markdown artifact."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from prefect.artifacts import create_markdown_artifact


def stage_row(future: Any, output: dict[str, Any]) -> dict[str, Any]:
    """One stage's line of the summary: cached or computed, its recorded LLM usage, where it ran."""
    return {"cached": future.state.name == "Cached", "llm": output.get("llm", {}), "worker": output.get("worker", {})}


def run_stats(summary: dict[str, Any], stages: dict[str, dict[str, Any]], started: float) -> dict[str, Any]:
    """run_stats.json: what this run cost (differs between runs, unlike the other published files)."""
    behind = sum(s["llm"].get("calls", 0) + s["llm"].get("cache_hits", 0) for s in stages.values())
    return {**this_run(stages), "llm_requests_behind_env": behind, "wall_s": round(time.perf_counter() - started, 2)}


def canonical(obj: Any) -> str:
    """JSON as the flow writes it: sorted keys, indent 2, a final newline."""
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def this_run(stages: dict[str, dict[str, Any]]) -> dict[str, int]:
    """LLM usage of the stages computed in this run (cached stages cost nothing) and the step counts."""
    computed = [s for s in stages.values() if not s["cached"]]
    total = {
        k: sum(s["llm"].get(k, 0) for s in computed)
        for k in ("calls", "cache_hits", "prompt_tokens", "completion_tokens")
    }
    return {**total, "computed_steps": len(computed), "cached_steps": len(stages) - len(computed)}


def summarize_run(config, out_dir, docset, stages, outputs, errors, llm) -> dict[str, Any]:
    """The flow's result: counts, per-tool outcomes, LLM usage recorded by the stages (deterministic)."""
    tools = []
    for t in docset["tools"]:
        name = t["name"]
        build = (outputs.get(name) or {}).get("build") or {}
        tools.append(
            {
                "name": name,
                "status": build.get("status", "error"),
                "passed_cases": build.get("passed_cases", 0),
                "total_cases": build.get("total_cases", 0),
                "route": build.get("route"),
                "error": errors.get(name) or build.get("last_error", ""),
                "cached": stages.get(f"tool-{name}", {}).get("cached", False),
                "llm_calls": stages.get(f"tool-{name}", {}).get("llm", {}).get("calls", 0),
            }
        )
    used = [s["llm"] for s in stages.values()]
    recorded = {"llm_requests": sum(u.get("calls", 0) + u.get("cache_hits", 0) for u in used), "llm_steps": len(used)}
    passed = sum(1 for t in tools if t["status"] == "passed")
    return {
        "env_id": config.env_id,
        "env_dir": str(out_dir),
        "model": llm.get("model"),
        "tools": tools,
        "counts": {
            "tools_total": len(tools),
            "tools_passed": passed,
            "tools_failed": len(tools) - passed,
            "test_cases": sum(t["total_cases"] for t in tools if t["status"] == "passed"),
        },
        "recorded": recorded,
        "stages": stages,
        "this_run": this_run(stages),
    }


def artifact_key(env_id: str) -> str:
    """The Prefect artifact key of an environment (lowercase letters, digits and dashes)."""
    return "env-" + (re.sub(r"[^a-z0-9-]+", "-", env_id.lower()).strip("-") or "unnamed")


def render_artifact(summary: dict[str, Any], wall_s: float) -> str:
    """Markdown of one environment's run: outcome, counts, failures, cost."""
    run = summary["this_run"]
    c = summary["counts"]
    status = (
        f"published to `{summary['env_dir']}`"
        if summary.get("published")
        else f"**NOT PUBLISHED**: {summary.get('reason', '')}"
    )
    lines = [
        f"# {summary['env_id']}",
        "",
        f"Status: {status}",
        "",
        f"Tools passing their tests: **{c['tools_passed']}/{c['tools_total']}**; test cases: {c['test_cases']}",
        "",
    ]
    if "tasks" in summary:
        t = summary["tasks"]
        lines += [
            f"Tasks kept: {t.get('kept')} of {t.get('candidates')} candidates; "
            f"dropped by stage: {t.get('dropped_by_stage')}",
            "",
        ]
    if "probes" in summary:
        v = summary["probes"]
        lines += [f"Verification: {v.get('ok')}/{v.get('tasks')} tasks pass gold replay and all probes", ""]
    lines += ["| tool | status | cases | route | step | LLM calls |", "|---|---|---|---|---|---|"]
    for t in summary["tools"]:
        lines.append(
            f"| {t['name']} | {t['status']} | {t['passed_cases']}/{t['total_cases']} | {t['route'] or '-'} | "
            f"{'cached' if t['cached'] else 'computed'} | {t['llm_calls']} |"
        )
    failures = [t for t in summary["tools"] if t["status"] != "passed"]
    if failures:
        lines += ["", "## Failures", ""]
        lines += [f"- **{t['name']}**: {str(t['error'] or 'failed').splitlines()[0][:300]}" for t in failures]
    lines += [
        "",
        "## Cost",
        "",
        "| | value |",
        "|---|---|",
        f"| LLM calls this run | {run['calls']} |",
        f"| LLM cache hits this run | {run['cache_hits']} |",
        f"| tokens this run (prompt / completion) | {run['prompt_tokens']} / {run['completion_tokens']} |",
        f"| steps computed / reused from cache | {run['computed_steps']} / {run['cached_steps']} |",
        f"| LLM answers behind the environment | {summary['recorded']['llm_requests']} |",
        f"| model | {summary.get('model')} |",
        f"| wall time | {wall_s:.1f} s |",
    ]
    return "\n".join(lines) + "\n"


def publish_artifact(summary: dict[str, Any], started: float) -> None:
    wall = time.perf_counter() - started
    summary["wall_s"] = round(wall, 2)
    summary["artifact_key"] = artifact_key(summary["env_id"])
    create_markdown_artifact(
        key=summary["artifact_key"],
        markdown=render_artifact(summary, wall),
        description=f"forgegym synthesis of {summary['env_id']}",
    )
