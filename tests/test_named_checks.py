"""A "Checks, in this order:" list whose clauses are said of records the call's arguments name: the bay's status,
the boat's beam against the bay's limit and a kind of bay's cap, the pilot on duty and below their own cap, and a
count the boat keeps ("it has had fewer than 2 failed haul attempts", its `haul_attempts`). Each clause's quoted error
may hold a `;` and nested brackets; the clauses are read once the asides are gone. Planned by the pipeline's own
readings, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.named_args import possessive_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.spec import ToolSpec
from tests.schemas import collection

S, N, B = {"type": "string"}, {"type": "number"}, {"type": "boolean"}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": collection(
            {
                "boat_id": S,
                "beam_m": N,
                "haul_attempts": N,
                "bay_id": {"type": ["string", "null"]},
                "status": {"type": "string", "x-enum": ["waiting", "moored", "gone"]},
            }
        ),
        "bays": collection(
            {
                "bay_id": S,
                "status": {"type": "string", "x-enum": ["free", "taken"]},
                "kind": {"type": "string", "x-enum": ["deep", "shallow"]},
                "max_beam_m": N,
            }
        ),
        "pilots": collection({"pilot_id": S, "on_duty": B, "moorings": N, "max_moorings": N}),
    },
}
TEXT = (
    "Moor a waiting boat in a bay with a pilot. Checks, in this order: boat, bay and pilot exist ('Error: "
    "boat <id> not found'); the boat is 'waiting' ('Error: boat <id> is <status>'); it has had fewer than "
    "2 failed haul attempts ('Error: boat <id> has had <n> failed haul attempts and must be craned'); the "
    "bay's `status` is 'free' ('Error: bay <id> is <status>'); the boat's `beam_m` is at most the bay's "
    "`max_beam_m` ('Error: boat <id> is <b> m wide; bay <id> takes up to <max> m'); a `shallow` bay takes "
    "boats up to 3.5 m only ('Error: boat <id> is <b> m wide; shallow bays take boats up to 3.5 m'); the "
    "pilot is on duty ('Error: pilot <id> is off duty'); the pilot's `moorings` is below their "
    "`max_moorings` ('Error: pilot <id> is at max_moorings (<n> boats)'). On success the boat's status "
    "becomes 'moored'."
)
PARAMS = {
    "type": "object",
    "properties": {"boat_id": S, "bay_id": S, "pilot_id": S},
    "required": ["boat_id", "bay_id", "pilot_id"],
}
SPEC = ToolSpec("moor_boat", TEXT, PARAMS, mutates=True)
COLS = SCHEMA["properties"]
OWN = COLS["boats"]["additionalProperties"]["properties"]


def _state() -> dict[str, Any]:
    return {
        "boats": {
            "K1": {"boat_id": "K1", "beam_m": 3.2, "haul_attempts": 1, "bay_id": None, "status": "waiting"},
            "K2": {"boat_id": "K2", "beam_m": 5.0, "haul_attempts": 0, "bay_id": None, "status": "waiting"},
            "K3": {"boat_id": "K3", "beam_m": 3.0, "haul_attempts": 2, "bay_id": None, "status": "waiting"},
            "K4": {"boat_id": "K4", "beam_m": 4.0, "haul_attempts": 0, "bay_id": None, "status": "waiting"},
        },
        "bays": {
            "Y1": {"bay_id": "Y1", "status": "free", "kind": "deep", "max_beam_m": 4.0},
            "Y2": {"bay_id": "Y2", "status": "taken", "kind": "deep", "max_beam_m": 6.0},
            "Y3": {"bay_id": "Y3", "status": "free", "kind": "deep", "max_beam_m": 6.0},
            "Y4": {"bay_id": "Y4", "status": "free", "kind": "shallow", "max_beam_m": 6.0},
        },
        "pilots": {
            "P1": {"pilot_id": "P1", "on_duty": True, "moorings": 1, "max_moorings": 3},
            "P2": {"pilot_id": "P2", "on_duty": False, "moorings": 0, "max_moorings": 3},
            "P3": {"pilot_id": "P3", "on_duty": True, "moorings": 3, "max_moorings": 3},
        },
    }


def test_each_clause_is_read_of_the_record_its_noun_names() -> None:
    read = possessive_checks("the bay's `status` is 'free'", PARAMS["properties"], OWN, COLS, "boat")
    assert read == [
        {"op": "named_state", "arg": "bay_id", "collection": "bays", "field": "status", "allowed": ["free"]}
    ]
    read = possessive_checks(
        "the boat's `beam_m` is at most the bay's `max_beam_m`", PARAMS["properties"], OWN, COLS, "boat"
    )
    assert read == [
        {"op": "named_cmp", "arg": "bay_id", "collection": "bays", "own": "beam_m", "theirs": "max_beam_m", "cmp": "<="}
    ]
    assert possessive_checks("the pilot is on duty", PARAMS["properties"], OWN, COLS, "boat")[0]["allowed"] == [True]
    assert possessive_checks("the pilot is not on duty", PARAMS["properties"], OWN, COLS, "boat")[0]["allowed"] == [
        False
    ]
    assert possessive_checks("the pilot is well rested", PARAMS["properties"], OWN, COLS, "boat") == []
    cap = possessive_checks("a `shallow` bay takes boats up to 3.5 m only", PARAMS["properties"], OWN, COLS, "boat")
    assert cap == [
        {
            "op": "named_kind_cap",
            "arg": "bay_id",
            "collection": "bays",
            "field": "kind",
            "in": ["shallow"],
            "own": "beam_m",
            "most": 3.5,
        }
    ]
    below = possessive_checks(
        "the pilot's `moorings` is below their `max_moorings`", PARAMS["properties"], OWN, COLS, "boat"
    )
    assert below == [
        {"op": "named_less", "arg": "pilot_id", "collection": "pilots", "a": "moorings", "b": "max_moorings"}
    ]


def _plan() -> ToolPlan:
    base = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    changed = docs_transition(SPEC, base, SCHEMA, "", list(_state()["boats"].values()), _state())
    assert changed is not None
    return allowed_checks(SPEC, changed, SCHEMA, TEXT)


def test_a_call_passes_only_when_every_named_record_is_as_listed() -> None:
    from tests.tool_calls import run_calls

    plan = _plan()
    assert {c["op"] for c in plan.checks} == {"named_state", "named_cmp", "named_less", "named_kind_cap", "bound"}
    assert [c for c in plan.checks if c["op"] == "bound"] == [
        {"op": "bound", "from": "self", "field": "haul_attempts", "cmp": "<", "value": 2}
    ]

    def moored(boat: str, bay: str) -> dict[str, Any]:  # the other arguments are kept on the record
        out = copy.deepcopy(_state())
        out["boats"][boat].update(status="moored", bay_id=bay, moor_pilot_id="P1")
        return out

    calls = [
        ({"boat_id": "K1", "bay_id": "Y1", "pilot_id": "P1"}, moored("K1", "Y1")),
        ({"boat_id": "K2", "bay_id": "Y3", "pilot_id": "P1"}, moored("K2", "Y3")),
        ({"boat_id": "K1", "bay_id": "Y2", "pilot_id": "P1"}, None),  # the bay is taken
        ({"boat_id": "K2", "bay_id": "Y1", "pilot_id": "P1"}, None),  # 5.0 m wide, the bay takes 4.0
        ({"boat_id": "K1", "bay_id": "Y1", "pilot_id": "P2"}, None),  # the pilot is off duty
        ({"boat_id": "K1", "bay_id": "Y1", "pilot_id": "P3"}, None),  # the pilot is at the cap
        ({"boat_id": "K3", "bay_id": "Y1", "pilot_id": "P1"}, None),  # two failed haul attempts already
        ({"boat_id": "K4", "bay_id": "Y4", "pilot_id": "P1"}, None),  # 4.0 m wide: too wide for a shallow bay
        ({"boat_id": "K1", "bay_id": "Y4", "pilot_id": "P1"}, moored("K1", "Y4")),  # 3.2 m fits
    ]
    run_calls(SPEC, plan, SCHEMA, _state, calls)
