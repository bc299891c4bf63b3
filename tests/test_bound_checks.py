"""Number limits a create's docs put on the records it names (a kayak club's rentals): each "less / fewer than N
<words>" picks the named record's one number field sharing a word, and the rendered create refuses the call past
the limit; limits on other nouns, or words no single field shares, are left alone."""

from __future__ import annotations

from synth.envsynth.bound_checks import bound_checks
from synth.envsynth.expr_runtime import fg_check

S, N = {"type": "string"}, {"type": "number"}


def _collection(props: dict) -> dict:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


COLS = {
    "paddlers": _collection({"paddler_id": S, "dues_owed": N, "boats_afloat": {"type": "integer"}, "age": N}),
    "kayaks": _collection({"kayak_id": S, "seats": {"type": "integer"}}),
}
REFS = {"paddler_id": "paddlers", "kayak_id": "kayaks"}
TEXT = (
    "Rents a kayak. The paddler must be 'active', owe less than 40.00 in dues and have fewer than 3 boats afloat; "
    "the kayak must be 'docked'. Afterwards the paddler has more than 2 things to carry."
)


def test_limits_on_the_named_record_become_bound_checks() -> None:
    checks = bound_checks(TEXT, REFS, COLS)
    assert [(c["via"], c["field"], c["cmp"], c["value"]) for c in checks] == [
        ("paddler_id", "dues_owed", "<", 40.0),
        ("paddler_id", "boats_afloat", "<", 3),
    ]
    state = {"paddlers": {"P1": {"dues_owed": 39.99, "boats_afloat": 2}, "P2": {"dues_owed": 40.0, "boats_afloat": 0}}}
    assert fg_check(checks[0], {"paddler_id": "P1"}, {}, state)
    assert not fg_check(checks[0], {"paddler_id": "P2"}, {}, state)
    assert fg_check(checks[1], {"paddler_id": "P2"}, {}, state) and fg_check(checks[0], {"paddler_id": "P9"}, {}, state)
    at_most = bound_checks("The paddler must have at most 2 boats afloat.", REFS, COLS)
    assert at_most[0]["cmp"] == "<=" and fg_check(at_most[0], {"paddler_id": "P1"}, {}, state)


def test_what_is_no_limit_on_a_named_record() -> None:
    assert bound_checks("The paddler owes less than 40.00 in dues.", REFS, COLS) == []  # no "must"
    assert bound_checks("The paddler must carry fewer than 3 paddles.", REFS, COLS) == []  # no field shares a word
    assert bound_checks("The club must have fewer than 3 boats afloat.", REFS, COLS) == []  # names no record
