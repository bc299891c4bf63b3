"""A seed library's pick lists: packing a list takes every line's packets off the seed's shelf count (refused
whole when one seed runs short), voiding a packed list puts them back, a pending one moves nothing; the states a
void is refused from are read from "Shipped and already void lists cannot be voided", and the status from "the
list's status becomes void"."""

from __future__ import annotations

from typing import Any

from synth.envsynth.entry_moves import each_entry_moves
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition, transition_rules
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, INT = {"type": "string"}, {"type": "integer"}
LINE = {"type": "object", "properties": {"seed_id": S, "packets": INT}}
STATUS = {"type": "string", "x-enum": ["pending", "packed", "shipped", "void"]}
SCHEMA = {
    "type": "object",
    "properties": {
        "seeds": collection({"seed_id": S, "name": S, "on_shelf": INT}),
        "picklists": collection({"picklist_id": S, "status": STATUS, "lines": {"type": "array", "items": LINE}}),
    },
}
PACK = ToolSpec(
    "pack_picklist",
    "Packs a pending list: every line's packets are deducted from the seed's on_shelf count. The list's status "
    "becomes packed. Errors: insufficient on_shelf for a seed.",
    {"type": "object", "properties": {"picklist_id": S}, "required": ["picklist_id"]},
)
VOID = ToolSpec(
    "void_picklist",
    "Voids a list. A pending list is simply closed. A packed list is put back: each line's packets go back on "
    "the shelf (on_shelf). Either way the list's status becomes void. Shipped and already void lists cannot be "
    "voided.",
    {"type": "object", "properties": {"picklist_id": S}, "required": ["picklist_id"]},
)


def _state() -> dict[str, Any]:
    return {
        "seeds": {
            "S1": {"seed_id": "S1", "name": "Kale", "on_shelf": 10},
            "S2": {"seed_id": "S2", "name": "Leek", "on_shelf": 2},
        },
        "picklists": {
            "P1": {
                "picklist_id": "P1",
                "status": "pending",
                "lines": [{"seed_id": "S1", "packets": 4}, {"seed_id": "S2", "packets": 1}],
            },
            "P2": {
                "picklist_id": "P2",
                "status": "pending",
                "lines": [{"seed_id": "S1", "packets": 1}, {"seed_id": "S2", "packets": 5}],
            },
            "P3": {"picklist_id": "P3", "status": "packed", "lines": [{"seed_id": "S1", "packets": 3}]},
            "P4": {"picklist_id": "P4", "status": "shipped", "lines": [{"seed_id": "S2", "packets": 1}]},
        },
    }


def test_the_per_line_moves_read_from_the_docs() -> None:
    assert each_entry_moves(PACK.description, "picklists", SCHEMA) == [
        {
            "op": "each_entry_adjust",
            "list": "lines",
            "via": "seed_id",
            "collection": "seeds",
            "field": "on_shelf",
            "amount": "packets",
            "sign": -1,
            "checked": True,
        }
    ]
    back = each_entry_moves(VOID.description, "picklists", SCHEMA, {"status": ["pending", "packed"]})
    assert [(e["sign"], e.get("when")) for e in back] == [(1, {"field": "status", "in": ["packed"]})]


def test_the_states_a_void_is_refused_from_and_the_status_it_sets() -> None:
    record = SCHEMA["properties"]["picklists"]["additionalProperties"]
    assert transition_rules(VOID, record, "") == ({"status": "void"}, {"status": ["pending", "packed"]})


def _run(spec: ToolSpec, calls: list[tuple[dict, dict | None]]) -> None:
    plan = docs_transition(
        spec,
        ToolPlan(kind="update", collection="picklists", key_field="picklist_id", key_param="picklist_id"),
        SCHEMA,
        "",
    )
    run_calls(spec, plan, SCHEMA, _state, calls)


def test_packing_takes_the_packets_off_the_shelf_or_refuses_whole() -> None:
    packed = _state()
    packed["picklists"]["P1"]["status"] = "packed"
    packed["seeds"]["S1"]["on_shelf"], packed["seeds"]["S2"]["on_shelf"] = 6, 1
    _run(PACK, [({"picklist_id": "P1"}, packed), ({"picklist_id": "P2"}, None)])  # P2 wants 5 leek, 2 on the shelf


def test_voiding_puts_a_packed_lists_packets_back_only() -> None:
    back, closed = _state(), _state()
    back["picklists"]["P3"]["status"] = "void"
    back["seeds"]["S1"]["on_shelf"] = 13
    closed["picklists"]["P1"]["status"] = "void"
    _run(VOID, [({"picklist_id": "P3"}, back), ({"picklist_id": "P1"}, closed), ({"picklist_id": "P4"}, None)])
