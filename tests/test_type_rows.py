"""Per-kind conditions of a create read from its docs' table: "`haul` | boat `afloat`, crane `free` | 25.00", each
condition a check on the record an argument names, held only for that kind; a clause of another form is left
unread, and a table without an "allowed when" column gives nothing."""

from __future__ import annotations

from synth.envsynth.create_rules import refine_create
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.plan import ToolPlan
from synth.envsynth.type_rows import type_row_checks
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": collection({"boat_id": S, "status": {"type": "string", "x-enum": ["afloat", "hauled", "laid_up"]}}),
        "cranes": collection({"crane_id": S, "state": {"type": "string", "x-enum": ["free", "busy"]}}),
        "yard_jobs": collection({"job_id": S, "boat_id": S, "crane_id": S, "kind": S}),
    },
}
TEXT = """Books yard work on one boat with one crane.

kind | allowed when | fee (charged on completion)

`haul` | boat `afloat`, crane `free` | 25.00
`launch` | boat `hauled` with the hull dry, crane `free` | 25.00
`survey` | the surveyor is on site | 30.00
"""
PARAMS = {"type": "object", "properties": {"boat_id": S, "crane_id": S, "kind": S}, "required": ["boat_id", "kind"]}
COLS = SCHEMA["properties"]
STATE = {
    "boats": {"B1": {"boat_id": "B1", "status": "afloat"}, "B2": {"boat_id": "B2", "status": "hauled"}},
    "cranes": {"C1": {"crane_id": "C1", "state": "free"}, "C2": {"crane_id": "C2", "state": "busy"}},
}


def _allowed(kind: str, boat: str, crane: str) -> bool:
    arguments = {"kind": kind, "boat_id": boat, "crane_id": crane}
    checks = type_row_checks(TEXT, PARAMS["properties"], COLS)
    return all(fg_check(c, arguments, {}, STATE) for c in checks if kind in c["when"]["in"])


def test_each_row_gives_checks_guarded_on_its_kind() -> None:
    checks = type_row_checks(TEXT, PARAMS["properties"], COLS)
    assert [(c["when"]["in"], c["collection"], c["field"], c["allowed"]) for c in checks] == [
        (["haul"], "boats", "status", ["afloat"]),
        (["haul"], "cranes", "state", ["free"]),
        (["launch"], "boats", "status", ["hauled"]),  # "with the hull dry" is not read
        (["launch"], "cranes", "state", ["free"]),
    ]
    assert _allowed("haul", "B1", "C1") and not _allowed("haul", "B2", "C1") and not _allowed("haul", "B1", "C2")
    assert _allowed("launch", "B2", "C1") and not _allowed("launch", "B1", "C1")
    assert _allowed("survey", "B2", "C2")  # its condition names no record: nothing checked
    assert type_row_checks(TEXT.replace("allowed when", "notes"), PARAMS["properties"], COLS) == []


def test_the_create_plan_carries_them() -> None:
    spec = ToolSpec("book_yard_job", TEXT, PARAMS, mutates=True)
    base = ToolPlan(kind="create", collection="yard_jobs", key_field="job_id", fields=["boat_id", "crane_id", "kind"])
    plan = refine_create(spec, base, SCHEMA, TEXT)
    assert len([c for c in plan.checks if c["op"] == "named_state" and "when" in c]) == 4
