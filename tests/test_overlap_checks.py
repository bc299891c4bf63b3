"""Clashes a create's docs forbid (a recording studio's sessions by hour, a campsite's pitches by date): the shared
record, the states that clash, the span from a start and a length or a start and an end, and the runtime check."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.overlap_checks import overlap_checks

S, INT = {"type": "string"}, {"type": "integer"}
SESSIONS = {
    "session_id": S,
    "studio_id": S,
    "date": S,
    "start_hour": INT,
    "hours": INT,
    "status": {"type": "string", "x-enum": ["held", "running", "dropped"]},
}
TEXT = "Books a session. The studio must not have another held or running session overlapping the same date and hours."


def test_an_hourly_clash_on_the_same_studio_and_day() -> None:
    checks = overlap_checks(TEXT, "sessions", SESSIONS)
    assert checks == [
        {
            "op": "overlap",
            "collection": "sessions",
            "same": ["studio_id", "date"],
            "where": {"status": ["held", "running"]},
            "start": "start_hour",
            "length": "hours",
        }
    ]
    stored = {"studio_id": "ST1", "date": "2031-02-03", "start_hour": 10, "hours": 2, "status": "held"}
    state = {"sessions": {"SE1": stored}}
    new = {"studio_id": "ST1", "date": "2031-02-03", "start_hour": 11, "hours": 1}
    assert not fg_check(checks[0], {}, new, state)
    assert fg_check(checks[0], {}, {**new, "start_hour": 12}, state)  # starts when the other ends
    assert fg_check(checks[0], {}, {**new, "date": "2031-02-04"}, state)
    assert fg_check(checks[0], {}, {**new, "studio_id": "ST2"}, state)
    assert fg_check(checks[0], {}, new, {"sessions": {"SE1": {**stored, "status": "dropped"}}})


def test_a_date_span_clash_and_what_is_no_clash_rule() -> None:
    pitches = {
        "stay_id": S,
        "pitch_id": S,
        "arrive": S,
        "depart": S,
        "state": {"type": "string", "x-enum": ["booked", "gone"]},
    }
    text = "The pitch must not have another booked stay overlapping those nights."
    checks = overlap_checks(text, "stays", pitches)
    assert (
        checks[0]["same"] == ["pitch_id"]
        and checks[0]["end"] == "depart"
        and checks[0]["where"] == {"state": ["booked"]}
    )
    stored = {"pitch_id": "P1", "arrive": "2031-07-01", "depart": "2031-07-04", "state": "booked"}
    state = {"stays": {"A": stored}}
    assert not fg_check(checks[0], {}, {"pitch_id": "P1", "arrive": "2031-07-03", "depart": "2031-07-05"}, state)
    assert fg_check(checks[0], {}, {"pitch_id": "P1", "arrive": "2031-07-04", "depart": "2031-07-06"}, state)
    assert overlap_checks("Stays may overlap.", "stays", pitches) == []
    assert overlap_checks(text.replace("pitch", "meadow"), "stays", pitches) == []  # no `meadow_id`
    assert overlap_checks(TEXT, "sessions", {k: v for k, v in SESSIONS.items() if k != "hours"}) == []  # no span
