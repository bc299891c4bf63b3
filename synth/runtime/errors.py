"""Errors raised by environment code and the runtime.

This module must stay import-light: the sandbox worker imports it at startup.
"""

from __future__ import annotations


class ToolError(Exception):
    """A domain failure inside a tool ("order not found"); the agent sees `Error: <message>`.

    Generated env.py code gets this exact class under the global name `ToolError`.
    """

    def __init__(self, message: str = "") -> None:
        super().__init__(message)
        self.message = str(message)

    def __str__(self) -> str:
        return self.message
