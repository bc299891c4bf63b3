"""forgegym's errors: bad input with a location (`PATH: location: problem`), LLM failures, and `ToolError`.

This module must stay import-light (standard library only): the sandbox worker imports it at startup.
"""

from __future__ import annotations


class ForgeError(Exception):
    """Base class of forgegym's own errors."""


class InputError(ForgeError):
    """Bad user input: a file that cannot be read, parsed or validated.

    The CLI prints `str(err)` and exits with status 2.
    """

    def __init__(self, path: str, location: str, problem: str):
        self.path = str(path)
        self.location = location or "(document)"
        self.problem = problem
        super().__init__(f"{self.path}: {self.location}: {self.problem}")


class LLMError(ForgeError):
    """The LLM endpoint failed after all retries, or its answer never validated."""


class EmbeddedModelError(ForgeError):
    """The embedded model is missing or its server failed to start."""


class ToolError(Exception):
    """A domain failure inside a tool ("order not found"); the agent sees `Error: <message>`.

    Generated env.py code gets this exact class under the global name `ToolError`.
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.message = str(message)

    def __str__(self) -> str:
        return self.message
