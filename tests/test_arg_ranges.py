"""A number argument held between a bound and a number of the record another argument names ("`crew` must be
between 1 and the boat class's `max_crew`"), and the cases naming records keep it within them."""

from __future__ import annotations

from synth.envsynth.arg_ranges import range_checks
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.key_cases import referenced_cases
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case
from tests.schemas import collection

S, INT = {"type": "string"}, {"type": "integer"}
COLS = {"boat_classes": collection({"boat_class_id": S, "max_crew": INT}), "sailings": collection({"sailing_id": S})}
PARAMS = {"boat_class_id": S, "crew": INT}
SAID = "Books a sailing. `crew` must be between 1 and the boat class's `max_crew`; the class must exist."
STATE = {"boat_classes": {"K1": {"boat_class_id": "K1", "max_crew": 4}}, "sailings": {}}


def test_the_argument_between_one_and_the_named_records_number() -> None:
    low, high = range_checks(SAID, PARAMS, COLS)
    assert low == {"op": "arg_limit", "arg": "crew", "cmp": ">=", "value": 1}
    assert high["via_arg"] == "boat_class_id" and high["collection"] == "boat_classes"
    for crew, ok in ((1, True), (4, True), (0, False), (5, False)):
        args = {"boat_class_id": "K1", "crew": crew}
        assert all(fg_check(c, args, {}, STATE) for c in (low, high)) is ok, crew
    assert range_checks(SAID.replace("boat class's", "harbour's"), PARAMS, COLS) == []  # no such record named
    assert range_checks(SAID, {"boat_class_id": S, "crew": S}, COLS) == []  # not a number


def test_a_case_naming_the_class_keeps_the_crew_within_it() -> None:
    plan = ToolPlan(kind="create", collection="sailings", ref_checks={"boat_class_id": "boat_classes"})
    plan = ToolPlan.from_dict({**plan.to_dict(), "checks": range_checks(SAID, PARAMS, COLS)})
    generated = Case("book_sailing", "x", STATE, {"boat_class_id": "Z", "crew": 37}, expect_error=True)
    (case,) = referenced_cases(plan, [generated])
    assert case.arguments == {"boat_class_id": "K1", "crew": 4}
