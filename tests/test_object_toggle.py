"""A boat's crew list edited by an `action` argument: `add` appends the object the docs spell (refused at the cap
or for a name already listed, in any case), `remove` deletes the matching member (refused when none matches), each
logs its own kind of event with the member's name (as the list held it, on removal), sunk boats are refused, and
the answer is the updated list. Planned through the pipeline's choice of a docs transition, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.object_toggle import object_toggle
from synth.envsynth.plan import ToolPlan
from synth.envsynth.sampling import sample_value
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import answers_pass, run_calls

S = {"type": "string"}
TODAY = "2031-02-03"
CREW = {"type": "object", "properties": {"name": S, "role": S, "added_on": S}, "required": ["name", "role"]}
LOG = {
    "type": "object",
    "properties": {
        "date": S,
        "event": {"type": "string", "x-enum": ["fee", "paid"]},
        "amount": {"type": ["number", "null"]},
    },
}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": collection(
            {
                "boat_id": S,
                "status": {"type": "string", "x-enum": ["afloat", "sunk"]},
                "crew": {"type": "array", "items": CREW},
                "log": {"type": "array", "items": LOG},
            }
        )
    },
}
TEXT = (
    "Adds a person to, or removes a person from, the boat's crew.\n\n"
    '- `add` appends `{"name", "role", "added_on": <today>}` to `crew`; a boat can have at most **2** crew and the '
    "same name (case-insensitive) cannot be listed twice. - `remove` deletes the matching crew member. - Either way a "
    "`crew_added` / `crew_removed` event with the member's name is appended to the boat log. - Sunk boats cannot be "
    f"changed.\n\nReturns the boat's updated `crew` array. The business date is {TODAY}."
)
PARAMS = {
    "type": "object",
    "properties": {
        "boat_id": S,
        "action": {"type": "string", "description": "`add` or `remove`"},
        "name": S,
        "role": {"type": "string", "description": "`skipper`, `deckhand` or `cook`"},
    },
    "required": ["boat_id", "action", "name"],
}
SPEC = ToolSpec("edit_boat_crew", TEXT, PARAMS)


def _state() -> dict[str, Any]:
    paid = {"date": "2031-01-05", "event": "paid", "amount": 10.0}
    return {
        "boats": {
            "B1": {"boat_id": "B1", "status": "afloat", "crew": [], "log": [paid]},
            "B2": {
                "boat_id": "B2",
                "status": "afloat",
                "crew": [{"name": "Ada Lind", "role": "cook", "added_on": "2031-01-01"}],
                "log": [{"date": "2031-01-06", "event": "fee", "amount": 4.0}],
            },
            "B3": {"boat_id": "B3", "status": "sunk", "crew": [], "log": []},
        }
    }


def _plan() -> ToolPlan:
    base = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    plan = object_toggle(SPEC, base, SCHEMA, list(_state()["boats"].values()))
    assert plan is not None and plan.kind == "by_mode"
    return plan


def test_the_modes_read_from_the_docs() -> None:
    plan = _plan()
    add, remove = plan.modes["add"], plan.modes["remove"]
    assert add["requires"] == ["role"] and remove["requires"] == []  # a crew entry needs its role
    assert [c["op"] for c in add["plan"]["checks"]] == ["entry_absent", "list_room"]
    assert add["plan"]["preconditions"] == {"status": ["afloat"]} and add["plan"]["answer_field"] == "crew"
    unmatched = TEXT.replace("deletes the matching crew member", "clears the list")
    base = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    assert object_toggle(ToolSpec(SPEC.name, unmatched, PARAMS), base, SCHEMA) is None
    import random

    assert sample_value(PARAMS["properties"]["role"], random.Random(3)) in ("skipper", "deckhand", "cook")


def _edited(key: str, crew: list[dict[str, Any]], event: str, name: str) -> dict[str, Any]:
    out = copy.deepcopy(_state())
    out["boats"][key]["crew"] = crew
    out["boats"][key]["log"].append({"date": TODAY, "event": event, "name": name})
    return out


def test_adding_and_removing_crew() -> None:
    plan = _plan()
    added = {"name": "Tom Reed", "role": "skipper", "added_on": TODAY}
    calls = [
        (
            {"boat_id": "B1", "action": "add", "name": "Tom Reed", "role": "skipper"},
            _edited("B1", [added], "crew_added", "Tom Reed"),
        ),
        ({"boat_id": "B2", "action": "add", "name": "ada lind", "role": "cook"}, None),  # listed already, any case
        ({"boat_id": "B1", "action": "add", "name": "Tom Reed"}, None),  # no role
        ({"boat_id": "B2", "action": "remove", "name": "ADA LIND"}, _edited("B2", [], "crew_removed", "Ada Lind")),
        ({"boat_id": "B2", "action": "remove", "name": "Tom Reed"}, None),  # not on the crew
        ({"boat_id": "B3", "action": "add", "name": "Tom Reed", "role": "cook"}, None),  # a sunk boat
        ({"boat_id": "B1", "action": "sail", "name": "Tom Reed"}, None),  # no such action
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)
    full = _state()
    full["boats"]["B2"]["crew"].append({"name": "Bo Kai", "role": "deckhand", "added_on": "2031-01-02"})
    call = {"boat_id": "B2", "action": "add", "name": "Cy Moor", "role": "cook"}
    assert answers_pass(SPEC, plan, SCHEMA, full, [(call, None)])  # two crew already: the cap
    answer = [{"name": "Cy Moor", "role": "cook", "added_on": TODAY}]  # the updated list, not the boat
    assert answers_pass(SPEC, plan, SCHEMA, _state(), [({**call, "boat_id": "B1"}, answer)])


def test_a_new_kind_carries_only_what_it_names_anew() -> None:
    from synth.envsynth.docs_entries import _carrying

    logged = [{"date": "2031-01-05", "event": "paid", "note": "x"}]
    params = {"name": S, "reason": S}
    assert _carrying(" with the member's name ", "event", "crew_added", logged, params, TODAY) == {
        "fields": {
            "event": {"from": "const", "value": "crew_added"},
            "date": {"from": "const", "value": TODAY},
            "name": {"from": "arg", "name": "name"},
        }
    }
    assert _carrying(" (with the reason as its note) ", "event", "dropped", logged, params, TODAY) is None
