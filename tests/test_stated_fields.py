"""Fields a change's docs spell out by name (a seed library lending a packet to another branch): "lent_to records
the branch (with its phone number when given)", written as the sample records write two parts, and "all of its
sowings move there (the local count drops to 0)"; a condition ("if the count falls to 0") sets nothing."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.stated_fields import (
    dropped_counts,
    read_args,
    recorded_params,
    stamped_dates,
    stamped_numbers,
    stamped_text,
)
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
PROPS = {"packet_id": S, "lent_to": S, "sowings": {"type": "integer"}, "kept": {"type": "integer"}}
PARAMS = {"packet_id": S, "to_branch": S, "to_branch_phone": S}
TEXT = (
    "Lend a packet to another branch. All of its sowings move there (the local count drops to 0) and lent_to "
    "records the branch (with its phone number when given). If the kept count falls to 0, the packet is retired."
)
SAMPLE = [{"packet_id": "K9", "lent_to": "Quay Seeds [555-01]", "sowings": 0, "kept": 2}, {"packet_id": "K8"}]


def test_the_named_fields_take_the_parameters_and_the_number() -> None:
    sets = recorded_params(TEXT, PROPS, PARAMS, "packet_id", SAMPLE)
    phone = {"from": "arg", "name": "to_branch_phone"}
    tail = {"from": "given", "test": phone, "then": {"from": "concat", "parts": [" [", phone, "]"]}, "else": ""}
    assert sets == [
        {
            "op": "set",
            "field": "lent_to",
            "source": {"from": "concat", "parts": [{"from": "arg", "name": "to_branch"}, tail]},
        }
    ]
    assert read_args(sets) == {"to_branch", "to_branch_phone"}
    assert dropped_counts(TEXT, PROPS) == [{"op": "set", "field": "sowings", "source": {"from": "const", "value": 0}}]


def test_without_two_part_samples_the_field_takes_the_main_parameter() -> None:
    sets = recorded_params(TEXT, PROPS, PARAMS, "packet_id", [{"lent_to": "Quay Seeds"}])
    assert sets == [{"op": "set", "field": "lent_to", "source": {"from": "arg", "name": "to_branch"}}]
    assert recorded_params(TEXT, PROPS, {"packet_id": S}, "packet_id", SAMPLE) == []  # no parameter names the branch


def test_a_field_is_the_parameter_its_own_name_says() -> None:
    said = "The packet is lent: `lent_to` is the to_branch, and `kept` is the count left."
    assert recorded_params(said, PROPS, PARAMS, "packet_id", SAMPLE) == [
        {"op": "set", "field": "lent_to", "source": {"from": "arg", "name": "to_branch"}}
    ]  # "the count left" is no parameter
    assert recorded_params("`lent_to` is the packet_id.", PROPS, PARAMS, "packet_id", SAMPLE) == []  # the key


def test_rendered_the_change_writes_both_forms() -> None:
    plan = ToolPlan(
        kind="recorded_update",
        collection="packets",
        key_field="packet_id",
        key_param="packet_id",
        effects=recorded_params(TEXT, PROPS, PARAMS, "packet_id", SAMPLE) + dropped_counts(TEXT, PROPS),
    )
    spec = ToolSpec("lend_packet", TEXT, {"type": "object", "properties": PARAMS})
    schema = SchemaResult({"type": "object", "properties": {}}, {}, {}, "docs")
    state = {"packets": {"K1": {"packet_id": "K1", "lent_to": None, "sowings": 4, "kept": 1}}}

    def lend(args: dict, lent_to: str) -> Case:
        after = {"packet_id": "K1", "lent_to": lent_to, "sowings": 0, "kept": 1}
        return Case(
            "lend_packet",
            "t",
            state,
            {"packet_id": "K1", **args},
            expect_error=False,
            expect_result=after,
            has_expected_result=True,
        )

    cases = [lend({"to_branch": "Hill"}, "Hill"), lend({"to_branch": "Hill", "to_branch_phone": "7"}, "Hill [7]")]
    res, err = run_cases(render_tool(spec, plan, schema.state_schema), "lend_packet", cases, schema)
    assert err == "" and res.passed == 2


def test_a_date_the_data_sets_in_the_new_state_only_is_stamped_today() -> None:
    props = {"packet_id": S, "status": S, "lent_on": S, "sown_on": S}
    records = [
        {"packet_id": "K1", "status": "lent", "lent_on": "2030-01-02", "sown_on": "2029-05-01"},
        {"packet_id": "K2", "status": "lent", "lent_on": "2030-02-11", "sown_on": None},
        {"packet_id": "K3", "status": "open", "lent_on": None, "sown_on": "2029-04-01"},
    ]
    found = stamped_dates(props, records, {"status": "lent"}, {"status": ["open"]}, "2030-04-02")
    assert found == [{"op": "set", "field": "lent_on", "source": {"from": "const", "value": "2030-04-02"}}]
    assert stamped_dates(props, records, {"status": "lent"}, {"status": ["open"]}, None) == []  # no business date
    records[2]["lent_on"] = "2029-12-30"  # set before the call too: not the call's stamp
    assert stamped_dates(props, records, {"status": "lent"}, {"status": ["open"]}, "2030-04-02") == []


def test_the_one_text_the_new_state_fills_is_where_the_call_keeps_what_it_was_given() -> None:
    props = {"packet_id": S, "status": S, "lend_note": S, "label": S}
    records = [
        {"packet_id": "K1", "status": "lent", "lend_note": "to the school", "label": "kale"},
        {"packet_id": "K2", "status": "lent", "lend_note": "for the fair", "label": "leek"},
        {"packet_id": "K3", "status": "open", "lend_note": None, "label": "bean"},
    ]
    assert stamped_text(props, records, {"status": "lent"}, {"status": ["open"]}, set()) == "lend_note"
    assert stamped_text(props, records, {"status": "lent"}, {"status": ["open"]}, {"lend_note"}) is None  # written
    records[2]["lend_note"] = "kept"  # filled before the call too: not the call's
    assert stamped_text(props, records, {"status": "lent"}, {"status": ["open"]}, set()) is None


def test_a_transition_keeps_its_parameter_in_that_field_not_one_of_its_own() -> None:
    from synth.envsynth.policy_rules import docs_transition
    from tests.schemas import collection

    states = {"type": "string", "x-enum": ["open", "lent"]}
    schema = {
        "type": "object",
        "properties": {"packets": collection({"packet_id": S, "status": states, "lend_note": S})},
    }
    records = [
        {"packet_id": "K1", "status": "lent", "lend_note": "to the school"},
        {"packet_id": "K3", "status": "open", "lend_note": None},
    ]
    spec = ToolSpec(
        "lend_packet",
        "Lend an open packet. Its status becomes `lent`.",
        {"type": "object", "properties": {"packet_id": S, "why": S}, "required": ["packet_id", "why"]},
    )  # noqa: E501
    plan = ToolPlan(kind="update", collection="packets", key_param="packet_id")
    moved = docs_transition(spec, plan, schema, "", records)
    assert moved is not None
    assert {"op": "set", "field": "lend_note", "source": {"from": "arg", "name": "why"}} in moved.effects
    assert not any(e.get("field") == "lend_why" for e in moved.effects)


def test_a_reading_the_call_takes_goes_to_the_number_the_new_state_fills() -> None:
    from synth.envsynth.policy_rules import docs_transition
    from tests.schemas import collection

    N = {"type": "integer"}
    props = {"packet_id": S, "status": S, "seeds_out": N, "seeds_back": N, "weight_g": N}
    records = [
        {"packet_id": "K1", "status": "returned", "seeds_out": 40, "seeds_back": 31, "weight_g": 9},
        {"packet_id": "K2", "status": "returned", "seeds_out": 25, "seeds_back": 25, "weight_g": 7},
        {"packet_id": "K3", "status": "lent", "seeds_out": 30, "seeds_back": None, "weight_g": 8},
    ]
    params = {"packet_id": S, "seeds_counted": N, "grams": N}
    moved = {"status": "returned"}
    assert stamped_numbers(props, records, moved, {"status": ["lent"]}, params, set()) == {
        "seeds_counted": "seeds_back"  # `seeds_out` was filled before; `grams` shares no word with a field
    }
    assert stamped_numbers(props, records, moved, {"status": ["lent"]}, params, {"seeds_back"}) == {}  # written
    states = {"type": "string", "x-enum": ["lent", "returned"]}
    schema = {"type": "object", "properties": {"packets": collection({**props, "status": states})}}
    spec = ToolSpec(
        "return_packet",
        "Take a lent packet back. Its status becomes `returned`.",
        {"type": "object", "properties": {"packet_id": S, "seeds_counted": N}, "required": ["packet_id"]},
    )
    plan = docs_transition(
        spec, ToolPlan(kind="update", collection="packets", key_param="packet_id"), schema, "", records
    )
    assert plan is not None
    kept = {"op": "set", "field": "seeds_back", "source": {"from": "arg", "name": "seeds_counted"}, "if_given": True}
    assert kept in plan.effects


def test_a_reference_the_call_writes_must_name_a_record() -> None:
    from synth.envsynth.policy_rules import docs_transition
    from tests.schemas import collection
    from tests.tool_calls import run_calls

    states = {"type": "string", "x-enum": ["lent", "moved"]}
    packet = {"packet_id": S, "status": states, "branch_id": {"type": "string", "x-references": "branches"}}
    schema = {
        "type": "object",
        "properties": {"branches": collection({"branch_id": S}), "packets": collection(packet)},
    }
    spec = ToolSpec(
        "move_packet",
        "Move a lent packet to another branch. Its status becomes `moved`.",
        {
            "type": "object",
            "properties": {"packet_id": S, "branch_id": S, "note": S},
            "required": ["packet_id", "branch_id"],
        },
    )
    plan = docs_transition(spec, ToolPlan(kind="update", collection="packets", key_param="packet_id"), schema, "")
    assert plan is not None and plan.ref_checks == {"branch_id": "branches"}

    def state() -> dict:
        return {
            "branches": {"B1": {"branch_id": "B1"}, "B2": {"branch_id": "B2"}},
            "packets": {"K1": {"packet_id": "K1", "status": "lent", "branch_id": "B1"}},
        }

    moved = state()
    moved["packets"]["K1"].update(status="moved", branch_id="B2")
    run_calls(
        spec,
        plan,
        schema,
        state,
        [({"packet_id": "K1", "branch_id": "B2"}, moved), ({"packet_id": "K1", "branch_id": "B9"}, None)],
    )


def test_a_date_some_days_after_the_business_date_is_that_day() -> None:
    from synth.envsynth.create_rules import stated_today
    from synth.envsynth.stated_fields import later_dates

    props = {"packet_id": S, "lent_on": S, "due_on": S}
    text = "Lend a packet: `lent_on` is today, `due_on` is today plus 21 days."
    assert later_dates(text, props, "2030-04-20", set()) == [
        {"op": "set", "field": "due_on", "source": {"from": "const", "value": "2030-05-11"}}
    ]
    assert stated_today(text, "lent_on", S, "2030-04-20") and not stated_today(text, "due_on", S, "2030-04-20")
    assert later_dates(text, props, None, set()) == [] and later_dates(text, props, "2030-04-20", {"due_on"}) == []
