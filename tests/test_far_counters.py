"""A number two links away moves where the docs say whose it is: ending a mooring frees a place on the pier its
berth's `pier_id` names ("the pier's `berths_free` count goes up by one"), the link read as the call found it."""

from __future__ import annotations

import copy

from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.far_targets import far_targets
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, INT = {"type": "string"}, {"type": "integer"}
NULLABLE = {"type": ["string", "null"], "x-enum": ["P1", "P2"]}
SCHEMA = {
    "type": "object",
    "properties": {
        "piers": collection({"pier_id": S, "berths_free": INT}),
        "berths": collection(
            {"berth_id": S, "pier_id": NULLABLE, "status": {"type": "string", "x-enum": ["free", "taken"]}}
        ),
        "moorings": collection(
            {"mooring_id": S, "berth_id": S, "status": {"type": "string", "x-enum": ["active", "ended"]}}
        ),
    },
}
TEXT = (
    "Ends an active mooring: status becomes `ended`; the berth's status becomes 'free' and its pier_id null; "
    "the pier's `berths_free` count goes up by one."
)


def _state() -> dict:
    return {
        "piers": {"P1": {"pier_id": "P1", "berths_free": 2}, "P2": {"pier_id": "P2", "berths_free": 0}},
        "berths": {"B1": {"berth_id": "B1", "pier_id": "P2", "status": "taken"}},
        "moorings": {"M1": {"mooring_id": "M1", "berth_id": "B1", "status": "active"}},
    }


def test_the_pier_two_links_away_gets_its_place_back() -> None:
    end = ToolSpec("end_mooring", TEXT, {"type": "object", "properties": {"mooring_id": S}, "required": ["mooring_id"]})
    plan = docs_transition(end, ToolPlan(kind="update", collection="moorings", key_param="mooring_id"), SCHEMA, "")
    assert plan is not None
    after = copy.deepcopy(_state())
    after["moorings"]["M1"]["status"] = "ended"
    after["berths"]["B1"].update(status="free", pier_id=None)
    after["piers"]["P2"]["berths_free"] = 1  # the pier the berth named before the call cleared it
    run_calls(end, plan, SCHEMA, _state, [({"mooring_id": "M1"}, after)])


def test_only_where_the_sentence_says_whose_number_it_is() -> None:
    own = SCHEMA["properties"]["moorings"]["additionalProperties"]["properties"]
    assert [t[0] for t in far_targets(SCHEMA["properties"], own, "moorings")] == ["piers"]
    assert docs_counters("The berths_free count goes up by one.", "moorings", "mooring_id", SCHEMA, {}) == []
    [moved] = docs_counters("The pier's berths_free goes up by 1.", "moorings", "mooring_id", SCHEMA, {})
    assert moved["path"][0] == {"from": "linked", "collection": "berths", "via": "berth_id", "field": "pier_id"}
