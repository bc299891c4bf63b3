"""A list's yes/no the docs define by states and a date that has passed ("`true`: only berths in `let` or `held`
whose `lease_end` has passed; `false`: all others") filters the records both ways and is answered in each row the
response shows, the rows cut to the fields it shows and kept in the order the docs give ("in harbour order: by pier
(north first), then `lease_end`, then berth id") (harbour words only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from synth.envsynth.list_rules import sort_fields
from synth.envsynth.passed_flags import passed_conditions
from synth.runtime.environment import Environment
from tests.desks import markdown_desk

DOCS = """# Harbour Berths API

## Conventions

The harbour office runs on a fixed clock: *now* is **2031-03-05 10:00** and *today* is **2031-03-05**.

## Search berths

`GET /berths` — **search_berths**

Lists berths matching all given filters, in harbour order: by pier (north first), then `lease_end`, then berth id.

| parameter | type | required | description |
|---|---|---|---|
| status | string | no | one of `free`, `let`, `held`, `closed` |
| overdue | boolean | no | `true`: only berths in `let` or `held` whose `lease_end` has passed; `false`: all others. |

```json
{
  "total": 1,
  "berths": [
    {"berth_id": "B-4", "pier": "north", "status": "let", "lease_end": "2031-03-01T12:00", "overdue": true}
  ]
}
```

## Get a berth

`GET /berths/{berth_id}` — **get_berth**

| parameter | type | required | description |
|---|---|---|---|
| berth_id | string | yes | e.g. `B-4` |
"""


def _data() -> dict[str, Any]:
    def berth(n: int, pier: str, status: str, end: str | None) -> dict[str, Any]:
        return {"berth_id": f"B-{n}", "pier": pier, "status": status, "lease_end": end, "length": 8 + n}

    rows = [
        berth(1, "south", "let", "2031-03-04T09:00"),
        berth(2, "north", "let", "2031-03-05T11:00"),
        berth(3, "north", "free", None),
        berth(4, "north", "let", "2031-03-01T12:00"),
        berth(5, "south", "held", "2031-03-05T09:30"),
        berth(6, "north", "closed", "2031-02-01T08:00"),
        berth(7, "south", "free", None),
        berth(8, "north", "held", "2031-03-09T10:00"),
    ]
    return {"berths": {r["berth_id"]: r for r in rows}}


def _env(tmp_path: Path) -> Environment:
    return markdown_desk(tmp_path, DOCS, _data(), "berths")


def _ids(env: Environment, arguments: dict[str, Any]) -> list[str]:
    step = env.step({"name": "search_berths", "arguments": arguments})
    assert step.info["ok"], step.observation
    answer = json.loads(step.observation)
    assert answer["total"] == len(answer["berths"])
    return [r["berth_id"] for r in answer["berths"]]


def test_a_passed_date_flag_filters_both_ways_and_is_answered_in_rows_cut_as_shown(tmp_path: Path) -> None:
    env = _env(tmp_path)
    assert _ids(env, {"overdue": True}) == ["B-4", "B-1", "B-5"]  # north first, then by lease_end
    assert _ids(env, {"overdue": False}) == ["B-6", "B-2", "B-8", "B-3", "B-7"]  # closed or not yet past: the others
    rows = json.loads(env.step({"name": "search_berths", "arguments": {"status": "let"}}).observation)["berths"]
    assert rows == [
        {"berth_id": "B-4", "pier": "north", "status": "let", "lease_end": "2031-03-01T12:00", "overdue": True},
        {"berth_id": "B-2", "pier": "north", "status": "let", "lease_end": "2031-03-05T11:00", "overdue": False},
        {"berth_id": "B-1", "pier": "south", "status": "let", "lease_end": "2031-03-04T09:00", "overdue": True},
    ]


def test_the_words_of_a_passed_date_flag_and_an_aside_in_an_order() -> None:
    props = {"status": {"type": "string", "x-enum": ["free", "let", "held"]}, "lease_end": {"format": "date"}}
    said = "`true`: only berths in `let` or `held` whose `lease_end` has passed"
    assert passed_conditions(said, props, "2031-03-05", None) == [
        {"field": "status", "in": ["let", "held"]},
        {"before": "lease_end", "value": "2031-03-05", "cut": 10},
    ]
    assert passed_conditions("only berths whose `lease_end` has passed", props, "2031-03-05", None) is None
    assert passed_conditions(said, props, None, None) is None  # no business date: nothing to compare with
    record = {"pier": {}, "lease_end": {}, "berth_id": {}}
    assert sort_fields("in harbour order: by pier (north first), then `lease_end`, then berth id.", record) == [
        "pier",
        "lease_end",
        "berth_id",
    ]
    assert sort_fields("Berths sorted by lease end (latest first).", record) == ["-lease_end"]
    assert sort_fields("Berths sorted by pier (then berth id).", record) == ["pier", "berth_id"]
    assert sort_fields("Berths sorted by pier (north side) that match the filters.", record) == ["pier"]
