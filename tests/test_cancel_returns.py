"""Cancelling a ferry booking gives back what the docs say it gives back: a paid booking's total goes back to the
passenger's credit, the miles it earned (whole euros of the total) are taken back but never below 0, every seat goes
back to its deck (`sold` decreases), a `full` sailing is `open` again, a waitlisted booking's passenger leaves the
sailing's waitlist, and the log entry shows the refund (0 when the booking was only held)."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.cancel_returns import cancel_returns
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
SEAT = {"type": "object", "properties": {"seat_id": S, "deck": S, "fare": N}}
LOG = {"type": "array", "items": {"type": "object", "properties": {"event": S, "amount": N}}}
BOOKING = {
    "booking_id": S,
    "passenger_id": S,
    "sailing_id": S,
    "status": {"type": "string", "x-enum": ["held", "paid", "waitlisted", "cancelled"]},
    "seats": {"type": "array", "items": SEAT},
    "total": N,
    "log": LOG,
}
PASSENGER = {"passenger_id": S, "credit": N, "miles": INT}
DECK = {"type": "object", "properties": {"deck": S, "fare": N, "sold": INT, "capacity": INT}}
SAILING = {
    "sailing_id": S,
    "status": {"type": "string", "x-enum": ["open", "full", "departed"]},
    "decks": {"type": "array", "items": DECK},
    "waitlist": {"type": "array", "items": S},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "passengers": collection(PASSENGER),
        "sailings": collection(SAILING),
        "bookings": collection(BOOKING),
    },
}
TEXT = (
    "Cancels a `held`, `paid` or `waitlisted` booking. Cancelling a waitlisted booking removes the passenger from "
    "the sailing's waitlist. A paid booking is refunded in full to the passenger's credit and the miles "
    "it earned (whole euros of the total) are taken back, never below 0. Every seat goes back to its deck (`sold` "
    "decreases); a `full` sailing that has seats again returns to `open`. The booking becomes `cancelled` and "
    '`{"event": "cancelled", "amount": <refund, 0 when it was not paid>}` is appended to its log. Returns the booking.'
)
CANCEL = ToolSpec(
    "cancel_booking",
    TEXT,
    {"type": "object", "properties": {"booking_id": S}, "required": ["booking_id"]},
    mutates=True,
)


def _booking(key: str, status: str, sailing: str, seats: list[tuple[str, str, float]], total: float) -> dict:
    return {
        "booking_id": key,
        "passenger_id": "P1",
        "sailing_id": sailing,
        "status": status,
        "seats": [{"seat_id": s, "deck": d, "fare": f} for s, d, f in seats],
        "total": total,
        "log": [{"event": "booked", "amount": total}],
    }


def _state() -> dict[str, Any]:
    decks = [
        {"deck": "main", "fare": 20.0, "sold": 10, "capacity": 10},
        {"deck": "upper", "fare": 35.5, "sold": 4, "capacity": 4},
    ]
    return {
        "passengers": {"P1": {"passenger_id": "P1", "credit": 10.0, "miles": 40}},
        "sailings": {
            "S1": {"sailing_id": "S1", "status": "full", "decks": copy.deepcopy(decks), "waitlist": ["P2", "P1"]},
            "S2": {
                "sailing_id": "S2",
                "status": "open",
                "decks": [{**decks[0], "fare": 18.0, "sold": 3}],
                "waitlist": [],
            },
        },
        "bookings": {
            "B1": _booking("B1", "paid", "S1", [("T1", "main", 20.0), ("T2", "upper", 35.5)], 55.5),
            "B2": _booking("B2", "held", "S2", [("T3", "main", 18.0)], 18.0),
            "B3": _booking("B3", "paid", "S1", [("T4", "upper", 35.5)], 35.5),
            "B4": {**_booking("B4", "waitlisted", "S1", [], 0.0), "passenger_id": "P2"},
        },
    }


def _plan() -> ToolPlan:
    plain = ToolPlan(kind="update", collection="bookings", key_field="booking_id", key_param="booking_id")
    plan = docs_transition(CANCEL, plain, SCHEMA, "", list(_state()["bookings"].values()), _state())
    assert plan is not None
    return plan


def test_the_change_reads_each_thing_given_back() -> None:
    ops = [(e["op"], e.get("collection"), e.get("field")) for e in _plan().effects]
    for wanted in [
        ("adjust", "passengers", None),
        ("each_element_adjust", "sailings", "sold"),
        ("ref_set", "sailings", "status"),
        ("ref_pull", "sailings", "passenger_id"),
        ("append", None, "log"),
    ]:
        assert any(o[:2] == wanted[:2] and (wanted[2] is None or o[2] == wanted[2]) for o in ops), (wanted, ops)
    points = [e for e in _plan().effects if e["op"] == "adjust" and e["path"][1]["value"] == "miles"]
    assert points[0]["at_least"] == 0.0 and points[0]["when"] == {"field": "status", "in": ["paid"]}


def test_cancelling_gives_back_what_the_docs_say() -> None:
    def after(key: str, credit: float, miles: int, sold: dict[str, dict[str, int]], status: str, refund: float) -> dict:
        state = _state()
        state["bookings"][key]["status"] = "cancelled"
        state["bookings"][key]["log"].append({"event": "cancelled", "amount": refund})
        state["passengers"]["P1"].update({"credit": credit, "miles": miles})
        for sailing, decks in sold.items():
            for deck in state["sailings"][sailing]["decks"]:
                deck["sold"] = decks.get(deck["deck"], deck["sold"])
        state["sailings"]["S1"]["status"] = status
        return state

    run_calls(
        CANCEL,
        _plan(),
        SCHEMA,
        _state,
        [
            # paid: 55.50 back, 55 miles taken from 40 stops at 0, both seats back, the full sailing reopens
            ({"booking_id": "B1"}, after("B1", 65.5, 0, {"S1": {"main": 9, "upper": 3}}, "open", 55.5)),
            # held: nothing refunded, no miles taken, the seat goes back, the open sailing stays open
            ({"booking_id": "B2"}, after("B2", 10.0, 40, {"S2": {"main": 2}}, "full", 0)),
            ({"booking_id": "B9"}, None),
        ],
    )
    waitlisted = _state()
    waitlisted["bookings"]["B4"]["status"] = "cancelled"
    waitlisted["bookings"]["B4"]["log"].append({"event": "cancelled", "amount": 0})
    waitlisted["sailings"]["S1"]["waitlist"] = ["P1"]  # P2 leaves the list; a paid booking's passenger stays on it
    run_calls(CANCEL, _plan(), SCHEMA, _state, [({"booking_id": "B4"}, waitlisted)])
    paid = after("B3", 45.5, 5, {"S1": {"upper": 3}}, "open", 35.5)
    run_calls(CANCEL, _plan(), SCHEMA, _state, [({"booking_id": "B3"}, paid)])


def test_nothing_is_given_back_when_the_docs_say_nothing() -> None:
    text = "Cancels a booking. The booking becomes `cancelled`."
    assert cancel_returns(text, "bookings", SCHEMA, _state(), {}, []) == []


def test_the_same_said_in_other_words() -> None:
    def ops(text: str) -> list[dict[str, Any]]:
        return cancel_returns(text, "bookings", SCHEMA, _state(), {}, [])

    plain = ops("The booking becomes `cancelled`. The full amount is refunded to the passenger's credit.")
    assert [(e["op"], e["path"][1]["value"], e.get("when")) for e in plain] == [("adjust", "credit", None)]
    miles = ops(
        "A paid booking is credited back to the passenger's credit; the miles it received (whole euros of the "
        "total) are deducted, never going below zero."
    )
    assert miles[1]["delta"]["expr"] == {"plus": [{"path": ["total"]}], "times": -1, "floor": True}
    assert miles[1]["at_least"] == 0.0 and miles[1]["when"] == {"field": "status", "in": ["paid"]}
    # "the ship" is no collection: the one linked record whose field knows both values is the sailing
    reverted = ops("The ship goes back to `open` if it was `full`.")
    assert reverted == [
        {
            "op": "ref_set",
            "collection": "sailings",
            "via": "sailing_id",
            "field": "status",
            "value": "open",
            "only_from": ["full"],
        }
    ]
