"""A boat put into a shed: the call names a boat and a shed, and its docs answer "the updated boat record", so the
boat is the record it changes (not the shed its name mentions); "the shed becomes 'full' with this boat_id" names
the boat on the shed, and the boat's own key is never copied from the shed though the stored sample boats agree
with their sheds on it. Planned by the pipeline's own readings, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.collections import CollectionDraft, returned_record
from synth.envsynth.plan import PlanContext, ToolPlan, pick_collection
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.priors import tool_priors
from synth.envsynth.transition_copies import transition_copies
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S = {"type": "string"}
BOAT_STATES = {"type": "string", "x-enum": ["landed", "sheded", "gone"]}
SCHEMA = {
    "type": "object",
    "properties": {
        "boats": collection({"boat_id": S, "status": BOAT_STATES, "shed_id": {"type": ["string", "null"]}}),
        "sheds": collection(
            {
                "shed_id": S,
                "status": {"type": "string", "x-enum": ["empty", "full"]},
                "boat_id": {"type": ["string", "null"]},
            }
        ),
    },
}
TEXT = (
    "Put a boat into a shed. The boat must be 'landed'. On success the shed becomes 'full' with this boat_id, the "
    "boat's shed_id is set and its status becomes 'sheded' (it is stored in the shed). Returns the updated boat "
    "record."
)
PARAMS = {"type": "object", "properties": {"boat_id": S, "shed_id": S}, "required": ["boat_id", "shed_id"]}
SPEC = ToolSpec("store_in_shed", TEXT, PARAMS)


def _state() -> dict[str, Any]:
    return {
        "boats": {
            "A1": {"boat_id": "A1", "status": "landed", "shed_id": None},
            "A2": {"boat_id": "A2", "status": "sheded", "shed_id": "H2"},
            "A3": {"boat_id": "A3", "status": "sheded", "shed_id": "H3"},
        },
        "sheds": {
            "H1": {"shed_id": "H1", "status": "empty", "boat_id": None},
            "H2": {"shed_id": "H2", "status": "full", "boat_id": "A2"},
            "H3": {"shed_id": "H3", "status": "full", "boat_id": "A3"},
        },
    }


def test_the_record_answered_is_the_record_changed() -> None:
    drafts = {
        "boats": CollectionDraft("boats", "boat", key_field="boat_id"),
        "sheds": CollectionDraft("sheds", "shed", key_field="shed_id"),
    }
    ctx = PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})
    assert pick_collection(SPEC, tool_priors(SPEC), ctx)[0] == "boats"
    assert returned_record(SPEC, ["boats", "sheds"]) == "boats"
    assert returned_record(SPEC, ["boats"]) is None  # one named record: nothing to choose
    assert returned_record(ToolSpec("x", "Returns the shed.", PARAMS), ["boats", "sheds"]) is None


def test_the_shed_takes_the_boat_and_the_boat_keeps_its_key() -> None:
    own = SCHEMA["properties"]["boats"]["additionalProperties"]["properties"]
    copies = transition_copies(TEXT, "boats", own, {"shed_id": "sheds"}, _state(), {"status": "sheded"})
    assert copies == []
    base = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    plan = docs_transition(SPEC, base, SCHEMA, "", list(_state()["boats"].values()), _state())
    assert plan is not None
    held = [e for e in plan.effects if e["op"] == "ref_set" and e.get("own_key")]
    assert [(e["collection"], e["field"]) for e in held] == [("sheds", "boat_id")]

    def stored() -> dict[str, Any]:
        out = copy.deepcopy(_state())
        out["boats"]["A1"].update(status="sheded", shed_id="H1")
        out["sheds"]["H1"].update(status="full", boat_id="A1")
        return out

    run_calls(SPEC, plan, SCHEMA, _state, [({"boat_id": "A1", "shed_id": "H1"}, stored())])
    run_calls(SPEC, plan, SCHEMA, _state, [({"boat_id": "A2", "shed_id": "H1"}, None)])  # already stored
