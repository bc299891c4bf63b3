"""`forgegym train`: overrides, and bad configs exit 2 naming the file and the field."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes.cli import run_cli

from synth.cli.train_cmd import parse_overrides
from synth.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def test_overrides_are_yaml_scalars():
    assert parse_overrides(["optim.lr=1e-4", "steps=7", "plots=false", "envs=[a, b]", "advantage.mode=grpo"]) == {
        "optim.lr": 1e-4,
        "steps": 7,
        "plots": False,
        "envs": ["a", "b"],
        "advantage.mode": "grpo",
    }
    with pytest.raises(InputError, match="KEY=VALUE"):
        parse_overrides(["steps"])


def test_bad_config_exits_2_with_location(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # the config names envs relative to the repository
    bad = tmp_path / "bad.yaml"
    bad.write_text("envs: [tests/data/envs/mini_todo]\noptim: {lr: fast}\n")
    proc = run_cli(capsys, "train", str(bad))
    assert proc.returncode == 2
    assert f"{bad}: optim.lr: expected float, got str 'fast'" in proc.stderr
    proc = run_cli(capsys, "train", str(bad), "--set", "optim.lr=0.1", "--set", "envs=[no/such/dir]")
    assert proc.returncode == 2 and "envs: no/such/dir: not a folder" in proc.stderr
