"""A haul-out request withdrawn, read from its docs: allowed from the states the docs list (not every state but the
one they single out), the request becomes `withdrawn`, and the unpaid part of its fee is written off: the skipper's
`owed` drops by `fee - paid` (never raised when nothing is unpaid) and `fee` is set to `paid`, in that order.
Planned by the pipeline's own readings, rendered and run."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.allowed_states import allowed_from
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.transition_copies import number_copies
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
STATES = ["filed", "held", "quoted", "hauled", "launched", "withdrawn"]
SCHEMA = {
    "type": "object",
    "properties": {
        "haulouts": collection(
            {
                "haulout_id": S,
                "skipper_id": S,
                "status": {"type": "string", "x-enum": STATES},
                "fee": N,
                "paid": N,
            }
        ),
        "skippers": collection({"skipper_id": S, "owed": N}),
    },
}
TEXT = """Withdraw a haul-out request

Withdraws a request at the skipper's wish. Allowed from `filed`, `held` and `quoted`; a `hauled` boat cannot be
withdrawn here (it is launched by the yard).

Effects: status becomes `withdrawn`. If part of a quoted fee is unpaid, the unpaid part is written off: the
skipper's `owed` decreases by `fee - paid` and `fee` is set to `paid`. Payments already made are not refunded.
"""
PARAMS = {"type": "object", "properties": {"haulout_id": S}, "required": ["haulout_id"]}
SPEC = ToolSpec(name="withdraw_haulout", description=TEXT, parameters=PARAMS, mutates=True)


def _state() -> dict[str, Any]:
    return {
        "haulouts": {
            "H1": {"haulout_id": "H1", "skipper_id": "K1", "status": "quoted", "fee": 300.0, "paid": 120.0},
            "H2": {"haulout_id": "H2", "skipper_id": "K2", "status": "filed", "fee": 0.0, "paid": 0.0},
            "H3": {"haulout_id": "H3", "skipper_id": "K1", "status": "hauled", "fee": 200.0, "paid": 0.0},
            "H4": {"haulout_id": "H4", "skipper_id": "K2", "status": "held", "fee": 50.0, "paid": 80.0},
            "H5": {"haulout_id": "H5", "skipper_id": "K2", "status": "launched", "fee": 10.0, "paid": 0.0},
        },
        "skippers": {"K1": {"skipper_id": "K1", "owed": 380.0}, "K2": {"skipper_id": "K2", "owed": 10.0}},
    }


def _plan() -> ToolPlan:
    base = ToolPlan(kind="update", collection="haulouts", key_field="haulout_id", key_param="haulout_id")
    changed = docs_transition(SPEC, base, SCHEMA, "", list(_state()["haulouts"].values()), _state())
    assert changed is not None
    return changed


def test_each_reading() -> None:
    assert allowed_from(TEXT, STATES) == ["filed", "held", "quoted"]
    assert allowed_from(TEXT.replace("`held`", "`docked`"), STATES) == []  # a value no record takes
    own = SCHEMA["properties"]["haulouts"]["additionalProperties"]["properties"]
    assert number_copies(TEXT, own) == [{"op": "set", "field": "fee", "source": {"from": "record", "path": ["paid"]}}]
    assert number_copies(TEXT.replace("`paid`.", "`deposit`."), own) == []  # not a number of the record
    plan = _plan()
    assert plan.preconditions == {"status": ["filed", "held", "quoted"]}
    adjust = [e for e in plan.effects if e["op"] == "adjust"]
    assert [(e["collection"], e["path"]) for e in adjust] == [
        ("skippers", [{"from": "record", "path": ["skipper_id"]}, {"from": "const", "value": "owed"}])
    ]
    assert adjust[0]["delta"]["expr"] == {"plus": [{"path": ["paid"]}], "minus": [{"path": ["fee"]}], "most": 0}
    ops = [(e["op"], e.get("field")) for e in plan.effects]
    assert ops.index(("set", "fee")) > ops.index(("adjust", None))  # the write-off reads the fee before it is reset


def _withdrawn(key: str, owed: float | None = None) -> dict[str, Any]:
    out = copy.deepcopy(_state())
    request = out["haulouts"][key]
    request["status"] = "withdrawn"
    if owed is not None:
        out["skippers"][request["skipper_id"]]["owed"] = owed
        request["fee"] = request["paid"]
    return out


def test_a_withdrawal_writes_off_the_unpaid_fee() -> None:
    overpaid = _withdrawn("H4")
    overpaid["haulouts"]["H4"]["fee"] = 80.0  # the fee takes what was paid; nothing owed is raised
    calls = [
        ({"haulout_id": "H1"}, _withdrawn("H1", owed=200.0)),  # 180 unpaid written off
        ({"haulout_id": "H2"}, _withdrawn("H2")),  # nothing assessed, nothing written off
        ({"haulout_id": "H4"}, overpaid),
        ({"haulout_id": "H3"}, None),  # hauled: not a state it is allowed from
        ({"haulout_id": "H5"}, None),  # launched: neither
        ({"haulout_id": "H9"}, None),  # no such request
    ]
    run_calls(SPEC, _plan(), SCHEMA, _state, calls)
