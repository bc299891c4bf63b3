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


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


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
        "Lets a mooring go (only while its status is `held` or `paid`). Its status becomes 'released'. "
        "When the mooring is `paid`, an exit fee of 7.50 is deducted from the skipper's `wallet`; debts are "
        "allowed. Returns {mooring, exit_fee, wallet}."
    )
    spec = ToolSpec("release_mooring", text, {"type": "object", "properties": {"mooring_id": ID}})
    base = ToolPlan(kind="update", collection="moorings", key_field="mooring_id", key_param="mooring_id")
    plan = docs_transition(spec, base, SCHEMA, "")
    (move,) = [e for e in plan.effects if e["op"] == "adjust"]
    assert move["when"] == {"field": "status", "in": ["paid"]} and move["delta"]["expr"] == {"minus": [{"const": 7.5}]}
    plan = with_envelope(spec, plan, SCHEMA)
    assert plan.output_map["mooring"] == {"op": "self"}
    assert plan.output_map["exit_fee"] == {"op": "charged", "amount": 7.5, "when": move["when"]}
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
        "exit_fee": 7.5,
        "wallet": 12.5,
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
        "Hauls the boat out of the water (`slots_taken` + 1) and adds its tonnes to the yard's load_tonnes. "
        "The status becomes 'ashore'."
    )
    (slots, load) = docs_counters(text, "boats", "boat_id", SCHEMA, {})
    assert slots["collection"] == "yards" and slots["delta"]["expr"] == {"plus": [{"const": 1}]}
    assert load["path"][-1]["value"] == "load_tonnes" and load["delta"]["expr"] == {"plus": [{"path": ["tonnes"]}]}
    text = "Launches the boat: the yard frees a slot (slots_taken -1) and removes its tonnes from load_tonnes."
    (slots, load) = docs_counters(text, "boats", "boat_id", SCHEMA, {})
    assert slots["delta"]["expr"] == {"minus": [{"const": 1}]}
    assert load["collection"] == "yards" and load["delta"]["expr"] == {"minus": [{"path": ["tonnes"]}]}


def test_a_refunded_share_moves_other_numbers_by_that_amount() -> None:
    text = (
        "Scraps a boat. Scrapping repays 40% of the hull fee (to 2 decimals); hull_refund rises by this amount, "
        "and the yard's slots_taken drops by 1. The status becomes 'scrapped'."
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
        "Takes a boat off the register; only boats `afloat` or `ashore` can go. For an afloat boat the full hull "
        "fee is paid back and recorded in hull_refund, and the skipper's wallet increases by the same amount."
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
