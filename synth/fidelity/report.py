"""Fidelity figures: per-call verdicts, their tally per tool and in total, and the report's JSON and text."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synth.fidelity.diff import change_list

METRICS = ("ok", "output", "change", "all")
DECIMALS = 6
EXAMPLE_CHANGES = 20  # changed leaves shown per side in an example


@dataclass
class Verdict:
    """How one call compares on the two sides."""

    ok: bool
    output: bool
    change: bool

    @property
    def all(self) -> bool:
        return self.ok and self.output and self.change

    def failed(self) -> list[str]:
        """The metrics that disagree, in the order ok, output, change."""
        return [name for name in ("ok", "output", "change") if not getattr(self, name)]


@dataclass
class ToolTally:
    """Counts of agreeing calls of one tool."""

    calls: int = 0
    ok: int = 0
    output: int = 0
    change: int = 0
    all: int = 0

    def add(self, verdict: Verdict) -> None:
        self.calls += 1
        self.ok += verdict.ok
        self.output += verdict.output
        self.change += verdict.change
        self.all += verdict.all

    def shares(self) -> dict[str, Any]:
        """{calls, ok, output, change, all}: the count of calls and each metric's share."""
        return {"calls": self.calls, **{m: _share(getattr(self, m), self.calls) for m in METRICS}}


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, DECIMALS) if whole else None


def example(
    trajectory: str,
    index: int,
    arguments: dict[str, Any],
    reference: dict[str, Any],
    environment: dict[str, Any],
    verdict: Verdict,
    ref_changes: dict,
    env_changes: dict,
) -> dict[str, Any]:
    """One disagreeing call as JSON: where it is, its arguments, both results, and both changes when they differ."""
    out = {
        "trajectory": trajectory,
        "call": index,
        "arguments": arguments,
        "disagrees": verdict.failed(),
        "reference": reference,
        "environment": environment,
    }
    if not verdict.change:
        out["reference_changes"] = change_list(ref_changes)[:EXAMPLE_CHANGES]
        out["environment_changes"] = change_list(env_changes)[:EXAMPLE_CHANGES]
    return out


@dataclass
class FidelityReport:
    """The result of replaying a reference's trajectories on an environment."""

    env_id: str
    reference: str
    trajectories: int = 0
    final_exact: int = 0
    total: ToolTally = field(default_factory=ToolTally)
    tools: dict[str, ToolTally] = field(default_factory=dict)
    examples: dict[str, dict[str, Any]] = field(default_factory=dict)  # tool -> its first disagreeing call
    resynced: int | None = None  # calls agreeing in full when the environment is reset before each call

    def add(self, tool: str, verdict: Verdict) -> None:
        """Count one call."""
        self.total.add(verdict)
        self.tools.setdefault(tool, ToolTally()).add(verdict)

    def wants_example(self, tool: str, verdict: Verdict) -> bool:
        """Whether this call is the tool's first disagreement (its example)."""
        return not verdict.all and tool not in self.examples

    def worst_first(self) -> list[str]:
        """Tool names, lowest call fidelity first (then lowest ok agreement, then name)."""
        return sorted(
            self.tools,
            key=lambda t: (self.tools[t].all / self.tools[t].calls, self.tools[t].ok / self.tools[t].calls, t),
        )

    def to_dict(self, examples: bool = False) -> dict[str, Any]:
        """The `--json` object (with `examples` too when asked: fidelity.json keeps them)."""
        shares = self.total.shares()
        out: dict[str, Any] = {
            "trajectories": self.trajectories,
            "calls": self.total.calls,
            "ok_agreement": shares["ok"],
            "output_agreement": shares["output"],
            "change_agreement": shares["change"],
            "call_fidelity": shares["all"],
            "final_state_exact": _share(self.final_exact, self.trajectories),
            "per_tool": {name: self.tools[name].shares() for name in sorted(self.tools)},
        }
        if self.resynced is not None:
            out["resynced_call_fidelity"] = _share(self.resynced, self.total.calls)
        if examples:
            out["env_id"] = self.env_id
            out["reference"] = self.reference
            out["examples"] = {name: self.examples[name] for name in sorted(self.examples)}
        return out
