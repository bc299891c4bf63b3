"""A timber yard's estimate documented in markdown the way many desk APIs are: the answer's keys in a table under
**Response**, a price list as a table in the policy, a rebate per account grade given in words beside each grade,
a price "net of" the rebate rounded with ties going up, and a yes/no comparison; the plan computes every key, and
the rendered tool gives the documented figures. Also: what stays unplanned when the words do not pin a figure down."""

from __future__ import annotations

from synth.envsynth.codegen import render_tool
from synth.envsynth.figure_words import after_removal, by_value, comparison
from synth.envsynth.formula_rules import _scope, operand, quote_plan
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.price_lists import price_lists, price_node
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.tooldocs.markdown import load_markdown
from tests.schemas import collection as _collection

DOCS = """
## estimate_cut_list

Works out, for a trade account, what a cut list of boards would cost; no order is placed and no stock is held.
For every board, charge = metres x price_per_metre. Rebated prices are rounded to the nearest penny, ties going
up.

**Arguments**

| parameter | kind | mandatory | meaning |
|---|---|---|---|
| `account_id` | string | yes | Which trade account is asking. |
| `boards` | array of objects | yes | The cut list, each board shaped `{"wood": string, "metres": integer}`. |

**Response** (an object)

| key | kind | meaning |
|---|---|---|
| `account_id` | string | Echo of the account. |
| `boards` | array | For each board of the cut list: `wood`, `metres`, `price_per_metre`, `charge`. |
| `metres_total` | integer | Total of the metres over all boards. |
| `price_before_rebate` | number | Total of every board's charge. |
| `rebate_percent` | integer | Set by the account's grade: 35, 25 or 0. |
| `price_payable` | number | Price net of the rebate, in pounds. |
| `metre_cap` | integer | How many metres the account may take this month. |
| `within_cap` | boolean | True when `metres_total` stays within the account's metre cap. |
"""

POLICY = """
# Timber yard counter notes

Boards are cut to length and charged by the metre:

| wood | price per metre | metres in stock |
|---|---|---|
| `pine` | 0.05 | 900 |
| `ash` | $0.125 | 40 |
| `oak` | 0.30 | 15 |

Every trade account carries a `grade`; the rebate a grade earns is in brackets after it: `builder` (35% rebate),
`visitor` (no rebate at all) and `joiner` (25 percent).
"""


SCHEMA = {
    "type": "object",
    "properties": {
        "accounts": _collection(
            {"id": {"type": "string"}, "grade": {"type": "string"}, "metre_cap": {"type": "integer"}}
        )
    },
}
STATE = {
    "accounts": {
        "AC-1": {"id": "AC-1", "grade": "joiner", "metre_cap": 100},
        "AC-2": {"id": "AC-2", "grade": "visitor", "metre_cap": 30},
        "AC-3": {"id": "AC-3", "grade": "builder", "metre_cap": 500},
    }
}


def _spec():
    return load_markdown(DOCS, "timber.md")[0]


def test_a_returns_table_becomes_the_answer_schema_with_types_and_descriptions() -> None:
    spec = _spec()
    props = spec.returns["properties"]
    assert list(props) == [
        "account_id",
        "boards",
        "metres_total",
        "price_before_rebate",
        "rebate_percent",
        "price_payable",
        "metre_cap",
        "within_cap",
    ]
    assert props["within_cap"]["type"] == "boolean" and props["metres_total"]["type"] == "integer"
    assert props["price_payable"]["description"] == "Price net of the rebate, in pounds."
    assert "{account_id, boards, metres_total" in spec.description  # still listed in the prose too
    assert spec.parameters["required"] == ["account_id", "boards"]


def test_price_lists_pair_a_key_column_with_each_number_column() -> None:
    lists = price_lists(POLICY)
    assert [(p.key, p.figure) for p in lists] == [
        ("wood", ["price", "per", "metre"]),
        ("wood", ["metre", "in", "stock"]),
    ]
    assert lists[0].values == {"pine": 0.05, "ash": 0.125, "oak": 0.3}
    holders = {"board": {"wood": {}, "metres": {}}}
    assert price_node("price_per_metre", holders, lists) == {
        "table": "wood",
        "param": "board",
        "values": {"pine": 0.05, "ash": 0.125, "oak": 0.3},
        "listed": True,
    }
    assert price_node("metres_in_stock", holders, lists)["values"]["ash"] == 40
    assert price_node("price_per_foot", holders, lists) is None  # no column spells it
    assert price_node("price_per_metre", {"board": {"metres": {}}}, lists) is None  # nothing holds a wood
    # a table whose first column holds numbers, or whose number column has a word in it, is no price list
    assert price_lists("| metres | price |\n|---|---|\n| 10 | 1.0 |\n| 20 | 1.5 |\n") == []
    assert price_lists("| wood | price |\n|---|---|\n| oak | 1.0 |\n| ash | ask |\n") == []


def test_the_worded_quote_computes_every_documented_field() -> None:
    spec = _spec()
    plan = quote_plan(spec, ToolPlan(kind="get", collection="accounts"), SCHEMA, STATE, POLICY)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    assert steps["rebate_percent"] == {
        "table": "grade",
        "param": "account_id",
        "values": {"builder": 35, "joiner": 25, "visitor": 0},
    }
    assert steps["price_payable"] == {
        "round": {"op": "pct_off", "args": [{"val": "price_before_rebate"}, {"val": "rebate_percent"}]},
        "digits": 2,
        "way": "half_up",
    }
    assert steps["within_cap"] == {"op": "<=", "args": [{"val": "metres_total"}, {"val": "metre_cap"}]}
    assert steps["metres_total"] == {"sum": "boards", "of": "metres"}
    line_steps = dict(steps["boards"]["lines"]["steps"])
    assert line_steps["price_per_metre"]["table"] == "wood"
    assert line_steps["charge"] == {"op": "*", "args": [{"val": "metres"}, {"val": "price_per_metre"}]}

    def case(arguments: dict, expected: dict | None) -> Case:
        one = Case(spec.name, "x", STATE, arguments, expect_error=expected is None)
        one.expect_result, one.has_expected_result = expected, expected is not None
        return one

    joiner = {
        "account_id": "AC-1",
        "boards": [
            {"wood": "ash", "metres": 10, "price_per_metre": 0.125, "charge": 1.25},
            {"wood": "pine", "metres": 5, "price_per_metre": 0.05, "charge": 0.25},
        ],
        "metres_total": 15,
        "price_before_rebate": 1.5,
        "rebate_percent": 25,
        "price_payable": 1.13,  # 1.125: the tie goes up (banker's rounding would give 1.12)
        "metre_cap": 100,
        "within_cap": True,
    }
    over = {
        "account_id": "AC-2",
        "boards": [{"wood": "oak", "metres": 31, "price_per_metre": 0.3, "charge": 9.3}],
        "metres_total": 31,
        "price_before_rebate": 9.3,
        "rebate_percent": 0,
        "price_payable": 9.3,
        "metre_cap": 30,
        "within_cap": False,
    }
    arguments = {"account_id": "AC-1", "boards": [{"wood": "ash", "metres": 10}, {"wood": "pine", "metres": 5}]}
    cases = [
        case(arguments, joiner),
        case({"account_id": "AC-2", "boards": [{"wood": "oak", "metres": 31}]}, over),
        case({"account_id": "AC-9", "boards": [{"wood": "pine", "metres": 1}]}, None),
        case({"account_id": "AC-1", "boards": [{"wood": "teak", "metres": 1}]}, None),  # not on the price list
    ]
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 4, (err, [f.message for f in res.failures])


def test_words_that_do_not_pin_a_figure_down_give_nothing() -> None:
    spec = _spec()
    scope = _scope(spec, SCHEMA["properties"], STATE, POLICY)
    own = "Set by the account's grade: 35, 25 or 0."
    # a grade the docs give no number for, and two numbers left over for it: no table
    scope.docs = scope.docs.replace("`joiner` (25 percent)", "`joiner` (ask the yard foreman)")
    assert by_value(own, scope, operand) is None
    scope.docs = POLICY
    assert by_value(own, scope, operand)["values"]["visitor"] == 0
    # the numbers may come first too, and a phrase naming no field of the account reads nothing
    assert by_value("35, 25 or 0 according to the account's grade.", scope, operand)["values"]["joiner"] == 25
    assert by_value("Set by the account's colour: 35, 25 or 0.", scope, operand) is None
    assert by_value("Some share of the price.", scope, operand) is None
    # "net of" needs one `..._before_...` figure and one percent figure of the same removal
    scope.defined = ["price_before_rebate"]
    assert after_removal("Price net of the rebate.", scope, spec.description) is None
    scope.defined = ["price_before_rebate", "rebate_percent"]
    plain = after_removal("Price net of the rebate.", scope, "Nothing is said of rounding.")
    assert plain == {"op": "pct_off", "args": [{"val": "price_before_rebate"}, {"val": "rebate_percent"}]}
    assert after_removal("Price after the rebate.", scope, "Nothing is said of rounding.") == plain
    assert comparison("True when the kiln is hot.", scope, operand) is None
    scope.defined = ["metres_total", "metre_cap"]
    assert comparison("Whether `metres_total` exceeds the metre cap.", scope, operand)["op"] == ">"


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
