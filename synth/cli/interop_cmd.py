"""`forgegym env serve DIR...` (HTTP environment server) and `forgegym export DIR... --format --out` (datasets)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from synth.errors import InputError


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:  # noqa: D103
    groups["env"].command("serve")(serve_command)
    app.command("export")(export_command)


def serve_command(
    env_dirs: Annotated[
        list[Path], typer.Argument(help="Environment folders, or folders of them (e.g. envs_generated).")
    ],
    host: Annotated[str, typer.Option("--host", help="Interface to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="TCP port.")] = 8765,
    idle_timeout: Annotated[
        float, typer.Option("--idle-timeout", min=0.001, help="Seconds before an idle session is reclaimed.")
    ] = 600.0,
    max_sessions: Annotated[
        int, typer.Option("--max-sessions", min=1, help="Most sessions open at once (more get HTTP 429).")
    ] = 4096,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn log level.")] = "info",
) -> None:
    """Serve environments over HTTP: sessions, tool calls, observations, rewards (OpenAPI at /docs)."""
    from synth.interop.catalog import EnvCatalog
    from synth.interop.server import create_app

    catalog = EnvCatalog(env_dirs)
    if not len(catalog):
        raise InputError(", ".join(map(str, env_dirs)), "(folders)", "no environments found")
    app = create_app(catalog, idle_timeout_s=idle_timeout, max_sessions=max_sessions)
    import uvicorn

    typer.echo(
        f"serving {len(catalog)} environment(s) ({', '.join(catalog.env_ids())}) on http://{host}:{port} "
        f"(OpenAPI: /openapi.json, docs: /docs)",
        err=True,
    )
    uvicorn.run(app, host=host, port=port, log_level=log_level)


def export_command(
    env_dirs: Annotated[list[Path], typer.Argument(help="Environment folders, or folders of them.")],
    out: Annotated[Path, typer.Option("--out", help="Output: a .jsonl file (jsonl) or a folder (hf).")],
    fmt: Annotated[
        str, typer.Option("--format", help="jsonl: one JSON-lines file; hf: Hub-style folder (parquet + card).")
    ] = "jsonl",
    tools_in_system: Annotated[
        bool,
        typer.Option(
            "--tools-in-system/--no-tools-in-system",
            help="List the tools in the system message too (the `tools` column has them anyway).",
        ),
    ] = True,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
) -> None:
    """Export tasks and verified gold trajectories (OpenAI-style chat messages) as a dataset."""
    from synth.interop.export import FORMATS, export_dataset

    if fmt not in FORMATS:
        raise InputError("--format", "value", f"{fmt!r} is not one of {', '.join(FORMATS)}")
    report = export_dataset(env_dirs, out, fmt=fmt, tools_in_system=tools_in_system)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), sort_keys=True))
        return
    typer.echo(f"wrote {report.rows} task(s) from {len(report.envs)} environment(s) to {report.out} ({report.format})")
    for skip in report.skipped:
        typer.echo(f"skipped {skip['env_id']}/{skip['task_id']}: {skip['reason']}", err=True)
