"""`forgegym eval`: pass^k / pass@k per environment, JSON output, files on disk, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from rl.evaluate import pass_at_k, pass_hat_k, summarize
from rl.types import Dialogue, EpisodeId, JudgeVerdict, Outcome, StopReason, Trajectory
from synth.cli.main import main

MINI = Path(__file__).resolve().parent / "data" / "envs" / "mini_todo"


def run_cli(monkeypatch, capsys, *args: str) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "argv", ["forgegym", *args])
    code = 0
    try:
        main()
    except SystemExit as ex:
        code = ex.code or 0
    out = capsys.readouterr()
    return code, out.out, out.err


def test_pass_hat_k_and_pass_at_k():
    assert pass_hat_k(4, 2, 1) == 0.5 and pass_at_k(4, 2, 1) == 0.5
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6) and pass_at_k(4, 2, 2) == pytest.approx(5 / 6)
    assert pass_hat_k(3, 3, 3) == 1.0 and pass_at_k(3, 0, 3) == 0.0
    with pytest.raises(ValueError):
        pass_hat_k(1, 1, 2)


def _traj(env, task, i, reward, stop="user_stop", error=None):
    return Trajectory(
        EpisodeId(env, task, i),
        dialogue=Dialogue(stop_reason=StopReason(stop)),
        outcome=Outcome(reward=reward),
        verdict=JudgeVerdict(user_error=error),
    )


def test_summarize_per_environment():
    trajs = [
        _traj("a", "t1", 0, 1.0),
        _traj("a", "t1", 1, 1.0),
        _traj("a", "t2", 0, 1.0),
        _traj("a", "t2", 1, 0.0, "max_turns", True),
        _traj("b", "t1", 0, 0.0, error=False),
        _traj("b", "t1", 1, 0.0, error=False),
    ]
    s = summarize(trajs, k=2)["envs"]
    assert s["a"]["tasks"] == 2 and s["a"]["pass_hat_k"] == 0.5 and s["a"]["pass_at_k"] == 1.0
    assert s["a"]["pass_hat_1"] == 0.75 and s["a"]["masked"] == 1 and s["a"]["judged"] == 1
    assert s["a"]["stop_reasons"] == {"max_turns": 1, "user_stop": 3}
    assert s["b"]["pass_hat_k"] == 0.0 and s["b"]["masked"] == 0 and s["b"]["judged"] == 2


@pytest.mark.parametrize("policy, score", [("gold", 1.0), ("noop", 0.0)])
def test_eval_scripted_policies_json(monkeypatch, capsys, tmp_path, policy, score):
    out = tmp_path / "run"
    code, stdout, _ = run_cli(
        monkeypatch,
        capsys,
        "eval",
        str(MINI),
        "--policy",
        policy,
        "--user",
        "scripted",
        "--k",
        "2",
        "--json",
        "--out",
        str(out),
    )
    assert code == 0
    summary = json.loads(stdout)
    row = summary["envs"]["mini_todo"]
    assert row["tasks"] == 2 and row["k"] == 2 and row["masked"] == 0
    assert row["pass_hat_k"] == score and row["pass_at_k"] == score and row["pass_hat_1"] == score
    assert row["stop_reasons"] == {"user_stop": 4}
    lines = (out / "trajectories.jsonl").read_text().splitlines()
    assert len(lines) == 4 and {json.loads(ln)["policy"] for ln in lines} == {policy}
    assert json.loads((out / "summary.json").read_text())["envs"] == summary["envs"]


def test_eval_table_output(monkeypatch, capsys, tmp_path):
    code, stdout, _ = run_cli(
        monkeypatch,
        capsys,
        "eval",
        str(MINI),
        "--policy",
        "gold",
        "--user",
        "scripted",
        "--no-progress",
        "--out",
        str(tmp_path / "t"),
    )
    assert code == 0 and "pass^1" in stdout and "mini_todo" in stdout and "1.000" in stdout


def test_eval_rejects_a_folder_that_is_not_an_environment(monkeypatch, capsys, tmp_path):
    code, _, err = run_cli(monkeypatch, capsys, "eval", str(tmp_path), "--policy", "gold", "--user", "scripted")
    assert code == 2 and "manifest.json" in err and str(tmp_path) in err


@pytest.mark.embedded
@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_eval_with_embedded_model_prints_pass_hat_1_and_k(monkeypatch, capsys, tmp_path):
    code, stdout, _ = run_cli(
        monkeypatch,
        capsys,
        "eval",
        str(MINI),
        "--k",
        "2",
        "--limit",
        "1",
        "--max-turns",
        "2",
        "--max-new-tokens",
        "48",
        "--no-progress",
        "--out",
        str(tmp_path / "emb"),
    )
    assert code == 0, stdout
    assert "pass^1" in stdout and "pass^2" in stdout and "pass@2" in stdout
    summary = json.loads((tmp_path / "emb" / "summary.json").read_text())
    row = summary["envs"]["mini_todo"]
    assert (
        row["tasks"] == 1
        and row["trials"] == 2
        and row["judged"] == 2
        and 0.0 <= row["pass_hat_k"] <= row["pass_hat_1"] <= row["pass_at_k"] <= 1.0
    )
    assert summary["policy"].startswith("openai:") and summary["user"].startswith("llm:")
