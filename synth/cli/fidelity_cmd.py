"""`forgegym fidelity ENV_DIR --reference REF_DIR` (measure) and `--record FILE` (the reference's traces)."""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Callable, Iterator, Optional

import typer

from synth.errors import InputError


def register(app: typer.Typer, groups: dict[str, typer.Typer]) -> None:  # noqa: D103
    app.command("fidelity")(fidelity_command)


@contextmanager
def progress_bar(what: str) -> Iterator[Callable[[int, int], None]]:
    """A rich progress bar on stderr, gone when done; yields the (done, total) callback."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn(what),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        job = bar.add_task(what, total=None)

        def update(done: int, total: int) -> None:
            bar.update(job, completed=done, total=total)

        yield update


def fidelity_command(
    reference: Annotated[
        Path, typer.Option("--reference", help="Reference folder: adapter.py, trajectories.jsonl, data.json.")
    ],
    env_dir: Annotated[
        Optional[Path], typer.Argument(help="A published environment folder (omit with --record alone).")
    ] = None,
    limit: Annotated[
        Optional[int], typer.Option("--limit", min=1, help="Replay only the first N trajectories.")
    ] = None,
    skip: Annotated[int, typer.Option("--skip", min=0, help="Leave out the first N trajectories (then --limit).")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    resync: Annotated[
        bool, typer.Option("--resync", help="Also judge each call from the reference's state (complete states only).")
    ] = False,
    record: Annotated[
        Optional[Path], typer.Option("--record", help="Write the reference's traces (JSONL) to this file.")
    ] = None,
    workers: Annotated[
        int, typer.Option("--workers", min=0, help="Processes for the replay (0: the usable cores, at most 4).")
    ] = 0,
) -> None:
    """Replay a reference's trajectories on an environment and on the real implementation; report agreement."""
    from synth.fidelity import measure_fidelity, record_traces
    from synth.fidelity.parallel import default_workers
    from synth.fidelity.reference import check_reference_dir
    from synth.fidelity.render import print_table
    from synth.fidelity.replay import check_env_dir

    if env_dir is None and record is None:
        raise InputError("ENV_DIR", "(argument)", "give an environment folder, or --record FILE, or both")
    check_reference_dir(reference)
    if env_dir is not None:
        check_env_dir(env_dir)
    if record is not None:
        with progress_bar("recording") as update:
            counts = record_traces(reference, record, limit=limit, progress=update, skip=skip)
        if env_dir is None:
            print(
                json.dumps({"record": str(record), **counts}, sort_keys=True)
                if as_json
                else f"wrote {counts['trajectories']} traces ({counts['calls']} calls, "
                f"{counts['failed_calls']} failing in the reference) to {record}"
            )
            return
    if env_dir is not None:
        with progress_bar("replaying") as update:
            report = measure_fidelity(
                env_dir,
                reference,
                limit=limit,
                resync=resync,
                progress=update,
                skip=skip,
                workers=workers or default_workers(),
            )
        if as_json:
            print(json.dumps(report.to_dict(), sort_keys=True))
        else:
            print_table(report)
            if record is not None:
                print(f"wrote the reference's traces to {record}")
