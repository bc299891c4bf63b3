"""A job moved through its workflow by an argument, read from its docs: every change logs the new status (with the
note when one is given), and only completing the job does the closing work, a fee that is not zero added to the
skipper's tab and logged on the skipper's log; a haul is completed only while its skipper is still active. Planned by
the pipeline's own readings, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.shape_code import holds
from synth.envsynth.stage_guards import stage_split
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
TODAY = "2031-05-02"
JOB_LOG = {"type": "object", "properties": {"date": S, "status": S, "note": S}}
TAB_LOG = {"type": "object", "properties": {"date": S, "kind": S, "amount": N, "job_id": S}}
STATES = ["open", "started", "completed", "dropped"]
SCHEMA = {
    "type": "object",
    "properties": {
        "jobs": collection(
            {
                "job_id": S,
                "skipper_id": S,
                "status": {"type": "string", "x-enum": STATES},
                "kind": {"type": "string", "x-enum": ["haul", "polish"]},
                "fee": N,
                "log": {"type": "array", "items": JOB_LOG},
            }
        ),
        "skippers": collection(
            {
                "skipper_id": S,
                "status": {"type": "string", "x-enum": ["active", "barred"]},
                "tab": N,
                "log": {"type": "array", "items": TAB_LOG},
            }
        ),
    },
}
TEXT = (
    "Moves a job through its workflow: `open` → `started` or `dropped`; `started` → `completed` or `dropped`. "
    "Completed and dropped jobs are final. The yard's business date is 2031-05-02.\n\n"
    'Every change appends `{"date": <today>, "status": <new status>}` to the job\'s log (with `"note"` when one is '
    "given). Completing a job also does the closing work:\n\n- a non-zero `fee` is added to the skipper's `tab` and "
    'a fee entry `{"date": <today>, "kind": "fee", "amount": <fee>, "job_id": <job_id>}` is appended to the '
    "skipper's log. A haul cannot be completed if the skipper is no longer `active`: drop it instead."
)
PARAMS = {
    "type": "object",
    "properties": {"job_id": S, "status": {"type": "string", "enum": STATES[1:]}, "note": S},
    "required": ["job_id", "status"],
}
SPEC = ToolSpec("update_job_status", TEXT, PARAMS, mutates=True)


def _state() -> dict[str, Any]:
    return {
        "jobs": {
            "J1": {"job_id": "J1", "skipper_id": "K1", "status": "started", "kind": "haul", "fee": 40.0, "log": []},
            "J2": {"job_id": "J2", "skipper_id": "K1", "status": "started", "kind": "haul", "fee": 0.0, "log": []},
            "J3": {"job_id": "J3", "skipper_id": "K1", "status": "open", "kind": "haul", "fee": 25.0, "log": []},
            "J4": {"job_id": "J4", "skipper_id": "K2", "status": "started", "kind": "haul", "fee": 0.0, "log": []},
            "J5": {"job_id": "J5", "skipper_id": "K2", "status": "started", "kind": "polish", "fee": 0.0, "log": []},
        },
        "skippers": {
            "K1": {"skipper_id": "K1", "status": "active", "tab": 10.0, "log": []},
            "K2": {"skipper_id": "K2", "status": "barred", "tab": 0.0, "log": []},
        },
    }


def _plan() -> ToolPlan:
    base = ToolPlan(kind="update", collection="jobs", key_field="job_id", key_param="job_id")
    plan = docs_transition(SPEC, base, SCHEMA, "", list(_state()["jobs"].values()), _state())
    assert plan is not None
    return plan


def test_the_stage_and_its_guards_are_read() -> None:
    moved = {
        "field": "status",
        "arg": "status",
        "map": {"open": ["started", "dropped"], "started": ["completed", "dropped"]},
    }
    before, guard = stage_split(TEXT, moved)
    assert guard == {"arg": "status", "in": ["completed"]} and "closing work" not in before
    assert stage_split(TEXT.replace("Completing a job also", "Then"), moved) is None
    guarded = [e for e in _plan().effects if e["op"] in ("adjust", "ref_append")]
    assert len(guarded) == 2
    assert all(e["when"]["all"][0] == {"arg": "status", "in": ["completed"]} for e in guarded)
    assert all(e["when"]["all"][1] == {"field": "fee", "not_in": [0, 0.0]} for e in guarded)
    assert holds({"field": "fee", "not_in": [0]}) == 'record.get("fee") not in [0]'
    (refusal,) = [c for c in _plan().checks if c["op"] == "linked_state"]
    assert (refusal["collection"], refusal["field"], refusal["allowed"]) == ("skippers", "status", ["active"])
    assert refusal["when"] == {"all": [{"field": "kind", "in": ["haul"]}, {"arg": "status", "in": ["completed"]}]}


def _moved(job: str, status: str, note: str | None = None, fee: float | None = None) -> dict[str, Any]:
    out = copy.deepcopy(_state())
    out["jobs"][job]["status"] = status
    out["jobs"][job]["log"].append({"date": TODAY, "status": status, **({"note": note} if note else {})})
    if fee is not None:
        out["skippers"]["K1"]["tab"] += fee
        out["skippers"]["K1"]["log"].append({"date": TODAY, "kind": "fee", "amount": fee, "job_id": job})
    return out


def test_only_completing_a_job_with_a_fee_does_the_closing_work() -> None:
    calls = [
        (
            {"job_id": "J1", "status": "completed", "note": "paid at the desk"},
            _moved("J1", "completed", "paid at the desk", 40.0),
        ),
        ({"job_id": "J2", "status": "completed"}, _moved("J2", "completed")),  # a zero fee: nothing charged or logged
        ({"job_id": "J3", "status": "started"}, _moved("J3", "started")),  # not completing: no closing work
        ({"job_id": "J1", "status": "dropped"}, _moved("J1", "dropped")),
        ({"job_id": "J3", "status": "completed"}, None),  # open jobs are started first
        ({"job_id": "J4", "status": "completed"}, None),  # a haul for a skipper no longer active
        ({"job_id": "J5", "status": "completed"}, _moved("J5", "completed")),  # a polish is not held to it
        ({"job_id": "J4", "status": "dropped"}, _moved("J4", "dropped")),
    ]
    run_calls(SPEC, _plan(), SCHEMA, _state, calls)
