"""A dog kennel's booking, priced as its quote prices a stay: the `charges` object holds the quote's figures of the
same names, the `loyalty` yes/no beside them says whether that figure is above 0, the quote's `loyalty_card`
switch is read from the owner named, the number of dogs defaults to the owner's, the owner's wallet pays first when
asked (min(wallet, total), recorded and deducted), and the log opens with a "booked" entry whose note the sample
bookings write (with a tail only while the wallet paid something). Its "Checks, in order:" list and the overlap
clause refuse what the docs refuse; a "Returned booking fields:" listing does not hold the gate back; a quote
"limited to 10 nights" refuses 11."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.create_checks import create_checks
from synth.envsynth.create_entries import opening_entries
from synth.envsynth.create_profile import profile_effects
from synth.envsynth.gate import _unset_documented_fields
from synth.envsynth.overlap_checks import overlap_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_reuse import priced_fields, sibling_quotes
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT, BOOL = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
DATE = {"type": "string", "format": "date"}
LOG = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"date": DATE, "event": {"type": "string", "x-enum": ["booked", "collected"]}, "note": S},
    },
}
BOOKING = {
    "booking_id": S,
    "owner_id": S,
    "kennel_id": S,
    "start": DATE,
    "end": DATE,
    "dogs": INT,
    "nights": INT,
    "status": {"type": "string", "x-enum": ["booked", "boarding", "collected", "cancelled"]},
    "charges": {"type": "object", "properties": {"base": N, "loyalty": N}},
    "loyalty": BOOL,
    "total": N,
    "wallet_used": N,
    "log": LOG,
}
OWNER = {
    "owner_id": S,
    "status": {"type": "string", "x-enum": ["active", "barred"]},
    "dogs": INT,
    "loyalty_card": BOOL,
    "wallet": N,
}
KENNEL = {
    "kennel_id": S,
    "status": {"type": "string", "x-enum": ["open", "closed"]},
    "nightly_rate": N,
    "capacity": INT,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "owners": collection(OWNER),
        "kennels": collection(KENNEL),
        "bookings": collection(BOOKING),
    },
}
QUOTE = ToolSpec(
    "quote_stay",
    "Price a stay at a kennel without booking it. Nothing is saved.\n\nHow the price is built:\n"
    "- base = nights x the kennel's nightly_rate.\n"
    "- loyalty: with a loyalty card, 10% off the base.\n"
    "- total = base - loyalty, rounded to cents.\n\n"
    "Returns {kennel_id, start, end, nights, nightly_rate, base, loyalty, total}.",
    {
        "type": "object",
        "properties": {
            "kennel_id": S,
            "start": {"type": "string", "description": "First night, YYYY-MM-DD."},
            "end": {"type": "string", "description": "Day the dogs go home, YYYY-MM-DD."},
            "loyalty_card": {"type": "boolean", "description": "Apply the loyalty card. Default false."},
        },
        "required": ["kennel_id", "start", "end"],
    },
)
BOOK_TEXT = (
    'Book a kennel for an owner\'s dogs. On success a new booking is stored with status "booked".\n\n'
    "Checks, in order: the owner and kennel exist; the owner's account is active; the kennel is not closed; end is "
    "after start and the stay is 10 nights or fewer; start is not before today's business date and not more than "
    "60 days ahead; the dogs fit the kennel's capacity; and no booked or boarding booking on the kennel overlaps "
    "the requested nights.\n\n"
    "Pricing follows quote_stay. The loyalty card on the owner's profile applies automatically.\n\n"
    "With use_wallet=true, the owner's wallet pays first: the amount used is min(wallet, total), recorded as "
    "wallet_used and deducted from the owner's wallet.\n\n"
    "Returned booking fields: booking_id, owner_id, kennel_id, start, end, dogs, nights, status, charges, loyalty, "
    'total, wallet_used, log (list of {date, event, note}; starts with a "booked" entry).'
)
BOOK = ToolSpec(
    "book_stay",
    BOOK_TEXT,
    {
        "type": "object",
        "properties": {
            "owner_id": S,
            "kennel_id": S,
            "start": S,
            "end": S,
            "dogs": {"type": "integer", "description": "Dogs staying. Defaults to the dogs on the owner's profile."},
            "use_wallet": {"type": "boolean", "description": "Pay from the wallet first. Default false."},
        },
        "required": ["owner_id", "kennel_id", "start", "end"],
    },
    mutates=True,
)
TODAY = "2033-03-01"


def _booking(key: str, kennel: str, start: str, end: str, nights: int, dogs: int, used: float) -> dict[str, Any]:
    note = f"{nights} night(s) for {dogs} dog(s)" + (f"; {used:.2f} from the wallet" if used else "")
    return {
        "booking_id": key,
        "owner_id": "W1",
        "kennel_id": kennel,
        "start": start,
        "end": end,
        "dogs": dogs,
        "nights": nights,
        "status": "booked",
        "charges": {"base": 20.0 * nights, "loyalty": 0.0},
        "loyalty": False,
        "total": 20.0 * nights,
        "wallet_used": used,
        "log": [{"date": "2033-02-01", "event": "booked", "note": note}],
    }


def _state() -> dict[str, Any]:
    return {
        "owners": {
            "W1": {"owner_id": "W1", "status": "active", "dogs": 2, "loyalty_card": True, "wallet": 30.0},
            "W2": {"owner_id": "W2", "status": "barred", "dogs": 1, "loyalty_card": False, "wallet": 0.0},
        },
        "kennels": {
            "K1": {"kennel_id": "K1", "status": "open", "nightly_rate": 20.0, "capacity": 3},
            "K2": {"kennel_id": "K2", "status": "closed", "nightly_rate": 25.0, "capacity": 4},
        },
        "bookings": {
            "B-101": _booking("B-101", "K1", "2033-03-10", "2033-03-13", 3, 2, 0.0),
            "B-102": _booking("B-102", "K1", "2033-03-20", "2033-03-22", 2, 1, 0.0),
            "B-103": _booking("B-103", "K1", "2033-04-01", "2033-04-03", 2, 3, 12.5),
        },
    }


def _plan() -> ToolPlan:
    base = ToolPlan(
        kind="create",
        collection="bookings",
        key_field="booking_id",
        fields=["owner_id", "kennel_id", "start", "end", "dogs"],
        id_type="pattern",
        key_format={"prefix": "B-", "digits": 3},
        ref_checks={"owner_id": "owners"},
        initial_values={"status": "booked"},
    )
    text = BOOK_TEXT + "\nThe business date is " + TODAY + "."
    plan = priced_fields(BOOK, base, SCHEMA, [QUOTE, BOOK], sibling_quotes([QUOTE], SCHEMA, _state()), text, _state())
    plan = profile_effects(BOOK, plan, SCHEMA, text)
    plan = opening_entries(BOOK, plan, SCHEMA, text, _state(), TODAY)
    plan = create_checks(BOOK, plan, SCHEMA, text, TODAY)
    own = SCHEMA["properties"]["bookings"]["additionalProperties"]["properties"]
    overlaps = overlap_checks(text, "bookings", own)
    return ToolPlan.from_dict({**plan.to_dict(), "checks": list(plan.checks) + overlaps})


def test_the_plan_reads_the_quote_the_profile_the_payment_the_entry_and_the_checks() -> None:
    plan = _plan()
    assert plan.quote["assign"]["charges"] == {"base": "base", "loyalty": "loyalty"}
    assert plan.quote["flags"] == {"loyalty": "loyalty"}
    assert plan.quote["profile"] == {"loyalty_card": ["owner_id", "owners", "loyalty_card"]}
    ops = [e["op"] for e in plan.effects]
    assert "profile_default" in ops and "pay_from" in ops and "append" in ops
    assert [c["op"] for c in plan.checks] == [
        "linked_state",
        "linked_state",
        "ordered",
        "bound",
        "dated",
        "dated",
        "capped",
        "overlap",
    ]
    assert plan.checks[1]["allowed"] == ["open"]  # "the kennel is not closed"
    assert plan.checks[5]["value"] == "2033-04-30"  # 60 days ahead


def test_booking_prices_pays_logs_and_refuses_as_documented() -> None:
    plan = _plan()

    def booked(start: str, end: str, nights: int, dogs: int, used: float) -> dict[str, Any]:
        out = _state()
        base = 20.0 * nights
        total = round(base - base * 0.1, 2)
        note = f"{nights} night(s) for {dogs} dog(s)" + (f"; {used:.2f} from the wallet" if used else "")
        out["bookings"]["B-104"] = {
            **copy.deepcopy(out["bookings"]["B-101"]),
            "booking_id": "B-104",
            "start": start,
            "end": end,
            "dogs": dogs,
            "nights": nights,
            "charges": {"base": base, "loyalty": base * 0.1},
            "loyalty": True,
            "total": total,
            "wallet_used": used,
            "log": [{"date": TODAY, "event": "booked", "note": note}],
        }
        out["owners"]["W1"]["wallet"] = round(30.0 - used, 2)
        return out

    good = {"owner_id": "W1", "kennel_id": "K1", "start": "2033-03-02", "end": "2033-03-05"}
    calls = [
        (good, booked("2033-03-02", "2033-03-05", 3, 2, 0)),  # two dogs, as the owner's profile says
        ({**good, "dogs": 3, "use_wallet": True}, booked("2033-03-02", "2033-03-05", 3, 3, 30.0)),
        ({**good, "end": "2033-03-03", "use_wallet": True}, booked("2033-03-02", "2033-03-03", 1, 2, 18.0)),
        ({**good, "owner_id": "W2"}, None),  # barred
        ({**good, "kennel_id": "K2"}, None),  # closed
        ({**good, "end": "2033-03-01"}, None),  # end not after start
        ({**good, "end": "2033-03-14"}, None),  # 12 nights
        ({**good, "start": "2033-02-27"}, None),  # before today
        ({**good, "start": "2033-05-02", "end": "2033-05-03"}, None),  # more than 60 days ahead
        ({**good, "dogs": 4}, None),  # more dogs than the kennel takes
        ({**good, "start": "2033-03-12", "end": "2033-03-14"}, None),  # overlaps B-101
    ]
    run_calls(BOOK, plan, SCHEMA, _state, calls)


def test_a_returned_fields_listing_says_nothing_about_how_fields_are_set() -> None:
    class Outcome:
        def __init__(self, state: dict[str, Any]) -> None:
            self.state_after = state

    class Case:
        state = _state()

    after = _state()
    after["bookings"]["B-104"] = {**after["bookings"]["B-101"], "booking_id": "B-104", "wallet_used": 0.0, "log": []}
    plan = {"kind": "create", "collection": "bookings", "key_field": "booking_id", "initial_values": {}}
    listed = ToolSpec(BOOK.name, "Book a kennel.\n\nReturned booking fields: wallet_used, log.", BOOK.parameters)
    assert _unset_documented_fields(listed, plan, [(Case(), Outcome(after))]) == []
    said = ToolSpec(BOOK.name, "Book a kennel. The wallet share is recorded as wallet_used.", BOOK.parameters)
    assert _unset_documented_fields(said, plan, [(Case(), Outcome(after))]) != []
    # a figure every stored booking holds, nonzero and varied, that a listing names: the real system works it out
    after["bookings"]["B-104"]["total"] = 0.0
    totals = ToolSpec(BOOK.name, "Book a kennel. A booking is {booking_id, total (the price), log}.", BOOK.parameters)
    assert _unset_documented_fields(totals, plan, [(Case(), Outcome(after))]) == [
        "the docs say how the new record's `total` is set; the plan leaves it blank"
    ]
    assert _unset_documented_fields(listed, plan, [(Case(), Outcome(after))]) == []  # the docs do not name it
    refused = ToolSpec(BOOK.name, 'Book a kennel. Errors: "Error: the wallet_used of <id> is spent".', BOOK.parameters)
    assert _unset_documented_fields(refused, plan, [(Case(), Outcome(after))]) == []  # an error's words set nothing


def test_a_quote_limited_to_n_nights_refuses_more() -> None:
    from synth.envsynth.formula_rules import quote_plan

    limited = ToolSpec(
        QUOTE.name, QUOTE.description + '\n\nErrors: "Error: stays are limited to 10 nights".', QUOTE.parameters
    )
    plan = quote_plan(limited, ToolPlan(kind="get"), SCHEMA, _state())
    assert plan.quote["guards"] == [{"figure": "nights", "op": "<=", "value": 10.0}]
    asked = {"kennel_id": "K1", "start": "2033-03-02"}
    run_calls(
        limited,
        plan,
        SCHEMA,
        _state,
        [({**asked, "end": "2033-03-12"}, _state()), ({**asked, "end": "2033-03-13"}, None)],
    )


def test_a_quote_with_a_figure_it_cannot_write_still_prices_a_create() -> None:
    from dataclasses import replace

    from synth.envsynth.formula_rules import quote_plan as plan_quote

    vague = replace(QUOTE, description=QUOTE.description.replace("total}", "total, remark}"))
    assert plan_quote(vague, ToolPlan(kind="get"), SCHEMA, _state()).kind == "get"  # the read itself is not planned
    quotes = sibling_quotes([vague], SCHEMA, _state())
    assert "remark" not in quotes["quote_stay"]["fields"] and "total" in quotes["quote_stay"]["fields"]
    base = ToolPlan(kind="create", collection="bookings", key_field="booking_id", fields=["owner_id", "kennel_id"])
    priced = priced_fields(BOOK, base, SCHEMA, [vague, BOOK], quotes, BOOK_TEXT, _state())
    assert priced.quote["assign"]["total"] == "total"
    vaguer = replace(QUOTE, description=QUOTE.description.replace("total}", "total, remark, surcharge}"))
    assert sibling_quotes([vaguer], SCHEMA, _state()) == {}  # two figures it cannot write: the pricing is not known
