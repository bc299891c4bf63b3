"""Split a fidelity replay over worker processes: contiguous slices of the trajectories, merged in order.

Trajectories are independent (each starts from its own initial state), so the merged report equals the serial one,
example calls included (each tool keeps the first disagreement in trajectory order).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Callable

from synth.fidelity.report import FidelityReport, ToolTally

Progress = Callable[[int, int], None]


def default_workers() -> int:
    """Worker processes when none are asked for: the cores this process may use, at most 4."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(4, cores))


def slices(start: int, count: int, parts: int) -> list[tuple[int, int]]:
    """`parts` contiguous (skip, limit) slices covering trajectories start .. start+count, in order."""
    parts = max(1, min(parts, count))
    base, extra = divmod(count, parts)
    out, at = [], start
    for i in range(parts):
        size = base + (i < extra)
        out.append((at, size))
        at += size
    return out


def merge(reports: list[FidelityReport]) -> FidelityReport:
    """One report from reports of consecutive slices (in trajectory order)."""
    first = reports[0]
    out = FidelityReport(env_id=first.env_id, reference=first.reference, resynced=None if first.resynced is None else 0)
    for part in reports:
        out.trajectories += part.trajectories
        out.final_exact += part.final_exact
        _add_tally(out.total, part.total)
        for name, tally in part.tools.items():
            _add_tally(out.tools.setdefault(name, ToolTally()), tally)
        for name, ex in part.examples.items():
            out.examples.setdefault(name, ex)
        if part.resynced is not None:
            out.resynced = (out.resynced or 0) + part.resynced
    return out


def _add_tally(into: ToolTally, part: ToolTally) -> None:
    for name in ("calls", "ok", "output", "change", "all"):
        setattr(into, name, getattr(into, name) + getattr(part, name))


def _measure_slice(env_dir: str, ref_dir: str, skip: int, limit: int, resync: bool) -> FidelityReport:
    from synth.fidelity.replay import measure_fidelity

    return measure_fidelity(env_dir, ref_dir, limit=limit, resync=resync, skip=skip, workers=1)


def measure_in_parallel(
    env_dir: str | Path,
    ref_dir: str | Path,
    skip: int,
    count: int,
    resync: bool,
    workers: int,
    progress: Progress | None = None,
) -> FidelityReport:
    """The replay of trajectories skip .. skip+count on `workers` processes; progress counts finished trajectories."""
    parts = slices(skip, count, workers * 2)  # two slices per worker: progress moves, few reloads of the data
    context = multiprocessing.get_context("spawn")  # no forked copies of the parent's threads or open servers
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_measure_slice, str(env_dir), str(ref_dir), s, n, resync) for s, n in parts]
        reports, done = [], 0
        for future in futures:  # in order, so the merge sees the slices in trajectory order
            reports.append(future.result())
            done += reports[-1].trajectories
            if progress is not None:
                progress(done, count)
    return merge(reports)
