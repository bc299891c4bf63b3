"""`forgegym train`: overrides, and bad configs exit 2 naming the file and the field."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from synth.cli.train_cmd import parse_overrides
from synth.errors import InputError

ROOT = Path(__file__).resolve().parents[1]


def test_overrides_are_yaml_scalars():
    assert parse_overrides(["optim.lr=1e-4", "steps=7", "plots=false", "envs=[a, b]", "advantage.mode=grpo"]) == {
        "optim.lr": 1e-4, "steps": 7, "plots": False, "envs": ["a", "b"], "advantage.mode": "grpo"}
    with pytest.raises(InputError, match="KEY=VALUE"):
        parse_overrides(["steps"])


def test_bad_config_exits_2_with_location(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("envs: [tests/data/envs/mini_todo]\noptim: {lr: fast}\n")
    proc = subprocess.run([sys.executable, "-m", "synth.cli.main", "train", str(bad)], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert proc.returncode == 2
    assert f"{bad}: optim.lr: expected float, got str 'fast'" in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "synth.cli.main", "train", str(bad), "--set", "optim.lr=0.1",
                           "--set", "envs=[no/such/dir]"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 2 and "envs: no/such/dir: not a folder" in proc.stderr
