"""value_bullets: the checks a bullet led by a closed argument's value puts on a change, each held for that value
only, and the `sum_within` check they use (made-up marina domain)."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.value_bullets import value_bullet_checks

COLS = {
    "skippers": {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {
                "skipper_id": {"type": "string"},
                "rate_kind": {"type": "string", "x-enum": ["club", "visitor"]},
                "status": {"type": "string", "x-enum": ["active", "barred"]},
                "owed": {"type": "number"},
                "credit_cap": {"type": "number"},
            },
        },
    },
    "charters": {"type": "object", "additionalProperties": {"type": "object", "properties": {}}},
}
OWN = {
    "charter_id": {"type": "string"},
    "skipper_id": {"type": "string", "x-references": "skippers"},
    "charges": {"type": "object", "properties": {"total": {"type": "number"}, "levy": {"type": "number"}}},
}
PARAMS = {"settle_by": {"type": "string", "enum": ["berth_credit", "card"]}}
TEXT = (
    "Settles a charter.\n\nsettle_by:\n"
    '- "berth_credit": charged to the skipper\'s berth credit. Only for club skippers whose status is "active", '
    "and only if owed + total stays within credit_cap; the total is added to the skipper's owed.\n"
    '- "card": paid at the pontoon.\n'
)


def test_each_clause_of_the_bullet_is_a_check_for_its_value() -> None:
    checks = value_bullet_checks(TEXT, OWN, COLS, PARAMS)
    when = {"arg": "settle_by", "default": None, "in": ["berth_credit"]}
    assert checks == [
        {
            "op": "linked_state",
            "collection": "skippers",
            "via": "skipper_id",
            "field": "rate_kind",
            "allowed": ["club"],
            "when": when,
        },
        {
            "op": "linked_state",
            "collection": "skippers",
            "via": "skipper_id",
            "field": "status",
            "allowed": ["active"],
            "when": when,
        },
        {
            "op": "sum_within",
            "collection": "skippers",
            "via": "skipper_id",
            "add": [{"linked": "owed"}, {"own": ["charges", "total"]}],
            "limit": "credit_cap",
            "when": when,
        },
    ]


def test_a_value_no_parameter_holds_gives_no_checks() -> None:
    text = TEXT.replace('"berth_credit"', '"mooring_credit"')
    assert value_bullet_checks(text, OWN, COLS, PARAMS) == []


def test_a_value_no_linked_field_knows_is_not_checked() -> None:
    text = TEXT.replace("Only for club skippers", "Only for gold skippers")
    checks = value_bullet_checks(text, OWN, COLS, PARAMS)
    assert [(c["op"], c.get("field")) for c in checks] == [("linked_state", "status"), ("sum_within", None)]


def test_sum_within_compares_the_sum_with_the_limit() -> None:
    check = value_bullet_checks(TEXT, OWN, COLS, PARAMS)[-1]
    record = {"charter_id": "C1", "skipper_id": "S1", "charges": {"total": 120.0}}
    state = {"skippers": {"S1": {"owed": 380.0, "credit_cap": 500.0}}}
    assert fg_check(check, {}, record, state) is True  # 380 + 120 = 500, at the cap
    state["skippers"]["S1"]["owed"] = 380.5
    assert fg_check(check, {}, record, state) is False
    assert fg_check(check, {}, {**record, "skipper_id": "S9"}, state) is True  # no such skipper: another check's
