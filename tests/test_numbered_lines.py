"""A kiln firing levy the docs give as numbered lines, each rounded to the cent: a table by the kiln's size, a tiered
percent of its load value, a percent of an earlier line for some clay bodies, a fee while the studio the kiln links is
in a shared space, a percent of the sum of lines 1 to 4, and a total summing the lines; planned, rendered and run.
A line whose text is of no known form stays unknown rather than guessed from its name."""

from __future__ import annotations

from typing import Any

from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.numbered_lines import numbered_lines, numbered_names
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass

S, N = {"type": "string"}, {"type": "number"}
KILN = {"kiln_id": S, "size": S, "body": S, "load_value": N, "studio_id": {"type": "string", "x-references": "studios"}}
SCHEMA = {
    "type": "object",
    "properties": {
        "kilns": collection(KILN),
        "studios": collection({"studio_id": S, "shared_space": {"type": "boolean"}}),
    },
}


def _kiln(kiln_id: str, size: str, body: str, load: float, studio: str) -> dict[str, Any]:
    return {"kiln_id": kiln_id, "size": size, "body": body, "load_value": load, "studio_id": studio}


STATE = {
    "kilns": {
        "K1": _kiln("K1", "small", "stoneware", 1500.0, "ST1"),
        "K2": _kiln("K2", "large", "raku", 400.0, "ST2"),
        "K3": _kiln("K3", "medium", "porcelain", 1234.56, "ST2"),
        "K4": _kiln("K4", "small", "earthenware", 100.0, "ST2"),
    },
    "studios": {
        "ST1": {"studio_id": "ST1", "shared_space": True},
        "ST2": {"studio_id": "ST2", "shared_space": False},
    },
}
LINES = """Quote the firing levy of a kiln. Nothing is stored.

The levy is the sum of five lines, each rounded to the cent (half up):
1. `base_fee` by kiln size: small 20, medium 35, large 50.
2. `energy_levy`: 2% of the first 1,000 of load_value plus 1% of the part
   above 1,000.
3. `glaze_fee`: 40% of the energy levy for stoneware and porcelain;
   0 for the other bodies.
4. `studio_fee`: 15 when the studio is in a shared space, else 0.
5. `service_charge`: 10% of the sum of lines 1 to 4.

`total` is the sum of the five lines. Example: a small stoneware kiln at 1,500 in a shared space:
20 + 25 + 10 + 15 + 7 = 77.

Returns {kiln_id, size, load_value, base_fee, energy_levy, glaze_fee, studio_fee, service_charge, total}."""
QUOTE = ToolSpec("quote_firing", LINES, {"type": "object", "properties": {"kiln_id": S}, "required": ["kiln_id"]})


def _answers(spec: ToolSpec, plan: ToolPlan, cases: list[tuple[str, dict[str, Any] | None]]) -> bool:
    return answers_pass(spec, plan, SCHEMA, STATE, [({"kiln_id": kiln}, expected) for kiln, expected in cases])


def _levy(kiln: str, lines: list[float], total: float) -> dict[str, Any]:
    record = STATE["kilns"][kiln]
    names = ["base_fee", "energy_levy", "glaze_fee", "studio_fee", "service_charge"]
    echoed = {"kiln_id": kiln, "size": record["size"], "load_value": record["load_value"]}
    return {**echoed, **dict(zip(names, lines)), "total": total}


def test_the_lines_are_read_in_order_with_their_rounding_and_total() -> None:
    lines = numbered_lines(LINES)
    assert lines is not None
    assert lines.names() == ["base_fee", "energy_levy", "glaze_fee", "studio_fee", "service_charge"]
    assert lines.text_of("energy_levy") == "2% of the first 1000 of load_value plus 1% of the part above 1000"
    assert lines.text_of("base_fee") is None  # a "by" line is a table, read as tables are
    assert lines.rounding == {"digits": 2, "way": "half_up"}
    assert lines.total == "total"
    assert numbered_names(LINES) == {"energy_levy", "glaze_fee", "studio_fee", "service_charge", "total"}
    assert numbered_lines("1. `a`: 2 x b.\nNothing else.") is None


def test_each_line_is_computed_as_its_text_says() -> None:
    plan = quote_plan(QUOTE, ToolPlan(kind="get"), SCHEMA, STATE, "")
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["studio_fee"]["round"]["if_field"] == {"param": "studio_id", "field": "shared_space", "in": [True]}
    assert steps["glaze_fee"]["round"]["if_field"]["in"] == ["stoneware", "porcelain"]
    assert _answers(
        QUOTE,
        plan,
        [
            ("K1", _levy("K1", [20, 25, 10, 15, 7], 77)),
            ("K2", _levy("K2", [50, 8, 0, 0, 5.8], 63.8)),
            ("K3", _levy("K3", [35, 22.35, 8.94, 0, 6.63], 72.92)),  # 22.3456 -> 22.35, 6.629 -> 6.63
            ("K9", None),
        ],
    )
    wrong = _levy("K1", [20, 25, 10, 0, 5.5], 60.5)
    assert not _answers(QUOTE, plan, [("K1", wrong)])


def test_a_line_of_no_known_form_stays_unknown() -> None:
    odd = LINES.replace("15 when the studio is in a shared space, else 0", "15 on alternate thursdays")
    spec = ToolSpec("quote_firing", odd, QUOTE.parameters)
    assert quote_plan(spec, ToolPlan(kind="get"), SCHEMA, STATE, "").kind == "get"  # not a table guessed by "fee"
    partial = quote_plan(spec, ToolPlan(kind="get"), SCHEMA, STATE, "", partial=True)
    assert "studio_fee" not in dict(partial.quote["steps"])


PLAN_BANDS = {
    "type": "array",
    "items": {"type": "object", "properties": {"up_to": {"type": ["number", "null"]}, "rate": N}},
}
METERED = {
    "type": "object",
    "properties": {
        "kilns": collection(
            {"kiln_id": S, "last_meter": {"type": "integer"}, "plan_id": {"type": "string", "x-references": "plans"}}
        ),
        "plans": collection({"plan_id": S, "standing_charge": N, "tax_rate": N, "bands": PLAN_BANDS}),
    },
}
BANDS = [{"up_to": 100, "rate": 0.5}, {"up_to": 300, "rate": 0.3}, {"up_to": None, "rate": 0.2}]
METER_STATE = {
    "kilns": {
        "K1": {"kiln_id": "K1", "last_meter": 1000, "plan_id": "P1"},
        "K2": {"kiln_id": "K2", "last_meter": 500, "plan_id": "P1"},
        "K3": {"kiln_id": "K3", "last_meter": 10, "plan_id": "P2"},
    },
    "plans": {
        "P1": {"plan_id": "P1", "standing_charge": 10.0, "tax_rate": 0.05, "bands": BANDS},
        "P2": {"plan_id": "P2", "standing_charge": 0.05, "tax_rate": 0.1, "bands": [{"up_to": None, "rate": 0.5}]},
    },
}
GAS = ToolSpec(
    "estimate_gas",
    "Estimate the gas bill of a kiln from its `last_meter` and a given `meter` reading. Nothing is stored.\n\n"
    "How the bill is computed: 1. `burned = meter - last_meter`. 2. `gas_charge`: burned is split into bands. Each "
    "band bills burned up to its `up_to` limit (cumulative) at its rate; the last band bills everything above. The "
    "sum is rounded to the cent. 3. `subtotal = standing_charge + gas_charge`; `tax = subtotal × tax rate`, rounded "
    "to the cent (half a cent rounds up); `total = subtotal + tax`.\n\n"
    "Returns {kiln_id, previous_meter, meter, burned, standing_charge, gas_charge, tax, total}.",
    {"type": "object", "properties": {"kiln_id": S, "meter": {"type": "integer"}}, "required": ["kiln_id", "meter"]},
)


def test_formulas_numbered_in_one_paragraph_with_a_step_not_shown_and_banded_rates() -> None:
    plan = quote_plan(GAS, ToolPlan(kind="get"), METERED, METER_STATE, "")
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["previous_meter"] == {"field": "last_meter", "param": "kiln_id"}  # "previous" is "last"
    assert steps["gas_charge"]["round"]["tiers"] == {
        "param": "plan_id",
        "field": "bands",
        "limit": "up_to",
        "rate": "rate",
    }
    assert "subtotal" in steps and "subtotal" not in plan.quote["fields"]
    assert steps["tax"]["way"] == "half_up"

    def bill(kiln: str, meter: int, figures: list[float]) -> tuple[dict[str, Any], dict[str, Any]]:
        record = METER_STATE["kilns"][kiln]
        plan_record = METER_STATE["plans"][record["plan_id"]]
        names = ["burned", "gas_charge", "tax", "total"]
        shown = {"kiln_id": kiln, "previous_meter": record["last_meter"], "meter": meter}
        answer = {**shown, "standing_charge": plan_record["standing_charge"], **dict(zip(names, figures))}
        return {"kiln_id": kiln, "meter": meter}, answer

    cases = [
        bill("K1", 1450, [450, 140.0, 7.5, 157.5]),  # 100 x 0.5 + 200 x 0.3 + 150 x 0.2
        bill("K2", 580, [80, 40.0, 2.5, 52.5]),  # inside the first band
        bill("K3", 11, [1, 0.5, 0.06, 0.61]),  # 0.055 tax: half a cent up
    ]
    assert answers_pass(GAS, plan, METERED, METER_STATE, cases)
