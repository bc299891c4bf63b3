"""Readers added in session 52, each for a phrasing in general (harbour words only): an answer's fields listed bare
after "Returns" with no colon ("Returns boat_id (B-###), skipper_id, skipper_name, ..."), a flag the next sentence
defines ("permits_current is true when every permit is valid today") and the flag made from the dates of the
record's entries."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.current_flags import current_flag
from synth.envsynth.envelope import with_envelope
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.returns_shape import returned_fields
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

DATE = {"type": "string", "format": "date"}
PERMIT = {"type": "object", "properties": {"expiry": DATE, "issued_on": DATE, "authority": {"type": "string"}}}
BOAT = {
    "boat_id": {"type": "string"},
    "skipper_id": {"type": "string", "x-references": "skippers"},
    "name": {"type": "string"},
    "length": {"type": "number"},
    "permits": {"type": "object", "properties": {"mooring": PERMIT, "insurance": PERMIT}},
}
SKIPPER = {"skipper_id": {"type": "string"}, "name": {"type": "string"}}
SCHEMA = {"type": "object", "properties": {"boats": collection(BOAT), "skippers": collection(SKIPPER)}}
GET_BOAT = ToolSpec(
    "get_boat",
    "Fetch one boat's record. Returns boat_id (B-###), skipper_id, skipper_name, name, length, and permits: an object "
    "with one entry per required permit (mooring, insurance), each {expiry, issued_on, authority}. permits_current "
    "is true when every permit is valid today; it does not look at any sailing date. Errors: 'Boat B-999 not found'.",
    {"type": "object", "properties": {"boat_id": {"type": "string"}}, "required": ["boat_id"]},
)
PLAN = ToolPlan(kind="get", collection="boats", key_field="boat_id", key_param="boat_id")


def _permit(expiry: str) -> dict[str, str]:
    return {"expiry": expiry, "issued_on": "2025-01-01", "authority": "Port office"}


def test_fields_listed_bare_after_returns_and_a_flag_the_next_sentence_defines() -> None:
    fields = returned_fields(GET_BOAT.description)
    assert [f.name for f in fields] == [
        "boat_id",
        "skipper_id",
        "skipper_name",
        "name",
        "length",
        "permits",
        "permits_current",
    ]
    assert fields[0].remark == "B-###" and fields[5].remark.startswith("an object with one entry per required permit")
    assert fields[5].remark.endswith("each {expiry, issued_on, authority}")
    # prose after "Returns" is no field list: a single name, a sentence, or names without an underscore
    assert returned_fields("Returns the boat record, sorted by name.") == []
    assert returned_fields("Returns boats, sorted by name, newest first.") == []
    sorted_by = "Returns a list, sorted by boat_id, of summaries {boat_id, name, pier_id}."  # braces after a field word
    assert [f.name for f in returned_fields(sorted_by)] == ["boat_id", "name", "pier_id"]
    assert [f.name for f in returned_fields("Returns boat_id, name. A boat is berthed when it arrives.")] == [
        "boat_id",
        "name",
    ]


def test_a_flag_every_entry_of_which_is_valid_today() -> None:
    own = BOAT
    rule = {"op": "all_current", "path": ["permits"], "date": "expiry", "list": False, "today": "2026-05-01"}
    assert current_flag("permits_current", own, GET_BOAT.description, "2026-05-01") == rule
    assert current_flag("permits_current", own, GET_BOAT.description, None) is None  # no business date known
    assert current_flag("permits_ok", own, GET_BOAT.description, "2026-05-01") is None  # not what it defines
    said = "permits_ok (true only if all of its permits are in date)"
    assert current_flag("permits_ok", own, said, "2026-05-01") == rule
    assert current_flag("permits_ok", own, "permits_ok is true when every permit was issued", "2026-05-01") is None
    listed = {"permits": {"type": "array", "items": PERMIT}}
    assert current_flag("permits_ok", listed, said, "2026-05-01") == {**rule, "list": True}
    no_end = {"permits": {"type": "array", "items": {"type": "object", "properties": {"issued_on": DATE}}}}
    assert current_flag("permits_ok", no_end, said, "2026-05-01") is None  # no date a validity ends on


def test_the_answer_joins_the_skippers_name_and_works_out_the_flag() -> None:
    shaped = with_envelope(GET_BOAT, PLAN, SCHEMA, today="2026-05-01")
    assert shaped.output_fields[-2:] == ["permits", "permits_current"]
    assert shaped.output_map["permits_current"]["op"] == "all_current"
    source = render_tool(GET_BOAT, shaped, SCHEMA)
    state = {
        "skippers": {"S-1": {"skipper_id": "S-1", "name": "Ana Reyes"}},
        "boats": {
            "B-1": {
                "boat_id": "B-1",
                "skipper_id": "S-1",
                "name": "Tern",
                "length": 9.5,
                "permits": {"mooring": _permit("2026-05-01"), "insurance": _permit("2027-01-31")},
            },
            "B-2": {
                "boat_id": "B-2",
                "skipper_id": "S-1",
                "name": "Gull",
                "length": 7.0,
                "permits": {"mooring": _permit("2026-04-30"), "insurance": _permit("2027-01-31")},
            },
        },
    }
    cases = []
    for key, current in (("B-1", True), ("B-2", False)):  # valid through the day it expires, not after
        case = Case(GET_BOAT.name, "x", state, {"boat_id": key}, expect_error=False)
        case.expect_result = {
            **state["boats"][key],
            "skipper_name": "Ana Reyes",
            "permits_current": current,
        }
        case.has_expected_result = True
        cases.append(case)
    res, err = run_cases(source, GET_BOAT.name, cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 2


SIZES = ["dinghy", "small", "large", "superyacht"]
BERTH = {
    "berth_id": {"type": "string"},
    "size": {"type": "string", "x-enum": SIZES},
    "status": {"type": "string", "x-enum": ["open", "out_of_use"]},
    "notes": {"type": "string", "x-enum": ["", "Shallow at low tide."]},
}
MOORING = {
    "mooring_id": {"type": "string"},
    "berth_id": {"type": "string", "x-references": "berths"},
    "arrive": {"type": "string", "format": "date"},
    "depart": {"type": "string", "format": "date"},
    "status": {"type": "string", "x-enum": ["reserved", "moored", "departed", "cancelled"]},
}
HARBOUR = {"type": "object", "properties": {"berths": collection(BERTH), "moorings": collection(MOORING)}}
LIST_BERTHS = ToolSpec(
    "list_berths",
    "List berths. Every berth has a size, the largest boat it takes. Filters are optional: size returns berths able "
    "to take a boat of that size; arrive and depart (both or neither) return only berths free for the whole period, "
    "i.e. with no reserved or moored mooring over any of those nights (a departure and an arrival on the same day do "
    "not clash). Berths out of use are left out unless include_out_of_use is true. Returns {count, berths}; each "
    "berth has berth_id, size, status, notes and occupant (the mooring_id of the boat moored there now, or null).",
    {
        "type": "object",
        "properties": {
            "size": {"type": "string", "enum": SIZES, "description": "Size of the boat."},
            "arrive": {"type": "string", "description": "Arrival date, YYYY-MM-DD."},
            "depart": {"type": "string", "description": "Departure date, YYYY-MM-DD."},
            "include_out_of_use": {"type": "boolean", "description": "Also list berths out of use. Default false."},
        },
    },
)
HARBOUR_STATE = {
    "berths": {
        "B-1": {"berth_id": "B-1", "size": "small", "status": "open", "notes": ""},
        "B-2": {"berth_id": "B-2", "size": "large", "status": "open", "notes": "Shallow at low tide."},
        "B-3": {"berth_id": "B-3", "size": "superyacht", "status": "out_of_use", "notes": ""},
    },
    "moorings": {
        "M-1": {
            "mooring_id": "M-1",
            "berth_id": "B-2",
            "arrive": "2026-05-01",
            "depart": "2026-05-04",
            "status": "moored",
        },
        "M-2": {
            "mooring_id": "M-2",
            "berth_id": "B-1",
            "arrive": "2026-05-02",
            "depart": "2026-05-03",
            "status": "cancelled",
        },
    },
}


def test_include_flags_ranked_sizes_free_periods_and_a_key_named_by_its_remark() -> None:
    from synth.envsynth.availability import availability
    from synth.envsynth.filter_rules import refine_filter
    from synth.envsynth.include_flags import include_flags
    from synth.envsynth.ranked_filters import ranked_params

    props = LIST_BERTHS.parameters["properties"]
    assert include_flags(props, BERTH) == {"include_out_of_use": [{"field": "status", "equals": "out_of_use"}]}
    assert include_flags({"include_out_of_use": {**props["include_out_of_use"], "default": True}}, BERTH) == {}
    assert include_flags({"with_out_of_use": {"type": "boolean"}}, BERTH) == {}  # `with_` may keep, not bring back
    assert ranked_params(LIST_BERTHS, ["size"], BERTH, {"size": ["size returns berths able to take a boat"]}) == {
        "size": {"path": ["size"], "via": None, "collection": None, "op": "rank_min", "order": SIZES}
    }
    assert ranked_params(LIST_BERTHS, ["size"], BERTH, {"size": ["Only berths of this size."]}) == {}
    plan = ToolPlan(kind="filter", collection="berths", key_field="berth_id", filter_params=["size"])
    rule = availability(LIST_BERTHS, plan, HARBOUR)
    assert rule and rule["where"] == {"status": ["reserved", "moored"]} and rule["drop"] == {}  # "unless": the flag's
    plan = ToolPlan.from_dict({**refine_filter(LIST_BERTHS, plan, HARBOUR).to_dict(), "availability": rule})
    assert plan.filter_params == [] and plan.param_map["size"]["op"] == "rank_min"
    shaped = with_envelope(LIST_BERTHS, plan, HARBOUR)
    assert shaped.output_map["occupant"] == {
        "op": "ids",
        "collection": "moorings",
        "ref": "berth_id",
        "where": {"status": ["moored"]},  # the blank note is no value the remark names
        "one": True,
    }
    berths = HARBOUR_STATE["berths"]
    cases = []
    for arguments, keys in (
        ({"size": "small"}, ["B-1", "B-2"]),  # a large berth takes a small boat; out of use left out
        ({"size": "large", "include_out_of_use": True}, ["B-2", "B-3"]),
        ({"size": "dinghy", "arrive": "2026-05-02", "depart": "2026-05-05"}, ["B-1"]),  # B-2 is taken
        ({"arrive": "2026-05-04", "depart": "2026-05-06"}, ["B-1", "B-2"]),  # M-1 departs as this arrives
    ):
        case = Case(LIST_BERTHS.name, "x", HARBOUR_STATE, arguments, expect_error=False)
        rows = [{**berths[k], "occupant": "M-1" if k == "B-2" else None} for k in keys]
        case.expect_result, case.has_expected_result = {"count": len(rows), "berths": rows}, True
        cases.append(case)
    source = render_tool(LIST_BERTHS, shaped, HARBOUR)
    res, err = run_cases(source, LIST_BERTHS.name, cases, SchemaResult(HARBOUR, {}, {}, "d"))
    assert err == "" and res.passed == 4


def test_date_fields_take_the_words_their_parameters_call_them_by() -> None:
    from synth.envsynth.dated_only import only_on_checks
    from synth.envsynth.field_words import with_field_words
    from synth.envsynth.list_rules import sort_fields

    charter = {
        "charter_id": {"type": "string"},
        "sail_on": {"type": "string", "format": "date"},
        "back_on": {"type": "string", "format": "date"},
        "skipper": {"type": "string"},
    }
    schema = {"type": "object", "properties": {"charters": collection(charter)}}
    params = {
        "sail_on": {"type": "string", "description": "Sailing date, YYYY-MM-DD."},
        "back_on": {"type": "string", "description": "Return date (YYYY-MM-DD), after sail_on."},
        "skipper": {"type": "string", "description": "Skipper name."},
    }
    tools = [
        ToolSpec("quote_charter", "Price a charter.", {"type": "object", "properties": params}),
        ToolSpec("list_charters", "List charters.", {"type": "object", "properties": {"sail_on": {"type": "string"}}}),
    ]
    worded = with_field_words(schema, tools)
    record = worded["properties"]["charters"]["additionalProperties"]["properties"]
    assert record["sail_on"]["x-called"] == ["sailing date"] and record["back_on"]["x-called"] == ["return date"]
    assert "x-called" not in record["skipper"] and schema != worded  # only date fields; the input is left alone
    same = {"sail_on": params["sail_on"], "back_on": {"type": "string", "description": "Sailing date, YYYY-MM-DD."}}
    shared = with_field_words(schema, [ToolSpec("q", "Q.", {"type": "object", "properties": same})])
    assert all(
        "x-called" not in s for s in shared["properties"]["charters"]["additionalProperties"]["properties"].values()
    )
    checks = only_on_checks("Boarding is only possible on the charter's sailing date.", record, "2026-05-01")
    assert checks == [
        {"op": "dated", "field": "sail_on", "cmp": "<=", "value": "2026-05-01"},
        {"op": "dated", "field": "sail_on", "cmp": ">=", "value": "2026-05-01"},
    ]
    assert only_on_checks("Boarding is only possible on the charter's sailing date.", charter, "2026-05-01") == []
    assert sort_fields("List charters, ordered by sailing date.", record) == ["sail_on"]
    assert sort_fields("List charters, ordered by sailing date.", charter) == []


def test_an_argument_a_flag_of_the_linked_record_makes_mandatory() -> None:
    from synth.envsynth.expr_runtime import fg_check
    from synth.envsynth.flag_required import flag_required_checks

    boat = {"boat_id": {"type": "string"}, "needs_pilot": {"type": "boolean"}}
    sailing = {"sailing_id": {"type": "string"}, "boat_id": {"type": "string", "x-references": "boats"}}
    cols = {"boats": collection(boat), "sailings": collection(sailing)}
    params = {"sailing_id": {"type": "string"}, "pilot_name": {"type": "string"}}
    said = "Start a sailing. If the boat is flagged needs_pilot, pilot_name is mandatory."
    checks = flag_required_checks(said, params, sailing, cols)
    assert checks == [
        {
            "op": "any_of",
            "checks": [
                {"op": "given", "arg": "pilot_name"},
                {
                    "op": "linked_state",
                    "collection": "boats",
                    "via": "boat_id",
                    "field": "needs_pilot",
                    "allowed": [False, None],
                },
            ],
        }
    ]
    assert flag_required_checks("pilot_name is required when the boat is flagged needs_pilot.", params, sailing, cols)
    assert flag_required_checks("If the boat is flagged needs_pilot, crew is mandatory.", params, sailing, cols) == []
    assert flag_required_checks("If the boat is flagged fast, pilot_name is mandatory.", params, sailing, cols) == []
    own = flag_required_checks("If the boat is flagged needs_pilot, pilot_name is mandatory.", params, boat, cols)
    assert own[0]["checks"][1] == {
        "op": "value_is",
        "source": {"from": "record", "path": ["needs_pilot"]},
        "in": [False, None],
    }
    state = {"boats": {"B-1": {"boat_id": "B-1", "needs_pilot": True}, "B-2": {"boat_id": "B-2", "needs_pilot": False}}}
    check = checks[0]
    assert not fg_check(check, {}, {"boat_id": "B-1"}, state)
    assert fg_check(check, {"pilot_name": "Ana"}, {"boat_id": "B-1"}, state)
    assert fg_check(check, {}, {"boat_id": "B-2"}, state)


UPDATE_PERMIT = ToolSpec(
    "update_permit",
    "Record a renewed permit for a boat. The new expiry date must be in the future and later than the one already on "
    "file. issued_on is set to today and authority is kept unless a new one is given. Returns the updated boat "
    "record (as get_boat).",
    {
        "type": "object",
        "properties": {
            "boat_id": {"type": "string"},
            "permit": {"type": "string", "enum": ["mooring", "insurance"]},
            "expiry_date": {"type": "string", "description": "Valid-until date on the permit, YYYY-MM-DD."},
            "authority": {"type": "string"},
        },
        "required": ["boat_id", "permit", "expiry_date"],
    },
)


def test_a_change_to_one_entry_of_a_keyed_object_answered_as_the_sibling_read() -> None:
    from synth.envsynth.arg_ranges import argument_checks
    from synth.envsynth.key_cases import _meet_later
    from synth.envsynth.keyed_entries import entry_update
    from synth.envsynth.param_dates import said_dates

    plan = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    moved = entry_update(UPDATE_PERMIT, plan, SCHEMA, "2026-05-01")
    assert moved is not None and moved.kind == "recorded_update"
    assert moved.effects == [
        {
            "op": "entry_set",
            "field": "permits",
            "key_arg": "permit",
            "sets": {
                "expiry": {"from": "arg", "name": "expiry_date"},
                "authority": {"from": "arg", "name": "authority"},
                "issued_on": {"from": "const", "value": "2026-05-01"},
            },
            "optional": ["authority"],
        }
    ]
    later = {"op": "entry_later", "arg": "expiry_date", "field": "permits", "key_arg": "permit", "sub": "expiry"}
    assert moved.checks == [later]
    odd = {**UPDATE_PERMIT.parameters["properties"], "colour": {"type": "string"}}
    assert entry_update(ToolSpec("u", "U.", {"type": "object", "properties": odd}), plan, SCHEMA, None) is None
    no_enum = {k: v for k, v in UPDATE_PERMIT.parameters["properties"].items() if k != "permit"}
    assert entry_update(ToolSpec("u", "U.", {"type": "object", "properties": no_enum}), plan, SCHEMA, None) is None
    future = {"op": "arg_date", "arg": "expiry_date", "today": "2026-05-01", "cmp": ">"}
    params = UPDATE_PERMIT.parameters["properties"]
    assert said_dates(UPDATE_PERMIT.description, params, "2026-05-01") == [future]
    assert said_dates("The expiry date is printed on the permit.", params, "2026-05-01") == []
    assert future in argument_checks(UPDATE_PERMIT.description, params, SCHEMA["properties"], "2026-05-01", BOAT)
    moved = ToolPlan.from_dict({**moved.to_dict(), "checks": moved.checks + [future]})
    glossary = GET_BOAT.description + "\n" + UPDATE_PERMIT.description  # every tool's, as the pipeline gives it
    shaped = with_envelope(UPDATE_PERMIT, moved, SCHEMA, glossary, today="2026-05-01", siblings=(GET_BOAT,))
    assert "skipper_name" in shaped.output_fields and shaped.output_map["permits_current"]["op"] == "all_current"
    state = {
        "skippers": {"S-1": {"skipper_id": "S-1", "name": "Ana Reyes"}},
        "boats": {
            "B-1": {
                "boat_id": "B-1",
                "skipper_id": "S-1",
                "name": "Tern",
                "length": 9.5,
                "permits": {"mooring": _permit("2026-04-30"), "insurance": _permit("2027-01-31")},
            }
        },
    }
    args = {"boat_id": "B-1", "permit": "insurance", "expiry_date": "2026-06-01"}
    _meet_later(moved, state["boats"]["B-1"], args)
    assert args["expiry_date"] == "2027-02-01"  # the day after the one on file
    renewed = {**_permit("2027-05-01"), "issued_on": "2026-05-01", "authority": "Harbour board"}
    after = {**state["boats"]["B-1"], "permits": {"mooring": renewed, "insurance": _permit("2027-01-31")}}
    case = Case(
        UPDATE_PERMIT.name,
        "x",
        state,
        {"boat_id": "B-1", "permit": "mooring", "expiry_date": "2027-05-01", "authority": "Harbour board"},
        expect_error=False,
    )
    case.expect_result = {**after, "skipper_name": "Ana Reyes", "permits_current": True}
    case.has_expected_result = True
    kept = Case(
        UPDATE_PERMIT.name,
        "x",
        state,
        {"boat_id": "B-1", "permit": "mooring", "expiry_date": "2027-05-01"},
        expect_error=False,
    )
    kept.expect_result = {
        **after,
        "permits": {**after["permits"], "mooring": {**renewed, "authority": "Port office"}},
        "skipper_name": "Ana Reyes",
        "permits_current": True,
    }
    kept.has_expected_result = True
    refused = [  # not after the one on file, not in the future, no such permit
        Case(
            UPDATE_PERMIT.name, "x", state, {"boat_id": "B-1", "permit": permit, "expiry_date": day}, expect_error=True
        )
        for permit, day in (("insurance", "2027-01-31"), ("mooring", "2026-05-01"), ("hull", "2027-05-01"))
    ]
    source = render_tool(UPDATE_PERMIT, shaped, SCHEMA)
    res, err = run_cases(source, UPDATE_PERMIT.name, [case, kept, *refused], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 5


def test_an_include_flag_for_records_whose_yes_no_field_is_false() -> None:
    from synth.envsynth.include_flags import include_flags

    pier = {"pier_id": {"type": "string"}, "active": {"type": "boolean"}, "archived": {"type": "boolean"}}
    flags = {"include_inactive": {"type": "boolean"}, "include_archived": {"type": "boolean", "default": False}}
    assert include_flags(flags, pier) == {
        "include_archived": [{"field": "archived", "equals": True}],
        "include_inactive": [{"field": "active", "equals": False}],
    }
    assert include_flags({"include_tides": {"type": "boolean"}}, pier) == {}  # names nothing the records hold
