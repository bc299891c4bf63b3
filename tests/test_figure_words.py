"""A quote documented in markdown the way many desk APIs are: the answer's fields in a table under **Returns**, a
price list as a table in the policy, a percentage per membership level given in words next to each level, a
figure "after discount" rounded halves-up, and a yes/no comparison; the plan computes every field, and the
rendered tool gives the documented figures. Also: what stays unplanned when the words do not pin a figure down."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.expr_runtime import fg_formula
from synth.envsynth.figure_words import after_removal, by_value, comparison
from synth.envsynth.formula_rules import _scope, operand, quote_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.price_lists import price_lists, price_node
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.tooldocs.markdown import load_markdown

DOCS = """
## price_seed_order

Prices seed packets for a grower without placing the order. A packet's charge is computed per packet (grams x the
variety's cost per gram); the reduced charge is rounded to the nearest cent, halves rounding up.

**Parameters**

| name | type | required | description |
|---|---|---|---|
| `grower_id` | string | required | The grower buying. |
| `packets` | array of objects | required | Packets as `{"variety": string, "grams": integer}`. |

**Returns** an object:

| field | type | description |
|---|---|---|
| `grower_id` | string | The grower priced. |
| `packets` | array | One entry per packet: `variety`, `grams`, `cost_per_gram`, `charge`. |
| `grams_total` | integer | Sum of the packets' grams. |
| `charge_before_reduction` | number | Sum of the packet charges. |
| `reduction_percent` | integer | 40, 0 or 15 by the grower's membership. |
| `amount_due` | number | Charge after reduction, in euros. |
| `weekly_limit_g` | integer | The grower's weekly limit in grams. |
| `under_limit` | boolean | Whether `grams_total` is at most the weekly limit. |
"""

POLICY = """
# Nursery desk rules

Seed is sold by the gram:

| variety | cost per gram | stock grams |
|---|---|---|
| `kale` | 0.05 | 900 |
| `leek` | $0.125 | 40 |
| `basil` | 0.30 | 15 |

Growers hold a `membership`: `gold` (40% reduction), `seedling` (pays every cent) and `silver` (15% reduction).
"""


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {
    "type": "object",
    "properties": {
        "growers": _collection(
            {"id": {"type": "string"}, "membership": {"type": "string"}, "weekly_limit_g": {"type": "integer"}}
        )
    },
}
STATE = {
    "growers": {
        "GR-1": {"id": "GR-1", "membership": "silver", "weekly_limit_g": 100},
        "GR-2": {"id": "GR-2", "membership": "seedling", "weekly_limit_g": 30},
        "GR-3": {"id": "GR-3", "membership": "gold", "weekly_limit_g": 500},
    }
}


def _spec():
    return load_markdown(DOCS, "nursery.md")[0]


def test_a_returns_table_becomes_the_answer_schema_with_types_and_descriptions() -> None:
    spec = _spec()
    props = spec.returns["properties"]
    assert list(props) == [
        "grower_id",
        "packets",
        "grams_total",
        "charge_before_reduction",
        "reduction_percent",
        "amount_due",
        "weekly_limit_g",
        "under_limit",
    ]
    assert props["under_limit"]["type"] == "boolean" and props["grams_total"]["type"] == "integer"
    assert props["amount_due"]["description"] == "Charge after reduction, in euros."
    assert "{grower_id, packets, grams_total" in spec.description  # still listed in the prose too


def test_price_lists_pair_a_key_column_with_each_number_column() -> None:
    lists = price_lists(POLICY)
    assert [(p.key, p.figure) for p in lists] == [("variety", ["cost", "per", "gram"]), ("variety", ["stock", "gram"])]
    assert lists[0].values == {"kale": 0.05, "leek": 0.125, "basil": 0.3}
    holders = {"packet": {"variety": {}, "grams": {}}}
    assert price_node("cost_per_gram", holders, lists) == {
        "table": "variety",
        "param": "packet",
        "values": {"kale": 0.05, "leek": 0.125, "basil": 0.3},
        "listed": True,
    }
    assert price_node("stock_grams", holders, lists)["values"]["leek"] == 40
    assert price_node("cost_per_kilo", holders, lists) is None  # no column spells it
    assert price_node("cost_per_gram", {"packet": {"grams": {}}}, lists) is None  # nothing holds a variety
    # a table whose first column holds numbers, or whose number column has a word in it, is no price list
    assert price_lists("| grams | cost |\n|---|---|\n| 10 | 1.0 |\n| 20 | 1.5 |\n") == []
    assert price_lists("| variety | cost |\n|---|---|\n| kale | 1.0 |\n| leek | ask |\n") == []


def test_the_worded_quote_computes_every_documented_field() -> None:
    spec = _spec()
    plan = quote_plan(spec, ToolPlan(kind="get", collection="growers"), SCHEMA, STATE, POLICY)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["reduction_percent"] == {
        "table": "membership",
        "param": "grower_id",
        "values": {"gold": 40, "seedling": 0, "silver": 15},
    }
    assert steps["amount_due"] == {
        "round": {"op": "pct_off", "args": [{"val": "charge_before_reduction"}, {"val": "reduction_percent"}]},
        "digits": 2,
        "way": "half_up",
    }
    assert steps["under_limit"] == {"op": "<=", "args": [{"val": "grams_total"}, {"val": "weekly_limit_g"}]}
    line_steps = dict(steps["packets"]["lines"]["steps"])
    assert line_steps["cost_per_gram"]["table"] == "variety" and "op" in line_steps["charge"]

    def case(arguments: dict, expected: dict | None) -> Case:
        one = Case(spec.name, "x", STATE, arguments, expect_error=expected is None)
        one.expect_result, one.has_expected_result = expected, expected is not None
        return one

    silver = {
        "grower_id": "GR-1",
        "packets": [
            {"variety": "leek", "grams": 10, "cost_per_gram": 0.125, "charge": 1.25},
            {"variety": "kale", "grams": 5, "cost_per_gram": 0.05, "charge": 0.25},
        ],
        "grams_total": 15,
        "charge_before_reduction": 1.5,
        "reduction_percent": 15,
        "amount_due": 1.28,  # 1.275 rounds half up
        "weekly_limit_g": 100,
        "under_limit": True,
    }
    over = {
        "grower_id": "GR-2",
        "packets": [{"variety": "basil", "grams": 31, "cost_per_gram": 0.3, "charge": 9.3}],
        "grams_total": 31,
        "charge_before_reduction": 9.3,
        "reduction_percent": 0,
        "amount_due": 9.3,
        "weekly_limit_g": 30,
        "under_limit": False,
    }
    arguments = {"grower_id": "GR-1", "packets": [{"variety": "leek", "grams": 10}, {"variety": "kale", "grams": 5}]}
    cases = [
        case(arguments, silver),
        case({"grower_id": "GR-2", "packets": [{"variety": "basil", "grams": 31}]}, over),
        case({"grower_id": "GR-9", "packets": [{"variety": "kale", "grams": 1}]}, None),
        case({"grower_id": "GR-1", "packets": [{"variety": "okra", "grams": 1}]}, None),  # not on the price list
    ]
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 4, (err, [f.message for f in res.failures])


def test_words_that_do_not_pin_a_figure_down_give_nothing() -> None:
    spec = _spec()
    scope = _scope(spec, SCHEMA["properties"], STATE, POLICY)
    # a level the docs give no number for, and two numbers left over for it: no table
    loose = scope.docs.replace("`silver` (15% reduction)", "`silver` (ask the desk)")
    scope.docs = loose
    assert by_value("40, 0 or 15 by the grower's membership.", scope, operand) is None
    scope.docs = POLICY
    assert by_value("40, 0 or 15 by the grower's membership.", scope, operand)["values"]["seedling"] == 0
    assert by_value("Some share of the charge.", scope, operand) is None
    # "after" needs one `..._before_...` figure and one percent figure of the same removal
    scope.defined = ["charge_before_reduction"]
    assert after_removal("Charge after reduction.", scope, spec.description) is None
    scope.defined = ["charge_before_reduction", "reduction_percent"]
    plain = after_removal("Charge after reduction.", scope, "No rounding is said.")
    assert plain == {"op": "pct_off", "args": [{"val": "charge_before_reduction"}, {"val": "reduction_percent"}]}
    assert comparison("Whether the moon is full.", scope, operand) is None
    scope.defined = ["grams_total", "weekly_limit_g"]
    assert comparison("True when `grams_total` exceeds the weekly limit.", scope, operand)["op"] == ">"


def test_halves_round_away_from_zero_or_toward_it_as_asked() -> None:
    up = {"round": {"num": 2.675}, "digits": 2, "way": "half_up"}
    assert fg_formula(up, {}, {}, {}) == 2.68 and fg_formula({**up, "round": {"num": -2.675}}, {}, {}, {}) == -2.68
    assert fg_formula({**up, "way": "half_down"}, {}, {}, {}) == 2.67
    assert fg_formula({**up, "round": {"num": 0.125}, "digits": 2}, {}, {}, {}) == 0.13
    assert fg_formula({"op": ">=", "args": [{"num": 3}, {"num": 3}]}, {}, {}, {}) is True


def test_the_whole_expression_runtime_passes_the_sandbox_checks() -> None:
    from synth.envsynth.codegen import header_source
    from synth.sandbox import check_source

    source = header_source("env", "1", "fg_formula(")  # any tool that calls the runtime embeds all of it
    assert "def fg_no_overlap" in source and check_source(source) == []
