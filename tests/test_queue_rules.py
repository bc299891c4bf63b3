"""A create's waiting queue on the record the new one links ("only the skipper first in the list may book it, and
doing so removes them from the list") and records like the new one ("must not already have another boat of the
same class on hire"): read by queue_rules.py, checked by list_runtime.fg_list_rule, run as generated code."""

from __future__ import annotations

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.plan import ToolPlan
from synth.envsynth.queue_rules import queue_rules
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
HIRE = {
    "hire_id": S,
    "skipper_id": {**S, "x-references": "skippers"},
    "dock_id": {**S, "x-references": "docks"},
    "class_id": S,
    "status": {"type": "string", "x-enum": ["active", "returned"]},
}
COLS = {
    "hires": collection(HIRE),
    "docks": collection({"dock_id": S, "class_id": S, "waiting_list": {"type": "array", "items": S}}),
    "skippers": collection({"skipper_id": S}),
}
SCHEMA = {"type": "object", "properties": COLS}
TEXT = (
    "Books a dock for a skipper. The skipper must not already have another boat of the same class on hire; when the "
    "dock has a waiting list, only the skipper first in the list may book it, and doing so removes them from the list."
)
BOOK = ToolSpec(
    "book_dock", TEXT, {"type": "object", "properties": {"skipper_id": S, "dock_id": S}, "required": ["skipper_id"]}
)
OWN = HIRE
BASE = ToolPlan(
    kind="create",
    collection="hires",
    key_field="hire_id",
    fields=["skipper_id", "dock_id"],
    inherits={"class_id": ["dock_id", "docks", "class_id"]},
    initial_values={"status": "active"},
)


def test_the_queue_and_the_like_record_are_read() -> None:
    checks, effects = queue_rules(TEXT, BASE, OWN, COLS)
    rule = {"collection": "docks", "via": "dock_id", "list": "waiting_list", "field": "skipper_id"}
    alike = {"op": "none_alike", "collection": "hires", "fields": ["skipper_id", "class_id"]}
    assert checks == [{"op": "queue_head", **rule}, {**alike, "where": {"status": ["active"]}}]
    assert effects == [{"op": "queue_pop", **rule}]
    assert queue_rules(TEXT.replace("on hire", "on loan"), BASE, OWN, COLS)[0] == checks[:1]  # not the created kind
    assert queue_rules(TEXT.replace("waiting list", "berth list"), BASE, OWN, COLS)[0] == checks[1:]  # no such list


def test_only_the_head_books_and_leaves_the_queue() -> None:
    checks, effects = queue_rules(TEXT, BASE, OWN, COLS)
    plan = ToolPlan.from_dict({**BASE.to_dict(), "checks": checks, "effects": effects})
    state = {
        "hires": {"H1": {"hire_id": "H1", "skipper_id": "K2", "dock_id": "D9", "class_id": "keel", "status": "active"}},
        "docks": {
            "D1": {"dock_id": "D1", "class_id": "dinghy", "waiting_list": ["K1", "K3"]},
            "D2": {"dock_id": "D2", "class_id": "keel", "waiting_list": []},
        },
        "skippers": {k: {"skipper_id": k} for k in ("K1", "K2", "K3")},
    }
    source = render_tool(BOOK, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    calls = [
        {"skipper_id": "K3", "dock_id": "D1"},  # not the head
        {"skipper_id": "K1", "dock_id": "D1"},  # the head
        {"skipper_id": "K2", "dock_id": "D2"},  # already has a keel boat on hire
        {"skipper_id": "K3", "dock_id": "D2"},  # no queue, no like hire
    ]
    outcomes = run_cases(module, [{"function": "book_dock", "state": state, "arguments": a} for a in calls])
    assert [o.status for o in outcomes] == ["tool_error", "ok", "tool_error", "ok"]
    assert outcomes[1].state_after["docks"]["D1"]["waiting_list"] == ["K3"]
    assert outcomes[3].state_after["docks"]["D2"]["waiting_list"] == []
