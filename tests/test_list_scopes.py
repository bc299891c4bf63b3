"""A list's docs fix which records it answers beyond its parameters: berths of piers in a state the docs name are
left out through the berth's link, and "from today onward" keeps records dated the business date or later; both
read from marina docs and run in a generated filter and list tool."""

from __future__ import annotations

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.list_scopes import scope_checks
from synth.envsynth.plan import ToolPlan
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
DATE = {"type": "string", "format": "date"}
BERTH = {"berth_id": S, "pier_id": {"type": "string", "x-references": "piers"}, "free_on": DATE}
PIER = {"pier_id": S, "status": {"type": "string", "x-enum": ["open", "closed", "dredging"]}}
COLS = {"berths": collection(BERTH), "piers": collection(PIER)}
SCHEMA = {"type": "object", "properties": COLS}
TEXT = "Lists berths from today onward. Berths of piers that are closed for repairs are not listed."
STATE = {
    "piers": {"P1": {"pier_id": "P1", "status": "open"}, "P2": {"pier_id": "P2", "status": "closed"}},
    "berths": {
        "B3": {"berth_id": "B3", "pier_id": "P1", "free_on": "2031-04-03"},
        "B1": {"berth_id": "B1", "pier_id": "P1", "free_on": "2031-04-01"},
        "B2": {"berth_id": "B2", "pier_id": "P2", "free_on": "2031-04-05"},
        "B4": {"berth_id": "B4", "pier_id": "P1", "free_on": "2031-04-02"},
    },
}
LINKED = {"op": "linked", "via": "pier_id", "collection": "piers", "field": "status", "dropped": ["closed"]}
FLOOR = {"op": "from", "field": "free_on", "value": "2031-04-02"}


def test_the_linked_state_and_the_date_floor_are_read() -> None:
    assert scope_checks(TEXT, "berths", COLS, "2031-04-02") == [LINKED, FLOOR]
    assert scope_checks(TEXT, "berths", COLS, None) == [LINKED]  # no business date: no floor


def test_sentences_that_say_otherwise_read_as_nothing() -> None:
    assert scope_checks("Berths of piers that are closed are listed too.", "berths", COLS, "2031-04-02") == []
    assert scope_checks("Berths of boats that are closed are not listed.", "berths", COLS, None) == []  # no link
    assert scope_checks("Berths of piers that are gone are not listed.", "berths", COLS, None) == []  # no value
    assert scope_checks("Lists berths from a given day.", "berths", COLS, "2031-04-02") == []


def _run(kind: str) -> list[str]:
    spec = ToolSpec("list_berths", TEXT, {"type": "object", "properties": {}})
    plan = ToolPlan(kind=kind, collection="berths", key_field="berth_id", scope_checks=[LINKED, FLOOR])
    source = render_tool(spec, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    (outcome,) = run_cases(module, [{"function": "list_berths", "state": STATE, "arguments": {}}])
    assert outcome.status == "ok", outcome.error
    return [r["berth_id"] for r in outcome.result]


def test_generated_filter_and_list_keep_the_scope_in_the_datas_order() -> None:
    assert _run("filter") == ["B3", "B4"]
    assert _run("list") == ["B3", "B4"]


def test_hedged_sentences_and_arguments_read_as_nothing() -> None:
    for text in (
        "Berths of piers that are not closed are never listed.",
        "Berths of piers that are closed are not listed unless include_closed is true.",
        "Berths of piers that are closed are not listed by default.",
        "The `free_from` argument must be today or later.",
    ):
        assert scope_checks(text, "berths", COLS, "2031-04-02") == [], text
