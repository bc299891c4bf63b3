"""A berth stay booked and priced exactly as its quote prices it (test_dated_lines.py's night-by-night quote), with
the limits its own docs put on it: at most 14 nights, an arrival not before the business date and a berth of the
class left on every night; starting values
in prose ("empty extras", "a first log entry (...)"). Planned from the docs, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_reuse import priced_fields, sibling_quotes
from synth.spec import ToolSpec
from tests import test_dated_lines as quoted
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, D = {"type": "string"}, {"type": "number"}, {"type": "string", "format": "date"}
ENTRY = {"type": "object", "properties": {"date": S, "from": {"type": ["string", "null"]}, "to": S}}
STAY = {
    "stay_id": S,
    "skipper_id": {"type": "string", "x-references": "skippers"},
    "berth_class_id": {"type": "string", "x-references": "berth_classes"},
    "arrival": S,
    "departure": S,
    "guests": {"type": "integer"},
    "status": {"type": "string", "x-enum": ["booked", "moored", "left"]},
    "berth_total": N,
    "levy": N,
    "total": N,
    "extras": {"type": "array"},
    "log": {"type": "array", "items": ENTRY},
}
SCHEMA = copy.deepcopy(quoted.SCHEMA)
SCHEMA["properties"]["stays"] = collection(STAY)
BERTH = {"berth_id": S, "berth_class_id": S, "status": {"type": "string", "x-enum": ["open", "closed"]}}
SCHEMA["properties"]["berths"] = collection(BERTH)
TODAY = "2030-06-01"
TEXT = (
    "Books a berth class for a skipper for `guests` people. The arrival date must not be before the marina's "
    "business date and the departure must be after the arrival (at most 14 nights). A berth class is available "
    "when, for every night of the stay, the number of its berths that are not `closed` exceeds the number of "
    "`booked` or `moored` stays of that class covering the night.\n\nThe new stay gets the "
    "next id (`ST-` followed by the highest number plus one), status `booked`, empty extras, and a first log "
    "entry (`from` null, `to` `booked`, dated the business date). `berth_total`, `levy` and `total` are "
    "priced exactly as quote_berth_stay does with the skipper's club discount."
)
POLICY = f"The marina's business date is {TODAY}."
PARAMS = {
    "type": "object",
    "properties": {"skipper_id": S, "berth_class_id": S, "arrival": D, "departure": D, "guests": {"type": "integer"}},
    "required": ["skipper_id", "berth_class_id", "arrival", "departure", "guests"],
}
BOOK = ToolSpec("book_berth_stay", TEXT, PARAMS)


def _state() -> dict[str, Any]:
    berths = {"B1": ("BC1", "open"), "B2": ("BC1", "closed"), "B3": ("BC2", "open"), "B4": ("BC2", "open")}
    held = {"stay_id": "ST-1", "skipper_id": "SK1", "berth_class_id": "BC1", "guests": 1, "status": "booked"}
    held.update(arrival="2030-07-03", departure="2030-07-05", berth_total=0, levy=0, total=0, extras=[], log=[])
    return {
        **copy.deepcopy(quoted.STATE),
        "berths": {b: {"berth_id": b, "berth_class_id": c, "status": st} for b, (c, st) in berths.items()},
        "stays": {"ST-1": held},
    }


def _plan() -> ToolPlan:
    base = ToolPlan(
        kind="create",
        collection="stays",
        key_field="stay_id",
        fields=["skipper_id", "berth_class_id", "arrival", "departure", "guests"],
        id_type="pattern",
        key_format={"prefix": "ST-", "digits": 1},
    )
    text = TEXT + "\n" + POLICY
    plan = refine_create(BOOK, base, SCHEMA, text, TODAY, _state(), POLICY)
    quotes = sibling_quotes([quoted.QUOTE], SCHEMA, _state(), POLICY)
    return priced_fields(BOOK, plan, SCHEMA, [quoted.QUOTE, BOOK], quotes, text, _state(), TODAY)


def test_the_stay_is_priced_as_quoted_within_its_own_limits() -> None:
    plan = _plan()
    assert plan.quote["assign"] == {"berth_total": "berth_total", "levy": "levy", "total": "total"}
    kinds = ["date" if g.get("date") else g["figure"] for g in plan.quote["guards"]]
    assert sorted(kinds) == ["date", "nights"]
    (capacity,) = [c for c in plan.checks if c["op"] == "capacity"]
    assert (capacity["units"], capacity["unit_out"], capacity["where"]) == (
        "berths",
        {"status": ["closed"]},
        {"status": ["booked", "moored"]},
    )

    def booked(call: dict[str, Any], berth_total: float, levy: float, total: float) -> dict[str, Any]:
        out = _state()
        stay = {"stay_id": "ST-2", **call, "status": "booked", "extras": []}
        stay["log"] = [{"from": None, "to": "booked", "date": TODAY}]
        out["stays"]["ST-2"] = {**stay, "berth_total": berth_total, "levy": levy, "total": total}
        return out

    stay = {"skipper_id": "SK2", "berth_class_id": "BC1", "arrival": "2030-06-29", "departure": "2030-07-02"}
    calls = [
        ({**stay, "guests": 4}, booked({**stay, "guests": 4}, 164.02, 13.12, 177.14)),
        ({**stay, "arrival": "2030-05-31", "guests": 2}, None),  # before the business date
        ({**stay, "departure": "2030-07-20", "guests": 2}, None),  # 21 nights
        ({**stay, "departure": "2030-07-04", "guests": 2}, None),  # the one open BC1 berth is held on the 3rd
    ]
    run_calls(BOOK, plan, SCHEMA, _state, calls)


def test_a_span_is_the_fields_named_with_a_start_and_an_end_word() -> None:
    from synth.envsynth.overlap_checks import span_fields

    assert span_fields({"arrival_day": S, "departure_day": S, "note": S}) == {
        "start": "arrival_day",
        "end": "departure_day",
    }
    assert span_fields({"arrival_day": S, "arrival_note": S, "departure_day": S}) is None  # two could start it
