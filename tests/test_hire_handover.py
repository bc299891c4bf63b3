"""A kayak club's hand-over, as its docs word it: `launch_kayak(hire_id, permit_code)` changes the hire (the
parameter names a hire, none a kayak), from the state "turns a `booked` hire into an `out` one" names; the permit
code must match the member's on file (case aside); the kayak's engine hours and tank level "are recorded as
`hours_out` / `tank_out`" (which kayak fields, the sample hires already out show); "the craft becomes `afloat`"
sets the kayak's status (no collection is called "craft": the value only a kayak status knows says so); the
history entry shows the hours just recorded; "when there is one" inside a parenthesis does not make the kayak's
change conditional."""

from __future__ import annotations

from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.collections import CollectionDraft
from synth.envsynth.docs_entries import business_date
from synth.envsynth.docs_linked import linked_sets
from synth.envsynth.plan import PlanContext, ToolPlan, decide_plan
from synth.envsynth.policy_rules import docs_transition, transition_rules
from synth.envsynth.priors import tool_priors
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, INT = {"type": "string"}, {"type": "integer"}
ENTRY = {
    "type": "object",
    "properties": {"date": S, "event": {"type": "string", "x-enum": ["booked", "launched"]}, "detail": S},
}
HIRE = {
    "hire_id": S,
    "member_id": S,
    "kayak_id": S,
    "status": {"type": "string", "x-enum": ["booked", "out", "back", "cancelled"]},
    "hours_out": {"type": ["integer", "null"]},
    "tank_out": {"type": ["integer", "null"]},
    "history": {"type": "array", "items": ENTRY},
}
KAYAK = {
    "kayak_id": S,
    "status": {"type": "string", "x-enum": ["docked", "booked", "afloat"]},
    "engine_hours": INT,
    "tank_level": INT,
}
MEMBER = {"member_id": S, "name": S, "permit_code": S}
SCHEMA = {
    "type": "object",
    "properties": {"hires": collection(HIRE), "kayaks": collection(KAYAK), "members": collection(MEMBER)},
}
LAUNCH = ToolSpec(
    "launch_kayak",
    "Sends the kayak out and turns a `booked` hire into an `out` one.\n\nChecks: the permit code presented "
    "matches the one on file (case-insensitive).\n\nEffects: the kayak's current engine hours and tank level are "
    "recorded as `hours_out` / `tank_out`, the craft becomes `afloat`, the hire becomes `out` and a `launched` "
    "history entry is added (noting the hours when there are any).",
    {"type": "object", "properties": {"hire_id": S, "permit_code": S}, "required": ["hire_id", "permit_code"]},
)
POLICY = "The business date for the jetty is **2031-07-04**; every rule uses it."


def _launched(hire: str, kayak: str, hours: int, tank: int) -> dict[str, Any]:
    entries = [{"date": "2031-07-01", "event": "booked", "detail": kayak}]
    entries.append({"date": "2031-07-02", "event": "launched", "detail": f"engine at {hours} h"})
    return {
        "hire_id": hire,
        "member_id": "M1",
        "kayak_id": kayak,
        "status": "out",
        "hours_out": hours,
        "tank_out": tank,
        "history": entries,
    }


def _state() -> dict[str, Any]:
    return {
        "members": {"M1": {"member_id": "M1", "name": "Ines", "permit_code": "KP-77a"}},
        "kayaks": {
            "K1": {"kayak_id": "K1", "status": "afloat", "engine_hours": 120, "tank_level": 6},
            "K2": {"kayak_id": "K2", "status": "afloat", "engine_hours": 87, "tank_level": 8},
            "K3": {"kayak_id": "K3", "status": "booked", "engine_hours": 41, "tank_level": 5},
        },
        "hires": {
            "H1": _launched("H1", "K1", 120, 6),
            "H2": _launched("H2", "K2", 87, 8),
            "H3": {
                "hire_id": "H3",
                "member_id": "M1",
                "kayak_id": "K3",
                "status": "booked",
                "hours_out": None,
                "tank_out": None,
                "history": [{"date": "2031-07-03", "event": "booked", "detail": "K3"}],
            },
        },
    }


def test_the_hire_a_parameter_names_is_changed_not_the_kayak_the_name_says() -> None:
    drafts = {
        name: CollectionDraft(name=name, resource=name[:-1], fields=dict(props), key_field=f"{name[:-1]}_id")
        for name, props in (("hires", HIRE), ("kayaks", KAYAK), ("members", MEMBER))
    }
    ctx = PlanContext(collections=drafts, singletons={}, client=None, votes=1, trees={})
    spec = ToolSpec(LAUNCH.name, LAUNCH.description, LAUNCH.parameters, mutates=True)
    plan = decide_plan(spec, tool_priors(spec), ctx)
    assert (plan.collection, plan.key_param) == ("hires", "hire_id")


def test_the_state_left_the_date_and_the_kayak_status_read_from_the_words() -> None:
    assert transition_rules(LAUNCH, SCHEMA["properties"]["hires"]["additionalProperties"], "") == (
        {"status": "out"},
        {"status": ["booked"]},
    )
    assert business_date(POLICY) == "2031-07-04"
    assert linked_sets(LAUNCH.description, "hires", SCHEMA) == [
        {"op": "ref_set", "collection": "kayaks", "via": "kayak_id", "field": "status", "value": "afloat"}
    ]
    conditional = LAUNCH.description.replace(
        "the craft becomes `afloat`", "the craft becomes `afloat` if it was `booked`"
    )
    assert linked_sets(conditional, "hires", SCHEMA) == []


def test_launching_records_the_kayak_readings_checks_the_permit_and_logs_the_hours() -> None:
    base = ToolPlan(kind="update", collection="hires", key_field="hire_id", key_param="hire_id")
    plan = docs_transition(LAUNCH, base, SCHEMA, POLICY, list(_state()["hires"].values()), _state())
    assert plan is not None and not any(e["field"].endswith("permit_code") for e in plan.effects if "field" in e)
    out = _state()
    hire = out["hires"]["H3"]
    hire.update(status="out", hours_out=41, tank_out=5)
    hire["history"].append({"date": "2031-07-04", "event": "launched", "detail": "engine at 41 h"})
    out["kayaks"]["K3"]["status"] = "afloat"
    calls = [
        ({"hire_id": "H3", "permit_code": "kp-77A"}, out),
        ({"hire_id": "H3", "permit_code": "KP-78"}, None),  # not the member's permit
        ({"hire_id": "H1", "permit_code": "KP-77a"}, None),  # already out
    ]
    run_calls(LAUNCH, plan, SCHEMA, _state, calls)


def test_a_checks_list_gives_date_and_linked_state_checks() -> None:
    member = {**MEMBER, "status": {"type": "string", "x-enum": ["active", "barred"]}}
    hire = {**HIRE, "start_date": S, "end_date": S}
    schema = {"type": "object", "properties": {"hires": collection(hire), "members": collection(member)}}
    spec = ToolSpec(
        "launch_kayak",
        "Checks, in this order: the hire is `booked`; its start date has arrived (no launch before `start_date`); "
        "its end date is still after the business date; and the member account is active.",
        LAUNCH.parameters,
    )
    plan = ToolPlan(kind="recorded_update", collection="hires", key_field="hire_id", key_param="hire_id")
    checks = allowed_checks(spec, plan, schema, spec.description, "2031-07-04").checks
    assert checks == [
        {"op": "dated", "field": "start_date", "cmp": "<=", "value": "2031-07-04"},
        {"op": "dated", "field": "end_date", "cmp": ">", "value": "2031-07-04"},
        {"op": "linked_state", "collection": "members", "via": "member_id", "field": "status", "allowed": ["active"]},
    ]
