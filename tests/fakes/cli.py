"""The `forgegym` console script in-process: `synth.cli.main.main(argv)` with its exit code and output.

An in-process stand-in for `subprocess.run([sys.executable, "-m", "synth.cli.main", ...])` (seconds
faster per call: no interpreter start, no re-import of torch/prefect). tests/test_tooldocs_cli.py keeps
one true subprocess run of the console script.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from synth.cli.main import main


@dataclass
class CliRun:
    """What one CLI call did (named like subprocess.CompletedProcess's fields)."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(capsys: Any, *args: str) -> CliRun:
    """Run `forgegym ARGS` in this process; `capsys` is pytest's fixture (its captured output is consumed)."""
    capsys.readouterr()  # drop what the test printed before
    code: Any = 0
    try:
        main(list(args))
    except SystemExit as ex:
        code = ex.code
    out = capsys.readouterr()
    if code is None:
        code = 0
    if not isinstance(code, int):  # sys.exit("message"): the interpreter would print it and exit 1
        return CliRun(1, out.out, out.err + f"{code}\n")
    return CliRun(code, out.out, out.err)
