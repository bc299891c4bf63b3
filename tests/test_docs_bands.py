"""A marina's `release_berth(booking_id, reason)`, as its docs word it: the refund comes from a table of day bands
("by whole days from today's business date to the launch date, computed on the booking fee: 10 days or more: the
fee minus a 5.00 handling charge; 4 to 9 days: 25% of the fee; fewer than 4 days: nothing"), is stored in
`refund` and added to the skipper's `wallet`; a booking whose launch date has passed cannot be released; the
"(including harbour dues)" aside moves nothing; the reason goes to the log only, in a log note whose parts the docs
list and whose form the one released sample shows. And a late fee in
fixed amounts by days since a due date."""

from __future__ import annotations

from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.docs_bands import banded_figures
from synth.envsynth.expr_runtime import fg_evaluate
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, NUM = {"type": "string"}, {"type": "number"}
DATE = {"type": "string", "format": "date"}
BOOKING = {
    "booking_id": S,
    "skipper_id": S,
    "launch": DATE,
    "status": {"type": "string", "x-enum": ["held", "released", "sailed"]},
    "fee": NUM,
    "refund": NUM,
    "dues": {"type": "object", "properties": {"harbour": NUM}},
    "log": {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"date": DATE, "event": {"type": "string", "x-enum": ["held", "released"]}, "note": S},
        },
    },
}
SKIPPER = {"skipper_id": S, "name": S, "wallet": NUM}
SCHEMA = {"type": "object", "properties": {"bookings": collection(BOOKING), "skippers": collection(SKIPPER)}}
RELEASE = ToolSpec(
    "release_berth",
    "Release a held booking and credit the refund to the skipper (never to a card). Released or sailed bookings "
    "cannot be released, and neither can a held one whose launch date has already passed.\n\n"
    "Refund, by whole days from today's business date to the launch date, computed on the booking fee "
    "(including harbour dues):\n"
    "- 10 days or more: the fee minus a 5.00 handling charge (never below 0);\n"
    "- 4 to 9 days: 25% of the fee;\n"
    "- fewer than 4 days: nothing.\n\n"
    "Effects: status becomes `released`, refund is set, the refund is added to the skipper's wallet, and a "
    '"released" log entry records the reason, the days before launch and the refund.',
    {
        "type": "object",
        "properties": {
            "booking_id": S,
            "reason": {"type": "string", "description": 'Short note for the log. Defaults to "skipper request".'},
        },
        "required": ["booking_id"],
    },
    mutates=True,
)
POLICY = (
    "The business date for the marina is **2032-05-10**.\n\n"
    "- Refund by days from today to the launch date, on the booking fee:\n"
    "  10 or more days: fee minus a $5.00 charge; 4 to 9 days: 25%; under 4 days: nothing.\n"
)


def _booking(key: str, launch: str, fee: float, status: str = "held") -> dict[str, Any]:
    return {
        "booking_id": key,
        "skipper_id": "K1",
        "launch": launch,
        "status": status,
        "fee": fee,
        "refund": 0.0,
        "dues": {"harbour": 3.0},
        "log": [],
    }


def _state() -> dict[str, Any]:
    return {
        "skippers": {"K1": {"skipper_id": "K1", "name": "Oda", "wallet": 10.0}},
        "bookings": {
            "B1": _booking("B1", "2032-05-30", 84.0),  # 20 days ahead
            "B2": _booking("B2", "2032-05-16", 84.5),  # 6 days ahead
            "B3": _booking("B3", "2032-05-12", 84.0),  # 2 days ahead
            "B4": _booking("B4", "2032-05-08", 84.0),  # passed
            "B5": {
                **_booking("B5", "2032-04-01", 60.0, "released"),
                "refund": 55.0,
                "log": [
                    {
                        "date": "2032-03-20",
                        "event": "released",
                        "note": "skipper request; 12 day(s) before launch, 55.00 credited",
                    }
                ],
            },
        },
    }


def test_the_band_table_sets_the_refund_and_moves_the_wallet() -> None:
    effects = banded_figures(RELEASE.description + "\n" + POLICY, "bookings", SCHEMA, "2032-05-10")
    assert [(e["op"], e.get("field") or e["collection"]) for e in effects] == [
        ("set", "refund"),
        ("adjust", "skippers"),
    ]
    band = effects[0]["source"]["expr"]["plus"][0]["band"]
    assert (band["date"], band["of"], band["since"]) == (["launch"], ["fee"], False)
    assert band["steps"] == [
        {"lo": 10, "hi": None, "share": 1.0, "minus": 5.0},
        {"lo": 4, "hi": 9, "share": 0.25, "minus": 0.0},
        {"lo": 0, "hi": 3, "share": 0.0, "minus": 0.0},
    ]
    expr = effects[0]["source"]["expr"]
    refunds = {k: fg_evaluate(expr, {}, b, {}) for k, b in _state()["bookings"].items()}
    assert refunds["B1"] == 79.0 and refunds["B2"] == 21.12 and refunds["B3"] == 0


def test_without_a_business_date_or_a_date_field_no_table_is_read() -> None:
    assert banded_figures(RELEASE.description, "bookings", SCHEMA, None) == []
    undated = RELEASE.description.replace("the launch date", "the day it starts")
    assert banded_figures(undated, "bookings", SCHEMA, "2032-05-10") == []


def test_fixed_amounts_counted_since_a_due_date() -> None:
    loan = {"loan_id": S, "due_date": DATE, "late_fee": NUM}
    schema = {"type": "object", "properties": {"loans": collection(loan)}}
    text = "Late fee, by whole days since the due date: 1 to 7 days: 5.00; 8 days or more: 12.50."
    (effect,) = banded_figures(text, "loans", schema, "2032-05-10")
    expr = effect["source"]["expr"]
    fees = [fg_evaluate(expr, {}, {"due_date": d}, {}) for d in ("2032-05-10", "2032-05-05", "2032-04-01")]
    assert effect["field"] == "late_fee" and fees == [0, 5.0, 12.5]


def test_releasing_refunds_by_band_and_refuses_a_passed_launch() -> None:
    base = ToolPlan(kind="update", collection="bookings", key_field="booking_id", key_param="booking_id")
    state = _state()
    plan = docs_transition(RELEASE, base, SCHEMA, POLICY, list(state["bookings"].values()), state)
    assert plan is not None
    assert not any("reason" in str(e.get("field")) for e in plan.effects)  # the log note shows it
    assert not any("dues" in str(e.get("path")) for e in plan.effects)  # "(including harbour dues)"
    plan = allowed_checks(RELEASE, plan, SCHEMA, RELEASE.description, "2032-05-10")
    assert {"op": "dated", "field": "launch", "cmp": ">=", "value": "2032-05-10"} in plan.checks

    def released(key: str, refund: float, note: str) -> dict[str, Any]:
        out = _state()
        out["bookings"][key].update(status="released", refund=refund)
        out["bookings"][key]["log"].append({"date": "2032-05-10", "event": "released", "note": note})
        out["skippers"]["K1"]["wallet"] = round(10.0 + refund, 2)
        return out

    calls = [
        (
            {"booking_id": "B1", "reason": "engine trouble"},
            released("B1", 79.0, "engine trouble; 20 day(s) before launch, 79.00 credited"),
        ),
        ({"booking_id": "B2"}, released("B2", 21.12, "skipper request; 6 day(s) before launch, 21.12 credited")),
        ({"booking_id": "B3"}, released("B3", 0, "skipper request; 2 day(s) before launch, 0.00 credited")),
        ({"booking_id": "B4"}, None),  # launch date passed
        ({"booking_id": "B5"}, None),  # already released
    ]
    run_calls(RELEASE, plan, SCHEMA, _state, calls)


def test_a_listed_part_found_twice_or_not_at_all_learns_no_text() -> None:
    from synth.envsynth.date_runtime import fg_day_number
    from synth.envsynth.listed_entries import listed_text

    params = RELEASE.parameters["properties"]
    booking = {**_booking("B9", "2032-04-01", 60.0, "released"), "refund": 12.0}
    day = fg_day_number("2032-03-20")
    what = "the reason, the days before launch and the refund"
    note = "skipper request; 12 day(s) before launch, 12.00 credited"
    found = listed_text(what, note.replace("12.00", "11.00"), booking, day, params, BOOKING, "2032-05-10")
    assert found is None  # the refund is not in the text
    twice = listed_text(what, note.replace("12.00", "12"), booking, day, params, BOOKING, "2032-05-10")
    assert twice is None  # "12" is both the days and the refund: no one reading
    booking["refund"] = 55.0
    learned = listed_text(what, note.replace("12.00", "55.00"), booking, day, params, BOOKING, "2032-05-10")
    assert learned is not None and [p for p in learned["parts"] if isinstance(p, str)] == [
        "; ",
        " day(s) before launch, ",
        " credited",
    ]
