"""Faithful synthesis rules: the publish gate, status transitions from docs and policy, computation tools and
documented response envelopes, each on hand-made tools whose right answer is known."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.compute_plan import compute_plan
from synth.envsynth.envelope import response_key
from synth.envsynth.gate import gate_problems, same_change_problems
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases as _run
from synth.envsynth.policy_rules import docs_transition, tool_text
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.tool_stage import ToolBuild
from synth.spec import ToolSpec

ORDERS = {
    "type": "object",
    "properties": {
        "orders": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "status": {"type": "string", "x-enum": ["open", "shipped", "closed"]},
                    "note": {"type": "string"},
                },
            },
        }
    },
}
STATE = {"orders": {"a": {"id": "a", "status": "open"}, "b": {"id": "b", "status": "shipped"}}}
POLICY = """# Shop policy

## Domain
- Orders can be 'open', 'shipped' or 'closed'.

## Close open order
- An order can only be closed if its status is 'open'.
- After confirmation the order status will be changed to 'closed'.

## Ship order
- Shipping is done by the warehouse.
"""


def spec(name: str, description: str, params: dict, returns: dict | None = None) -> ToolSpec:
    return ToolSpec(
        name=name, description=description, parameters={"type": "object", "properties": params}, returns=returns
    )


def case(arguments: dict, state: dict = STATE, **kw) -> dict:
    return Case(tool="t", origin="llm-questions", state=state, arguments=arguments, **kw).to_dict()


def test_policy_section_gives_the_transition_and_its_precondition() -> None:
    close = spec("close_open_order", "Close an order.", {"order_id": {"type": "string"}, "reason": {"type": "string"}})
    assert "can only be closed" in tool_text(close, POLICY) and "warehouse" not in tool_text(close, POLICY)
    plan = ToolPlan(kind="update", collection="orders", key_param="order_id")
    moved = docs_transition(close, plan, ORDERS, POLICY)
    assert moved is not None and moved.kind == "recorded_update"
    assert moved.effects == [
        {"op": "set", "field": "status", "source": {"from": "const", "value": "closed"}},
        {"op": "set", "field": "close_reason", "source": {"from": "arg", "name": "reason"}, "if_given": True},
    ]  # `reason` is optional here: kept only when given
    assert moved.preconditions == {"status": ["open"]}
    schema = SchemaResult(ORDERS, {}, {}, "docs")
    cases = [
        Case(
            "close_open_order",
            "x",
            STATE,
            {"order_id": "a"},
            expect_error=False,
            state_checks=[
                {"op": "field_equals", "collection": "orders", "key": "a", "field": "status", "value": "closed"}
            ],
        ),
        Case("close_open_order", "x", STATE, {"order_id": "b"}, expect_error=True),
    ]
    res, err = _run(render_tool(close, moved, ORDERS), "close_open_order", cases, schema)
    assert err == "" and res.passed == 2
    ship = spec("ship_order", "Ship an order.", {"order_id": {"type": "string"}})
    assert docs_transition(ship, plan, ORDERS, POLICY) is None  # the docs name no new status


def test_a_documented_refund_moves_the_balance_the_data_shows() -> None:
    bill = {"method": "v1", "sum": 30, "kind": "paid"}
    sample = {
        "orders": {
            "a": {"id": "a", "status": "open", "owner": "m1", "bills": [bill]},
            "c": {
                "id": "c",
                "status": "closed",
                "owner": "m2",
                "bills": [{**bill, "method": "v2"}, {**bill, "method": "v2", "kind": "back"}],
            },
            "d": {"id": "d", "status": "closed", "owner": "m1", "bills": [bill, {**bill, "kind": "back"}]},
        },
        "members": {
            "m1": {"wallet": {"v1": {"left": 5}, "card9": {"brand": "x"}}},
            "m2": {"wallet": {"v2": {"left": 1}}},
        },
    }
    policy = POLICY.replace(
        "changed to 'closed'.\n", "changed to 'closed'.\n- The refund will be added to the left sum.\n"
    )
    close = spec("close_open_order", "Close an order.", {"order_id": {"type": "string"}})
    plan = ToolPlan(kind="update", collection="orders", key_param="order_id")
    records = list(sample["orders"].values())
    moved = docs_transition(close, plan, ORDERS, policy, records, sample)
    assert moved is not None
    adjust = [e for e in moved.effects if e["op"] == "adjust"]
    assert adjust == [
        {
            "op": "adjust",
            "collection": "members",
            "path": [
                {"from": "record", "path": ["owner"]},
                {"from": "const", "value": "wallet"},
                {"from": "record", "path": ["bills", 0, "method"]},
                {"from": "const", "value": "left"},
            ],
            "delta": {"from": "record", "path": ["bills", 0, "sum"]},
        }
    ]
    assert not any(e["op"] == "adjust" for e in docs_transition(close, plan, ORDERS, POLICY, records, sample).effects)
    charged = policy.replace("refund will be added to", "fee will be deducted from")
    down = [e for e in docs_transition(close, plan, ORDERS, charged, records, sample).effects if e["op"] == "adjust"]
    assert down and down[0]["delta"]["from"] == "expr" and down[0]["delta"]["expr"]["minus"]


def test_gate_catches_vacuous_writes_reads_and_key_params() -> None:
    write = spec("close_order", "Close it.", {"order_id": {"type": "string"}})
    noop = 'def close_order(env_state, **arguments):\n    return {"ok": True}\n'
    plan = {"kind": "update", "key_param": "order_id"}
    problems = gate_problems(write, plan, noop, "close_order", [case({"order_id": "a"}), case({"order_id": "b"})])
    assert problems == ["a write, but no call with documented arguments both succeeds and changes the state"]
    real = (
        "def close_order(env_state, **arguments):\n"
        '    env_state["orders"][arguments["order_id"]]["status"] = "closed"\n'
        "    return None\n"
    )
    assert gate_problems(write, plan, real, "close_order", [case({"order_id": "a"})]) == []
    assert gate_problems(write, {**plan, "key_param": "id"}, real, "close_order", [case({"order_id": "a"})]) == [
        "key parameter `id` is not a parameter of the tool"
    ]
    read = spec("get_order", "Get one.", {"order_id": {"type": "string"}})
    ignores = 'def get_order(env_state, **arguments):\n    return sorted(env_state["orders"])\n'
    cases = [case({"order_id": "a"}), case({"order_id": "b"})]
    assert "ignores its parameters" in gate_problems(read, {"kind": "get"}, ignores, "get_order", cases)[0]
    uses = 'def get_order(env_state, **arguments):\n    return env_state["orders"][arguments["order_id"]]\n'
    assert gate_problems(read, {"kind": "get"}, uses, "get_order", cases) == []
    stated = spec(
        "close_order", "Close it: status becomes closed and closed_note records the reason.", {"order_id": {}}
    )
    with_note = {
        "kind": "recorded_update",
        "key_param": "order_id",
        "collection": "orders",
        "effects": [{"op": "set", "field": "status", "source": {"from": "const", "value": "closed"}}],
    }
    cases = [case({"order_id": "a"}, state={"orders": {"a": {"id": "a", "status": "open", "closed_note": None}}})]
    assert "closed_note" in gate_problems(stated, with_note, real, "close_order", cases)[0]
    # every recorded call of the real system reproduced, none of which changed closed_note: the docs yield
    assert gate_problems(stated, with_note, real, "close_order", cases, shown={"status"}) == []
    assert "closed_note" in gate_problems(stated, with_note, real, "close_order", cases, shown={"closed_note"})[0]
    fails = 'def get_order(env_state, **arguments):\n    raise ToolError("no")\n'
    assert gate_problems(read, {"kind": "get"}, fails, "get_order", cases) == [
        "no call succeeds: the tool always fails"
    ]


def test_two_differently_described_tools_with_the_same_change_are_both_left_out() -> None:
    body = (
        'def {f}(env_state, **arguments):\n    """{d}"""\n'
        '    env_state["orders"]["a"]["status"] = "x"\n    return None\n'
    )
    builds = [
        ToolBuild(n, n, "passed", "structured", body.format(f=n, d=d), {"kind": "update"}, [])
        for n, d in [("borrow", "Borrow a book."), ("give_back", "Return a book.")]
    ]
    specs = {b.name: spec(b.name, d, {}) for b, d in zip(builds, ["Borrow a book.", "Return a book."])}
    out = same_change_problems(builds, specs)
    assert set(out) == {"borrow", "give_back"} and "same change" in out["borrow"]
    builds[1].source = builds[1].source.replace('"x"', '"y"')
    assert same_change_problems(builds, specs) == {}


def test_a_computation_tool_computes() -> None:
    calc = spec("calc", "Calculate the result of a mathematical expression.", {"expression": {"type": "string"}})
    plan = compute_plan(calc, ToolPlan(kind="action"))
    assert plan is not None and plan.kind == "compute"
    cases = [
        Case("calc", "x", {}, {"expression": e}, expect_error=err, expect_result=r, has_expected_result=r is not None)
        for e, r, err in [
            ("2 + 2", 4, False),
            ("(1 + 2) * -3 / 2", -4.5, False),
            ("2 +", None, True),
            ("1 / 0", None, True),
            ("import os", None, True),
        ]
    ]
    res, err = _run(
        render_tool(calc, plan, {"type": "object", "properties": {}}),
        "calc",
        cases,
        SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs"),
    )
    assert err == "" and res.passed == 5
    assert compute_plan(spec("note", "Write a note.", {"text": {"type": "string"}}), ToolPlan(kind="action")) is None


def test_documented_single_property_response_is_the_envelope() -> None:
    tool = spec(
        "read_file",
        "Show a file.",
        {"name": {"type": "string"}},
        returns={"type": "object", "properties": {"file_content": {"type": "string"}}},
    )
    plan = ToolPlan(kind="get", collection="orders", key_param="name")
    assert response_key(tool, plan, ORDERS) == "file_content"
    two = spec("x", "x", {}, returns={"type": "object", "properties": {"a": {}, "b": {}}})
    assert response_key(two, plan, ORDERS) is None
    own = spec("x", "x", {}, returns={"type": "object", "properties": {"status": {}}})
    assert response_key(own, plan, ORDERS) is None  # the record's own field: the result is the record


def test_free_form_prompt_carries_the_policy_the_data_sample_and_recorded_calls() -> None:
    from synth.envsynth.codegen import write_free_form
    from synth.envsynth.plan_choice import recorded_text as _recorded_text
    from synth.envsynth.tool_stage import _policy_for
    from tests.fakes.scripted_llm import ScriptedLLM

    close = spec("close_open_order", "Close an order.", {"order_id": {"type": "string"}})
    llm = ScriptedLLM(
        responder=lambda tag, prompt: "```python\ndef close_open_order(state, **arguments):\n    return 1\n```"
    )
    recorded = [
        Case(
            "close_open_order",
            "trace",
            STATE,
            {"order_id": "a"},
            expect_error=False,
            expect_result={"id": "a"},
            has_expected_result=True,
            state_checks=[{"op": "changes", "changes": [{"path": "/orders/a/status", "value": "closed"}]}],
        )
    ]
    code = write_free_form(
        llm,
        close,
        {**ORDERS, "examples": [STATE]},
        policy=_policy_for(close, POLICY),
        recorded=_recorded_text(recorded),
    )
    assert code.startswith("def close_open_order")
    prompt = llm.calls[-1][1]
    assert "can only be closed if its status is 'open'" in prompt and "warehouse" not in prompt
    assert '"shipped"' in prompt and "/orders/a/status" in prompt


def test_entities_from_docs_alone_id_params_envelopes_and_no_transport_fields() -> None:
    from synth.envsynth.collections import draft_collections, response_record
    from synth.envsynth.priors import tool_priors

    tools = [
        spec("get_invoice_details", "Get an invoice.", {"invoice_id": {"type": "string"}}),
        spec(
            "update_pending_invoice_note",
            "Change the note of a pending invoice.",
            {
                "invoice_id": {"type": "string"},
                "note": {"type": "string"},
                "access_token": {"type": "string"},
                "page": {"type": "integer"},
            },
        ),
        spec(
            "list_customers",
            "List customers.",
            {"page": {"type": "integer"}, "limit": {"type": "integer"}},
            returns={
                "type": "object",
                "properties": {
                    "data": {
                        "type": "array",
                        "items": {
                            "allOf": [
                                {"type": "object", "properties": {"customerNumber": {"type": "string"}}},
                                {"type": "object", "properties": {"email": {"type": "string"}}},
                            ]
                        },
                    },
                    "next": {"type": "string"},
                },
            },
        ),
        spec("refund", "Refund a payment.", {"payment_method_id": {"type": "string"}}),
    ]
    cols = draft_collections(tools, {t.name: tool_priors(t) for t in tools})
    assert cols["invoices"].key_field == "invoice_id" and "note" in cols["invoices"].fields
    assert not {"access_token", "page"} & set(cols["invoices"].fields)
    assert "pendings" not in cols and cols["payment_methods"].key_field == "payment_method_id"
    assert set(response_record(tools[2].returns)) == {"customerNumber", "email"}


def test_a_filter_on_nested_fields_returns_the_matching_key() -> None:
    find = spec(
        "find_person_id_by_name_zip", "Find a person's id.", {"first": {"type": "string"}, "zip": {"type": "string"}}
    )
    people = {
        "type": "object",
        "properties": {"people": {"type": "object", "additionalProperties": {"type": "object"}}},
    }
    plan = ToolPlan(
        kind="filter", collection="people", field_paths={"first": "name.first", "zip": "address.zip"}, return_key=True
    )
    state = {
        "people": {
            "p1": {"name": {"first": "Ann"}, "address": {"zip": "1"}},
            "p2": {"name": {"first": "Bo"}, "address": {"zip": "1"}},
        }
    }
    cases = [
        Case(
            "find_person_id_by_name_zip",
            "x",
            state,
            {"first": "Bo", "zip": "1"},
            expect_error=False,
            expect_result="p2",
            has_expected_result=True,
        ),
        Case("find_person_id_by_name_zip", "x", state, {"first": "Bo", "zip": "2"}, expect_error=True),
    ]
    res, err = _run(
        render_tool(find, plan, people), "find_person_id_by_name_zip", cases, SchemaResult(people, {}, {}, "docs")
    )
    assert err == "" and res.passed == 2


def test_a_tool_named_after_a_state_applies_to_records_in_that_state_only() -> None:
    from synth.envsynth.policy_rules import name_guard

    edit = spec("edit_open_order_note", "Change an order's note.", {"order_id": {"type": "string"}, "note": {}})
    plan = ToolPlan(kind="update", collection="orders", key_param="order_id", fields=["note"])
    guarded = name_guard(edit, plan, ORDERS)
    assert guarded is not None and guarded.preconditions == {"status": ["open"]}
    assert name_guard(spec("edit_order_note", "Change a note.", {"order_id": {}}), plan, ORDERS) is None
    cases = [
        Case("edit_open_order_note", "x", STATE, {"order_id": "a", "note": "hi"}, expect_error=False),
        Case("edit_open_order_note", "x", STATE, {"order_id": "b", "note": "hi"}, expect_error=True),  # shipped
    ]
    res, err = _run(
        render_tool(edit, guarded, ORDERS), "edit_open_order_note", cases, SchemaResult(ORDERS, {}, {}, "docs")
    )
    assert err == "" and res.passed == 2
    res, _ = _run(render_tool(edit, plan, ORDERS), "edit_open_order_note", cases, SchemaResult(ORDERS, {}, {}, "docs"))
    assert res.passed == 1  # without the guard the shipped order is edited too


def test_a_create_that_leaves_a_field_its_docs_set_blank_is_left_out() -> None:
    book = spec(
        "book_room",
        "Book a room. The cost is deducted from the team's balance; no notes, approved_by null until approved.",
        {"room": {"type": "string"}},
    )
    made = (
        "def book_room(env_state, **arguments):\n"
        '    env_state.setdefault("bookings", {})["b1"] = {"id": "b1", "room": arguments["room"], "cost": 0, '
        '"notes": [], "approved_by": None}\n'
        "    return None\n"
    )
    plan = {"kind": "create", "collection": "bookings", "key_field": "id"}
    problems = gate_problems(book, plan, made, "book_room", [case({"room": "r1"}, state={})])
    assert problems == ["the docs say how the new record's `cost` is set; the plan leaves it blank"]
    stated = {**plan, "initial_values": {"cost": 10}}  # a stated starting value counts as set
    assert gate_problems(book, stated, made, "book_room", [case({"room": "r1"}, state={})]) == []


def test_a_create_fills_the_one_field_that_names_the_record_a_parameter_names() -> None:
    from synth.envsynth.create_rules import refine_create

    people = {"member_id": {"type": "string"}, "status": {"type": "string"}}
    bookings = {
        "booking_id": {"type": "string"},
        "room": {"type": "string"},
        "booked_by": {"type": "string", "x-references": "members"},
    }
    schema = {
        "type": "object",
        "properties": {
            name: {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
            for name, props in (("members", people), ("bookings", bookings))
        },
    }
    book = spec("create_booking", "Book a room. The booker (member_id) must exist.", {"member_id": {}, "room": {}})
    plan = ToolPlan(kind="create", collection="bookings", key_field="booking_id", fields=["room"])
    made = refine_create(book, plan, schema, book.description)
    assert made.inherits == {"booked_by": ["member_id", "members", "member_id"]}
    assert made.ref_checks == {"member_id": "members"}


def test_gate_leaves_out_a_computation_planned_as_stored_records() -> None:
    quote = spec(
        "estimate_order", "Estimates what the order would cost. Nothing is saved.", {"order_id": {"type": "string"}}
    )
    uses = 'def estimate_order(env_state, **arguments):\n    return env_state["orders"][arguments["order_id"]]\n'
    cases = [case({"order_id": "a"}), case({"order_id": "b"})]
    problems = gate_problems(quote, {"kind": "filter"}, uses, "estimate_order", cases)
    assert problems == ["its docs compute an answer and change nothing, but the plan answers stored records"]
    assert gate_problems(quote, {"kind": "quote"}, uses, "estimate_order", cases) == []  # a plan that computes
    read = spec("get_order", "Gets the order. Nothing is saved.", {"order_id": {"type": "string"}})
    assert gate_problems(read, {"kind": "get"}, uses.replace("estimate_order", "get_order"), "get_order", cases) == []
