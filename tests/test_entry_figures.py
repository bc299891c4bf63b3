"""An added list entry's numbers and what they move, read from the sample data and the docs (a recording studio's
sessions): the gear line's hourly fee is the one the room's kind lists under another name (two links away), its
fee is that rate times the session's hours, the room kind's limit on gear lines refuses one too many, the session's
`charges.gear_fees` and `total` grow by the fee, and the logged entry's note is written as the sample notes are;
taking a line off moves the same figures back and credits the client."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.entry_figures import entry_caps, entry_figures
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
GEAR = {"type": "array", "items": {"type": "object", "properties": {"tag": S, "fee_per_hour": N, "fee": N}}}
EVENT = {"type": "string", "x-enum": ["booked", "gear_added"]}  # as a schema read from the data knows it
LOG = {"type": "array", "items": {"type": "object", "properties": {"date": S, "event": EVENT, "note": S}}}
SESSION = {
    "session_id": S,
    "client_id": S,
    "room_id": S,
    "hours": INT,
    "status": {"type": "string", "x-enum": ["booked", "running", "done"]},
    "charges": {"type": "object", "properties": {"room": N, "gear_fees": N}},
    "total": N,
    "extra_gear": GEAR,
    "log": LOG,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "kinds": collection({"kind": S, "gear_rate": N, "max_extra_gear": INT}),
        "rooms": collection({"room_id": S, "kind": S}),
        "clients": collection({"client_id": S, "credit": N}),
        "sessions": collection(SESSION),
    },
}


def _session(key: str, room: str, hours: int, gear: list[tuple[str, float]], status: str = "booked") -> dict:
    rate = {"R1": 4.0, "R2": 4.0, "R3": 9.5}[room]
    lines = [{"tag": tag, "fee_per_hour": rate, "fee": round(rate * hours, 2)} for tag, _ in gear]
    fees = sum(line["fee"] for line in lines)
    log = [{"date": "2031-01-02", "event": "booked", "note": f"{hours} hour(s) in {room}"}]
    log += [
        {
            "date": "2031-01-03",
            "event": "gear_added",
            "note": f"{line['tag']} added, {line['fee']:.2f} for {hours} hour(s)",
        }
        for line in lines
    ]
    return {
        "session_id": key,
        "client_id": "C1",
        "room_id": room,
        "hours": hours,
        "status": status,
        "charges": {"room": 50.0, "gear_fees": fees},
        "total": 50.0 + fees,
        "extra_gear": lines,
        "log": log,
    }


def _sample() -> dict[str, Any]:
    return {
        "kinds": {
            "booth": {"kind": "booth", "gear_rate": 4.0, "max_extra_gear": 1},
            "hall": {"kind": "hall", "gear_rate": 9.5, "max_extra_gear": 2},
        },
        "rooms": {
            "R1": {"room_id": "R1", "kind": "booth"},
            "R2": {"room_id": "R2", "kind": "booth"},
            "R3": {"room_id": "R3", "kind": "hall"},
        },
        "clients": {"C1": {"client_id": "C1", "credit": 0.0}},
        "sessions": {
            "S1": _session("S1", "R1", 3, [("AMP1", 0)]),
            "S2": _session("S2", "R3", 2, [("MIC1", 0), ("MIC2", 0)]),
            "S3": _session("S3", "R2", 5, [("KEY1", 0)]),
            "S4": _session("S4", "R3", 4, []),
            "S5": _session("S5", "R3", 1, [("DRM1", 0)], status="done"),
        },
    }


ADD = ToolSpec(
    "add_gear",
    "Adds an extra piece of gear to a session. Allowed while the session is booked or running. The line's fee per "
    "hour comes from the room kind and is charged for every hour of the session. charges.gear_fees and total grow "
    'by the fee, and a "gear_added" log entry is written. Returns the session.',
    {
        "type": "object",
        "properties": {"session_id": S, "tag": S},
        "required": ["session_id", "tag"],
    },
)
REMOVE = ToolSpec(
    "remove_gear",
    "Takes a piece of gear off a session that is still booked. Side effects: its fee is subtracted from "
    "charges.gear_fees and from total, the same amount is credited to the client's credit.",
    {"type": "object", "properties": {"session_id": S, "tag": S}, "required": ["session_id", "tag"]},
)
BASE = dict(collection="sessions", key_field="session_id", key_param="session_id", list_field="extra_gear")


def test_an_entry_number_looked_up_two_links_away_and_a_product() -> None:
    found = entry_figures(_sample(), "sessions", "extra_gear", ["tag"], ["fee", "fee_per_hour", "tag"])
    assert found == [
        {
            "op": "entry_looked_up",
            "field": "fee_per_hour",
            "chain": [{"via": "room_id", "collection": "rooms"}, {"via": "kind", "collection": "kinds"}],
            "source": "gear_rate",
        },
        {"op": "entry_product", "field": "fee", "of": [["entry", "fee_per_hour"], ["record", "hours"]]},
    ]


def test_no_rule_from_too_few_or_disagreeing_entries() -> None:
    few = _sample()
    for key in ("S2", "S3"):
        few["sessions"][key]["extra_gear"] = []
    assert entry_figures(few, "sessions", "extra_gear", ["tag"], ["fee", "fee_per_hour", "tag"]) == []
    off = _sample()
    off["sessions"]["S3"]["extra_gear"][0]["fee"] = 21.0  # not 4.0 x 5
    found = entry_figures(off, "sessions", "extra_gear", ["tag"], ["fee", "fee_per_hour", "tag"])
    assert [e["field"] for e in found] == ["fee_per_hour"]


def test_the_limit_the_linked_record_holds_and_one_broken_in_the_data() -> None:
    cap = entry_caps(_sample(), "sessions", "extra_gear")
    assert cap == [
        {
            "op": "list_cap",
            "list": "extra_gear",
            "chain": [{"via": "room_id", "collection": "rooms"}, {"via": "kind", "collection": "kinds"}],
            "field": "max_extra_gear",
        }
    ]
    over = _sample()
    over["sessions"]["S1"]["extra_gear"].append(copy.deepcopy(over["sessions"]["S1"]["extra_gear"][0]))
    assert entry_caps(over, "sessions", "extra_gear") == []  # a booth holding two: not a limit


def test_the_fee_moves_a_nested_number_and_the_total() -> None:
    params = {"session_id": S, "tag": S, "fee": N, "fee_per_hour": N}
    moves = docs_counters(ADD.description, "sessions", "session_id", SCHEMA, params)
    paths = sorted([step["value"] for step in e["path"][1:]] for e in moves)
    assert paths == [["charges", "gear_fees"], ["total"]]
    assert all(e["delta"]["expr"] == {"plus": [{"arg": "fee"}]} for e in moves)


def _run(spec: ToolSpec, plan: ToolPlan, calls: list[tuple[dict, dict | None]]) -> None:
    run_calls(spec, plan, SCHEMA, _sample, calls)


def test_adding_gear_prices_the_line_moves_the_figures_and_logs_it() -> None:
    text = ADD.description + "\nThe business date is 2031-01-05."
    plan = refine_item(ADD, ToolPlan(kind="item_add", fields=["tag"], **BASE), SCHEMA, text, _sample(), "2031-01-05")
    assert plan.preconditions == {"status": ["booked", "running"]}
    after = _sample()
    session = after["sessions"]["S4"]
    session["extra_gear"].append({"tag": "SYN1", "fee_per_hour": 9.5, "fee": 38.0})
    session["charges"]["gear_fees"] = 38.0
    session["total"] = 88.0
    session["log"].append({"date": "2031-01-05", "event": "gear_added", "note": "SYN1 added, 38.00 for 4 hour(s)"})
    _run(
        ADD,
        plan,
        [
            ({"session_id": "S4", "tag": "SYN1"}, after),
            ({"session_id": "S1", "tag": "AMP2"}, None),  # a booth takes one extra piece, and has it
            ({"session_id": "S5", "tag": "AMP2"}, None),  # done: no more gear
        ],
    )


def test_removing_gear_moves_the_figures_back_and_credits_the_client() -> None:
    base = ToolPlan(kind="item_remove", op_param="tag", item_key="tag", **BASE)
    plan = refine_item(REMOVE, base, SCHEMA, REMOVE.description, _sample())
    after = _sample()
    session = after["sessions"]["S3"]
    session["extra_gear"] = []
    session["charges"]["gear_fees"] = 0.0
    session["total"] = 50.0
    after["clients"]["C1"]["credit"] = 20.0
    _run(REMOVE, plan, [({"session_id": "S3", "tag": "KEY1"}, after)])
