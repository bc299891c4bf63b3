"""The dates a date parameter's own description allows ("a weekday after today, at most 30 days ahead") refuse a
haul booked on other days, and the cases naming existing records pick a day those rules allow, so the publish gate
sees the booking succeed."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.key_cases import existing_key_cases, referenced_cases
from synth.envsynth.param_dates import described_dates
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case

TODAY = "2026-04-14"  # a Tuesday
PARAMS = {
    "boat_id": {"type": "string"},
    "haul_date": {"type": "string", "description": "a weekday after today, at most 30 days ahead"},
    "note": {"type": "string", "description": "free text, at most 30 days of notes"},
}


def test_what_the_description_allows() -> None:
    checks = described_dates(PARAMS, TODAY)
    assert checks == [
        {"op": "arg_date", "arg": "haul_date", "today": TODAY, "cmp": "weekday"},
        {"op": "arg_date", "arg": "haul_date", "today": TODAY, "cmp": ">"},
        {"op": "arg_date", "arg": "haul_date", "today": TODAY, "cmp": "<=", "days": 30},
    ]  # `note` is no date, whatever its description says
    ok = {"haul_date": "2026-04-15"}
    assert all(fg_check(c, ok, {}, {}) for c in checks)
    for day in ("2026-04-18", "2026-04-14", "2026-05-15"):  # a Saturday, today, 31 days ahead
        assert not all(fg_check(c, {"haul_date": day}, {}, {}) for c in checks), day
    later = {"start_date": {"type": "string", "description": "today or later"}}
    assert described_dates(later, TODAY) == [{"op": "arg_date", "arg": "start_date", "today": TODAY, "cmp": ">="}]
    assert described_dates(PARAMS, None) == []  # no business date stated: nothing to hold the day to


def test_cases_naming_records_take_an_allowed_day() -> None:
    checks = described_dates(PARAMS, TODAY)
    state = {"boats": {"B1": {"boat_id": "B1"}}, "hauls": {"H1": {"haul_id": "H1", "boat_id": "B1"}}}
    generated = [Case("book_haul", "x", state, {"boat_id": "Z9", "haul_date": "2020-01-04"}, expect_error=True)]
    create = ToolPlan(kind="create", collection="hauls", ref_checks={"boat_id": "boats"}, checks=checks)
    (case,) = referenced_cases(create, generated)
    assert case.arguments == {"boat_id": "B1", "haul_date": "2026-04-15"}
    keyed = ToolPlan(
        kind="recorded_update", collection="hauls", key_field="haul_id", key_param="haul_id", checks=checks
    )
    moved = [Case("move_haul", "x", state, {"haul_id": "Z", "haul_date": "2026-04-18"}, expect_error=True)]
    (case,) = existing_key_cases(keyed, moved)
    assert case.arguments == {"haul_id": "H1", "haul_date": "2026-04-15"}


def test_an_error_refusing_a_weekend_holds_the_one_date_to_weekdays() -> None:
    from synth.envsynth.param_dates import error_weekdays

    said = "Errors: `haul_date <date> is in the past`, or `... is a weekend; the yard is open Monday to Friday`."
    plain = {"boat_id": {"type": "string"}, "haul_date": {"type": "string"}}
    assert error_weekdays(said, plain, TODAY) == [
        {"op": "arg_date", "arg": "haul_date", "today": TODAY, "cmp": "weekday"}
    ]
    assert error_weekdays("Errors: `haul_date <date> is in the past`.", plain, TODAY) == []
    two = {**plain, "launch_date": {"type": "string"}}
    assert error_weekdays(said, two, TODAY) == []  # which date the error speaks of is not said
