"""A value a list edit adds that needs something of a linked record (a sailing charter's extras and its skipper's
skills): the check read from a bracket of pairs, and the runtime refusing a skipper without the skill."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.value_needs import value_needs

S = {"type": "string"}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


COLS = {
    "charters": _collection({"charter_id": S, "skipper_id": S, "extras": {"type": "array", "items": S}}),
    "skippers": _collection({"skipper_id": S, "skills": {"type": "array", "items": S}}),
}
TEXT = (
    "Puts an extra on a charter. Each extra needs the skill of the charter's skipper (`spinnaker`: racing, "
    "`night_sail`: navigation) before it goes on; others need nothing."
)


def test_an_extra_needs_its_skill_of_the_skipper() -> None:
    checks = value_needs(TEXT, "extra", "charters", COLS)
    assert checks == [
        {
            "op": "needs",
            "param": "extra",
            "table": {"spinnaker": "racing", "night_sail": "navigation"},
            "collection": "skippers",
            "via": "skipper_id",
            "field": "skills",
        }
    ]
    state = {"skippers": {"SK1": {"skills": ["racing"]}, "SK2": {"skills": []}}}
    charter = {"skipper_id": "SK1"}
    assert fg_check(checks[0], {"extra": "spinnaker"}, charter, state)
    assert not fg_check(checks[0], {"extra": "night_sail"}, charter, state)
    assert fg_check(checks[0], {"extra": "cooler"}, {"skipper_id": "SK2"}, state)  # needs nothing


def test_no_bracket_of_pairs_or_no_such_record_or_field() -> None:
    assert value_needs("Each extra needs the skill of the charter's skipper.", "extra", "charters", COLS) == []
    assert value_needs(TEXT.replace("skipper (", "owner ("), "extra", "charters", COLS) == []  # no `owner_id`
    assert value_needs(TEXT.replace("the skill", "the badge"), "extra", "charters", COLS) == []  # no such field
