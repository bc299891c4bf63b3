"""Found by a new held-out system at first contact (harbour words only): a docs' clock that stands at a stated time
stamps timestamp fields with it (a note's `at` reads `2031-03-05T10:00`, not a bare date), the business date is read
with a weekday and markup around it ("*today* is **Wednesday 2031-03-05**"), and an entry a note adds refuses an
author id not in the form every stored author id has instead of writing it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synth.envsynth.business_dates import business_date, business_time, moment, moment_field
from tests.desks import harbour_desk

S = {"type": "string"}


def _tool(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": props, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


TOOLS = [
    _tool("get_berth", "Get a berth with its log.", {"berth_id": S}, ["berth_id"]),
    _tool(
        "add_log_note",
        "Adds a note to a berth's log, written by a harbour master or the berth's skipper.",
        {"berth_id": S, "author_id": S, "text": S},
        ["berth_id", "author_id", "text"],
    ),
]
POLICY = """# Harbour desk policy

## Clock

The harbour office runs on a fixed clock: *now* is **2031-03-05 10:00** and *today* is **2031-03-05**.
"""


def _data() -> dict[str, Any]:
    def note(n: int, author: str, at: str) -> dict[str, Any]:
        return {"note_id": f"LG-{n:03d}", "author_id": author, "text": f"Checked lines ({n})", "at": at}

    log = [
        note(1, "HM-01", "2031-03-01T08:30"),
        note(2, "SK-14", "2031-03-02T17:05"),
        note(3, "HM-02", "2031-03-04T09:00"),
    ]
    return {
        "berths": {
            "B1": {"berth_id": "B1", "pier": "north", "log": log[:2]},
            "B2": {"berth_id": "B2", "pier": "south", "log": log[2:]},
            "B3": {"berth_id": "B3", "pier": "south", "log": []},
        }
    }


def test_a_note_is_stamped_at_the_stated_time_and_a_malformed_author_is_refused(tmp_path: Path) -> None:
    env = harbour_desk(tmp_path, TOOLS, _data(), POLICY)
    step = env.step({"name": "add_log_note", "arguments": {"berth_id": "B2", "author_id": "HM-01", "text": "Swell"}})
    assert step.info["ok"], step.observation
    added = env.state["berths"]["B2"]["log"][-1]
    assert added == {"note_id": "LG-004", "author_id": "HM-01", "text": "Swell", "at": "2031-03-05T10:00"}
    before = env.state["berths"]["B3"]
    odd = env.step({"name": "add_log_note", "arguments": {"berth_id": "B3", "author_id": "pebble-7", "text": "x"}})
    assert not odd.info["ok"] and "author_id" in odd.observation
    assert env.state["berths"]["B3"] == before


def test_the_business_date_and_time_with_weekdays_and_markup() -> None:
    assert business_date("*today* is **2031-03-05**") == "2031-03-05"
    assert business_date("The business date for this copy is **Wednesday 2031-03-05**, 10:00 harbour time.") == (
        "2031-03-05"
    )
    assert business_time("The business date for this copy is **Wednesday 2031-03-05**, 10:00 harbour time.") == "10:00"
    assert business_time("*now* is **2031-03-05 9:30**") == "09:30"
    assert business_time("now: 2031-03-05T18:45") == "18:45"
    assert business_time("The business date is 2031-03-05. Tides at 10:00 and 22:15.") is None  # no time beside it
    assert business_time("now is 2031-03-05 10:00; the business date is 2031-03-05 at 11:00") is None  # two times


def test_a_moment_takes_the_form_the_fields_values_show() -> None:
    assert moment("2031-03-05", "10:00", {"examples": ["2031-01-01T08:30"]}) == "2031-03-05T10:00"
    assert moment("2031-03-05", "10:00", {"examples": ["2031-01-01 08:30:15Z"]}) == "2031-03-05 10:00:00Z"
    assert moment("2031-03-05", "10:00", {"examples": ["2031-01-01T08:30:15.250+01:00"]}) == (
        "2031-03-05T10:00:00.000+01:00"
    )
    assert moment("2031-03-05", "10:00", {"format": "date-time"}) == "2031-03-05T10:00"
    assert moment_field({"format": "date-time"}) and moment_field({"examples": ["2031-01-01T08:30"]})
    assert not moment_field({"format": "date", "examples": ["2031-01-01"]})


def test_a_new_records_timestamp_is_made_at_the_clocks_time_and_a_date_on_its_day() -> None:
    from synth.envsynth.made_dates import made_on
    from synth.envsynth.plan import ToolPlan

    own = {
        "berth_id": S,
        "opened_at": {"type": "string", "format": "date-time", "examples": ["2031-01-01 08:30"]},
        "opened_on": {"type": "string", "format": "date"},
    }
    plan = ToolPlan(kind="create", collection="berths", key_field="berth_id")
    made = made_on(own, {}, {}, plan, {}, [], "2031-03-05", "10:00")
    assert made == {"opened_at": "2031-03-05 10:00", "opened_on": "2031-03-05"}
    assert made_on(own, {}, {}, plan, {}, [], "2031-03-05") == {"opened_on": "2031-03-05"}  # no clock: as before


def test_a_from_to_table_of_bare_states_draws_the_moves() -> None:
    from synth.envsynth.state_moves import arrow_moves, table_moves

    text = (
        "Allowed moves:\n\nfrom | to\n\nmoored | towed, hauled_out\ntowed | moored\n"
        "hauled_out | moored (relaunch)\nscrapped | (final)\n\nThe tow fee is posted."
    )
    assert table_moves(text) == [
        ("moored", "`towed` `hauled_out`"),
        ("towed", "`moored`"),
        ("hauled_out", "`moored`"),
        ("scrapped", ""),
    ]
    props = {"status": {"type": "string", "x-enum": ["moored", "towed", "hauled_out", "scrapped"]}}
    moved = arrow_moves(text, props, {"status": {"type": "string"}})
    assert moved == {
        "field": "status",
        "arg": "status",
        "map": {"moored": ["towed", "hauled_out"], "towed": ["moored"], "hauled_out": ["moored"], "scrapped": []},
    }
    prose = "from | to\n\nthe skipper | the harbour master pays the fee\n"  # words, not states: no moves
    assert table_moves(prose) == []
