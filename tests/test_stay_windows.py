"""An observatory's `start_session(session_id)`, as its docs word it: "today's business date must fall within the
slot: on or after the open date and before the close date" gives two date checks against the business date, and
"The telescope must not be retired" the telescope's other known states; a session whose dates do not hold today,
or whose telescope is retired, is refused."""

from __future__ import annotations

from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, DATE = {"type": "string"}, {"type": "string", "format": "date"}
SESSION = {
    "session_id": S,
    "scope_id": {"type": "string", "x-references": "telescopes"},
    "open_date": DATE,
    "close_date": DATE,
    "status": {"type": "string", "x-enum": ["booked", "running"]},
}
SCOPE = {"telescope_id": S, "status": {"type": "string", "x-enum": ["ready", "busy", "retired"]}}
SCHEMA = {"type": "object", "properties": {"sessions": collection(SESSION), "telescopes": collection(SCOPE)}}
START = ToolSpec(
    "start_session",
    "Mark a session as started. The session must be booked, and today's business date must fall within the slot: on "
    "or after the open date and before the close date. The telescope must not be retired.\n\nEffects: the session "
    "becomes `running`.",
    {"type": "object", "properties": {"session_id": S}, "required": ["session_id"]},
    mutates=True,
)
TODAY = "2034-09-10"


def _state() -> dict[str, Any]:
    def session(key: str, scope: str, opens: str, closes: str) -> dict[str, Any]:
        return {"session_id": key, "scope_id": scope, "open_date": opens, "close_date": closes, "status": "booked"}

    return {
        "telescopes": {
            "T1": {"telescope_id": "T1", "status": "ready"},
            "T2": {"telescope_id": "T2", "status": "retired"},
        },
        "sessions": {
            "S1": session("S1", "T1", "2034-09-10", "2034-09-12"),  # opens today
            "S2": session("S2", "T1", "2034-09-11", "2034-09-12"),  # not open yet
            "S3": session("S3", "T1", "2034-09-08", "2034-09-10"),  # closes today
            "S4": session("S4", "T2", "2034-09-09", "2034-09-12"),  # retired telescope
        },
    }


def test_today_within_the_slot_and_a_telescope_not_retired() -> None:
    base = ToolPlan(
        kind="recorded_update",
        collection="sessions",
        key_field="session_id",
        key_param="session_id",
        effects=[{"op": "set", "field": "status", "source": {"from": "const", "value": "running"}}],
        preconditions={"status": ["booked"]},
    )
    plan = allowed_checks(START, base, SCHEMA, START.description, TODAY)
    assert plan.checks == [
        {"op": "dated", "field": "open_date", "cmp": "<=", "value": TODAY},
        {"op": "dated", "field": "close_date", "cmp": ">", "value": TODAY},
        {
            "op": "linked_state",
            "collection": "telescopes",
            "via": "scope_id",
            "field": "status",
            "allowed": ["ready", "busy"],
        },
    ]
    started = _state()
    started["sessions"]["S1"]["status"] = "running"
    calls = [({"session_id": "S1"}, started), ({"session_id": "S2"}, None), ({"session_id": "S3"}, None)]
    run_calls(START, plan, SCHEMA, _state, calls + [({"session_id": "S4"}, None)])


def test_the_linked_records_own_value_cannot_be_added() -> None:
    from synth.envsynth.expr_runtime import fg_check

    member = {"member_id": S, "tag_code": S}
    visit = {"visit_id": S, "member_id": S, "guests": {"type": "array", "items": {"type": "object"}}}
    schema = {"type": "object", "properties": {"visits": collection(visit), "members": collection(member)}}
    spec = ToolSpec(
        "add_guest",
        "Add a guest tag to a visit. The member's own tag_code is already included and cannot be added.",
        {"type": "object", "properties": {"visit_id": S, "code": S}},
    )
    plan = ToolPlan(kind="item_add", collection="visits", key_field="visit_id", key_param="visit_id")
    (check,) = allowed_checks(spec, plan, schema, spec.description, None).checks
    assert check == {"op": "not_held", "arg": "code", "collection": "members", "via": "member_id", "field": "tag_code"}
    state = {"members": {"M1": {"member_id": "M1", "tag_code": "TG 41"}}}
    record = {"visit_id": "V1", "member_id": "M1", "guests": []}
    assert not fg_check(check, {"code": "tg41"}, record, state)
    assert fg_check(check, {"code": "TG42"}, record, state)


def test_a_linked_state_named_by_its_value_and_a_linked_expiry() -> None:
    observer = {"observer_id": S, "pass_expiry": DATE}
    session = {**SESSION, "observer_id": {"type": "string", "x-references": "observers"}}
    schema = {
        "type": "object",
        "properties": {
            "sessions": collection(session),
            "telescopes": collection(SCOPE),
            "observers": collection(observer),
        },
    }
    spec = ToolSpec(
        "start_session",
        "Checks, in this order: the pass presented has not expired; and the scope is still in `ready` status.",
        START.parameters,
    )
    plan = ToolPlan(kind="recorded_update", collection="sessions", key_field="session_id", key_param="session_id")
    checks = allowed_checks(spec, plan, schema, spec.description, TODAY).checks
    expiry = {"op": "dated", "field": "pass_expiry", "cmp": ">=", "value": TODAY}
    assert checks == [
        {**expiry, "via": "observer_id", "collection": "observers"},
        {"op": "linked_state", "collection": "telescopes", "via": "scope_id", "field": "status", "allowed": ["ready"]},
    ]
    from synth.envsynth.expr_runtime import fg_check

    state = {"observers": {"O1": {"observer_id": "O1", "pass_expiry": "2034-09-09"}}}
    assert not fg_check(checks[0], {}, {"observer_id": "O1"}, state)
    state["observers"]["O1"]["pass_expiry"] = TODAY
    assert fg_check(checks[0], {}, {"observer_id": "O1"}, state)
