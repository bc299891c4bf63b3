"""A quote whose lines are another collection's records naming the quoted record (a tool hire desk's late
returns): records kept by state and by a date before the business date, whole days since that date, a capped rate
per day, the documented order, and a sum over the lines; and what is left unplanned."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.expr_runtime import fg_formula
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S, N = {"type": "string"}, {"type": "number"}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {
    "type": "object",
    "properties": {
        "renters": _collection({"renter_id": S, "deposit_held": N}),
        "hires": _collection(
            {
                "hire_id": S,
                "renter_id": {"type": "string", "x-references": "renters"},
                "state": {"type": "string", "x-enum": ["out", "back", "written_off"]},
                "return_by": S,
            }
        ),
    },
}
STATE = {
    "renters": {"RN-1": {"renter_id": "RN-1", "deposit_held": 12.5}, "RN-2": {"renter_id": "RN-2", "deposit_held": 0}},
    "hires": {
        "H9": {"hire_id": "H9", "renter_id": "RN-1", "state": "out", "return_by": "2030-06-01"},  # 9 days late
        "H2": {"hire_id": "H2", "renter_id": "RN-1", "state": "out", "return_by": "2030-05-01"},  # 40 days: capped
        "H3": {"hire_id": "H3", "renter_id": "RN-1", "state": "back", "return_by": "2030-05-01"},  # returned
        "H4": {"hire_id": "H4", "renter_id": "RN-1", "state": "out", "return_by": "2030-06-10"},  # due today
        "H5": {"hire_id": "H5", "renter_id": "RN-2", "state": "out", "return_by": "2030-06-01"},  # someone else's
    },
}
TEXT = (
    "Works out a renter's late charges as of today (2030-06-10); nothing is charged. For each out hire past its "
    "return by: days_late and the charge levied so far (1.50 per day, at most 20.00 per hire). Returns {renter_id, "
    "deposit_held, late_hires (list of {hire_id, days_late, charge}, ordered by hire_id), charge_total, "
    "still_owed (charge_total - deposit_held)}."
)
SPEC = ToolSpec("late_charges", TEXT, {"type": "object", "properties": {"renter_id": S}, "required": ["renter_id"]})


def test_lines_over_the_late_hires_of_a_renter() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get", collection="renters"), SCHEMA, STATE)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    related = steps["late_hires"]["related"]
    assert (related["collection"], related["link"], related["holder"]) == ("hires", "renter_id", "renter_id")
    assert related["where"] == {"state": ["out"]} and related["before_today"] == "return_by"
    assert related["order"] == "hire_id" and related["today"] == "2030-06-10"
    assert steps["charge_total"] == {"sum": "late_hires", "of": "charge"}
    expected = {
        "renter_id": "RN-1",
        "deposit_held": 12.5,
        "late_hires": [
            {"hire_id": "H2", "days_late": 40, "charge": 20.0},
            {"hire_id": "H9", "days_late": 9, "charge": 13.5},
        ],
        "charge_total": 33.5,
        "still_owed": 21.0,
    }
    nothing = {"renter_id": "RN-2", "deposit_held": 0, "late_hires": [], "charge_total": 0, "still_owed": 0}
    cases = []
    for arguments, result in (
        ({"renter_id": "RN-1"}, expected),
        ({"renter_id": "RN-2"}, None),
        ({"renter_id": "X"}, None),
    ):
        case = Case(SPEC.name, "x", STATE, arguments, expect_error=arguments["renter_id"] == "X")
        case.expect_result, case.has_expected_result = result, result is not None
        cases.append(case)
    cases[1].state = {**STATE, "hires": {k: v for k, v in STATE["hires"].items() if k != "H5"}}
    cases[1].expect_result, cases[1].has_expected_result = nothing, True
    res, err = run_cases(render_tool(SPEC, plan, SCHEMA), SPEC.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 3, (err, [f.message for f in res.failures])


def test_days_since_a_date_and_what_stays_unplanned() -> None:
    node = {"days_since": "return_by", "param": "hire", "today": "2030-03-01"}
    assert fg_formula(node, {}, {"hire": {"return_by": "2030-02-27"}}, {}) == 2  # across the end of February
    assert fg_formula(node, {}, {"hire": {"return_by": "soon"}}, {}) is None
    # no business date, a state no field holds, or a charge the docs give no rate for: no quote
    for text in (
        TEXT.replace(" as of today (2030-06-10)", ""),
        TEXT.replace("each out hire", "each lent hire"),
        TEXT.replace(" (1.50 per day, at most 20.00 per hire)", ""),
    ):
        spec = ToolSpec("late_charges", text, SPEC.parameters)
        assert quote_plan(spec, ToolPlan(kind="get", collection="renters"), SCHEMA, STATE).kind == "get"
