"""A kiln firing booked from markdown docs: the fee from a pipe table with a row per kiln type ("kiln | allowed when
| fee (charged on firing)"), refused while the rack has another firing that is `booked` or `firing`, and a
`firing_booked` event appended to "the studio history" (no possessive); read by create_rules.refine_create from
the docs as the markdown loader keeps them, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.create_rules import refine_create
from synth.envsynth.plan import ToolPlan
from synth.envsynth.rate_tables import column_tables
from synth.spec import ToolSpec
from synth.tooldocs.markdown import load_markdown
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
KINDS = {"type": "string", "x-enum": ["firing_booked", "firing_done"]}
EVENT = {"type": "object", "properties": {"date": S, "event": KINDS, "firing_id": S, "kiln": S}}
SCHEMA = {
    "type": "object",
    "properties": {
        "studios": collection({"studio_id": S, "name": S, "history": {"type": "array", "items": EVENT}}),
        "racks": collection({"rack_id": S, "studio_id": {"type": "string", "x-references": "studios"}}),
        "firings": collection(
            {
                "firing_id": S,
                "studio_id": {"type": "string", "x-references": "studios"},
                "rack_id": {"type": "string", "x-references": "racks"},
                "kiln": S,
                "status": {"type": "string", "x-enum": ["booked", "firing", "done"]},
                "fee": N,
            }
        ),
    },
}
TODAY = "2031-03-04"
DOCS = f"""## book_firing

Books a firing on a rack of a studio. The studio's business date is {TODAY}.

Rules: the rack has no other firing that is `booked` or `firing`. Per kiln:

| kiln | allowed when | fee (charged on firing) |
|---|---|---|
| `raku` | rack free | 25.00 |
| `gas` | rack free, vent on | 40.00 |
| `electric` | always | 0.00 |

The new firing gets the next id, status `booked` and the kiln's `fee`. A `firing_booked` event is appended to the
studio history.

**Parameters**

- `studio_id` (string, required): the studio
- `rack_id` (string, required): the rack
- `kiln` (string, required): `raku`, `gas` or `electric`
"""


def _state() -> dict[str, Any]:
    old = {"date": "2031-01-02", "event": "firing_booked", "firing_id": "F1", "kiln": "gas"}
    return {
        "studios": {"ST1": {"studio_id": "ST1", "name": "North", "history": [old]}},
        "racks": {"RK1": {"rack_id": "RK1", "studio_id": "ST1"}, "RK2": {"rack_id": "RK2", "studio_id": "ST1"}},
        "firings": {
            "F1": {
                "firing_id": "F1",
                "studio_id": "ST1",
                "rack_id": "RK1",
                "kiln": "gas",
                "status": "done",
                "fee": 40.0,
            },
            "F2": {
                "firing_id": "F2",
                "studio_id": "ST1",
                "rack_id": "RK2",
                "kiln": "raku",
                "status": "booked",
                "fee": 25.0,
            },
        },
    }


def _plan(spec: ToolSpec) -> ToolPlan:
    base = ToolPlan(
        kind="create",
        collection="firings",
        key_field="firing_id",
        fields=["studio_id", "rack_id", "kiln"],
        id_type="pattern",
        key_format={"prefix": "F", "digits": 1},
        initial_values={"status": "booked"},
        ref_checks={"studio_id": "studios", "rack_id": "racks"},
    )
    return refine_create(spec, base, SCHEMA, spec.description, TODAY, _state())


def test_the_fee_column_is_read_by_the_row_of_the_argument() -> None:
    (spec,) = load_markdown(DOCS, "kilns.md")
    own = SCHEMA["properties"]["firings"]["additionalProperties"]["properties"]
    (tabled,) = column_tables(spec.description, spec.parameters["properties"], own, ["fee"])
    assert tabled == {
        "op": "tabled",
        "field": "fee",
        "arg": "kiln",
        "values": {"raku": 25.0, "gas": 40.0, "electric": 0.0},
    }
    assert column_tables(spec.description, spec.parameters["properties"], own, []) == []  # the fee set otherwise


def test_a_firing_is_booked_with_its_fee_its_event_and_its_refusal() -> None:
    (spec,) = load_markdown(DOCS, "kilns.md")
    plan = _plan(spec)
    assert [c for c in plan.checks if c["op"] == "cap"][0]["where"] == {"status": ["booked", "firing"]}

    def booked(kiln: str, fee: float) -> dict[str, Any]:
        out = copy.deepcopy(_state())
        new = {"firing_id": "F3", "studio_id": "ST1", "rack_id": "RK1", "kiln": kiln, "status": "booked", "fee": fee}
        out["firings"]["F3"] = new
        event = {"date": TODAY, "event": "firing_booked", "firing_id": "F3", "kiln": kiln}
        out["studios"]["ST1"]["history"].append(event)
        return out

    calls = [
        ({"studio_id": "ST1", "rack_id": "RK1", "kiln": "gas"}, booked("gas", 40.0)),
        ({"studio_id": "ST1", "rack_id": "RK1", "kiln": "electric"}, booked("electric", 0.0)),
        ({"studio_id": "ST1", "rack_id": "RK2", "kiln": "gas"}, None),  # F2 is still booked on RK2
    ]
    run_calls(spec, plan, SCHEMA, _state, calls)
