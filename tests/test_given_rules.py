"""Rules for optional arguments that go together, read from a headed paragraph (given_rules.with_given_rules): the
checks a yard job's hull surcharge gets, how the rendered tool applies them, and the plans left alone."""

from __future__ import annotations

from typing import Any

from synth.envsynth.given_rules import with_given_rules
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
HULLS = {"type": "string", "enum": ["wooden", "steel", "fibreglass"]}
JOB = {"job_id": S, "pier_id": {**S, "x-references": "piers"}, "hull": HULLS, "status": S, "note": S}
COLS = {
    "yard_jobs": collection(JOB),
    "piers": collection({"pier_id": S, "berth_holders": {"type": "array", "items": S}}),
    "skippers": collection({"skipper_id": S, "name": S}),
}
SCHEMA = {"type": "object", "properties": COLS}
BILLED = "Skipper to bill; must be a current berth_holder of the pier."
RULES = (
    "**Hull surcharges**: only with `action` = `haul`, only on `wooden` and `steel` boats, amount greater than 0 and "
    "at most **$400.00** (larger ones go to the yard manager). `surcharge_amount` and `surcharge_skipper_id` must be "
    "given together."
)
TEXT = "Update a yard job: haul a boat out, launch it, or inspect it.\n\n" + RULES
WHEN = {"any_given": ["surcharge_amount", "surcharge_skipper_id"]}
STATUS = {"op": "set", "field": "status", "source": {"from": "arg", "name": "action"}}
NOTE = {"op": "set", "field": "note", "source": {"from": "arg", "name": "note"}, "if_given": True}
STRAY = {"op": "set", "field": "update_surcharge_amount", "source": {"from": "arg", "name": "surcharge_amount"}}
STRAY = {**STRAY, "if_given": True}  # a field the record does not have
GROUP_CHECKS = [
    {"op": "value_is", "source": {"from": "arg", "name": "action"}, "in": ["haul"], "given": WHEN},
    {"op": "value_is", "source": {"from": "record", "path": ["hull"]}, "in": ["wooden", "steel"], "given": WHEN},
    {
        "op": "value_is",
        "source": {"from": "arg", "name": "surcharge_amount"},
        "above": 0.0,
        "most": 400.0,
        "given": WHEN,
    },
    {"op": "given_with", "arg": "surcharge_skipper_id", "given": {"any_given": ["surcharge_amount"]}},
    {"op": "given_with", "arg": "surcharge_amount", "given": {"any_given": ["surcharge_skipper_id"]}},
]
MEMBER_CHECK = {
    "op": "linked_lists_arg",
    "via": "pier_id",
    "collection": "piers",
    "list": "berth_holders",
    "arg": "surcharge_skipper_id",
    "given": {"any_given": ["surcharge_skipper_id"]},
}


def _spec(text: str = TEXT, billed: str | None = BILLED, skipper: bool = True) -> ToolSpec:
    props: dict[str, Any] = {
        "job_id": S,
        "action": {"type": "string", "enum": ["haul", "launch", "inspect"]},
        "note": S,
        "surcharge_amount": N,
    }
    if skipper:
        props["surcharge_skipper_id"] = {**S, "description": billed} if billed else S
    return ToolSpec("update_yard_job", text, {"type": "object", "properties": props, "required": ["job_id", "action"]})


def _plan(kind: str = "recorded_update") -> ToolPlan:
    effects = [STATUS, NOTE, STRAY]
    base = {"kind": kind, "collection": "yard_jobs", "key_field": "job_id", "key_param": "job_id", "effects": effects}
    return ToolPlan.from_dict(base)


def _ruled(spec: ToolSpec | None = None, schema: dict[str, Any] = SCHEMA, sample: dict | None = None) -> ToolPlan:
    return with_given_rules(spec or _spec(), _plan(), schema, sample or {})


def _state() -> dict[str, Any]:
    def job(key: str, hull: str) -> dict[str, Any]:
        return {"job_id": key, "pier_id": "P1", "hull": hull, "status": "afloat", "note": ""}

    return {
        "yard_jobs": {"J1": job("J1", "wooden"), "J2": job("J2", "steel"), "J3": job("J3", "fibreglass")},
        "piers": {"P1": {"pier_id": "P1", "berth_holders": ["K1", "K2"]}},
        "skippers": {k: {"skipper_id": k, "name": f"Skipper {k}"} for k in ("K1", "K2", "K3")},
    }


def _after(key: str, action: str, note: str | None = None) -> dict[str, Any]:
    """The state a successful call leaves, by hand: `status` becomes the action, `note` only when given."""
    state = _state()
    state["yard_jobs"][key]["status"] = action
    if note is not None:
        state["yard_jobs"][key]["note"] = note
    return state


def test_the_paragraph_gives_the_groups_checks_and_the_member_rule() -> None:
    plan = _ruled()
    assert plan.checks == [*GROUP_CHECKS, MEMBER_CHECK]
    # the set of a field the record lacks, from a group argument, is dropped; the others stay
    assert plan.effects == [STATUS, NOTE]
    assert plan.evidence[-1] == "rules for optional arguments given together, read from the docs"
    # checks already in the plan are not added twice
    again = with_given_rules(_spec(), plan, SCHEMA, {})
    assert again.checks == plan.checks


def test_calls_without_the_groups_arguments_pass_whatever_the_hull_or_action() -> None:
    calls = [
        ({"job_id": "J3", "action": "inspect"}, _after("J3", "inspect")),
        ({"job_id": "J3", "action": "launch", "note": "antifouling done"}, _after("J3", "launch", "antifouling done")),
        ({"job_id": "J1", "action": "haul"}, _after("J1", "haul")),
        ({"job_id": "J2", "action": "inspect", "note": "keel bolts"}, _after("J2", "inspect", "keel bolts")),
        ({"job_id": "J9", "action": "haul"}, None),
    ]
    run_calls(_spec(), _ruled(), SCHEMA, _state, calls)


def test_a_surcharge_needs_a_haul_a_wooden_or_steel_hull_and_an_amount_in_range() -> None:
    def haul(key: str, amount: float, action: str = "haul") -> dict[str, Any]:
        return {"job_id": key, "action": action, "surcharge_amount": amount, "surcharge_skipper_id": "K1"}

    calls = [
        (haul("J1", 400), _after("J1", "haul")),  # at most 400.00: the bound itself is allowed
        (haul("J2", 0.01), _after("J2", "haul")),
        (haul("J1", 120.5, "launch"), None),
        (haul("J2", 50, "inspect"), None),
        (haul("J3", 120.5), None),  # fibreglass
        (haul("J1", 0), None),  # greater than 0
        (haul("J1", -5), None),
        (haul("J1", 400.01), None),  # larger ones go to the yard manager
    ]
    run_calls(_spec(), _ruled(), SCHEMA, _state, calls)


def test_amount_and_skipper_go_together_and_the_skipper_holds_a_berth_on_the_pier() -> None:
    calls = [
        ({"job_id": "J1", "action": "haul", "surcharge_amount": 80}, None),
        ({"job_id": "J1", "action": "haul", "surcharge_skipper_id": "K1"}, None),
        ({"job_id": "J1", "action": "haul", "surcharge_amount": 80, "surcharge_skipper_id": "K3"}, None),
        (
            {"job_id": "J1", "action": "haul", "surcharge_amount": 80, "surcharge_skipper_id": "K2"},
            _after("J1", "haul"),
        ),
    ]
    run_calls(_spec(), _ruled(), SCHEMA, _state, calls)


def test_a_member_spoken_in_two_words_names_the_piers_berth_holders() -> None:
    plan = _ruled(_spec(billed="Skipper to bill; must be a current berth holder of the pier."))
    assert MEMBER_CHECK in plan.checks


def test_a_heading_matching_fewer_than_two_optional_parameters_adds_nothing() -> None:
    plan = _plan()
    assert with_given_rules(_spec(skipper=False), plan, SCHEMA, {}) is plan  # one `surcharge_` parameter
    assert with_given_rules(_spec(TEXT.replace("Hull surcharges", "Hull fees"), billed=None), plan, SCHEMA, {}) is plan
    required = _spec(billed=None)
    required.parameters["required"] = ["job_id", "action", "surcharge_amount"]  # a required one is not in a group
    assert with_given_rules(required, plan, SCHEMA, {}) is plan
    # the member rule stands on its own, without any group
    alone = with_given_rules(_spec(TEXT.replace("Hull surcharges", "Hull fees")), plan, SCHEMA, {})
    assert alone.checks == [MEMBER_CHECK] and alone.effects == [STATUS, NOTE, STRAY]


def test_only_on_values_are_matched_to_the_one_text_field_holding_them() -> None:
    others = _ruled(_spec(TEXT.replace("`wooden` and `steel`", "`teak` and `carbon`"), billed=None))
    assert others.checks == [c for c in GROUP_CHECKS if c.get("source") != {"from": "record", "path": ["hull"]}]
    # without an enum the sample's values are read; a second field holding them too leaves it unread
    plain = {**JOB, "hull": S}
    sample = {"yard_jobs": {"J1": {"hull": "wooden"}, "J2": {"hull": "steel"}}}
    spec = _spec(billed=None)
    assert _ruled(spec, {"properties": {"yard_jobs": collection(plain)}}, sample).checks == GROUP_CHECKS
    both = {"yard_jobs": {"J1": {"hull": "wooden", "status": "steel"}, "J2": {"hull": "steel", "status": "wooden"}}}
    assert len(_ruled(spec, {"properties": {"yard_jobs": collection(plain)}}, both).checks) == len(GROUP_CHECKS) - 1


def test_a_plan_other_than_a_recorded_update_is_unchanged() -> None:
    plan = _plan("update")
    assert with_given_rules(_spec(), plan, SCHEMA, {}) is plan
    no_collection = ToolPlan.from_dict({**_plan().to_dict(), "collection": None})
    assert with_given_rules(_spec(), no_collection, SCHEMA, {}) is no_collection
