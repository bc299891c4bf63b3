"""Two moves in one clause, the second said short: "the guest's `stays` increases by 1 and `points` by the
whole-dollar part of `total`" moves both numbers of the guest, the points by the record's total rounded down."""

from __future__ import annotations

from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.expr_runtime import fg_evaluate
from synth.envsynth.move_phrases import unelided
from tests.schemas import collection

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
SCHEMA = {
    "type": "object",
    "properties": {
        "guests": collection({"guest_id": S, "stays": INT, "points": INT}),
        "visits": collection({"visit_id": S, "guest_id": S, "total": N}),
    },
}
TEXT = "Effects: the guest's `stays` increases by 1 and `points` by the whole-dollar part of `total`."


def test_the_short_second_move_is_said_in_full_with_the_owner() -> None:
    assert unelided("the guest's `stays` increases by 1 and `points` by 2") == [
        "the guest's `stays` increases by 1",
        "the guest's `points` increases by 2",
    ]
    assert unelided("its fee and its total grow") == ["its fee and its total grow"]  # nothing elided


def test_both_numbers_move_the_second_by_the_whole_part() -> None:
    stays, points = docs_counters(TEXT, "visits", "visit_id", SCHEMA, {})
    assert [m["path"][-1]["value"] for m in (stays, points)] == ["stays", "points"]
    assert stays["delta"]["expr"] == {"plus": [{"const": 1}]}
    visit = {"visit_id": "V1", "guest_id": "G1", "total": 605.8}
    assert fg_evaluate(points["delta"]["expr"], {}, visit, {}) == 605
    assert (
        docs_counters("The guest's `points` rise by the whole-dollar part of `fee`.", "visits", "visit_id", SCHEMA, {})
        == []
    )
