"""The hostile corpus: every snippet under tests/data/hostile/ is refused at load time or contained.

Each file states what it tries (`# what:`), how it must end (`# expect: refuse` or `# expect: contain`
with `# status: <run_cases status>[|<status>]`) and a fragment of the reason (`# reason:`). Every
snippet defines `attack(state, path=None, envvar=None)`; it is run through `run_cases` with a file path
inside a temporary folder and an environment variable name, and afterwards the host must be untouched:
no file written, no variable set, the temporary folder unchanged.
"""

from __future__ import annotations

import os
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from synth.sandbox import SandboxViolation, check_source, compile_module, run_cases

HOSTILE = Path(__file__).parent / "data" / "hostile"
SNIPPETS = sorted(HOSTILE.glob("*.py"))


def header(path: Path) -> dict[str, str]:
    return dict(re.findall(r"^# (\w+): (.*)$", path.read_text(), re.M))


def test_corpus_is_large_and_well_formed() -> None:
    assert len(SNIPPETS) >= 25
    for path in SNIPPETS:
        meta = header(path)
        assert meta.get("expect") in ("refuse", "contain"), path.name
        assert "what" in meta and "reason" in meta, path.name
        if meta["expect"] == "contain":
            assert meta.get("status"), path.name


@pytest.mark.parametrize("path", SNIPPETS, ids=[p.stem for p in SNIPPETS])
def test_load_time_verdict(path: Path) -> None:
    """Refused snippets fail check_source/compile_module with their reason; contained ones load."""
    meta, source = header(path), path.read_text()
    problems = check_source(source)
    if meta["expect"] == "refuse":
        assert any(meta["reason"] in p for p in problems), problems
        with pytest.raises(SandboxViolation):
            compile_module(source)
    else:
        assert problems == []
        assert "attack" in compile_module(source)  # the module body itself is harmless


def _run(path: Path, workdir: Path) -> tuple[Path, object, Path, str]:
    target = workdir / f"{path.stem}.out"
    envvar = f"FORGEGYM_HOSTILE_{path.stem.upper()}"
    outcome = run_cases(
        path.read_text(),
        [{"function": "attack", "state": {"todos": {}}, "arguments": {"path": str(target), "envvar": envvar}}],
        cpu_seconds=0.25,
        memory_mb=256,
        wall_timeout_s=20,
    )[0]
    return path, outcome, target, envvar


@pytest.mark.slow
def test_corpus_is_contained_by_run_cases_and_the_host_is_untouched(tmp_path: Path) -> None:
    sentinel = tmp_path / "sentinel.txt"
    sentinel.write_text("keep me")
    env_before = dict(os.environ)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda p: _run(p, tmp_path), SNIPPETS))
    failures = []
    for path, outcome, target, envvar in results:
        meta = header(path)
        if meta["expect"] == "refuse":
            good = outcome.status == "violation" and meta["reason"] in outcome.error
        else:
            good = outcome.status in meta["status"].split("|") and meta["reason"] in outcome.error
        if not good:
            failures.append(f"{path.stem}: {outcome.status}: {outcome.error[:200]}")
        assert not target.exists(), f"{path.stem} wrote a file"
        assert envvar not in os.environ, f"{path.stem} set an environment variable"
    assert failures == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sentinel.txt"]
    assert sentinel.read_text() == "keep me"
    assert dict(os.environ) == env_before


@pytest.mark.parametrize("path", [p for p in SNIPPETS if header(p).get("status") == "violation"], ids=lambda p: p.stem)
def test_runtime_violations_also_stop_in_process(path: Path, tmp_path: Path) -> None:
    """The guards hold in the training-time runtime too (same restricted functions, no child process)."""
    fns = compile_module(path.read_text())
    with pytest.raises(SandboxViolation) as info:
        fns["attack"]({"todos": {}}, path=str(tmp_path / "x"), envvar="FORGEGYM_HOSTILE_INPROC")
    assert header(path)["reason"] in info.value.reason
    assert not (tmp_path / "x").exists() and "FORGEGYM_HOSTILE_INPROC" not in os.environ
