"""A quote whose lines are another collection's records naming the quoted record (a paddling club's kayaks kept
too long): records kept by state and by a date the business date has passed, whole days since that date, a capped
rate per day, the documented sort order, and a sum over the lines; and what is left unplanned."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

S, N = {"type": "string"}, {"type": "number"}


SCHEMA = {
    "type": "object",
    "properties": {
        "paddlers": _collection({"paddler_id": S, "credit_held": N}),
        "kayaks": _collection(
            {
                "kayak_id": S,
                "paddler_id": {"type": "string", "x-references": "paddlers"},
                "state": {"type": "string", "x-enum": ["afloat", "racked", "sunk"]},
                "due_back": S,
            }
        ),
    },
}
STATE = {
    "paddlers": {
        "PD-1": {"paddler_id": "PD-1", "credit_held": 12.5},
        "PD-2": {"paddler_id": "PD-2", "credit_held": 0},
    },
    "kayaks": {
        "K9": {"kayak_id": "K9", "paddler_id": "PD-1", "state": "afloat", "due_back": "2030-06-01"},  # 9 days over
        "K2": {"kayak_id": "K2", "paddler_id": "PD-1", "state": "afloat", "due_back": "2030-05-01"},  # 40: capped
        "K3": {"kayak_id": "K3", "paddler_id": "PD-1", "state": "racked", "due_back": "2030-05-01"},  # back on the rack
        "K4": {"kayak_id": "K4", "paddler_id": "PD-1", "state": "afloat", "due_back": "2030-06-10"},  # due today
        "K5": {"kayak_id": "K5", "paddler_id": "PD-2", "state": "afloat", "due_back": "2030-06-01"},  # another's
    },
}
TEXT = (
    "Tallies what a paddler owes for kayaks kept out too long; it charges nothing. Days count up to the system date, "
    "2030-06-10. A line is made for every afloat kayak whose `due_back` has passed: its days_over since that date, and "
    "surcharge = 1.25 per day, capped at 30.00 per kayak. Returns {paddler_id, credit_held, overdue_kayaks (sorted "
    "by kayak_id), late_owed, net_owed}; every overdue kayak has {kayak_id, days_over, surcharge}. "
    "late_owed adds up the surcharge of every line, and net_owed = late_owed - credit_held."
)
SPEC = ToolSpec(
    "kayak_surcharges", TEXT, {"type": "object", "properties": {"paddler_id": S}, "required": ["paddler_id"]}
)


def test_lines_over_the_overdue_kayaks_of_a_paddler() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get", collection="paddlers"), SCHEMA, STATE)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    related = steps["overdue_kayaks"]["related"]
    assert (related["collection"], related["link"], related["holder"]) == ("kayaks", "paddler_id", "paddler_id")
    assert related["where"] == {"state": ["afloat"]} and related["before_today"] == "due_back"
    assert related["order"] == "kayak_id" and related["today"] == "2030-06-10"
    assert steps["late_owed"] == {"sum": "overdue_kayaks", "of": "surcharge"}
    expected = {
        "paddler_id": "PD-1",
        "credit_held": 12.5,
        "overdue_kayaks": [
            {"kayak_id": "K2", "days_over": 40, "surcharge": 30.0},
            {"kayak_id": "K9", "days_over": 9, "surcharge": 11.25},
        ],
        "late_owed": 41.25,
        "net_owed": 28.75,
    }
    nothing = {"paddler_id": "PD-2", "credit_held": 0, "overdue_kayaks": [], "late_owed": 0, "net_owed": 0}
    cases = []
    for arguments, result in (
        ({"paddler_id": "PD-1"}, expected),
        ({"paddler_id": "PD-2"}, None),
        ({"paddler_id": "X"}, None),
    ):
        case = Case(SPEC.name, "x", STATE, arguments, expect_error=arguments["paddler_id"] == "X")
        case.expect_result, case.has_expected_result = result, result is not None
        cases.append(case)
    cases[1].state = {**STATE, "kayaks": {k: v for k, v in STATE["kayaks"].items() if k != "K5"}}
    cases[1].expect_result, cases[1].has_expected_result = nothing, True
    res, err = run_cases(render_tool(SPEC, plan, SCHEMA), SPEC.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 3, (err, [f.message for f in res.failures])


def test_days_since_a_date_and_what_stays_unplanned() -> None:
    node = {"days_since": "due_back", "param": "kayak", "today": "2030-03-01"}
    assert fg_formula(node, {}, {"kayak": {"due_back": "2030-02-27"}}, {}) == 2  # across the end of February
    assert fg_formula(node, {}, {"kayak": {"due_back": "soon"}}, {}) is None
    # no business date, a state no field holds, or a surcharge the docs give no rate for: no quote
    for text in (
        TEXT.replace(" Days count up to the system date, 2030-06-10.", ""),
        TEXT.replace("every afloat kayak", "every beached kayak"),
        TEXT.replace(", and surcharge = 1.25 per day, capped at 30.00 per kayak", ""),
    ):
        assert text != TEXT
        spec = ToolSpec("kayak_surcharges", text, SPEC.parameters)
        assert quote_plan(spec, ToolPlan(kind="get", collection="paddlers"), SCHEMA, STATE).kind == "get"
