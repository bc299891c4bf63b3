"""`forgegym tools` in-process through the CLI's main(argv), and once through the real entry point in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fakes.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "tooldocs"
GOOD = ROOT / "tests" / "data" / "tooldocs_good"
BAD = ROOT / "tests" / "data" / "tooldocs_bad"


def forgegym(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "COLUMNS": "160"}
    return subprocess.run(
        [sys.executable, "-m", "synth.cli.main", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"shared tool docs not found at {SHARED}")
def test_tools_json_petstore_prints_19_tools(capsys):
    run = run_cli(capsys, "tools", str(SHARED / "openapi_petstore_v3.yaml"), "--json")
    assert run.returncode == 0, run.stderr
    tools = json.loads(run.stdout)
    assert len(tools) == 19
    assert tools[1]["name"] == "addPet" and tools[1]["mutates"] is True
    assert tools[1]["http"] == {"method": "post", "path": "/pet"}
    assert tools[1]["source"]["format"] == "openapi"


def test_tools_table_lists_every_tool(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    run = run_cli(capsys, "tools", str(GOOD / "mcp_notes_rpc.json"), str(GOOD / "notes_tools.md"))
    assert run.returncode == 0, run.stderr
    for name in ("list_notebooks", "write_note", "purge_notebook", "count_words", "create_note", "delete_note"):
        assert name in run.stdout
    assert "mcp_notes_rpc: 7 tools" in run.stdout


def test_bad_file_exits_2_with_location():
    """The one test that starts the real entry point (python -m synth.cli.main) in its own process."""
    path = BAD / "openapi_dangling_ref.yaml"
    run = forgegym("tools", str(path), "--json")
    assert run.returncode == 2
    assert run.stdout == ""
    assert (
        f"{path}: /paths/~1things/post/requestBody/content/application~1json/schema/$ref: "
        "$ref '#/components/schemas/Thing' points nowhere"
    ) in run.stderr
