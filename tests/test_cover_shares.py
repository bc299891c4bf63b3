"""Figures of a berth quote split between the club and the sailor (cover_shares.py: share_figure, payer_figure): a
cover table by the member's `tier` in a `rigged` / bare column, a `racing_fee` for racing boats, a walk-in
discount for one tier on rigged boats, a least share the sailor pays ("the club pays the rest") but for the tier set
apart, the unsaid `sailor_share`, `in_free_berths` and a ban-list membership; planned and run. Also the yes/no and
text nodes of formula_runtime.fg_formula and linked_answers.joined_node."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.cover_shares import share_figure
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.formula_runtime import fg_formula
from synth.envsynth.linked_answers import joined_node
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_scope import _scope
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S, B = {"type": "string"}, {"type": "boolean"}
COLS = {
    "members": collection({"member_id": S, "tier": {"type": "string", "enum": ["none", "club", "gold"]}}),
    "boats": collection(
        {"boat_id": S, "name": S, "length": {"type": "integer"}, "rigged": B, "racing": B, "hull_class": S}
    ),
    "docks": collection(
        {
            "dock_id": S,
            "rate": {"type": "number"},
            "free_berths": {"type": "integer"},
            "banned": {"type": "array", "items": S},
        }
    ),
}
SCHEMA = {"type": "object", "properties": COLS}
FEE = "Racing boats add a $3.00 `racing_fee`."
TEXT = (
    "Quotes berths at a dock for a member's boat and changes nothing. base_price (rate x berths). "
    "Cover by `tier`, `rigged` / bare: none 20% / 0%, club 60% / 30%, gold 80% / 50%. "
    "club_pays (base_price x cover_percent). " + FEE + " "
    "Non-club sailors (`tier` none) get a 15% cash discount on rigged boats (`walk_in_discount`). "
    "Club sailors pay at least a $5.00 minimum (never more than `base_price`); the club pays the rest. "
    "Returns {member_id, boat_id, berths, base_price, cover_percent, club_pays, racing_fee, walk_in_discount, "
    "sailor_share, in_free_berths, barred}. `barred` (true when the boat's hull class is on the dock's banned list)."
)
PARAMS = {
    "type": "object",
    "properties": {"member_id": S, "boat_id": S, "dock_id": S, "berths": {"type": "integer", "default": 1}},
    "required": ["member_id", "boat_id", "dock_id"],
}
QUOTE = ToolSpec("quote_berths", TEXT, PARAMS)
GET = ToolPlan(kind="get", collection="docks", key_param="dock_id")


def _boat(key: str, rigged: bool, racing: bool, hull_class: str) -> dict[str, Any]:
    return {"boat_id": key, "name": "Sprite", "length": 8, "rigged": rigged, "racing": racing, "hull_class": hull_class}


STATE = {
    "members": {m: {"member_id": m, "tier": t} for m, t in (("M0", "none"), ("M1", "club"), ("M2", "gold"))},
    "boats": {"B1": _boat("B1", True, False, "keel"), "B2": _boat("B2", False, True, "multi")},
    "docks": {
        "D1": {"dock_id": "D1", "rate": 40.0, "free_berths": 2, "banned": ["multi"]},
        "D2": {"dock_id": "D2", "rate": 6.0, "free_berths": 9, "banned": []},
        "D3": {"dock_id": "D3", "rate": 4.0, "free_berths": 0, "banned": None},
    },
}


def _answers(spec: ToolSpec, plan: ToolPlan, calls: list[tuple[str, str, str, int]]) -> list[Any]:
    """The rendered tool's answer to each (member, boat, dock, berths) call on STATE."""
    source = render_tool(spec, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    args = [{"member_id": m, "boat_id": b, "dock_id": d, "berths": n} for m, b, d, n in calls]
    outcomes = run_cases(module, [{"function": spec.name, "state": STATE, "arguments": a} for a in args])
    return [o.result if o.status == "ok" else (o.status, o.error) for o in outcomes]


def _pick(answer: dict[str, Any], *names: str) -> tuple[Any, ...]:
    return tuple(answer[n] for n in names)


def test_the_share_figures_are_planned_as_the_docs_say() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    assert plan.kind == "quote"
    steps = dict(plan.quote["steps"])
    rigged = {"test": {"field": "rigged", "param": "boat_id"}, "in": [True]}
    walk_in = {"test": {"field": "tier", "param": "member_id"}, "in": ["none"]}
    cover = steps["cover_percent"]
    assert cover["if"] == rigged
    assert cover["then"] == {
        "table": "tier",
        "param": "member_id",
        "values": {"none": 20.0, "club": 60.0, "gold": 80.0},
    }
    assert cover["else"]["values"] == {"none": 0.0, "club": 30.0, "gold": 50.0}
    assert steps["racing_fee"] == {
        "if": {"test": {"field": "racing", "param": "boat_id"}, "in": [True]},
        "then": {"num": 3.0},
        "else": {"num": 0},
    }
    assert steps["walk_in_discount"]["if"] == {"all": [walk_in, rigged]}
    assert steps["walk_in_discount"]["then"]["round"]["args"] == [{"val": "base_price"}, {"num": 0.15}]
    assert steps["club_pays"]["if"] == walk_in  # the least share is not theirs
    base, pays = {"val": "base_price"}, {"val": "club_pays"}
    assert steps["sailor_share"] == {
        "op": "-",
        "args": [{"op": "-", "args": [base, pays]}, {"val": "walk_in_discount"}],
    }
    assert steps["in_free_berths"] == {
        "op": ">=",
        "args": [{"field": "free_berths", "param": "dock_id"}, {"val": "berths"}],
    }
    assert steps["barred"] == {
        "member": {"field": "hull_class", "param": "boat_id"},
        "of": {"field": "banned", "param": "dock_id"},
    }


def test_the_cover_column_follows_the_yes_no_field() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    got = _answers(QUOTE, plan, [("M1", "B1", "D1", 2), ("M1", "B2", "D1", 2), ("M2", "B1", "D1", 2)])
    names = ("base_price", "cover_percent", "club_pays", "sailor_share")
    assert [_pick(a, *names) for a in got] == [
        (80.0, 60.0, 48.0, 32.0),
        (80.0, 30.0, 24.0, 56.0),
        (80.0, 80.0, 64.0, 16.0),
    ]


def test_the_sailor_pays_at_least_the_least_share_and_the_club_the_rest() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    got = _answers(QUOTE, plan, [("M1", "B1", "D2", 1), ("M2", "B2", "D2", 1), ("M1", "B1", "D3", 1)])
    names = ("base_price", "club_pays", "sailor_share")
    assert [_pick(a, *names) for a in got] == [
        (6.0, 1.0, 5.0),  # 60% of 6.00 would leave 2.40: the sailor pays 5.00
        (6.0, 1.0, 5.0),
        (4.0, 0.0, 4.0),  # never more than the base price
    ]


def test_the_tier_set_apart_keeps_its_plain_cover() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    got = _answers(QUOTE, plan, [("M0", "B1", "D2", 1), ("M0", "B1", "D1", 2)])
    names = ("club_pays", "walk_in_discount", "sailor_share")
    assert [_pick(a, *names) for a in got] == [(1.2, 0.9, 3.9), (16.0, 12.0, 52.0)]  # below 5.00: no least share


def test_the_discount_is_only_for_the_stated_tier_on_rigged_boats() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    got = _answers(QUOTE, plan, [("M0", "B1", "D1", 2), ("M0", "B2", "D1", 2), ("M1", "B1", "D1", 2)])
    assert [a["walk_in_discount"] for a in got] == [12.0, 0, 0]
    assert got[1]["sailor_share"] == 80.0


def test_the_racing_fee_free_berths_and_ban_list() -> None:
    plan = quote_plan(QUOTE, GET, SCHEMA, STATE)
    got = _answers(QUOTE, plan, [("M1", "B1", "D1", 2), ("M1", "B2", "D1", 3), ("M1", "B2", "D3", 1)])
    names = ("racing_fee", "in_free_berths", "barred")
    assert [_pick(a, *names) for a in got] == [(0, True, False), (3.0, False, True), (3.0, False, False)]


def test_a_fee_for_an_unknown_field_gives_nothing() -> None:
    spec = replace(QUOTE, description=TEXT.replace(FEE, "Foiling boats add a $4.00 `racing_fee`."))
    scope = _scope(spec, COLS, STATE)
    assert share_figure("racing_fee", scope, {}) is None
    plan = quote_plan(spec, GET, SCHEMA, STATE)
    assert plan.kind == "get" and not plan.quote  # `racing_fee` is left undefined: no quote


def test_a_cover_table_needs_exactly_one_known_column_flag() -> None:
    scope = _scope(QUOTE, COLS, STATE)
    assert share_figure("cover_percent", scope, {})["if"]["test"]["field"] == "rigged"
    both = replace(QUOTE, description=TEXT.replace("`rigged` / bare", "`rigged` / `racing`"))
    assert share_figure("cover_percent", _scope(both, COLS, STATE), {}) is None
    neither = replace(QUOTE, description=TEXT.replace("`rigged` / bare", "keeled / bare"))
    assert share_figure("cover_percent", _scope(neither, COLS, STATE), {}) is None


def test_a_figure_naming_more_than_the_heading_is_not_the_cover_table() -> None:
    spec = replace(QUOTE, description=TEXT.replace("club_pays", "club_cover"))
    scope = _scope(spec, COLS, STATE)
    assert share_figure("club_cover", scope, {}) is None  # `club`: not a word of "Cover by `tier`"
    assert share_figure("cover_percent", scope, {}) is not None


ARGS = {"swap": True, "note": "x"}


def _run(node: dict[str, Any], named: dict[str, Any] | None = None, values: dict[str, Any] | None = None) -> Any:
    return fg_formula(node, ARGS, {"boat_id": named or {}}, values or {})


def _field(name: str) -> dict[str, Any]:
    return {"field": name, "param": "boat_id"}


def test_formula_test_and_set_nodes() -> None:
    assert _run({"test": {"arg": "swap"}, "in": [True]}) is True
    assert _run({"test": {"arg": "note"}, "in": [True]}) is False
    assert _run({"test": _field("tier"), "in": ["none"]}, {"tier": "gold"}) is False
    assert [_run({"set": {"val": "v"}}, values={"v": v}) for v in (None, "", [], {}, 0, "H2")] == [
        False,
        False,
        False,
        False,
        True,
        True,
    ]


def test_formula_all_any_and_not_take_only_true() -> None:
    yes, no, one = {"test": {"arg": "swap"}, "in": [True]}, {"test": {"arg": "swap"}, "in": [False]}, {"num": 1}
    assert (_run({"all": [yes, yes]}), _run({"all": [yes, no]}), _run({"all": [yes, one]})) == (True, False, False)
    assert (_run({"any": [no, yes]}), _run({"any": [no, one]}), _run({"any": []})) == (True, False, False)
    assert (_run({"not": no}), _run({"not": yes}), _run({"not": one})) == (True, False, True)


def test_formula_member_join_and_if() -> None:
    record = {"hull_class": "multi", "banned": ["multi", "foil"], "name": "Sprite", "length": 0}
    assert _run({"member": _field("hull_class"), "of": _field("banned")}, record) is True
    assert _run({"member": _field("hull_class"), "of": _field("banned")}, {**record, "hull_class": "keel"}) is False
    assert _run({"member": _field("hull_class"), "of": _field("banned")}, {**record, "banned": "multi"}) is False
    joined = {"join": [_field("name"), _field("sail"), _field("length"), {"num": ""}], "sep": " "}
    assert _run(joined, record) == "Sprite 0"  # an empty value is skipped, a 0 kept
    pick = {"if": {"test": {"arg": "swap"}, "in": [True]}, "then": {"num": 1}, "else": {"num": 2}}
    assert (_run(pick), _run({**pick, "if": {"num": 1}})) == (1, 2)  # only true takes `then`


def test_joined_node_reads_the_remark_on_one_record() -> None:
    fields = {"boat_id": COLS["boats"]["additionalProperties"]["properties"], "dock_id": {"rate": {}}}
    glossary = "Answers carry `boat_label` (name and length) and `dock_note` (rate)."
    assert joined_node("boat_label", fields, glossary) == {"join": [_field("name"), _field("length")], "sep": " "}
    assert joined_node("dock_note", fields, glossary) is None  # one field is no join
    assert joined_node("boat_label", fields, "") is None
    assert joined_node("boat_label", {**fields, "dock_id": {"name": {}, "length": {}}}, glossary) is None  # two hold it


def test_a_joined_answer_is_planned_and_run() -> None:
    text = TEXT.replace("Returns {member_id,", "Returns {member_id, boat_label,")
    spec = replace(QUOTE, description=text)
    plan = quote_plan(spec, GET, SCHEMA, STATE, glossary="boat_label (name and length)")
    assert dict(plan.quote["steps"])["boat_label"]["join"] == [_field("name"), _field("length")]
    assert _answers(spec, plan, [("M1", "B1", "D1", 1)])[0]["boat_label"] == "Sprite 8"
