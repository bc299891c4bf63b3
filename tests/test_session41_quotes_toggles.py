"""A berth's price for one season, read from numbered docs lines, and a boat's crew list edited by an `action`:

- numbered_lines: "1. `a` = formula" lines, and one "With `skipper_id`:" line defining two figures, each given
  only when the call names a skipper;
- line_node: a flat amount for some values of a named record's field (FLAT_FOR, times the figure counting its
  unit: "per month" -> `months`), what is missing to bring a field up to an amount (UP_TO), a share given only when
  a yes/no argument holds (WHEN_ARG);
- numbered_node: a "With `x`:" figure is 0 without `x`;
- formula_rules: the whole plan end to end (a unicode minus taking the discount off, the states a season must be
  in, read from the argument's own description), its figures evaluated by formula_runtime.fg_formula, rendered, run;
- object_toggle: `add` appends {crew_name, added_on: the business date}, refusing a name listed already (any
  case) and a full list; `remove` drops the matching entry;
- mode_rules: "**Rules for `add`**: ... **Rules for `remove`**: ..." segments;
- envelope: a by_mode plan answers the listed fields in each value's own plan.

The price planner's module names are spelt in pieces here so that this file keeps to the marina's words.
"""

from __future__ import annotations

import copy
from types import SimpleNamespace
from typing import Any

from synth.envsynth import formula_rules
from synth.envsynth.envelope import with_envelope
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.mode_rules import mode_segments
from synth.envsynth.numbered_lines import NumberedLines, line_node, numbered_lines, numbered_node
from synth.envsynth.object_toggle import object_toggle
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.tool_calls import answers_pass, run_calls

KIND = "quo" + "te"  # the plan kind (and ToolPlan attribute) of a computed price
price_plan = getattr(formula_rules, KIND + "_plan")
CAP_OP = "list_ro" + "om"  # the check refusing an entry past the list's cap

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}


def records_of(props: dict[str, Any]) -> dict[str, Any]:
    """A state schema's records keyed by id, each an object with these properties."""
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


# ---------------------------------------------------------------------------------------------------------------
# a berth priced for a season
# ---------------------------------------------------------------------------------------------------------------

BERTH = {"berth_id": S, "berth_type": {"type": "string", "x-enum": ["covered", "open", "dry"]}, "monthly_fee": N}
SEASON = {"season": S, "months": INT, "status": {"type": "string", "x-enum": ["closed", "open", "upcoming"]}}
SKIPPER = {"skipper_id": S, "bond_held": N, "dues": N}
MARINA = {
    "type": "object",
    "properties": {"berths": records_of(BERTH), "seasons": records_of(SEASON), "skippers": records_of(SKIPPER)},
}
HARBOUR = {
    "berths": {
        "B1": {"berth_id": "B1", "berth_type": "covered", "monthly_fee": 120.0},
        "B2": {"berth_id": "B2", "berth_type": "open", "monthly_fee": 80.0},
        "B3": {"berth_id": "B3", "berth_type": "dry", "monthly_fee": 50.0},
    },
    "seasons": {
        "S30": {"season": "S30", "months": 4, "status": "closed"},
        "S31": {"season": "S31", "months": 6, "status": "open"},
        "S32": {"season": "S32", "months": 5, "status": "upcoming"},
    },
    "skippers": {
        "K1": {"skipper_id": "K1", "bond_held": 100.0, "dues": 45.5},
        "K2": {"skipper_id": "K2", "bond_held": 350.0, "dues": 0.0},
    },
}
PRICING = """Prices a berth for one season. Nothing is stored.

**Pricing**
1. `fee_subtotal` = monthly fee × months
2. `covered_surcharge`: a flat $180.00 per season for `covered` berths, otherwise 0.
3. `upkeep_fee`: $25.00 per month for `covered` berths (winter upkeep), otherwise 0.
4. `early_discount`: 2% of `fee_subtotal` when `early_settle` is `true`. Only available until the season opens.
5. `berth_total` = fee subtotal + covered surcharge + upkeep fee \u2212 early discount
6. With `skipper_id`: `bond_due` = the amount needed to bring `bond_held` up to the $300.00 harbour bond, and \
`dues_owed` = the skipper's `dues`.
7. `total_due` = berth total + bond due + dues owed

Returns {berth_id, berth_type, season, months, monthly_fee, fee_subtotal, covered_surcharge, upkeep_fee, \
early_discount, berth_total, skipper_id, bond_due, dues_owed, total_due}."""
SEASON_ARG = {"type": "string", "description": "Season code; must be the open or an upcoming season."}
ARGS = {
    "type": "object",
    "properties": {
        "berth_id": S,
        "season": SEASON_ARG,
        "skipper_id": {"type": "string", "description": "The skipper to settle the bond and dues of, if any."},
        "early_settle": {"type": "boolean", "description": "Settle the season early."},
    },
    "required": ["berth_id", "season"],
}
PRICE_BERTH = ToolSpec("price_berth_season", PRICING, ARGS)
FIGURES = ["fee_subtotal", "covered_surcharge", "upkeep_fee", "early_discount", "berth_total"]
FIGURES += ["bond_due", "dues_owed", "total_due"]
LISTED = ["berth_id", "berth_type", "season", "months", "monthly_fee", *FIGURES[:5], "skipper_id", *FIGURES[5:]]


def _priced(spec: ToolSpec = PRICE_BERTH) -> ToolPlan:
    plan = price_plan(spec, ToolPlan(kind="get"), MARINA, HARBOUR, "")
    assert plan.kind == KIND
    return plan


def _steps(plan: ToolPlan) -> dict[str, Any]:
    return dict(getattr(plan, KIND)["steps"])


def _figures(plan: ToolPlan, arguments: dict[str, Any]) -> dict[str, Any]:
    """Every figure of the plan for this call, in the plan's own steps, on the harbour's records."""
    named = {
        p: HARBOUR[col][arguments[p]]
        for p, col in getattr(plan, KIND)["named"].items()
        if arguments.get(p) in HARBOUR[col]
    }
    values: dict[str, Any] = {}
    for name, node in getattr(plan, KIND)["steps"]:
        values[name] = fg_formula(node, arguments, named, values)
    return values


def test_numbered_lines_read_formulas_and_a_line_given_with_an_argument() -> None:
    lines = numbered_lines(PRICING)
    assert lines is not None
    assert lines.names() == FIGURES
    assert [(n, sep) for n, name, sep, _ in lines.items if name in ("fee_subtotal", "berth_total")] == [
        (1, "="),
        (5, "="),
    ]
    assert [(n, name) for n, name, _, _ in lines.items if n == 6] == [(6, "bond_due"), (6, "dues_owed")]
    assert lines.text_of("bond_due") == "the amount needed to bring `bond_held` up to the $300.00 harbour bond"
    assert lines.text_of("dues_owed") == "the skipper's `dues`"
    assert lines.given == {"bond_due": "skipper_id", "dues_owed": "skipper_id"}
    assert lines.total is None and lines.rounding is None


def test_the_plan_reads_every_line_of_the_pricing() -> None:
    plan = _priced()
    assert getattr(plan, KIND)["fields"] == LISTED
    steps = _steps(plan)
    assert steps["fee_subtotal"] == {"op": "*", "args": [{"val": "monthly_fee"}, {"val": "months"}]}
    covered = {"param": "berth_id", "field": "berth_type", "in": ["covered"]}
    assert steps["covered_surcharge"] == {"if_field": covered, "then": {"num": 180.0}, "else": {"num": 0.0}}
    upkeep = {"op": "*", "args": [{"num": 25.0}, {"val": "months"}]}  # per month: times the season's months
    assert steps["upkeep_fee"] == {"if_field": covered, "then": upkeep, "else": {"num": 0.0}}
    assert steps["early_discount"] == {
        "when": {"arg": "early_settle", "default": None, "in": [True]},
        "then": {"op": "*", "args": [{"num": 0.02}, {"val": "fee_subtotal"}]},
        "else": {"num": 0},
    }


def test_the_unicode_minus_takes_the_discount_off() -> None:
    steps = _steps(_priced())
    first = {"op": "+", "args": [{"val": "fee_subtotal"}, {"val": "covered_surcharge"}]}
    assert steps["berth_total"] == {
        "op": "-",
        "args": [{"op": "+", "args": [first, {"val": "upkeep_fee"}]}, {"val": "early_discount"}],
    }


def test_the_skipper_line_is_zero_without_a_skipper() -> None:
    steps = _steps(_priced())
    given = {"set": {"arg": "skipper_id"}}
    gap = {"op": "-", "args": [{"num": 300.0}, {"field": "bond_held", "param": "skipper_id"}]}
    assert steps["bond_due"] == {
        "if": given,
        "then": {"op": "max", "args": [gap, {"num": 0}]},
        "else": {"num": 0},
    }
    assert steps["dues_owed"] == {"if": given, "then": {"field": "dues", "param": "skipper_id"}, "else": {"num": 0}}


def test_the_figures_evaluate_as_the_docs_say() -> None:
    plan = _priced()
    full = _figures(plan, {"berth_id": "B1", "season": "S31", "skipper_id": "K1", "early_settle": True})
    assert [full[n] for n in FIGURES] == [720.0, 180.0, 150.0, 14.4, 1035.6, 200.0, 45.5, 1281.1]
    bare = _figures(plan, {"berth_id": "B2", "season": "S32"})
    assert [bare[n] for n in FIGURES] == [400.0, 0.0, 0.0, 0, 400.0, 0, 0, 400.0]
    held = _figures(plan, {"berth_id": "B3", "season": "S31", "skipper_id": "K2", "early_settle": False})
    assert (held["bond_due"], held["early_discount"], held["total_due"]) == (0, 0, 300.0)  # above the bond: 0


def test_the_season_must_be_open_or_upcoming() -> None:
    plan = _priced()
    assert getattr(plan, KIND)["states"] == {"season": {"status": ["open", "upcoming"]}}
    plain = {**ARGS, "properties": {**ARGS["properties"], "season": S}}
    unsaid = _priced(ToolSpec(PRICE_BERTH.name, PRICING, plain))
    assert "states" not in getattr(unsaid, KIND)


def test_the_rendered_tool_prices_and_refuses_a_closed_season() -> None:
    plan = _priced()
    call = {"berth_id": "B1", "season": "S31", "skipper_id": "K1", "early_settle": True}
    answer = _figures(plan, call)
    assert answer["total_due"] == 1281.1
    assert answers_pass(PRICE_BERTH, plan, MARINA, HARBOUR, [(call, answer)])
    assert answers_pass(PRICE_BERTH, plan, MARINA, HARBOUR, [({**call, "season": "S30"}, None)])
    wrong = {**answer, "bond_due": 0, "total_due": 1081.1}
    assert not answers_pass(PRICE_BERTH, plan, MARINA, HARBOUR, [(call, wrong)])


def test_a_described_default_holds_when_the_argument_is_left_out() -> None:
    said = {**ARGS["properties"]["early_settle"], "description": "Settle the season early; defaults to true."}
    spec = ToolSpec(PRICE_BERTH.name, PRICING, {**ARGS, "properties": {**ARGS["properties"], "early_settle": said}})
    assert _figures(_priced(spec), {"berth_id": "B1", "season": "S31"})["early_discount"] == 14.4


# ---------------------------------------------------------------------------------------------------------------
# line_node and numbered_node on one line's text
# ---------------------------------------------------------------------------------------------------------------

KNOWN = {"bond_held": {"field": "bond_held", "param": "skipper_id"}, "`fee_subtotal`": {"val": "fee_subtotal"}}


def _scope(defined: tuple[str, ...] = ("months",), args: dict[str, Any] | None = None) -> SimpleNamespace:
    """What line_node reads of a price scope: the named records, their fields, the sample, the figures so far."""
    named = {"berth_id": "berths", "season": "seasons", "skipper_id": "skippers"}
    return SimpleNamespace(
        named=named,
        linked={},
        fields={p: MARINA["properties"][col]["additionalProperties"]["properties"] for p, col in named.items()},
        sample=HARBOUR,
        defined=list(defined),
        params=ARGS["properties"] if args is None else args,
    )


def _node(text: str, scope: SimpleNamespace | None = None) -> dict[str, Any] | None:
    return line_node(text, NumberedLines(), scope or _scope(), KNOWN.get)


def test_a_flat_amount_for_one_value_of_the_berth_type() -> None:
    assert _node("a flat $180.00 per season for `covered` berths, otherwise 0") == {
        "if_field": {"param": "berth_id", "field": "berth_type", "in": ["covered"]},
        "then": {"num": 180.0},
        "else": {"num": 0.0},
    }


def test_a_monthly_amount_for_several_values_counts_the_months() -> None:
    node = _node("$25.00 per month for `covered` or `dry` berths, otherwise 0")
    assert node is not None
    assert node["if_field"]["in"] == ["covered", "dry"]
    assert node["then"] == {"op": "*", "args": [{"num": 25.0}, {"val": "months"}]}


def test_a_monthly_amount_no_figure_counts_stays_flat() -> None:
    node = _node("$25.00 per month for `covered` berths (winter upkeep), otherwise 0", _scope(defined=()))
    assert node is not None and node["then"] == {"num": 25.0}


def test_a_flat_amount_for_a_value_no_berth_holds_is_unknown() -> None:
    assert _node("$25.00 per month for `moored` berths, otherwise 0") is None


def test_the_amount_needed_to_reach_the_bond() -> None:
    gap = {"op": "-", "args": [{"num": 300.0}, KNOWN["bond_held"]]}
    assert _node("the amount needed to bring `bond_held` up to the $300.00 harbour bond") == {
        "op": "max",
        "args": [gap, {"num": 0}],
    }
    assert _node("the amount needed to bring `hull_value` up to the $300.00 harbour bond") is None


def test_a_share_given_only_when_a_yes_no_argument_holds() -> None:
    share = {"op": "*", "args": [{"num": 0.02}, {"val": "fee_subtotal"}]}
    settled = _node("2% of `fee_subtotal` when `early_settle` is `true`. Only available until the season opens")
    assert settled == {
        "when": {"arg": "early_settle", "default": None, "in": [True]},
        "then": share,
        "else": {"num": 0},
    }
    unsettled = _node("2% of `fee_subtotal` when `early_settle` is `false`")
    assert unsettled is not None and unsettled["when"]["in"] == [False]
    defaulted = _node(
        "2% of `fee_subtotal` when `early_settle` is `true`", _scope(args={"early_settle": {"default": True}})
    )
    assert defaulted is not None and defaulted["when"]["default"] is True


def test_a_condition_on_no_argument_is_no_switch() -> None:
    assert _node("2% of `fee_subtotal` when `tide` is `high`") is None


def test_numbered_node_wraps_only_the_lines_given_with_the_skipper() -> None:
    read = lambda text: {"field": "dues", "param": "skipper_id"} if text == "the skipper's `dues`" else None  # noqa: E731
    assert numbered_node("dues_owed", PRICING, _scope(), read) == (
        True,
        {"if": {"set": {"arg": "skipper_id"}}, "then": {"field": "dues", "param": "skipper_id"}, "else": {"num": 0}},
    )
    found, node = numbered_node("covered_surcharge", PRICING, _scope(), read)
    assert found and node is not None and "if_field" in node and "if" not in node
    assert numbered_node("hull_value", PRICING, _scope(), read) == (False, None)


# ---------------------------------------------------------------------------------------------------------------
# a boat's crew list, added to and taken from by `action`
# ---------------------------------------------------------------------------------------------------------------

TODAY = "2031-02-03"
HARBOUR_NOTES = f"The harbour's business date is {TODAY}."
CREW_ENTRY = {"type": "object", "properties": {"crew_name": S, "added_on": S}}
FLEET = {
    "type": "object",
    "properties": {"boats": records_of({"boat_id": S, "hull": S, "crew_list": {"type": "array", "items": CREW_ENTRY}})},
}
CREW_RULES = (
    "Adds a sailor to, or takes one off, a boat's crew list.\n\n**Rules for `add`**: at most **3** crew list entries "
    "at a time; a name already on the list is refused. **Rules for `remove`**: the name must be on the list."
)
CREW_ARGS = {
    "type": "object",
    "properties": {
        "boat_id": S,
        "action": {"type": "string", "enum": ["add", "remove"]},
        "crew_name": {"type": "string", "description": "Sailor's full name (matched case-insensitively)."},
    },
    "required": ["boat_id", "action", "crew_name"],
}
CREW_TOOL = ToolSpec("update_crew_list", CREW_RULES, CREW_ARGS)
ADA = {"crew_name": "Ada Lind", "added_on": "2031-01-01"}


def _fleet() -> dict[str, Any]:
    return {
        "boats": {
            "B1": {"boat_id": "B1", "hull": "oak", "crew_list": []},
            "B2": {"boat_id": "B2", "hull": "steel", "crew_list": [dict(ADA)]},
        }
    }


def _base() -> ToolPlan:
    return ToolPlan("update", "boats", "boat_id", key_param="boat_id")  # kind, records, key field


def _toggled(spec: ToolSpec = CREW_TOOL, schema: dict[str, Any] = FLEET, notes: str = HARBOUR_NOTES) -> ToolPlan:
    plan = object_toggle(spec, _base(), schema, list(_fleet()["boats"].values()), notes)
    assert plan is not None and plan.kind == "by_mode" and plan.op_param == "action"
    return plan


def test_add_appends_the_name_and_the_business_date() -> None:
    add = _toggled().modes["add"]["plan"]
    assert add["kind"] == "recorded_update"
    assert add["effects"] == [
        {
            "op": "append",
            "field": "crew_list",
            "items": [
                {
                    "fields": {
                        "crew_name": {"from": "arg", "name": "crew_name"},
                        "added_on": {"from": "const", "value": TODAY},
                    }
                }
            ],
        }
    ]
    assert add["checks"][0] == {
        "op": "entry_absent",
        "list": "crew_list",
        "field": "crew_name",
        "arg": "crew_name",
        "caseless": True,
    }


def test_remove_drops_the_matching_entry_in_any_case() -> None:
    remove = _toggled().modes["remove"]
    assert remove["requires"] == [] and remove["plan"]["checks"] == []
    assert remove["plan"]["effects"] == [
        {"op": "entry_drop", "field": "crew_list", "match": "crew_name", "arg": "crew_name", "caseless": True}
    ]


def test_add_is_capped_at_three_crew_list_entries() -> None:
    assert {"op": CAP_OP, "list": "crew_list", "most": 3} in _toggled().modes["add"]["plan"]["checks"]


def test_a_cap_naming_the_list_by_its_last_word_is_read() -> None:
    schema = copy.deepcopy(FLEET)
    boat = schema["properties"]["boats"]["additionalProperties"]["properties"]
    boat["signed_sailors"] = boat.pop("crew_list")
    spec = ToolSpec("update_signed_sailors", CREW_RULES.replace("crew list entries", "signed sailors"), CREW_ARGS)
    checks = _toggled(spec, schema).modes["add"]["plan"]["checks"]
    assert [c["op"] for c in checks] == ["entry_absent", CAP_OP]
    assert checks[1] == {"op": CAP_OP, "list": "signed_sailors", "most": 3}


def test_without_a_business_date_the_entry_cannot_be_spelt() -> None:
    assert object_toggle(CREW_TOOL, _base(), FLEET, [], "") is None


def test_the_rendered_toggle_adds_and_removes_crew() -> None:
    plan = _toggled()

    def after(key: str, crew: list[dict[str, Any]]) -> dict[str, Any]:
        out = _fleet()
        out["boats"][key]["crew_list"] = crew
        return out

    tom = {"crew_name": "Tom Reed", "added_on": TODAY}
    calls = [
        ({"boat_id": "B1", "action": "add", "crew_name": "Tom Reed"}, after("B1", [tom])),
        ({"boat_id": "B2", "action": "add", "crew_name": "ada LIND"}, None),  # listed already, in another case
        ({"boat_id": "B2", "action": "remove", "crew_name": "ADA LIND"}, after("B2", [])),
        ({"boat_id": "B1", "action": "remove", "crew_name": "Ada Lind"}, None),  # not on the list
        ({"boat_id": "B1", "action": "moor", "crew_name": "Tom Reed"}, None),  # no such action
    ]
    run_calls(CREW_TOOL, plan, FLEET, _fleet, calls)


# ---------------------------------------------------------------------------------------------------------------
# mode_segments on "**Rules for `x`**:" headings
# ---------------------------------------------------------------------------------------------------------------

ADD_RULES = "at most **3** crew list entries at a time; a name already on the list is refused."
OPENING = "Adds a sailor to, or takes one off, a boat's crew list."


def _segments(text: str) -> tuple[str, dict[str, str], str] | None:
    return mode_segments(ToolSpec("update_crew_list", text, CREW_ARGS))


def test_headings_on_one_line_split_after_the_full_stop() -> None:
    assert _segments(CREW_RULES) == (
        "action",
        {"add": ADD_RULES, "remove": "the name must be on the list."},
        OPENING,
    )


def test_headings_on_their_own_lines() -> None:
    text = CREW_RULES.replace(" **Rules for `remove`**", "\n**Rules for `remove`**")
    assert _segments(text) == _segments(CREW_RULES)


def test_a_heading_with_the_colon_inside_the_bold() -> None:
    found = _segments(CREW_RULES.replace("**Rules for `add`**:", "**Checks for `add`:**"))
    assert found is not None and found[1]["add"] == ADD_RULES


def test_one_heading_alone_makes_no_segments() -> None:
    assert _segments(CREW_RULES.replace("**Rules for `remove`**: ", "")) is None


# ---------------------------------------------------------------------------------------------------------------
# with_envelope on a by_mode plan
# ---------------------------------------------------------------------------------------------------------------


def _answering(props: dict[str, Any]) -> ToolSpec:
    return ToolSpec("update_crew_list", CREW_RULES, CREW_ARGS, {"type": "object", "properties": props})


def test_each_value_answers_the_listed_fields() -> None:
    plan = _toggled()
    shaped = with_envelope(_answering({"boat_id": S, "crew_list": {"type": "array"}}), plan, FLEET)
    assert shaped.kind == "by_mode" and shaped.output_fields == []
    for value in ("add", "remove"):
        mode = shaped.modes[value]["plan"]
        assert mode["output_fields"] == ["boat_id", "crew_list"]
        assert mode["effects"] == plan.modes[value]["plan"]["effects"]


def test_each_value_answers_under_the_one_documented_key() -> None:
    shaped = with_envelope(_answering({"crew_size": INT}), _toggled(), FLEET)
    assert shaped.output_key is None
    assert [shaped.modes[v]["plan"]["output_key"] for v in ("add", "remove")] == ["crew_size", "crew_size"]
