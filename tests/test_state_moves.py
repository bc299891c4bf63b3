"""A state change whose new state is the argument, along the moves the docs draw ("`open` → `scheduled` or
`cancelled`; `scheduled` → `done` or `cancelled`"): the record takes the argument when the move is drawn from its
state and is refused otherwise; its log gets the written entry; a happy-path test starts from a state with a move."""

from __future__ import annotations

import random

from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.state_moves import arrow_moves
from synth.envsynth.testgen import _required_values
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S = {"type": "string"}
STATUS = {"type": "string", "x-enum": ["open", "scheduled", "done", "cancelled"]}
LOG = {"type": "array", "items": {"type": "object", "properties": {"date": S, "status": STATUS}}}
SCHEMA = {"type": "object", "properties": {"visits": collection({"visit_id": S, "status": STATUS, "log": LOG})}}
TEXT = (
    "Moves a visit along its states: `open` → `scheduled` or `cancelled`; `scheduled` → `done` or `cancelled`. "
    'Every change appends `{"date": <today>, "status": <new status>}` to the visit\'s log. The business date is '
    "2031-02-03."
)
PARAMS = {"type": "object", "properties": {"visit_id": S, "status": S}, "required": ["visit_id", "status"]}
SPEC = ToolSpec("move_visit", TEXT, PARAMS)


def _state() -> dict:
    return {"visits": {"V1": {"visit_id": "V1", "status": "open", "log": []}}}


def test_the_moves_drawn_are_read_with_the_parameter_that_gives_the_new_state() -> None:
    props = SCHEMA["properties"]["visits"]["additionalProperties"]["properties"]
    assert arrow_moves(TEXT, props, PARAMS["properties"]) == {
        "field": "status",
        "arg": "status",
        "map": {"open": ["scheduled", "cancelled"], "scheduled": ["done", "cancelled"]},
    }
    assert arrow_moves("`open` → `shut`.", props, PARAMS["properties"]) is None  # one move is no map
    assert arrow_moves(TEXT, props, {"visit_id": S}) is None  # no parameter gives the new state


def test_a_drawn_move_is_made_and_logged_another_refused() -> None:
    plan = docs_transition(SPEC, ToolPlan(kind="update", collection="visits", key_param="visit_id"), SCHEMA, "")
    assert plan is not None
    after = _state()
    after["visits"]["V1"].update(status="scheduled", log=[{"date": "2031-02-03", "status": "scheduled"}])
    run_calls(SPEC, plan, SCHEMA, _state, [({"visit_id": "V1", "status": "scheduled"}, after)])
    run_calls(SPEC, plan, SCHEMA, _state, [({"visit_id": "V1", "status": "done"}, None)])  # not from `open`


def test_a_happy_path_starts_where_a_move_is_drawn() -> None:
    for seed in range(10):
        state, args = _state(), {"visit_id": "V1", "status": "done"}
        _required_values(SPEC, state, args, SCHEMA, random.Random(seed))
        start = state["visits"]["V1"]["status"]
        assert args["status"] in {"open": ["scheduled", "cancelled"], "scheduled": ["done", "cancelled"]}[start]
