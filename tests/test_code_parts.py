"""Checks on the leading part of a code a record holds, named by a field of other records ("the pilot's area equals
the mooring code's area") or held in a range ("is in area HB1-HB4"), the separator read off the sample codes;
evaluated by the runtime."""

from __future__ import annotations

from synth.envsynth.code_parts import part_checks
from synth.envsynth.expr_runtime import fg_check
from tests.schemas import collection

S = {"type": "string"}
OWN = {"berth_id": S, "mooring_code": S, "pilot_id": S}
COLS = {"berths": collection(OWN), "pilots": collection({"pilot_id": S, "area": S})}
SAMPLE = {
    "berths": {
        "B1": {"berth_id": "B1", "mooring_code": "HB1 07"},
        "B2": {"berth_id": "B2", "mooring_code": "HB3 11"},
    },
    "pilots": {"P1": {"pilot_id": "P1", "area": "HB1"}, "P2": {"pilot_id": "P2", "area": "HB3"}},
}


def test_a_named_records_field_equals_the_codes_part() -> None:
    [check] = part_checks("the pilot's area equals the mooring code's area", "berths", OWN, COLS, SAMPLE)
    assert check == {
        "op": "named_part",
        "param": "pilot_id",
        "collection": "pilots",
        "field": "area",
        "own": "mooring_code",
        "sep": " ",
    }
    berth = {"berth_id": "B9", "mooring_code": "HB3 02"}
    assert fg_check(check, {"pilot_id": "P2"}, berth, SAMPLE) and not fg_check(check, {"pilot_id": "P1"}, berth, SAMPLE)
    assert fg_check(check, {"pilot_id": "P1"}, {"berth_id": "B9"}, SAMPLE)  # no code: nothing to compare
    odd = {**SAMPLE, "pilots": {"P1": {"pilot_id": "P1", "area": "north"}}}
    assert part_checks("the pilot's area equals the mooring code's area", "berths", OWN, COLS, odd) == []


def test_a_codes_part_within_a_range() -> None:
    clause = "the mooring code has the form 'HBn nn' and is in area HB1-HB4"
    [check] = part_checks(clause, "berths", OWN, COLS, SAMPLE)
    assert check == {"op": "part_in", "own": "mooring_code", "sep": " ", "in": ["HB1", "HB2", "HB3", "HB4"]}
    assert fg_check(check, {}, {"mooring_code": "HB4 01"}, {}) and not fg_check(
        check, {}, {"mooring_code": "HB5 01"}, {}
    )
    assert part_checks(clause.replace("HB1-HB4", "HB5-HB6"), "berths", OWN, COLS, SAMPLE) == []  # the data disagrees
