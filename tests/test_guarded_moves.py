"""Number moves a write's docs spell out beyond "goes up by": a move that holds only from one of the states the
call is allowed from, a fee the docs price and the answer reports, a parenthesis after a change ("(`slots_taken`
+ 1)"), "X added to / removed from Y", and a refund of a share of one of the record's figures that other numbers
then move by ("by that amount")."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_counters import docs_counters, refund_records
from synth.envsynth.envelope import with_envelope
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": _collection({"skipper_id": {"type": "string"}, "wallet": {"type": "number"}}),
        "yards": _collection(
            {"yard_id": {"type": "string"}, "slots_taken": {"type": "integer"}, "load_tonnes": {"type": "number"}}
        ),
        "moorings": _collection(
            {
                "mooring_id": {"type": "string"},
                "skipper_id": {"type": "string"},
                "status": {"type": "string", "x-enum": ["held", "paid", "released"]},
            }
        ),
        "boats": _collection(
            {
                "boat_id": {"type": "string"},
                "yard_id": {"type": "string"},
                "status": {"type": "string", "x-enum": ["afloat", "ashore"]},
                "tonnes": {"type": "number"},
                "hull_fee": {"type": "number"},
                "hull_refund": {"type": "number"},
            }
        ),
    },
}
ID = {"type": "string"}


def _run(spec: ToolSpec, plan: ToolPlan, cases: list[Case]) -> bool:
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SchemaResult(SCHEMA, {}, {}, "d"))
    return err == "" and res.passed == len(cases)


def test_a_fee_charged_from_one_starting_state_only_and_reported_in_the_answer() -> None:
    text = (
        "Releases a mooring (only while its status is `held` or `paid`). Its status becomes 'released'. Releasing "
        "a mooring which is `paid` incurs an exit fee of 9.25, deducted from the skipper's `wallet`. Returns "
        "{mooring, exit_fee, wallet}."
    )
    spec = ToolSpec("release_mooring", text, {"type": "object", "properties": {"mooring_id": ID}})
    base = ToolPlan(kind="update", collection="moorings", key_field="mooring_id", key_param="mooring_id")
    plan = docs_transition(spec, base, SCHEMA, "")
    (move,) = [e for e in plan.effects if e["op"] == "adjust"]
    assert move["when"] == {"field": "status", "in": ["paid"]} and move["delta"]["expr"] == {"minus": [{"const": 9.25}]}
    plan = with_envelope(spec, plan, SCHEMA)
    assert plan.output_map["mooring"] == {"op": "self"}
    assert plan.output_map["exit_fee"] == {"op": "charged", "amount": 9.25, "when": move["when"]}
    state = {
        "skippers": {"K1": {"skipper_id": "K1", "wallet": 20.0}},
        "moorings": {
            "M1": {"mooring_id": "M1", "skipper_id": "K1", "status": "paid"},
            "M2": {"mooring_id": "M2", "skipper_id": "K1", "status": "held"},
        },
    }
    paid = Case(spec.name, "x", state, {"mooring_id": "M1"}, expect_error=False)
    paid.expect_result = {
        "mooring": {"mooring_id": "M1", "skipper_id": "K1", "status": "released"},
        "exit_fee": 9.25,
        "wallet": 10.75,
    }
    held = Case(spec.name, "x", state, {"mooring_id": "M2"}, expect_error=False)
    held.expect_result = {
        "mooring": {"mooring_id": "M2", "skipper_id": "K1", "status": "released"},
        "exit_fee": 0.0,
        "wallet": 20.0,
    }
    paid.has_expected_result = held.has_expected_result = True
    assert _run(spec, plan, [paid, held])


def test_a_sentence_naming_every_allowed_state_guards_nothing() -> None:
    text = "A mooring that is `held` or `paid` costs a fee of 2 from the skipper's wallet (deducted from it)."
    states = {"status": ["held", "paid"]}
    (move,) = docs_counters(text, "moorings", "mooring_id", SCHEMA, {}, None, states)
    assert "when" not in move


def test_a_parenthesis_after_a_change_and_figures_added_to_or_removed_from_another_records_number() -> None:
    text = (
        "Hauling out takes a yard slot (`slots_taken` + 1). The tonnes are added to the yard's load_tonnes. "
        "The status becomes 'ashore'."
    )
    (slots, load) = docs_counters(text, "boats", "boat_id", SCHEMA, {})
    assert slots["collection"] == "yards" and slots["delta"]["expr"] == {"plus": [{"const": 1}]}
    assert load["path"][-1]["value"] == "load_tonnes" and load["delta"]["expr"] == {"plus": [{"path": ["tonnes"]}]}
    text = "Launching a boat: the call subtracts its tonnes from load_tonnes, and one slot opens (slots_taken -1)."
    (slots, load) = sorted(docs_counters(text, "boats", "boat_id", SCHEMA, {}), key=lambda e: e["path"][-1]["value"])[
        ::-1
    ]
    assert slots["delta"]["expr"] == {"minus": [{"const": 1}]}
    assert load["collection"] == "yards" and load["delta"]["expr"] == {"minus": [{"path": ["tonnes"]}]}


def test_a_refunded_share_moves_other_numbers_by_that_amount() -> None:
    text = (
        "Scraps a boat. The yard repays 40% of the hull fee (to 2 decimals). hull_refund rises by this amount; "
        "slots_taken of the yard drops by 1. The status becomes 'scrapped'."
    )
    moves = docs_counters(text, "boats", "boat_id", SCHEMA, {})
    back = next(e for e in moves if e["path"][-1]["value"] == "hull_refund")
    assert back["delta"]["expr"] == {"plus": [{"path": ["hull_fee"]}], "times": 0.4, "digits": 2}
    assert not any(e["path"][-1]["value"] == "hull_fee" for e in moves)  # what is paid back does not move
    spec = ToolSpec("scrap_boat", text, {"type": "object", "properties": {"boat_id": ID}})
    base = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    plan = docs_transition(spec, base, SCHEMA, "")
    assert {"op": "set", "field": "status", "source": {"from": "const", "value": "scrapped"}} in plan.effects
    state = {
        "yards": {"Y1": {"yard_id": "Y1", "slots_taken": 3, "load_tonnes": 40.0}},
        "boats": {
            "B1": {
                "boat_id": "B1",
                "yard_id": "Y1",
                "status": "afloat",
                "tonnes": 4.0,
                "hull_fee": 99.99,
                "hull_refund": 0.0,
            }
        },
    }
    case = Case(spec.name, "x", state, {"boat_id": "B1"}, expect_error=False)
    case.expect_result = {**state["boats"]["B1"], "status": "scrapped", "hull_refund": 40.0}
    case.has_expected_result = True
    case.state_checks = [{"op": "field_equals", "collection": "yards", "key": "Y1", "field": "slots_taken", "value": 2}]
    assert _run(spec, plan, [case])


def test_a_whole_refund_recorded_on_the_record_and_moved_by_the_same_amount_from_one_state() -> None:
    text = (
        "Takes a boat off the register; only boats `afloat` or `ashore` can go. When an afloat boat leaves the "
        "register, the full hull fee is paid back (recorded in hull_refund), and the skipper's wallet increases by "
        "the same amount."
    )
    states = {"status": ["afloat", "ashore"]}
    (kept,) = refund_records(text, "boats", SCHEMA, states)
    assert kept == {
        "op": "set",
        "field": "hull_refund",
        "source": {"from": "record", "path": ["hull_fee"]},
        "when": {"field": "status", "in": ["afloat"]},
    }
    schema = {**SCHEMA, "properties": {**SCHEMA["properties"]}}
    boats = schema["properties"]["boats"]["additionalProperties"]["properties"]
    schema["properties"]["boats"] = _collection({**boats, "skipper_id": ID})
    (wallet,) = [e for e in docs_counters(text, "boats", "boat_id", schema, {}, None, states)]
    assert wallet["collection"] == "skippers" and wallet["when"] == {"field": "status", "in": ["afloat"]}
    assert wallet["delta"]["expr"] == {"plus": [{"path": ["hull_fee"]}]}
