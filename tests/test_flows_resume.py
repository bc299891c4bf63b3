"""Kill and resume: the flow process dies in the middle of tool synthesis; the rerun recomputes only what had not
finished (counted in LLM requests at a fake endpoint, with the LLM answer cache off so only Prefect's task cache
can save requests) and publishes the same environment as an uninterrupted run.

The kill is the documented test hook FORGEGYM_FLOW_EXIT_AFTER_TOOLS=N: the flow process calls os._exit right after
the N-th tool task finished, with other tool tasks in flight (no cleanup, no atexit: like SIGKILL).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from fakes.fault_server import FaultServer

NOTES = Path(__file__).parent / "data" / "tooldocs_small" / "notes_api.json"
ROOT = Path(__file__).resolve().parent.parent
RUN_STATS = "run_stats.json"

pytestmark = [pytest.mark.prefect, pytest.mark.slow]

RUNNER = """
import json, sys
from flows.synthesize import run_synth_flow
from synth.llm import LLMConfig
base_url, out, cache_dir, summary_path = sys.argv[1:5]
llm = LLMConfig(base_url=base_url, model="fake-model", cache_path=None, max_retries=0)
summary = run_synth_flow([{notes!r}], out, llm, cache_dir=cache_dir, max_concurrency=2, retries=0)
open(summary_path, "w").write(json.dumps(summary, sort_keys=True))
"""


def fake_answer(body: dict) -> str:
    if body.get("response_format"):
        return "{}"
    digest = hashlib.sha256(json.dumps(body["messages"], sort_keys=True).encode()).hexdigest()
    return "yes" if int(digest, 16) % 3 else "no"


def run_flow(
    srv: FaultServer, tmp: Path, name: str, out: Path, cache_dir: Path, exit_after: int = 0
) -> tuple[int, dict | None]:
    """Run the flow in its own process (and session); returns its exit status and summary (None if it died)."""
    env = {
        **os.environ,
        "PREFECT_HOME": str(tmp / "prefect-home"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "DO_NOT_TRACK": "1",
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "180",
        "PYTHONPATH": str(ROOT),
    }
    env.pop("PREFECT_API_URL", None)
    env.pop("FORGEGYM_FLOW_EXIT_AFTER_TOOLS", None)
    if exit_after:
        env["FORGEGYM_FLOW_EXIT_AFTER_TOOLS"] = str(exit_after)
    summary_path = tmp / f"{name}.json"
    log = open(tmp / f"{name}.log", "wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            RUNNER.format(notes=str(NOTES)),
            srv.base_url,
            str(out),
            str(cache_dir),
            str(summary_path),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        code = proc.wait(timeout=420)
    finally:
        log.close()
        try:  # the process's temporary Prefect server outlives an os._exit; end the whole session we started
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    summary = json.loads(summary_path.read_text()) if summary_path.exists() else None
    return code, summary


def published(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != RUN_STATS
    }


def test_killed_flow_resumes_without_recomputing_finished_tools(tmp_path):
    from flows.synthesize import KILLED_EXIT_CODE

    with FaultServer(fake_answer) as srv:
        code, whole = run_flow(srv, tmp_path, "uninterrupted", tmp_path / "a" / "notes", tmp_path / "cache-a")
        assert code == 0 and whole["published"], (tmp_path / "uninterrupted.log").read_text()[-3000:]
        uninterrupted_calls = srv.count
        assert uninterrupted_calls == whole["this_run"]["calls"] > 0

        out, cache_dir = tmp_path / "b" / "notes", tmp_path / "cache-b"
        code, none = run_flow(srv, tmp_path, "killed", out, cache_dir, exit_after=2)
        assert code == KILLED_EXIT_CODE and none is None, (tmp_path / "killed.log").read_text()[-3000:]
        assert not out.exists()  # nothing published by the killed run
        killed_calls = srv.count - uninterrupted_calls

        code, resumed = run_flow(srv, tmp_path, "resumed", out, cache_dir)
        assert code == 0 and resumed["published"], (tmp_path / "resumed.log").read_text()[-3000:]
        resumed_calls = srv.count - uninterrupted_calls - killed_calls

    stages = resumed["stages"]
    reused = sorted(k for k, s in stages.items() if s["cached"])
    recomputed = sorted(k for k, s in stages.items() if not s["cached"])
    # the process died right after its 2nd finished tool (a 3rd may have finished in the same instant)
    assert "state-schema" in reused and len([k for k in reused if k.startswith("tool-")]) in (2, 3)
    assert recomputed and all(k.startswith("tool-") for k in recomputed)
    # each finished step's LLM requests were not made again; the rest cost what they cost uninterrupted
    assert resumed_calls == sum(stages[k]["llm"]["calls"] for k in recomputed)
    assert resumed_calls == uninterrupted_calls - sum(whole["stages"][k]["llm"]["calls"] for k in reused)
    assert resumed_calls < uninterrupted_calls and killed_calls >= uninterrupted_calls - resumed_calls
    assert resumed["this_run"]["cached_steps"] == len(reused) and resumed["this_run"]["calls"] == resumed_calls
    # and the environment is the one an uninterrupted run publishes, byte for byte
    assert published(out) == published(tmp_path / "a" / "notes")
    assert {t["name"]: t["status"] for t in resumed["tools"]} == {t["name"]: t["status"] for t in whole["tools"]}
