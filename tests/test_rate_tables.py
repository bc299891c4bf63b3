"""A create whose docs price the new record from a prose rate table keyed by a field of a record it names, its
status given as "status: 'x'", a state the named record must be in (so it must exist), a record it must not
already hold for the same argument, a move on the record it inherits, and a compound noun naming the collection."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import PlanContext, ToolPlan, pick_collection
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.rate_tables import rate_tables
from synth.envsynth.refused_lists import cap_checks
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from synth.words import plural
from tests.schemas import collection as _collection

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "clubs": _collection(
            {
                "club_id": S,
                "tier": {"type": "string", "x-enum": ["bronze", "silver", "gold"]},
                "tokens": {"type": "number"},
            }
        ),
        "sailors": _collection(
            {"sailor_id": S, "club_id": S, "status": {"type": "string", "x-enum": ["active", "away"]}}
        ),
        "slip_chits": _collection(
            {
                "chit_id": S,
                "sailor_id": S,
                "club_id": S,
                "day": S,
                "toll": {"type": "number"},
                "status": {"type": "string", "x-enum": ["valid", "void"]},
            }
        ),
    },
}
TEXT = (
    "Writes a slip chit for a sailor and a day.\n"
    "- Toll by club tier: bronze 12, silver 8, gold 0.\n"
    "- The sailor has to be active.\n"
    "- One valid chit per sailor per day: a sailor cannot already have a valid chit on the same day.\n"
    "- Refused when the club's tokens are less than the toll. The toll is deducted from the club's tokens.\n"
    "Output {chit_id, sailor_id, club_id, day, toll, status: 'valid'}."
)
SPEC = ToolSpec(
    "write_slip_chit", TEXT, {"type": "object", "properties": {"sailor_id": S, "day": S}, "required": ["sailor_id"]}
)


def test_a_prose_table_needs_every_value_it_names_paired_with_one_number() -> None:
    own = SCHEMA["properties"]["slip_chits"]["additionalProperties"]["properties"]
    cols = SCHEMA["properties"]
    (table,) = rate_tables(TEXT, own, {"club_id": "clubs"}, cols, ["toll"])
    assert table == {
        "op": "tabled",
        "field": "toll",
        "via": "club_id",
        "collection": "clubs",
        "key": "tier",
        "values": {"bronze": 12.0, "silver": 8.0, "gold": 0.0},
    }
    assert rate_tables("12 tokens for bronze, and silver costs more.", own, {"club_id": "clubs"}, cols, ["toll"]) == []
    bracketed = "Tokens due: bronze members pay 12; silver 8; gold members nothing (0)."
    assert rate_tables(bracketed, own, {"club_id": "clubs"}, cols, ["toll"])[0]["values"]["gold"] == 0.0
    assert rate_tables(TEXT, own, {"club_id": "clubs"}, cols, []) == []  # nothing left unset to fill


def test_a_chit_priced_by_its_clubs_tier_charged_to_the_club_and_refused_twice_for_a_day() -> None:
    base = ToolPlan(kind="create", collection="slip_chits", key_field="chit_id", fields=["sailor_id", "day"])
    plan = refine_create(SPEC, base, SCHEMA, TEXT)
    assert plan.initial_values == {"status": "valid"} and plan.inherits["club_id"] == [
        "sailor_id",
        "sailors",
        "club_id",
    ]
    assert plan.ref_checks == {"sailor_id": "sailors"} and plan.ref_requires == {"sailor_id": {"status": ["active"]}}
    cap = next(c for c in plan.checks if c["op"] == "cap")
    assert cap["where"] == {"status": ["valid"]} and cap["same"] == ["day"] and cap["max"] == 1
    state = {
        "clubs": {"C1": {"club_id": "C1", "tier": "silver", "tokens": 20.0}},
        "sailors": {
            "S1": {"sailor_id": "S1", "club_id": "C1", "status": "active"},
            "S2": {"sailor_id": "S2", "club_id": "C1", "status": "away"},
        },
        "slip_chits": {
            "T-1": {"chit_id": "T-1", "sailor_id": "S1", "club_id": "C1", "day": "d1", "toll": 8.0, "status": "valid"}
        },
    }
    fresh = Case(SPEC.name, "x", state, {"sailor_id": "S1", "day": "d2"}, expect_error=False)
    fresh.expect_result = {
        "chit_id": "T-2",
        "sailor_id": "S1",
        "club_id": "C1",
        "day": "d2",
        "toll": 8.0,
        "status": "valid",
    }
    fresh.has_expected_result = True
    fresh.state_checks = [{"op": "field_equals", "collection": "clubs", "key": "C1", "field": "tokens", "value": 12.0}]
    cases = [
        fresh,
        Case(SPEC.name, "x", state, {"sailor_id": "S1", "day": "d1"}, expect_error=True),  # already holds one
        Case(SPEC.name, "x", state, {"sailor_id": "S2", "day": "d2"}, expect_error=True),  # away
        Case(SPEC.name, "x", state, {"sailor_id": "S9", "day": "d2"}, expect_error=True),  # no such sailor
    ]
    plan = ToolPlan.from_dict({**plan.to_dict(), "id_type": "pattern", "key_format": {"prefix": "T-", "digits": 0}})
    res, err = run_cases(render_tool(SPEC, plan, SCHEMA), SPEC.name, cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == len(cases)


def test_a_cap_without_a_same_argument_phrase_counts_every_such_record() -> None:
    own = SCHEMA["properties"]["slip_chits"]["additionalProperties"]["properties"]
    text = "The sailor must not already hold a valid chit."
    (cap,) = cap_checks(text, "slip_chits", own, {"sailor_id": "sailors"}, {"sailor_id": S, "day": S})
    assert "same" not in cap and cap["max"] == 1
    text = "The sailor must not already hold a chit unless it is void."  # 'void' is what lets it, not what counts
    assert cap_checks(text, "slip_chits", own, {"sailor_id": "sailors"}, {"sailor_id": S, "day": S}) == []


def test_a_compound_noun_of_the_name_picks_its_collection_and_ss_words_pluralise() -> None:
    assert plural("glass") == "glasses" and plural("box") == "boxes" and plural("berths") == "berths"
    from synth.envsynth.collections import CollectionDraft

    drafts = {
        "sailors": CollectionDraft("sailors", "sailor", key_field="sailor_id"),
        "slip_chits": CollectionDraft("slip_chits", "slip_chit", key_field="chit_id"),
    }
    ctx = PlanContext(collections=drafts, singletons={}, client=None)
    assert pick_collection(SPEC, tool_priors(SPEC), ctx)[0] == "slip_chits"  # not the sailors its parameter names
