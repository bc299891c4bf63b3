"""`forgegym batch DIR` (synthesize every new or changed doc set once) and
`forgegym schedule DIR --cron CRON [--name N]` (serve that batch as a scheduled Prefect deployment)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

DEFAULT_OUT = Path("envs_generated")


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:  # noqa: D103
    app.command("batch")(batch_command)
    app.command("schedule")(schedule_command)


Source = Annotated[
    str, typer.Argument(help="Folder of tool docs (each file or sub-folder is one doc set), or a quoted glob.")
]
Out = Annotated[Path, typer.Option("--out", help="Folder that receives one environment folder per doc set.")]
BaseUrl = Annotated[
    Optional[str],
    typer.Option("--base-url", help="OpenAI-compatible endpoint (default: $OPENAI_BASE_URL, else the embedded model)."),
]
Model = Annotated[Optional[str], typer.Option("--model", help="Model name at the endpoint.")]
ApiKey = Annotated[
    Optional[str], typer.Option("--api-key", help="API key (default: $OPENAI_API_KEY); never stored in the deployment.")
]
Tasks = Annotated[int, typer.Option("--tasks", min=0, help="Also synthesize this many tasks per environment.")]
MaxParallel = Annotated[int, typer.Option("--max-parallel", min=1, help="Doc sets synthesized at once.")]
MaxConcurrency = Annotated[
    int, typer.Option("--max-concurrency", min=1, help="LLM-calling tasks at once (Prefect concurrency limit).")
]
Runner = Annotated[str, typer.Option("--runner", help="Task runner of each doc set's flow: thread | dask.")]
DaskAddress = Annotated[
    Optional[str], typer.Option("--dask-address", help="Scheduler of a running Dask cluster (default: a local one).")
]
CacheDir = Annotated[Path, typer.Option("--cache-dir", help="Prefect result storage of finished steps.")]
LlmCache = Annotated[Path, typer.Option("--cache", help="LLM answer cache (sqlite).")]
Force = Annotated[bool, typer.Option("--force", help="Rebuild every doc set, changed or not.")]


def _options(
    tasks: int,
    max_parallel: int,
    max_concurrency: int,
    runner: str,
    dask_address: Optional[str],
    cache_dir: Path,
    force: bool,
) -> dict:
    return {
        "n_tasks": tasks,
        "max_parallel": max_parallel,
        "max_concurrency": max_concurrency,
        "runner": runner,
        "dask_address": dask_address,
        "cache_dir": str(cache_dir.expanduser().resolve()),
        "force": force,
    }


def batch_command(
    source: Source,
    out: Out = DEFAULT_OUT,
    base_url: BaseUrl = None,
    model: Model = None,
    api_key: ApiKey = None,
    tasks: Tasks = 0,
    max_parallel: MaxParallel = 2,
    max_concurrency: MaxConcurrency = 4,
    runner: Runner = "thread",
    dask_address: DaskAddress = None,
    cache_dir: CacheDir = Path(".forgegym_cache/prefect"),
    cache: LlmCache = Path(".forgegym_cache/llm.sqlite"),
    force: Force = False,
) -> None:
    """Synthesize every new or changed doc set under SOURCE once (the flow `forgegym schedule` serves)."""
    from flows.batch import run_batch
    from synth.llm import config_from_cli

    summary = run_batch(
        source,
        out,
        config_from_cli(base_url, model, api_key, str(cache)),
        **_options(tasks, max_parallel, max_concurrency, runner, dask_address, cache_dir, force),
    )
    print(json.dumps({k: summary[k] for k in ("built", "skipped", "failed")}, sort_keys=True))
    if summary["failed"]:
        raise typer.Exit(1)


def schedule_command(
    source: Source,
    cron: Annotated[str, typer.Option("--cron", help='Cron schedule, e.g. "0 3 * * *" (03:00 every day).')],
    name: Annotated[Optional[str], typer.Option("--name", help="Deployment name (default: forgegym-<folder>).")] = None,
    out: Out = DEFAULT_OUT,
    base_url: BaseUrl = None,
    model: Model = None,
    api_key: ApiKey = None,
    tasks: Tasks = 0,
    max_parallel: MaxParallel = 2,
    max_concurrency: MaxConcurrency = 4,
    runner: Runner = "thread",
    dask_address: DaskAddress = None,
    cache_dir: CacheDir = Path(".forgegym_cache/prefect"),
    cache: LlmCache = Path(".forgegym_cache/llm.sqlite"),
    port: Annotated[
        int, typer.Option("--port", help="Port of the local Prefect server started when PREFECT_API_URL is unset.")
    ] = 4200,
) -> None:
    """Serve the batch flow over SOURCE as a Prefect deployment on a cron schedule (runs until Ctrl-C).

    Uses the Prefect server at PREFECT_API_URL; without one, uses or starts `prefect server start` on
    127.0.0.1:PORT (its UI shows the runs). Each run rebuilds only new or changed doc sets.
    """
    from flows import batch, runners
    from synth.llm import config_from_cli

    runners.check_cron(cron)
    deployment_name = name or "forgegym-" + batch.env_id_for(Path(source.split("*")[0] or ".").resolve().name)
    llm = config_from_cli(base_url, model, api_key, str(cache))
    options = _options(tasks, max_parallel, max_concurrency, runner, dask_address, cache_dir, False)
    options.pop("force")
    batch.serve_batch(source, cron, deployment_name, out, llm, port=port, **options)
