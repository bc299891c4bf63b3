"""offcard_rates: entries whose key the rate card lacks, priced by a rule the sample data shows (a constant, or the
card's number at another key less a linked percentage), with or without a split by a closed field."""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.entry_rates import entry_rates
from synth.envsynth.offcard_rates import off_card
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
N = {"type": "number"}
TRIPS = {
    "T1": {"trip_id": "T1", "kind": "harbour", "fares": {"adult": 40.0, "child": 20.0}},
    "T2": {"trip_id": "T2", "kind": "coastal", "fares": {"adult": 30.0, "child": 15.0}},
    "T3": {"trip_id": "T3", "kind": "coastal", "fares": {"adult": 50.0, "child": 25.0}},
}
CLUBS = {"gold": {"club": "gold", "discount_pct": 30}, "blue": {"club": "blue", "discount_pct": 10}}
SKIPPERS = {"SK1": {"skipper_id": "SK1", "club": "gold"}, "SK2": {"skipper_id": "SK2", "club": "blue"}}
CHAIN = [{"via": "trip_id", "collection": "trips"}]


def _charter(trip: str, skipper: str | None, kinds: list[str]) -> dict[str, Any]:
    """A charter whose card passengers pay the card fare and whose skipper pays the learned rule's fare."""
    fares, out = TRIPS[trip]["fares"], []
    for kind in kinds:
        if kind != "skipper":
            out.append({"kind": kind, "fare": fares[kind]})
        elif TRIPS[trip]["kind"] == "harbour":
            out.append({"kind": kind, "fare": 0.0})
        else:
            pct = CLUBS[SKIPPERS[skipper or ""]["club"]]["discount_pct"]
            out.append({"kind": kind, "fare": round(fares["adult"] * (1 - pct / 100), 2)})
    return {"trip_id": trip, "skipper_id": skipper, "passengers": out}


CHARTERS = {
    "C1": _charter("T1", "SK1", ["skipper", "adult"]),
    "C2": _charter("T1", "SK2", ["skipper", "child"]),
    "C3": _charter("T2", "SK1", ["skipper", "adult"]),
    "C4": _charter("T3", "SK2", ["skipper"]),
    "C5": _charter("T2", None, ["adult", "child"]),
}
SAMPLE = {"trips": TRIPS, "clubs": CLUBS, "skippers": SKIPPERS, "charters": CHARTERS}


def test_a_key_the_card_lacks_follows_one_rule_per_value_of_a_closed_field() -> None:
    rules = off_card(SAMPLE, "charters", "passengers", "fare", "kind", CHAIN, "fares")
    assert [r["when"] and (r["when"]["field"], r["when"]["is"]) for r in rules] == [
        ("kind", "coastal"),
        ("kind", "harbour"),
    ]
    coastal, harbour = rules
    assert harbour["const"] == 0.0
    assert coastal["base"] == "adult"
    assert coastal["less_pct"] == {
        "chain": [{"via": "skipper_id", "collection": "skippers"}, {"via": "club", "collection": "clubs"}],
        "field": "discount_pct",
    }


def test_one_percentage_is_no_rule_and_a_lone_charter_is_no_group() -> None:
    # every skipper in the gold club: 30% off is as well a constant factor, so the coastal group has no rule
    gold = {**SAMPLE, "skippers": {k: {**v, "club": "gold"} for k, v in SKIPPERS.items()}}
    gold["charters"] = {
        k: _charter(c["trip_id"], "SK1", [p["kind"] for p in c["passengers"]]) for k, c in CHARTERS.items()
    }
    assert off_card(gold, "charters", "passengers", "fare", "kind", CHAIN, "fares") == []
    lone = {**SAMPLE, "charters": {"C1": CHARTERS["C1"], "C2": CHARTERS["C2"], "C3": CHARTERS["C3"]}}
    assert off_card(lone, "charters", "passengers", "fare", "kind", CHAIN, "fares") == []  # one coastal charter
    harbour = {
        **SAMPLE,
        "charters": {"C1": CHARTERS["C1"], "C2": CHARTERS["C2"], "C9": _charter("T1", "SK1", ["skipper"])},
    }
    assert off_card(harbour, "charters", "passengers", "fare", "kind", CHAIN, "fares") == [
        {"value": "skipper", "when": None, "const": 0.0}
    ]


def test_fares_no_rule_explains_give_nothing() -> None:
    odd = {"C6": {"trip_id": "T2", "skipper_id": "SK1", "passengers": [{"kind": "skipper", "fare": 7.0}]}}
    sample = {**SAMPLE, "charters": {**CHARTERS, **odd}}
    assert off_card(sample, "charters", "passengers", "fare", "kind", CHAIN, "fares") == []


def _spec() -> ToolSpec:
    passenger = {"type": "object", "properties": {"kind": S}, "required": ["kind"]}
    props = {"trip_id": S, "skipper_id": S, "kind": S, "group": S, "passengers": {"type": "array", "items": passenger}}
    return ToolSpec("book_charter", "Books a charter.", {"type": "object", "properties": props})


def _schema() -> dict[str, Any]:
    passenger = {"type": "object", "properties": {"kind": S, "fare": N}, "required": ["kind", "fare"]}
    cols = {
        "charters": {
            "charter_id": S,
            "trip_id": S,
            "skipper_id": S,
            "kind": S,
            "group": S,
            "passengers": {"type": "array", "items": passenger},
        },
        "trips": {"trip_id": S, "kind": S, "fares": {"type": "object"}},
        "skippers": {"skipper_id": S, "club": S},
        "clubs": {"club": S, "discount_pct": N},
    }
    return {
        "type": "object",
        "properties": {
            n: {"type": "object", "additionalProperties": {"type": "object", "properties": p}} for n, p in cols.items()
        },
    }


def test_the_create_prices_card_and_off_card_entries_as_the_data_shows() -> None:
    effects = entry_rates(SAMPLE, "charters", "passengers", ["kind"], {"kind": S, "fare": N}, ["trip_id"])
    assert len(effects) == 1 and len(effects[0]["others"]) == 2
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["trip_id", "skipper_id", "passengers"],
        effects=effects,
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )
    state = {k: v for k, v in SAMPLE.items() if k != "charters"} | {"charters": {}}
    args = {"trip_id": "T3", "skipper_id": "SK2", "passengers": [{"kind": "skipper"}, {"kind": "child"}]}
    case = Case("book_charter", "x", state, args, expect_error=False)
    case.state_checks = [
        {
            "op": "field_equals",
            "collection": "charters",
            "key": "C1",
            "field": "passengers",
            "value": [{"kind": "skipper", "fare": 45.0}, {"kind": "child", "fare": 25.0}],
        }
    ]
    schema = _schema()
    res, err = run_cases(render_tool(_spec(), plan, schema), "book_charter", [case], SchemaResult(schema, {}, {}, "d"))
    assert res.passed == 1, err


def test_the_runtime_files_copied_into_env_py_define_each_function_once() -> None:
    # misfired: rate_runtime's first helper took expr_runtime's `fg_linked` name, and the later one won in env.py
    import re
    from pathlib import Path

    folder = Path(__file__).resolve().parents[1] / "synth" / "envsynth"
    names = [n for f in sorted(folder.glob("*runtime.py")) for n in re.findall(r"^def (\w+)\(", f.read_text(), re.M)]
    assert len(names) == len(set(names)), sorted({n for n in names if names.count(n) > 1})


def test_the_card_times_one_factor_per_group_for_the_charters_outside_its_condition() -> None:
    # private charters pay the card; club charters 0.9 of it, school ones 0.5, a lone `crew` charter left unpriced
    def charter(trip: str, kind: str, group: str | None, kinds: list[str], factor: float) -> dict[str, Any]:
        fares = TRIPS[trip]["fares"]
        passengers = [{"kind": k, "fare": round(fares[k] * factor, 2)} for k in kinds]
        return {"trip_id": trip, "kind": kind, "group": group, "passengers": passengers}

    charters = {
        "C1": charter("T1", "private", None, ["adult", "child"], 1),
        "C2": charter("T2", "private", None, ["adult"], 1),
        "C3": charter("T3", "private", None, ["child"], 1),
        "C4": charter("T1", "party", "club", ["adult", "adult"], 0.9),
        "C5": charter("T2", "party", "club", ["child"], 0.9),
        "C6": charter("T1", "party", "school", ["child"], 0.5),
        "C7": charter("T3", "party", "school", ["child", "adult"], 0.5),
        "C8": charter("T3", "party", "crew", ["adult"], 0.25),
    }
    sample = {"trips": TRIPS, "charters": charters}
    (effect,) = entry_rates(sample, "charters", "passengers", ["kind"], {"kind": S, "fare": N}, ["trip_id", "kind"])
    assert effect["when"] == {"kind": ["private"]}
    assert effect["scaled"] == {"field": "group", "factors": [["club", 0.9], ["school", 0.5]]}
    charters["C9"] = charter("T2", "party", "school", ["adult"], 0.6)  # a school charter off its factor
    (effect,) = entry_rates(sample, "charters", "passengers", ["kind"], {"kind": S, "fare": N}, ["trip_id", "kind"])
    assert "scaled" not in effect


def test_the_create_prices_a_group_charter_at_the_card_times_its_factor() -> None:
    effect = {
        "op": "entry_rate",
        "field": "passengers",
        "entry_field": "fare",
        "key": "kind",
        "chain": CHAIN,
        "card": "fares",
        "when": {"kind": ["private"]},
        "scaled": {"field": "group", "factors": [["club", 0.9], ["school", 0.5]]},
    }
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["trip_id", "kind", "group", "passengers"],
        effects=[effect],
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )
    spec, schema = _spec(), _schema()
    state = {"trips": TRIPS, "charters": {}}
    cases = []
    for group, fares in (("club", [27.0, 13.5]), ("school", [15.0, 7.5])):
        args = {"trip_id": "T2", "kind": "party", "group": group, "passengers": [{"kind": "adult"}, {"kind": "child"}]}
        case = Case("book_charter", group, state, args, expect_error=False)
        value = [{"kind": k, "fare": f} for k, f in zip(["adult", "child"], fares)]
        case.state_checks = [
            {"op": "field_equals", "collection": "charters", "key": "C1", "field": "passengers", "value": value}
        ]
        cases.append(case)
    res, err = run_cases(render_tool(spec, plan, schema), "book_charter", cases, SchemaResult(schema, {}, {}, "d"))
    assert res.passed == 2, err
