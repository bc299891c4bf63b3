"""Assemble an environment folder from the builds and publish it atomically."""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import synth
from synth.envsynth.codegen import header_source
from synth.envsynth.plan import ToolPlan
from synth.envsynth.schema_stage import SchemaResult, schema_summary
from synth.envsynth.tool_stage import ToolBuild
from synth.fsio import staged_folder
from synth.spec import DocSet


@dataclass
class EnvDraft:
    """Everything an environment folder holds, before it is written."""

    env_id: str
    manifest: dict[str, Any]
    state_schema: dict[str, Any]
    source: str
    tests: list[dict[str, Any]]
    report: str
    publishable: bool
    reason: str = ""
    extra_files: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "EnvDraft":
        return cls(**d)


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def assemble_environment(
    docset: DocSet,
    schema: SchemaResult,
    builds: list[ToolBuild],
    *,
    env_id: str,
    min_pass_ratio: float,
    min_tools: int,
    stats: dict[str, Any],
    models: dict[str, Any],
    notes: tuple[str, ...] = (),
    policy: str | None = None,
) -> EnvDraft:
    """Join passing tools into env.py, write the manifest, tests and REPORT.md text (`policy`: the domain policy the
    agent reads, when it differs from the docs' own: with the business date the tools were built on)."""
    specs = {t.name: t for t in docset.tools}
    from synth.envsynth.gate import same_change_problems

    same = same_change_problems(builds, specs)
    builds = [
        ToolBuild.from_dict({**b.to_dict(), "status": "failed", "last_error": "publish gate: " + same[b.name]})
        if b.name in same
        else b
        for b in builds
    ]
    builds, kept = _kept_partial(builds, min_pass_ratio, min_tools)
    passed = [b for b in builds if b.status == "passed"]
    failed = [b for b in builds if b.status != "passed"]
    collections = [k for k, v in schema.state_schema["properties"].items() if "additionalProperties" in v]
    tools = []
    for b in passed:
        entry = specs[b.name].to_dict()
        plan = ToolPlan.from_dict(b.plan) if b.plan else None
        entry.update(
            {
                "function": b.function,
                "route": b.route,
                "kind": plan.kind if plan else "free_form",
                "collection": plan.collection if plan else None,
                "key_param": plan.key_param if plan else None,
                "reads": (collections if plan and plan.kind == "dump" else plan.reads) if plan else [],
                "writes": plan.writes if plan else [],
            }
        )
        tools.append(entry)
    ratio = len(passed) / max(1, len(builds))
    publishable = ratio >= min_pass_ratio and len(passed) >= min_tools
    reason = (
        ""
        if publishable
        else f"only {len(passed)}/{len(builds)} tools pass (need {min_pass_ratio:.0%} and at least {min_tools})"
    )
    body = "".join("\n\n" + b.source.strip() + "\n" for b in passed)
    source = header_source(env_id, synth.PIPELINE_VERSION, body) + body
    manifest = {
        "env_id": env_id,
        "title": docset.title or env_id,
        "source_docs": docset.sources,
        "pipeline_version": synth.PIPELINE_VERSION,
        "models": models,
        "policy": docset.policy if policy is None else policy,
        "tools": tools,
        "excluded_tools": [{"name": b.name, "error": b.last_error or "failed"} for b in failed],
        "state_schema_source": schema.source,
        "counts": {
            "tools_total": len(builds),
            "tools_passed": len(passed),
            "test_cases": sum(b.total_cases for b in passed),
        },
    }
    if kept:  # published though they miss documented changes: to publish at all
        manifest["partial_tools"] = [{"name": name, "missing": why} for name, why in sorted(kept.items())]
    tests = [t for b in passed for t in b.tests]
    report = render_report(env_id, docset, schema, builds, stats, publishable, reason, kept, notes)
    # Run figures (wall time, calls, cache hits) differ between runs, so they live beside the deterministic files.
    extra = {"run_stats.json": canonical(stats)}
    return EnvDraft(env_id, manifest, schema.state_schema, source, tests, report, publishable, reason, extra)


def _kept_partial(
    builds: list[ToolBuild], min_pass_ratio: float, min_tools: int
) -> tuple[list[ToolBuild], dict[str, str]]:
    """The builds with the ones left out only for missing some documented changes (gate.only_partial) passed
    again, when without them too few tools pass to publish and with them enough do; {name: what they miss}."""
    from synth.envsynth.gate import GATE_PREFIX, only_partial

    passed = sum(b.status == "passed" for b in builds)
    partial = [b for b in builds if b.status != "passed" and only_partial(b.last_error or "")]
    total = max(1, len(builds))
    if (passed / total >= min_pass_ratio and passed >= min_tools) or not partial:
        return builds, {}
    if (passed + len(partial)) / total < min_pass_ratio or passed + len(partial) < min_tools:
        return builds, {}
    kept = {b.name: (b.last_error or "")[len(GATE_PREFIX) :] for b in partial}
    return [ToolBuild.from_dict({**b.to_dict(), "status": "passed"}) if b.name in kept else b for b in builds], kept


def render_report(
    env_id: str,
    docset: DocSet,
    schema: SchemaResult,
    builds: list[ToolBuild],
    stats: dict[str, Any],
    publishable: bool,
    reason: str,
    kept: dict[str, str] | None = None,
    notes: tuple[str, ...] = (),
) -> str:
    """REPORT.md: what was built, what failed and why, and the counts."""
    passed = [b for b in builds if b.status == "passed"]
    lines = [
        f"# {env_id}: synthesis report",
        "",
        f"Sources: {', '.join(s['path'] for s in docset.sources)}",
        "",
        f"Tools passing their tests: **{len(passed)}/{len(builds)}** ({len(passed) / max(1, len(builds)):.0%})"
        + ("" if publishable else f" — NOT PUBLISHED: {reason}"),
        "",
        f"State: {schema_summary(schema)}",
        "",
        *[line for note in notes for line in (note, "")],
        "| tool | status | route | plan | cases passed | repairs |",
        "|---|---|---|---|---|---|",
    ]
    traced = any(b.traces_total for b in builds)
    if traced:
        lines[-2:] = [
            "| tool | status | route | plan | cases passed | repairs | recorded calls reproduced |",
            "|---|---|---|---|---|---|---|",
        ]
    for b in builds:
        plan = b.plan["kind"] if b.plan else "free-form"
        row = (
            f"| {b.name} | {b.status} | {b.route} | {plan} | {b.passed_cases}/{b.total_cases} "
            f"| {max(0, len(b.attempts) - 1)} |"
        )
        lines.append(row + (f" {b.traces_reproduced}/{b.traces_total} |" if traced else ""))
    missed = [b for b in builds if b.trace_failure]
    if missed:
        lines += ["", "## Recorded calls not reproduced (--traces)", ""]
        lines += [f"- {b.name}: {b.trace_failure}".replace("\n", " ")[:400] for b in missed]
    if kept:
        lines += ["", "## Published though they do part of what their docs say", ""]
        lines += ["Left out, too few tools would pass to publish the environment; these writes miss changes:", ""]
        lines += [f"- {name}: {why}"[:400] for name, why in sorted(kept.items())]
    failed = [b for b in builds if b.status != "passed"]
    if failed:
        lines += ["", "## Left out", ""]
        for b in failed:
            lines += [f"### {b.name}", "", "```", (b.last_error or "failed")[:1500], "```", ""]
    dropped = [(b.name, d) for b in builds for d in b.dropped_tests]
    if dropped:
        lines += ["", "## Tests dropped (judged wrong, or inconsistent)", ""]
        lines += [f"- {name}: {d.get('failure') or d.get('reason')}"[:300] for name, d in dropped]
    lines += ["", "LLM calls, tokens and wall time of the latest run: `run_stats.json`.", ""]
    return "\n".join(lines)


def publish_environment(draft: EnvDraft, out_dir: str | Path) -> Path:
    """Write the folder beside `out_dir` and rename it into place; an old folder is replaced whole."""
    out = Path(out_dir)
    files = {
        "manifest.json": canonical(draft.manifest),
        "state_schema.json": canonical(draft.state_schema),
        "env.py": draft.source,
        "tests.json": canonical(draft.tests),
        "REPORT.md": draft.report,
        **draft.extra_files,
    }
    with staged_folder(out) as tmp:
        same_code = (
            out.exists() and (out / "env.py").exists() and (out / "env.py").read_text(encoding="utf-8") == draft.source
        )
        if same_code:  # later stages' outputs (tasks, graph) stay valid only for the same code
            for keep in ("tasks.jsonl", "graph.json", "tasks_dropped.jsonl"):
                if (out / keep).exists() and keep not in files:
                    shutil.copy2(out / keep, tmp / keep)
        for name, text in files.items():
            (tmp / name).parent.mkdir(parents=True, exist_ok=True)
            (tmp / name).write_text(text, encoding="utf-8")
    return out


def write_unpublished_report(draft: EnvDraft, out_dir: str | Path) -> Path:
    """The report of an environment too broken to publish, at `OUT.unpublished.md` (never inside OUT, which keeps
    whatever was published there before): every tool's status and the reason each one failed."""
    from synth.fsio import write_text_atomic

    out = Path(out_dir)
    path = out.with_name(out.name + ".unpublished.md")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text_atomic(path, f"<!-- not published: {draft.reason} -->\n" + draft.report)
    return path
