"""Errors of the sandbox: a refused program or a refused operation at run time."""

from __future__ import annotations


class SandboxViolation(Exception):
    """LLM-written code broke the sandbox policy.

    Raised at load time (syntax errors, forbidden names, dunder access, disallowed imports) with every
    problem in `problems`, and at run time by the guards (blocked attribute, disallowed module attribute,
    write to a module-level constant, clock access).
    """

    def __init__(self, reason: str, problems: list[str] | None = None) -> None:
        self.reason = reason
        self.problems = list(problems) if problems else [reason]
        super().__init__(reason)


class CaseTimeout(BaseException):
    """Raised inside the worker when one case used up its CPU budget.

    A BaseException so that generated code catching `Exception` cannot swallow it (bare `except:` is
    refused at load time, and `BaseException` is not reachable from the sandbox).
    """


class SharedWrite(BaseException):
    """Raised by the write guards when a tool is about to write an object shared with other episodes.

    The runtime catches it, copies the path to that object, and runs the call again. A BaseException so
    generated code cannot catch it.
    """

    def __init__(self, obj: object) -> None:
        super().__init__("write to a shared object")
        self.obj = obj


def describe_exception(err: BaseException, filename: str = "env.py") -> str:
    """`Type: message (line N of env.py)`, the line being the innermost frame inside generated code."""
    line = None
    tb = err.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            line = tb.tb_lineno
        tb = tb.tb_next
    text = f"{type(err).__name__}: {err}"
    return f"{text} (line {line} of {filename})" if line is not None else text
