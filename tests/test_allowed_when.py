"""Conditions a change is allowed under, read from an "allowed only when ..." sentence (a tool shed extending a
hire): a count of the record, the state of the record and of a record it links, an empty list of a linked record,
and a date of the record; each checked by the runtime, and nothing read from a sentence without "only"."""

from __future__ import annotations

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec

S = {"type": "string"}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


SCHEMA = {
    "type": "object",
    "properties": {
        "hires": _collection(
            {
                "hire_id": S,
                "renter_id": S,
                "tool_id": S,
                "state": {"type": "string", "x-enum": ["out", "back"]},
                "return_by": S,
                "extensions": {"type": "integer"},
            }
        ),
        "renters": _collection({"renter_id": S, "standing": {"type": "string", "x-enum": ["active", "barred"]}}),
        "tools": _collection({"tool_id": S, "wait_list": {"type": "array", "items": S}}),
    },
}
TEXT = (
    "Pushes a hire's return date back by a week. Allowed only when the hire is 'out' and not late (return by on or "
    "after 2030-06-10), has been extended fewer than 2 times, the renter is 'active' and owes nothing, and nobody "
    "is waiting in the tool's wait list. Returns the hire."
)
SPEC = ToolSpec("extend_hire", TEXT, {"type": "object", "properties": {"hire_id": S}, "required": ["hire_id"]})
PLAN = ToolPlan(kind="recorded_update", collection="hires", key_field="hire_id", key_param="hire_id")


def test_each_clause_becomes_a_check_or_a_state() -> None:
    plan = allowed_checks(SPEC, PLAN, SCHEMA, TEXT)
    assert plan.preconditions == {"state": ["out"]}
    assert plan.checks == [
        {"op": "dated", "field": "return_by", "cmp": ">=", "value": "2030-06-10"},
        {"op": "bound", "from": "self", "field": "extensions", "cmp": "<", "value": 2},
        {"op": "linked_state", "collection": "renters", "via": "renter_id", "field": "standing", "allowed": ["active"]},
        {"op": "empty", "collection": "tools", "via": "tool_id", "field": "wait_list"},
    ]
    state = {
        "renters": {"R1": {"standing": "active"}, "R2": {"standing": "barred"}},
        "tools": {"T1": {"wait_list": []}, "T2": {"wait_list": ["R2"]}},
    }
    fine = {"renter_id": "R1", "tool_id": "T1", "return_by": "2030-06-10", "extensions": 1}
    assert all(fg_check(c, {}, fine, state) for c in plan.checks)
    for change in ({"renter_id": "R2"}, {"tool_id": "T2"}, {"return_by": "2030-06-09"}, {"extensions": 2}):
        assert not all(fg_check(c, {}, {**fine, **change}, state) for c in plan.checks), change


def test_no_only_sentence_or_an_unknown_noun_changes_nothing() -> None:
    plain = "Pushes a hire's return date back. The hire is 'out' and has been extended fewer than 2 times."
    assert allowed_checks(ToolSpec("extend_hire", plain, SPEC.parameters), PLAN, SCHEMA, plain) == PLAN
    odd = "Allowed only when the lender is 'active'."  # no `lender_id` on the hire
    assert allowed_checks(ToolSpec("extend_hire", odd, SPEC.parameters), PLAN, SCHEMA, odd) == PLAN
    read = ToolPlan(kind="get", collection="hires", key_param="hire_id")
    assert allowed_checks(SPEC, read, SCHEMA, TEXT) == read  # a read is no change
