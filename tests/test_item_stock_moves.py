"""A list edit that moves a number of the record its argument names, not one the edited record links to: "The
spool's `metres` drops by the length" when a loom's warp gets a spool (the spool named by `spool_id`, the length
left out taking its documented default); only where the sentence says whose number it is, and "add-on" is no
word of adding."""

from __future__ import annotations

import copy

from synth.envsynth.docs_counters import UP, docs_counters
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection as _collection
from tests.tool_calls import run_calls

S, INT = {"type": "string"}, {"type": "integer"}
WARP = {"type": "array", "items": {"type": "object", "properties": {"spool_id": S, "length": INT}}}
SCHEMA = {
    "type": "object",
    "properties": {
        "spools": _collection({"spool_id": S, "metres": INT, "most_per_loom": INT}),
        "looms": _collection({"loom_id": S, "warp": WARP}),
    },
}
PARAMS = {
    "type": "object",
    "properties": {"loom_id": S, "spool_id": S, "length": {"type": "integer", "default": 1}},
    "required": ["loom_id", "spool_id"],
}


def _state() -> dict:
    return {
        "spools": {"SP-1": {"spool_id": "SP-1", "metres": 40, "most_per_loom": 9}},
        "looms": {"L1": {"loom_id": "L1", "warp": []}},
    }


def _plan(text: str) -> ToolPlan:
    spec = ToolSpec("thread_spool", text, PARAMS)
    base = ToolPlan(
        kind="item_add",
        collection="looms",
        key_field="loom_id",
        key_param="loom_id",
        list_field="warp",
        fields=["spool_id", "length"],
    )
    return refine_item(spec, base, SCHEMA, text, _state())


def test_the_named_spool_gives_up_what_the_warp_takes() -> None:
    text = "Threads a spool onto a loom's warp. The spool's `metres` drops by the length."
    plan = _plan(text)
    assert [e["op"] for e in plan.effects] == ["adjust"]
    once = copy.deepcopy(_state())
    once["looms"]["L1"]["warp"] = [{"spool_id": "SP-1", "length": 1}]
    once["spools"]["SP-1"]["metres"] = 39  # the length left out is 1
    five = copy.deepcopy(_state())
    five["looms"]["L1"]["warp"] = [{"spool_id": "SP-1", "length": 5}]
    five["spools"]["SP-1"]["metres"] = 35
    calls = [({"loom_id": "L1", "spool_id": "SP-1"}, once), ({"loom_id": "L1", "spool_id": "SP-1", "length": 5}, five)]
    run_calls(ToolSpec("thread_spool", text, PARAMS), plan, SCHEMA, _state, calls)


def test_whose_number_it_is_must_be_said() -> None:
    unowned = "Threads a spool onto a loom's warp: metres go down by the length."  # whose metres?
    assert [e for e in _plan(unowned).effects if e["op"] == "adjust"] == []
    moves = docs_counters(unowned, "looms", "loom_id", SCHEMA, PARAMS["properties"])
    assert moves == []
    assert UP.search("the add-on's maximum") is None and UP.search("adds 2 to the total")
