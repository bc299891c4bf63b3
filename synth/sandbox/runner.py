"""Run generated code on test cases in a separate, resource-limited process.

One child process (`synth.sandbox.worker`) loads the module once and runs a whole batch. Each case has
its own CPU budget (`cpu_seconds`); a case that loops in Python gets status "timeout" and the batch goes
on. When the child dies (a loop inside C code killed by SIGXCPU, the wall-clock limit, a crash), the case
that was running gets that status and the cases after it are run again in a fresh child, at most
`max_restarts` times per batch; cases still left after that get the same status with "not run" in the
error. A module that fails to load gives every case the load status ("violation", "timeout", "memory").
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from synth.sandbox.limits import classify_death

STATUSES = ("ok", "tool_error", "exception", "violation", "timeout", "memory", "non_json", "crash")
_PROJECT_ROOT = str(Path(__file__).resolve().parents[2])


def _import_path() -> str:
    """PYTHONPATH for the worker: the project and the directory holding RestrictedPython.

    The worker runs with -S (no site module: faster start, no .pth hooks), so both must be explicit.
    """
    import RestrictedPython

    site_dir = str(Path(RestrictedPython.__file__).resolve().parents[1])
    return os.pathsep.join(dict.fromkeys([_PROJECT_ROOT, site_dir]))


@dataclass
class CaseOutcome:
    """What one case did: status (see STATUSES), the JSON result, an error text, the state afterwards.

    `state_after` is the state once the call is over, rolled back when the call failed (as the runtime
    does); None when the case did not finish or the state could not be read back.
    """

    status: str
    result: Any = None
    error: str = ""
    state_after: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def _child_env() -> dict[str, str]:
    env = {
        "PYTHONPATH": _import_path(),
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "LANG": "C.UTF-8",
        "PATH": "/usr/bin:/bin",
    }
    return env


def _run_child(
    source: str, filename: str, cases: list[dict[str, Any]], cpu_seconds: float, memory_mb: int, wall_timeout_s: float
) -> tuple[dict[int, CaseOutcome], CaseOutcome | None, bool]:
    """Run one child. Returns (outcomes by batch index, death outcome or None, module loaded)."""
    payload = json.dumps({"source": source, "filename": filename, "cases": cases}, ensure_ascii=False)
    cmd = [
        sys.executable,
        "-S",
        "-B",
        "-m",
        "synth.sandbox.worker",
        repr(float(cpu_seconds)),
        str(int(memory_mb)),
        str(len(cases)),
    ]
    with tempfile.TemporaryDirectory(prefix="forgegym-sbx-") as workdir:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=workdir,
            env=_child_env(),
            start_new_session=True,
        )
        wall_killed = False
        try:
            stdout, stderr = proc.communicate(payload.encode("utf-8"), timeout=wall_timeout_s)
        except subprocess.TimeoutExpired:
            wall_killed = True
            proc.kill()
            stdout, stderr = proc.communicate()
    outcomes: dict[int, CaseOutcome] = {}
    loaded = False
    load_failure: CaseOutcome | None = None
    for raw in stdout.decode("utf-8", errors="replace").splitlines():
        try:
            event = json.loads(raw)
        except ValueError:
            continue  # a line cut short by a kill
        kind = event.get("event")
        if kind == "loaded":
            loaded = True
        elif kind == "load_failed":
            load_failure = CaseOutcome(status=event["status"], error=f"module failed to load: {event['error']}")
        elif kind == "case":
            outcomes[event["index"]] = CaseOutcome(
                event["status"], event.get("result"), event.get("error", ""), event.get("state_after")
            )
    if load_failure is not None:
        return outcomes, load_failure, False
    if len(outcomes) == len(cases):
        return outcomes, None, True
    status, message = classify_death(
        proc.returncode, stderr.decode("utf-8", errors="replace"), wall_killed, wall_timeout_s
    )
    return outcomes, CaseOutcome(status=status, error=message), loaded


def run_cases(
    source: str,
    cases: list[dict[str, Any]],
    *,
    cpu_seconds: float = 2.0,
    memory_mb: int = 512,
    wall_timeout_s: float = 10.0,
    filename: str = "env.py",
    max_restarts: int = 2,
) -> list[CaseOutcome]:
    """Run `cases` ({"function", "state", "arguments"}) against `source` in a sandboxed child process."""
    results: list[CaseOutcome | None] = [None] * len(cases)
    pending = list(range(len(cases)))
    restarts = 0
    while pending:
        got, death, loaded = _run_child(
            source, filename, [cases[i] for i in pending], cpu_seconds, memory_mb, wall_timeout_s
        )
        for batch_index, outcome in got.items():
            results[pending[batch_index]] = outcome
        if death is None:
            break
        missing = [i for i in range(len(pending)) if i not in got]
        if not loaded:
            for batch_index in missing:
                results[pending[batch_index]] = CaseOutcome(death.status, error=death.error)
            break
        first = missing[0]
        results[pending[first]] = death
        rest = [pending[i] for i in missing[1:]]
        if restarts >= max_restarts:
            for case_index in rest:
                results[case_index] = CaseOutcome(
                    death.status, error=f"not run: the worker died on an earlier case ({death.error})"
                )
            break
        restarts += 1
        pending = rest
    return [r if r is not None else CaseOutcome("crash", error="no result from the worker") for r in results]
