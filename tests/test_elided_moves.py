"""Two moves in one clause, the second said short: "the skipper's `trips` increases by 1 and `miles` by the
whole-mile part of `distance`" moves both numbers of the skipper, the miles by the record's distance rounded down."""

from __future__ import annotations

from synth.envsynth.docs_counters import docs_counters
from synth.envsynth.expr_runtime import fg_evaluate
from synth.envsynth.move_phrases import unelided
from tests.schemas import collection

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": collection({"skipper_id": S, "trips": INT, "miles": INT}),
        "voyages": collection({"voyage_id": S, "skipper_id": S, "distance": N}),
    },
}
TEXT = "Effects: the skipper's `trips` increases by 1 and `miles` by the whole-mile part of `distance`."


def test_the_short_second_move_is_said_in_full_with_the_owner() -> None:
    assert unelided("the skipper's `trips` increases by 1 and `miles` by 2") == [
        "the skipper's `trips` increases by 1",
        "the skipper's `miles` increases by 2",
    ]
    assert unelided("its fee and its total grow") == ["its fee and its total grow"]  # nothing elided


def test_both_numbers_move_the_second_by_the_whole_part() -> None:
    trips, miles = docs_counters(TEXT, "voyages", "voyage_id", SCHEMA, {})
    assert [m["path"][-1]["value"] for m in (trips, miles)] == ["trips", "miles"]
    assert trips["delta"]["expr"] == {"plus": [{"const": 1}]}
    voyage = {"voyage_id": "Y1", "skipper_id": "K1", "distance": 605.8}
    assert fg_evaluate(miles["delta"]["expr"], {}, voyage, {}) == 605
    assert (
        docs_counters(
            "The skipper's `miles` rise by the whole-mile part of `toll`.", "voyages", "voyage_id", SCHEMA, {}
        )
        == []
    )
