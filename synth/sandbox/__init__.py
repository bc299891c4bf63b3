"""The sandbox for LLM-written tool code.

- `check_source(source)`: policy problems, without running anything.
- `compile_module(source)`: RestrictedPython-compiled module, top-level functions by name (in process).
- `run_cases(source, cases, ...)`: run calls in a separate process with CPU and memory limits.

`run_cases` and `CaseOutcome` are imported lazily so that the worker process starts fast.
"""

from __future__ import annotations

from typing import Any

from synth.sandbox.compile import CompiledModule, check_source, compile_module, load_module
from synth.sandbox.errors import SandboxViolation, describe_exception
from synth.sandbox.policy import ALLOWED_MODULES

__all__ = [
    "ALLOWED_MODULES",
    "CaseOutcome",
    "CompiledModule",
    "SandboxViolation",
    "STATUSES",
    "check_source",
    "compile_module",
    "describe_exception",
    "load_module",
    "run_cases",
]


def __getattr__(name: str) -> Any:
    if name in ("run_cases", "CaseOutcome", "STATUSES"):
        from synth.sandbox import runner

        return getattr(runner, name)
    raise AttributeError(f"module 'synth.sandbox' has no attribute {name!r}")
