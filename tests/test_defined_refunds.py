""" "The refund is the berth fee in full if ..., otherwise half of it" says what the refund is, not that anything is
refunded into the berth fee: no counter moves on it, while "the refund is added to the skipper's `credit`" with
an amount it names still moves."""

from __future__ import annotations

from synth.envsynth.docs_counters import docs_counters
from tests.schemas import collection

S, N = {"type": "string"}, {"type": "number"}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": collection({"skipper_id": S, "credit": N}),
        "berthings": collection(
            {"berthing_id": S, "skipper_id": {**S, "x-references": "skippers"}, "fee": N, "failed_lifts": N}
        ),
    },
}


def test_a_refund_defined_moves_nothing() -> None:
    said = "The refund is the berthing's `fee` in full if it has no failed lifts, otherwise half of it."
    assert docs_counters(said, "berthings", "berthing_id", SCHEMA, {}) == []
    paid = "The `fee` is refunded to the skipper's `credit`."
    [move] = docs_counters(paid, "berthings", "berthing_id", SCHEMA, {})
    assert move["collection"] == "skippers" and move["delta"]["expr"] == {"plus": [{"path": ["fee"]}]}
