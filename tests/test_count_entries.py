"""A ferry desk's booking, priced as its quote prices a crossing: as many passes as passengers (ids continuing the
fleet-wide sequence, each at the deck's fare), the deck's `taken` and a voucher's `uses` moved, a deck without
enough seats left refusing the booking, a log that starts with the total, and a state change under a condition the
rules cannot read left out."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.count_entries import covered_counts, entry_moves, repeated_entries
from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.quote_reuse import priced_fields, sibling_quotes
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
DECKS = {"type": "array", "items": {"type": "object", "properties": {"deck": S, "fare": N, "seats": INT, "taken": INT}}}
PASSES = {"type": "array", "items": {"type": "object", "properties": {"pass_id": S, "deck": S, "fare": N}}}
LOG = {"type": "array", "items": {"type": "object", "properties": {"step": S, "amount": N}}}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {
    "type": "object",
    "properties": {
        "routes": _collection(
            {"route_id": S, "state": {"type": "string", "x-enum": ["open", "closed"]}, "decks": DECKS}
        ),
        "vouchers": _collection({"voucher": S, "uses": INT}),
        "bookings": _collection(
            {
                "booking_id": S,
                "route_id": S,
                "voucher": {"type": ["string", "null"]},
                "passes": PASSES,
                "log": LOG,
                "total": N,
                "state": S,
            }
        ),
    },
}
PASSENGERS = {"type": "integer", "default": 1, "description": "How many passengers travel."}
QUOTE = ToolSpec(
    "quote_crossing",
    "Prices a crossing; nothing is held. fare_total = fare x passengers; port_tax (1.50 per passenger); "
    "total = fare_total + port_tax.",
    {"type": "object", "properties": {"route_id": S, "deck": S, "passengers": PASSENGERS, "voucher": S}},
    returns={
        "type": "object",
        "properties": {
            "route_id": S,
            "deck": S,
            "passengers": INT,
            "fare": N,
            "fare_total": N,
            "port_tax": N,
            "total": N,
            "seats_left": {"type": "integer", "description": "Seats of the deck still free (seats - taken)."},
        },
    },
)
BOOK_TEXT = (
    "Books a crossing in state `held`, holding `passengers` new passes of the deck, each at the deck's fare, priced "
    "as quote_crossing prices it. The route must be `open` and the deck must have enough seats left (seats - taken). "
    "Pass ids continue the fleet-wide sequence (PS-0001, PS-0002, ...). Afterwards: the deck's `taken` grows by "
    "passengers; when every deck is then taken, the route becomes `closed`; a voucher's `uses` grows by 1. The "
    'booking\'s log starts with `{"step": "booked", "amount": <total>}`.'
)
BOOK = ToolSpec(
    "book_crossing",
    BOOK_TEXT,
    {
        "type": "object",
        "properties": {"route_id": S, "deck": S, "passengers": PASSENGERS, "voucher": S},
        "required": ["route_id", "deck"],
    },
)
STATE = {
    "routes": {
        "R1": {
            "route_id": "R1",
            "state": "open",
            "decks": [
                {"deck": "upper", "fare": 20.0, "seats": 4, "taken": 1},
                {"deck": "car", "fare": 9.0, "seats": 9, "taken": 9},
            ],
        },
    },
    "vouchers": {"SEA5": {"voucher": "SEA5", "uses": 2}},
    "bookings": {
        "BK-01": {
            "booking_id": "BK-01",
            "route_id": "R1",
            "voucher": None,
            "passes": [{"pass_id": "PS-0007", "deck": "upper", "fare": 20.0}],
            "log": [{"step": "booked", "amount": 21.5}],
            "total": 21.5,
            "state": "held",
        },
        "BK-02": {
            "booking_id": "BK-02",
            "route_id": "R1",
            "voucher": None,
            "passes": [{"pass_id": "PS-0003", "deck": "car", "fare": 9.0}],
            "log": [{"step": "booked", "amount": 10.5}],
            "total": 10.5,
            "state": "held",
        },
    },
}


def _plan() -> ToolPlan:
    base = ToolPlan(
        kind="create",
        collection="bookings",
        key_field="booking_id",
        fields=["route_id", "voucher"],
        id_type="pattern",
        key_format={"prefix": "BK-", "digits": 2},
    )
    plan = refine_create(BOOK, base, SCHEMA, BOOK_TEXT, sample=STATE)
    quotes = sibling_quotes([QUOTE, BOOK], SCHEMA, STATE)
    return priced_fields(BOOK, plan, SCHEMA, [QUOTE, BOOK], quotes, BOOK_TEXT, STATE)


def test_the_booking_plan_reads_counts_moves_and_the_seats_it_needs() -> None:
    plan = _plan()
    made = {e["op"]: e for e in plan.effects}
    assert made["repeat"] == {
        "op": "repeat",
        "field": "passes",
        "count": {"arg": "passengers", "default": 1},
        "fields": {
            "deck": {"from": "arg", "name": "deck"},
            "fare": {"from": "named", "param": "deck", "field": "fare"},
        },
        "sequence": {"field": "pass_id", "prefix": "PS-", "digits": 4},
    }
    moved = [(e["param"], e["field"], e["amount"]) for e in plan.effects if e["op"] == "entry_adjust"]
    assert moved == [("deck", "taken", {"arg": "passengers", "default": 1}), ("voucher", "uses", {"num": 1})]
    assert made["covers"]["figure"] == "seats_left" and made["covers"]["noun"] == "seats"
    assert plan.ref_sets == []  # "when every deck is then taken, the route becomes `closed`": not read
    assert plan.quote["assign"] == {"total": "total"}


def test_the_booking_runs_as_documented() -> None:
    plan = _plan()
    after = copy.deepcopy(STATE)
    after["routes"]["R1"]["decks"][0]["taken"] = 3
    after["vouchers"]["SEA5"]["uses"] = 3
    after["bookings"]["BK-03"] = {
        "booking_id": "BK-03",
        "route_id": "R1",
        "voucher": "SEA5",
        "passes": [
            {"pass_id": "PS-0008", "deck": "upper", "fare": 20.0},
            {"pass_id": "PS-0009", "deck": "upper", "fare": 20.0},
        ],
        "log": [{"step": "booked", "amount": 43.0}],
        "total": 43.0,
        "state": "held",
    }
    booked = Case(BOOK.name, "x", STATE, {"route_id": "R1", "deck": "upper", "passengers": 2, "voucher": "SEA5"})
    booked.expect_state, booked.has_expected_state = after, True
    full = Case(BOOK.name, "x", STATE, {"route_id": "R1", "deck": "car"}, expect_error=True)  # no seat left
    many = Case(BOOK.name, "x", STATE, {"route_id": "R1", "deck": "upper", "passengers": 4}, expect_error=True)
    source = render_tool(BOOK, plan, SCHEMA)
    res, err = run_cases(source, BOOK.name, [booked, full, many], SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 3, (err, [f.message for f in res.failures])


def test_what_is_left_alone() -> None:
    params = BOOK.parameters["properties"]
    quote = _plan().quote
    # a count that is no integer parameter, or a list the record does not have
    assert repeated_entries("holding `deck` new passes", "bookings", SCHEMA, params, quote, STATE) == []
    assert repeated_entries("holding `passengers` new berths", "bookings", SCHEMA, params, quote, STATE) == []
    # an entry field nothing gives a value (no parameter, nothing the quote reads, no sequence in the sample)
    bare = {**STATE, "bookings": {}}
    assert repeated_entries(BOOK_TEXT, "bookings", SCHEMA, params, quote, bare) == []
    # a move by an amount that is no parameter, or on a field that holds no number
    assert entry_moves("the deck's `taken` grows by several", SCHEMA, params, quote) == []
    assert entry_moves("the deck's `deck` grows by 1", SCHEMA, params, quote) == []
    # a bracket that names no figure the quote computes
    assert covered_counts("the deck must have enough seats left (seats - fare)", params, quote) == []
