"""Entries the docs write with a key standing alone (`events [{date, status: 'created', note: 'label printed'}]`):
the key holds the value of its own name, the parameter or the record's field, and for a day with no such field the
business date the docs state. A body of names only (a field listing) is not taken for an entry."""

from __future__ import annotations

from synth.envsynth.create_rules import refine_create
from synth.envsynth.docs_appends import element_rule
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection

TODAY = "2031-03-04"
S, N = {"type": "string"}, {"type": "number"}
EVENT = {"type": "object", "properties": {"date": S, "status": S, "note": S}}
PARCEL = {"parcel_id": S, "weight_kg": N, "status": S, "events": {"type": "array", "items": EVENT}}
SCHEMA = {"type": "object", "properties": {"parcels": collection(PARCEL)}}


def test_a_lone_key_takes_the_business_date_the_parameter_or_the_record_field() -> None:
    rule = element_rule("{date, status: 'created', note: 'label printed'}", PARCEL, {}, today=TODAY)
    assert rule == {
        "fields": {
            "date": {"from": "const", "value": TODAY},
            "status": {"from": "const", "value": "created"},
            "note": {"from": "const", "value": "label printed"},
        }
    }
    given = element_rule("{note, status}", PARCEL, {"note": S}, today=TODAY)  # names only: a listing
    assert given is None
    mixed = element_rule("{status, note, kind: 'x'}", PARCEL, {"note": S}, today=TODAY)
    assert mixed is not None
    assert mixed["fields"]["note"] == {"from": "arg", "name": "note"}
    assert mixed["fields"]["status"] == {"from": "record", "path": ["status"]}
    assert element_rule("{date, status: 'created'}", PARCEL, {}, today=None) is None  # no date to write


def test_a_create_writes_the_first_entry_with_the_business_date() -> None:
    create = ToolSpec(
        "create_parcel",
        "Registers a parcel. It starts with status `created` and events [{date, status: 'created', note: 'label "
        "printed'}]. The desk works on the business date 2031-03-04.",
        {"type": "object", "properties": {"weight_kg": N}, "required": ["weight_kg"]},
        mutates=True,
    )
    plan = ToolPlan(kind="create", collection="parcels", key_field="parcel_id", fields=["weight_kg"])
    plan = refine_create(create, plan, SCHEMA, create.description)
    appended = [e for e in plan.effects if e.get("op") == "append" and e.get("field") == "events"]
    assert appended and appended[0]["items"][0]["fields"]["date"] == {"from": "const", "value": TODAY}


def test_the_value_the_name_reads_the_parameter_or_field_of_that_name() -> None:
    rule = element_rule("{date, event: 'opened', note: the summary}", PARCEL, {"summary": S}, today=TODAY)
    assert rule is not None and rule["fields"]["note"] == {"from": "arg", "name": "summary"}
    weighed = element_rule("{event: 'weighed', kg: the weight_kg}", PARCEL, {}, today=TODAY)
    assert weighed is not None and weighed["fields"]["kg"] == {"from": "record", "path": ["weight_kg"]}
    assert element_rule("{event: 'opened', note: the weather}", PARCEL, {"summary": S}) is None  # names nothing
