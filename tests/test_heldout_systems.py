"""The held-out systems under bench/heldout (docs/fidelity.md "Held-out systems") stay valid references: their docs
load, their trajectories replay on their implementation, and each measured against itself agrees everywhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from synth.fidelity.replay import measure_reference_against_itself
from synth.tooldocs import load_docs

HELDOUT = Path(__file__).resolve().parents[1] / "bench" / "heldout"
SYSTEMS = sorted(p for p in HELDOUT.iterdir() if (p / "adapter.py").exists())


def test_there_are_thirty_one_systems() -> None:
    names = ["allotments", "bulkwaste", "campground", "claims", "clinic", "cobalt", "courses", "coworking"]
    names += ["drivingschool", "fitness", "foodbank", "helpdesk", "hotel", "housing", "kennels", "lantern", "library"]
    names += ["meridian", "mobile"]
    names += ["museum", "parcels", "permits", "pharmacy", "pitches", "printshop", "rental", "repairs", "storage"]
    names += ["studios", "ticketing", "utility"]
    assert [p.name for p in SYSTEMS] == names


@pytest.mark.parametrize("folder", SYSTEMS, ids=lambda p: p.name)
def test_docs_load_and_the_system_agrees_with_itself(folder: Path) -> None:
    docs = [p for p in folder.iterdir() if p.name in ("openapi.json", "openapi.yaml", "tools.json", "tools.md")]
    docset = load_docs([str(docs[0]), str(folder / "policy.md")])
    assert len(docset.tools) == 12 and docset.policy
    report = measure_reference_against_itself(folder, limit=20).to_dict()
    assert report["calls"] > 20 and report["call_fidelity"] == 1.0 and report["final_state_exact"] == 1.0
