"""What a real system's recorded calls (--traces) say about publishing a tool that passed its tests: a write that
reproduces too few of them is left out (it does not do what its docs say), and the fields the recorded calls changed
are the ones the gate holds a fully reproducing write to."""

from __future__ import annotations

from typing import TYPE_CHECKING

from synth.envsynth.plan import WRITE_KINDS
from synth.envsynth.testgen import TestCase

if TYPE_CHECKING:
    from synth.envsynth.tool_stage import ToolBuild


def worse_than_missing(build: "ToolBuild", recorded: list[TestCase]) -> list[str]:
    """A write whose code reproduces none of its recorded calls (--traces), or fewer than the real system refused (a
    missing tool matches those): the real system did otherwise on the rest, so the tool does not do what its docs
    say."""
    if not build.plan or build.plan.get("kind") not in WRITE_KINDS or not recorded:
        return []
    refused = sum(1 for c in recorded if c.expect_error)
    if not build.traces_reproduced:  # measured: left out, such tools cost the held-out systems less
        return [f"reproduces none of its {len(recorded)} recorded calls"]
    if build.traces_reproduced < refused:
        return [
            f"reproduces {build.traces_reproduced} of its {len(recorded)} recorded calls, fewer than the {refused}"
            " the real system refused"
        ]
    return []


def shown_fields(build: "ToolBuild", recorded: list[TestCase]) -> set[str] | None:
    """The record fields the recorded calls changed, when the code reproduces every one of them (two successful
    at least); else None."""
    from synth.envsynth.traces import parse_pointer, recorded_changes

    ok = [c for c in recorded if not c.expect_error]
    if len(ok) < 2 or build.traces_total != len(recorded) or build.traces_reproduced != len(recorded):
        return None
    return {p[2] for c in ok for r in recorded_changes(c) for p in [parse_pointer(r["path"])] if len(p) >= 3}


__all__ = ["shown_fields", "worse_than_missing"]
