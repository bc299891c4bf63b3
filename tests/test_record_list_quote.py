"""A firing's cost computed from its own records: lines over the glazes the firing holds, priced from the glaze
catalogue ("glazes (unit price x quantity for each glaze on the firing)"); labour at the hourly rate of the linked
potter's grade, a table inside the formula's brackets ("hours x the hourly rate of the potter's grade: junior 20,
senior 30, master 45"); a flat fee for one kind of firing; hours that default to the firing's own; and a total the
docs open with "Cost =", its terms named by the figures' own words. A list the record holds whose lines compute
nothing stays the list as stored."""

from __future__ import annotations

from typing import Any

from synth.envsynth.figure_terms import definitions
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass

S, N = {"type": "string"}, {"type": "number"}
LINE = {"type": "array", "items": {"type": "object", "properties": {"glaze_id": S, "quantity": {"type": "integer"}}}}
FIRING = {
    "firing_id": S,
    "potter_id": {"type": "string", "x-references": "potters"},
    "kind": S,
    "labour_hours": N,
    "glazes": LINE,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "firings": collection(FIRING),
        "potters": collection({"potter_id": S, "grade": S}),
        "glazes": collection({"glaze_id": S, "name": S, "unit_price": N}),
    },
}


def _firing(key: str, potter: str, kind: str, hours: float, glazes: list[tuple[str, int]]) -> dict[str, Any]:
    lines = [{"glaze_id": g, "quantity": q} for g, q in glazes]
    return {"firing_id": key, "potter_id": potter, "kind": kind, "labour_hours": hours, "glazes": lines}


STATE = {
    "firings": {
        "F1": _firing("F1", "P1", "raku", 2.5, [("G1", 3), ("G2", 1)]),
        "F2": _firing("F2", "P2", "standard", 1, []),
    },
    "potters": {"P1": {"potter_id": "P1", "grade": "junior"}, "P2": {"potter_id": "P2", "grade": "master"}},
    "glazes": {
        "G1": {"glaze_id": "G1", "name": "Celadon", "unit_price": 4.25},
        "G2": {"glaze_id": "G2", "name": "Tenmoku", "unit_price": 3.1},
    },
}
DOC = (
    "Compute the cost of a firing. Cost = glazes (unit price x quantity for each glaze on the firing) + labour "
    "(hours x the hourly rate of the potter's grade: junior 20, senior 30, master 45) + a 15 flat-rate call-out fee "
    "for raku firings. Returns {firing_id, potter_id, grade, glazes: [{glaze_id, quantity, unit_price, line_total}], "
    "glazes_total, labour_hours, labour_rate, labour_total, callout_fee, total}. Errors: 'Error: firing <id> not "
    "found'."
)
HOURS = {"type": "number", "description": "Hours of labour. Defaults to the firing's labour_hours."}
SPEC = ToolSpec(
    "cost_firing",
    DOC,
    {"type": "object", "properties": {"firing_id": S, "labour_hours": HOURS}, "required": ["firing_id"]},
)


def test_the_total_and_the_labour_read_their_formulas() -> None:
    assert definitions("total", SPEC, "") == [
        "glazes (unit price x quantity for each glaze on the firing) + labour (hours x the hourly rate of the potter's "
        "grade: junior 20, senior 30, master 45) + a 15 flat-rate call-out fee for raku firings"
    ]
    assert definitions("labour_total", SPEC, "") == [
        "hours x the hourly rate of the potter's grade: junior 20, senior 30, master 45"
    ]
    assert definitions("glazes_total", SPEC, "") == []  # "for each glaze": a line's formula, not the total's


def test_the_cost_is_computed_from_the_firings_own_records() -> None:
    plan = quote_plan(SPEC, ToolPlan(kind="get"), SCHEMA, STATE, "")
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["glazes"]["lines"]["holder"] == "firing_id"
    assert steps["labour_hours"]["default_field"] == ["firing_id", "labour_hours"]
    assert steps["callout_fee"]["if_field"] == {"param": "firing_id", "field": "kind", "in": ["raku"]}

    def cost(firing: str, lines: list[dict[str, Any]], hours: float, rate: float, fee: float) -> dict[str, Any]:
        glazes = round(sum(line["line_total"] for line in lines), 2)
        record = STATE["firings"][firing]
        grade = STATE["potters"][record["potter_id"]]["grade"]
        labour = round(hours * rate, 2)
        head = {"firing_id": firing, "potter_id": record["potter_id"], "grade": grade, "glazes": lines}
        figures = {"glazes_total": glazes, "labour_hours": hours, "labour_rate": rate, "labour_total": labour}
        return {**head, **figures, "callout_fee": fee, "total": round(glazes + labour + fee, 2)}

    g1 = {"glaze_id": "G1", "quantity": 3, "unit_price": 4.25, "line_total": 12.75}
    g2 = {"glaze_id": "G2", "quantity": 1, "unit_price": 3.1, "line_total": 3.1}
    cases = [
        ({"firing_id": "F1"}, cost("F1", [g1, g2], 2.5, 20, 15)),  # the firing's own hours
        ({"firing_id": "F1", "labour_hours": 1}, cost("F1", [g1, g2], 1, 20, 15)),
        ({"firing_id": "F2"}, cost("F2", [], 1, 45, 0)),
        ({"firing_id": "F9"}, None),
    ]
    assert answers_pass(SPEC, plan, SCHEMA, STATE, cases)


def test_a_stored_list_whose_lines_compute_nothing_is_echoed() -> None:
    plain = DOC.replace("glazes (unit price x quantity for each glaze on the firing) + ", "").replace(
        "glazes: [{glaze_id, quantity, unit_price, line_total}]", "glazes: [{glaze_id, quantity}]"
    )
    spec = ToolSpec("cost_firing", plain, SPEC.parameters)
    plan = quote_plan(spec, ToolPlan(kind="get"), SCHEMA, STATE, "", partial=True)
    assert dict(plan.quote["steps"]).get("glazes") == {"field": "glazes", "param": "firing_id"}
