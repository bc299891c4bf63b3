"""What a write's docs say beyond its kind: a description that opens with a creating verb or returns a new record
makes a create; a payment that moves a balance also logs the entry its docs name; a receipt-like answer lists
record fields and an argument answered back; new list entries missing a required field are refused; sampled
arguments follow the documented range and the records' own entry shape."""

from __future__ import annotations

import random

from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import echoed, with_envelope
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.priors import tool_priors
from synth.envsynth.sampling import documented_range, record_items, sample_arguments
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

ENTRY = {
    "type": "object",
    "properties": {
        "date": {"type": "string"},
        "kind": {"type": "string", "x-enum": ["dues", "levy"]},
        "ref": {"type": ["string", "null"]},
        "amount": {"type": "number"},
    },
}
CARGO = {
    "type": "object",
    "required": ["hold", "tonnes"],
    "properties": {"hold": {"type": "string"}, "tonnes": {"type": "integer"}},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "sailors": _collection(
            {
                "sailor_id": {"type": "string"},
                "status": {"type": "string"},
                "owed": {"type": "number"},
                "ledger": {"type": "array", "items": ENTRY},
            }
        ),
        "loads": _collection(
            {
                "load_id": {"type": "string"},
                "cargo": {"type": "array", "items": CARGO},
                "crane_hours": {"type": "integer"},
            }
        ),
    },
}
SAMPLE = {
    "sailors": {
        "S1": {
            "sailor_id": "S1",
            "status": "active",
            "owed": 12.0,
            "ledger": [{"date": "2031-01-04", "kind": "dues", "ref": None, "amount": 3.0}],
        }
    },
    "loads": {},
}
PAY = ToolSpec(
    "settle_dues",
    "Settles part of a sailor's dues (business date 2031-02-03): `owed` drops by the amount; one `dues` line gets "
    "logged to the sailor's ledger. Returns {sailor_id, settled, owed, status}.",
    {
        "type": "object",
        "properties": {
            "sailor_id": {"type": "string"},
            "amount": {"type": "number", "description": "Amount settled, in euros."},
        },
        "required": ["sailor_id", "amount"],
    },
)


def test_a_create_read_from_the_description_when_the_name_has_no_verb() -> None:
    params = {"type": "object", "properties": {"pier_id": {"type": "string"}}}
    for text in ("Registers a launch for a pier.", "Loads a ship. Returns the new load."):
        pri = tool_priors(ToolSpec("crane_slot", text, params))
        assert (pri.kind_guess, pri.mutates) == ("create", True), text
    assert tool_priors(ToolSpec("crane_slot", "The crane's next free slot.", params)).kind_guess is None
    assert tool_priors(ToolSpec("crane_fees", "Adds up the fees of every crane slot.", params)).kind_guess is None
    unsaid = "Returns the new fee a longer slot would cost, without changing anything."
    assert tool_priors(ToolSpec("crane_fee", unsaid, params)).kind_guess is None
    assert tool_priors(ToolSpec("get_slot", "Returns the new slot.", params)).kind_guess == "get"  # the name wins


def test_a_payment_logs_its_entry_and_answers_the_listed_fields() -> None:
    base = ToolPlan(kind="update", collection="sailors", key_field="sailor_id", key_param="sailor_id")
    plan = docs_transition(PAY, base, SCHEMA, "", list(SAMPLE["sailors"].values()), SAMPLE)
    entry = next(e for e in plan.effects if e["op"] == "append")["items"][0]["fields"]
    assert entry["ref"] == {"from": "const", "value": None}  # null in the only such entry of the data
    assert entry["amount"] == {"from": "arg", "name": "amount"} and entry["date"]["value"] == "2031-02-03"
    plan = with_envelope(PAY, plan, SCHEMA)
    assert plan.output_map == {"settled": {"op": "arg", "name": "amount"}}
    case = Case("settle_dues", "x", SAMPLE, {"sailor_id": "S1", "amount": 5.0}, expect_error=False)
    case.expect_result = {"sailor_id": "S1", "settled": 5.0, "owed": 7.0, "status": "active"}
    case.has_expected_result = True
    ledger = SAMPLE["sailors"]["S1"]["ledger"] + [{"date": "2031-02-03", "kind": "dues", "ref": None, "amount": 5.0}]
    case.state_checks = [
        {"op": "field_equals", "collection": "sailors", "key": "S1", "field": "ledger", "value": ledger}
    ]
    res, err = run_cases(render_tool(PAY, plan, SCHEMA), "settle_dues", [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_an_argument_is_answered_back_only_when_one_parameter_names_the_field() -> None:
    assert echoed("amount", PAY) == {"op": "arg", "name": "amount"}
    assert echoed("settled", PAY) == {"op": "arg", "name": "amount"}
    assert echoed("refund", PAY) is None


def test_new_entries_missing_a_required_field_are_refused() -> None:
    spec = ToolSpec(
        "stow_load",
        "Stows a load.",
        {"type": "object", "properties": {"cargo": {"type": "array", "items": {"type": "object"}}}},
    )
    plan = ToolPlan(kind="create", collection="loads", key_field="load_id", fields=["cargo"])
    good = Case("stow_load", "x", SAMPLE, {"cargo": [{"hold": "fore", "tonnes": 3}]}, expect_error=False)
    bad = Case("stow_load", "x", SAMPLE, {"cargo": [{"hold": "fore"}]}, expect_error=True)
    res, err = run_cases(render_tool(spec, plan, SCHEMA), "stow_load", [good, bad], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 2


def test_sampled_arguments_follow_documented_ranges_and_the_records_entries() -> None:
    assert documented_range({"type": "integer", "description": "Crane shifts, 2 to 5."}) == (2.0, 5.0)
    assert documented_range({"type": "string", "description": "The office opens 08:00-18:00."}) is None
    assert documented_range({"type": "integer", "description": "between 2 and 6 weeks"}) == (2.0, 6.0)
    assert documented_range({"type": "integer", "description": "How many."}) is None
    assert record_items(SCHEMA, "cargo") == CARGO and record_items(SCHEMA, "ledger") == ENTRY
    params = {
        "type": "object",
        "properties": {
            "crane_hours": {"type": "integer", "description": "1 to 4 hours."},
            "cargo": {"type": "array", "items": {"type": "object"}},
        },
        "required": ["crane_hours", "cargo"],
    }
    rng = random.Random(7)
    drawn = [sample_arguments(params, rng, SAMPLE, SCHEMA) for _ in range(40)]
    hours = [d["crane_hours"] for d in drawn]
    assert sum(1 <= h <= 4 for h in hours) >= 28 and any(h > 4 for h in hours)  # mostly inside, sometimes not
    assert all({"hold", "tonnes"} <= set(e) for d in drawn for e in d["cargo"])


def test_a_create_checks_the_named_records_state_and_a_date_within_its_term() -> None:
    from synth.envsynth.create_rules import refine_create

    schema = {
        "type": "object",
        "properties": {
            "charters": _collection(
                {
                    "charter_id": {"type": "string"},
                    "status": {"type": "string", "x-enum": ["signed", "void"]},
                    "opens_on": {"type": "string"},
                    "closes_on": {"type": "string"},
                }
            ),
            "sailings": _collection(
                {"sailing_id": {"type": "string"}, "charter_id": {"type": "string"}, "sail_date": {"type": "string"}}
            ),
        },
    }
    state = {
        "charters": {
            "P1": {"charter_id": "P1", "status": "signed", "opens_on": "2031-01-01", "closes_on": "2031-06-30"},
            "P2": {"charter_id": "P2", "status": "void", "opens_on": "2031-01-01", "closes_on": "2031-06-30"},
        },
        "sailings": {},
    }
    spec = ToolSpec(
        "log_sailing",
        "Logs a sailing under a charter. Unknown charters are not found. The charter must be signed; sail_date has "
        "to fall within the charter's dates (opens_on to closes_on).",
        {
            "type": "object",
            "properties": {"charter_id": {"type": "string"}, "sail_date": {"type": "string"}},
            "required": ["charter_id", "sail_date"],
        },
    )
    base = ToolPlan(kind="create", collection="sailings", key_field="sailing_id", fields=["charter_id", "sail_date"])
    plan = refine_create(spec, base, schema, spec.description)
    assert plan.ref_requires == {"charter_id": {"status": ["signed"]}}
    assert plan.checks == [
        {
            "op": "within",
            "arg": "sail_date",
            "collection": "charters",
            "via_arg": "charter_id",
            "low": "opens_on",
            "high": "closes_on",
        }
    ]
    cases = [
        Case("log_sailing", "x", state, {"charter_id": "P1", "sail_date": "2031-06-30"}, expect_error=False),
        Case("log_sailing", "x", state, {"charter_id": "P1", "sail_date": "2031-07-01"}, expect_error=True),
        Case("log_sailing", "x", state, {"charter_id": "P2", "sail_date": "2031-02-01"}, expect_error=True),
    ]
    res, err = run_cases(render_tool(spec, plan, schema), "log_sailing", cases, SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 3


def test_a_create_refused_when_the_named_record_already_holds_the_most_it_may() -> None:
    from synth.envsynth.create_rules import refine_create

    schema = {
        "type": "object",
        "properties": {
            "skippers": _collection({"skipper_id": {"type": "string"}}),
            "moorings": _collection(
                {
                    "mooring_id": {"type": "string"},
                    "skipper_id": {"type": "string"},
                    "status": {"type": "string", "x-enum": ["booked", "moored", "left"]},
                }
            ),
        },
    }
    held = {f"M{i}": {"mooring_id": f"M{i}", "skipper_id": "K1", "status": s} for i, s in enumerate(["booked", "left"])}
    state = {"skippers": {"K1": {"skipper_id": "K1"}, "K2": {"skipper_id": "K2"}}, "moorings": held}
    spec = ToolSpec(
        "book_mooring",
        "Books a mooring for a skipper, who must exist. Every skipper can keep no more than 1 mooring that is "
        "`booked` or `moored`.",
        {"type": "object", "properties": {"skipper_id": {"type": "string"}}, "required": ["skipper_id"]},
    )
    base = ToolPlan(kind="create", collection="moorings", key_field="mooring_id", fields=["skipper_id"])
    plan = refine_create(spec, base, schema, spec.description)
    assert [c for c in plan.checks if c["op"] == "cap"] == [
        {
            "op": "cap",
            "collection": "moorings",
            "field": "skipper_id",
            "arg": "skipper_id",
            "where": {"status": ["booked", "moored"]},
            "max": 1,
        }
    ]
    cases = [
        Case("book_mooring", "x", state, {"skipper_id": "K1"}, expect_error=True),  # one booked already
        Case("book_mooring", "x", state, {"skipper_id": "K2"}, expect_error=False),
    ]
    res, err = run_cases(render_tool(spec, plan, schema), "book_mooring", cases, SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 2


def test_an_answer_gives_the_arguments_place_in_a_list() -> None:
    from synth.envsynth.envelope import place_in_list

    own = {"berth_id": {"type": "string"}, "waiting_list": {"type": "array", "items": {"type": "string"}}}
    spec = ToolSpec(
        "join_waiting_list",
        "Queues a skipper for a berth. Returns {berth_id, skipper_id, place}; place = the skipper's rank in the "
        "waiting_list.",
        {"type": "object", "properties": {"berth_id": {"type": "string"}, "skipper_id": {"type": "string"}}},
    )
    assert place_in_list("place", spec, own) == {"op": "place", "path": ["waiting_list"], "arg": "skipper_id"}
    assert place_in_list("berth_id", spec, own) is None
    schema = {"type": "object", "properties": {"berths": _collection(own)}}
    plan = ToolPlan(
        kind="item_add", collection="berths", key_param="berth_id", op_param="skipper_id", list_field="waiting_list"
    )
    plan = with_envelope(spec, plan, schema)
    state = {"berths": {"B1": {"berth_id": "B1", "waiting_list": ["K7"]}}}
    case = Case("join_waiting_list", "x", state, {"berth_id": "B1", "skipper_id": "K2"}, expect_error=False)
    case.expect_result, case.has_expected_result = {"berth_id": "B1", "skipper_id": "K2", "place": 2}, True
    res, err = run_cases(
        render_tool(spec, plan, schema), "join_waiting_list", [case], SchemaResult(schema, {}, {}, "d")
    )
    assert err == "" and res.passed == 1


def test_a_rate_per_whole_unit_moves_a_named_records_number() -> None:
    from synth.envsynth.docs_counters import docs_counters

    schema = {
        "type": "object",
        "properties": {
            "skippers": _collection({"skipper_id": {"type": "string"}, "knots_club": {"type": "integer"}}),
            "voyages": _collection(
                {"voyage_id": {"type": "string"}, "skipper_id": {"type": "string"}, "miles": {"type": "number"}}
            ),
        },
    }
    text = "Logs a voyage as sailed; the skipper collects 2 knots_club stars... per whole mile of the miles."
    assert docs_counters(text, "voyages", "voyage_id", schema, {}) == []  # the rate names no number of the skipper
    text = "Logs a voyage as sailed; the skipper collects 2 knots club per whole mile of the miles."
    (move,) = docs_counters(text, "voyages", "voyage_id", schema, {})
    assert move["collection"] == "skippers" and move["path"][-1] == {"from": "const", "value": "knots_club"}
    assert move["delta"]["expr"] == {"plus": [{"path": ["miles"]}], "times": 2, "floor": True}
    spec = ToolSpec("sail_voyage", text, {"type": "object", "properties": {"voyage_id": {"type": "string"}}})
    plan = ToolPlan(
        kind="recorded_update", collection="voyages", key_field="voyage_id", key_param="voyage_id", effects=[move]
    )
    state = {
        "skippers": {"K1": {"skipper_id": "K1", "knots_club": 10}},
        "voyages": {"V1": {"voyage_id": "V1", "skipper_id": "K1", "miles": 12.8}},
    }
    case = Case("sail_voyage", "x", state, {"voyage_id": "V1"}, expect_error=False)
    case.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "knots_club", "value": 34}
    ]
    res, err = run_cases(render_tool(spec, plan, schema), "sail_voyage", [case], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_a_date_moved_by_the_days_another_record_holds() -> None:
    from synth.envsynth.docs_dates import date_extensions

    schema = {
        "type": "object",
        "properties": {
            "piers": _collection({"pier_id": {"type": "string"}, "stay_days": {"type": "integer"}}),
            "moorings": _collection(
                {
                    "mooring_id": {"type": "string"},
                    "pier_id": {"type": "string"},
                    "leave_date": {"type": "string"},
                    "extensions": {"type": "integer"},
                }
            ),
        },
    }
    text = "Prolongs a mooring by the pier's stay_days, counted from its current leave date; extensions goes up by 1."
    (effect,) = date_extensions(text, "moorings", schema)
    assert effect["field"] == "leave_date" and effect["source"]["source"] == "stay_days"
    assert (
        date_extensions("Prolongs a mooring by the pier's name, counted from its leave date.", "moorings", schema) == []
    )
    spec = ToolSpec("prolong_mooring", text, {"type": "object", "properties": {"mooring_id": {"type": "string"}}})
    base = ToolPlan(kind="update", collection="moorings", key_field="mooring_id", key_param="mooring_id")
    plan = docs_transition(spec, base, schema, "")
    state = {
        "piers": {"P1": {"pier_id": "P1", "stay_days": 10}},
        "moorings": {"M1": {"mooring_id": "M1", "pier_id": "P1", "leave_date": "2031-12-28", "extensions": 0}},
    }
    case = Case("prolong_mooring", "x", state, {"mooring_id": "M1"}, expect_error=False)
    case.expect_result = {"mooring_id": "M1", "pier_id": "P1", "leave_date": "2032-01-07", "extensions": 1}
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, plan, schema), "prolong_mooring", [case], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 1


HAND_OVER = ToolSpec(
    "hand_over_load",
    "Hands the load to another yard. All of its crane_hours move to the receiving yard (the local count drops to "
    "0). Returns {load_id, hours_handed, handed_over_on}.",
    {"type": "object", "properties": {"load_id": {"type": "string"}}, "required": ["load_id"]},
)


def test_a_moved_count_is_answered_as_found_and_the_verbs_date_as_today() -> None:
    base = ToolPlan(
        kind="update",
        collection="loads",
        key_field="load_id",
        key_param="load_id",
        effects=[{"op": "set", "field": "crane_hours", "source": {"from": "const", "value": 0}}],
    )
    spec = HAND_OVER
    handed = ToolSpec("hand_load", spec.description.replace("handed_over_on", "handed_on"), spec.parameters)
    plan = with_envelope(handed, base, SCHEMA, "", "2031-02-03")
    assert plan.output_map == {
        "hours_handed": {"op": "before", "path": ["crane_hours"]},
        "handed_on": {"op": "const", "value": "2031-02-03"},
    }
    state = {"loads": {"L1": {"load_id": "L1", "cargo": [], "crane_hours": 6}}}
    case = Case("hand_load", "x", state, {"load_id": "L1"}, expect_error=False)
    case.expect_result = {"load_id": "L1", "hours_handed": 6, "handed_on": "2031-02-03"}
    case.has_expected_result = True
    res, err = run_cases(render_tool(handed, plan, SCHEMA), "hand_load", [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1
    assert with_envelope(handed, base, SCHEMA).output_map == {}  # no business date: the date is unknown
    assert with_envelope(spec, base, SCHEMA, "", "2031-02-03").output_map == {}  # `handed_over_on`: not the verb's
