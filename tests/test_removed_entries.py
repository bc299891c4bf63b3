"""Taking a tool off a workshop job: the docs call the job a "booking" and say the removal is "only possible while
the booking is still `open`", and write a `tool_removed` log entry the sample data has never shown; it is written
like the data's `tool_added` entries ("<tool_id> x<count>") with the element taken off (its whole count when the
call leaves the count out)."""

from __future__ import annotations

from typing import Any

from synth.envsynth.docs_entries import named_entries
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, INT = {"type": "string"}, {"type": "integer"}
LINE = {"type": "object", "properties": {"tool_id": S, "count": INT}}
LOG = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"event": {"type": "string", "x-enum": ["opened", "tool_added"]}, "detail": S},
    },
}
JOB = {
    "job_id": S,
    "state": {"type": "string", "x-enum": ["open", "running", "closed"]},
    "tools": {"type": "array", "items": LINE},
    "log": LOG,
}
SCHEMA = {"type": "object", "properties": {"jobs": collection(JOB), "benches": collection({"bench_id": S})}}
REMOVE = ToolSpec(
    "remove_tool",
    "Takes units of a tool off a job. Only possible while the booking is still `open`. Omit `count` to drop the "
    "whole line. A `tool_removed` log entry is written.",
    {
        "type": "object",
        "properties": {"job_id": S, "tool_id": S, "count": INT},
        "required": ["job_id", "tool_id"],
    },
    mutates=True,
)


def _state() -> dict[str, Any]:
    def job(key: str, state: str, lines: list[tuple[str, int]], log: list[tuple[str, str]]) -> dict[str, Any]:
        return {
            "job_id": key,
            "state": state,
            "tools": [{"tool_id": t, "count": c} for t, c in lines],
            "log": [{"event": e, "detail": d} for e, d in log],
        }

    return {
        "benches": {},
        "jobs": {
            "J1": job("J1", "open", [("T-7", 2), ("T-9", 1)], [("opened", "bench 4"), ("tool_added", "T-9 x1")]),
            "J2": job("J2", "running", [("T-7", 3)], [("opened", "bench 2"), ("tool_added", "T-7 x3")]),
        },
    }


def _plan() -> ToolPlan:
    base = ToolPlan(kind="item_remove", collection="jobs", key_field="job_id", key_param="job_id", list_field="tools")
    base = ToolPlan.from_dict({**base.to_dict(), "item_key": "tool_id", "op_param": "tool_id", "count_field": "count"})
    return refine_item(REMOVE, base, SCHEMA, REMOVE.description, _state())


def test_the_unseen_entry_mirrors_the_added_one_and_the_docs_word_names_the_state() -> None:
    plan = _plan()
    assert plan.preconditions == {"state": ["open"]}
    appended = [e for e in plan.effects if e["op"] == "append"]
    assert appended[0]["items"][0]["fields"]["detail"] == {
        "from": "concat",
        "parts": [{"from": "arg", "name": "tool_id"}, " x", {"from": "arg", "name": "count"}],
    }


def test_no_mirror_without_an_element_list_or_a_logged_twin() -> None:
    own = JOB
    records = list(_state()["jobs"].values())
    assert named_entries(REMOVE.description, "job", own, REMOVE.parameters, records, None) == []
    twinless = REMOVE.description.replace("tool_removed", "tool_checked")
    assert named_entries(twinless, "job", own, REMOVE.parameters, records, None, "tools", True) == []


def test_removing_logs_the_element_taken_off() -> None:
    def after(lines: list[dict[str, Any]], detail: str) -> dict[str, Any]:
        state = _state()
        state["jobs"]["J1"]["tools"] = lines
        state["jobs"]["J1"]["log"].append({"event": "tool_removed", "detail": detail})
        return state

    run_calls(
        REMOVE,
        _plan(),
        SCHEMA,
        _state,
        [
            ({"job_id": "J1", "tool_id": "T-7"}, after([{"tool_id": "T-9", "count": 1}], "T-7 x2")),
            (
                {"job_id": "J1", "tool_id": "T-7", "count": 1},
                after([{"tool_id": "T-7", "count": 1}, {"tool_id": "T-9", "count": 1}], "T-7 x1"),
            ),
            ({"job_id": "J2", "tool_id": "T-7"}, None),  # running, not open
        ],
    )
