"""A spin studio's booking, worded as its docs word a full class: "If the slot is full, the call fails unless
join_waitlist is true, in which case the booking is created with status 'waitlisted', nothing is charged, and the
member id is appended to the slot's waitlist (at most 2 members per waitlist)", with a log opening on 'place N'.
A free place books as before; a full slot refuses without the switch, waitlists with it (no place taken, no fee,
the member at the end of the waitlist and the log naming the place), and refuses once the waitlist is full."""

from __future__ import annotations

from typing import Any

from synth.envsynth.overflow_rules import overflow_effects
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
LOG = {"type": "array", "items": {"type": "object", "properties": {"date": S, "event": S, "note": S}}}
SCHEMA = {
    "type": "object",
    "properties": {
        "members": collection({"member_id": S, "classes_booked": INT}),
        "slots": collection({"slot_id": S, "capacity": INT, "booked_count": INT, "waitlist": {"type": "array"}}),
        "bookings": collection(
            {
                "booking_id": S,
                "member_id": {"type": "string", "x-references": "members"},
                "slot_id": {"type": "string", "x-references": "slots"},
                "status": {"type": "string", "x-enum": ["booked", "waitlisted", "cancelled"]},
                "fee": N,
                "log": LOG,
            }
        ),
    },
}
TEXT = (
    "Books a member into a class slot. If the slot has a free place, the booking is created with status 'booked', "
    "the place is taken (booked_count + 1) and the member's classes_booked goes up by 1. If the slot is full, the "
    "call fails unless join_waitlist is true, in which case the booking is created with status 'waitlisted', "
    "nothing is charged, and the member id is appended to the slot's waitlist (at most 2 members per waitlist). "
    "The log starts with {date: today, event: 'booked' or 'waitlisted', note}, where note is '' for a booking and "
    "'place N' (the member's place on the waitlist, counting from 1) for a waitlisting."
)
BOOK = ToolSpec(
    "book_class",
    TEXT,
    {
        "type": "object",
        "properties": {"member_id": S, "slot_id": S, "join_waitlist": {"type": "boolean"}},
        "required": ["member_id", "slot_id"],
    },
    mutates=True,
)


def _plan() -> ToolPlan:
    def up(collection_name: str, param: str, field: str) -> dict[str, Any]:
        path = [{"from": "arg", "name": param}, {"from": "const", "value": field}]
        return {
            "op": "adjust",
            "collection": collection_name,
            "path": path,
            "delta": {"from": "expr", "expr": {"plus": [{"const": 1}]}},
        }

    opening = {"date": {"from": "const", "value": "2031-01-05"}, "event": {"from": "const", "value": "booked"}}
    opening["note"] = {"from": "const", "value": ""}
    base = ToolPlan(
        kind="create",
        collection="bookings",
        key_field="booking_id",
        fields=["member_id", "slot_id"],
        id_type="pattern",
        key_format={"prefix": "B-", "digits": 3},
        initial_values={"status": "booked"},
        effects=[
            up("slots", "slot_id", "booked_count"),
            up("members", "member_id", "classes_booked"),
            {"op": "append", "field": "log", "items": [{"fields": opening}]},
        ],
        quote={"named": {}, "select": {}, "steps": [["fee", {"num": 12.0}]], "fields": [], "assign": {"fee": "fee"}},
    )
    return overflow_effects(BOOK, base, SCHEMA, TEXT)


def _state() -> dict[str, Any]:
    return {
        "members": {"M1": {"member_id": "M1", "classes_booked": 3}, "M2": {"member_id": "M2", "classes_booked": 0}},
        "slots": {
            "S1": {"slot_id": "S1", "capacity": 10, "booked_count": 4, "waitlist": []},
            "S2": {"slot_id": "S2", "capacity": 8, "booked_count": 8, "waitlist": ["M2"]},
            "S3": {"slot_id": "S3", "capacity": 8, "booked_count": 8, "waitlist": ["M2", "M3"]},
        },
        "bookings": {},
    }


def test_the_full_branch_is_read() -> None:
    (effect,) = [e for e in _plan().effects if e["op"] == "overflow"]
    assert {k: effect[k] for k in ("collection", "count", "limit", "switch", "value", "list", "item", "max")} == {
        "collection": "slots",
        "count": "booked_count",
        "limit": "capacity",
        "switch": "join_waitlist",
        "value": "waitlisted",
        "list": "waitlist",
        "item": "member_id",
        "max": 2,
    }
    assert effect["zero"] == ["fee"] and effect["entry"]["prefix"] == "place "


def test_a_full_slot_waitlists_only_when_asked_and_while_the_waitlist_has_room() -> None:
    plan = _plan()
    # the hand-made quote prices every class at 12.00: charged with a place, nothing on the waitlist
    booked = _state()
    booked["bookings"]["B-001"] = {
        "booking_id": "B-001",
        "member_id": "M1",
        "slot_id": "S1",
        "status": "booked",
        "fee": 12.0,
        "log": [{"date": "2031-01-05", "event": "booked", "note": ""}],
    }
    booked["slots"]["S1"]["booked_count"] = 5
    booked["members"]["M1"]["classes_booked"] = 4
    waitlisted = _state()
    waitlisted["bookings"]["B-001"] = {
        "booking_id": "B-001",
        "member_id": "M1",
        "slot_id": "S2",
        "status": "waitlisted",
        "fee": 0.0,
        "log": [{"date": "2031-01-05", "event": "waitlisted", "note": "place 2"}],
    }
    waitlisted["slots"]["S2"]["waitlist"] = ["M2", "M1"]
    calls = [
        ({"member_id": "M1", "slot_id": "S1"}, booked),
        ({"member_id": "M1", "slot_id": "S2"}, None),  # full, no switch
        ({"member_id": "M1", "slot_id": "S2", "join_waitlist": True}, waitlisted),
        ({"member_id": "M1", "slot_id": "S3", "join_waitlist": True}, None),  # the waitlist holds 2 already
    ]
    run_calls(BOOK, plan, SCHEMA, _state, calls)


def test_without_the_switch_sentence_nothing_is_added() -> None:
    spec = ToolSpec("book_class", TEXT.split(" If the slot is full")[0], BOOK.parameters, mutates=True)
    plan = overflow_effects(spec, ToolPlan(kind="create", collection="bookings"), SCHEMA, spec.description)
    assert not [e for e in plan.effects if e["op"] == "overflow"]
