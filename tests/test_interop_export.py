"""Dataset export: files load with `datasets` and round-trip to the same gold actions and rewards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from synth.errors import InputError
from synth.interop.catalog import EnvCatalog
from synth.interop.export import actions_from_messages, clean_messages, export_dataset
from synth.runtime.environment import Environment
from synth.task import Task
from synth.verify import score_episode

datasets = pytest.importorskip("datasets", reason="dataset export is checked by loading it with `datasets`")

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "data" / "envs" / "mini_todo"
GENERATED = (
    sorted(p for p in (ROOT / "envs_generated").glob("*") if (p / "tasks.jsonl").is_file())
    if (ROOT / "envs_generated").is_dir()
    else []
)
ENV_DIRS = [FIXTURE, *GENERATED]


def _tasks_by_id(env_dirs) -> dict[tuple[str, str], Task]:
    return {(e.env_id, t.task_id): t for e, t in EnvCatalog(env_dirs).all_tasks()}


def _replay_reward(env_dir: Path, task: Task, messages: list[dict]) -> float:
    """Replay the exported tool calls in a fresh runtime and verify with the exported final reply."""
    env = Environment(env_dir)
    env.reset(task=task)
    for action in actions_from_messages(messages):
        assert env.step(action).info["ok"]
    return score_episode(task, env.state, [m for m in messages if m["role"] == "assistant"]).reward


def _check_rows(rows, env_dirs) -> None:
    tasks = _tasks_by_id(env_dirs)
    dirs = {EnvCatalog([d]).env_ids()[0]: d for d in env_dirs}
    assert len(rows) == len(tasks)
    for row in rows:
        task = tasks[(row["env_id"], row["task_id"])]
        messages = clean_messages(row["messages"])
        gold = [{"name": a.name, "arguments": a.arguments} for a in task.gold_actions]
        assert actions_from_messages(messages) == gold
        assert json.loads(row["gold_actions"]) == gold
        assert json.loads(row["initial_state"]) == task.initial_state
        assert json.loads(row["gold_final_state"]) == task.gold_final_state
        assert [m["role"] for m in messages[:2]] == ["system", "user"] and messages[1][
            "content"
        ] == task.user_instruction
        calls = [c for m in messages if m["role"] == "assistant" for c in m.get("tool_calls") or []]
        assert [c["id"] for c in calls] == [f"call_{i}" for i in range(len(gold))]
        assert all(c["type"] == "function" and isinstance(c["function"]["arguments"], str) for c in calls)
        assert [m["tool_call_id"] for m in messages if m["role"] == "tool"] == [c["id"] for c in calls]
        if task.gold_outputs:
            assert [m["content"] for m in messages if m["role"] == "tool"] == task.gold_observations()
        assert messages[-1]["role"] == "assistant" and not messages[-1].get("tool_calls")
        assert {t["function"]["name"] for t in json.loads(row["tools"])} >= {a["name"] for a in gold}
        assert _replay_reward(dirs[row["env_id"]], task, messages) == 1.0


def test_jsonl_export_loads_with_datasets_and_round_trips(tmp_path):
    out = tmp_path / "gold.jsonl"
    report = export_dataset(ENV_DIRS, out, fmt="jsonl")
    assert report.rows >= 2 and not report.skipped
    ds = datasets.load_dataset("json", data_files=str(out), split="train", download_mode="force_redownload")
    assert ds.num_rows == report.rows
    _check_rows(list(ds), ENV_DIRS)
    first = out.read_bytes()
    export_dataset(ENV_DIRS, out, fmt="jsonl")
    assert out.read_bytes() == first  # deterministic bytes


def test_hf_export_folder_loads_and_round_trips(tmp_path):
    out = tmp_path / "hf_export"
    report = export_dataset(ENV_DIRS, out, fmt="hf", tools_in_system=False)
    assert (out / "README.md").is_file() and (out / "forgegym_export.json").is_file()
    ds = datasets.load_dataset(str(out), split="train")
    assert ds.num_rows == report.rows
    rows = list(ds)
    _check_rows(rows, ENV_DIRS)
    assert "<tools>" not in rows[0]["messages"][0]["content"]  # the tools live in the `tools` column only
    export_dataset(ENV_DIRS, out, fmt="hf")  # an earlier export folder may be replaced
    again = datasets.load_dataset(str(out), split="train")  # no stale cached copy of the first export
    assert "<tools>" in again[0]["messages"][0]["content"]


def test_hf_export_refuses_foreign_folder(tmp_path):
    foreign = tmp_path / "mine"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    with pytest.raises(InputError):
        export_dataset([FIXTURE], foreign, fmt="hf")
    assert (foreign / "notes.txt").read_text() == "keep me"


def test_task_whose_gold_replay_fails_is_skipped(tmp_path):
    env_dir = tmp_path / "mini_todo"
    shutil.copytree(FIXTURE, env_dir)
    good = json.loads((env_dir / "tasks.jsonl").read_text().splitlines()[0])
    broken = {
        **good,
        "task_id": "mini_todo-broken",
        "gold_actions": [{"name": "delete_todo", "arguments": {"todo_id": "t9"}}],
        "gold_outputs": [],
    }
    wrong_state = {**good, "task_id": "mini_todo-wrong", "gold_final_state": good["initial_state"]}
    with (env_dir / "tasks.jsonl").open("a") as fh:
        fh.write(json.dumps(broken) + "\n" + json.dumps(wrong_state) + "\n")
    report = export_dataset([env_dir], tmp_path / "out.jsonl")
    assert report.rows == 2
    reasons = {s["task_id"]: s["reason"] for s in report.skipped}
    assert set(reasons) == {"mini_todo-broken", "mini_todo-wrong"}
    assert "failed" in reasons["mini_todo-broken"] and "does not verify" in reasons["mini_todo-wrong"]


def test_export_cli(tmp_path):
    from synth.cli.main import build_app

    out = tmp_path / "cli.jsonl"
    result = CliRunner().invoke(
        build_app(), ["export", str(FIXTURE), "--format", "jsonl", "--out", str(out), "--json"], standalone_mode=False
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["rows"] == 2
    assert len(out.read_text().splitlines()) == 2
    bad = CliRunner().invoke(
        build_app(), ["export", str(FIXTURE), "--format", "csv", "--out", str(out)], standalone_mode=False
    )
    assert isinstance(bad.exception, InputError)
