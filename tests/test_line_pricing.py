"""A harbour berth quote the docs give as numbered lines: each berth line picks its mooring's night-rate band, adds a
catamaran factor and a linked harbour service, copies the mooring's name as its label and flags when the mooring's
free nights run out; a storm levy (a share with a floor) applies only when the call asks for storm cover, a club
rebate only for member skippers, a due date falls some days after the business date, every amount is rounded half
up, and lines or whole bookings the docs or records rule out are refused. Planned, rendered and run; each reader is
also shown not to fire when its wording is absent."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from synth.envsynth.figure_terms import definitions
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.percent_terms import floor_node, share_of_node
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass

S, N, INT, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}
MAYBE_N = {"type": ["number", "null"]}
BANDS = {"type": "array", "items": {"type": "object", "properties": {"min_nights": INT, "rate_per_night": N}}}
MOORING = {"mooring_id": S, "name": S, "rate_bands": BANDS, "free_nights": INT, "twin_hull": B, "active": B}
MOORING |= {"surface": S, "length_m": N}
SERVICE = {"code": S, "price_per_night": N, "setup_fee": N, "compatible_surfaces": {"type": ["array", "null"]}}
SERVICE |= {"min_length": MAYBE_N, "max_length": MAYBE_N}
SKIPPER = {"skipper_id": S, "name": S, "membership": {"type": "string", "enum": ["member", "visitor"]}, "rebate_pct": N}
STORED = {"type": "array", "items": {"type": "object", "properties": {"mooring_id": S, "label": S, "nights": INT}}}
SCHEMA = {
    "type": "object",
    "properties": {
        "moorings": collection(MOORING),
        "harbour_services": collection(SERVICE),
        "skippers": collection(SKIPPER),
        "charters": collection({"charter_id": S, "skipper_id": S, "berths": STORED}),
    },
}


def _mooring(mid: str, name: str, bands: list[tuple[int, float]], free: int, **more: Any) -> dict[str, Any]:
    rates = [{"min_nights": n, "rate_per_night": r} for n, r in bands]
    base = {"twin_hull": False, "active": True, "surface": "pontoon", "length_m": 12.0}
    return {"mooring_id": mid, "name": name, "rate_bands": rates, "free_nights": free, **base, **more}


def _service(code: str, rate: float, setup: float, surfaces: Any, low: Any, high: Any) -> dict[str, Any]:
    fits = {"compatible_surfaces": surfaces, "min_length": low, "max_length": high}
    return {"code": code, "price_per_night": rate, "setup_fee": setup, **fits}


def _stored(*lines: tuple[str, str, int]) -> list[dict[str, Any]]:
    return [{"mooring_id": m, "label": label, "nights": n} for m, label, n in lines]


STATE = {
    "moorings": {
        "M1": _mooring("M1", "North Pier 1", [(1, 30.0), (7, 24.99), (14, 20.0)], 20, twin_hull=True),
        "M2": _mooring("M2", "East Buoy 4", [(1, 18.5)], 10, surface="buoy"),
        "M3": _mooring("M3", "Old Slip", [(1, 10.0)], 30, active=False),
        "M4": _mooring("M4", "West Pier 2", [(1, 19.0)], 15, length_m=8.5),
        "M5": _mooring("M5", "Long Quay", [(1, 40.0)], 30, length_m=24.0),
    },
    "harbour_services": {
        "wash": _service("wash", 4.0, 12.5, None, None, None),
        "polish": _service("polish", 6.25, 30.0, ["pontoon"], 10.0, 20.0),
    },
    "skippers": {
        "SK1": {"skipper_id": "SK1", "name": "Ada", "membership": "member", "rebate_pct": 2.5},
        "SK2": {"skipper_id": "SK2", "name": "Bo", "membership": "visitor", "rebate_pct": 4.0},
    },
    "charters": {
        "C1": {"charter_id": "C1", "skipper_id": "SK1", "berths": _stored(("M1", "North Pier 1", 3))},
        "C2": {"charter_id": "C2", "skipper_id": "SK2", "berths": _stored(("M2", "East Buoy 4", 2))},
        "C3": {
            "charter_id": "C3",
            "skipper_id": "SK1",
            "berths": _stored(("M1", "North Pier 1", 1), ("M4", "West Pier 2", 4)),
        },
    },
}
DUE_ON = "2031-04-17"  # 7 days after the business date, for a standard booking
DATE = "The harbour's business date is 2031-04-10."
RETIRED = "Retired moorings cannot be booked."
NIGHT_RATE = (
    "1. Night rate: each mooring has rate bands (rate_bands). A line uses the band with the highest min_nights "
    "that is not above the line's own nights."
)
STORM = "5. Storm cover: storm_levy = 12% of the subtotal, at least 20.00."
REBATE = "6. Club rebate: for member skippers, rebate = rebate_pct% of the subtotal."
DUE = "due_on is 7 days after today for standard charters and 2 days for express charters."
DOCS = f"""Quote a berth booking for a skipper. Nothing is stored. {DATE}
{RETIRED}

{NIGHT_RATE}
2. berth_cost = nights x night rate, x 1.5 when the boat is a catamaran (hulls = 2).
3. service_cost = nights x the service's per-night rate + its setup fee (0 for "none").
4. line_total = berth_cost + service_cost. subtotal = sum of line totals.
{STORM}
{REBATE}
7. total = subtotal + storm_levy - rebate.

space_ok is false when the nights asked for that mooring across the whole booking exceed its free_nights.
{DUE}
A express booking may contain at most 30 nights across all lines.
All figures are rounded to the cent (half up).

Returns {{skipper_id, berths: [{{mooring_id, nights, hulls, service, label, night_rate, berth_cost, service_cost,
line_total, space_ok}}], subtotal, storm_levy, rebate, total, due_on}}."""
HULLS = "1 = monohull, 2 = catamaran (only on moorings with twin_hull = true)"
ELEMENT = {
    "mooring_id": S,
    "nights": INT,
    "hulls": {"type": "integer", "enum": [1, 2], "default": 1, "description": HULLS},
    "service": {"type": "string", "enum": ["none", "wash", "polish"], "default": "none"},
}
PARAMS = {
    "type": "object",
    "properties": {
        "skipper_id": S,
        "berths": {"type": "array", "items": {"type": "object", "properties": ELEMENT}},
        "express": {"type": "boolean", "default": False},
        "storm_cover": {"type": "boolean", "default": False},
    },
    "required": ["skipper_id", "berths"],
}


def _plan(docs: str = DOCS, params: dict[str, Any] = PARAMS, state: dict[str, Any] = STATE, **kw: Any) -> Any:
    return quote_plan(ToolSpec("quote_berths", docs, params), ToolPlan(kind="get"), SCHEMA, state, **kw)


def _answers(plan: Any, cases: list[tuple[dict[str, Any], Any]], docs: str = DOCS, params: dict = PARAMS) -> bool:
    return answers_pass(ToolSpec("quote_berths", docs, params), plan, SCHEMA, STATE, cases)


def _call(skipper: str, *lines: dict[str, Any], **flags: bool) -> dict[str, Any]:
    return {"skipper_id": skipper, "berths": list(lines), **flags}


def _line(mid: str, nights: int, rate: float, berth: float, extra: float, **more: Any) -> dict[str, Any]:
    shown = {"hulls": 1, "service": "none", "space_ok": True, **more}
    figures = {
        "night_rate": rate,
        "berth_cost": berth,
        "service_cost": extra,
        "line_total": round(berth + extra, 2),
    }
    return {"mooring_id": mid, "nights": nights, "label": STATE["moorings"][mid]["name"], **figures, **shown}


def _quote(skipper: str, lines: list[dict], figures: tuple[float, float, float, float], due: str) -> dict[str, Any]:
    names = ["subtotal", "storm_levy", "rebate", "total"]
    return {"skipper_id": skipper, "berths": lines, **dict(zip(names, figures)), "due_on": due}


def test_each_line_reads_its_band_factor_service_copy_and_space() -> None:
    plan = _plan()
    assert plan.kind == "quote"
    lines = dict(plan.quote["steps"])["berths"]["lines"]
    steps = dict(lines["steps"])
    assert steps["label"] == {"field": "name", "param": "mooring"}  # never defined: every stored entry copies it
    assert steps["night_rate"]["pick"] == {
        "param": "mooring",
        "list": "rate_bands",
        "by": "min_nights",
        "most": True,
        "cmp": "<=",
        "at": {"field": "nights", "param": "berth"},
        "value": "rate_per_night",
    }
    factor = steps["berth_cost"]["round"]["args"][1]
    assert factor["if_field"] == {"param": "berth", "field": "hulls", "in": [2]} and factor["then"] == {"num": 1.5}
    assert steps["service_cost"]["round"]["if_field"] == {"param": "berth", "field": "service", "in": ["none"]}
    assert steps["space_ok"]["args"][0]["across"]["of"] == "nights"  # a yes/no figure, never rounded
    assert steps["berth_cost"]["way"] == "half_up" and "round" not in steps["space_ok"]
    assert lines["element_links"] == {"service": "harbour_services"}
    assert lines["defaults"] == {"hulls": 1, "service": "none"}


def test_a_booking_is_priced_line_by_line_and_rounded_half_up_as_it_goes() -> None:
    plan = _plan()
    catamaran = {"mooring_id": "M1", "nights": 7, "hulls": 2, "service": "polish"}
    # the band from 7 nights: 7 x 24.99 x 1.5 = 262.395 -> 262.40 (round() gives 262.39); polish 7 x 6.25 + 30
    first = _line("M1", 7, 24.99, 262.4, 73.75, hulls=2, service="polish")
    second = _line("M2", 3, 18.5, 55.5, 0)  # defaults: one hull, no service
    # subtotal 391.65; storm 12% = 46.998 -> 47.00; member rebate 2.5% = 9.79125 -> 9.79
    member = _quote("SK1", [first, second], (391.65, 47.0, 9.79, 428.86), DUE_ON)
    washed = _line("M2", 2, 18.5, 37.0, 20.5, service="wash")  # 2 x 4 + 12.5
    visitor = _quote("SK2", [washed], (57.5, 0, 0, 57.5), "2031-04-12")  # no storm cover, no rebate; express
    floored = _quote("SK2", [_line("M2", 1, 18.5, 18.5, 0)], (18.5, 20.0, 0, 38.5), DUE_ON)  # 2.22 < 20
    half = _quote("SK1", [_line("M4", 3, 19.0, 57.0, 0)], (57.0, 0, 1.43, 55.57), DUE_ON)  # 1.425 -> 1.43
    # 14 nights are in the band from 14; 6 + 5 nights on M2 pass its 10 free nights: both lines say so
    crowded = [_line("M1", 14, 20.0, 280.0, 0), _line("M2", 6, 18.5, 111.0, 0, space_ok=False)]
    crowded.append(_line("M2", 5, 18.5, 92.5, 0, space_ok=False))
    full = _quote("SK2", crowded, (483.5, 0, 0, 483.5), DUE_ON)
    cases = [
        (_call("SK1", catamaran, {"mooring_id": "M2", "nights": 3}, storm_cover=True), member),
        (_call("SK2", {"mooring_id": "M2", "nights": 2, "service": "wash"}, express=True), visitor),
        (_call("SK2", {"mooring_id": "M2", "nights": 1}, storm_cover=True), floored),
        (_call("SK1", {"mooring_id": "M4", "nights": 3}), half),
        (_call("SK2", *[{"mooring_id": m, "nights": n} for m, n in [("M1", 14), ("M2", 6), ("M2", 5)]]), full),
    ]
    assert _answers(plan, cases)
    wrong = _quote("SK1", [_line("M4", 3, 19.0, 57.0, 0)], (57.0, 0, 1.42, 55.58), DUE_ON)  # a half down
    assert not _answers(plan, [cases[3][:1] + (wrong,)])


def test_shares_and_floors_of_the_subtotal() -> None:
    steps = dict(_plan().quote["steps"])
    levy = steps["storm_levy"]["round"]
    assert levy["when"] == {"arg": "storm_cover", "default": False, "in": [True]}  # the label names the flag
    share = {"op": "*", "args": [{"op": "/", "args": [{"num": 12}, {"num": 100}]}, {"val": "subtotal"}]}
    assert levy["then"] == {"op": "max", "args": [share, {"num": 20.0}]}
    rebate = steps["rebate"]["round"]
    assert rebate["if_field"] == {"param": "skipper_id", "field": "membership", "in": ["member"]}
    assert rebate["then"]["args"][0]["args"][0] == {"field": "rebate_pct", "param": "skipper_id"}
    parse = lambda text: {"val": text} if text in ("subtotal", "the subtotal") else None  # noqa: E731
    assert floor_node("subtotal, with a minimum of 15", parse) == {
        "op": "max",
        "args": [{"val": "subtotal"}, {"num": 15}],
    }
    assert share_of_node("12% of the subtotal (the levy is not discounted)", parse, lambda _: None)["args"][1] == {
        "val": "the subtotal"
    }
    assert floor_node("12% of the subtotal", parse) is None  # no floor said
    assert share_of_node("bonus_pct% of the subtotal", parse, lambda _: None) is None  # a share of nothing known
    assert floor_node("the mooring fund, at least 20.00", parse) is None  # a floor of nothing known


def test_a_share_or_floor_of_something_unknown_stays_unknown() -> None:
    odd = DOCS.replace("12% of the subtotal, at least 20.00", "12% of the harbour fund, at least 20.00")
    assert _plan(odd).kind == "get"
    partial = dict(_plan(odd, partial=True).quote["steps"])
    assert "storm_levy" not in partial and "rebate" in partial


UNKNOWN_PARTS = [
    pytest.param(
        "rebate_pct% of the subtotal",
        "bonus_pct% of the subtotal",
        "rebate",
        id="unknown-percent",
    ),
    pytest.param(
        "12% of the subtotal, at least 20.00",
        "12% of the subtotal, at least the harbour minimum",
        "storm_levy",
        id="floor-not-a-number",
    ),
]


@pytest.mark.parametrize(("said", "odd", "figure"), UNKNOWN_PARTS)
def test_a_formula_naming_something_unknown_is_not_read(said: str, odd: str, figure: str) -> None:
    assert figure not in dict(_plan(DOCS.replace(said, odd), partial=True).quote["steps"])


def test_a_remark_in_brackets_is_no_definition() -> None:
    said = (
        "Quote a berth. The subtotal (the storm levy is not rebated) is the sum of line totals; total = subtotal x 2."
    )
    spec = ToolSpec("quote_berth", said, PARAMS)
    assert definitions("subtotal", spec, "") == []
    assert definitions("total", spec, "") == ["subtotal x 2"]
    kept = ToolSpec("quote_berth", "The subtotal (nights x night rate) is shown.", PARAMS)
    assert definitions("subtotal", kept, "") == ["nights x night rate"]


def test_leads_naming_no_flag_or_value_leave_the_figure_unconditional() -> None:
    docs = DOCS.replace("Storm cover: storm_levy", "Harbour dues: storm_levy")
    docs = docs.replace("for member skippers, rebate", "for gold skippers, rebate")  # no field holds "gold"
    plan = _plan(docs)
    steps = dict(plan.quote["steps"])
    assert "when" not in steps["storm_levy"]["round"] and "if_field" not in steps["rebate"]["round"]
    # the levy's floor with no storm cover asked, the visitor's 4% rebate: 18.5 x 0.04 = 0.74
    floored = _quote("SK2", [_line("M2", 1, 18.5, 18.5, 0)], (18.5, 20.0, 0.74, 37.76), DUE_ON)
    assert _answers(plan, [(_call("SK2", {"mooring_id": "M2", "nights": 1}), floored)], docs)


def test_due_dates_count_days_from_the_business_date() -> None:
    one = [{"mooring_id": "M2", "nights": 1}]
    by_enum = copy.deepcopy(PARAMS)
    del by_enum["properties"]["express"]
    by_enum["properties"]["pace"] = {"type": "string", "enum": ["standard", "express"], "default": "standard"}
    plan = _plan(params=by_enum)
    assert dict(plan.quote["steps"])["due_on"]["days_after"]["when"] == {
        "arg": "pace",
        "default": "standard",
        "in": ["express"],
    }
    line = [_line("M2", 1, 18.5, 18.5, 0)]
    cases = [
        (
            {"skipper_id": "SK2", "berths": one, "pace": "express"},
            _quote("SK2", line, (18.5, 0, 0, 18.5), "2031-04-12"),
        ),
        ({"skipper_id": "SK2", "berths": one}, _quote("SK2", line, (18.5, 0, 0, 18.5), DUE_ON)),
    ]
    assert _answers(plan, cases, params=by_enum)
    fixed = DOCS.replace(DUE, "due_on is 14 days after today.").replace(DATE, "")
    plan = _plan(fixed, policy=DATE)  # the business date stated in the policy
    assert dict(plan.quote["steps"])["due_on"] == {"days_after": {"num": 14}, "today": "2031-04-10"}
    late = _quote("SK2", line, (18.5, 0, 0, 18.5), "2031-04-24")
    assert _answers(plan, [(_call("SK2", *one, express=True), late)], fixed)
    assert _plan(DOCS.replace(DATE, "")).kind == "get"  # no business date: no due date


def test_lines_the_docs_or_records_rule_out_are_refused() -> None:
    plan = _plan()
    checks = [c["said"] for c in dict(plan.quote["steps"])["berths"]["lines"]["checks"]]
    assert checks == [
        "2 = catamaran (only on moorings with twin_hull = true)",
        "Retired moorings",
        "service needs a listed surface",
        "service needs max length",
        "service needs min length",
    ]
    refused = [
        {"mooring_id": "M2", "nights": 2, "hulls": 2},  # no twin hull
        {"mooring_id": "M3", "nights": 2},  # retired
        {"mooring_id": "M2", "nights": 2, "service": "polish"},  # a buoy: polish lists pontoons only
        {"mooring_id": "M4", "nights": 2, "service": "polish"},  # 8.5 m, under polish's 10 m
        {"mooring_id": "M5", "nights": 2, "service": "polish"},  # 24 m, over polish's 20 m
    ]
    washed = _line("M4", 2, 19.0, 38.0, 20.5, service="wash")  # wash lists no surfaces nor lengths
    cases = [(_call("SK2", {"mooring_id": "M1", "nights": 1}, one), None) for one in refused]
    cases.append((_call("SK2", {**refused[3], "service": "wash"}), _quote("SK2", [washed], (58.5, 0, 0, 58.5), DUE_ON)))
    assert _answers(plan, cases)
    loose = copy.deepcopy(PARAMS)
    loose["properties"]["berths"]["items"]["properties"]["hulls"]["description"] = "1 = monohull, 2 = catamaran"
    docs = DOCS.replace(RETIRED, "")
    plan = _plan(docs, loose)  # nothing said: a catamaran on a buoy, an old slip, are priced
    assert [c["said"] for c in dict(plan.quote["steps"])["berths"]["lines"]["checks"]] == checks[2:]
    cat = _line("M2", 2, 18.5, 55.5, 0, hulls=2)  # 2 x 18.5 x 1.5
    slip = _line("M3", 2, 10.0, 20.0, 0)
    priced = [
        (_call("SK2", refused[0]), _quote("SK2", [cat], (55.5, 0, 0, 55.5), DUE_ON)),
        (_call("SK2", refused[1]), _quote("SK2", [slip], (20.0, 0, 0, 20.0), DUE_ON)),
    ]
    assert _answers(plan, priced, docs, loose)


def test_an_express_booking_is_capped_across_all_its_lines() -> None:
    plan = _plan()
    over = [{"mooring_id": "M1", "nights": 16}, {"mooring_id": "M4", "nights": 15}]  # 31 nights
    at = [{"mooring_id": "M1", "nights": 15}, {"mooring_id": "M4", "nights": 15}]
    twice = [_line("M1", 16, 20.0, 320.0, 0), _line("M4", 15, 19.0, 285.0, 0)]
    slow = _quote("SK2", twice, (605.0, 0, 0, 605.0), DUE_ON)  # no express: no cap
    thirty = [_line("M1", 15, 20.0, 300.0, 0), _line("M4", 15, 19.0, 285.0, 0)]
    fast = _quote("SK2", thirty, (585.0, 0, 0, 585.0), "2031-04-12")  # 30 nights: within the cap
    cases = [
        (_call("SK2", *over, express=True), None),
        (_call("SK2", *over), slow),
        (_call("SK2", *at, express=True), fast),
    ]
    assert _answers(plan, cases)


def test_a_label_too_few_stored_entries_show_is_not_copied() -> None:
    state = copy.deepcopy(STATE)
    state["charters"]["C3"]["berths"] = []  # two stored entries left
    assert _plan(state=state).kind == "get"
    assert "lines" not in dict(_plan(state=state, partial=True).quote["steps"])["berths"]  # only echoed
    renamed = copy.deepcopy(STATE)
    renamed["charters"]["C2"]["berths"][0]["label"] = "Buoy four"  # one entry does not copy the name
    assert _plan(state=renamed).kind == "get"
    assert _plan(DOCS.replace(NIGHT_RATE, "1. Night rate: see the harbour office.")).kind == "get"


def test_a_factor_on_a_call_parameter_applies() -> None:
    params = copy.deepcopy(PARAMS)
    params["properties"]["season"] = {"type": "string", "enum": ["low", "high"], "default": "low"}
    docs = DOCS.replace("when the boat is a catamaran (hulls = 2)", "when the season is high (season = high)")
    plan = _plan(docs, params)
    assert plan.kind == "quote"
    high = _quote("SK2", [_line("M2", 2, 18.5, 55.5, 0)], (55.5, 0, 0, 55.5), DUE_ON)
    call = {"skipper_id": "SK2", "berths": [{"mooring_id": "M2", "nights": 2}], "season": "high"}
    assert _answers(plan, [(call, high)], docs, params)
