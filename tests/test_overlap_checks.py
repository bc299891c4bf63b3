"""Clashes a create's docs forbid (a pottery's kiln firings by minute, a tool-rental shop's machines by date): the
shared record, the states that clash, the span from a start and a length or a start and an end, and the runtime
check."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.overlap_checks import overlap_checks

S, INT = {"type": "string"}, {"type": "integer"}
FIRINGS = {
    "firing_id": S,
    "kiln_id": S,
    "date": S,
    "start_min": INT,
    "duration": INT,
    "phase": {"type": "string", "x-enum": ["queued", "burning", "cooled"]},
}
TEXT = "Queues a firing. It is refused when it would overlap a queued or burning firing on the same kiln."


def test_a_clash_by_minute_on_the_same_kiln_and_day() -> None:
    checks = overlap_checks(TEXT, "firings", FIRINGS)
    assert checks == [
        {
            "op": "overlap",
            "collection": "firings",
            "same": ["kiln_id", "date"],
            "where": {"phase": ["queued", "burning"]},
            "start": "start_min",
            "length": "duration",
        }
    ]
    stored = {"kiln_id": "K1", "date": "2031-02-03", "start_min": 600, "duration": 120, "phase": "queued"}
    state = {"firings": {"F1": stored}}
    new = {"kiln_id": "K1", "date": "2031-02-03", "start_min": 660, "duration": 30}
    assert not fg_check(checks[0], {}, new, state)
    assert fg_check(checks[0], {}, {**new, "start_min": 720}, state)  # starts when the other ends
    assert fg_check(checks[0], {}, {**new, "date": "2031-02-04"}, state)
    assert fg_check(checks[0], {}, {**new, "kiln_id": "K2"}, state)
    assert fg_check(checks[0], {}, new, {"firings": {"F1": {**stored, "phase": "cooled"}}})


def test_a_date_span_clash_and_what_is_no_clash_rule() -> None:
    rentals = {
        "rental_id": S,
        "machine_id": S,
        "start_date": S,
        "end_date": S,
        "state": {"type": "string", "x-enum": ["active", "returned"]},
    }
    text = "Rents out a machine for some days; a rental that overlaps an active rental of the same machine fails."
    checks = overlap_checks(text, "rentals", rentals)
    assert (
        checks[0]["same"] == ["machine_id"]
        and checks[0]["end"] == "end_date"
        and checks[0]["where"] == {"state": ["active"]}
    )
    stored = {"machine_id": "M1", "start_date": "2031-07-01", "end_date": "2031-07-04", "state": "active"}
    state = {"rentals": {"A": stored}}
    new = {"machine_id": "M1", "start_date": "2031-07-03", "end_date": "2031-07-05"}
    assert not fg_check(checks[0], {}, new, state)
    assert fg_check(checks[0], {}, {**new, "start_date": "2031-07-04", "end_date": "2031-07-06"}, state)
    said = "The machine cannot hold any other active rental overlapping the requested days."  # the rule first
    assert overlap_checks(said, "rentals", rentals) == checks
    assert overlap_checks("Rentals may overlap.", "rentals", rentals) == []
    assert overlap_checks(text.replace("machine", "crane"), "rentals", rentals) == []  # no `crane_id`
    assert overlap_checks(TEXT, "firings", {k: v for k, v in FIRINGS.items() if k != "duration"}) == []  # no span
