"""`forgegym fidelity --record FILE`: the reference's trajectories with what each call did (the traces format).

One JSON object a line, a trajectory as in trajectories.jsonl (id, its context fields, `initial_state` when it
has its own) with each call extended by the reference's `ok`, `output` and `changes` (changed leaves, sorted by
path: {"path", "value"} or {"path", "deleted": true}). See docs/fidelity.md.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable

from synth.errors import InputError
from synth.fidelity.diff import change_list
from synth.fidelity.reference import Trajectory, load_data, load_reference, load_trajectories
from synth.fidelity.sides import ReferenceSide

TRACE_FORMAT = "forgegym-traces/1"


def trace_line(trajectory: Trajectory, steps: list[dict[str, Any]]) -> str:
    """One trace line: canonical JSON (sorted keys), so the same reference gives the same bytes."""
    row: dict[str, Any] = {"format": TRACE_FORMAT, "id": trajectory.id, **trajectory.context, "calls": steps}
    if trajectory.initial_state is not None:
        row["initial_state"] = trajectory.initial_state
    return json.dumps(row, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def record_traces(
    ref_dir: str | Path,
    out: str | Path,
    limit: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    skip: int = 0,
) -> dict[str, int]:
    """Replay the reference alone and write its traces to `out` (temp file + rename); returns counts.

    `skip` leaves out the first trajectories and `limit` keeps at most that many of the rest.
    """
    ref = load_reference(ref_dir)
    trajectories = load_trajectories(ref.ref_dir, limit, skip)
    data = load_data(ref.ref_dir, trajectories)
    out_path = Path(out)
    if out_path.is_dir():
        raise InputError(str(out_path), "(file)", "is a folder; --record needs a file path")
    total, done, failed = sum(len(t.calls) for t in trajectories), 0, 0
    lines, side = [], ReferenceSide(ref)
    for trajectory in trajectories:
        own = trajectory.initial_state is not None
        side.reset(trajectory.initial_state if own else data, one_off=own)
        steps = []
        for call in trajectory.calls:
            result, changes = side.call(call)
            steps.append(
                {
                    "name": call.name,
                    "arguments": call.arguments,
                    "ok": result["ok"],
                    "output": result["output"],
                    "changes": change_list(changes),
                }
            )
            failed += not result["ok"]
            done += 1
            if progress is not None:
                progress(done, total)
        lines.append(trace_line(trajectory, steps))
    out_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = out_path.with_name(f".{out_path.name}.tmp-{os.getpid()}")
    try:
        tmp.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    except OSError as err:
        raise InputError(str(out_path), "(file)", f"cannot write: {err}") from None
    os.replace(tmp, out_path)
    return {"trajectories": len(lines), "calls": total, "failed_calls": failed}
