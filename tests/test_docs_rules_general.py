"""Docs rules in the phrasings vendors use beyond the two references: backtick values, "Sets status `x`",
"Allowed only from status `y`", refusals listed under Errors, appended elements written out, one-value list
edits, and optional arguments learned from recorded calls."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.docs_appends import docs_appends
from synth.envsynth.item_plan import item_edit_plan
from synth.envsynth.key_cases import existing_key_cases
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


def test_one_value_list_edits_are_planned_rendered_and_reach_success() -> None:
    remove = _spec("removeVisitExtra", "Remove an extra from a visit.", ["visit_id", "extra_code"])
    plan = item_edit_plan(remove, tool_priors(remove), _ctx(), mutates=True)
    assert plan is not None and (plan.kind, plan.list_field, plan.op_param) == ("item_remove", "extras", "extra_code")
    add = _spec("addVisitExtra", "Add an extra to a visit.", ["visit_id", "extra_code"])
    assert item_edit_plan(add, tool_priors(add), _ctx(), mutates=True).kind == "item_add"
    other = _spec("addVisitHistory", "Add to a visit's history.", ["visit_id", "colour"])
    assert item_edit_plan(other, tool_priors(other), _ctx(), mutates=True) is None  # a list of objects
    schema = SchemaResult(SCHEMA, {}, {}, "docs")
    generated = [Case("removeVisitExtra", "x", STATE, {"visit_id": "nope", "extra_code": "zz"}, expect_error=True)]
    reached = existing_key_cases(plan, generated)
    assert reached and reached[0].arguments == {"visit_id": "V1", "extra_code": "xray"}
    reached[0].expect_error = False
    res, err = run_cases(render_tool(remove, plan, SCHEMA), "removeVisitExtra", generated + reached, schema)
    assert err == "" and res.passed == 2
    again = Case("removeVisitExtra", "x", STATE, {"visit_id": "V2", "extra_code": "xray"}, expect_error=True)
    res, err = run_cases(render_tool(remove, plan, SCHEMA), "removeVisitExtra", [again], schema)
    assert err == ""  # not on the visit: refused


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


def test_a_queue_edit_checks_the_value_and_cancel_removes() -> None:
    titles = {
        "type": "object",
        "properties": {
            "title_id": {"type": "string"},
            "holds_queue": {"type": "array", "items": {"type": "string", "pattern": "^M[0-9]{4}$"}},
        },
    }
    draft = CollectionDraft(name="titles", resource="title", fields=dict(titles["properties"]), key_field="title_id")
    ctx = PlanContext(collections={"titles": draft}, singletons={}, client=None, votes=1, trees={})
    place = _spec("place_hold", "Add a member to a title's holds queue.", ["member_id", "title_id"])
    cancel = _spec("cancel_hold", "Take a member off a title's holds queue.", ["member_id", "title_id"])
    add = item_edit_plan(place, tool_priors(place), ctx, mutates=True)
    assert add is not None and (add.kind, add.key_param, add.op_param) == ("item_add", "title_id", "member_id")
    assert item_edit_plan(cancel, tool_priors(cancel), ctx, mutates=True).kind == "item_remove"
    schema = {"type": "object", "properties": {"titles": {"type": "object", "additionalProperties": titles}}}
    state = {"titles": {"T1": {"title_id": "T1", "holds_queue": []}}}
    cases = [
        Case("place_hold", "x", state, {"title_id": "T1", "member_id": "M1001"}, expect_error=False),
        Case("place_hold", "x", state, {"title_id": "T1", "member_id": "nobody"}, expect_error=True),
    ]
    res, err = run_cases(render_tool(place, add, schema), "place_hold", cases, SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 2


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


BOOKING = {
    "type": "object",
    "properties": {
        "slots": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "slot_id": {"type": "string"},
                    "vet_id": {"type": "string"},
                    "status": {"type": "string", "enum": ["open", "booked"]},
                    "visit_id": {"type": ["string", "null"]},
                },
            },
        },
        "visits": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "visit_id": {"type": "string"},
                    "slot_id": {"type": "string"},
                    "vet_id": {"type": "string"},
                    "status": {"type": "string", "x-enum": ["booked", "done"]},
                    "invoice": {"type": ["object", "null"]},
                    "history": {"type": "array", "items": {"type": "object"}},
                    "visits_count": {"type": "integer"},
                },
            },
        },
    },
}


def test_a_create_checks_copies_starts_and_changes_what_its_docs_say() -> None:
    from synth.envsynth.create_rules import refine_create

    book = _spec(
        "bookVisit",
        "Books an open slot. The slot must exist and must be `open`. The visit is created with status `booked`, "
        "the slot's vet as `vet_id`, `invoice` null, visits count 0 and a history of one entry "
        '`{"status": "booked", "note": ""}`. The slot becomes `booked` and records the new `visit_id`.',
        ["slot_id"],
    )
    plan = ToolPlan(kind="create", collection="visits", key_field="visit_id", fields=["slot_id"], id_type="string")
    plan = refine_create(book, plan, BOOKING, book.description)
    assert plan.ref_checks == {"slot_id": "slots"} and plan.ref_requires == {"slot_id": {"status": ["open"]}}
    assert plan.inherits == {"vet_id": ["slot_id", "slots", "vet_id"]}
    assert plan.initial_values == {
        "history": [{"status": "booked", "note": ""}],
        "invoice": None,
        "status": "booked",
        "visits_count": 0,
    }
    assert plan.ref_sets == [
        {"param": "slot_id", "collection": "slots", "field": "status", "value": "booked"},
        {"param": "slot_id", "collection": "slots", "field": "visit_id", "new_key": True},
    ]
    state = {
        "slots": {
            "S1": {"slot_id": "S1", "vet_id": "V7", "status": "open", "visit_id": None},
            "S2": {"slot_id": "S2", "vet_id": "V8", "status": "booked", "visit_id": "1"},
        },
        "visits": {},
    }
    made = {"visit_id": "1", "slot_id": "S1", "vet_id": "V7", "status": "booked", "invoice": None}
    made |= {"visits_count": 0, "history": [{"status": "booked", "note": ""}]}
    after = {"op": "field_equals", "collection": "slots", "key": "S1", "field": "visit_id", "value": "1"}
    cases = [
        Case("bookVisit", "x", state, {"slot_id": "S1"}, expect_error=False, expect_result=made, state_checks=[after]),
        Case("bookVisit", "x", state, {"slot_id": "S2"}, expect_error=True),
        Case("bookVisit", "x", state, {"slot_id": "S9"}, expect_error=True),
    ]
    cases[0].has_expected_result = True
    res, err = run_cases(render_tool(book, plan, BOOKING), "bookVisit", cases, SchemaResult(BOOKING, {}, {}, "docs"))
    assert err == "" and res.passed == 3
    reached = existing_key_cases(plan, [Case("bookVisit", "x", state, {"slot_id": "zz"})])
    assert reached[0].arguments == {"slot_id": "S1"} and reached[0].state["slots"]["S1"]["status"] == "open"


def test_a_record_answer_keeps_the_fields_the_docs_list() -> None:
    from synth.envsynth.envelope import documented_fields, with_envelope

    titles = {"title_id": {"type": "string"}, "name": {"type": "string"}, "holds_queue": {"type": "array"}}
    schema = {
        "type": "object",
        "properties": {"titles": {"type": "object", "additionalProperties": {"type": "object", "properties": titles}}},
    }
    cancel = _spec("cancel_hold", "Remove a member from the queue. Returns {title_id, holds_queue}.", ["title_id"])
    assert documented_fields(cancel) == ["title_id", "holds_queue"]
    plan = with_envelope(cancel, ToolPlan(kind="get", collection="titles", key_param="title_id"), schema)
    assert plan.output_fields == ["title_id", "holds_queue"]
    state = {"titles": {"T1": {"title_id": "T1", "name": "Emma", "holds_queue": ["M1"]}}}
    case = Case("cancel_hold", "x", state, {"title_id": "T1"}, expect_error=False)
    case.expect_result, case.has_expected_result = {"title_id": "T1", "holds_queue": ["M1"]}, True
    res, err = run_cases(render_tool(cancel, plan, schema), "cancel_hold", [case], SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1
    whole = _spec("get_title", "Returns {title_id, name, holds_queue}.", ["title_id"])
    assert with_envelope(whole, ToolPlan(kind="get", collection="titles"), schema).output_fields == []  # all fields


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


def test_a_list_edit_keeps_the_states_checks_and_appends_its_docs_give() -> None:
    from synth.envsynth.item_rules import refine_item

    people = {
        "type": "object",
        "properties": {"member_id": {"type": "string"}, "status": {"x-enum": ["active", "gone"]}},
    }
    visits = {
        **VISIT["properties"],
        "attendees": {"type": "array", "items": {"type": "string"}},
    }
    schema = {
        "type": "object",
        "properties": {
            "visits": {"type": "object", "additionalProperties": {"type": "object", "properties": visits}},
            "members": {"type": "object", "additionalProperties": people},
        },
    }
    add = _spec(
        "add_attendee",
        "Add a member to a visit. The visit must be 'booked' or 'confirmed'; the member must exist, be active. "
        'Appends the member id to attendees and {"event": "added", "member_id": member_id} to the history.',
        ["visit_id", "member_id"],
    )
    plan = ToolPlan(kind="item_add", collection="visits", key_param="visit_id", op_param="member_id")
    plan.list_field = "attendees"
    plan = refine_item(add, plan, schema, add.description)
    assert plan.preconditions == {"status": ["booked", "confirmed"]}
    assert plan.ref_checks == {"member_id": "members"} and plan.ref_requires == {"member_id": {"status": ["active"]}}
    assert plan.effects[0]["field"] == "history"
    state = {
        "visits": {"V1": {"visit_id": "V1", "status": "booked", "attendees": [], "history": []}},
        "members": {"M1": {"member_id": "M1", "status": "active"}, "M2": {"member_id": "M2", "status": "gone"}},
    }
    ok = Case("add_attendee", "x", state, {"visit_id": "V1", "member_id": "M1"}, expect_error=False)
    ok.expect_result, ok.has_expected_result = (
        {**state["visits"]["V1"], "attendees": ["M1"], "history": [{"event": "added", "member_id": "M1"}]},
        True,
    )
    gone = Case("add_attendee", "x", state, {"visit_id": "V1", "member_id": "M2"}, expect_error=True)
    res, err = run_cases(
        render_tool(add, plan, schema), "add_attendee", [ok, gone], SchemaResult(schema, {}, {}, "docs")
    )
    assert err == "" and res.passed == 2
    done = {**state, "visits": {"V1": {**state["visits"]["V1"], "status": "done"}}}
    reached = existing_key_cases(plan, [Case("add_attendee", "x", done, {"visit_id": "zz", "member_id": "zz"})])
    assert reached[0].state["visits"]["V1"]["status"] == "booked" and reached[0].arguments["member_id"] == "M1"


def test_object_list_edits_loose_json_entries_and_suffix_key_parameters() -> None:
    from synth.envsynth.create_rules import refine_create
    from synth.envsynth.docs_appends import element_rule
    from synth.envsynth.plan import _key_param

    rule = element_rule("{event: 'filed', detail: <peril>}", {}, {"peril": {}})
    assert rule == {
        "fields": {"event": {"from": "const", "value": "filed"}, "detail": {"from": "arg", "name": "peril"}}
    }
    items = {
        "type": "object",
        "properties": {"item_id": {"type": "string", "x-enum": ["LI-1", "LI-2", "LI-4"]}, "amount": {"type": "number"}},
    }
    claim = {
        "id": {"type": "string"},
        "peril": {"type": "string"},
        "line_items": {"type": "array", "items": items},
        "history": {"type": "array", "items": {"type": "object"}},
    }
    draft = CollectionDraft(name="claims", resource="claim", fields=claim, key_field="id")
    ctx = PlanContext(collections={"claims": draft}, singletons={}, client=None, votes=1, trees={})
    add = _spec("add_line_item", "Add a line item to a claim.", ["claim_id", "amount"])
    plan = item_edit_plan(add, tool_priors(add), ctx, mutates=True)
    assert (plan.kind, plan.fields, plan.item_key, plan.key_format) == (
        "item_add",
        ["amount"],
        "item_id",
        {"prefix": "LI-"},
    )
    drop = _spec("remove_line_item", "Remove a line item from a claim.", ["claim_id", "item_id"])
    gone = item_edit_plan(drop, tool_priors(drop), ctx, mutates=True)
    assert (gone.kind, gone.item_key) == ("item_remove", "item_id")
    schema = {
        "type": "object",
        "properties": {"claims": {"type": "object", "additionalProperties": {"type": "object", "properties": claim}}},
    }
    state = {"claims": {"C1": {"id": "C1", "line_items": [{"item_id": "LI-4", "amount": 1.0}], "history": []}}}
    added = {
        "id": "C1",
        "line_items": [{"item_id": "LI-4", "amount": 1.0}, {"item_id": "LI-5", "amount": 2.5}],
        "history": [],
    }
    cases = [
        Case("add_line_item", "x", state, {"claim_id": "C1", "amount": 2.5}, expect_error=False, expect_result=added)
    ]
    cases[0].has_expected_result = True
    res, err = run_cases(render_tool(add, plan, schema), "add_line_item", cases, SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1
    removed = [Case("remove_line_item", "x", state, {"claim_id": "C1", "item_id": "LI-4"}, expect_error=False)]
    res, err = run_cases(
        render_tool(drop, gone, schema), "remove_line_item", removed, SchemaResult(schema, {}, {}, "docs")
    )
    assert err == "" and res.passed == 1
    holder = _spec("get_policyholder", "One policyholder.", ["holder_id"])
    assert (
        _key_param(
            holder, tool_priors(holder), CollectionDraft(name="policyholders", resource="policyholder", key_field="id")
        )
        == "holder_id"
    )
    file = _spec(
        "file_claim", "File a claim. The new claim gets history [{event: 'filed', detail: <peril>}].", ["peril"]
    )
    made = refine_create(
        file, ToolPlan(kind="create", collection="claims", key_field="id", fields=["peril"]), schema, file.description
    )
    assert made.initial_values == {"history": []} and made.effects[0]["items"][0] == rule
    assert tool_priors(file).verb_kind == "create"
