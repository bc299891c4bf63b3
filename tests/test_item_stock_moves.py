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


LOOM = dict(collection="looms", key_field="loom_id", key_param="loom_id", list_field="warp")  # a loom's warp edits


def _plan(text: str) -> ToolPlan:
    spec = ToolSpec("thread_spool", text, PARAMS)
    return refine_item(spec, ToolPlan(kind="item_add", fields=["spool_id", "length"], **LOOM), SCHEMA, text, _state())


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


LINED = {"type": "array", "items": {"type": "object", "properties": {"line_id": S, "spool_id": S, "length": INT}}}
LINED_SCHEMA = {
    "type": "object",
    "properties": {
        "spools": _collection({"spool_id": S, "metres": INT}),
        "looms": _collection({"loom_id": S, "warp": LINED}),
    },
}
UNTHREAD = {"type": "object", "properties": {"loom_id": S, "line_id": S}, "required": ["loom_id", "line_id"]}


def _lined_state() -> dict:
    return {
        "spools": {"SP-1": {"spool_id": "SP-1", "metres": 40}},
        "looms": {"L1": {"loom_id": "L1", "warp": [{"line_id": "W1", "spool_id": "SP-1", "length": 6}]}},
    }


def test_a_removed_line_puts_its_number_back_into_the_record_it_names() -> None:
    text = "Takes a line off a loom's warp. The line is removed and its units go back into metres."
    spec = ToolSpec("unthread", text, UNTHREAD)
    base = ToolPlan(kind="item_remove", op_param="line_id", item_key="line_id", **LOOM)
    plan = refine_item(spec, base, LINED_SCHEMA, text, _lined_state())
    after = copy.deepcopy(_lined_state())
    after["looms"]["L1"]["warp"] = []
    after["spools"]["SP-1"]["metres"] = 46
    run_calls(spec, plan, LINED_SCHEMA, _lined_state, [({"loom_id": "L1", "line_id": "W1"}, after)])


def test_what_goes_back_must_be_one_number_and_one_record() -> None:
    from synth.envsynth.item_rules import _put_back

    base = ToolPlan(kind="item_remove", op_param="line_id", **LOOM)
    [moved] = _put_back("The line is removed; its length is returned to the spool's metres.", base, LINED_SCHEMA)
    assert moved["path"] == [{"from": "arg", "name": "spool_id"}, {"from": "const", "value": "metres"}]
    assert _put_back("Its length goes back into the loom's metres.", base, LINED_SCHEMA) == []  # not whose it is
    assert _put_back("Its length goes back into credit.", base, LINED_SCHEMA) == []  # no record holds that number
    two = copy.deepcopy(LINED_SCHEMA)
    two["properties"]["looms"]["additionalProperties"]["properties"]["warp"]["items"]["properties"]["knots"] = INT
    assert _put_back("Its units go back into metres.", base, two) == []  # which of its two numbers?
    assert _put_back("Its units go back into metres.", ToolPlan(kind="item_add", **LOOM), two) == []


def test_what_the_edit_takes_must_be_there_when_the_errors_say_so() -> None:
    text = "Threads a spool onto a loom's warp. The spool's `metres` drops by the length. Error: not enough metres."
    plan = _plan(text)
    assert [c["op"] for c in plan.checks if c["op"] == "enough"] == ["enough"]
    spec = ToolSpec("thread_spool", text, PARAMS)
    all_of_it = copy.deepcopy(_state())
    all_of_it["looms"]["L1"]["warp"] = [{"spool_id": "SP-1", "length": 40}]
    all_of_it["spools"]["SP-1"]["metres"] = 0
    calls = [
        ({"loom_id": "L1", "spool_id": "SP-1", "length": 41}, None),
        ({"loom_id": "L1", "spool_id": "SP-1", "length": 40}, all_of_it),
    ]
    run_calls(spec, plan, SCHEMA, _state, calls)
    assert not [c for c in _plan(text.replace(" Error: not enough metres.", "")).checks if c["op"] == "enough"]
