"""linked_errors: a create's error rows that name a linked record by a state ("closed pier") or as "past"."""

from __future__ import annotations

from typing import Any

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.linked_errors import linked_errors

S = {"type": "string"}
DAY = {"type": "string", "format": "date"}
TODAY = "2031-06-02"


def _col(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


COLS = {
    "charters": _col({"charter_id": S, "pier_id": S, "trip_id": S, "skipper": S}),
    "piers": _col({"pier_id": S, "status": S, "harbour": S}),
    "trips": _col({"trip_id": S, "day": DAY, "state": S}),
}
OWN = COLS["charters"]["additionalProperties"]["properties"]
SAMPLE = {
    "piers": {
        "P1": {"pier_id": "P1", "status": "open", "harbour": "north"},
        "P2": {"pier_id": "P2", "status": "closed", "harbour": "south"},
        "P3": {"pier_id": "P3", "status": "open", "harbour": "north"},
    },
    "trips": {"T1": {"trip_id": "T1", "day": "2031-06-01", "state": "open"}},
}
ROWS = "Books a charter.\n\nErrors: 404: Unknown pier or trip; 422: Charter rules not met, e.g. closed pier, past trip."


def _refused(checks: list[dict[str, Any]], record: dict[str, Any], state: dict[str, Any]) -> bool:
    return any(not fg_check(c, {}, record, state) for c in checks)


def test_a_state_before_a_linked_noun_refuses_a_record_in_that_state_only() -> None:
    checks = linked_errors(ROWS, OWN, COLS, SAMPLE, TODAY)
    state = {"piers": {**SAMPLE["piers"], "P4": {"pier_id": "P4", "status": "dredging"}}, "trips": {}}
    assert _refused(checks, {"pier_id": "P2"}, state)
    assert not _refused(checks, {"pier_id": "P1"}, state)
    assert not _refused(checks, {"pier_id": "P4"}, state)  # a state neither the docs nor the data show
    assert not _refused(checks, {"pier_id": "P9"}, state)  # an unknown pier is the 404's business


def test_past_before_a_linked_noun_refuses_a_record_dated_before_the_business_date() -> None:
    checks = linked_errors(ROWS, OWN, COLS, SAMPLE, TODAY)
    past = {"trips": {"T1": {"trip_id": "T1", "day": "2031-06-01"}}, "piers": {}}
    today = {"trips": {"T1": {"trip_id": "T1", "day": TODAY}}, "piers": {}}
    assert _refused(checks, {"trip_id": "T1"}, past)
    assert not _refused(checks, {"trip_id": "T1"}, today)
    assert not linked_errors(ROWS, OWN, COLS, SAMPLE, None)[1:]  # no business date: no date check


def test_a_row_without_a_list_is_read_as_one_item() -> None:
    checks = linked_errors("Errors: 409: Closed pier.", OWN, COLS, SAMPLE, TODAY)
    assert [c["field"] for c in checks] == ["status"]


def test_a_word_two_fields_hold_or_a_noun_nothing_links_reads_as_nothing() -> None:
    both = {"trips": {"T1": {"trip_id": "T1", "day": TODAY, "state": "open"}}, **{"piers": SAMPLE["piers"]}}
    assert linked_errors("Errors: 422: e.g. open pier, closed marina.", OWN, COLS, both, TODAY) == [
        {
            "op": "linked_state",
            "collection": "piers",
            "via": "pier_id",
            "field": "status",
            "allowed": [],
            "only_if": {"field": "status", "in": ["open"]},
        }
    ]
    assert linked_errors("Errors: 422: e.g. north pier.", OWN, COLS, SAMPLE, TODAY)  # harbour holds it, once
    shared = {"piers": {"P1": {"pier_id": "P1", "status": "north", "harbour": "north"}}}
    assert linked_errors("Errors: 422: e.g. north pier.", OWN, COLS, shared, TODAY) == []


def test_text_without_an_errors_line_or_with_longer_items_reads_as_nothing() -> None:
    assert linked_errors("The charter fails for a closed pier.", OWN, COLS, SAMPLE, TODAY) == []
    assert linked_errors("Errors: 422: the pier is closed.", OWN, COLS, SAMPLE, TODAY) == []
