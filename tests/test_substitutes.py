"""A record a quote prices in place of the one its records link (substitutes.py: read_swap, swapped_steps), read
from the docs' "when ..., the twin is priced instead (`swapped` = true)" and run in the rendered tool; with the
argument that defaults to a field of the record a participle names (quote_scope._participle_default) and the bound
"must be between 1 and <n> (the chartered crew)" (listed_refusals.bound_refusals)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.listed_refusals import bound_refusals
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_scope import _participle_default, _Scope, _scope
from synth.envsynth.substitutes import read_swap
from synth.sandbox import run_cases
from synth.spec import ToolSpec

S = {"type": "string"}
HULL_KEY = "^H\\d+$"


def _collection(props: dict[str, Any], key: str, pattern: str | None = None) -> dict[str, Any]:
    out = {"type": "object", "additionalProperties": {"type": "object", "properties": props}, "x-key-field": key}
    return {**out, "propertyNames": {"pattern": pattern}} if pattern else out


CHARTER = {
    "charter_id": S,
    "hull_id": {"type": "string", "x-references": "hulls"},
    "crew": {"type": "integer"},
    "fixed_hull": {"type": "boolean"},
}
HULL = {
    "hull_id": S,
    "twin_id": {"type": "string", "pattern": HULL_KEY},
    "berths": {"type": "integer"},
    "day_rate": {"type": "number"},
}
COLS = {"charters": _collection(CHARTER, "charter_id"), "hulls": _collection(HULL, "hull_id", HULL_KEY)}
SCHEMA = {"type": "object", "properties": COLS}
SWAP = (
    "When `swap` is true (default), the charter is not `fixed_hull`, the hull is a cruiser with a `twin_id`, and that "
    "twin has enough `berths` for the crew, the twin is priced instead (`swapped` = true)."
)
TEXT = (
    "Quotes a charter and changes nothing. " + SWAP + " total = day_rate x days. "
    "Returns {charter_id, booked_hull_id, hull_id, swapped, crew, day_rate, days, total}."
)
PARAMS = {
    "type": "object",
    "properties": {
        "charter_id": S,
        "days": {"type": "integer", "default": 1},
        "crew": {"type": "integer", "description": "How many sail; defaults to the chartered crew."},
        "swap": {"type": "boolean", "default": True},
    },
    "required": ["charter_id"],
}
QUOTE = ToolSpec("quote_charter", TEXT, PARAMS)
GET = ToolPlan(kind="get", collection="charters", key_param="charter_id")


def _charter(key: str, hull: str, crew: int, fixed: bool = False) -> dict[str, Any]:
    return {"charter_id": key, "hull_id": hull, "crew": crew, "fixed_hull": fixed}


def _hull(key: str, twin: str | None, berths: int, rate: float) -> dict[str, Any]:
    return {"hull_id": key, "twin_id": twin, "berths": berths, "day_rate": rate}


STATE = {
    "charters": {
        "C1": _charter("C1", "H1", 5),
        "C2": _charter("C2", "H1", 4, fixed=True),  # the charter keeps its hull
        "C3": _charter("C3", "H2", 3),  # a hull with no twin
        "C4": _charter("C4", "H3", 2),  # a twin that is not on file
        "C5": _charter("C5", "H1", 8),  # the twin sleeps 6
    },
    "hulls": {
        "H1": _hull("H1", "H2", 8, 200.0),
        "H2": _hull("H2", None, 6, 150.0),
        "H3": _hull("H3", "H9", 4, 90.0),
    },
}


def _answers(spec: ToolSpec, plan: ToolPlan, calls: list[dict[str, Any]]) -> list[Any]:
    """The rendered tool's answer to each call on STATE, or ("error", text) for a call it refuses."""
    source = render_tool(spec, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    outcomes = run_cases(module, [{"function": spec.name, "state": STATE, "arguments": a} for a in calls])
    return [o.result if o.status == "ok" else ("error", o.status, o.error) for o in outcomes]


def _priced(charter: str, booked: str, hull: str, crew: int, rate: float, days: int = 1) -> dict[str, Any]:
    return {
        "charter_id": charter,
        "booked_hull_id": booked,
        "hull_id": hull,
        "swapped": hull != booked,
        "crew": crew,
        "day_rate": rate,
        "days": days,
        "total": rate * days,
    }


def test_the_swap_and_its_answer_fields_are_planned() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    assert plan.kind == "quote"
    swap = plan.quote["swap"]["hull_id"]
    assert (swap["link"], swap["collection"], swap["field"], swap["flag"]) == ("hull_id", "hulls", "twin_id", "swapped")
    crew = {"arg": "crew", "default": None, "default_field": ["charter_id", "crew"]}
    assert swap["when"] == [
        {"test": {"arg": "swap", "default": True}, "in": [True]},
        {"test": {"field": "fixed_hull", "param": "charter_id"}, "in": [False, None]},
        {"set": {"field": "twin_id", "param": "hull_id"}},
        {"op": ">=", "args": [{"field": "berths", "param": "hull_id~alternate"}, crew]},
    ]
    steps = dict(plan.quote["steps"])
    assert steps["swapped"] == {"val": "hull_id~swapped"}
    assert steps["hull_id"] == {"field": "hull_id", "param": "hull_id"}  # the key of the record priced
    assert steps["booked_hull_id"] == {"field": "hull_id", "param": "charter_id"}  # the one the charter names
    assert steps["crew"] == crew  # "defaults to the chartered crew"
    assert plan.quote["linked"] == {"hull_id": ["charter_id", "hull_id", "hulls"]}


def test_the_twin_is_priced_when_every_condition_holds() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    got = _answers(QUOTE, plan, [{"charter_id": "C1", "days": 2}, {"charter_id": "C1", "crew": 6}])
    assert got == [_priced("C1", "H1", "H2", 5, 150.0, 2), _priced("C1", "H1", "H2", 6, 150.0)]


def test_the_booked_hull_is_kept_when_a_condition_fails() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    calls = [
        {"charter_id": "C1", "swap": False},  # the argument says no
        {"charter_id": "C2"},  # the charter is `fixed_hull`
        {"charter_id": "C3"},  # no twin
        {"charter_id": "C4"},  # a twin not on file
        {"charter_id": "C5"},  # the twin's 6 berths do not sleep the chartered crew of 8
        {"charter_id": "C1", "crew": 7},  # nor a crew of 7 the call names
    ]
    assert _answers(QUOTE, plan, calls) == [
        _priced("C1", "H1", "H1", 5, 200.0),
        _priced("C2", "H1", "H1", 4, 200.0),
        _priced("C3", "H2", "H2", 3, 150.0),
        _priced("C4", "H3", "H3", 2, 90.0),
        _priced("C5", "H1", "H1", 8, 200.0),
        _priced("C1", "H1", "H1", 7, 200.0),
    ]


def test_a_condition_that_does_not_read_gives_no_swap() -> None:
    odd = SWAP.replace("the charter is not `fixed_hull`", "the skipper is `cheerful`")
    spec = replace(QUOTE, description=TEXT.replace(SWAP, odd))
    scope = _scope(spec, COLS, STATE)
    assert read_swap(scope, COLS, {"crew": {"arg": "crew"}}, ["swapped", "crew"]) is None
    plan = quote_plan(spec, GET, SCHEMA, STATE)
    assert "swap" not in (plan.quote or {}) and plan.kind == "get"  # `swapped` answers nothing it can read


def test_a_swap_needs_its_flag_answered_and_an_id_field_of_the_same_collection() -> None:
    scope = _scope(QUOTE, COLS, STATE)
    steps = {"crew": {"arg": "crew"}}
    assert read_swap(scope, COLS, steps, ["swapped", "crew"])["link"] == "hull_id"
    assert read_swap(scope, COLS, steps, ["crew"]) is None  # `swapped` is no answer field
    for twin in (HULL["twin_id"], S):  # no key pattern: `twin_id` may name anything
        loose = {**COLS, "hulls": _collection({**HULL, "twin_id": twin}, "hull_id")}
        assert read_swap(_scope(QUOTE, loose, STATE), loose, steps, ["swapped", "crew"]) is None
    assert read_swap(scope, COLS, {}, ["swapped", "crew"]) is None  # "enough ... for the crew": no crew figure


def _scope_of(named: dict[str, str], fields: dict[str, dict[str, Any]]) -> _Scope:
    return _Scope(params={}, named=named, fields=fields)


def test_a_participle_default_reads_the_field_of_the_record_it_names() -> None:
    hours = {"hours": {"type": "number"}}
    scope = _scope_of({"booking_id": "bookings", "skipper_id": "skippers"}, {"booking_id": hours, "skipper_id": {}})
    assert _participle_default("Defaults to the booked hours.", scope) == {"default_field": ["booking_id", "hours"]}
    assert _participle_default("Defaults to the moored `hours`", scope) == {}  # no mooring record
    assert _participle_default("The booked hours.", scope) == {}  # no default said
    both = _scope_of({"booking_id": "bookings", "skipper_id": "skippers"}, {"booking_id": hours, "skipper_id": hours})
    assert _participle_default("Defaults to the booked hours.", both) == {}  # another record holds it too


BOUND = " `crew` must be between 1 and <n> (the chartered crew)."


def test_a_crew_outside_the_chartered_bound_is_refused() -> None:
    spec = replace(QUOTE, description=TEXT + BOUND)
    plan = quote_plan(spec, GET, SCHEMA, STATE)
    crew = dict(plan.quote["steps"])["crew"]
    low, high = (
        {"op": "<", "args": [crew, {"num": 1}]},
        {"op": ">", "args": [crew, {"field": "crew", "param": "charter_id"}]},
    )
    assert plan.quote["refusals"] == [{"when": {"any": [low, high]}, "said": BOUND.strip().rstrip(".")}]
    got = _answers(spec, plan, [{"charter_id": "C1", "crew": 6}, {"charter_id": "C1", "crew": 0}, {"charter_id": "C1"}])
    assert got[0][:2] == ("error", "tool_error") and "chartered crew" in got[0][2]
    assert got[1][:2] == ("error", "tool_error")
    assert got[2] == _priced("C1", "H1", "H2", 5, 150.0)  # the chartered crew itself is within


def test_a_bound_naming_no_record_or_no_figure_gives_no_refusal() -> None:
    quote = {"named": {"charter_id": "charters"}, "steps": [["crew", {"arg": "crew"}]]}
    assert bound_refusals("`crew` must be between 1 and <n> (the moored crew).", quote, COLS) == []
    assert bound_refusals("`days` must be between 1 and <n> (the chartered crew).", quote, COLS) == []
    found = bound_refusals("`crew` must be between 2 and <n> (the chartered crew).", quote, COLS)
    assert found[0]["when"]["any"][0] == {"op": "<", "args": [{"arg": "crew"}, {"num": 2}]}
