"""Resource limits for the sandbox worker process, and how the parent reads a worker's death.

Inside the worker:
- RLIMIT_AS caps the address space (a memory bomb gets MemoryError), RLIMIT_FSIZE and RLIMIT_CORE are 0;
- each case arms a CPU timer (ITIMER_PROF) that raises `CaseTimeout` between bytecodes, and lowers the
  soft RLIMIT_CPU to about the same budget so that a loop inside C code (a catastrophic regex, a huge
  power) is killed by SIGXCPU instead.
"""

from __future__ import annotations

import math
import resource
import signal
from typing import Any

from synth.sandbox.errors import CaseTimeout

_TIMER_REPEAT_S = 0.05  # re-fire so that a `finally:` that loops again is interrupted too


_armed = False  # the handler raises only while a case runs; a late, already-queued tick does nothing


def _on_timer(signum: int, frame: Any) -> None:
    if _armed:
        raise CaseTimeout()


def apply_process_limits(memory_mb: int, cpu_total_s: float) -> None:
    """Cap the current process (call once, early, in the worker)."""
    limit = int(memory_mb) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
    hard = max(1, math.ceil(cpu_total_s)) + 2
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
    signal.signal(signal.SIGPROF, _on_timer)


def cpu_used() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def arm_case(cpu_seconds: float) -> None:
    """Start one case's CPU budget: a Python-level timer plus a slightly later hard stop."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(cpu_used() + cpu_seconds + 0.25)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    global _armed
    _armed = True
    signal.setitimer(signal.ITIMER_PROF, cpu_seconds, _TIMER_REPEAT_S)


def disarm_case() -> None:
    """Stop the case timer, even if it fires while being stopped."""
    global _armed
    _armed = False
    while True:
        try:
            signal.setitimer(signal.ITIMER_PROF, 0, 0)
            return
        except CaseTimeout:
            continue


def classify_death(returncode: int | None, stderr: str, wall_killed: bool, wall_timeout_s: float) -> tuple[str, str]:
    """(status, message) for a worker that stopped without reporting every case."""
    tail = stderr.strip().splitlines()[-1:] if stderr.strip() else []
    detail = f": {tail[0][:300]}" if tail else ""
    if wall_killed:
        return "timeout", f"wall-clock limit of {wall_timeout_s:g} s exceeded; worker killed"
    if returncode is not None and returncode < 0:
        sig = -returncode
        if sig == signal.SIGXCPU:
            return "timeout", "CPU time limit exceeded (killed by SIGXCPU)"
        if "MemoryError" in stderr:
            return "memory", f"worker killed by signal {sig} after a MemoryError{detail}"
        name = signal.Signals(sig).name if sig in signal.Signals._value2member_map_ else str(sig)
        return "crash", f"worker killed by signal {name}{detail}"
    if "MemoryError" in stderr:
        return "memory", f"worker ran out of memory{detail}"
    return "crash", f"worker exited with status {returncode}{detail}"
