"""Reading JSON-lines input files: each non-blank line parsed, bad input an InputError naming the file and line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

from synth.errors import InputError


def read_rows(path: str | Path) -> Iterator[tuple[int, Any]]:
    """(line number from 1, parsed value) for each non-blank line; a file that cannot be read or a line that is not
    JSON raises InputError(path, 'line N', ...) when the reader gets there."""
    where = str(path)
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(where, "(file)", f"cannot read: {err}") from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as err:
            raise InputError(where, f"line {number}", f"invalid JSON: {err.msg}") from None
