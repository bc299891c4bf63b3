"""Read `--data`: a JSON state, a JSONL of whole states, or a folder of JSON / JSONL / CSV collections.

Every problem is an `InputError(path, location, problem)` naming the file and the record (exit 2).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from synth.errors import InputError

DATA_SUFFIXES = (".json", ".jsonl", ".csv")


@dataclass
class SampleData:
    """Whole sample states in one layout, and the files they came from (relative name -> bytes' text)."""

    path: str
    kind: str  # "json" | "jsonl" | "folder"
    states: list[dict[str, Any]]
    files: dict[str, str] = field(default_factory=dict)

    def sha256(self) -> str:
        """Digest of the files, in name order (what the environment records)."""
        h = hashlib.sha256()
        for name in sorted(self.files):
            h.update(name.encode() + b"\0" + self.files[name].encode("utf-8") + b"\0")
        return h.hexdigest()


class _Pairs(dict):
    """A JSON object that remembers the first key it saw twice."""

    duplicate: str | None = None


def _pairs_hook(pairs: list[tuple[str, Any]]) -> _Pairs:
    out = _Pairs()
    for key, value in pairs:
        if key in out and out.duplicate is None:
            out.duplicate = key
        out[key] = value
    return out


def _find_duplicate(node: Any, where: str) -> tuple[str, str] | None:
    """(location, key) of the first object with a duplicate key, depth first."""
    if isinstance(node, _Pairs) and node.duplicate is not None:
        return where or "(top level)", node.duplicate
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        if isinstance(value, (dict, list)):
            hit = _find_duplicate(value, f"{where}/{key}" if where else str(key))
            if hit:
                return hit
    return None


def _plain(node: Any) -> Any:
    """Plain dicts instead of _Pairs (same content)."""
    if isinstance(node, dict):
        return {k: _plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_plain(v) for v in node]
    return node


def parse_json(text: str, path: str, where: str = "") -> Any:
    """JSON text -> value; invalid JSON and duplicate keys are InputErrors at `where` (e.g. `line 3`)."""
    try:
        value = json.loads(text, object_pairs_hook=_pairs_hook)
    except json.JSONDecodeError as err:
        loc = where or f"line {err.lineno} column {err.colno}"
        raise InputError(path, loc, f"invalid JSON: {err.msg}") from None
    dup = _find_duplicate(value, "")
    if dup:
        loc = f"{where}: {dup[0]}" if where else dup[0]
        raise InputError(path, loc, f"duplicate key {dup[1]!r}")
    return _plain(value)


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(str(path), "", f"cannot read: {err}") from None


def _jsonl(text: str, path: str) -> list[Any]:
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            out.append(parse_json(line, path, f"line {n}"))
    return out


def _csv(text: str, path: str) -> list[dict[str, Any]]:
    reader = csv.reader(io.StringIO(text))
    rows = list(reader)
    if not rows:
        raise InputError(path, "line 1", "empty CSV (a header row is needed)")
    header = rows[0]
    if len(set(header)) != len(header):
        dup = next(h for h in header if header.count(h) > 1)
        raise InputError(path, "line 1", f"duplicate column {dup!r}")
    out = []
    for n, row in enumerate(rows[1:], 2):
        if not row:
            continue
        if len(row) != len(header):
            raise InputError(path, f"line {n}", f"{len(row)} values for {len(header)} columns")
        out.append(dict(zip(header, row)))
    return out


def _check_layouts(states: list[dict[str, Any]], path: str) -> None:
    first = sorted(states[0])
    for n, state in enumerate(states[1:], 2):
        if sorted(state) != first:
            extra = sorted(set(state) - set(first)) or sorted(set(first) - set(state))
            raise InputError(
                path,
                f"line {n}",
                f"top-level keys {sorted(state)} differ from line 1's {first} "
                f"(at {extra[:3]}); all sample states need one layout",
            )


def load_sample_data(path: str | Path) -> SampleData:
    """Read --data PATH into whole sample states (see the module docstring)."""
    p = Path(path)
    if p.is_dir():
        return _load_folder(p)
    text = _read_text(p)
    if p.suffix == ".jsonl":
        states = _jsonl(text, str(p))
        if not states:
            raise InputError(str(p), "", "no sample states (empty JSONL)")
        for n, s in enumerate(states, 1):
            if not isinstance(s, dict):
                raise InputError(str(p), f"line {n}", f"a sample state must be a JSON object, not {type(s).__name__}")
        _check_layouts(states, str(p))
        return SampleData(str(p), "jsonl", states, {p.name: text})
    if p.suffix not in (".json", ""):
        raise InputError(str(p), "", f"unsupported data file type {p.suffix!r} (use .json, .jsonl or a folder)")
    state = parse_json(text, str(p))
    if not isinstance(state, dict) or not state:
        raise InputError(str(p), "", "the data must be a non-empty JSON object (top-level keys are collections)")
    return SampleData(str(p), "json", [state], {p.name: text})


def _load_folder(folder: Path) -> SampleData:
    state: dict[str, Any] = {}
    files: dict[str, str] = {}
    for f in sorted(folder.iterdir()):
        if f.name.startswith(".") or not f.is_file() or f.suffix not in DATA_SUFFIXES:
            continue
        name = f.stem
        if name in state:
            raise InputError(str(f), "", f"a second file for collection {name!r}")
        text = _read_text(f)
        if f.suffix == ".json":
            value = parse_json(text, str(f))
        elif f.suffix == ".jsonl":
            value = _jsonl(text, str(f))
        else:
            value = _csv(text, str(f))
        if isinstance(value, list):
            for n, rec in enumerate(value):
                if not isinstance(rec, dict):
                    where = f"line {n + 1}" if f.suffix != ".json" else f"[{n}]"
                    raise InputError(str(f), where, f"a record must be a JSON object, not {type(rec).__name__}")
        state[name] = value
        files[f.name] = text
    if not state:
        raise InputError(str(folder), "", "no .json, .jsonl or .csv files in the data folder")
    return SampleData(str(folder), "folder", [state], files)


__all__ = ["SampleData", "load_sample_data", "parse_json"]
