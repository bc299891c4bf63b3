"""Compile generated env.py code with RestrictedPython and load its functions.

`compile_module` runs the module body in the calling process. The static rules keep that body to
definitions and bounded constants, but code that nobody has run yet should first go through
`run_cases`, which loads it in a separate process under CPU and memory limits.
"""

from __future__ import annotations

import hashlib
import threading
import types
from typing import Any, Callable

from RestrictedPython import compile_restricted_exec

from synth.sandbox.checks import check_tree, parse_source, rewrite_tree
from synth.sandbox.errors import SandboxViolation
from synth.sandbox.guards import restricted_globals
from synth.sandbox.journal import MUTABLE_TYPES


class CompiledModule:
    """A loaded restricted module: its top-level functions, globals and source hash."""

    __slots__ = ("functions", "globals", "sha256", "filename")

    def __init__(
        self, functions: dict[str, Callable[..., Any]], globals: dict[str, Any], sha256: str, filename: str
    ) -> None:
        self.functions = functions
        self.globals = globals
        self.sha256 = sha256
        self.filename = filename

    def __repr__(self) -> str:
        return f"CompiledModule({self.filename}, sha256={self.sha256[:12]}, functions={sorted(self.functions)})"


# CPython 3.11's AST <-> code conversion keeps a process-wide recursion counter that threads compiling at the same
# time can corrupt (a CPython race: "SystemError: AST constructor recursion depth mismatch", seen once in a flow
# with a thread runner): compile one module at a time.
_COMPILE_LOCK = threading.Lock()


def _compile(source: str, filename: str) -> tuple[types.CodeType | None, list[str]]:
    with _COMPILE_LOCK:
        return _compile_unlocked(source, filename)


def _compile_unlocked(source: str, filename: str) -> tuple[types.CodeType | None, list[str]]:
    tree, problems = parse_source(source, filename)
    if tree is None:
        return None, problems
    problems = check_tree(tree)
    result = compile_restricted_exec(rewrite_tree(tree), filename=filename)
    for err in result.errors:
        text = str(err)
        if text not in problems:
            problems.append(text)
    return (result.code if not problems else None), problems


def check_source(source: str, filename: str = "env.py") -> list[str]:
    """Every policy problem in `source`, without executing anything (empty list: it may be loaded)."""
    return _compile(source, filename)[1]


def _constant_ids(values: list[Any]) -> set[int]:
    """Ids of every mutable container reachable from module-level constants."""
    seen: set[int] = set()
    stack = list(values)
    while stack:
        value = stack.pop()
        if type(value) in MUTABLE_TYPES or isinstance(value, tuple):
            if id(value) in seen:
                continue
            if type(value) in MUTABLE_TYPES:
                seen.add(id(value))
            stack.extend(value.values() if isinstance(value, dict) else value)
            if isinstance(value, dict):
                stack.extend(value.keys())
    return seen


def load_module(source: str, filename: str = "env.py") -> CompiledModule:
    """Compile `source` restricted, run its body in restricted globals, and return its functions.

    Raises SandboxViolation for policy problems and for an exception raised by the module body
    (MemoryError and non-Exception errors such as the worker's CaseTimeout pass through unchanged).
    """
    code, problems = _compile(source, filename)
    if code is None:
        raise SandboxViolation("; ".join(problems), problems)
    frozen: set[int] = set()
    env_globals = restricted_globals(frozen)
    reserved = set(env_globals)
    try:
        exec(code, env_globals)
    except MemoryError:
        raise
    except SandboxViolation:
        raise
    except Exception as err:  # noqa: BLE001 - reported as a load failure of the generated code
        raise SandboxViolation(f"module body failed: {type(err).__name__}: {err}") from None
    functions: dict[str, Callable[..., Any]] = {}
    constants: list[Any] = []
    for name, value in env_globals.items():
        if name in reserved:
            continue
        if isinstance(value, types.FunctionType):
            if value.__code__.co_filename == filename and value.__qualname__ == name:
                functions[name] = value
        else:
            constants.append(value)
    frozen.update(_constant_ids(constants))
    sha = hashlib.sha256(source.encode("utf-8")).hexdigest()
    return CompiledModule(functions=functions, globals=env_globals, sha256=sha, filename=filename)


def compile_module(source: str, filename: str = "env.py") -> dict[str, Callable[..., Any]]:
    """The top-level functions of `source`, compiled restricted (see `load_module`)."""
    return load_module(source, filename).functions
