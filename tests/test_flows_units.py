"""Flows without a Prefect server: content hashes and cache keys, doc-set discovery and the batch plan,
runner and cron checks, endpoint-failure detection, the artifact text and the `forgegym schedule` command."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")

from flows import cache  # noqa: E402
from synth.errors import InputError  # noqa: E402

NOTES = Path(__file__).parent / "data" / "tooldocs_small" / "notes_api.json"


def test_canonical_hash_ignores_key_order_and_sees_values():
    a = {"b": [1, {"y": 2, "x": 1}], "a": "é"}
    b = {"a": "é", "b": [1, {"x": 1, "y": 2}]}
    assert cache.hash_value(a) == cache.hash_value(b)
    assert cache.hash_value(a) != cache.hash_value({**a, "a": "e"})
    assert cache.canonical_bytes((1, 2)) == cache.canonical_bytes([1, 2])


def test_docset_hash_follows_content_and_names_not_mtime_or_location(tmp_path):
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    shutil.copy(NOTES, one / "notes.json")
    (one / "policy.md").write_text("Notes are private.\n")
    h = cache.docset_hash([one])
    os.utime(one / "notes.json", (1, 1))
    assert cache.docset_hash([one]) == h  # touching is not a change
    shutil.copytree(one, two)
    assert cache.docset_hash([two]) == h  # moving the whole set is not a change
    assert cache.docset_hash([one / "policy.md", one / "notes.json"]) == cache.docset_hash([one])
    (two / "policy.md").write_text("Notes are public.\n")
    assert cache.docset_hash([two]) != h
    (two / "policy.md").rename(two / "rules.md")
    assert cache.docset_hash([two]) not in (h, cache.docset_hash([one]))
    (one / ".hidden").write_text("ignored")
    assert cache.docset_hash([one]) == h


def test_stage_key_depends_on_inputs_and_model_not_on_endpoint_address():
    fn = cache.task_cache_key_fn("tool", ignore=("limit",), prompt_prefixes=("envsynth_",))
    params = {
        "spec": {"name": "get_note"},
        "config": {"seed": 0},
        "limit": "x",
        "llm": {
            "base_url": "http://127.0.0.1:1111/v1",
            "model": "m",
            "temperature": 0.0,
            "seed": 0,
            "timeout_s": 5,
            "max_concurrency": 2,
            "cache_path": "/a",
        },
    }
    key = fn(None, params)
    moved = {
        **params,
        "limit": "y",
        "llm": {
            **params["llm"],
            "base_url": "http://127.0.0.1:2222/v1",
            "timeout_s": 60,
            "max_concurrency": 8,
            "cache_path": None,
        },
    }
    assert fn(None, moved) == key
    assert fn(None, {**params, "llm": {**params["llm"], "model": "other"}}) != key
    assert fn(None, {**params, "config": {"seed": 1}}) != key
    assert cache.task_cache_key_fn("schema")(None, params) != key
    assert key.startswith("tool-") and len(key) == len("tool-") + 40


def test_pipeline_fingerprint_names_version_and_prompt_versions_cover_templates():
    import synth

    assert cache.pipeline_fingerprint().startswith(synth.PIPELINE_VERSION + "+")
    assert cache.pipeline_fingerprint(cache.TASK_SOURCES) != cache.pipeline_fingerprint(cache.ENV_SOURCES)
    versions = cache.prompt_versions(("envsynth_",))
    assert versions and all(name.startswith("envsynth_") for name in versions)
    assert all(len(v) == 12 for v in versions.values())


def _docs_folder(tmp_path: Path) -> Path:
    src = tmp_path / "docs"
    (src / "shop").mkdir(parents=True)
    shutil.copy(NOTES, src / "notes.json")
    shutil.copy(NOTES, src / "shop" / "tools.json")
    (src / "shop" / "policy.md").write_text("Be kind.\n")
    (src / "README.txt").write_text("not a tool doc")
    (src / ".draft.json").write_text("[]")
    return src


def test_discover_docsets_files_and_folders(tmp_path):
    from flows.batch import discover_docsets

    src = _docs_folder(tmp_path)
    entries = discover_docsets(src)
    assert [(e.env_id, len(e.paths)) for e in entries] == [("notes", 1), ("shop", 2)]
    assert [e.env_id for e in discover_docsets(str(src / "*.json"))] == ["notes"]
    with pytest.raises(InputError, match="no tool docs found"):
        discover_docsets(tmp_path / "docs" / "shop" / "nothing*.yaml")
    with pytest.raises(InputError, match="not a folder or a glob"):
        discover_docsets(tmp_path / "missing")
    shutil.copy(NOTES, src / "Shop.json")
    with pytest.raises(InputError, match="environment id `shop`"):
        discover_docsets(src)


def test_plan_batch_skips_current_sets_and_rebuilds_changed_ones(tmp_path):
    from flows.batch import build_key, discover_docsets, plan_batch, read_ledger, write_ledger

    src, out = _docs_folder(tmp_path), tmp_path / "envs"
    settings = {"synth": {}, "n_tasks": 0, "llm": {"model": "m"}}
    entries = discover_docsets(src)
    todo, skip = plan_batch(entries, out, read_ledger(out), settings)
    assert [e.env_id for e in todo] == ["notes", "shop"] and skip == []
    write_ledger(out, {e.env_id: {"build_key": build_key(e, settings)} for e in entries})
    for e in entries:
        (out / e.env_id).mkdir(parents=True)
        (out / e.env_id / "manifest.json").write_text("{}")
    todo, skip = plan_batch(discover_docsets(src), out, read_ledger(out), settings)
    assert todo == [] and [e.env_id for e in skip] == ["notes", "shop"]
    (src / "shop" / "policy.md").write_text("Be very kind.\n")
    todo, _ = plan_batch(discover_docsets(src), out, read_ledger(out), settings)
    assert [e.env_id for e in todo] == ["shop"]
    todo, _ = plan_batch(discover_docsets(src), out, read_ledger(out), {**settings, "n_tasks": 5})
    assert [e.env_id for e in todo] == ["notes", "shop"]  # other settings: everything is rebuilt
    shutil.rmtree(out / "notes")
    todo, _ = plan_batch(discover_docsets(src), out, read_ledger(out), settings)
    assert [e.env_id for e in todo] == ["notes", "shop"]  # a deleted folder is rebuilt
    (out / ".forgegym-batch.json").write_text("{oops")
    with pytest.raises(InputError, match="not JSON"):
        read_ledger(out)


def test_runner_and_cron_checks():
    from flows import runners

    runners.check_runner("thread")
    runners.check_runner("dask", "tcp://127.0.0.1:8786")
    with pytest.raises(InputError, match="unknown task runner"):
        runners.check_runner("ray")
    with pytest.raises(InputError, match="only used with --runner dask"):
        runners.check_runner("thread", "tcp://127.0.0.1:8786")
    runners.check_cron("0 3 * * *")
    with pytest.raises(InputError, match="not a valid cron"):
        runners.check_cron("every night")
    from prefect.task_runners import ThreadPoolTaskRunner

    assert isinstance(runners.make_task_runner("thread", max_workers=3), ThreadPoolTaskRunner)
    assert type(runners.make_task_runner("dask", dask_address="tcp://127.0.0.1:1")).__name__ == "DaskTaskRunner"


def test_watched_client_tells_endpoint_failures_from_bad_answers():
    from fakes.fault_server import FaultServer, status

    from flows.endpoint import EndpointFailure, llm_usage, stage_client
    from synth.errors import LLMError

    schema = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    with FaultServer("not json at all") as srv:
        llm = {
            "base_url": srv.base_url,
            "model": "fake",
            "structured_style": "json_schema",
            "cache_path": None,
            "max_retries": 0,
            "repair_attempts": 1,
        }
        with stage_client(llm) as client:  # answers that never validate are the model's doing: no EndpointFailure
            with pytest.raises(LLMError):
                client.json([{"role": "user", "content": "a?"}], schema)
            assert llm_usage(client)["calls"] == 2 and client.endpoint_errors == []
        srv.script(status(500))
        with pytest.raises(EndpointFailure, match="1 LLM request"):
            with stage_client(llm) as client:
                try:  # a stage that swallows the error and falls back
                    client.chat([{"role": "user", "content": "hi"}])
                except LLMError:
                    pass


def test_retry_condition_only_for_endpoint_failures():
    from prefect.states import Failed

    from flows.endpoint import EndpointFailure, retry_on_endpoint_failure

    assert retry_on_endpoint_failure(None, None, Failed(data=EndpointFailure("down")))
    assert retry_on_endpoint_failure(None, None, Failed(data=ConnectionError("refused")))
    assert not retry_on_endpoint_failure(None, None, Failed(data=KeyError("bug")))
    assert not retry_on_endpoint_failure(None, None, Failed(data=InputError("a.json", "/x", "bad")))


def test_artifact_text_shows_counts_failures_and_cost():
    from flows.synth_report import artifact_key, render_artifact

    summary = {
        "env_id": "Notes API",
        "env_dir": "envs_generated/notes",
        "published": True,
        "model": "m",
        "counts": {"tools_total": 2, "tools_passed": 1, "tools_failed": 1, "test_cases": 10},
        "tools": [
            {
                "name": "get_note",
                "status": "passed",
                "passed_cases": 10,
                "total_cases": 10,
                "route": "structured",
                "cached": True,
                "llm_calls": 3,
                "error": "",
            },
            {
                "name": "purge",
                "status": "failed",
                "passed_cases": 0,
                "total_cases": 4,
                "route": "structured",
                "cached": False,
                "llm_calls": 2,
                "error": "wrong_state: expected no change\nmore",
            },
        ],
        "this_run": {
            "calls": 2,
            "cache_hits": 1,
            "prompt_tokens": 100,
            "completion_tokens": 7,
            "computed_steps": 1,
            "cached_steps": 2,
        },
        "recorded": {"llm_requests": 6, "llm_steps": 3},
    }
    md = render_artifact(summary, 3.25)
    assert "**1/2**" in md and "| get_note | passed | 10/10 | structured | cached | 3 |" in md
    assert "- **purge**: wrong_state: expected no change" in md and "more" not in md
    assert "| LLM calls this run | 2 |" in md and "| steps computed / reused from cache | 1 / 2 |" in md
    assert artifact_key("Notes API") == "env-notes-api"


def test_schedule_command_serves_batch_with_cron(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from flows import batch
    from synth.cli.main import build_app

    src = _docs_folder(tmp_path)
    seen = {}

    def fake_serve(source, cron, name, out_root, llm_config, port=4200, **options):
        seen.update(source=source, cron=cron, name=name, out_root=out_root, llm=llm_config, port=port, **options)
        seen["deployment"] = batch.batch_deployment(source, cron, name, out_root, llm_config, **options)

    monkeypatch.setattr(batch, "serve_batch", fake_serve)
    app = build_app()
    result = CliRunner().invoke(
        app,
        [
            "schedule",
            str(src),
            "--cron",
            "0 3 * * *",
            "--name",
            "nightly",
            "--out",
            str(tmp_path / "envs"),
            "--tasks",
            "5",
            "--runner",
            "dask",
        ],
    )
    assert result.exit_code == 0, result.output
    assert seen["cron"] == "0 3 * * *" and seen["name"] == "nightly" and seen["runner"] == "dask"
    deployment = seen["deployment"]
    assert deployment.name == "nightly" and deployment.schedules[0].schedule.cron == "0 3 * * *"
    params = deployment.parameters
    assert params["source"] == str(src.resolve()) and params["out_root"] == str((tmp_path / "envs").resolve())
    assert params["n_tasks"] == 5 and "api_key" not in params["llm"]
    bad = CliRunner().invoke(app, ["schedule", str(src), "--cron", "nightly"])
    assert bad.exit_code != 0 and "not a valid cron" in str(bad.exception or bad.output)


def test_batch_command_passes_options_and_fails_on_failed_sets(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from flows import batch
    from synth.cli.main import build_app

    src = _docs_folder(tmp_path)
    calls = []

    def fake_run_batch(source, out_root, llm_config, **options):
        calls.append((source, out_root, llm_config, options))
        return {"built": ["notes"], "skipped": ["shop"], "failed": {"x": "boom"} if len(calls) > 1 else {}}

    monkeypatch.setattr(batch, "run_batch", fake_run_batch)
    app = build_app()
    ok = CliRunner().invoke(
        app,
        [
            "batch",
            str(src),
            "--out",
            str(tmp_path / "envs"),
            "--max-parallel",
            "3",
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--force",
        ],
    )
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output.strip().splitlines()[-1]) == {"built": ["notes"], "failed": {}, "skipped": ["shop"]}
    source, out_root, llm, options = calls[0]
    assert source == str(src) and out_root == tmp_path / "envs" and llm.base_url == "http://127.0.0.1:9/v1"
    assert options["max_parallel"] == 3 and options["force"] is True and options["runner"] == "thread"
    failed = CliRunner().invoke(app, ["batch", str(src)])
    assert failed.exit_code == 1
