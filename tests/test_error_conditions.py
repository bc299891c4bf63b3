"""Errors listed with the condition that raises them after a dash ("`...` — the race's date is after today"), read
into the checks a change must pass and evaluated by the runtime."""

from __future__ import annotations

from synth.envsynth.error_conditions import error_conditions
from synth.envsynth.expr_runtime import fg_check
from tests.schemas import collection

S = {"type": "string"}
IDS = {"type": "array", "items": S}
SCHEMA = {
    "type": "object",
    "properties": {
        "races": collection({"race_id": S, "date": S, "needs": S, "skipper_ids": IDS}),
        "skippers": collection({"skipper_id": S, "tickets": IDS}),
    },
}
TODAY = "2031-06-10"
TEXT = (
    "Errors: - `race <id> not found`. - `race <id> on <date> has not happened yet` \u2014 the race's date is after "
    "today. - `skipper <id> is not entered in race <id>` \u2014 an id in `absent_skipper_ids` is not on the roster. "
    "- `race <id> needs the <ticket> ticket` \u2014 the skipper lacks the ticket named in the race's `needs` field. "
    "- `race <id> is odd` \u2014 the moon is full."
)
STATE = {"skippers": {"K1": {"skipper_id": "K1", "tickets": ["keel"]}, "K2": {"skipper_id": "K2", "tickets": []}}}


def test_each_explained_error_becomes_a_check() -> None:
    checks = error_conditions(TEXT, "races", SCHEMA, TODAY)
    assert checks == [
        {"op": "dated", "field": "date", "cmp": "<=", "value": TODAY},
        {"op": "arg_subset", "arg": "absent_skipper_ids", "list": "skipper_ids"},
        {"op": "named_holds", "param": "skipper_id", "collection": "skippers", "list": "tickets", "field": "needs"},
    ]
    dated, subset, holds = checks
    race = {"race_id": "R1", "date": "2031-06-10", "needs": "keel", "skipper_ids": ["K1", "K2"]}
    assert fg_check(dated, {}, race, STATE) and not fg_check(dated, {}, {**race, "date": "2031-06-11"}, STATE)
    assert fg_check(subset, {"absent_skipper_ids": ["K2"]}, race, STATE)
    assert not fg_check(subset, {"absent_skipper_ids": ["K3"]}, race, STATE)
    assert fg_check(holds, {"skipper_id": "K1"}, race, STATE) and not fg_check(holds, {"skipper_id": "K2"}, race, STATE)
    assert fg_check(holds, {"skipper_id": "K2"}, {**race, "needs": None}, STATE)  # nothing needed
    before = TEXT.replace("is after today", "is before today")
    assert error_conditions(before, "races", SCHEMA, TODAY)[0]["cmp"] == ">="
    assert error_conditions(TEXT, "races", SCHEMA, None)[0]["op"] == "arg_subset"  # no business date, no date check
