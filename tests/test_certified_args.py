"""A kind of record that only some values of an argument may take ("Keel boats can only go to keel certified
riggers."), the certified ones named in the argument's own description; read from the docs and run."""

from __future__ import annotations

from synth.envsynth.certified_args import certified_checks
from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S = {"type": "string"}
JOB = {"job_id": S, "boat_id": S, "rigger": S, "status": {"type": "string", "x-enum": ["open", "assigned"]}}
BOAT = {"boat_id": S, "hull": {"type": "string", "x-enum": ["dinghy", "keel-boat", "cat"]}}
COLS = {"jobs": _collection(JOB), "boats": _collection(BOAT)}
SCHEMA = {"type": "object", "properties": COLS}
RIGGER = {
    "type": "string",
    "enum": ["R1", "R2", "R3"],
    "description": "Rigger code: R1 (Ana Duarte, keel-boat certified), R2 (Ben Okafor), R3 (Chloe Marin, keel-boat "
    "certified).",
}
PARAMS = {"type": "object", "properties": {"job_id": S, "rigger": RIGGER}, "required": ["job_id", "rigger"]}
ASSIGN = ToolSpec(
    "assign_job",
    "Assigns a job to a rigger. Keel-boat jobs can only go to keel-boat certified riggers. The job's rigger is set.",
    PARAMS,
)
STATE = {
    "jobs": {
        "J1": {"job_id": "J1", "boat_id": "B1", "rigger": "", "status": "open"},
        "J2": {"job_id": "J2", "boat_id": "B2", "rigger": "", "status": "open"},
    },
    "boats": {"B1": {"boat_id": "B1", "hull": "keel-boat"}, "B2": {"boat_id": "B2", "hull": "dinghy"}},
}


def test_a_kind_only_certified_values_may_take() -> None:
    checks = certified_checks(ASSIGN.description, PARAMS["properties"], JOB, COLS)
    cond = {"collection": "boats", "via": "boat_id", "field": "hull", "equals": "keel-boat"}
    assert checks == [{"op": "refused_if", "arg": "rigger", "in": ["R2"], "if": cond}]
    plan = ToolPlan(
        kind="recorded_update",
        collection="jobs",
        key_field="job_id",
        key_param="job_id",
        effects=[{"op": "set", "field": "rigger", "source": {"from": "arg", "name": "rigger"}}],
        checks=checks,
    )
    cases = [
        Case(ASSIGN.name, "x", STATE, {"job_id": "J1", "rigger": "R2"}, expect_error=True),  # not keel-boat certified
        Case(ASSIGN.name, "x", STATE, {"job_id": "J1", "rigger": "R3"}, expect_error=False),
        Case(ASSIGN.name, "x", STATE, {"job_id": "J2", "rigger": "R2"}, expect_error=False),  # a dinghy: anyone
    ]
    res, err = run_cases(render_tool(ASSIGN, plan, SCHEMA), ASSIGN.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)


def test_no_check_without_asides_or_a_field_holding_the_kind() -> None:
    bare = {**PARAMS["properties"], "rigger": {**RIGGER, "description": "Rigger code."}}
    assert certified_checks(ASSIGN.description, bare, JOB, COLS) == []
    said = ASSIGN.description.replace("Keel-boat jobs", "Trimaran jobs").replace("to keel-boat", "to trimaran")
    assert certified_checks(said, PARAMS["properties"], JOB, COLS) == []  # no hull holds it


def test_a_state_only_one_kind_of_linked_record_must_hold() -> None:
    from synth.envsynth.expr_runtime import fg_check

    hire = {"hire_id": S, "skipper_id": S}
    skipper = {
        "skipper_id": S,
        "kind": {"type": "string", "x-enum": ["owner", "charterer"]},
        "licence_status": {"type": "string", "x-enum": ["valid", "lapsed"]},
    }
    cols = {"hires": _collection(hire), "skippers": _collection(skipper)}
    text = "Starts a hire. When the skipper is a charterer, their licence must be `valid` at the start."
    [check] = certified_checks(text, {"hire_id": S}, hire, cols)
    assert check["op"] == "linked_state" and check["only_if"] == {"field": "kind", "in": ["charterer"]}
    state = {
        "skippers": {
            "K1": {"skipper_id": "K1", "kind": "charterer", "licence_status": "lapsed"},
            "K2": {"skipper_id": "K2", "kind": "owner", "licence_status": "lapsed"},
        }
    }
    assert not fg_check(check, {}, {"skipper_id": "K1"}, state) and fg_check(check, {}, {"skipper_id": "K2"}, state)
    assert certified_checks(text.replace("a charterer", "a pirate"), {"hire_id": S}, hire, cols) == []
