"""A create that puts its skipper on a list of the pier it names, as the docs word it: "The skipper is appended to
the pier's `moored`." (an append effect on the pier's list of skippers) and "The pier becomes `full` when the last
place is taken." (the pier's state once that list reaches its cap number). Read by the module of that name, hooked into
full_states.with_full_states for creates, and rendered through the `full_states` block of code_templates/_blocks.j2:
the new charter's skipper joins the pier's list and the pier turns `full` only when the list reaches its cap."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.create_rules import refine_create
from synth.envsynth.full_states import with_full_states
from synth.envsynth.member_lists import member_lists as list_effects
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S = {"type": "string"}
PIER = {
    "pier_id": S,
    "status": {"type": "string", "x-enum": ["open", "full", "repair"]},
    "capacity": {"type": "integer"},
    "moored": {"type": "array", "items": {"type": "string", "x-references": "skippers"}},
    "boats": {"type": "array", "items": {"type": "string", "x-references": "boats"}},
}
CHARTER = {"charter_id": S, "skipper_id": S, "pier_id": S, "boat_id": S}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": collection({"skipper_id": S, "name": S}),
        "boats": collection({"boat_id": S}),
        "piers": collection(PIER),
        "charters": collection(CHARTER),
    },
}
APPENDED = "The skipper is appended to the pier's `moored`."
FULL = "The pier becomes `full` when the last place is taken."
APPEND_EFFECT = {"op": "member_append", "collection": "piers", "via": "pier_id", "list": "moored", "item": "skipper_id"}
FULL_EFFECT = {
    "op": "list_full",
    "collection": "piers",
    "via": "pier_id",
    "list": "moored",
    "cap": "capacity",
    "field": "status",
    "value": "full",
}
TEXT = "Opens a charter for a skipper at a pier. " + APPENDED + " " + FULL


def test_the_skipper_appended_to_the_piers_list_and_the_pier_full_at_its_cap() -> None:
    assert list_effects(APPENDED, "charters", SCHEMA) == [APPEND_EFFECT]
    assert list_effects(APPENDED + " " + FULL, "charters", SCHEMA) == [APPEND_EFFECT, FULL_EFFECT]
    # wrapped across lines, and "added to" for "appended to"
    wrapped = "The skipper is added to\nthe pier's `moored`. The pier becomes `full`\nwhen the last place is taken."
    assert list_effects(wrapped, "charters", SCHEMA) == [APPEND_EFFECT, FULL_EFFECT]


def test_what_does_not_fit_the_lists_gives_nothing() -> None:
    # the pier's `boats` reference boats, not skippers
    assert list_effects("The skipper is appended to the pier's `boats`.", "charters", SCHEMA) == []
    # `moored` references skippers, not boats
    assert list_effects("The boat is appended to the pier's `moored`.", "charters", SCHEMA) == []
    # no such list of the pier; no such record named by the charter
    assert list_effects("The skipper is appended to the pier's `sails`.", "charters", SCHEMA) == []
    assert list_effects("The skipper is appended to the harbour's `moored`.", "charters", SCHEMA) == []
    # the state alone, with no list the charter appends to
    assert list_effects(FULL, "charters", SCHEMA) == []
    # a state the pier does not know
    assert list_effects(APPENDED + " The pier becomes `sunk` when the last place is taken.", "charters", SCHEMA) == [
        APPEND_EFFECT
    ]


def test_the_create_plan_gets_both_effects() -> None:
    spec = ToolSpec(
        "open_charter",
        TEXT,
        {"type": "object", "properties": {"skipper_id": S, "pier_id": S}, "required": ["skipper_id", "pier_id"]},
        mutates=True,
    )
    plan = ToolPlan(kind="create", collection="charters", key_field="charter_id", fields=["skipper_id", "pier_id"])
    found = with_full_states(spec, plan, SCHEMA, TEXT)
    assert [e for e in found.effects if e in (APPEND_EFFECT, FULL_EFFECT)] == [APPEND_EFFECT, FULL_EFFECT]
    # not a create: the list effects are not read
    filtered = ToolPlan(kind="filter", collection="charters", key_field="charter_id")
    assert with_full_states(spec, filtered, SCHEMA, TEXT) is filtered
    quiet = ToolPlan(kind="create", collection="charters", key_field="charter_id", fields=["skipper_id", "pier_id"])
    assert with_full_states(spec, quiet, SCHEMA, "Opens a charter.") is quiet


def test_a_rendered_create_appends_the_skipper_and_fills_the_pier_at_its_cap() -> None:
    spec = ToolSpec(
        "open_charter",
        TEXT,
        {"type": "object", "properties": {"skipper_id": S, "pier_id": S}, "required": ["skipper_id", "pier_id"]},
        mutates=True,
    )
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["skipper_id", "pier_id"],
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )
    plan = with_full_states(spec, refine_create(spec, plan, SCHEMA, TEXT), SCHEMA, TEXT)

    def state() -> dict[str, Any]:
        def pier(key: str, moored: list[str]) -> dict[str, Any]:
            return {"pier_id": key, "status": "open", "capacity": 2, "moored": moored, "boats": []}

        return {
            "skippers": {"K1": {"skipper_id": "K1", "name": "Ada"}, "K2": {"skipper_id": "K2", "name": "Bo"}},
            "boats": {},
            "piers": {"P1": pier("P1", []), "P2": pier("P2", ["K1"])},
            "charters": {"C1": {"charter_id": "C1", "skipper_id": "K1", "pier_id": "P2"}},
        }

    def after(pier: str, moored: list[str], status: str) -> dict[str, Any]:
        out = copy.deepcopy(state())
        out["charters"]["C2"] = {"charter_id": "C2", "skipper_id": "K2", "pier_id": pier}
        out["piers"][pier]["moored"] = moored
        out["piers"][pier]["status"] = status
        return out

    calls = [
        ({"skipper_id": "K2", "pier_id": "P1"}, after("P1", ["K2"], "open")),  # one of two places taken
        ({"skipper_id": "K2", "pier_id": "P2"}, after("P2", ["K1", "K2"], "full")),  # the last place taken
    ]
    run_calls(spec, plan, SCHEMA, state, calls)
