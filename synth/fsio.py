"""Atomic file writes and folder swaps: a reader sees the old content or the new one, never half of either.

Every writer stages its content in a uniquely named temporary file beside the target (same folder, so the
same file system) and renames it onto the target with `os.replace`. A process killed mid-write leaves the
old file in place and, at worst, a hidden `.NAME.*.tmp` file beside it.

Standard library only: bench/gpu_check.py imports this module on machines without the project's
dependencies.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

FILE_MODE = 0o644  # mkstemp makes 0600; these are ordinary project files
FOLDER_MODE = 0o755  # mkdtemp makes 0700


def json_text(data: Any, *, indent: int | None = 1, default: Callable[[Any], Any] | None = None) -> str:
    """Canonical JSON text: sorted keys, `indent` spaces, UTF-8 kept as is, one trailing newline."""
    return json.dumps(data, sort_keys=True, indent=indent, ensure_ascii=False, default=default) + "\n"


@contextlib.contextmanager
def atomic_path(path: str | Path, *, mode: int = FILE_MODE) -> Iterator[Path]:
    """A temporary path beside `path` for a writer that wants a file name (torch.save, savefig).

    When the block ends normally the file is renamed onto `path`; when it raises, the file is removed
    and `path` keeps its old content.
    """
    target = Path(path)
    fd, name = tempfile.mkstemp(dir=str(target.parent), prefix=f".{target.name}.", suffix=".tmp")
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_bytes_atomic(path: str | Path, data: bytes, *, mode: int = FILE_MODE) -> Path:
    """Write `data` to `path` through a temporary file and a rename; returns the path."""
    target = Path(path)
    fd, name = tempfile.mkstemp(dir=str(target.parent), prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(name, mode)
        os.replace(name, target)
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return target


def write_text_atomic(path: str | Path, text: str, *, encoding: str = "utf-8", mode: int = FILE_MODE) -> Path:
    """Write `text` exactly (no newline translation) through a temporary file and a rename."""
    return write_bytes_atomic(path, text.encode(encoding), mode=mode)


def write_json_atomic(
    path: str | Path, data: Any, *, indent: int | None = 1, default: Callable[[Any], Any] | None = None
) -> Path:
    """Write canonical JSON (`json_text`: sorted keys, indent 1 unless given, trailing newline) atomically."""
    return write_text_atomic(path, json_text(data, indent=indent, default=default))


def write_lines_atomic(path: str | Path, lines: Iterable[str]) -> Path:
    """Write one line per string (each ended by a newline), e.g. JSONL rows, atomically."""
    return write_text_atomic(path, "".join(line + "\n" for line in lines))


def swap_folder(staged: str | Path, dest: str | Path, *, keep_old: bool = False) -> Path | None:
    """Rename the finished folder `staged` onto `dest`; a previous `dest` is moved aside first.

    The previous folder is deleted, or with `keep_old` left as `.DEST.old-*` beside `dest` and its path
    returned (None when there was none). `staged` must be on the same file system as `dest`.
    """
    staged, dest = Path(staged), Path(dest)
    old: Path | None = None
    if dest.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=str(dest.parent)))
        os.replace(dest, old)  # renaming a folder onto an empty one replaces it (POSIX)
    try:
        os.replace(staged, dest)
    except BaseException:
        if old is not None:
            os.replace(old, dest)  # put the previous folder back
        raise
    if old is not None and not keep_old:
        shutil.rmtree(old, ignore_errors=True)
        return None
    return old


@contextlib.contextmanager
def staged_folder(dest: str | Path, *, keep_old: bool = False, mode: int = FOLDER_MODE) -> Iterator[Path]:
    """A fresh hidden folder beside `dest` to fill; swapped onto `dest` (`swap_folder`) when the block ends.

    When the block raises, the staged folder is removed and `dest` stays as it was.
    """
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.tmp-", dir=str(dest.parent)))
    try:
        os.chmod(tmp, mode)
        yield tmp
        swap_folder(tmp, dest, keep_old=keep_old)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
