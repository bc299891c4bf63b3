"""Docs rules for records beyond their own fields, in vendors' phrasings: creates that check, start, copy and change
what their docs say, one-value and object list edits, and record answers cut to the documented fields."""

from __future__ import annotations

from test_docs_rules_general import SCHEMA, STATE, VISIT, _ctx, _spec

from synth.envsynth.codegen import render_tool
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.item_plan import item_edit_plan
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case


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


def test_a_read_answers_the_records_that_name_it_when_the_docs_say_so() -> None:
    from synth.envsynth.envelope import with_envelope

    titles = {"title_id": {"type": "string"}, "name": {"type": "string"}}
    copies = {"copy_id": {"type": "string"}, "title_id": {"type": "string"}, "branch": {"type": "string"}}
    schema = {
        "type": "object",
        "properties": {
            "titles": {"type": "object", "additionalProperties": {"type": "object", "properties": titles}},
            "copies": {"type": "object", "additionalProperties": {"type": "object", "properties": copies}},
        },
    }
    get = _spec(
        "get_title", "Look up a title. Returns the title plus copies: each copy as {copy_id, branch}.", ["title_id"]
    )
    plan = with_envelope(get, ToolPlan(kind="get", collection="titles", key_param="title_id"), schema)
    assert plan.embeds == [
        {"key": "copies", "collection": "copies", "ref": "title_id", "fields": ["copy_id", "branch"]}
    ]
    state = {
        "titles": {"T1": {"title_id": "T1", "name": "Emma"}, "T2": {"title_id": "T2", "name": "Ivanhoe"}},
        "copies": {
            "C2": {"copy_id": "C2", "title_id": "T1", "branch": "East"},
            "C1": {"copy_id": "C1", "title_id": "T1", "branch": "North"},
            "C3": {"copy_id": "C3", "title_id": "T2", "branch": "East"},
        },
    }
    case = Case("get_title", "x", state, {"title_id": "T1"}, expect_error=False)
    want = [{"copy_id": "C1", "branch": "North"}, {"copy_id": "C2", "branch": "East"}]
    case.expect_result, case.has_expected_result = {"title_id": "T1", "name": "Emma", "copies": want}, True
    res, err = run_cases(render_tool(get, plan, schema), "get_title", [case], SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1
    plain = _spec("get_title", "Look up a title.", ["title_id"])
    assert with_envelope(plain, ToolPlan(kind="get", collection="titles", key_param="title_id"), schema).embeds == []


def test_a_list_answer_keeps_the_listed_fields_some_from_a_referenced_record() -> None:
    from synth.envsynth.envelope import with_envelope

    vets = {"vet_id": {"type": "string"}, "name": {"type": "string"}}
    slots = {"slot_id": {"type": "string"}, "vet_id": {"type": "string"}, "date": {"type": "string"}}
    schema = {
        "type": "object",
        "properties": {
            "vets": {"type": "object", "additionalProperties": {"type": "object", "properties": vets}},
            "slots": {"type": "object", "additionalProperties": {"type": "object", "properties": slots}},
        },
    }
    search = _spec("search_slots", "Search slots. Returns a list of slots: [{slot_id, vet_name}].", ["date"])
    plan = with_envelope(search, ToolPlan(kind="filter", collection="slots", filter_params=["date"]), schema)
    assert plan.output_fields == ["slot_id", "vet_name"]
    assert plan.output_map == {"vet_name": {"path": ["name"], "via": "vet_id", "collection": "vets", "op": "eq"}}
    state = {
        "vets": {"V1": {"vet_id": "V1", "name": "Dr. Ana"}},
        "slots": {
            "S1": {"slot_id": "S1", "vet_id": "V1", "date": "d1"},
            "S2": {"slot_id": "S2", "vet_id": "V1", "date": "d2"},
        },
    }
    case = Case("search_slots", "x", state, {"date": "d1"}, expect_error=False)
    case.expect_result, case.has_expected_result = [{"slot_id": "S1", "vet_name": "Dr. Ana"}], True
    res, err = run_cases(
        render_tool(search, plan, schema), "search_slots", [case], SchemaResult(schema, {}, {}, "docs")
    )
    assert err == "" and res.passed == 1
    odd = _spec("search_slots", "Returns [{slot_id, colour}].", ["date"])
    assert with_envelope(odd, ToolPlan(kind="filter", collection="slots"), schema).output_fields == []


def test_new_list_elements_keep_the_ids_padding_and_a_sequence_shared_by_every_record() -> None:
    ids = {"type": "string", "x-enum": ["SE-00007", "SE-00008", "SE-00009"], "pattern": "^SE\\-[0-9]{5}$"}
    seat = {"type": "object", "properties": {"seat_id": ids, "zone": {"type": "string"}}}
    box = {"box_id": {"type": "string"}, "seats": {"type": "array", "items": seat}}
    draft = CollectionDraft(name="boxes", resource="box", fields=box, key_field="box_id")
    ctx = PlanContext(collections={"boxes": draft}, singletons={}, client=None, votes=1, trees={})
    add = _spec("add_seat", "Add a seat to a box.", ["box_id", "zone"])
    plan = item_edit_plan(add, tool_priors(add), ctx, mutates=True)
    assert plan.key_format == {"prefix": "SE-", "digits": 5}
    schema = {
        "type": "object",
        "properties": {"boxes": {"type": "object", "additionalProperties": {"type": "object", "properties": box}}},
    }

    def added(state: dict, box_id: str, new_id: str) -> list:
        after = {
            **state["boxes"][box_id],
            "seats": state["boxes"][box_id]["seats"] + [{"seat_id": new_id, "zone": "n"}],
        }
        case = Case("add_seat", "x", state, {"box_id": box_id, "zone": "n"}, expect_error=False, expect_result=after)
        case.has_expected_result = True
        return [case]

    source = render_tool(add, plan, schema)
    # ids that never repeat across boxes continue one sequence: the next after the highest anywhere
    shared = {
        "boxes": {
            "B1": {"box_id": "B1", "seats": [{"seat_id": "SE-00007", "zone": "a"}]},
            "B2": {"box_id": "B2", "seats": [{"seat_id": "SE-00009", "zone": "a"}]},
        }
    }
    res, err = run_cases(source, "add_seat", added(shared, "B1", "SE-00010"), SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1
    # ids each box numbers from 1 repeat across boxes: each box has its own sequence
    own = {
        "boxes": {
            "B1": {"box_id": "B1", "seats": [{"seat_id": "SE-00001", "zone": "a"}]},
            "B2": {"box_id": "B2", "seats": [{"seat_id": "SE-00001", "zone": "a"}, {"seat_id": "SE-00002"}]},
        }
    }
    res, err = run_cases(source, "add_seat", added(own, "B1", "SE-00002"), SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_a_write_refuses_list_elements_that_break_the_field_schema() -> None:
    people = {"type": "string", "pattern": "^MB-[0-9]{3}$"}
    visit = {"visit_id": {"type": "string"}, "guests": {"type": "array", "items": people}}
    schema = {
        "type": "object",
        "properties": {"visits": {"type": "object", "additionalProperties": {"type": "object", "properties": visit}}},
    }
    add = _spec("create_visit", "Create a visit.", ["guests"])
    add.parameters["properties"]["guests"] = {"type": "array", "items": {"type": "string"}}
    plan = ToolPlan(kind="create", collection="visits", key_field="visit_id", fields=["guests"], id_type="string")
    good = Case("create_visit", "x", {"visits": {}}, {"guests": ["MB-001"]}, expect_error=False)
    bad = Case("create_visit", "x", {"visits": {}}, {"guests": ["MB-001", "someone"]}, expect_error=True)
    res, err = run_cases(
        render_tool(add, plan, schema), "create_visit", [good, bad], SchemaResult(schema, {}, {}, "docs")
    )
    assert err == "" and res.passed == 2


def test_a_parameter_whose_plural_is_a_list_field_is_the_value_added_and_conditional_changes_are_not_always() -> None:
    from synth.envsynth.policy_rules import transition_rules

    fields = {
        "crew_id": {"type": "string"},
        "sailor_ids": {"type": "array", "items": {"type": "string"}},
        "status": {"type": "string", "x-enum": ["forming", "manned"]},
    }
    draft = CollectionDraft(name="crews", resource="crew", fields=fields, key_field="crew_id")
    ctx = PlanContext(collections={"crews": draft}, singletons={}, client=None, votes=1, trees={})
    join = _spec(
        "enlist_in_crew",
        "Adds a sailor to a crew. Once the crew reaches its size, the crew's status changes to `manned`.",
        ["crew_id", "sailor_id", "note"],
    )
    plan = item_edit_plan(join, tool_priors(join), ctx, mutates=True)
    assert (plan.kind, plan.list_field, plan.op_param) == ("item_add", "sailor_ids", "sailor_id")
    leave = _spec("remove_from_crew", "Removes a sailor from a crew.", ["crew_id", "sailor_id"])
    assert item_edit_plan(leave, tool_priors(leave), ctx, mutates=True).kind == "item_remove"
    lead = _spec("set_crew_captain", "Makes a sailor the captain of a crew.", ["crew_id", "sailor_id"])
    assert item_edit_plan(lead, tool_priors(lead), ctx, mutates=True) is None  # neither adds nor removes
    assert transition_rules(join, {"properties": fields}, "") == ({}, {})  # only once the crew is full
    always = _spec("close_crew", "Closes a crew. The crew's status changes to `manned`.", ["crew_id"])
    assert transition_rules(always, {"properties": fields}, "")[0] == {"status": "manned"}


def test_a_change_under_a_state_condition_is_still_read() -> None:
    from synth.envsynth.policy_rules import transition_rules

    fields = {"status": {"type": "string", "x-enum": ["pending", "cancelled", "done"]}}
    text = "Cancel a booking. If the booking is pending, the status changes to 'cancelled'."
    cancel = _spec("cancel_booking", text, ["booking_id"])
    assert transition_rules(cancel, {"properties": fields}, "")[0] == {"status": "cancelled"}


def test_only_named_records_in_some_states_may_get_a_new_one() -> None:
    from synth.envsynth.create_rules import refine_create

    book = _spec(
        "bookVisit", "Books a visit. Only slots with status 'open' can get one. Returns the visit.", ["slot_id"]
    )
    plan = ToolPlan(kind="create", collection="visits", key_field="visit_id", fields=["slot_id"], id_type="string")
    plan = refine_create(book, plan, BOOKING, book.description)
    assert plan.ref_checks == {"slot_id": "slots"} and plan.ref_requires == {"slot_id": {"status": ["open"]}}
    told = _spec("bookVisit", "Books a visit. Slots with status 'open' are listed first.", ["slot_id"])
    unsaid = refine_create(
        told, ToolPlan(kind="create", collection="visits", key_field="visit_id"), BOOKING, told.description
    )
    assert unsaid.ref_requires == {}  # no "only", no "must": nothing required
