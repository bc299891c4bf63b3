"""A berth stay closed out: refused until its tab is settled ("`balance` must be 0 or less"), then the skipper's
`visits` goes up by one and `points` by the whole-unit part of the stay's `berth_total` though a bracket says "1
point per euro of berth charges" (no number of that name); the publish gate counts `berth_total` as what the points
move by, not as a change the plan forgot. Planned from the docs, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.gate import _handled
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
STAY = {
    "stay_id": S,
    "skipper_id": {"type": "string", "x-references": "skippers"},
    "status": {"type": "string", "x-enum": ["moored", "left"]},
    "berth_total": N,
    "balance": N,
}
SCHEMA = {
    "type": "object",
    "properties": {
        "stays": collection(STAY),
        "skippers": collection({"skipper_id": S, "visits": {"type": "integer"}, "points": {"type": "integer"}}),
    },
}
TEXT = (
    "Closes a `moored` stay. The tab must be settled: `balance` must be 0 or less.\n\nEffects: the skipper's "
    "`visits` increases by 1 and `points` by the whole-unit part of `berth_total` (1 point per euro of berth "
    "charges); status becomes `left`."
)
SPEC = ToolSpec("close_stay", TEXT, {"type": "object", "properties": {"stay_id": S}, "required": ["stay_id"]})


def _state() -> dict[str, Any]:
    def stay(key: str, status: str, total: float, balance: float) -> dict[str, Any]:
        return {"stay_id": key, "skipper_id": "SK1", "status": status, "berth_total": total, "balance": balance}

    return {
        "stays": {"S1": stay("S1", "moored", 182.75, 0.0), "S2": stay("S2", "moored", 90.0, 12.5)},
        "skippers": {"SK1": {"skipper_id": "SK1", "visits": 3, "points": 40}},
    }


def _plan() -> ToolPlan:
    moves = docs_counters(TEXT, "stays", "stay_id", SCHEMA, SPEC.parameters["properties"])
    status = {"op": "set", "field": "status", "source": {"from": "const", "value": "left"}}
    base = ToolPlan(
        kind="recorded_update",
        collection="stays",
        key_field="stay_id",
        key_param="stay_id",
        preconditions={"status": ["moored"]},
        effects=[status, *moves],
    )
    return allowed_checks(SPEC, base, SCHEMA, TEXT)


def test_points_move_by_the_whole_units_and_the_balance_is_checked() -> None:
    plan = _plan()
    points = [e for e in plan.effects if e["op"] == "adjust" and e["path"][-1]["value"] == "points"]
    assert points and points[0]["delta"]["expr"].get("floor") is True
    assert {"op": "bound", "from": "self", "field": "balance", "cmp": "<=", "value": 0.0} in plan.checks
    assert "berth_total" in _handled(plan.to_dict())
    after = copy.deepcopy(_state())
    after["stays"]["S1"]["status"] = "left"
    after["skippers"]["SK1"].update(visits=4, points=222)  # 40 + 182
    run_calls(SPEC, plan, SCHEMA, _state, [({"stay_id": "S1"}, after), ({"stay_id": "S2"}, None)])
