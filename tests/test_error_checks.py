"""Checks read from the errors a change's docs list (a tool library's membership passes being handed to another
branch): an expired pass, one with no loans left, one with an open loan of a tool, and one whose holder is a
junior member; each refused by the runtime while the other states pass."""

from __future__ import annotations

import copy

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.error_checks import error_checks
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
SCHEMA = {
    "type": "object",
    "properties": {
        "passes": collection(
            {
                "pass_id": S,
                "member_id": S,
                "status": {"type": "string", "x-enum": ["valid", "moved"]},
                "valid_until": S,
                "expires_on": S,
                "loans_left": {"type": "integer"},
            }
        ),
        "members": collection({"member_id": S, "tier": {"type": ["string", "null"], "x-enum": ["junior", "adult"]}}),
        "tool_loans": collection(
            {"loan_id": S, "pass_id": S, "state": {"type": "string", "x-enum": ["out", "late", "back"]}}
        ),
    },
}
TEXT = (
    "Hand a pass over to another branch. A pass with an out or late loan must have it returned first.\n\n"
    'Errors: "Error: pass <id> is <status>; only valid passes can move"; "Error: pass <id> expired on <date>"; '
    '"Error: pass <id> has no loans left to move"; "Error: pass <id> has an open tool loan <loan_id>; return it '
    'first"; "Error: <id> is a Tier junior pass; junior passes stay at home"; "Error: pass <id> is haunted by '
    '<ghost>".'
)
SPEC = ToolSpec("move_pass", TEXT, {"type": "object", "properties": {"pass_id": S}, "required": ["pass_id"]})
PLAN = ToolPlan(kind="recorded_update", collection="passes", key_field="pass_id", key_param="pass_id")
TODAY = "2031-05-01"
STATE = {
    "passes": {
        "P1": {"pass_id": "P1", "member_id": "M1", "status": "valid", "expires_on": "2031-06-01", "loans_left": 2}
    },
    "members": {"M1": {"member_id": "M1", "tier": "adult"}},
    "tool_loans": {"L1": {"loan_id": "L1", "pass_id": "P1", "state": "back"}},
}


def _passes(state: dict) -> bool:
    plan = allowed_checks(SPEC, PLAN, SCHEMA, TEXT, TODAY)
    record = state["passes"]["P1"]
    return all(fg_check(c, {"pass_id": "P1"}, record, state) for c in plan.checks)


def test_each_listed_error_becomes_a_check() -> None:
    checks, states = error_checks(TEXT, "passes", "pass_id", SCHEMA, TODAY)
    assert states == {}
    assert checks == [
        {"op": "dated", "field": "expires_on", "cmp": ">=", "value": TODAY},
        {"op": "bound", "from": "self", "field": "loans_left", "cmp": ">", "value": 0},
        {
            "op": "cap",
            "arg": "pass_id",
            "collection": "tool_loans",
            "field": "pass_id",
            "where": {"state": ["out", "late"]},
            "max": 1,
        },
        {
            "op": "linked_state",
            "collection": "members",
            "via": "member_id",
            "field": "tier",
            "allowed": ["adult", None],
        },
    ]  # the haunting names nothing the records hold: left out


def test_the_runtime_refuses_each_listed_state_and_passes_the_others() -> None:
    assert _passes(STATE)
    for path, value in [
        (("passes", "P1", "expires_on"), "2031-04-30"),
        (("passes", "P1", "loans_left"), 0),
        (("tool_loans", "L1", "state"), "late"),
        (("members", "M1", "tier"), "junior"),
    ]:
        state = copy.deepcopy(STATE)
        state[path[0]][path[1]][path[2]] = value
        assert not _passes(state), path
    state = copy.deepcopy(STATE)
    state["passes"]["P1"]["expires_on"] = TODAY  # expiring today is not expired yet
    assert _passes(state)


def test_no_business_date_or_no_expiry_field_reads_no_date_check() -> None:
    checks, _ = error_checks(TEXT, "passes", "pass_id", SCHEMA, None)
    assert not any(c["op"] == "dated" for c in checks)
    other = copy.deepcopy(SCHEMA)
    other["properties"]["passes"]["additionalProperties"]["properties"]["expiry_note"] = S  # two expiry fields
    checks, _ = error_checks(TEXT, "passes", "pass_id", other, TODAY)
    assert not any(c["op"] == "dated" for c in checks)


def test_an_own_field_holding_the_kind_becomes_the_records_states() -> None:
    text = 'Errors: "Error: <id> is a Status moved pass; it cannot move twice".'
    checks, states = error_checks(text, "passes", "pass_id", SCHEMA, TODAY)
    assert checks == [] and states == {"status": ["valid", None]}
