"""A read's example answer that embeds other records (the skipper's harbour, the skipper's open tows) is answered so:
the harbour its `harbour_id` names cut to the example's keys with a figure the docs write as "(`a` minus `b`)", the
tows that name the skipper in the states a word of the key names (a group the docs define), each with a field of
the boat it names and its days late; and a note added to a tow answers the example's shape, the note it added
under the list's singular (harbour words only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synth.envsynth.example_embeds import example_embeds
from synth.envsynth.plan import ToolPlan
from synth.runtime.environment import Environment
from synth.spec import ToolSpec
from tests.desks import markdown_desk

DOCS = """# Harbour Desk API

## Conventions

The harbour office runs on a fixed clock: *today* is **2031-03-05**.
Tows in `requested` or `under_way` are *open*.

## Get a skipper

`GET /skippers/{skipper_id}` — **get_skipper**

| parameter | type | required | description |
|---|---|---|---|
| skipper_id | string | yes | e.g. `SK-1` |

The answer adds the skipper's harbour with its free berths (`berths` minus `moored`) and their open tows
with the boat's name and days late.

```json
{
  "skipper_id": "SK-1",
  "name": "Ines Carrow",
  "harbour_id": "H-1",
  "harbour": {"harbour_id": "H-1", "name": "North Quay", "berths_free": 4},
  "open_tows": [
    {"tow_id": "TW-1", "status": "under_way", "boat_name": "Gull", "days_late": 2}
  ]
}
```

## Add a tow note

`POST /tows/{tow_id}/notes` — **add_tow_note**

| parameter | type | required | description |
|---|---|---|---|
| tow_id | string | yes | |
| text | string | yes | the note |

Appends a note (`NT-` id) to the tow.

```json
{
  "tow_id": "TW-1",
  "note": {"note_id": "NT-3", "text": "Line parted, re-rigged"},
  "status": "under_way"
}
```
"""


def _data() -> dict[str, Any]:
    def tow(n: int, skipper: str, boat: str, status: str, due: str) -> dict[str, Any]:
        notes = [{"note_id": f"NT-{n}", "text": f"Called the pier ({n})"}]
        return {
            "tow_id": f"TW-{n}",
            "skipper_id": skipper,
            "boat_id": boat,
            "status": status,
            "due_on": due,
            "notes": notes,
        }

    return {
        "harbours": {
            "H-1": {"harbour_id": "H-1", "name": "North Quay", "berths": 12, "moored": 8},
            "H-2": {"harbour_id": "H-2", "name": "South Quay", "berths": 6, "moored": 6},
            "H-3": {"harbour_id": "H-3", "name": "Old Dock", "berths": 4, "moored": 1},
        },
        "boats": {
            "BT-1": {"boat_id": "BT-1", "name": "Gull", "length": 9},
            "BT-2": {"boat_id": "BT-2", "name": "Tern", "length": 12},
            "BT-3": {"boat_id": "BT-3", "name": "Skua", "length": 7},
        },
        "skippers": {
            "SK-1": {"skipper_id": "SK-1", "name": "Ines Carrow", "harbour_id": "H-1"},
            "SK-2": {"skipper_id": "SK-2", "name": "Bo Strand", "harbour_id": "H-2"},
            "SK-3": {"skipper_id": "SK-3", "name": "Ada Penrose", "harbour_id": "H-3"},
        },
        "tows": {
            "TW-1": tow(1, "SK-1", "BT-1", "under_way", "2031-03-03"),
            "TW-2": tow(2, "SK-1", "BT-2", "done", "2031-02-20"),
            "TW-3": tow(3, "SK-1", "BT-2", "requested", "2031-03-09"),
            "TW-4": tow(4, "SK-2", "BT-1", "requested", "2031-03-05"),
            "TW-5": tow(5, "SK-3", "BT-3", "done", "2031-02-11"),
            "TW-6": tow(6, "SK-2", "BT-3", "under_way", "2031-03-01"),
            "TW-7": tow(7, "SK-3", "BT-2", "done", "2031-01-30"),
        },
    }


def _env(tmp_path: Path) -> Environment:
    return markdown_desk(tmp_path, DOCS, _data(), "harbour")


def test_a_read_answers_the_records_its_example_embeds_and_a_note_the_shape_its_example_shows(tmp_path: Path) -> None:
    env = _env(tmp_path)
    step = env.step({"name": "get_skipper", "arguments": {"skipper_id": "SK-1"}})
    assert step.info["ok"], step.observation
    answer = json.loads(step.observation)
    assert answer["harbour"] == {"harbour_id": "H-1", "name": "North Quay", "berths_free": 4}
    assert answer["open_tows"] == [  # the done tow left out; one not yet due is 0 days late
        {"tow_id": "TW-1", "status": "under_way", "boat_name": "Gull", "days_late": 2},
        {"tow_id": "TW-3", "status": "requested", "boat_name": "Tern", "days_late": 0},
    ]
    other = json.loads(env.step({"name": "get_skipper", "arguments": {"skipper_id": "SK-2"}}).observation)
    assert other["harbour"]["berths_free"] == 0 and [t["tow_id"] for t in other["open_tows"]] == ["TW-4", "TW-6"]
    step = env.step({"name": "add_tow_note", "arguments": {"tow_id": "TW-3", "text": "Waiting on the tide"}})
    assert step.info["ok"], step.observation
    assert json.loads(step.observation) == {
        "tow_id": "TW-3",
        "note": {"note_id": "NT-8", "text": "Waiting on the tide"},
        "status": "requested",
    }
    assert env.state["tows"]["TW-3"]["notes"][-1] == {"note_id": "NT-8", "text": "Waiting on the tide"}


def _spec(example: dict[str, Any]) -> ToolSpec:
    params = {"type": "object", "properties": {"skipper_id": {"type": "string"}}, "required": ["skipper_id"]}
    return ToolSpec(name="get_skipper", description="Get a skipper.", parameters=params, returns={"example": example})


def _schema() -> dict[str, Any]:
    text, ref = {"type": "string"}, {"type": "string", "x-references": "harbours"}
    harbour = {"harbour_id": text, "name": text, "berths": {"type": "integer"}, "moored": {"type": "integer"}}
    skipper = {"skipper_id": text, "name": text, "harbour_id": ref}
    return {
        "properties": {
            "harbours": {"type": "object", "additionalProperties": {"type": "object", "properties": harbour}},
            "skippers": {"type": "object", "additionalProperties": {"type": "object", "properties": skipper}},
        }
    }


def test_an_example_key_it_cannot_read_leaves_the_plan_as_it_was() -> None:
    plan = ToolPlan(kind="get", collection="skippers", key_param="skipper_id", key_field="skipper_id")
    unread = {"skipper_id": "SK-1", "harbour": {"harbour_id": "H-1", "tide_table": "spring"}}  # no such figure
    assert example_embeds(_spec(unread), plan, _schema(), "", "2031-03-05") == plan
    scalar = {"skipper_id": "SK-1", "harbour": {"harbour_id": "H-1", "name": "North Quay"}, "rank": 3}
    assert example_embeds(_spec(scalar), plan, _schema(), "", "2031-03-05") == plan
    read = {"skipper_id": "SK-1", "harbour": {"harbour_id": "H-1", "name": "North Quay"}}
    shaped = example_embeds(_spec(read), plan, _schema(), "", "2031-03-05")
    assert shaped.output_fields == ["skipper_id", "harbour"]
    assert shaped.output_map["harbour"]["op"] == "embed_one" and shaped.output_map["harbour"]["via"] == "harbour_id"
