"""A river cruise whose cabins fill up: confirming a held booking puts each guest in their cabin (`booked` grows)
and, once every cabin of the trip is full, the trip becomes `full` (and only then); a guest may join a cabin only
while it has a berth left."""

from __future__ import annotations

from typing import Any

from synth.envsynth.full_states import full_states, left_checks, with_full_states
from synth.envsynth.list_runtime import fg_list_check
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
GUEST = {"type": "object", "properties": {"name": S, "cabin": S, "fare": N}}
BOOKING = {
    "booking_id": S,
    "trip_id": S,
    "status": {"type": "string", "x-enum": ["held", "confirmed"]},
    "guests": {"type": "array", "items": GUEST},
}
CABIN = {"type": "object", "properties": {"cabin": S, "fare": N, "booked": N, "berths": N}}
TRIP = {
    "trip_id": S,
    "status": {"type": "string", "x-enum": ["open", "full"]},
    "cabins": {"type": "array", "items": CABIN},
}
SCHEMA = {"type": "object", "properties": {"trips": collection(TRIP), "bookings": collection(BOOKING)}}
TEXT = (
    "Confirms a `held` booking; the booking becomes `confirmed`. Each guest is added to its cabin (`booked` "
    "grows); when every cabin of the trip is then full, the trip becomes `full`. Returns the booking."
)
CONFIRM = ToolSpec(
    "confirm_booking",
    TEXT,
    {"type": "object", "properties": {"booking_id": S}, "required": ["booking_id"]},
    mutates=True,
)


def _state() -> dict[str, Any]:
    def booking(key: str, status: str, guests: list[tuple[str, str, float]]) -> dict[str, Any]:
        people = [{"name": n, "cabin": c, "fare": f} for n, c, f in guests]
        return {"booking_id": key, "trip_id": "T1", "status": status, "guests": people}

    return {
        "trips": {
            "T1": {
                "trip_id": "T1",
                "status": "open",
                "cabins": [
                    {"cabin": "river", "fare": 300.0, "booked": 3, "berths": 4},
                    {"cabin": "deck", "fare": 180.0, "booked": 5, "berths": 6},
                ],
            }
        },
        "bookings": {
            "K1": booking("K1", "held", [("Ana", "river", 300.0), ("Bo", "deck", 180.0)]),
            "K2": booking("K2", "held", [("Cy", "river", 300.0)]),
            "K3": booking("K3", "confirmed", [("Di", "deck", 180.0), ("Ed", "river", 300.0)]),
        },
    }


def _plan() -> ToolPlan:
    plain = ToolPlan(kind="update", collection="bookings", key_field="booking_id", key_param="booking_id")
    moved = docs_transition(CONFIRM, plain, SCHEMA, "", list(_state()["bookings"].values()), _state())
    assert moved is not None
    return with_full_states(CONFIRM, moved, SCHEMA, TEXT)


def test_the_sentence_names_the_list_its_counts_and_the_state() -> None:
    assert full_states(TEXT, "bookings", SCHEMA) == [
        {
            "op": "full_state",
            "collection": "trips",
            "via": "trip_id",
            "list": "cabins",
            "count": "booked",
            "cap": "berths",
            "field": "status",
            "value": "full",
        }
    ]
    said_after = "The trip becomes `full` when every cabin is full; each cabin's `booked` grows."
    assert full_states(said_after, "bookings", SCHEMA)[0]["value"] == "full"
    assert full_states("Each cabin's `booked` grows by one.", "bookings", SCHEMA) == []
    for said in (
        "Once all the cabins are fully booked, the trip is marked `full`; each cabin's `booked` grows.",
        "The trip changes to `full` as soon as every cabin is at capacity; its `booked` grows by one.",
    ):
        assert [e["value"] for e in full_states(said, "bookings", SCHEMA)] == ["full"], said


def test_the_trip_is_full_only_once_every_cabin_is() -> None:
    def after(key: str, booked: dict[str, int], status: str) -> dict[str, Any]:
        state = _state()
        state["bookings"][key]["status"] = "confirmed"
        for cabin in state["trips"]["T1"]["cabins"]:
            cabin["booked"] = booked[cabin["cabin"]]
        state["trips"]["T1"]["status"] = status
        return state

    run_calls(
        CONFIRM,
        _plan(),
        SCHEMA,
        _state,
        [
            ({"booking_id": "K1"}, after("K1", {"river": 4, "deck": 6}, "full")),
            ({"booking_id": "K2"}, after("K2", {"river": 4, "deck": 5}, "open")),  # the deck cabin still has room
            ({"booking_id": "K3"}, None),  # not held
        ],
    )


def test_a_guest_joins_a_cabin_only_while_it_has_a_berth_left() -> None:
    params = {"booking_id": S, "cabin": S, "name": S}
    said = "The cabin must have a berth left; its `booked` grows by 1."
    checks = left_checks(said, "bookings", SCHEMA, params)
    assert checks == [
        {
            "op": "element_left",
            "collection": "trips",
            "via": "trip_id",
            "list": "cabins",
            "by": "cabin",
            "count": "booked",
            "cap": "berths",
        }
    ]
    record, state = _state()["bookings"]["K1"], _state()
    assert fg_list_check(checks[0], record, state, {"cabin": "deck"})  # 5 of 6
    state["trips"]["T1"]["cabins"][1]["booked"] = 6
    assert not fg_list_check(checks[0], record, state, {"cabin": "deck"})
    assert left_checks(said, "bookings", SCHEMA, {"booking_id": S}) == []  # no parameter picks the cabin
