"""Writes that link two records and the entries they log: the record holding the link is the one written, a
status named before its verb, the new linked record's counter, `history gets {...}` entries (two-word placeholders,
the id of the element the call adds), a delete the docs turn into a state change, and a list under another record's
path."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.docs_appends import docs_appends
from synth.envsynth.link_plan import link_holder
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

CASE = {
    "id": {"type": "string"},
    "status": {"type": "string", "x-enum": ["open", "review", "closed"]},
    "agent_id": {"type": "string", "x-references": "agents"},
    "history": {"type": "array", "items": {"type": "object"}},
}
AGENT = {"id": {"type": "string"}, "load": {"type": "integer"}}
SCHEMA = {
    "type": "object",
    "properties": {
        name: {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
        for name, props in (("cases", CASE), ("agents", AGENT))
    },
}
TEXT = (
    "Assign an agent to a case. Effects: the case's status becomes 'review' and agent_id is set; the new agent's "
    "load goes up by 1; history gets {event: 'assigned', detail: <agent id>}. Returns the updated case."
)


def _spec(description: str) -> ToolSpec:
    props = {"case_id": {"type": "string"}, "agent_id": {"type": "string"}}
    return ToolSpec("assign_agent", description, {"type": "object", "properties": props, "required": list(props)})


def test_the_record_that_holds_the_link_is_the_one_written() -> None:
    for case_key, agent_key in (("id", "id"), ("case_id", "agent_id")):  # keys named `id` or `<noun>_id`
        case_fields = {**CASE, case_key: {"type": "string"}}
        agent_fields = {**AGENT, agent_key: {"type": "string"}}
        drafts = {
            "cases": CollectionDraft(name="cases", resource="case", fields=case_fields, key_field=case_key),
            "agents": CollectionDraft(name="agents", resource="agent", fields=agent_fields, key_field=agent_key),
        }
        ctx = PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})
        spec = _spec(TEXT)
        assert link_holder(spec, tool_priors(spec), ctx) == "cases"
        create = ToolSpec("create_case", "Open a case.", spec.parameters)
        assert link_holder(create, tool_priors(create), ctx) is None  # a create makes its own record
        drafts["agents"].fields["case_id"] = {"type": "string"}
        if agent_key != "case_id":  # both hold the other: no telling
            assert link_holder(spec, tool_priors(spec), ctx) is None


def test_the_link_is_set_with_its_status_entry_and_the_new_records_counter() -> None:
    spec = _spec(TEXT)
    plan = ToolPlan(kind="update", collection="cases", key_field="id", key_param="case_id", fields=["agent_id"])
    moved = docs_transition(spec, plan, SCHEMA, "")
    assert moved is not None and moved.kind == "recorded_update"
    state = {
        "cases": {"C1": {"id": "C1", "status": "open", "agent_id": None, "history": []}},
        "agents": {"A1": {"id": "A1", "load": 2}},
    }
    after = {"id": "C1", "status": "review", "agent_id": "A1", "history": [{"event": "assigned", "detail": "A1"}]}
    case = Case("assign_agent", "x", state, {"case_id": "C1", "agent_id": "A1"}, expect_error=False)
    case.expect_result, case.has_expected_result = after, True
    case.state_checks = [{"op": "equals", "state": {"cases": {"C1": after}, "agents": {"A1": {"id": "A1", "load": 3}}}}]
    res, err = run_cases(render_tool(spec, moved, SCHEMA), "assign_agent", [case], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_an_entry_may_name_the_id_of_the_element_the_call_adds() -> None:
    text = "Add a line. history gets {event: 'item_added', detail: <item_id>}."
    params = {"case_id": {}, "amount": {}}
    assert docs_appends(text, CASE, params) == []  # <item_id> names no parameter
    added = {"item_id": {"from": "new_element", "field": "item_id"}}
    effects = docs_appends(text, CASE, params, added)
    assert effects[0]["items"][0]["fields"]["detail"] == {"from": "new_element", "field": "item_id"}


def test_the_added_elements_id_lands_in_the_entry() -> None:
    item = {"type": "object", "properties": {"item_id": {"type": "string"}, "amount": {"type": "number"}}}
    lines = {**CASE, "lines": {"type": "array", "items": item}}
    schema = {
        "type": "object",
        "properties": {"cases": {"type": "object", "additionalProperties": {"type": "object", "properties": lines}}},
    }
    spec = ToolSpec(
        "add_line",
        "Add a line. history gets {event: 'item_added', detail: <item_id>}.",
        {"type": "object", "properties": {"case_id": {"type": "string"}, "amount": {"type": "number"}}},
    )
    effects = docs_appends(
        spec.description, lines, spec.parameters["properties"], {"item_id": {"from": "new_element", "field": "item_id"}}
    )
    plan = ToolPlan(
        kind="item_add",
        collection="cases",
        key_field="id",
        key_param="case_id",
        list_field="lines",
        fields=["amount"],
        item_key="item_id",
        key_format={"prefix": "L-"},
        effects=effects,
    )
    state = {
        "cases": {"C1": {"id": "C1", "status": "open", "lines": [{"item_id": "L-1", "amount": 1.0}], "history": []}}
    }
    after = {
        **state["cases"]["C1"],
        "lines": [{"item_id": "L-1", "amount": 1.0}, {"item_id": "L-2", "amount": 5.0}],
        "history": [{"event": "item_added", "detail": "L-2"}],
    }
    case = Case("add_line", "x", state, {"case_id": "C1", "amount": 5.0}, expect_error=False, expect_result=after)
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, plan, schema), "add_line", [case], SchemaResult(schema, {}, {}, "docs"))
    assert err == "" and res.passed == 1


def test_a_drop_that_moves_the_record_to_a_state_keeps_it_and_logs_a_dated_entry() -> None:
    spec = ToolSpec(
        "drop_case",
        "Shelve a case. The status becomes 'closed' and a history entry {date: today, event: 'shelved', note: reason} "
        "is appended. Returns the updated case.",
        {"type": "object", "properties": {"case_id": {"type": "string"}, "reason": {"type": "string"}}},
    )
    policy = "The office's current date: 2031-02-03."
    delete = ToolPlan(kind="delete", collection="cases", key_field="id", key_param="case_id")
    moved = docs_transition(spec, delete, SCHEMA, policy)
    assert moved is not None and moved.kind == "recorded_update"
    entry = next(e for e in moved.effects if e["op"] == "append")["items"][0]["fields"]
    assert entry == {
        "date": {"from": "const", "value": "2031-02-03"},
        "event": {"from": "const", "value": "shelved"},
        "note": {"from": "arg", "name": "reason"},
    }
    plain = ToolSpec("drop_case", "Drop a case for good.", spec.parameters)
    assert docs_transition(plain, delete, SCHEMA, policy) is None  # no state named: a delete stays a delete


def test_a_list_under_another_records_path_filters_by_the_field_it_names() -> None:
    from synth.envsynth.plan import decide_plan
    from synth.envsynth.priors import tool_priors

    orders = {"order_id": {"type": "string"}, "customer_id": {"type": "string"}, "status": {"type": "string"}}
    drafts = {
        "orders": CollectionDraft(name="orders", resource="order", fields=orders, key_field="order_id"),
        "customers": CollectionDraft(name="customers", resource="customer", fields={}, key_field="customer_id"),
    }
    ctx = PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})
    props = {"customer_id": {"type": "string"}, "status": {"type": "string"}}
    spec = ToolSpec(
        "listCustomerOrders",
        "Returns the customer's orders.",
        {"type": "object", "properties": props, "required": ["customer_id"]},
        mutates=False,
        http={"method": "get", "path": "/customers/{customer_id}/orders"},
    )
    plan = decide_plan(spec, tool_priors(spec), ctx)
    assert (plan.kind, plan.collection, plan.filter_params) == ("filter", "orders", ["customer_id", "status"])


def test_the_previous_and_the_new_linked_record_each_move() -> None:
    from synth.envsynth.docs_counters import docs_counters

    text = "The previous agent's load goes down by 1; the new agent's load goes up by 1."
    params = {"case_id": {}, "agent_id": {}}
    moves = docs_counters(text, "cases", "case_id", SCHEMA, params, ["assign", "agent"])
    heads = {(e["path"][0]["from"], next(iter(e["delta"]["expr"]))) for e in moves}
    assert heads == {("record", "minus"), ("arg", "plus")}


def test_a_write_whose_docs_create_a_record_of_another_collection_creates_it_starting_today() -> None:
    from synth.envsynth.create_rules import refine_create
    from synth.envsynth.link_plan import created_collection

    rental = {"rental_id": {"type": "string"}, "boat_id": {"type": "string"}, "since": {"type": "string"}}
    drafts = {
        "rentals": CollectionDraft(name="rentals", resource="rental", fields=rental, key_field="rental_id"),
        "boats": CollectionDraft(name="boats", resource="boat", fields={}, key_field="boat_id"),
    }
    ctx = PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})
    text = "Lend a boat as of the business date (2031-05-06). A new rental is created with since today."
    lend = ToolSpec("lend_boat", text, {"type": "object", "properties": {"boat_id": {"type": "string"}}})
    assert created_collection(lend, ctx) == "rentals"
    assert created_collection(ToolSpec("lend_boat", "Lend a boat.", lend.parameters), ctx) is None
    schema = {
        "type": "object",
        "properties": {"rentals": {"type": "object", "additionalProperties": {"type": "object", "properties": rental}}},
    }
    plan = ToolPlan(kind="create", collection="rentals", key_field="rental_id", fields=["boat_id"])
    assert refine_create(lend, plan, schema, text).initial_values == {"since": "2031-05-06"}
