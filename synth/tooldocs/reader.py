"""Read a tool-doc file and parse it as JSON, JSON lines or YAML, with line/column on errors."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from synth.errors import InputError

JSON_SUFFIXES = {".json", ".jsonl"}
YAML_SUFFIXES = {".yaml", ".yml"}
MARKDOWN_SUFFIXES = {".md", ".markdown"}


@dataclass(frozen=True)
class RawDoc:
    """One file as read: its path (as given), text, sha256 and parsed data (None for markdown)."""

    path: str
    text: str
    sha256: str
    data: Any = None


def read_file(path: str | Path) -> RawDoc:
    """Read `path` as UTF-8 and parse it by extension (markdown stays text)."""
    shown = str(path)
    p = Path(path)
    try:
        raw = p.read_bytes()
    except IsADirectoryError:
        raise InputError(shown, "(file)", "is a directory, expected a tool-doc file") from None
    except OSError as ex:
        raise InputError(shown, "(file)", f"cannot read: {ex.strerror or ex}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as ex:
        raise InputError(shown, f"byte {ex.start}", "not UTF-8 text") from None
    digest = hashlib.sha256(raw).hexdigest()
    suffix = p.suffix.lower()
    if suffix in MARKDOWN_SUFFIXES:
        return RawDoc(shown, text, digest, None)
    if not text.strip():
        raise InputError(shown, "(document)", "file is empty")
    if suffix in YAML_SUFFIXES:
        data = parse_yaml(text, shown)
    elif suffix in JSON_SUFFIXES:
        data = parse_json(text, shown)
    else:  # unknown extension: JSON first, then YAML (a superset)
        try:
            data = parse_json(text, shown)
        except InputError:
            data = parse_yaml(text, shown)
    return RawDoc(shown, text, digest, data)


def parse_json(text: str, path: str) -> Any:
    """Parse JSON; a file of one JSON value per line (BFCL style) becomes a list."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as ex:
        first_error = ex
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(lines) > 1 and all(line.lstrip().startswith("{") for _, line in lines):
        items = []
        for n, line in lines:
            try:
                items.append(json.loads(line))
            except json.JSONDecodeError as ex:
                raise InputError(path, f"line {n}, column {ex.colno}", f"invalid JSON: {ex.msg}") from None
        return items
    ex = first_error
    raise InputError(path, f"line {ex.lineno}, column {ex.colno}", f"invalid JSON: {ex.msg}") from None


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml when available: ~10x faster
    """Safe YAML loader that keeps dates as strings and rejects duplicate keys."""


# JSON has no dates: keep `2020-05-14` as the string it looks like.
_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


def _construct_mapping(loader: _Loader, node: yaml.MappingNode, deep: bool = False) -> dict:
    loader.flatten_mapping(node)
    out: dict = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            mark = key_node.start_mark
            raise InputError(
                loader.name, f"line {mark.line + 1}, column {mark.column + 1}", "mapping key must be a scalar"
            )
        key = key if isinstance(key, str) else json.dumps(key)  # YAML `200:` -> "200"
        if key in out:
            mark = key_node.start_mark
            raise InputError(loader.name, f"line {mark.line + 1}, column {mark.column + 1}", f"duplicate key {key!r}")
        out[key] = loader.construct_object(value_node, deep=deep)
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def parse_yaml(text: str, path: str) -> Any:
    """Parse one YAML document safely (no dates, no duplicate keys, string keys)."""
    loader = _Loader(text)
    loader.name = path
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as ex:
        mark = ex.problem_mark or ex.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "(document)"
        problem = " ".join(p for p in (ex.context, ex.problem) if p)
        raise InputError(path, where, f"invalid YAML: {problem}") from None
    except yaml.YAMLError as ex:
        raise InputError(path, "(document)", f"invalid YAML: {ex}") from None
    finally:
        loader.dispose()
