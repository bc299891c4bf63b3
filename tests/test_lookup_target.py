"""A write keyed by one record that changes the record it owns in a documented state ("the boat's open mooring is
set to 'closed'"): retargeted, stamped with the business date ("ended_at = today"), logged on the record that one
names with a field copied from it ("(charge = fee)"), and refused when the argument's record owns no such record."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.lookup_target import retarget, target_key
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec


def _collection(key: str, props: dict) -> dict:
    return {"type": "object", "x-key-field": key, "additionalProperties": {"type": "object", "properties": props}}


LOG = {
    "type": "object",
    "properties": {
        "on": {"type": "string"},
        "what": {"type": "string", "x-enum": ["haul", "berth"]},
        "ref": {"type": "string"},
        "charge": {"type": "number"},
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": _collection(
            "hull_id", {"hull_id": {"type": "string"}, "status": {"type": "string", "x-enum": ["afloat", "ashore"]}}
        ),
        "skippers": _collection(
            "skipper_id", {"skipper_id": {"type": "string"}, "log": {"type": "array", "items": LOG}}
        ),
        "moorings": _collection(
            "mooring_id",
            {
                "mooring_id": {"type": "string"},
                "hull_id": {"type": "string", "x-references": "boats"},
                "skipper_id": {"type": "string", "x-references": "skippers"},
                "status": {"type": "string", "x-enum": ["open", "closed"]},
                "ended_at": {"type": ["string", "null"]},
                "fee": {"type": "number"},
            },
        ),
    },
}
SAMPLE = {
    "boats": {"H1": {"hull_id": "H1", "status": "afloat"}, "H2": {"hull_id": "H2", "status": "ashore"}},
    "skippers": {
        "K1": {
            "skipper_id": "K1",
            "log": [
                {"on": "2031-01-02", "what": "haul", "ref": "M1", "charge": 2.0},
                {"on": "2031-01-20", "what": "haul", "ref": "M2", "charge": 0.0},
            ],
        }
    },
    "moorings": {
        "M1": {
            "mooring_id": "M1",
            "hull_id": "H1",
            "skipper_id": "K1",
            "status": "closed",
            "ended_at": "2031-01-02",
            "fee": 2.0,
        },
        "M2": {
            "mooring_id": "M2",
            "hull_id": "H1",
            "skipper_id": "K1",
            "status": "closed",
            "ended_at": "2031-01-20",
            "fee": 0.0,
        },
        "M3": {
            "mooring_id": "M3",
            "hull_id": "H1",
            "skipper_id": "K1",
            "status": "open",
            "ended_at": None,
            "fee": 4.5,
        },
    },
}
HAUL = ToolSpec(
    "haul_out",
    "Takes a boat out of the water by hull number (the business date is 2031-02-03). The boat's open mooring is set "
    "to 'closed' and ended_at = today; one `haul` line (charge = fee) gets logged to the skipper's log. Returns "
    "the updated mooring.",
    {"type": "object", "properties": {"hull_id": {"type": "string"}}, "required": ["hull_id"]},
)
BASE = ToolPlan(kind="update", collection="boats", key_field="hull_id", key_param="hull_id")


def test_the_call_acts_on_the_record_the_arguments_record_owns_in_that_state() -> None:
    acting = retarget(HAUL, BASE, SCHEMA)
    assert acting is not None and acting.collection == "moorings" and acting.key_field == "mooring_id"
    assert acting.lookup == {"owner": "boats", "field": "hull_id", "where": {"status": ["open"]}}
    assert (
        target_key(acting, SAMPLE, {"hull_id": "H1"}) == "M3" and target_key(acting, SAMPLE, {"hull_id": "H2"}) is None
    )
    plan = docs_transition(HAUL, acting, SCHEMA, "", list(SAMPLE["moorings"].values()), SAMPLE)
    closed = {**SAMPLE["moorings"]["M3"], "status": "closed", "ended_at": "2031-02-03"}
    ok = Case("haul_out", "x", SAMPLE, {"hull_id": "H1"}, expect_error=False)
    ok.expect_result, ok.has_expected_result = closed, True
    entry = {"on": "2031-02-03", "what": "haul", "ref": "M3", "charge": 4.5}
    log = SAMPLE["skippers"]["K1"]["log"] + [entry]
    ok.state_checks = [{"op": "field_equals", "collection": "skippers", "key": "K1", "field": "log", "value": log}]
    none_open = Case("haul_out", "x", SAMPLE, {"hull_id": "H2"}, expect_error=True)
    unknown = Case("haul_out", "x", SAMPLE, {"hull_id": "H9"}, expect_error=True)
    cases = [ok, none_open, unknown]
    res, err = run_cases(render_tool(HAUL, plan, SCHEMA), "haul_out", cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 3


def test_no_retarget_without_an_answer_of_that_record_or_a_state_word() -> None:
    silent = ToolSpec("haul_out", "Takes a boat out. The boat's open mooring is set to 'closed'.", HAUL.parameters)
    assert retarget(silent, BASE, SCHEMA) is None  # the docs answer no mooring
    vague = ToolSpec(
        "haul_out", "The boat's last mooring becomes 'closed'. Returns the updated mooring.", HAUL.parameters
    )
    assert retarget(vague, BASE, SCHEMA) is None  # "last" is no state of a mooring
    plain = ToolSpec("haul_out", "The boat's mooring becomes 'closed'. Returns the mooring.", HAUL.parameters)
    assert retarget(plain, BASE, SCHEMA) is None  # which of the boat's moorings: nothing says


def test_the_build_moves_the_plan_and_drops_a_guess_the_docs_overrule() -> None:
    from synth.envsynth.plan_choice import docs_transition_plan
    from synth.envsynth.tool_stage import BuildOptions

    ok = Case("haul_out", "x", SAMPLE, {"hull_id": "H1"}, expect_error=False)
    guess = Case("haul_out", "x", SAMPLE, {"hull_id": "H2"}, expect_error=False)  # H2 has no open mooring
    attempts: list = []
    dropped: list = []
    schema = SchemaResult(SCHEMA, {}, {}, "d")
    plan, cases = docs_transition_plan(HAUL, BASE, [ok, guess], schema, BuildOptions(sample=SAMPLE), attempts, dropped)
    assert (plan.kind, plan.collection, plan.lookup["where"]) == ("recorded_update", "moorings", {"status": ["open"]})
    assert [c.arguments for c in cases[:1]] == [{"hull_id": "H1"}]
    assert [d["failure"] for d in dropped] == ["expects success from a state the docs do not allow"]
    assert all(c.arguments["hull_id"] in SAMPLE["boats"] for c in cases)
