"""A create whose argument is named for its role (`skipper_id`... here `owner_id`) while its field references the
collection by another noun: the refusal the docs word with the collection's noun ("Error: sailor <id> is barred and
cannot book") still holds for the record the argument names, and an optional argument of that kind is not checked
when left out."""

from __future__ import annotations

from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "sailors": collection({"sailor_id": S, "status": {"type": "string", "x-enum": ["active", "barred"]}}),
        "marinas": collection({"marina_id": S}),
        "bookings": collection(
            {
                "booking_id": S,
                "owner_id": {"type": "string", "x-references": "sailors"},
                "home_port_id": {"type": ["string", "null"], "x-references": "marinas"},
            }
        ),
    },
}
TEXT = (
    "Book a berth. Checks, in this order: the owner exists ('Error: sailor <id> not found') and is active "
    "('Error: sailor <id> is barred and cannot book'). The home port, when given, must exist."
)
PARAMS = {"type": "object", "properties": {"owner_id": S, "home_port_id": S}, "required": ["owner_id"]}
SPEC = ToolSpec("book_berth", TEXT, PARAMS, mutates=True)
BASE = ToolPlan(kind="create", collection="bookings", key_field="booking_id", fields=["owner_id", "home_port_id"])


def test_the_owner_must_not_be_barred_and_the_optional_port_is_not_required() -> None:
    plan = refine_create(SPEC, BASE, SCHEMA, TEXT)
    assert plan.ref_checks.get("owner_id") == "sailors"
    assert plan.ref_requires.get("owner_id") == {"status": ["active"]}
    assert "home_port_id" not in plan.ref_checks  # optional: a call may leave it out
    renamed = refine_create(SPEC, BASE, SCHEMA, TEXT.replace("sailor <id> is barred", "member <id> is barred"))
    assert "owner_id" not in renamed.ref_requires
