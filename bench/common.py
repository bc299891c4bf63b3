"""Shared helpers of the benchmarks: paths, the environments under test, timing, memory and reporting.

Every benchmark prints its figures as a small table and one JSON line (`--json PATH` writes that JSON
to a file), so docs/benchmarks.md can quote them and later runs can be compared number by number.
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable

from synth.fsio import write_json_atomic

ROOT = Path(__file__).resolve().parents[1]

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")

SHARED_TOOLDOCS = ROOT.parent / "shared" / "tooldocs"
EXAMPLE_TOOLDOCS = ROOT / "examples" / "tooldocs"
MINI_TODO = ROOT / "tests" / "data" / "envs" / "mini_todo"

# env_id -> tool doc file name under ../shared/tooldocs (todo also ships in examples/tooldocs)
DOCS = {
    "todo_api": "openapi_todo_redhat.yaml",
    "mcp_memory": "mcp_memory_tools.json",
    "petstore": "openapi_petstore_v3.yaml",
}


def tooldoc(env_id: str) -> Path:
    """The tool doc of a benchmarked environment (shared folder first, then examples/)."""
    name = DOCS[env_id]
    for candidate in (SHARED_TOOLDOCS / name, EXAMPLE_TOOLDOCS / f"{env_id}.yaml"):
        if candidate.exists():
            return candidate
    raise SystemExit(f"{SHARED_TOOLDOCS / name}: tool doc not found (needed to build {env_id})")


def environment_dir(env_id: str, workdir: Path, use_committed: bool = True) -> tuple[Path, str]:
    """(folder, where it came from): envs_generated/<env_id> when committed, else built now from doc priors.

    The fallback runs environment synthesis with no LLM (`client=None`), which takes a few seconds and
    gives the same template-rendered tools the embedded model's run starts from.
    """
    committed = ROOT / "envs_generated" / env_id
    if use_committed and (committed / "env.py").exists() and (committed / "manifest.json").exists():
        return committed, f"envs_generated/{env_id}"
    from synth.envsynth.pipeline import SynthConfig, synthesize_environment

    out = workdir / env_id
    synthesize_environment([tooldoc(env_id)], out, None, SynthConfig(env_id=env_id))
    return out, f"synthesized now from {tooldoc(env_id).name} (doc priors, no LLM)"


def child_env(**extra: str) -> dict[str, str]:
    """The environment of a benchmark's child process (`python -m bench.NAME`): the repository root first
    on PYTHONPATH, so the child finds the packages from any working folder; `extra` variables added."""
    paths = [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), **extra}


def scratch_dir(prefix: str) -> tempfile.TemporaryDirectory:
    """A temporary folder removed at exit."""
    return tempfile.TemporaryDirectory(prefix=f"forgegym-bench-{prefix}-")


# timing --------------------------------------------------------------------------------------------


def best_of(fn: Callable[[], Any], repeats: int) -> float:
    """The fastest of `repeats` runs of fn(), in seconds (the least disturbed by other load)."""
    best = math.inf
    for _ in range(max(1, repeats)):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def median(values: Iterable[float]) -> float:
    vals = list(values)
    return statistics.median(vals) if vals else float("nan")


def growth_exponent(n1: float, t1: float, n2: float, t2: float) -> float:
    """b in t ~ n^b between two sizes (1.0: linear, 0.0: constant)."""
    if t1 <= 0 or t2 <= 0 or n1 == n2:
        return float("nan")
    return math.log(t2 / t1) / math.log(n2 / n1)


def ratio(a: float | None, b: float | None) -> float:
    """a / b, or nan where either is missing or b is 0."""
    return a / b if a is not None and b else float("nan")


# memory ---------------------------------------------------------------------------------------------


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


# reporting ------------------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    """What the figures were measured on (CPU count and model, memory, load, Python)."""
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem_gib = 0.0
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                mem_gib = round(int(line.split()[1]) / 2**20, 1)
                break
    except OSError:
        pass
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {
        "cpus": os.cpu_count(),
        "cpu": cpu,
        "mem_gib": mem_gib,
        "load_1m": round(load[0], 2),
        "python": platform.python_version(),
    }


def fmt(value: Any) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return "n/a"
        if value == 0:
            return "0"
        if abs(value) >= 100:
            return f"{value:,.0f}"
        if abs(value) >= 1:
            return f"{value:.2f}"
        return f"{value:.3g}"
    return str(value)


def print_table(title: str, header: list[str], rows: list[list[Any]]) -> None:
    """A plain-text table (also valid markdown)."""
    print(f"\n### {title}")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join("---" for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(fmt(v) for v in row) + " |")


def emit(name: str, figures: dict[str, Any], json_path: str | None) -> None:
    """Print the figures as one JSON line (and write them to json_path when given)."""
    payload = {
        "benchmark": name,
        "machine": machine(),
        "command": " ".join([Path(sys.executable).name] + sys.argv),
        **figures,
    }
    payload = _clean(payload)
    text = json.dumps(payload, sort_keys=True, default=_json_default)
    print(f"\nRESULT {text}")
    if json_path:
        path = Path(json_path)
        path.parent.mkdir(parents=True, exist_ok=True)
        write_json_atomic(path, payload, indent=2, default=_json_default)


def _clean(obj: Any) -> Any:
    """NaN and infinity become null (strict JSON); floats are rounded to 6 significant digits."""
    if isinstance(obj, float):
        return None if not math.isfinite(obj) else float(f"{obj:.6g}")
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def _json_default(obj: Any) -> Any:
    return str(obj)
