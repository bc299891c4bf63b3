"""`forgegym synth` (tool docs -> published environment) and `forgegym env check`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:  # noqa: D103
    app.command("synth")(synth_command)
    groups["env"].command("check")(env_check_command)


def synth_command(
    paths: list[Path] = typer.Argument(..., help="Tool-doc files (OpenAI specs, OpenAPI, MCP, BFCL, markdown)."),
    out: Path = typer.Option(..., "--out", help="Environment folder to publish, e.g. envs_generated/todo."),
    base_url: Optional[str] = typer.Option(
        None, "--base-url", help="OpenAI-compatible endpoint (default: embedded SmolLM2)."
    ),
    model: Optional[str] = typer.Option(None, "--model"),
    api_key: Optional[str] = typer.Option(None, "--api-key"),
    tasks: int = typer.Option(0, "--tasks", help="Also synthesize this many tasks after publishing."),
    seed: int = typer.Option(0, "--seed"),
    route: str = typer.Option("auto", "--route", help="auto | code (free-form) | structured (templates)."),
    strength: str = typer.Option("auto", "--model-strength", help="auto (weak when embedded) | weak | strong."),
    engine: str = typer.Option("flow", "--engine", help="flow (Prefect, cached and resumable) | plain (no Prefect)."),
    runner: str = typer.Option("thread", "--runner", help="Prefect task runner: thread | dask."),
    dask_address: Optional[str] = typer.Option(
        None, "--dask-address", help="Scheduler address of a running Dask cluster."
    ),
    cache: Path = typer.Option(Path(".forgegym_cache/llm.sqlite"), "--cache", help="LLM answer cache (sqlite)."),
    data: Optional[Path] = typer.Option(
        None,
        "--data",
        help="Sample data that grounds the state: a JSON state, a JSONL "
        "of whole states, or a folder of JSON/JSONL/CSV collections.",
    ),
    traces: Optional[Path] = typer.Option(
        None,
        "--traces",
        help="A real system's recorded calls (forgegym fidelity "
        "--record): cases the tools are chosen by and must reproduce.",
    ),
    reference: Optional[Path] = typer.Option(
        None, "--reference", help="Reference folder: measure fidelity after publishing (fidelity.json)."
    ),
) -> None:
    """Synthesize a tested environment from tool docs and publish it to --out."""
    from synth.envsynth.pipeline import SynthConfig
    from synth.errors import ForgeError
    from synth.llm import config_from_cli, resolve_endpoint

    if reference is not None:
        from synth.fidelity.reference import check_reference_dir

        check_reference_dir(reference)  # bad input exits 2 before any LLM call
    llm_config = config_from_cli(base_url, model, api_key, str(cache))
    embedded = resolve_endpoint(llm_config).embedded
    config = SynthConfig(
        env_id=out.name,
        route=route,
        seed=seed,
        strong_model=(strength == "strong") or (strength == "auto" and not embedded),
    )
    if data is not None:  # read and check the data before anything starts or is written (bad data: exit 2)
        from synth.data import load_grounding

        sample, _ = load_grounding(str(data))
        config.data, config.data_sha256 = str(data), sample.sha256()
    if traces is not None:  # read and check the traces before anything starts (bad traces: exit 2)
        from synth.envsynth.pipeline import recorded_calls, traces_digest

        config.traces, config.traces_sha256 = str(traces), traces_digest(traces)
        recorded_calls(config.traces, config.traces_sha256, config.data)
    try:
        if engine == "flow":
            from flows.synthesize import run_synth_flow

            result = run_synth_flow(
                [str(p) for p in paths],
                out,
                llm_config,
                synth_config=config,
                n_tasks=tasks,
                runner=runner,
                dask_address=dask_address,
                reference=reference,
            )
        else:
            result = run_plain(paths, out, llm_config, config, tasks, reference)
    except ForgeError as ex:
        if getattr(ex, "path", None):
            raise
        print(f"error: {ex}", file=sys.stderr)
        raise typer.Exit(1)
    print(json.dumps(result, sort_keys=True, indent=2))


def run_plain(paths: list[Path], out: Path, llm_config, config, n_tasks: int, reference: Path | None = None) -> dict:
    """The stages in order without Prefect, with a rich progress bar; then fidelity when a reference is given."""
    from rich.progress import Progress

    from synth.envsynth.pipeline import synthesize_environment
    from synth.llm import open_client

    with open_client(llm_config) as client, Progress(transient=True) as bar:
        job = bar.add_task("synthesizing", total=None)

        def progress(what: str, i: int, n: int) -> None:
            bar.update(job, description=what, completed=i, total=n)

        models = {"model": client.model}  # not the URL: the embedded server's port changes every run
        draft = synthesize_environment([str(p) for p in paths], out, client, config, progress, models=models)
        result = {"env_dir": str(out), **draft.manifest["counts"]}
        if n_tasks:
            from synth.tasks.pipeline import generate_tasks

            report = generate_tasks(out, n=n_tasks, seed=config.seed, client=client)
            result["tasks"] = report if isinstance(report, dict) else getattr(report, "to_dict", lambda: str(report))()
        result["llm"] = client.stats.to_dict()
    if reference is not None:
        from synth.fidelity import fidelity_step

        result["fidelity"] = fidelity_step(out, reference)
    return result


def env_check_command(
    env_dir: Path = typer.Argument(..., help="A published environment folder."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
) -> None:
    """Re-load an environment in the sandbox and rerun its tests; exit 0 only if every published tool passes."""
    from rich.console import Console
    from rich.table import Table

    from synth.envsynth.check import check_environment

    res = check_environment(env_dir)
    if as_json:
        print(json.dumps(res.to_dict(), sort_keys=True))
    else:
        table = Table(title=f"{res.env_id}: {'OK' if res.ok else 'FAILED'}")
        for col in ("tool", "passed", "first failure"):
            table.add_column(col)
        for name, t in res.tools.items():
            table.add_row(name, f"{t['passed']}/{t['total']}", (t["failures"] or [""])[0][:120])
        Console().print(table)
        for p in res.problems:
            print(f"problem: {p}", file=sys.stderr)
    raise typer.Exit(0 if res.ok else 1)
