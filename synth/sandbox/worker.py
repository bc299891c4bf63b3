"""The sandbox child process: `python -m synth.sandbox.worker CPU_SECONDS MEMORY_MB N_CASES`.

Reads `{"source", "filename", "cases"}` as JSON on stdin, applies the limits, loads the module and runs
the cases one after the other, writing one JSON line per event on stdout:
`{"event": "loaded"}` or `{"event": "load_failed", "status", "error"}`, then for each case
`{"event": "case", "index", "status", "error", "result", "state_after"}`.
Anything the generated code could print goes to stderr, never onto that channel.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any, Callable, TextIO

from synth.errors import ToolError
from synth.sandbox.compile import load_module
from synth.sandbox.errors import CaseTimeout, SandboxViolation, describe_exception
from synth.sandbox.journal import WriteContext, activate
from synth.sandbox.limits import apply_process_limits, arm_case, disarm_case


def _dumps(value: Any) -> str:
    return json.dumps(value, allow_nan=False, sort_keys=True, ensure_ascii=False)


def _case_line(index: int, status: str, error: str = "", result: str = "null", state: str = "null") -> str:
    return (
        f'{{"event":"case","index":{index},"status":{_dumps(status)},"error":{_dumps(error)},'
        f'"result":{result},"state_after":{state}}}'
    )


def run_case(functions: dict[str, Callable[..., Any]], case: dict[str, Any], index: int, filename: str) -> str:
    """Run one case (no limits handling here) and return its JSON line."""
    name = case.get("function")
    fn = functions.get(name) if isinstance(name, str) else None
    if fn is None:
        return _case_line(index, "exception", f"function {name!r} is not defined in {filename}")
    state, arguments = case.get("state"), case.get("arguments") or {}
    if not isinstance(arguments, dict):
        return _case_line(index, "exception", "case arguments must be a JSON object")
    ctx = WriteContext()
    previous = activate(ctx)
    status, error = "ok", ""
    try:
        result = fn(state, **arguments)
    except ToolError as err:
        status, error, result = "tool_error", str(err), None
    except SandboxViolation as err:
        status, error, result = "violation", describe_exception(err, filename), None
    except MemoryError as err:
        status, error, result = "memory", describe_exception(err, filename), None
    except Exception as err:  # noqa: BLE001 - any bug in generated code is a result here
        status, error, result = "exception", describe_exception(err, filename), None
    finally:
        activate(previous)
    result_json = "null"
    if status == "ok":
        try:
            result_json = json.dumps(result, allow_nan=False, sort_keys=True, ensure_ascii=False)
        except (TypeError, ValueError, RecursionError) as err:
            status, error = "non_json", f"result is not JSON-serializable: {type(err).__name__}: {err}"
    if status != "ok":
        ctx.rollback()  # the runtime keeps tools atomic; report the state it would keep
    if status in ("violation", "memory"):
        return _case_line(index, status, error)
    try:
        state_json = json.dumps(state, allow_nan=False, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError) as err:
        return _case_line(index, "non_json", f"state is not JSON-serializable after the call: {err}")
    return _case_line(index, status, error, result_json, state_json)


def _guarded_case(
    functions: dict[str, Callable[..., Any]], case: Any, index: int, filename: str, cpu_seconds: float
) -> str:
    # The timer is stopped (inner `finally`) before any handler runs: a handler that ran with the timer
    # still armed could itself be interrupted by the timer's 50 ms re-fire and let CaseTimeout escape and
    # kill the worker (seen once in CI on a memory-hungry case).
    try:
        try:
            arm_case(cpu_seconds)
            if not isinstance(case, dict):
                return _case_line(index, "exception", "case must be a JSON object")
            return run_case(functions, case, index, filename)
        finally:
            disarm_case()
    except CaseTimeout:
        return _case_line(index, "timeout", f"CPU time limit of {cpu_seconds:g} s exceeded")
    except MemoryError:
        return _case_line(index, "memory", "memory limit exceeded")


def _load(source: str, filename: str, cpu_seconds: float) -> tuple[dict[str, Callable[..., Any]] | None, str]:
    try:
        try:
            arm_case(cpu_seconds)
            module = load_module(source, filename)
            return module.functions, '{"event":"loaded"}'
        finally:
            disarm_case()
    except SandboxViolation as err:
        status, error = "violation", err.reason
    except CaseTimeout:
        status, error = "timeout", f"module body exceeded the CPU limit of {cpu_seconds:g} s"
    except MemoryError:
        status, error = "memory", "module body exceeded the memory limit"
    return None, f'{{"event":"load_failed","status":{_dumps(status)},"error":{_dumps(error)}}}'


def main(argv: list[str] | None = None, stdin: TextIO | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    cpu_seconds, memory_mb, n_cases = float(args[0]), int(args[1]), int(args[2])
    out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # stray prints go to stderr
    sys.stdout = sys.stderr
    payload = json.loads((stdin or sys.stdin).read())
    apply_process_limits(memory_mb, cpu_seconds * (n_cases + 1) + 1.0)
    filename = payload.get("filename") or "env.py"
    functions, line = _load(payload["source"], filename, cpu_seconds)
    out.write(line + "\n")
    out.flush()
    if functions is None:
        return 0
    for index, case in enumerate(payload.get("cases") or []):
        out.write(_guarded_case(functions, case, index, filename, cpu_seconds) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
