"""Test arguments' dates: with the business date the docs state, a date parameter falls on a working day of the
next two weeks (a weekend moves on to the Monday) and a second date makes a short span after it; without one, the
sampler's own dates stay."""

from __future__ import annotations

import random

from synth.envsynth.date_runtime import fg_day_number
from synth.envsynth.sampling import sample_arguments

DATE = {"type": "string", "format": "date"}
ONE = {"type": "object", "properties": {"visit_date": DATE, "note": {"type": "string"}}, "required": ["visit_date"]}
TWO = {"type": "object", "properties": {"start": DATE, "end": DATE}, "required": ["start", "end"]}
TODAY = "2030-06-05"  # a Wednesday


def test_a_date_falls_on_a_working_day_soon_after_the_business_date() -> None:
    seen = set()
    for seed in range(40):
        day = sample_arguments(ONE, random.Random(seed), {}, {}, today=TODAY)["visit_date"]
        ahead = fg_day_number(day) - fg_day_number(TODAY)
        assert 1 <= ahead <= 16 and (fg_day_number(day) + 2) % 7 < 5, day
        seen.add(day)
    assert len(seen) > 5  # still varied


def test_two_dates_make_a_span_after_the_business_date_and_without_one_stay_as_drawn() -> None:
    args = sample_arguments(TWO, random.Random(3), {}, {}, today=TODAY)
    assert fg_day_number(TODAY) < fg_day_number(args["start"]) < fg_day_number(args["end"])
    assert fg_day_number(args["end"]) - fg_day_number(args["start"]) <= 7
    plain = sample_arguments(ONE, random.Random(3), {}, {})
    assert plain == sample_arguments(ONE, random.Random(3), {}, {}, today=None)
    assert sample_arguments(ONE, random.Random(3), {}, {}, today="soon") == plain  # no date to go by
