"""An entry of a kind the data never logged, written to the list of a record the call's record (or an argument)
names: its shape comes from the list's other entries: a field naming records names the call's record, an amount
they vary in is the zero some hold. A reference field whose data only showed one kind of id may hold the key of
another record the state has (not a broken pattern)."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.envelope import with_envelope
from synth.envsynth.item_rules import refine_item
from synth.envsynth.linked_logs import linked_entries
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S = {"type": "string"}
LINE = {
    "type": "object",
    "properties": {
        "on": {"type": "string", "format": "date"},
        "act": {"type": "string", "x-enum": ["launch", "dock", "fee"]},
        "ref": {"type": ["string", "null"], "pattern": "^V[0-9]+$"},
        "dues": {"type": "number"},
    },
}


SCHEMA = {
    "type": "object",
    "properties": {
        "sailors": _collection({"sailor_id": S, "history": {"type": "array", "items": LINE}}),
        "voyages": _collection({"voyage_id": S, "sailor_id": S, "legs": {"type": "integer"}}),
        "harbours": _collection({"harbour_id": S, "waiting": {"type": "array", "items": S}}),
    },
}
HISTORY = [
    {"on": "2031-01-01", "act": "launch", "ref": "V1", "dues": 0.0},
    {"on": "2031-01-02", "act": "dock", "ref": "V2", "dues": 4.5},
    {"on": "2031-01-03", "act": "fee", "ref": None, "dues": 4.5},
]
STATE = {
    "sailors": {"K1": {"sailor_id": "K1", "history": list(HISTORY)}},
    "voyages": {
        "V1": {"voyage_id": "V1", "sailor_id": "K1", "legs": 1},
        "V2": {"voyage_id": "V2", "sailor_id": "K1", "legs": 2},
    },
    "harbours": {"H1": {"harbour_id": "H1", "waiting": []}},
}
EXTEND = ToolSpec(
    "extend_voyage",
    "Stretches a voyage by one more leg (business date 2031-02-03; legs goes up by 1). One `stretch` line gets "
    "logged to the sailor's history.",
    {"type": "object", "properties": {"voyage_id": S}, "required": ["voyage_id"]},
)


def test_an_unseen_kind_on_the_linked_record_takes_the_shape_of_the_lists_other_entries() -> None:
    (entry,) = linked_entries(EXTEND.description, "voyages", SCHEMA, EXTEND.parameters, STATE, "2031-02-03")
    assert entry["collection"] == "sailors" and entry["via"] == "sailor_id"
    assert entry["items"][0]["fields"] == {
        "on": {"from": "const", "value": "2031-02-03"},
        "act": {"from": "const", "value": "stretch"},
        "ref": {"from": "own_key"},
        "dues": {"from": "const", "value": 0.0},
    }
    unquoted = EXTEND.description.replace("`stretch`", "stretch")  # an unquoted word is not a kind
    assert linked_entries(unquoted, "voyages", SCHEMA, EXTEND.parameters, STATE, "2031-02-03") == []
    base = ToolPlan(kind="update", collection="voyages", key_field="voyage_id", key_param="voyage_id")
    plan = docs_transition(EXTEND, base, SCHEMA, "", list(STATE["voyages"].values()), STATE)
    case = Case(EXTEND.name, "x", STATE, {"voyage_id": "V2"}, expect_error=False)
    line = {"on": "2031-02-03", "act": "stretch", "ref": "V2", "dues": 0.0}
    case.state_checks = [
        {"op": "field_equals", "collection": "sailors", "key": "K1", "field": "history", "value": HISTORY + [line]},
        {"op": "field_equals", "collection": "voyages", "key": "V2", "field": "legs", "value": 3},
    ]
    res, err = run_cases(render_tool(EXTEND, plan, SCHEMA), EXTEND.name, [case], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_an_entry_referring_to_another_kind_of_record_than_the_data_showed_keeps_the_state_valid() -> None:
    spec = ToolSpec(
        "queue_at_harbour",
        "Queues a sailor at a harbour (business date 2031-02-03): the sailor joins the end of its waiting list, "
        "and one `queued` line (ref = harbour id) gets written to the sailor's history.",
        {"type": "object", "properties": {"harbour_id": S, "sailor_id": S}, "required": ["harbour_id", "sailor_id"]},
    )
    base = ToolPlan(
        kind="item_add",
        collection="harbours",
        key_field="harbour_id",
        key_param="harbour_id",
        op_param="sailor_id",
        list_field="waiting",
    )
    plan = refine_item(spec, base, SCHEMA, spec.description, STATE, "2031-02-03")
    (entry,) = [e for e in plan.effects if e["op"] == "ref_append"]
    assert entry["via_arg"] == "sailor_id" and entry["items"][0]["fields"]["ref"] == {
        "from": "record",
        "path": ["harbour_id"],
    }
    plan = with_envelope(spec, plan, SCHEMA)
    ok = Case(spec.name, "x", STATE, {"harbour_id": "H1", "sailor_id": "K1"}, expect_error=False)
    line = {"on": "2031-02-03", "act": "queued", "ref": "H1", "dues": 0.0}  # "H1" breaks ^V[0-9]+$, names a harbour
    ok.state_checks = [
        {"op": "field_equals", "collection": "sailors", "key": "K1", "field": "history", "value": HISTORY + [line]}
    ]
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, [ok], SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 1


def test_a_value_naming_no_record_still_breaks_the_datas_pattern() -> None:
    import jsonschema

    from synth.envsynth.tool_tests import _names_a_record

    validator = jsonschema.Draft202012Validator(SCHEMA)
    bad = {**STATE, "sailors": {"K1": {"sailor_id": "K1", "history": [{**HISTORY[0], "ref": "Z9"}]}}}
    (err,) = list(validator.iter_errors(bad))
    assert err.validator == "pattern" and not _names_a_record(err, bad)
    named = {**bad, "sailors": {"K1": {"sailor_id": "K1", "history": [{**HISTORY[0], "ref": "H1"}]}}}
    (err,) = list(validator.iter_errors(named))
    assert _names_a_record(err, named)
