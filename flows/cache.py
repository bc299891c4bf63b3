"""Content hashes and cache keys for the synthesis flows.

A cached Prefect task result is reused only when everything that could change it is unchanged: the
inputs' content (canonical JSON), the prompt templates and code templates, the pipeline's own source
code and version, and the parts of the LLM settings that change answers (model, temperature, seed).
The endpoint's address, its API key, timeouts and concurrency do not enter a key: the embedded server
gets a new port on every start, and a rerun after a kill must still find its finished steps.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable

import synth

SYNTH_ROOT = Path(synth.__file__).resolve().parent
# Source whose behaviour decides what a stage produces; editing any of it invalidates that stage's cache.
# (The prompt templates a stage renders enter its key separately, through prompt_versions.)
ENV_SOURCES = ("__init__.py", "envsynth", "sandbox", "spec.py", "llm", "errors.py", "words.py", "fsio.py")
TASK_SOURCES = (
    "__init__.py",
    "tasks",
    "runtime",
    "sandbox",
    "spec.py",
    "task.py",
    "llm",
    "errors.py",
    "words.py",
    "verify.py",
    "fsio.py",
)
# LLM settings that change the answers (everything else only changes how requests travel).
LLM_ANSWER_FIELDS = ("model", "temperature", "seed", "repair_attempts", "structured_style")
HIDDEN_PREFIXES = (".", "_")


def to_plain(value: Any) -> Any:
    """A JSON-ready view of value: `.to_dict()` objects, dataclasses, paths, tuples and sets become plain data."""
    if hasattr(value, "to_dict") and callable(value.to_dict):
        return to_plain(value.to_dict())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_plain(dataclasses.asdict(value))
    if isinstance(value, dict):
        return {str(k): to_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_plain(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(to_plain(v) for v in value)
    if isinstance(value, Path):
        return str(value)
    return value


def canonical_bytes(value: Any) -> bytes:
    """Canonical JSON (sorted keys, no whitespace) of value, as UTF-8 bytes."""
    return json.dumps(to_plain(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def hash_value(value: Any) -> str:
    """sha256 hex of the canonical JSON of value."""
    return hashlib.sha256(canonical_bytes(value)).hexdigest()


def file_sha256(path: str | os.PathLike) -> str:
    """sha256 hex of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def docset_files(paths: Iterable[str | os.PathLike]) -> list[Path]:
    """The files of a doc set: each path as given, folders expanded (recursively, hidden entries skipped), sorted."""
    files: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for child in path.rglob("*"):
                rel = child.relative_to(path).parts
                if child.is_file() and not any(part.startswith(HIDDEN_PREFIXES) for part in rel):
                    files.add(child)
        else:
            files.add(path)
    return sorted(files)


def docset_hash(paths: Iterable[str | os.PathLike]) -> str:
    """Content hash of a doc set: file names (relative to their common folder) and bytes, order-independent.

    Renaming or editing a file changes the hash; touching it (mtime) or moving the whole set does not.
    """
    files = docset_files(paths)
    if not files:
        return hash_value([])
    root = Path(os.path.commonpath([str(f.resolve().parent) for f in files]))
    entries = sorted((f.resolve().relative_to(root).as_posix(), file_sha256(f)) for f in files)
    return hash_value(entries)


def _tree_hash(root: Path) -> list[tuple[str, str]]:
    if root.is_file():
        return [(root.name, file_sha256(root))]
    out = []
    for f in sorted(root.rglob("*")):
        if f.is_file() and f.suffix not in (".pyc",) and "__pycache__" not in f.parts:
            out.append((f.relative_to(SYNTH_ROOT).as_posix(), file_sha256(f)))
    return out


@functools.lru_cache(maxsize=8)
def pipeline_fingerprint(sources: tuple[str, ...] = ENV_SOURCES) -> str:
    """synth.PIPELINE_VERSION plus a hash of the given parts of synth/ (code and code templates; 12 hex digits)."""
    entries: list[tuple[str, str]] = []
    for name in sources:
        path = SYNTH_ROOT / name
        if path.exists():
            entries += _tree_hash(path)
    return f"{synth.PIPELINE_VERSION}+{hash_value(entries)[:12]}"


@functools.lru_cache(maxsize=8)
def prompt_versions(prefixes: tuple[str, ...] = ()) -> dict[str, str]:
    """template_version of every prompt template (whose name starts with one of prefixes, when given)."""
    from synth.llm.prompts import PROMPTS_DIR, template_version

    names = sorted(p.name for p in PROMPTS_DIR.glob("*.j2"))
    return {n: template_version(n) for n in names if not prefixes or n.startswith(prefixes)}


def llm_answer_identity(llm: dict[str, Any] | None) -> dict[str, Any]:
    """The part of an endpoint/LLM-settings dict that changes answers (see LLM_ANSWER_FIELDS)."""
    llm = to_plain(llm or {})
    return {k: llm.get(k) for k in LLM_ANSWER_FIELDS}


def stage_key(
    stage: str,
    inputs: Any,
    *,
    llm: dict[str, Any] | None = None,
    prompt_prefixes: tuple[str, ...] = (),
    sources: tuple[str, ...] = ENV_SOURCES,
) -> str:
    """Cache key of one stage run: stage name, inputs' content, prompt versions, code fingerprint, LLM identity."""
    material = {
        "stage": stage,
        "inputs": inputs,
        "prompts": prompt_versions(tuple(prompt_prefixes)),
        "pipeline": pipeline_fingerprint(tuple(sources)),
        "llm": llm_answer_identity(llm),
    }
    return f"{stage}-{hash_value(material)[:40]}"


def task_cache_key_fn(
    stage: str,
    *,
    llm_param: str = "llm",
    ignore: tuple[str, ...] = (),
    prompt_prefixes: tuple[str, ...] = (),
    sources: tuple[str, ...] = ENV_SOURCES,
) -> Callable:
    """A Prefect `cache_key_fn` for a task: stage_key over its parameters.

    The parameter named llm_param is reduced to its answer-changing fields; parameters in ignore are left out
    (for example a label used only for logging).
    """

    def cache_key(context: Any, parameters: dict[str, Any]) -> str:
        inputs = {k: v for k, v in parameters.items() if k != llm_param and k not in ignore}
        return stage_key(stage, inputs, llm=parameters.get(llm_param), prompt_prefixes=prompt_prefixes, sources=sources)

    cache_key.__name__ = f"cache_key_{stage}"
    return cache_key


def snapshot_dir(folder: str | os.PathLike) -> dict[str, str]:
    """{relative path: sha256} of every file under folder (for finding what a stage wrote)."""
    root = Path(folder)
    return {f.relative_to(root).as_posix(): file_sha256(f) for f in sorted(root.rglob("*")) if f.is_file()}


def tree_digest(folder: str | os.PathLike) -> str:
    """One hash of a folder's file names and bytes (compare published environments)."""
    return hash_value(sorted(snapshot_dir(folder).items()))
