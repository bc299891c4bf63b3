"""The batch flow: every new or changed doc set under a folder (or glob) becomes an environment; unchanged ones are
skipped.

    run_batch("tooldocs/", "envs_generated", LLMConfig())          # once
    serve_batch("tooldocs/", "0 3 * * *", name="nightly", ...)     # as a scheduled deployment (blocks)

A doc set is a tool-doc file directly in the folder (env_id: its stem) or a sub-folder (env_id: its name; every
file in it belongs to the set, e.g. an OpenAPI file and a policy.md). A ledger in the output root,
`.forgegym-batch.json`, records the build key of each published set: the doc set's content hash, the synthesis
settings and the pipeline version. A set whose key is unchanged and whose folder exists is skipped.
"""

from __future__ import annotations

import datetime as dt
import glob
import json
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.artifacts import create_markdown_artifact
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed
from prefect.states import Failed
from prefect.task_runners import ThreadPoolTaskRunner

from flows import runners  # sets Prefect's offline defaults before prefect is imported
from flows.cache import docset_files, docset_hash, hash_value, llm_answer_identity
from flows.endpoint import config_from_params, is_resolved, llm_endpoint
from flows.synth_report import artifact_key
from flows.synthesize import DEFAULT_CACHE_DIR, DEFAULT_LIMIT, flow_summary, synthesize_flow
from synth import PIPELINE_VERSION
from synth.errors import InputError
from synth.fsio import write_json_atomic
from synth.llm import LLMConfig

LEDGER = ".forgegym-batch.json"
DOC_SUFFIXES = {".json", ".jsonl", ".yaml", ".yml", ".md", ".markdown"}
MAX_PARALLEL_CAP = 64  # threads of the parent flow; max_parallel bounds how many are busy


@dataclass
class DocSetEntry:
    """One doc set found in the batch source."""

    env_id: str
    paths: list[str]
    content_hash: str


def env_id_for(name: str) -> str:
    """A folder-safe environment id from a file stem or folder name."""
    return re.sub(r"[^a-z0-9_]+", "_", name.lower()).strip("_") or "env"


def _entry(path: Path) -> DocSetEntry | None:
    if path.name.startswith((".", "_")):
        return None
    if path.is_dir():
        files = [f for f in docset_files([path]) if f.suffix.lower() in DOC_SUFFIXES]
        return DocSetEntry(env_id_for(path.name), [str(f) for f in files], docset_hash(files)) if files else None
    if path.is_file() and path.suffix.lower() in DOC_SUFFIXES:
        return DocSetEntry(env_id_for(path.stem), [str(path)], docset_hash([path]))
    return None


def discover_docsets(source: str | os.PathLike) -> list[DocSetEntry]:
    """The doc sets of a folder (its files and sub-folders) or of a glob (each match); InputError when none."""
    src = Path(source)
    if src.is_dir():
        candidates = sorted(src.iterdir())
    elif any(ch in str(source) for ch in "*?["):
        candidates = [Path(p) for p in sorted(glob.glob(str(source), recursive=True))]
    else:
        raise InputError(str(source), "(path)", "not a folder or a glob of tool docs")
    entries = [e for e in (_entry(p) for p in candidates) if e is not None]
    if not entries:
        raise InputError(
            str(source), "(folder)", f"no tool docs found (files ending in {', '.join(sorted(DOC_SUFFIXES))})"
        )
    seen: dict[str, str] = {}
    for e in entries:
        if e.env_id in seen:
            raise InputError(
                e.paths[0], "(name)", f"environment id `{e.env_id}` is also made from {seen[e.env_id]}; rename one"
            )
        seen[e.env_id] = e.paths[0]
    return entries


def build_key(entry: DocSetEntry, settings: dict[str, Any]) -> str:
    """What decides whether a published set is current: docs content, settings, pipeline version."""
    return hash_value({"docs": entry.content_hash, "settings": settings, "pipeline": PIPELINE_VERSION})


def read_ledger(out_root: str | os.PathLike) -> dict[str, Any]:
    path = Path(out_root) / LEDGER
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise InputError(
            str(path), f"line {err.lineno}", f"not JSON ({err.msg}); delete the file to rebuild everything"
        ) from None
    return data if isinstance(data, dict) else {}


def write_ledger(out_root: str | os.PathLike, ledger: dict[str, Any]) -> None:
    path = Path(out_root) / LEDGER
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, ledger, indent=2)


def plan_batch(
    entries: list[DocSetEntry],
    out_root: str | os.PathLike,
    ledger: dict[str, Any],
    settings: dict[str, Any],
    force: bool = False,
) -> tuple[list[DocSetEntry], list[DocSetEntry]]:
    """(to build, to skip): a set is skipped when its ledger key is current and its folder exists."""
    todo, skip = [], []
    for e in entries:
        current = (ledger.get(e.env_id) or {}).get("build_key") == build_key(e, settings)
        (skip if current and not force and (Path(out_root) / e.env_id / "manifest.json").exists() else todo).append(e)
    return todo, skip


@task(name="docset", task_run_name="docset-{env_id}", cache_policy=NO_CACHE, persist_result=False)
def docset_task(
    env_id: str,
    paths: list[str],
    out_dir: str,
    synth: dict[str, Any],
    llm: dict[str, Any],
    n_tasks: int,
    cache_dir: str,
    llm_limit: str,
    max_concurrency: int,
    retries: int,
    retry_backoff_s: float,
    runner: str,
    dask_address: str | None,
) -> dict[str, Any]:
    """Run the per-set flow (as a subflow) for one doc set."""
    task_runner = runners.make_task_runner(runner, max_workers=max_concurrency, dask_address=dask_address)
    return flow_summary(
        synthesize_flow.with_options(task_runner=task_runner)(
            paths=paths,
            out_dir=out_dir,
            synth={**synth, "env_id": env_id},
            llm=llm,
            n_tasks=n_tasks,
            cache_dir=cache_dir,
            llm_limit=llm_limit,
            max_concurrency=max_concurrency,
            retries=retries,
            retry_backoff_s=retry_backoff_s,
            return_state=True,
        )
    )


@flow(name="forgegym-batch", persist_result=False, task_runner=ThreadPoolTaskRunner(max_workers=MAX_PARALLEL_CAP))
def batch_flow(
    source: str,
    out_root: str = "envs_generated",
    llm: dict[str, Any] | None = None,
    n_tasks: int = 0,
    max_parallel: int = 2,
    max_concurrency: int = 4,
    runner: str = "thread",
    dask_address: str | None = None,
    cache_dir: str = DEFAULT_CACHE_DIR,
    llm_limit: str = DEFAULT_LIMIT,
    force: bool = False,
    synth: dict[str, Any] | None = None,
    retries: int = 3,
    retry_backoff_s: float = 2.0,
) -> dict[str, Any]:
    """Build every new or changed doc set of source into out_root/<env_id>, at most max_parallel at once.

    synth holds SynthConfig fields other than env_id. Returns {"built", "skipped", "failed"} (env ids) and
    per-set summaries; the ledger is updated after each published set. When a set failed, the run ends Failed
    with that summary as its data (after the others were built).
    """
    if not is_resolved(llm):
        with llm_endpoint(config_from_params(llm)) as resolved:
            return batch_flow.fn(
                source,
                out_root,
                resolved,
                n_tasks,
                max_parallel,
                max_concurrency,
                runner,
                dask_address,
                cache_dir,
                llm_limit,
                force,
                synth,
                retries,
                retry_backoff_s,
            )
    if runner == "dask" and not dask_address:  # one local cluster for the whole batch
        with runners.dask_address_for(runner, None) as address:
            return batch_flow.fn(
                source,
                out_root,
                llm,
                n_tasks,
                max_parallel,
                max_concurrency,
                runner,
                address,
                cache_dir,
                llm_limit,
                force,
                synth,
                retries,
                retry_backoff_s,
            )
    logger = get_run_logger()
    synth = {k: v for k, v in (synth or {}).items() if k != "env_id"}
    settings = {"synth": synth, "n_tasks": n_tasks, "llm": llm_answer_identity(llm)}
    entries = discover_docsets(source)
    ledger = read_ledger(out_root)
    todo, skipped = plan_batch(entries, out_root, ledger, settings, force)
    logger.info("%d doc sets: %d to build, %d unchanged (skipped)", len(entries), len(todo), len(skipped))
    if llm_limit and todo:
        runners.ensure_llm_limit(llm_limit, max_concurrency)
    cache_dir = str(Path(cache_dir).expanduser().resolve())
    results: dict[str, Any] = {}
    failed: dict[str, str] = {}
    pending, running = list(todo), {}
    while pending or running:
        while pending and len(running) < max(1, max_parallel):
            e = pending.pop(0)
            future = docset_task.submit(
                e.env_id,
                e.paths,
                str(Path(out_root) / e.env_id),
                synth,
                llm,
                n_tasks,
                cache_dir,
                llm_limit,
                max_concurrency,
                retries,
                retry_backoff_s,
                runner,
                dask_address,
            )
            running[future] = e
        future = next(as_completed(list(running)))
        e = running.pop(future)
        outcome = future.result(raise_on_failure=False)
        if isinstance(outcome, BaseException) or not outcome.get("published"):
            failed[e.env_id] = (
                str(outcome) if isinstance(outcome, BaseException) else outcome.get("reason", "not published")
            )
            logger.error("%s: %s", e.env_id, failed[e.env_id])
            continue
        results[e.env_id] = outcome
        ledger[e.env_id] = {
            "build_key": build_key(e, settings),
            "docs_sha256": e.content_hash,
            "paths": e.paths,
            "published_at": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
            "artifact": artifact_key(e.env_id),
        }
        write_ledger(out_root, ledger)
    summary = {
        "source": str(source),
        "out_root": str(out_root),
        "built": sorted(results),
        "failed": failed,
        "skipped": sorted(e.env_id for e in skipped),
        "envs": results,
    }
    create_markdown_artifact(
        key="batch-" + artifact_key(Path(str(source)).name or "docs")[4:],
        markdown=render_batch(summary),
        description=f"forgegym batch over {source}",
    )
    if failed:
        return Failed(message=f"{len(failed)} doc set(s) failed: {', '.join(sorted(failed))}", data=summary)
    return summary


def render_batch(summary: dict[str, Any]) -> str:
    """Markdown of one batch run."""
    lines = [
        f"# Batch over `{summary['source']}`",
        "",
        f"Built {len(summary['built'])}, skipped {len(summary['skipped'])} (unchanged), "
        f"failed {len(summary['failed'])}.",
        "",
        "| environment | outcome | tools passing | LLM calls this run |",
        "|---|---|---|---|",
    ]
    for env_id in summary["built"]:
        s = summary["envs"][env_id]
        lines.append(
            f"| {env_id} | built | {s['counts']['tools_passed']}/{s['counts']['tools_total']} "
            f"| {s['this_run']['calls']} |"
        )
    lines += [f"| {env_id} | skipped (unchanged) | | 0 |" for env_id in summary["skipped"]]
    lines += [f"| {env_id} | failed: {why[:200]} | | |" for env_id, why in sorted(summary["failed"].items())]
    return "\n".join(lines) + "\n"


def batch_parameters(
    source: str | os.PathLike, out_root: str | os.PathLike, llm_config: LLMConfig | None = None, **options: Any
) -> dict[str, Any]:
    """batch_flow's parameters with absolute paths and no API key (for a deployment, which runs elsewhere)."""
    llm = asdict(llm_config or LLMConfig())
    llm.pop("api_key", None)
    if llm.get("cache_path"):
        llm["cache_path"] = str(Path(llm["cache_path"]).expanduser().resolve())
    src = str(source)
    if not any(ch in src for ch in "*?["):
        src = str(Path(src).expanduser().resolve())
    options = {k: str(Path(v).expanduser().resolve()) if isinstance(v, os.PathLike) else v for k, v in options.items()}
    return {"source": src, "out_root": str(Path(out_root).expanduser().resolve()), "llm": llm, **options}


def run_batch(
    source: str | os.PathLike,
    out_root: str | os.PathLike = "envs_generated",
    llm_config: LLMConfig | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Run batch_flow once, offline (temporary Prefect API unless one is configured)."""
    runners.check_runner(options.get("runner", "thread"), options.get("dask_address"))
    discover_docsets(source)  # bad input fails here, before Prefect starts
    params = batch_parameters(source, out_root, llm_config, **options)
    with runners.prefect_api():
        limit = params.get("llm_limit", DEFAULT_LIMIT)
        if limit:
            runners.ensure_llm_limit(limit, params.get("max_concurrency", 4), clear_stale=runners.api_is_temporary())
        with llm_endpoint(llm_config or LLMConfig()) as llm:
            return flow_summary(batch_flow(**{**params, "llm": llm}, return_state=True))


def batch_deployment(
    source: str | os.PathLike,
    cron: str,
    name: str,
    out_root: str | os.PathLike = "envs_generated",
    llm_config: LLMConfig | None = None,
    **options: Any,
):
    """A RunnerDeployment of batch_flow on a cron schedule (serve it with prefect.serve)."""
    discover_docsets(source)
    runners.check_cron(cron)
    params = batch_parameters(source, out_root, llm_config, **options)
    from prefect.types.entrypoint import EntrypointType

    return batch_flow.to_deployment(
        name=name,
        cron=cron,
        parameters=params,
        entrypoint_type=EntrypointType.MODULE_PATH,
        description=f"forgegym: synthesize new or changed tool docs under {params['source']}",
    )


def serve_batch(
    source: str | os.PathLike,
    cron: str,
    name: str,
    out_root: str | os.PathLike = "envs_generated",
    llm_config: LLMConfig | None = None,
    port: int = 4200,
    **options: Any,
) -> None:
    """Serve the batch deployment until interrupted, against PREFECT_API_URL or a local `prefect server start`."""
    from prefect import serve

    deployment = batch_deployment(source, cron, name, out_root, llm_config, **options)
    with runners.scheduling_api(port=port) as api_url:
        print(f"serving deployment forgegym-batch/{name} on cron {cron!r}; Prefect UI: {api_url.removesuffix('/api')}")
        serve(deployment)
