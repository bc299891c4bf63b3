"""A change of one field of a kennel booking, read as the docs spell it rather than as a plain update: moving the
stay's end prices it again as the quote does (on the booking's own kennel and start and the call's new end), stores
the new total and takes the difference from the owner's wallet; changing the care level needs the kennel to allow
premium care; both log 'OLD -> NEW' and refuse what the docs refuse (a booking not booked, an unchanged value)."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.field_changes import field_change, record_arguments
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_reuse import sibling_quotes
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT, BOOL = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
DATE = {"type": "string", "format": "date"}
LOG = {"type": "array", "items": {"type": "object", "properties": {"date": DATE, "event": S, "note": S}}}
BOOKING = {
    "booking_id": S,
    "owner_id": S,
    "kennel_id": S,
    "start": DATE,
    "end": DATE,
    "care": {"type": "string", "x-enum": ["standard", "premium"]},
    "status": {"type": "string", "x-enum": ["booked", "collected", "cancelled"]},
    "total": N,
    "log": LOG,
}
OWNER = {"owner_id": S, "wallet": N}
KENNEL = {"kennel_id": S, "nightly_rate": N, "premium_allowed": BOOL}
SCHEMA = {
    "type": "object",
    "properties": {"owners": collection(OWNER), "kennels": collection(KENNEL), "bookings": collection(BOOKING)},
}
QUOTE = ToolSpec(
    "quote_stay",
    "Price a stay at a kennel without booking it. Nothing is saved.\n\nHow the price is built:\n"
    "- base = nights x the kennel's nightly_rate.\n"
    "- total = base, rounded to cents.\n\n"
    "Returns {kennel_id, start, end, nights, nightly_rate, base, total}.",
    {
        "type": "object",
        "properties": {
            "kennel_id": S,
            "start": {"type": "string", "description": "First night, YYYY-MM-DD."},
            "end": {"type": "string", "description": "Day the dogs go home, YYYY-MM-DD."},
        },
        "required": ["kennel_id", "start", "end"],
    },
)
MOVE = ToolSpec(
    "change_end",
    "Move the end of a booked stay. The price is recomputed for the new end as in quote_stay and the difference is "
    "taken from (or given back to) the owner's wallet; total is set to the new price. A log entry {date: today, "
    "event: 'moved', note: 'OLD -> NEW'} is appended. Fails with an error if the booking does not exist or is not "
    "booked, or the end is unchanged. The business date is 2033-03-01. Returns the updated booking.",
    {"type": "object", "properties": {"booking_id": S, "end": S}, "required": ["booking_id", "end"]},
    mutates=True,
)
CARE = ToolSpec(
    "change_care",
    "Change the care level of a booked stay. A log entry {date: today, event: 'care_changed', note: 'OLD -> NEW'} "
    "is appended. Fails with an error if the booking is not booked, the care is unchanged, or premium is requested "
    "for a kennel that does not allow it. The business date is 2033-03-01. Returns the updated booking.",
    {
        "type": "object",
        "properties": {"booking_id": S, "care": {"type": "string", "enum": ["standard", "premium"]}},
        "required": ["booking_id", "care"],
    },
    mutates=True,
)


def _state() -> dict[str, Any]:
    booking = {
        "booking_id": "B-1",
        "owner_id": "W1",
        "kennel_id": "K1",
        "start": "2033-03-10",
        "end": "2033-03-13",
        "care": "standard",
        "status": "booked",
        "total": 60.0,
        "log": [],
    }
    return {
        "owners": {"W1": {"owner_id": "W1", "wallet": 30.0}},
        "kennels": {
            "K1": {"kennel_id": "K1", "nightly_rate": 20.0, "premium_allowed": False},
            "K2": {"kennel_id": "K2", "nightly_rate": 25.0, "premium_allowed": True},
        },
        "bookings": {
            "B-1": booking,
            "B-2": {**copy.deepcopy(booking), "booking_id": "B-2", "kennel_id": "K2", "total": 75.0},
            "B-3": {**copy.deepcopy(booking), "booking_id": "B-3", "status": "collected"},
        },
    }


def _plan(spec: ToolSpec, field: str) -> ToolPlan | None:
    plain = ToolPlan(kind="update", collection="bookings", key_field="booking_id", key_param="booking_id")
    plain = ToolPlan.from_dict({**plain.to_dict(), "fields": [field]})
    quotes = sibling_quotes([QUOTE], SCHEMA, _state())
    return field_change(spec, plain, SCHEMA, "", _state(), [QUOTE, spec], quotes)


def _after(key: str, changes: dict[str, Any], entry: dict[str, Any], wallet: float | None = None) -> dict[str, Any]:
    state = _state()
    state["bookings"][key].update(changes)
    state["bookings"][key]["log"].append(entry)
    if wallet is not None:
        state["owners"]["W1"]["wallet"] = wallet
    return state


def test_a_repriced_change_reads_the_quote_on_the_record_and_moves_the_difference() -> None:
    plan = _plan(MOVE, "end")
    assert plan is not None and plan.kind == "recorded_update"
    assert plan.quote["record_args"] == ["kennel_id", "start"]
    assert plan.preconditions == {"status": ["booked"]}
    assert [c["op"] for c in plan.checks] == ["differs"]
    entry = {"date": "2033-03-01", "event": "moved"}
    run_calls(
        MOVE,
        plan,
        SCHEMA,
        _state,
        [
            # two nights fewer: 40 less, given back to the wallet
            (
                {"booking_id": "B-1", "end": "2033-03-11"},
                _after(
                    "B-1", {"end": "2033-03-11", "total": 20.0}, {**entry, "note": "2033-03-13 -> 2033-03-11"}, 70.0
                ),
            ),
            # two nights more: 40 taken from the wallet
            (
                {"booking_id": "B-1", "end": "2033-03-15"},
                _after(
                    "B-1", {"end": "2033-03-15", "total": 100.0}, {**entry, "note": "2033-03-13 -> 2033-03-15"}, -10.0
                ),
            ),
            ({"booking_id": "B-1", "end": "2033-03-13"}, None),  # unchanged
            ({"booking_id": "B-3", "end": "2033-03-11"}, None),  # not booked
            ({"booking_id": "B-9", "end": "2033-03-11"}, None),  # no such booking
        ],
    )


def test_a_logged_change_needs_what_the_linked_record_allows() -> None:
    plan = _plan(CARE, "care")
    assert plan is not None and not plan.quote
    needs = [c for c in plan.checks if c["op"] == "needs"]
    assert needs == [
        {
            "op": "needs",
            "param": "care",
            "table": {"premium": True},
            "collection": "kennels",
            "via": "kennel_id",
            "field": "premium_allowed",
        }
    ]
    entry = {"date": "2033-03-01", "event": "care_changed", "note": "standard -> premium"}
    run_calls(
        CARE,
        plan,
        SCHEMA,
        _state,
        [
            ({"booking_id": "B-2", "care": "premium"}, _after("B-2", {"care": "premium"}, entry)),
            ({"booking_id": "B-1", "care": "premium"}, None),  # K1 does not allow premium care
            ({"booking_id": "B-2", "care": "standard"}, None),  # unchanged
        ],
    )


def test_no_entry_and_no_repricing_stays_a_plain_update() -> None:
    plain = ToolSpec(
        "change_care",
        "Change the care level of a stay. Returns the updated booking.",
        CARE.parameters,
        mutates=True,
    )
    assert _plan(plain, "care") is None


def test_a_list_parameter_reads_the_one_id_the_record_holds() -> None:
    many = ToolSpec(
        "quote_stays",
        "Price stays.",
        {
            "type": "object",
            "properties": {"kennel_ids": {"type": "array", "items": S}, "start": S, "end": S},
            "required": ["kennel_ids", "start", "end"],
        },
    )
    assert record_arguments(MOVE, many, BOOKING) == (["kennel_id", "start"], {"kennel_ids": "kennel_id"})
    assert record_arguments(MOVE, ToolSpec("q", "x", {"type": "object", "properties": {"pier_id": S}}), BOOKING) is None


def test_the_same_change_in_other_words() -> None:
    said = (
        "Move the end of a booked stay. The price is recalculated for the new end as in quote_stay; total is updated "
        "to the new price and any difference is deducted from the owner's wallet as well. A log entry {date: today, "
        "event: 'moved', note: 'OLD -> NEW'} is appended. The business date is 2033-03-01."
    )
    plan = _plan(ToolSpec("change_end", said, MOVE.parameters, mutates=True), "end")
    assert plan is not None
    moves = [e for e in plan.effects if e["op"] == "adjust"]
    assert moves[0]["path"][1] == {"from": "const", "value": "wallet"}
    assert moves[0]["delta"] == {
        "from": "difference",
        "new": {"from": "record", "path": ["total"]},
        "old": {"from": "figure", "name": "total"},
    }  # taken from the wallet: the old price less the new
    assert {"op": "set", "field": "total", "source": {"from": "figure", "name": "total"}} in plan.effects
