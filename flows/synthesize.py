"""The per-doc-set synthesis flow: ingest, state schema, one task per tool, assemble, tasks, probes, publish.

    from flows.synthesize import run_synth_flow
    summary = run_synth_flow(["notes.json"], "envs_generated/notes", LLMConfig())

The stages are the plain functions of synth.envsynth.pipeline and synth.tasks.pipeline; this module only
runs them as Prefect tasks. LLM stages are cached in Prefect's result storage under keys made of their
inputs' content, the prompt templates and the pipeline's code (flows/cache.py), so a rerun after a crash
or a kill skips every step that finished. Tool tasks run concurrently, each holding one slot of a global
concurrency limit named for the LLM endpoint, and are retried with exponential backoff when the endpoint
fails. Test hook: with FORGEGYM_FLOW_EXIT_AFTER_TOOLS=N in the environment the process exits (status 86)
right after the N-th tool task finished, as if killed.
"""

from __future__ import annotations

import os
import shutil
import socket
import tempfile
import time
from pathlib import Path
from typing import Any

from prefect import flow, get_run_logger, task
from prefect.cache_policies import NO_CACHE
from prefect.futures import as_completed
from prefect.runtime import flow_run as runtime_flow_run
from prefect.runtime import task_run as runtime_task_run
from prefect.states import Failed
from prefect.tasks import exponential_backoff

from flows import runners  # sets Prefect's offline defaults before prefect is imported
from flows.cache import TASK_SOURCES, snapshot_dir, task_cache_key_fn
from flows.endpoint import (
    EndpointFailure,
    config_from_params,
    is_resolved,
    llm_endpoint,
    llm_usage,
    retry_on_endpoint_failure,
    stage_client,
)
from flows.synth_report import canonical, publish_artifact, run_stats, stage_row, summarize_run, this_run
from synth.envsynth import pipeline
from synth.errors import ForgeError
from synth.fsio import swap_folder, write_text_atomic
from synth.llm import LLMConfig
from synth.spec import DocSet, ToolSpec

DEFAULT_CACHE_DIR = ".forgegym_cache/prefect"
DEFAULT_LIMIT = "forgegym-llm"
EXIT_AFTER_TOOLS_ENV = "FORGEGYM_FLOW_EXIT_AFTER_TOOLS"
KILLED_EXIT_CODE = 86
ENV_PROMPTS = ("envsynth_", "yes_no")  # yes_no.j2 wraps the yes/no questions of both stages
TASK_PROMPTS = ("tasks_", "yes_no")
ASSEMBLY_ONLY = ("min_pass_ratio", "min_tools")  # SynthConfig fields no LLM stage reads: kept out of cache keys
RUN_STATS = "run_stats.json"  # the one published file that differs between runs


def _worker() -> dict[str, Any]:
    return {"host": socket.gethostname(), "pid": os.getpid(), "attempt": runtime_task_run.run_count}


# ----- plain data <-> stage objects ---------------------------------------------------------------------------


def docset_to_dict(docset: DocSet) -> dict[str, Any]:
    return {
        "tools": [t.to_dict() for t in docset.tools],
        "policy": docset.policy,
        "title": docset.title,
        "sources": list(docset.sources),
    }


def docset_from_dict(d: dict[str, Any]) -> DocSet:
    return DocSet(
        tools=[ToolSpec.from_dict(t) for t in d["tools"]],
        policy=d.get("policy", ""),
        title=d.get("title", ""),
        sources=list(d.get("sources") or []),
    )


def synth_config(d: dict[str, Any]) -> pipeline.SynthConfig:
    return pipeline.SynthConfig(**d)


# ----- tasks ------------------------------------------------------------------------------------------------


@task(name="ingest", cache_policy=NO_CACHE, persist_result=False)
def ingest_task(paths: list[str]) -> dict[str, Any]:
    """Load the tool docs into a DocSet (plain dict)."""
    return docset_to_dict(pipeline.ingest(paths))


@task(
    name="state-schema",
    persist_result=True,
    result_serializer="json",
    cache_key_fn=task_cache_key_fn("schema", prompt_prefixes=ENV_PROMPTS),
)
def schema_task(docset: dict[str, Any], config: dict[str, Any], llm: dict[str, Any]) -> dict[str, Any]:
    """The state schema of the environment."""
    with stage_client(llm) as client:
        result = pipeline.build_state_schema(docset_from_dict(docset), client, synth_config(config))
        usage = llm_usage(client)
    return {"schema": result.to_dict(), "llm": usage, "worker": _worker()}


@task(
    name="tool",
    task_run_name="tool-{tool_name}",
    persist_result=True,
    result_serializer="json",
    cache_key_fn=task_cache_key_fn("tool", ignore=("limit",), prompt_prefixes=ENV_PROMPTS),
)
def tool_task(
    tool_name: str,
    spec: dict[str, Any],
    docset: dict[str, Any],
    schema: dict[str, Any],
    config: dict[str, Any],
    llm: dict[str, Any],
    limit: str = "",
) -> dict[str, Any]:
    """Code, tests and repairs of one tool, holding one slot of the LLM endpoint's concurrency limit."""
    from prefect.concurrency.sync import concurrency

    with concurrency(limit or [], occupy=1, strict=False), stage_client(llm) as client:
        build = pipeline.build_tool(
            ToolSpec.from_dict(spec),
            docset_from_dict(docset),
            pipeline.SchemaResult.from_dict(schema),
            client,
            synth_config(config),
        )
        usage = llm_usage(client)
    get_run_logger().info(
        "tool %s: %s, %d/%d cases, %d LLM calls",
        tool_name,
        build.status,
        build.passed_cases,
        build.total_cases,
        usage["calls"],
    )
    return {"build": build.to_dict(), "llm": usage, "worker": _worker()}


@task(
    name="tasks",
    persist_result=True,
    result_serializer="json",
    cache_key_fn=task_cache_key_fn("tasks", prompt_prefixes=TASK_PROMPTS, sources=TASK_SOURCES),
)
def tasks_task(env_files: dict[str, str], n: int, seed: int, llm: dict[str, Any]) -> dict[str, Any]:
    """Tool graph and tasks for an environment given as its files; returns the files the stage wrote or changed.

    Working on a private copy keeps the task independent of the machine it runs on.
    """
    from synth.tasks.pipeline import generate_tasks

    with tempfile.TemporaryDirectory(prefix="forgegym-tasks-") as tmp:
        env_dir = Path(tmp) / "env"
        write_files(env_dir, env_files)
        before = snapshot_dir(env_dir)
        with stage_client(llm) as client:
            report = generate_tasks(env_dir, n=n, seed=seed, client=client)
            usage = llm_usage(client)
        after = snapshot_dir(env_dir)
        changed = {
            name: (env_dir / name).read_text(encoding="utf-8") for name in after if before.get(name) != after[name]
        }
    return {"files": changed, "report": report.to_dict(), "llm": usage, "worker": _worker()}


@task(name="fidelity", cache_policy=NO_CACHE, persist_result=False)
def fidelity_task(env_dir: str, reference: str) -> dict[str, Any]:
    """Replay a reference's trajectories on the published environment (fidelity.json, a REPORT.md section)."""
    from synth.fidelity import fidelity_step

    return fidelity_step(env_dir, reference)


@task(name="probes", cache_policy=NO_CACHE, persist_result=False)
def probes_task(env_dir: str) -> dict[str, Any]:
    """Replay every task's gold actions and run the probes (what `forgegym verify` checks)."""
    from synth.tasks.probes import probe_env_dir

    return probe_env_dir(env_dir)


# ----- files ------------------------------------------------------------------------------------------------


def write_files(folder: Path, files: dict[str, str]) -> None:
    """Write {relative name: text} under folder, each file atomically."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)


def read_files(folder: Path, skip: tuple[str, ...] = (RUN_STATS,)) -> dict[str, str]:
    """{relative name: text} of the files under folder (run figures left out: they would defeat caching)."""
    return {name: (folder / name).read_text(encoding="utf-8") for name in snapshot_dir(folder) if name not in skip}


def _exit_after_tools() -> int:
    value = os.environ.get(EXIT_AFTER_TOOLS_ENV, "").strip()
    return int(value) if value.isdigit() else 0


# ----- the flow ---------------------------------------------------------------------------------------------


def _flow_run_name() -> str:
    params = runtime_flow_run.parameters or {}
    return f"synth-{(params.get('synth') or {}).get('env_id', 'env')}"


@flow(name="forgegym-synthesize", flow_run_name=_flow_run_name, persist_result=False)
def synthesize_flow(
    paths: list[str],
    out_dir: str,
    synth: dict[str, Any],
    llm: dict[str, Any] | None = None,
    n_tasks: int = 0,
    cache_dir: str = DEFAULT_CACHE_DIR,
    llm_limit: str = DEFAULT_LIMIT,
    max_concurrency: int = 4,
    retries: int = 3,
    retry_backoff_s: float = 2.0,
    reference: str | None = None,
) -> dict[str, Any]:
    """Synthesize one environment from one doc set and publish it to out_dir; returns a summary.

    synth holds SynthConfig fields; llm the endpoint dict of flows.endpoint.llm_endpoint (unresolved, e.g. from
    a deployment, it is resolved here: the embedded model starts when no endpoint is configured). When too few
    tools pass, the run ends Failed with the summary as its data (use return_state=True to read it). Raises
    EndpointFailure when a stage still fails after its retries; finished steps are cached, so a rerun resumes.
    """
    if not is_resolved(llm):
        with llm_endpoint(config_from_params(llm)) as resolved:
            return synthesize_flow.fn(
                paths,
                out_dir,
                synth,
                resolved,
                n_tasks,
                cache_dir,
                llm_limit,
                max_concurrency,
                retries,
                retry_backoff_s,
                reference,
            )
    logger = get_run_logger()
    started = time.perf_counter()
    config = pipeline.SynthConfig(**synth)
    if llm_limit:
        runners.ensure_llm_limit(llm_limit, max_concurrency)
    options = dict(
        result_storage=runners.result_storage(cache_dir),
        retries=max(0, retries),
        retry_delay_seconds=exponential_backoff(retry_backoff_s),
        retry_jitter_factor=0.2,
        retry_condition_fn=retry_on_endpoint_failure,
    )
    stage_config = {k: v for k, v in synth.items() if k not in ASSEMBLY_ONLY}
    docset = ingest_task(list(paths))
    logger.info("%s: %d tools from %d file(s)", config.env_id, len(docset["tools"]), len(docset["sources"]))

    schema_future = schema_task.with_options(**options).submit(docset, stage_config, llm)
    schema_out = schema_future.result()
    stages = {"state-schema": stage_row(schema_future, schema_out)}

    tool_runner = tool_task.with_options(**options)
    futures = {
        tool_runner.submit(t["name"], t, docset, schema_out["schema"], stage_config, llm, llm_limit): t["name"]
        for t in docset["tools"]
    }
    exit_after, outputs, errors = _exit_after_tools(), {}, {}
    for done, future in enumerate(as_completed(list(futures)), start=1):
        name = futures[future]
        result = future.result(raise_on_failure=False)
        if isinstance(result, BaseException):
            errors[name] = f"{type(result).__name__}: {result}"
        else:
            outputs[name] = result
            stages[f"tool-{name}"] = stage_row(future, result)
        if exit_after and done >= exit_after:
            logger.warning("%s=%d: exiting now, as if killed", EXIT_AFTER_TOOLS_ENV, exit_after)
            os._exit(KILLED_EXIT_CODE)
    summary = summarize_run(config, out_dir, docset, stages, outputs, errors, llm)
    if errors:
        summary.update(published=False, reason=f"{len(errors)} tool task(s) failed; rerun to resume")
        publish_artifact(summary, started)
        raise EndpointFailure(
            f"{config.env_id}: tool tasks failed: " + "; ".join(f"{k}: {v}" for k, v in errors.items())
        )

    builds = [pipeline.ToolBuild.from_dict(outputs[t["name"]]["build"]) for t in docset["tools"]]
    schema = pipeline.SchemaResult.from_dict(schema_out["schema"])
    draft = pipeline.assemble(
        docset_from_dict(docset),
        schema,
        builds,
        config,
        run_stats(summary, stages, started),
        models={"model": llm["model"]},
    )
    if not draft.publishable:
        from synth.envsynth.publish import write_unpublished_report

        summary.update(published=False, reason=draft.reason, report=str(write_unpublished_report(draft, out_dir)))
        logger.error("%s: not published: %s", config.env_id, draft.reason)
        publish_artifact(summary, started)
        return Failed(message=f"{config.env_id}: not published: {draft.reason}", data=summary)

    out = Path(out_dir).resolve()
    if n_tasks > 0:
        staged = out.parent / f".{out.name}.staging-{os.getpid()}"
        shutil.rmtree(staged, ignore_errors=True)
        pipeline.publish_environment(draft, staged)
        try:
            tasks_future = tasks_task.with_options(**options).submit(read_files(staged), n_tasks, config.seed, llm)
            tasks_out = tasks_future.result()
            stages["tasks"] = stage_row(tasks_future, tasks_out)
            write_files(staged, {**tasks_out["files"], RUN_STATS: canonical(run_stats(summary, stages, started))})
            summary["tasks"] = tasks_out["report"]
            summary["probes"] = probes_task(str(staged))
            swap_folder(staged, out)
        finally:
            shutil.rmtree(staged, ignore_errors=True)
    else:
        pipeline.publish_environment(draft, out)
    if reference:
        summary["fidelity"] = fidelity_task(str(out), reference)
    summary.update(published=True, reason="", env_dir=str(out), stages=stages)
    summary["this_run"] = this_run(stages)
    logger.info(
        "%s: published %s (%d/%d tools pass; %d LLM calls this run, %d cached steps)",
        config.env_id,
        out,
        summary["counts"]["tools_passed"],
        summary["counts"]["tools_total"],
        summary["this_run"]["calls"],
        summary["this_run"]["cached_steps"],
    )
    publish_artifact(summary, started)
    return summary


def run_synth_flow(
    paths: list[str],
    out_dir: str | Path,
    llm_config: LLMConfig | None = None,
    n_tasks: int = 0,
    runner: str = "thread",
    dask_address: str | None = None,
    max_concurrency: int = 4,
    *,
    synth_config: pipeline.SynthConfig | None = None,
    cache_dir: str | Path = DEFAULT_CACHE_DIR,
    llm_limit: str = DEFAULT_LIMIT,
    retries: int = 3,
    retry_backoff_s: float = 2.0,
    reference: str | Path | None = None,
) -> dict[str, Any]:
    """Run synthesize_flow once (what `forgegym synth` calls): Prefect offline, the endpoint started once.

    runner "thread" runs tool tasks on max_concurrency threads; "dask" on the cluster at dask_address, or on a
    temporary local cluster. Returns the flow's summary (see synthesize_flow); raises ForgeError (with the
    summary as `.summary`) when the environment was not published, like synthesize_environment.
    """
    runners.check_runner(runner, dask_address)
    config = synth_config or pipeline.SynthConfig(env_id=Path(out_dir).name)
    with runners.prefect_api():
        if llm_limit:
            runners.ensure_llm_limit(llm_limit, max_concurrency, clear_stale=runners.api_is_temporary())
        with llm_endpoint(llm_config or LLMConfig()) as llm:
            task_runner = runners.make_task_runner(runner, max_workers=max_concurrency, dask_address=dask_address)
            state = synthesize_flow.with_options(task_runner=task_runner)(
                paths=[str(p) for p in paths],
                out_dir=str(out_dir),
                synth=config.to_dict(),
                llm=llm,
                n_tasks=n_tasks,
                cache_dir=str(Path(cache_dir).expanduser().resolve()),
                llm_limit=llm_limit,
                max_concurrency=max_concurrency,
                retries=retries,
                retry_backoff_s=retry_backoff_s,
                reference=str(reference) if reference else None,
                return_state=True,
            )
    summary = flow_summary(state)
    summary["runner"] = runners.describe_runner(runner, dask_address, max_concurrency)
    if not summary.get("published"):
        err = ForgeError(f"{config.env_id}: not published: {summary.get('reason')}")
        err.summary = summary
        raise err
    return summary


def flow_summary(state: Any) -> dict[str, Any]:
    """The summary a synthesis flow run returned (also when it ended Failed with one); re-raises its exception."""
    result = state.result(raise_on_failure=False)
    if isinstance(result, BaseException):
        raise result
    return result
