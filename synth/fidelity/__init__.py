"""Fidelity: how closely a synthesized environment behaves like the real implementation behind its docs.

    from synth.fidelity import measure_fidelity
    report = measure_fidelity("envs_generated/shop", "../shared/references/shop", limit=50)
    report.to_dict()["call_fidelity"]

Modules: `reference` (the adapter and its trajectories), `normalize` (comparison rules), `diff` (changed
leaves), `replay` (the lock-step replay), `report` (tallies and JSON), `render` (table, markdown),
`record` (traces of the reference), `step` (the synthesis flow's step). See docs/fidelity.md.
"""

from __future__ import annotations

from synth.fidelity.record import record_traces
from synth.fidelity.replay import measure_fidelity
from synth.fidelity.report import FidelityReport
from synth.fidelity.step import fidelity_step

__all__ = ["FidelityReport", "fidelity_step", "measure_fidelity", "record_traces"]
