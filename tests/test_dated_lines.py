"""A marina berth quote priced night by night: each night at the berth class's rate for the tide band of the period
that contains it, a club discount from a table of percents taken off the subtotal, a levy charged on the discounted
total, and a total the docs leave to the reader; planned, rendered and run."""

from __future__ import annotations

from typing import Any

from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass

S, N, D = {"type": "string"}, {"type": "number"}, {"type": "string", "format": "date"}
RATES = {"type": "object", "properties": {"low": N, "mid": N, "peak": N}}
SCHEMA = {
    "type": "object",
    "properties": {
        "berth_classes": collection({"berth_class_id": S, "name": S, "rates": RATES}),
        "periods": collection({"period_id": S, "name": S, "starts": S, "ends": S, "tide_band": S}),
        "skippers": collection({"skipper_id": S, "name": S, "club_tier": S}),
    },
}


def _period(pid: str, starts: str, ends: str, band: str) -> dict[str, Any]:
    return {"period_id": pid, "name": pid.lower(), "starts": starts, "ends": ends, "tide_band": band}


STATE = {
    "berth_classes": {
        "BC1": {"berth_class_id": "BC1", "name": "pontoon", "rates": {"low": 40.0, "mid": 55.5, "peak": 71.25}},
        "BC2": {"berth_class_id": "BC2", "name": "swing", "rates": {"low": 12.0, "mid": 15.0, "peak": 19.99}},
    },
    "periods": {
        "P1": _period("P1", "2030-01-01", "2030-05-31", "low"),
        "P2": _period("P2", "2030-06-01", "2030-06-30", "mid"),
        "P3": _period("P3", "2030-07-01", "2030-08-31", "peak"),
        "P4": _period("P4", "2030-09-01", "2030-12-31", "mid"),
    },
    "skippers": {
        "SK1": {"skipper_id": "SK1", "name": "Ada", "club_tier": "silver"},
        "SK2": {"skipper_id": "SK2", "name": "Bo", "club_tier": "gold"},
        "SK3": {"skipper_id": "SK3", "name": "Cy", "club_tier": "none"},
    },
}
TEXT = (
    "Prices a berth stay without booking it. Each night (from the arrival date up to, not including, the departure "
    "date) is priced at the berth class's rate for the tide band (`low`, `mid`, `peak`) of the period that contains "
    "the night. When `skipper_id` is given, the skipper's club discount (silver 5%, gold 10%) is taken off the berth "
    "subtotal. Harbour levy (the marina's levy rate, 8%) is charged on the discounted berth total. Amounts are "
    "rounded to cents at each step.\n\nErrors: 400: a night with no period."
)
LINE = {"type": "object", "properties": {"date": D, "tide_band": S, "rate": N}}
ANSWER = {
    "type": "object",
    "properties": {
        "berth_class_id": S,
        "arrival": D,
        "departure": D,
        "nights": {"type": "integer"},
        "nightly": {"type": "array", "items": LINE},
        "berth_subtotal": N,
        "discount": N,
        "berth_total": N,
        "levy": N,
        "total": N,
    },
}
PARAMS = {
    "type": "object",
    "properties": {"berth_class_id": S, "arrival": D, "departure": D, "skipper_id": S},
    "required": ["berth_class_id", "arrival", "departure"],
}
QUOTE = ToolSpec("quote_berth_stay", TEXT, PARAMS, returns=ANSWER)


def _quote(berth: str, arrival: str, departure: str, nightly: list[tuple[str, str, float]], **figures: float) -> dict:
    lines = [{"date": d, "tide_band": b, "rate": r} for d, b, r in nightly]
    stay = {"berth_class_id": berth, "arrival": arrival, "departure": departure, "nights": len(lines)}
    return {**stay, "nightly": lines, **figures}


def _answers(plan: ToolPlan, calls: list[tuple[dict[str, Any], Any]]) -> bool:
    return answers_pass(QUOTE, plan, SCHEMA, STATE, calls)


def test_each_night_is_priced_by_the_period_that_contains_it() -> None:
    plan = quote_plan(QUOTE, ToolPlan(kind="get"), SCHEMA, STATE, "")
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    lines = steps["nightly"]["dated_lines"]
    assert (lines["collection"], lines["start"], lines["end"], lines["day"]) == ("periods", "starts", "ends", "date")
    assert dict(lines["steps"])["rate"] == {
        "field": "rates",
        "param": "berth_class_id",
        "at_field": ["period", "tide_band"],
    }
    across = [("2030-06-29", "mid", 55.5), ("2030-06-30", "mid", 55.5), ("2030-07-01", "peak", 71.25)]
    # 182.25 - 10% = 18.225 -> 18.23 off, 164.02; levy 8% = 13.1216 -> 13.12; total 177.14
    gold = _quote("BC1", "2030-06-29", "2030-07-02", across, berth_subtotal=182.25, discount=18.23, berth_total=164.02)
    gold.update(levy=13.12, total=177.14)
    plain = _quote("BC2", "2030-12-31", "2031-01-01", [("2030-12-31", "mid", 15.0)], berth_subtotal=15.0)
    plain.update(discount=0, berth_total=15.0, levy=1.2, total=16.2)
    untiered = {**plain, "discount": 0}  # a tier the table does not list takes nothing off
    stay = {"berth_class_id": "BC1", "arrival": "2030-06-29", "departure": "2030-07-02"}
    assert _answers(
        plan,
        [
            ({**stay, "skipper_id": "SK2"}, gold),
            ({"berth_class_id": "BC2", "arrival": "2030-12-31", "departure": "2031-01-01"}, plain),
            (
                {"berth_class_id": "BC2", "arrival": "2030-12-31", "departure": "2031-01-01", "skipper_id": "SK3"},
                untiered,
            ),
            ({"berth_class_id": "BC2", "arrival": "2031-01-01", "departure": "2031-01-03"}, None),  # no period
            ({**stay, "berth_class_id": "BC9"}, None),
        ],
    )
    assert not _answers(plan, [({**stay, "skipper_id": "SK2"}, {**gold, "discount": 18.22})])


def test_an_exclusive_period_end_is_read_from_the_sample() -> None:
    touching = {  # each period ends on the day the next starts: the end day belongs to the next one
        "P1": _period("P1", "2030-01-01", "2030-06-01", "low"),
        "P2": _period("P2", "2030-06-01", "2031-01-01", "peak"),
    }
    state = {**STATE, "periods": touching}
    plan = quote_plan(QUOTE, ToolPlan(kind="get"), SCHEMA, state, "")
    assert plan.quote["steps"][4][1]["dated_lines"]["end_exclusive"] is True
    night = _quote("BC2", "2030-06-01", "2030-06-02", [("2030-06-01", "peak", 19.99)], berth_subtotal=19.99)
    night.update(discount=0, berth_total=19.99, levy=1.6, total=21.59)
    call = {"berth_class_id": "BC2", "arrival": "2030-06-01", "departure": "2030-06-02"}
    assert answers_pass(QUOTE, plan, SCHEMA, state, [(call, night)])


def test_without_a_covering_record_or_a_keyed_rate_nothing_is_guessed() -> None:
    vague = ToolSpec("quote_berth_stay", TEXT.replace("of the period that contains the night", "by the tide"), PARAMS)
    vague = ToolSpec(vague.name, vague.description, PARAMS, returns=ANSWER)
    assert "nightly" not in dict(
        quote_plan(vague, ToolPlan(kind="get"), SCHEMA, STATE, "", partial=True).quote["steps"]
    )
    flat = {**STATE, "berth_classes": {k: {**v, "rates": 40.0} for k, v in STATE["berth_classes"].items()}}
    partial = quote_plan(QUOTE, ToolPlan(kind="get"), SCHEMA, flat, "", partial=True)
    assert "nightly" not in dict(partial.quote["steps"])  # a rate that is no map keyed by the bands
