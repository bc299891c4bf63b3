"""A haul-out quote priced off a weight band list refuses a boat past the last band when an error the docs list names
that band's limit ("Error: boats over 30 t are not accepted"): band_prices.band_guards puts a guard on the priced
band figure (it holds one of the band prices, None past the last limit), formula_rules.quote_plan adds it to the
quote, and the rendered quote refuses a weight past 30 t while pricing one exactly on it."""

from __future__ import annotations

from typing import Any

from synth.envsynth.band_prices import band_guards
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass

S, N = {"type": "string"}, {"type": "number"}
OF = {"arg": "weight_tonnes", "default": None}
LIMITS = [5.0, 12.0, 30.0]
LABELS = {"band": {"of": OF, "limits": LIMITS, "values": ["H1", "H2", "H3"]}}
PRICES = {"band": {"of": OF, "limits": LIMITS, "values": [260.0, 120.0, 540.0]}}  # the lowest is not the first
STEPS = {"harbour_dues": {"field": "harbour_dues", "param": "marina_id"}, "band": LABELS, "base_price": PRICES}
REFUSED = "Errors: 'Error: marina <id> not found', 'Error: boats over 30 t are not accepted'."

SCHEMA = {"type": "object", "properties": {"marinas": collection({"marina_id": S, "harbour_dues": N})}}
STATE = {"marinas": {"M1": {"marina_id": "M1", "harbour_dues": 15.0}}}
DOC = (
    "Price a haul-out for a boat at a marina. The weight `band` sets the base price: H1 up to 5 t 120.00; H2 up to "
    "12 t 260.00; H3 up to 30 t 540.00 (a weight exactly on a limit belongs to that band). Returns {band, "
    "base_price, harbour_dues, total}, total = base_price + harbour_dues. {errors}"
)
ARGS = {
    "type": "object",
    "properties": {"marina_id": S, "weight_tonnes": N},
    "required": ["marina_id", "weight_tonnes"],
}


def _spec(errors: str) -> ToolSpec:
    return ToolSpec("quote_haul_out", DOC.replace("{errors}", errors), ARGS)


def _answer(band: str, price: float) -> dict[str, Any]:
    return {"band": band, "base_price": price, "harbour_dues": 15.0, "total": price + 15.0}


def test_an_error_naming_the_last_limit_guards_the_priced_band_figure() -> None:
    assert band_guards(STEPS, REFUSED) == [{"figure": "base_price", "op": ">=", "value": 120.0}]
    unquoted = "Error: boats over 30 t are not accepted"
    assert band_guards(STEPS, unquoted) == [{"figure": "base_price", "op": ">=", "value": 120.0}]
    written = "Errors: 'Error: boats over 30.0 t are not accepted'."  # the limit with a zero fraction
    assert band_guards(STEPS, written) == [{"figure": "base_price", "op": ">=", "value": 120.0}]


def test_no_guard_when_no_error_names_the_last_limit() -> None:
    assert band_guards(STEPS, "Boats over 30 t are not accepted.") == []  # no error message
    assert band_guards(STEPS, "Errors: 'Error: marina <id> not found'. Boats over 30 t are lifted elsewhere.") == []
    assert band_guards(STEPS, "Errors: 'Error: boats over 12 t need a crane booking'.") == []  # not the last limit
    assert band_guards(STEPS, "Errors: 'Error: boats over 300 t are not accepted'.") == []  # another number
    assert band_guards(STEPS, "Errors: 'Error: boats over 130 t are not accepted'.") == []
    assert band_guards(STEPS, "Errors: 'Error: boats over 30.5 t are not accepted'.") == []
    assert band_guards(STEPS, "Errors: 'Error: boats over 3 t are not accepted'.") == []


def test_no_guard_on_a_band_of_labels() -> None:
    labels_only = {k: v for k, v in STEPS.items() if k != "base_price"}
    assert band_guards(labels_only, REFUSED) == []
    assert band_guards({}, REFUSED) == []


def test_a_limit_that_ends_the_error_sentence_still_counts() -> None:
    said = "Errors: 'Error: boats may weigh at most 30.'"
    assert band_guards(STEPS, said) == [{"figure": "base_price", "op": ">=", "value": 120.0}]


def test_the_quote_holds_the_guard_and_refuses_a_boat_past_the_last_band() -> None:
    spec = _spec(REFUSED)
    plan = quote_plan(spec, ToolPlan(kind="get"), SCHEMA, STATE, "")
    assert plan.kind == "quote"
    assert plan.quote["guards"] == [{"figure": "base_price", "op": ">=", "value": 120.0}]
    priced = [
        ({"marina_id": "M1", "weight_tonnes": 30}, _answer("H3", 540.0)),  # on the last limit: the last band
        ({"marina_id": "M1", "weight_tonnes": 12.5}, _answer("H3", 540.0)),
        ({"marina_id": "M1", "weight_tonnes": 5}, _answer("H1", 120.0)),
    ]
    assert answers_pass(spec, plan, SCHEMA, STATE, priced)
    assert answers_pass(spec, plan, SCHEMA, STATE, [({"marina_id": "M1", "weight_tonnes": 30.5}, None)])
    assert answers_pass(spec, plan, SCHEMA, STATE, [({"marina_id": "M1", "weight_tonnes": 44}, None)])


def test_without_the_error_the_quote_has_no_band_guard() -> None:
    spec = _spec("Errors: 'Error: marina <id> not found', 'Error: boats over 300 t are not accepted'.")
    plan = quote_plan(spec, ToolPlan(kind="get"), SCHEMA, STATE, "")
    assert plan.kind == "quote"
    assert "guards" not in plan.quote
    # with no guard, a weight past the last band is not refused (so the refusal above is the guard's doing)
    assert not answers_pass(spec, plan, SCHEMA, STATE, [({"marina_id": "M1", "weight_tonnes": 30.5}, None)])
