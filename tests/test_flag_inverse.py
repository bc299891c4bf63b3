"""A pier filter flag whose docs state both sides: "`true`: only piers that can take another skipper now (at least
one free place and not in `repair`). `false`: only piers that cannot." (flag_rules.py): the true side is the pier's
list of skippers shorter than its cap number and its status other than `repair`; the false side keeps exactly the
piers the true side drops (`flag_inverses`); an absent flag keeps every pier. Planned by refine_filter, rendered
and run."""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.flag_rules import flag_conditions, flag_inverses
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
PIER = {
    "pier_id": S,
    "harbour": S,
    "status": {"type": "string", "x-enum": ["open", "repair"]},
    "capacity": {"type": "integer"},
    "moored": {"type": "array", "items": {"type": "string", "x-references": "skippers"}},
    "boats": {"type": "array", "items": {"type": "string", "x-references": "boats"}},
}
SCHEMA = {
    "type": "object",
    "properties": {
        "piers": collection(PIER),
        "skippers": collection({"skipper_id": S}),
        "boats": collection({"boat_id": S}),
    },
}
FLAG = (
    "`true`: only piers that can take another skipper now (at least one free place and not in `repair`). "
    "`false`: only piers that cannot."
)
CONDITIONS = [{"list": "moored", "op": "<", "right": "capacity"}, {"field": "status", "differs": "repair"}]


def test_the_true_side_reads_the_free_place_and_the_state() -> None:
    assert flag_conditions("can_take", FLAG, PIER) == CONDITIONS
    # the list is the one whose records the text names: boats, not skippers
    boats = "`true`: only piers that can take another boat now (at least one free place)."
    assert flag_conditions("can_take", boats, PIER) == [{"list": "boats", "op": "<", "right": "capacity"}]
    # no record named whose list it is: no free-place condition
    assert flag_conditions("can_take", "`true`: only piers with at least one free place.", PIER) == []
    # two cap numbers: which one is meant is not said
    capped = {**PIER, "max_boats": {"type": "integer"}}
    assert flag_conditions("can_take", FLAG, capped) == [{"field": "status", "differs": "repair"}]


def test_the_false_side_inverts_only_when_it_says_so() -> None:
    params = {"can_take": {"type": "boolean", "description": FLAG}, "harbour": S}
    assert flag_inverses("Lists the piers of a harbour.", params, PIER) == ["can_take"]
    plain = {"can_take": {"type": "boolean", "description": FLAG.split(" `false`")[0]}}
    assert flag_inverses("Lists the piers.", plain, PIER) == []  # no false side stated
    every = {"can_take": {"type": "boolean", "description": FLAG.replace("that cannot", "of every kind")}}
    assert flag_inverses("Lists the piers.", every, PIER) == []  # a false side that negates nothing
    field = {"status": {"type": "boolean", "description": FLAG}}
    assert flag_inverses("Lists the piers.", field, PIER) == []  # a field of the pier is no flag


def test_true_false_and_absent_keep_what_the_flag_says() -> None:
    spec = ToolSpec(
        "list_piers",
        "Lists the piers of a harbour.",
        {"type": "object", "properties": {"harbour": S, "can_take": {"type": "boolean", "description": FLAG}}},
    )
    base = ToolPlan(kind="filter", collection="piers", key_field="pier_id", filter_params=["harbour"])
    plan = refine_filter(spec, base, SCHEMA)
    assert plan.flag_filters == {"can_take": CONDITIONS}
    assert plan.flag_inverse == ["can_take"]

    def pier(key: str, status: str, moored: list[str]) -> dict[str, Any]:
        return {"pier_id": key, "harbour": "north", "status": status, "capacity": 2, "moored": moored, "boats": []}

    piers = {
        "P1": pier("P1", "open", ["K1"]),  # a free place
        "P2": pier("P2", "open", ["K1", "K2"]),  # every place taken
        "P3": pier("P3", "repair", []),  # free places, but in repair
        "P4": pier("P4", "open", []),
    }
    state = {"piers": piers, "skippers": {}, "boats": {}}
    cases = [
        Case(spec.name, "a", state, {"can_take": True}, expect_error=False, expect_result=[piers["P1"], piers["P4"]]),
        Case(spec.name, "b", state, {"can_take": False}, expect_error=False, expect_result=[piers["P2"], piers["P3"]]),
        Case(spec.name, "c", state, {}, expect_error=False, expect_result=list(piers.values())),
        Case(
            spec.name,
            "d",
            state,
            {"can_take": False, "harbour": "south"},
            expect_error=False,
            expect_result=[],
        ),
    ]
    for case in cases:
        case.has_expected_result = True
    res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, cases, SchemaResult(SCHEMA, {}, {}, "d"))
    assert err == "" and res.passed == 4
