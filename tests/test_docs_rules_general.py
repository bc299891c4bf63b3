"""Docs rules in the phrasings vendors use beyond the two references: backtick values, "Sets status `x`",
"Allowed only from status `y`", refusals listed under Errors, appended entries written out, number moves, filter
parameters, the collection a name picks, and optional arguments learned from recorded calls."""

from __future__ import annotations

from dataclasses import replace

from synth.envsynth.codegen import render_tool
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.docs_appends import docs_appends
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_learn import _source
from synth.spec import ToolSpec

VISIT = {
    "type": "object",
    "properties": {
        "visit_id": {"type": "string"},
        "status": {"type": "string", "x-enum": ["booked", "confirmed", "done", "cancelled"]},
        "reason": {"type": "string"},
        "history": {"type": "array", "items": {"type": "object"}},
        "extras": {"type": "array", "items": {"type": "string"}},
    },
}
SCHEMA = {"type": "object", "properties": {"visits": {"type": "object", "additionalProperties": VISIT}}}
STATE = {
    "visits": {
        "V1": {"visit_id": "V1", "status": "booked", "reason": "limp", "history": [], "extras": ["xray"]},
        "V2": {"visit_id": "V2", "status": "done", "reason": "cough", "history": [], "extras": []},
    }
}


def _spec(name: str, description: str, params: list[str]) -> ToolSpec:
    props = {p: {"type": "string"} for p in params}
    return ToolSpec(name, description, {"type": "object", "properties": props, "required": params[:1]})


def test_backtick_transition_with_its_written_element_and_refusals_from_errors() -> None:
    cancel = _spec(
        "cancelVisit",
        "Cancels a visit. Sets status `cancelled` and appends "
        '`{"status": "cancelled", "note": <reason>}` to the history. Errors: 404: Not found.; '
        "409: Visit is not booked or confirmed.",
        ["visit_id", "reason"],
    )
    plan = docs_transition(cancel, ToolPlan(kind="update", collection="visits", key_param="visit_id"), SCHEMA, "")
    assert plan is not None and plan.preconditions == {"status": ["booked", "confirmed"]}
    assert plan.effects == [
        {"op": "set", "field": "status", "source": {"from": "const", "value": "cancelled"}},
        {
            "op": "append",
            "field": "history",
            "items": [
                {
                    "fields": {
                        "status": {"from": "const", "value": "cancelled"},
                        "note": {"from": "arg", "name": "reason"},
                    }
                }
            ],
        },
    ]  # `reason` goes to the history, not over the visit's own reason
    schema = SchemaResult(SCHEMA, {}, {}, "docs")
    cases = [
        Case("cancelVisit", "x", STATE, {"visit_id": "V1", "reason": "better"}, expect_error=False),
        Case("cancelVisit", "x", STATE, {"visit_id": "V2", "reason": "late"}, expect_error=True),
    ]
    res, err = run_cases(render_tool(cancel, plan, SCHEMA), "cancelVisit", cases, schema)
    assert err == "" and res.passed == 2


def test_allowed_only_from_and_an_optional_placeholder() -> None:
    confirm = _spec(
        "confirmVisit",
        "Allowed only from status `booked`. Sets status `confirmed`, appends "
        '`{"status": "confirmed", "note": <note or "">}` to the history.',
        ["visit_id", "note"],
    )
    plan = docs_transition(confirm, ToolPlan(kind="update", collection="visits", key_param="visit_id"), SCHEMA, "")
    assert plan is not None and plan.preconditions == {"status": ["booked"]}
    note = plan.effects[1]["items"][0]["fields"]["note"]
    assert note == {"from": "arg", "name": "note", "default": ""}
    source = render_tool(confirm, plan, SCHEMA)
    assert "arguments.get('note', '')" in source


def test_written_elements_need_known_lists_and_parameters() -> None:
    props = VISIT["properties"]
    text = 'It appends `{"by": <clerk>}` to the history.'
    assert docs_appends(text, props, {"clerk": {}})[0]["field"] == "history"
    assert docs_appends(text, props, {}) == []  # <clerk> is no parameter
    assert docs_appends('It appends `{"by": 1}` to the ledger.', props, {}) == []  # no such list field
    assert docs_appends("It appends `{not json}` to the history.", props, {}) == []


def _ctx() -> PlanContext:
    draft = CollectionDraft(name="visits", resource="visit", fields=dict(VISIT["properties"]), key_field="visit_id")
    return PlanContext(collections={"visits": draft}, singletons={}, client=None, votes=1, trees={})


def test_an_optional_argument_is_learned_with_its_default() -> None:
    samples = [("Owner arrived", {"id": "a", "note": "Owner arrived"}, {}, {}), ("", {"id": "b"}, {}, {})]
    assert _source(samples, "id") == {"from": "arg", "name": "note", "default": ""}
    always = [("x", {"id": "a", "note": "x"}, {}, {}), ("y", {"id": "b", "note": "y"}, {}, {})]
    assert _source(always, "id") == {"from": "arg", "name": "note"}


LOANS = {
    "type": "object",
    "properties": {
        "members": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "member_id": {"type": "string"},
                    "fines_balance": {"type": "number"},
                    "out": {"type": "integer"},
                },
            },
        },
        "loans": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "loan_id": {"type": "string"},
                    "member_id": {"type": "string"},
                    "status": {"type": "string", "x-enum": ["active", "returned", "lost"]},
                    "renewals": {"type": "integer"},
                },
            },
        },
    },
}


def test_numbers_the_docs_say_a_call_moves() -> None:
    from synth.envsynth.docs_counters import docs_counters

    pay = {"member_id": {"type": "string"}, "amount": {"type": "number"}}
    text = "Record a payment. The balance goes down by the amount and a 'payment' event is added to the history."
    [move] = docs_counters(text, "members", "member_id", LOANS, pay)
    assert move["path"][-1] == {"from": "const", "value": "fines_balance"}
    assert move["delta"] == {"from": "expr", "expr": {"minus": [{"arg": "amount"}]}}
    lose = "The loan becomes 'lost'; the member's out goes down by 1. Renewals goes up by one."
    moves = docs_counters(lose, "loans", "loan_id", LOANS, {"loan_id": {"type": "string"}})
    assert [(m["collection"], m["path"][0], m["delta"]["expr"]) for m in moves] == [
        ("members", {"from": "record", "path": ["member_id"]}, {"minus": [{"const": 1}]}),
        ("loans", {"from": "arg", "name": "loan_id"}, {"plus": [{"const": 1}]}),
    ]
    assert docs_counters("The balance changes.", "members", "member_id", LOANS, pay) == []  # no direction


def test_a_transition_to_the_state_the_name_holds_is_not_allowed_only_from_it() -> None:
    lost = _spec("report_lost", "Sets status `lost`. Only active loans can be reported lost.", ["loan_id"])
    plan = docs_transition(lost, ToolPlan(kind="update", collection="loans", key_param="loan_id"), LOANS, "")
    assert plan is not None and plan.preconditions == {"status": ["active"]}


def test_a_parameter_naming_one_collection_picks_it() -> None:
    from synth.envsynth.plan import pick_collection

    draft = {
        n: CollectionDraft(name=n, resource=n[:-1], fields={}, key_field=f"{n[:-1]}_id") for n in ("copies", "members")
    }
    draft["copies"].resource, draft["copies"].key_field = "copy", "copy_id"
    ctx = PlanContext(collections=draft, singletons={}, client=None, votes=1, trees={})
    pay = _spec("pay_fine", "Pay a fine.", ["member_id", "amount"])
    assert pick_collection(pay, tool_priors(pay), ctx)[0] == "members"


def test_a_filter_takes_its_documented_default_a_wildcard_and_a_reference_check() -> None:
    from synth.envsynth.filter_rules import refine_filter

    listing = ToolSpec(
        "list_member_loans",
        "List a member's loans. Errors: 'Error: member <id> not found'.",
        {
            "type": "object",
            "properties": {
                "member_id": {"type": "string"},
                "status": {"type": "string", "enum": ["active", "returned", "lost", "all"], "default": "active"},
            },
        },
    )
    plan = refine_filter(
        listing, ToolPlan(kind="filter", collection="loans", filter_params=["member_id", "status"]), LOANS
    )
    assert (plan.filter_defaults, plan.wildcards, plan.ref_checks) == (
        {"status": "active"},
        {"status": ["all"]},
        {"member_id": "members"},
    )
    state = {
        "members": {"M1": {"member_id": "M1"}},
        "loans": {
            "L1": {"loan_id": "L1", "member_id": "M1", "status": "active"},
            "L2": {"loan_id": "L2", "member_id": "M1", "status": "returned"},
        },
    }
    schema = SchemaResult(LOANS, {}, {}, "docs")
    cases = [
        Case(
            "list_member_loans",
            "x",
            state,
            {"member_id": "M1"},
            expect_error=False,
            expect_result=[state["loans"]["L1"]],
        ),
        Case(
            "list_member_loans",
            "x",
            state,
            {"member_id": "M1", "status": "all"},
            expect_error=False,
            expect_result=list(state["loans"].values()),
        ),
        Case("list_member_loans", "x", state, {"member_id": "M9"}, expect_error=True),
    ]
    for c in cases:
        c.has_expected_result = c.expect_result is not None
    res, err = run_cases(render_tool(listing, plan, LOANS), "list_member_loans", cases, schema)
    assert err == "" and res.passed == 3
    rare = replace(listing, parameters={**listing.parameters, "properties": {**listing.parameters["properties"]}})
    rare.parameters["properties"]["status"] = {"type": "string", "enum": ["active", "returned", "lost", "overdue"]}
    plan = refine_filter(
        rare, ToolPlan(kind="filter", collection="loans", filter_params=["member_id", "status"]), LOANS
    )
    assert plan.wildcards == {}  # `overdue`: a state no stored loan holds yet, not a value that filters nothing


def test_the_head_of_a_compound_name_is_the_collection() -> None:
    from synth.envsynth.plan import pick_collection

    drafts = {
        n: CollectionDraft(name=n, resource=n[:-1], fields={}, key_field=f"{n[:-1]}_id") for n in ("members", "loans")
    }
    ctx = PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})
    listing = _spec("list_member_loans", "List a member's loans.", ["member_id"])
    assert pick_collection(listing, tool_priors(listing), ctx)[0] == "loans"
    by = _spec("find_loans_by_member", "Find loans by member.", ["member_id"])
    assert pick_collection(by, tool_priors(by), ctx)[0] == "loans"  # nouns after "by" are not the head


def test_plain_json_appends_with_bare_names_and_a_refund_of_the_records_own_amount() -> None:
    from synth.envsynth.docs_counters import docs_counters

    props = {
        "cost": {"type": "number"},
        "history": {"type": "array", "items": {"type": "object"}},
        "company_id": {"type": "string"},
    }
    text = 'Appends {"event": "cancelled", "reason": reason, "refund": cost} to the booking\'s history.'
    [append] = docs_appends(text, props, {"booking_id": {}, "reason": {}})
    assert append["items"][0]["fields"] == {
        "event": {"from": "const", "value": "cancelled"},
        "reason": {"from": "arg", "name": "reason"},
        "refund": {"from": "record", "path": ["cost"]},
    }
    assert docs_appends('appends {"event": "x", "by": someone} to the history', props, {}) == []
    schema = {
        "type": "object",
        "properties": {
            "bookings": {"type": "object", "additionalProperties": {"type": "object", "properties": props}},
            "companies": {
                "type": "object",
                "additionalProperties": {"type": "object", "properties": {"credit_balance": {"type": "number"}}},
            },
        },
    }
    refund = "Cancel a booking and refund its full cost to the company's credit_balance."
    [move] = docs_counters(refund, "bookings", "booking_id", schema, {"booking_id": {"type": "string"}})
    assert move["collection"] == "companies" and move["delta"]["expr"] == {"plus": [{"path": ["cost"]}]}


def test_only_records_with_a_status_and_possibly_empty_lists() -> None:
    from synth.envsynth.testgen import no_match_is_empty

    check_in = _spec(
        "check_in_visit", "Only visits with status 'booked' can be checked in. Sets the status to 'done'.", ["visit_id"]
    )
    plan = docs_transition(check_in, ToolPlan(kind="update", collection="visits", key_param="visit_id"), SCHEMA, "")
    assert plan is not None and plan.preconditions == {"status": ["booked"]}
    find = _spec("find_people", "Find people by name. Returns a list (possibly empty) of people.", ["name"])
    assert no_match_is_empty(find)


def test_partial_and_caseless_filter_parameters_and_guarded_number_moves() -> None:
    from synth.envsynth.docs_counters import docs_counters
    from synth.envsynth.filter_rules import refine_filter

    people = {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string"}}}
    schema = {"type": "object", "properties": {"people": {"type": "object", "additionalProperties": people}}}
    find = ToolSpec(
        "find_people",
        "Find people. The email match is exact and case-insensitive; the name match is a substring.",
        {"type": "object", "properties": {"name": {"type": "string"}, "email": {"type": "string"}}},
    )
    plan = refine_filter(find, ToolPlan(kind="filter", collection="people", filter_params=["name", "email"]), schema)
    assert (plan.partial_params, plan.caseless_params) == (["name"], ["email"])
    state = {"people": {"p1": {"name": "Marco Bellini", "email": "M@x.io"}, "p2": {"name": "Ana", "email": "a@x.io"}}}
    cases = [
        Case("find_people", "x", state, {"name": "marco"}, expect_error=False, expect_result=[state["people"]["p1"]]),
        Case("find_people", "x", state, {"email": "m@X.IO"}, expect_error=False, expect_result=[state["people"]["p1"]]),
    ]
    for c in cases:
        c.has_expected_result = True
    res, err = run_cases(render_tool(find, plan, schema), "find_people", cases, SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 2
    params = {"loan_id": {"type": "string"}}
    assert docs_counters("Renewals is not increased by 1.", "loans", "loan_id", LOANS, params, ["renew"]) == []
    other = "Cancelling adds one to renewals."  # about another action than `renew_loan`
    assert docs_counters(other, "loans", "loan_id", LOANS, params, ["renew", "loan"]) == []
    assert docs_counters("Renewing adds one to renewals.", "loans", "loan_id", LOANS, params, ["renew", "loan"])


def test_filter_parameters_mapped_onto_word_forms_bounds_and_referenced_records() -> None:
    from synth.envsynth.filter_map import map_param
    from synth.envsynth.filter_rules import refine_filter

    room = {
        "room_id": {"type": "string"},
        "capacity": {"type": "integer"},
        "amenities": {"type": "array", "items": {"type": "string"}},
        "allowed_plans": {"type": "array", "items": {"type": "string"}},
    }
    booking = {"booking_id": {"type": "string"}, "room_id": {"type": "string", "x-references": "rooms"}}
    cols = {
        "rooms": {"type": "object", "additionalProperties": {"type": "object", "properties": room}},
        "bookings": {"type": "object", "additionalProperties": {"type": "object", "properties": booking}},
    }
    assert map_param("amenity", "rooms", cols)["path"] == ["amenities"]
    assert map_param("plan", "rooms", cols)["path"] == ["allowed_plans"]
    assert map_param("min_capacity", "rooms", cols) == {
        "path": ["capacity"],
        "via": None,
        "collection": None,
        "op": "min",
    }
    assert map_param("capacity", "bookings", cols) == {
        "path": ["capacity"],
        "via": "room_id",
        "collection": "rooms",
        "op": "eq",
    }
    assert map_param("colour", "rooms", cols) is None
    schema = {"type": "object", "properties": cols}
    params = {"room_id": {"type": "string"}, "capacity": {"type": "integer"}}
    search = ToolSpec("search_bookings", "Search bookings.", {"type": "object", "properties": params})
    plan = refine_filter(search, ToolPlan(kind="filter", collection="bookings", filter_params=["room_id"]), schema)
    state = {
        "rooms": {"R1": {"room_id": "R1", "capacity": 4}, "R2": {"room_id": "R2", "capacity": 9}},
        "bookings": {"B1": {"booking_id": "B1", "room_id": "R1"}, "B2": {"booking_id": "B2", "room_id": "R2"}},
    }
    case = Case("search_bookings", "x", state, {"capacity": 9}, expect_error=False)
    case.expect_result, case.has_expected_result = [state["bookings"]["B2"]], True
    res, err = run_cases(
        render_tool(search, plan, schema), "search_bookings", [case], SchemaResult(schema, {}, {}, "docs")
    )
    assert err == "" and res.passed == 1


def test_date_bounds_compare_the_records_own_date_field() -> None:
    from synth.envsynth.filter_map import map_param
    from synth.envsynth.filter_rules import refine_filter

    date = {"type": "string", "format": "date"}
    trip = {
        "trip_id": {"type": "string"},
        "sail_date": date,
        "log": {"type": "array", "items": {"type": "object", "properties": {"date": date}}},
    }
    cols = {"trips": {"type": "object", "additionalProperties": {"type": "object", "properties": trip}}}
    assert map_param("from_date", "trips", cols)["path"] == ["sail_date"]  # not the log entries' dates
    assert map_param("date_to", "trips", cols) == {"path": ["sail_date"], "via": None, "collection": None, "op": "max"}
    assert map_param("max_trip_id", "trips", cols) is None  # text that is not a date has no order
    schema = {"type": "object", "properties": cols}
    params = {"from_date": {"type": "string"}, "to_date": {"type": "string"}}
    spec = ToolSpec("list_trips", "List trips.", {"type": "object", "properties": params})
    plan = refine_filter(spec, ToolPlan(kind="filter", collection="trips", filter_params=[]), schema)
    days = ["2025-03-01", "2025-03-09", "2025-04-02"]
    state = {"trips": {f"T{i}": {"trip_id": f"T{i}", "sail_date": d, "log": []} for i, d in enumerate(days)}}
    case = Case("list_trips", "x", state, {"from_date": "2025-03-09", "to_date": "2025-03-31"}, expect_error=False)
    case.expect_result, case.has_expected_result = [state["trips"]["T1"]], True
    res, err = run_cases(render_tool(spec, plan, schema), "list_trips", [case], SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_a_parameter_the_docs_match_against_a_list_of_ids() -> None:
    from synth.envsynth.filter_rules import refine_filter

    trip = {
        "trip_id": {"type": "string"},
        "skipper_id": {"type": "string", "x-references": "sailors"},
        "crew": {"type": "array", "items": {"type": "string"}},
    }
    sailor = {"sailor_id": {"type": "string"}}
    cols = {
        "trips": {"type": "object", "additionalProperties": {"type": "object", "properties": trip}},
        "sailors": {"type": "object", "additionalProperties": {"type": "object", "properties": sailor}},
    }
    schema = {"type": "object", "properties": cols}
    params = {"sailor_id": {"type": "string", "description": "Only trips that list this sailor in their crew."}}
    spec = ToolSpec("search_trips", "Search trips.", {"type": "object", "properties": params})
    plan = refine_filter(spec, ToolPlan(kind="filter", collection="trips", filter_params=[]), schema)
    assert plan.param_map["sailor_id"]["path"] == ["crew"]  # not the skipper through skipper_id
    state = {
        "sailors": {"S1": {"sailor_id": "S1"}, "S2": {"sailor_id": "S2"}},
        "trips": {
            "T1": {"trip_id": "T1", "skipper_id": "S1", "crew": ["S2"]},
            "T2": {"trip_id": "T2", "skipper_id": "S2", "crew": ["S1"]},
        },
    }
    case = Case("search_trips", "x", state, {"sailor_id": "S2"}, expect_error=False)
    case.expect_result, case.has_expected_result = [state["trips"]["T1"]], True
    res, err = run_cases(render_tool(spec, plan, schema), "search_trips", [case], SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1
    plain = ToolSpec(
        "search_trips", "Search trips.", {"type": "object", "properties": {"sailor_id": {"type": "string"}}}
    )
    assert refine_filter(plain, ToolPlan(kind="filter", collection="trips"), schema).param_map["sailor_id"]["via"]


def test_a_filter_the_docs_say_needs_one_filter_refuses_a_call_with_none() -> None:
    from synth.envsynth.filter_rules import refine_filter

    params = {"member_id": {"type": "string"}, "status": {"type": "string"}}
    said = "List loans. At least one filter is required; filters combine with AND."
    listing = ToolSpec("list_loans", said, {"type": "object", "properties": params})
    plan = refine_filter(
        listing, ToolPlan(kind="filter", collection="loans", filter_params=["member_id", "status"]), LOANS
    )
    assert plan.one_of == ["member_id", "status"]
    quiet = ToolSpec("list_loans", "List loans; filters combine with AND.", listing.parameters)
    assert (
        refine_filter(quiet, ToolPlan(kind="filter", collection="loans", filter_params=["status"]), LOANS).one_of == []
    )
    state = {"loans": {"L1": {"loan_id": "L1", "member_id": "M1", "status": "active"}}}
    cases = [
        Case("list_loans", "x", state, {}, expect_error=True),
        Case("list_loans", "x", state, {"status": "active"}, expect_error=False, expect_result=[state["loans"]["L1"]]),
    ]
    cases[1].has_expected_result = True
    res, err = run_cases(render_tool(listing, plan, LOANS), "list_loans", cases, SchemaResult(LOANS, {}, {}, "docs"))
    assert err == "" and res.passed == 2
