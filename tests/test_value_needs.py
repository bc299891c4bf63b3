"""A value a list edit adds that needs something of a linked record (a dive trip's kit and its guide's ratings): the
check read from a bracket of pairs, and the runtime refusing a guide without the rating."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.value_needs import value_needs
from tests.schemas import collection as _collection

S = {"type": "string"}


COLS = {
    "trips": _collection({"trip_id": S, "guide_id": S, "kit": {"type": "array", "items": S}}),
    "guides": _collection({"guide_id": S, "ratings": {"type": "array", "items": S}}),
}
TEXT = (
    "Packs a piece of kit for a dive trip. For some kit the trip's guide must hold a matching rating "
    "(`rebreather`: trimix, `scooter`: dpv); anything else can be packed freely."
)


def test_kit_needs_its_rating_of_the_guide() -> None:
    checks = value_needs(TEXT, "kit", "trips", COLS)
    assert checks == [
        {
            "op": "needs",
            "param": "kit",
            "table": {"rebreather": "trimix", "scooter": "dpv"},
            "collection": "guides",
            "via": "guide_id",
            "field": "ratings",
        }
    ]
    state = {"guides": {"G1": {"ratings": ["trimix"]}, "G2": {"ratings": []}}}
    trip = {"guide_id": "G1"}
    assert fg_check(checks[0], {"kit": "rebreather"}, trip, state)
    assert not fg_check(checks[0], {"kit": "scooter"}, trip, state)
    assert fg_check(checks[0], {"kit": "torch"}, {"guide_id": "G2"}, state)  # needs nothing


def test_no_bracket_of_pairs_or_no_such_record_or_field() -> None:
    assert value_needs("For some kit the trip's guide must hold a matching rating.", "kit", "trips", COLS) == []
    assert value_needs(TEXT.replace("guide must", "captain must"), "kit", "trips", COLS) == []  # no `captain_id`
    assert value_needs(TEXT.replace("a matching rating", "a matching badge"), "kit", "trips", COLS) == []  # no field
