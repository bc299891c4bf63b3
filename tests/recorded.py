"""Recorded calls the tests build by hand, read back as --traces reads them (not a test module)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synth.envsynth.testgen import TestCase
from synth.envsynth.traces import load_traces, pick_calls, trace_case


def recorded_cases(path: Path, rows: list[dict[str, Any]], tool: str) -> list[TestCase]:
    """Write each row (a call with its `state` before it) as a one-call trace at `path`; the tool's cases."""
    lines = [
        {"format": "forgegym-traces/1", "id": f"t{i}", "initial_state": r.pop("state"), "calls": [r]}
        for i, r in enumerate(rows)
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return [trace_case(c) for c in pick_calls(load_traces(path, None), tool, 10)]
