"""Yard work by kind at one stage of a job's workflow, read from its docs: "Completing a job also does the yard
work: - `haul` / `relaunch`: the crane turns `busy` and the skipper becomes `afloat`; - `scrap`: ..." gives
`ref_set` effects (stage_guards.kind_sets) guarded on the job's kind and on the argument giving the completed
state; planned by policy_rules.docs_transition, rendered and run, completing a job of one kind changes the linked
crane and skipper as that kind's item says, and no other stage or kind touches them."""

from __future__ import annotations

from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.stage_guards import kind_sets, stage_split
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S = {"type": "string"}
STATES = ["open", "dispatched", "completed", "dropped"]
JOB = {
    "job_id": S,
    "crane_id": S,
    "skipper_id": S,
    "status": {"type": "string", "x-enum": STATES},
    "kind": {"type": "string", "x-enum": ["haul", "scrap", "polish"]},  # no sample shows a relaunch
}
CRANE = {"crane_id": S, "status": {"type": "string", "x-enum": ["idle", "busy", "parked"]}}
SKIPPER = {"skipper_id": S, "status": {"type": "string", "x-enum": ["ashore", "afloat"]}}
BOAT = {"boat_id": S, "status": {"type": "string", "x-enum": ["moored", "hauled"]}}


def _cols(job: dict[str, Any] = JOB) -> dict[str, Any]:
    return {
        "jobs": collection(job),
        "cranes": collection(CRANE),
        "skippers": collection(SKIPPER),
        "boats": collection(BOAT),
    }


SCHEMA = {"type": "object", "properties": _cols()}
FLOW = (
    "Moves a job through its workflow: `open` → `dispatched` or `dropped`; `dispatched` → `completed` or "
    "`dropped`. Completed and dropped jobs are final."
)
ITEMS = (
    "\n\n- `haul` / `relaunch`: the crane turns `busy` and the skipper becomes `afloat`;\n"
    "- `scrap`: the crane turns `parked` and the skipper becomes `ashore`."
)
TEXT = FLOW + " Completing a job also does the yard work:" + ITEMS
MOVED = {
    "field": "status",
    "arg": "status",
    "map": {"open": ["dispatched", "dropped"], "dispatched": ["completed", "dropped"]},
}
AT_COMPLETED = {"arg": "status", "in": ["completed"]}
ARGS = {
    "type": "object",
    "properties": {"job_id": S, "status": {"type": "string", "enum": STATES[1:]}},
    "required": ["job_id", "status"],
}
SPEC = ToolSpec("move_job", TEXT, ARGS, mutates=True)


def _sets(kinds: list[str], crane: str, skipper: str) -> list[dict[str, Any]]:
    when = {"all": [{"field": "kind", "in": kinds}, AT_COMPLETED]}
    return [
        {"op": "ref_set", "collection": "cranes", "via": "crane_id", "field": "status", "value": crane, "when": when},
        {
            "op": "ref_set",
            "collection": "skippers",
            "via": "skipper_id",
            "field": "status",
            "value": skipper,
            "when": when,
        },
    ]


def _read(text: str = TEXT, job: dict[str, Any] = JOB) -> list[dict[str, Any]]:
    return kind_sets(text, job, _cols(job), stage_split(text, MOVED))


def test_each_item_sets_the_linked_records_for_its_kinds_at_the_stage() -> None:
    assert stage_split(TEXT, MOVED) == (FLOW, AT_COMPLETED)
    assert _read() == _sets(["haul", "relaunch"], "busy", "afloat") + _sets(["scrap"], "parked", "ashore")


def test_an_item_reads_when_only_one_of_its_kinds_is_known() -> None:
    only_relaunch = {**JOB, "kind": {"type": "string", "x-enum": ["relaunch", "scrap"]}}  # no haul shown now
    assert _read(job=only_relaunch) == _sets(["haul", "relaunch"], "busy", "afloat") + _sets(
        ["scrap"], "parked", "ashore"
    )
    neither = {**JOB, "kind": {"type": "string", "x-enum": ["scrap", "polish"]}}  # no field knows haul or relaunch
    assert _read(job=neither) == _sets(["scrap"], "parked", "ashore")


def test_nothing_is_read_without_the_stage_sentence() -> None:
    plain = FLOW + " The yard work:" + ITEMS
    assert stage_split(plain, MOVED) is None
    assert _read(plain) == []
    assert kind_sets(TEXT, JOB, _cols(), None) == []
    state = _state()
    base = ToolPlan(kind="update", collection="jobs", key_field="job_id", key_param="job_id")
    spec = ToolSpec("move_job", plain, ARGS, mutates=True)
    plan = docs_transition(spec, base, SCHEMA, "", list(state["jobs"].values()), state)
    assert plan is not None and not [e for e in plan.effects if e["op"] == "ref_set"]


def test_a_clause_without_a_link_or_a_known_value_gives_nothing() -> None:
    text = (
        FLOW + " Completing a job also does the yard work:\n\n- `haul`: the boat turns `hauled`, the crane turns "
        "`wobbly` and the skipper becomes `afloat`."
    )  # jobs have no boat_id; no crane field knows `wobbly`
    assert _read(text) == _sets(["haul"], "busy", "afloat")[1:]
    unlinked = {k: v for k, v in JOB.items() if k != "skipper_id"}
    assert (
        _read(job=unlinked)
        == _sets(["haul", "relaunch"], "busy", "afloat")[:1] + _sets(["scrap"], "parked", "ashore")[:1]
    )


def test_kinds_two_fields_know_give_nothing() -> None:
    rigged = {**JOB, "rig": {"type": "string", "x-enum": ["scrap", "tow"]}}  # `scrap` is a kind and a rig
    assert _read(job=rigged) == _sets(["haul", "relaunch"], "busy", "afloat")
    both = {**JOB, "rig": {"type": "string", "x-enum": ["relaunch", "scrap"]}}
    assert _read(job=both) == []


def _state() -> dict[str, Any]:
    jobs = [
        ("J1", "C1", "K1", "dispatched", "haul"),
        ("J2", "C2", "K2", "dispatched", "relaunch"),
        ("J3", "C3", "K3", "dispatched", "scrap"),
        ("J4", "C4", "K4", "dispatched", "polish"),
        ("J5", "C1", "K1", "open", "haul"),
        ("J6", "C3", "K3", "open", "scrap"),
    ]
    skippers = {"K1": "ashore", "K2": "ashore", "K3": "afloat", "K4": "ashore"}
    return {
        "jobs": {
            j: {"job_id": j, "crane_id": c, "skipper_id": k, "status": s, "kind": kind} for j, c, k, s, kind in jobs
        },
        "cranes": {c: {"crane_id": c, "status": "idle"} for c in ("C1", "C2", "C3", "C4")},
        "skippers": {k: {"skipper_id": k, "status": s} for k, s in skippers.items()},
        "boats": {"B1": {"boat_id": "B1", "status": "moored"}},
    }


def _plan() -> ToolPlan:
    state = _state()
    base = ToolPlan(kind="update", collection="jobs", key_field="job_id", key_param="job_id")
    plan = docs_transition(SPEC, base, SCHEMA, "", list(state["jobs"].values()), state)
    assert plan is not None
    return plan


def _after(job: str, status: str, crane: str | None = None, skipper: str | None = None) -> dict[str, Any]:
    out = _state()
    held = out["jobs"][job]
    held["status"] = status
    if crane is not None:
        out["cranes"][held["crane_id"]]["status"] = crane
    if skipper is not None:
        out["skippers"][held["skipper_id"]]["status"] = skipper
    return out


def test_the_plan_holds_the_kind_sets() -> None:
    assert [e for e in _plan().effects if e["op"] == "ref_set"] == _read()


def test_completing_a_job_does_its_kind_s_yard_work() -> None:
    calls = [
        ({"job_id": "J1", "status": "completed"}, _after("J1", "completed", "busy", "afloat")),  # not parked/ashore
        ({"job_id": "J2", "status": "completed"}, _after("J2", "completed", "busy", "afloat")),  # a relaunch too
        ({"job_id": "J3", "status": "completed"}, _after("J3", "completed", "parked", "ashore")),  # not busy/afloat
        ({"job_id": "J4", "status": "completed"}, _after("J4", "completed")),  # a polish: no yard work
    ]
    run_calls(SPEC, _plan(), SCHEMA, _state, calls)


def test_other_stages_change_no_linked_record() -> None:
    calls = [
        ({"job_id": "J5", "status": "dispatched"}, _after("J5", "dispatched")),
        ({"job_id": "J6", "status": "dispatched"}, _after("J6", "dispatched")),
        ({"job_id": "J1", "status": "dropped"}, _after("J1", "dropped")),
        ({"job_id": "J3", "status": "dropped"}, _after("J3", "dropped")),
        ({"job_id": "J5", "status": "completed"}, None),  # open jobs are dispatched first
    ]
    run_calls(SPEC, _plan(), SCHEMA, _state, calls)


def test_kind_sets_hold_when_the_call_may_also_give_the_crane() -> None:
    args = {**ARGS, "properties": {**ARGS["properties"], "crane_id": S}}
    spec = ToolSpec("move_job", TEXT, args, mutates=True)
    state = _state()
    base = ToolPlan(kind="update", collection="jobs", key_field="job_id", key_param="job_id")
    plan = docs_transition(spec, base, SCHEMA, "", list(state["jobs"].values()), state)
    assert plan is not None
    moved_crane = _after("J5", "dispatched")
    moved_crane["jobs"]["J5"]["crane_id"] = "C2"
    other_crane = _after("J1", "completed", skipper="afloat")
    other_crane["jobs"]["J1"]["crane_id"] = "C2"
    other_crane["cranes"]["C2"]["status"] = "busy"
    calls = [
        ({"job_id": "J5", "status": "dispatched", "crane_id": "C2"}, moved_crane),  # dispatching: no crane changes
        ({"job_id": "J1", "status": "completed"}, _after("J1", "completed", "busy", "afloat")),  # its own crane C1
        ({"job_id": "J1", "status": "completed", "crane_id": "C2"}, other_crane),  # a haul's `busy`, not `parked`
    ]
    run_calls(spec, plan, SCHEMA, _state, calls)
