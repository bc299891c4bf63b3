"""A charter create refused for a boat that already holds an open charter, as the docs word it ("Error: boat <id>
already has open charter <charter_id>", "Only boats that have no open charter can get one"): vacant_fields reads
the boat's nullable field the words name (`open_charter_id` or `open_charter`) as one that must be empty, and
create_rules.refine_create requires it of the boat the call names ({"boat_id": {"open_charter_id": [None, ""]}}), so
the rendered create refuses a boat whose field is set and opens a charter for one whose field is null."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.vacant_fields import vacant_requires
from synth.spec import ToolSpec
from tests.schemas import collection

S, NULLABLE = {"type": "string"}, {"type": ["string", "null"]}
READY = {"type": "string", "x-enum": ["ready", "laid_up"]}
BOATS = {"boat_id": S, "name": S, "status": READY, "open_charter_id": NULLABLE}
COLS = {
    "boats": collection(BOATS),
    "skippers": collection({"skipper_id": S, "open_charter": NULLABLE}),
    "charters": collection({"charter_id": S, "boat_id": S, "skipper_id": S, "days": {"type": "integer"}}),
}
SCHEMA = {"type": "object", "properties": COLS}
REFS = {"boat_id": "boats", "skipper_id": "skippers"}
SAID = "Errors: 'Error: boat <id> not found', 'Error: boat <id> already has open charter <charter_id>'."
ONLY = "Only boats moored at the marina that have no open charter can get one."


def _cols(**boat: Any) -> dict[str, Any]:
    """The collections with the boats' fields replaced by these."""
    return {**COLS, "boats": collection({"boat_id": S, **boat})}


def test_the_boats_empty_field_the_error_or_the_sentence_names() -> None:
    assert vacant_requires(SAID, REFS, COLS) == {"boat_id": {"open_charter_id": [None, ""]}}
    assert vacant_requires(ONLY, REFS, COLS) == {"boat_id": {"open_charter_id": [None, ""]}}
    assert vacant_requires("Error: boat <id> already has an open charter <x>", REFS, COLS) == {
        "boat_id": {"open_charter_id": [None, ""]}
    }
    # the field named by the words themselves, and the skipper's own field for the skipper
    assert vacant_requires(SAID, REFS, _cols(open_charter=NULLABLE)) == {"boat_id": {"open_charter": [None, ""]}}
    assert vacant_requires("Error: skipper <id> already has open charter <x>", REFS, COLS) == {
        "skipper_id": {"open_charter": [None, ""]}
    }
    assert vacant_requires("Only skippers that have no open charter may sail.", REFS, COLS) == {
        "skipper_id": {"open_charter": [None, ""]}
    }


def test_no_requirement_without_one_nullable_field_so_named() -> None:
    assert vacant_requires(SAID, REFS, _cols(open_charter_id=S)) == {}  # never empty: not such a link
    assert vacant_requires(SAID, REFS, _cols(name=S)) == {}  # no such field
    assert vacant_requires(SAID, REFS, _cols(open_charter_id=NULLABLE, open_charter=NULLABLE)) == {}  # which one?
    assert vacant_requires("Error: boat <id> already has open mooring <x>", REFS, COLS) == {}  # other words
    assert vacant_requires("Error: boat <id> is laid up", REFS, COLS) == {}
    assert vacant_requires("Error: marina <id> already has open charter <x>", REFS, COLS) == {}  # no such argument


def test_a_sentence_about_skippers_puts_nothing_on_the_boat() -> None:
    said = "Each boat needs a skipper: only skippers that have no open charter can take one."
    assert vacant_requires(said, REFS, COLS) == {"skipper_id": {"open_charter": [None, ""]}}


SPEC_ARGS = {"type": "object", "properties": {"boat_id": S, "days": {"type": "integer"}}, "required": ["boat_id"]}
PLAN = ToolPlan(
    kind="create",
    collection="charters",
    key_field="charter_id",
    fields=["boat_id", "days"],
    id_type="pattern",
    key_format={"prefix": "C", "digits": 1},
)


def _spec(text: str) -> ToolSpec:
    return ToolSpec("open_charter", f"Opens a charter for a boat. {text}", SPEC_ARGS, mutates=True)


def test_the_create_requires_the_boats_field_empty() -> None:
    for text in (SAID, ONLY):
        spec = _spec(text)
        plan = refine_create(spec, PLAN, SCHEMA, spec.description)
        assert plan.ref_checks == {"boat_id": "boats"}  # the boat must exist for its field to be read
        assert plan.ref_requires == {"boat_id": {"open_charter_id": [None, ""]}}
    spec = _spec(f"The boat must be 'ready'. {SAID}")  # beside a state the boat must be in
    plan = refine_create(spec, PLAN, SCHEMA, spec.description)
    assert plan.ref_requires == {"boat_id": {"status": ["ready"], "open_charter_id": [None, ""]}}
    plain = _spec("Errors: 'Error: boat <id> not found'.")
    assert "open_charter_id" not in refine_create(plain, PLAN, SCHEMA, plain.description).ref_requires.get(
        "boat_id", {}
    )


def _boat(key: str, charter: str | None, status: str = "ready") -> dict[str, Any]:
    return {"boat_id": key, "name": f"Tern {key}", "status": status, "open_charter_id": charter}


STATE = {
    "boats": {"B1": _boat("B1", None), "B2": _boat("B2", "C1"), "B3": _boat("B3", None, "laid_up")},
    "skippers": {},
    "charters": {"C1": {"charter_id": "C1", "boat_id": "B2", "skipper_id": "K1", "days": 3}},
}


def test_the_rendered_create_refuses_a_boat_with_an_open_charter() -> None:
    spec = _spec(f"The boat must be 'ready'. {SAID}")
    plan = refine_create(spec, PLAN, SCHEMA, spec.description)
    after = copy.deepcopy(STATE)
    after["charters"]["C2"] = {"charter_id": "C2", "boat_id": "B1", "days": 2}
    opened = Case(spec.name, "x", STATE, {"boat_id": "B1", "days": 2}, expect_error=False)
    opened.state_checks = [{"op": "equals", "state": after}]
    cases = [opened] + [
        Case(spec.name, "x", STATE, {"boat_id": key, "days": 2}, expect_error=True)
        for key in ("B2", "B3", "B9")  # an open charter, laid up, no such boat
    ]
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases), (err, res.failures)
