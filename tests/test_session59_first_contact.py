"""Found by a new held-out system at first contact (harbour words only): a docs' clock that stands at a stated time
stamps timestamp fields with it (a note's `at` reads `2031-03-05T10:00`, not a bare date), the business date is read
with a weekday and markup around it ("*today* is **Wednesday 2031-03-05**"), and an entry a note adds refuses an
author id not in the form every stored author id has instead of writing it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synth.envsynth.business_dates import business_date, business_time, moment, moment_field
from tests.desks import harbour_desk, markdown_desk

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


def test_a_new_records_making_is_stamped_at_the_clocks_time_a_date_on_its_day_and_a_deadline_not() -> None:
    from synth.envsynth.made_dates import made_on
    from synth.envsynth.plan import ToolPlan

    own = {
        "berth_id": S,
        "opened_at": {"type": "string", "format": "date-time", "examples": ["2031-01-01 08:30"]},
        "opened_on": {"type": "string", "format": "date"},
        "leave_by": {"type": "string", "format": "date-time"},  # a deadline the docs work out: not "now"
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


TOW_DOCS = """# Tow desk API

## Conventions

- The desk runs on a fixed clock: *now* is **2031-03-05 10:00** and *today* is **2031-03-05**.

| level | answer within | finish within |
|---|---|---|
| T1 | 1 h | 8 h |
| T2 | 4 h | 24 h |
| T3 | 8 h | 3 days |

Tows in `requested`, `hooked` or `under_way` are *open*. Kinds route tows to crews: `engine` and `rudder` →
`mech`, `sail` → `rigging`.

## Get a tow

`GET /tows/{tow_id}` — **get_tow**

| parameter | type | required | description |
|---|---|---|---|
| tow_id | string | yes | |

The tow with its log.

## Request a tow

`POST /tows` — **create_tow**

| parameter | type | required | description |
|---|---|---|---|
| skipper_id | string | yes | who asks |
| boat_id | string | no | the boat to tow |
| kind | string | yes | `engine`, `rudder`, `sail` |
| level | string | no | `T1`–`T3`, default `T2` |

Creates a `requested` tow for the crew its kind routes to, with `answer_due` and `finish_due` set from the
level's targets. Rules:

- Cadets cannot request T1 tows.
- A boat can have only one open tow at a time.

Example response:

```json
{"tow_id": "TW-007", "skipper_id": "SK-2", "boat_id": "B2", "kind": "sail", "crew": "rigging", "level": "T2",
 "status": "requested", "opened_at": "2031-03-05T10:00", "answer_due": "2031-03-05T14:00",
 "finish_due": "2031-03-06T10:00",
 "log": [{"at": "2031-03-05T10:00", "by": "SK-2", "event": "opened", "note": "Tow opened at level T2"}]}
```
"""


def _tow(n: int, skipper: str, boat: str, kind: str, crew: str, status: str, at: str) -> dict[str, Any]:
    level = f"T{n % 3 + 1}"
    entry = {"at": at, "by": skipper, "event": "opened", "note": f"Tow opened at level {level}"}
    due = at[:11] + "14:00"
    return {
        "tow_id": f"TW-00{n}",
        "skipper_id": skipper,
        "boat_id": boat,
        "kind": kind,
        "crew": crew,
        "level": level,
        "status": status,
        "opened_at": at,
        "answer_due": due,
        "finish_due": due,
        "log": [entry],
    }


def _tow_data() -> dict[str, Any]:
    return {
        "skippers": {
            "SK-1": {"skipper_id": "SK-1", "name": "Ola Rask", "rank": "cadet"},
            "SK-2": {"skipper_id": "SK-2", "name": "Siv Moe", "rank": "master"},
            "SK-3": {"skipper_id": "SK-3", "name": "Kai Noor", "rank": "master"},
            "SK-4": {"skipper_id": "SK-4", "name": "Eli Sand", "rank": "cadet"},
            "SK-5": {"skipper_id": "SK-5", "name": "Liv Aas", "rank": "master"},
            "SK-6": {"skipper_id": "SK-6", "name": "Ada Holm", "rank": "cadet"},
        },
        "boats": {b: {"boat_id": b, "name": n} for b, n in (("B1", "Tern"), ("B2", "Skua"), ("B3", "Auk"))},
        "tows": {
            "TW-001": _tow(1, "SK-2", "B1", "engine", "mech", "hooked", "2031-03-04T09:00"),
            "TW-002": _tow(2, "SK-1", "B2", "sail", "rigging", "done", "2031-03-01T08:30"),
            "TW-003": _tow(3, "SK-3", "B3", "rudder", "mech", "done", "2031-03-02T11:15"),
            "TW-004": _tow(4, "SK-4", "B3", "sail", "rigging", "done", "2031-02-20T13:00"),
            "TW-005": _tow(5, "SK-5", "B1", "engine", "mech", "done", "2031-02-11T07:45"),
            "TW-006": _tow(6, "SK-6", "B2", "sail", "rigging", "done", "2031-02-02T16:20"),
        },
    }


def test_a_new_tow_is_routed_timed_logged_and_refused_as_the_docs_say(tmp_path: Path) -> None:
    env = markdown_desk(tmp_path, TOW_DOCS, _tow_data(), "tows")

    def ask(**arguments: Any) -> Any:
        return env.step({"name": "create_tow", "arguments": arguments})

    step = ask(skipper_id="SK-1", boat_id="B2", kind="rudder", level="T3")
    assert step.info["ok"], step.observation
    made = env.state["tows"]["TW-007"]
    assert (made["crew"], made["status"], made["opened_at"]) == ("mech", "requested", "2031-03-05T10:00")
    assert (made["answer_due"], made["finish_due"]) == ("2031-03-05T18:00", "2031-03-08T10:00")
    assert made["log"] == [
        {"at": "2031-03-05T10:00", "by": "SK-1", "event": "opened", "note": "Tow opened at level T3"}
    ]
    assert ask(skipper_id="SK-2", kind="sail").info["ok"]
    assert env.state["tows"]["TW-008"]["answer_due"] == "2031-03-05T14:00"  # the default level, T2
    assert not ask(skipper_id="SK-1", kind="sail", level="T1").info["ok"]  # a cadet asks for T1
    assert ask(skipper_id="SK-2", kind="sail", level="T1").info["ok"]  # a master may
    assert not ask(skipper_id="SK-2", boat_id="B1", kind="engine").info["ok"]  # B1's tow is still open (hooked)
    assert len(env.state["tows"]) == 9


def test_the_readers_underneath_the_new_tow() -> None:
    from synth.envsynth.date_runtime import fg_add_minutes
    from synth.envsynth.rate_tables import arrow_tables, later_tables

    timed = {"type": "string", "format": "date-time"}
    own = {"crew": {"type": "string", "x-enum": ["mech", "rigging"]}, "answer_due": timed, "opened_at": timed}
    params = {"kind": {"type": "string", "enum": ["engine", "rudder", "sail"]}, "level": {"description": "`T1`–`T3`"}}
    routed = arrow_tables(TOW_DOCS, params, own, ["crew"])
    assert routed == [
        {
            "op": "tabled",
            "field": "crew",
            "arg": "kind",
            "values": {"engine": "mech", "rudder": "mech", "sail": "rigging"},
        }
    ]
    assert arrow_tables("`engine` → `mech`, `sail` → `loft`.", params, own, ["crew"]) == []  # not the crews stored
    due = later_tables(TOW_DOCS, params, own, ["answer_due"], "opened_at")
    assert due == [
        {
            "op": "tabled_later",
            "field": "answer_due",
            "arg": "level",
            "minutes": {"T1": 60, "T2": 240, "T3": 480},
            "base": "opened_at",
        }
    ]
    assert later_tables(TOW_DOCS, params, own, ["answer_due"], None) == []  # no making stamped: no base
    assert fg_add_minutes("2031-12-31T22:30", 120) == "2032-01-01T00:30"
    assert fg_add_minutes("2031-03-05 10:00:00Z", 4320) == "2031-03-08 10:00:00Z"
    assert fg_add_minutes("2031-03-05", 60) is None


def test_a_collection_named_by_a_mass_noun_is_found_from_the_tools_name(tmp_path: Path) -> None:
    from synth.data import load_grounding
    from synth.envsynth.collection_pick import pick_collection
    from synth.envsynth.pipeline import SynthConfig, build_state_schema, ingest
    from synth.envsynth.plan import PlanContext
    from synth.envsynth.priors import tool_priors

    tools = [
        _tool("get_coil", "Get a coil of rope by its tag.", {"tag": S}, ["tag"]),
        _tool("issue_rope", "Hands coils out of the store to a boat.", {"tag": S, "boat_id": S}, ["tag", "boat_id"]),
    ]
    coils = {f"RP-{n}": {"tag": f"RP-{n}", "kind": kind, "boat": None} for n, kind in enumerate(["nylon", "hemp"] * 3)}
    docs, data = tmp_path / "tools.json", tmp_path / "store.json"
    docs.write_text(json.dumps(tools))
    boats = {
        f"B{n}": {"boat_id": f"B{n}", "name": name, "length_m": 8 + n} for n, name in enumerate(["Tern", "Auk", "Skua"])
    }
    data.write_text(json.dumps({"rope": coils, "boats": boats}))
    config = SynthConfig(env_id="store", route="structured", data=str(data))
    config.data_sha256 = load_grounding(str(data))[0].sha256()
    docset = ingest([str(docs)])
    schema = build_state_schema(docset, None, config)
    ctx = PlanContext(collections=schema.drafts(), singletons=schema.singletons, client=None)
    spec = next(t for t in docset.tools if t.name == "issue_rope")
    assert pick_collection(spec, tool_priors(spec), ctx)[0] == "rope"
