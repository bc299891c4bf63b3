"""A bike workshop's collection desk, as its docs word it: "the job becomes collected" (a state, unquoted), "With
tab, amount_due is added to the rider's tab_balance" (only when the call pays by tab), "a history entry is added"
(of the new state, its text as the sample entries of that kind write it), "the reason is logged in its history",
an entry "appended to both the job's and the rider's history", "The response is the updated job plus tab_balance
(the rider's balance ...)", and a yes/no switch (`helmet_checked`) the call is not asked to keep."""

from __future__ import annotations

from typing import Any

from synth.envsynth.answer_extras import answer_extras
from synth.envsynth.docs_entries import named_entries, state_entries
from synth.envsynth.linked_logs import linked_entries
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition, transition_rules
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, NUM = {"type": "string"}, {"type": "number"}
EVENTS = ["created", "ready", "collected", "cancelled"]
ENTRY = {"type": "object", "properties": {"date": S, "event": {"type": "string", "x-enum": EVENTS}, "detail": S}}
RIDER_ENTRY = {"type": "object", "properties": {"date": S, "event": {"type": "string", "x-enum": EVENTS}, "job": S}}
JOB = {
    "job_id": S,
    "rider_id": S,
    "status": {"type": "string", "x-enum": ["queued", "ready", "collected", "cancelled"]},
    "amount_due": NUM,
    "paid_with": {"type": ["string", "null"]},
    "collected_on": {"type": ["string", "null"]},
    "history": {"type": "array", "items": ENTRY},
}
RIDER = {"rider_id": S, "tab_balance": NUM, "history": {"type": "array", "items": RIDER_ENTRY}}
SCHEMA = {"type": "object", "properties": {"jobs": collection(JOB), "riders": collection(RIDER)}}
TODAY = "The workshop's business date is 2032-04-09."
PAY = {"type": "string", "enum": ["cash", "card", "tab"]}
COLLECT = ToolSpec(
    "collect_job",
    "Record that the rider collected a ready job and how it was paid. paid_with is cash, card or tab. With tab, "
    "amount_due is added to the rider's tab_balance. Cash and card leave the balance alone.\n\nOn success the job "
    "becomes collected with collected_on = today and paid_with set, and a history entry is added. The response is "
    "the updated job plus tab_balance (the rider's balance after the collection).\n\nErrors: \"job <id> is "
    '<status>; only ready jobs can be collected".',
    {
        "type": "object",
        "properties": {"job_id": S, "paid_with": PAY, "helmet_checked": {"type": "boolean", "default": False}},
        "required": ["job_id", "paid_with"],
    },
)
CANCEL = ToolSpec(
    "cancel_job",
    "Cancel a job that has not been collected. The job's status becomes cancelled and the reason is logged in its "
    "history. Collected and already cancelled jobs cannot be cancelled.",
    {
        "type": "object",
        "properties": {"job_id": S, "reason": {"type": "string", "enum": ["rider_request", "no_parts"]}},
        "required": ["job_id", "reason"],
    },
)
FINISH = ToolSpec(
    "finish_job",
    'Mark a job as done; only queued jobs can be finished. The job gets status ready; a "ready" entry is '
    "appended to both the job's and the rider's history.",
    {"type": "object", "properties": {"job_id": S}, "required": ["job_id"]},
)


def _job(key: str, status: str, due: float, *entries: tuple[str, str]) -> dict[str, Any]:
    history = [{"date": "2032-04-01", "event": "created", "detail": "bench 2"}]
    history += [{"date": "2032-04-02", "event": e, "detail": d} for e, d in entries]
    collected = status == "collected"
    return {
        "job_id": key,
        "rider_id": "R1",
        "status": status,
        "amount_due": due,
        "paid_with": entries[-1][1].split()[-1] if collected else None,
        "collected_on": "2032-04-02" if collected else None,
        "history": history,
    }


def _state() -> dict[str, Any]:
    done = [{"date": "2032-04-02", "event": "ready", "job": k} for k in ("J1", "J2")]
    return {
        "riders": {"R1": {"rider_id": "R1", "tab_balance": 20.0, "history": done}},
        "jobs": {
            "J1": _job("J1", "collected", 12.5, ("ready", "ok"), ("collected", "12.50 paid by card")),
            "J2": _job("J2", "collected", 40.0, ("ready", "ok"), ("collected", "40.00 paid by tab")),
            "J3": _job("J3", "cancelled", 8.0, ("cancelled", "rider_request")),
            "J4": _job("J4", "ready", 30.25, ("ready", "ok")),
            "J5": _job("J5", "queued", 15.0),
        },
    }


def _plan(spec: ToolSpec) -> ToolPlan:
    base = ToolPlan(kind="update", collection="jobs", key_field="job_id", key_param="job_id")
    plan = docs_transition(spec, base, SCHEMA, TODAY, list(_state()["jobs"].values()), _state())
    assert plan is not None
    return plan


def test_the_states_read_from_unquoted_and_only_and_cannot_be_words() -> None:
    record = SCHEMA["properties"]["jobs"]["additionalProperties"]
    assert transition_rules(COLLECT, record, "") == ({"status": "collected"}, {"status": ["ready"]})
    assert transition_rules(CANCEL, record, "") == ({"status": "cancelled"}, {"status": ["queued", "ready"]})


def test_the_entries_each_wording_adds() -> None:
    jobs = list(_state()["jobs"].values())
    props, params = SCHEMA["properties"]["jobs"]["additionalProperties"]["properties"], CANCEL.parameters
    logged = state_entries(CANCEL.description, props, params, jobs, "2032-04-09", {"status": "cancelled"})
    assert logged[0]["items"][0]["fields"]["detail"] == {"from": "arg", "name": "reason"}
    own = named_entries(FINISH.description, "job", props, FINISH.parameters, jobs, "2032-04-09")
    theirs = linked_entries(FINISH.description, "jobs", SCHEMA, FINISH.parameters, _state(), "2032-04-09")
    assert [e["op"] for e in own] == ["append"] and [(e["op"], e["collection"]) for e in theirs] == [
        ("ref_append", "riders")
    ]


def test_collecting_pays_by_tab_only_when_asked_and_answers_the_balance() -> None:
    plan = _plan(COLLECT)
    assert not any("helmet" in str(e.get("field")) for e in plan.effects)
    assert answer_extras(COLLECT, plan, SCHEMA) == {
        "tab_balance": {"op": "eq", "via": "rider_id", "collection": "riders", "path": ["tab_balance"]}
    }
    by_card, by_tab = _state(), _state()
    for state, method in ((by_card, "card"), (by_tab, "tab")):
        job = state["jobs"]["J4"]
        job.update(status="collected", collected_on="2032-04-09", paid_with=method)
        job["history"].append({"date": "2032-04-09", "event": "collected", "detail": f"30.25 paid by {method}"})
    by_tab["riders"]["R1"]["tab_balance"] = 50.25
    calls = [
        ({"job_id": "J4", "paid_with": "card", "helmet_checked": True}, by_card),
        ({"job_id": "J4", "paid_with": "tab"}, by_tab),
        ({"job_id": "J5", "paid_with": "cash"}, None),  # not ready yet
    ]
    run_calls(COLLECT, plan, SCHEMA, _state, calls)


def test_cancelling_logs_the_reason_and_finishing_logs_on_both_records() -> None:
    cancelled, finished = _state(), _state()
    cancelled["jobs"]["J5"]["status"] = "cancelled"
    cancelled["jobs"]["J5"]["history"].append({"date": "2032-04-09", "event": "cancelled", "detail": "no_parts"})
    run_calls(CANCEL, _plan(CANCEL), SCHEMA, _state, [({"job_id": "J5", "reason": "no_parts"}, cancelled)])
    finished["jobs"]["J5"]["status"] = "ready"
    finished["jobs"]["J5"]["history"].append({"date": "2032-04-09", "event": "ready", "detail": "ok"})
    finished["riders"]["R1"]["history"].append({"date": "2032-04-09", "event": "ready", "job": "J5"})
    run_calls(FINISH, _plan(FINISH), SCHEMA, _state, [({"job_id": "J5"}, finished), ({"job_id": "J4"}, None)])
