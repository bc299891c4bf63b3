"""A payment capped by what is outstanding, by the record's state, read from its docs: the balance for a docked or a
laid-up boat, the fee less the payments already taken for a booked one; and never 0 or less."""

from __future__ import annotations

from synth.envsynth.arg_limits import outstanding_limits
from synth.envsynth.expr_runtime import fg_check

N = {"type": "number"}
OWN = {
    "status": {"type": "string", "x-enum": ["booked", "docked", "laid_up", "gone"]},
    "balance": N,
    "fee": N,
    "payments": {
        "type": "array",
        "items": {"type": "object", "properties": {"amount": N, "method": {"type": "string"}}},
    },
}
PARAMS = {"amount": N, "method": {"type": "string"}}
TEXT = (
    "Records a payment on a boat. The amount must be greater than 0 and may not exceed what is outstanding: the "
    "`balance` for a docked boat or a laid-up boat, or the `fee` minus payments already taken for a booked boat."
)


def _allowed(record: dict, amount: float) -> bool:
    checks = outstanding_limits(TEXT, PARAMS, OWN)
    held = [c for c in checks if "when" not in c or record.get(c["when"]["field"]) in c["when"]["in"]]
    return all(fg_check(c, {"amount": amount}, record, {}) for c in held)


def test_the_cap_follows_the_state() -> None:
    checks = outstanding_limits(TEXT, PARAMS, OWN)
    assert [c.get("when") for c in checks] == [
        None,
        {"field": "status", "in": ["docked", "laid_up"]},
        {"field": "status", "in": ["booked"]},
    ]
    docked = {"status": "docked", "balance": 80.0, "fee": 500.0, "payments": []}
    assert _allowed(docked, 80.0) and not _allowed(docked, 80.5) and not _allowed(docked, 0)
    booked = {"status": "booked", "balance": -100.0, "fee": 300.0, "payments": [{"amount": 100.0}, {"amount": 50.0}]}
    assert _allowed(booked, 150.0) and not _allowed(booked, 150.01)  # 300 less the 150 already taken
    gone = {"status": "gone", "balance": 0.0, "fee": 0.0, "payments": []}
    assert _allowed(gone, 999.0)  # no cap said for it (whether it may pay at all is another rule's)
    assert outstanding_limits(TEXT.replace("a booked boat", "a moored boat"), PARAMS, OWN)[-1]["when"]["in"] == [
        "docked",
        "laid_up",
    ]  # "moored" is no state of the record: that case is not read
