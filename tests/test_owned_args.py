"""One argument's record must belong to another's ("`buoy_id`: must be a buoy of that mooring", "buoy <id> is not on
mooring <id>"): read from a parameter's description or an error, held by the buoy's own link or the mooring's list."""

from __future__ import annotations

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.owned_args import owned_checks
from tests.schemas import collection

S = {"type": "string"}
LINKED = {
    "moorings": collection({"mooring_id": S}),
    "buoys": collection({"buoy_id": S, "mooring_id": {**S, "x-references": "moorings"}}),
}
LISTED = {"moorings": collection({"mooring_id": S, "buoy_ids": {"type": "array"}}), "buoys": collection({"buoy_id": S})}
PARAMS = {"mooring_id": S, "buoy_id": {"type": "string", "description": "must be a buoy of that mooring"}}
STATE = {
    "moorings": {"M1": {"mooring_id": "M1", "buoy_ids": ["B1"]}, "M2": {"mooring_id": "M2", "buoy_ids": []}},
    "buoys": {"B1": {"buoy_id": "B1", "mooring_id": "M1"}},
}


def test_the_buoy_must_be_on_the_mooring_named() -> None:
    [check] = owned_checks("", PARAMS, LINKED)
    assert check == {
        "op": "owned",
        "arg": "buoy_id",
        "collection": "buoys",
        "owner_arg": "mooring_id",
        "owner": "moorings",
        "field": "mooring_id",
    }
    assert fg_check(check, {"buoy_id": "B1", "mooring_id": "M1"}, {}, STATE)
    assert not fg_check(check, {"buoy_id": "B1", "mooring_id": "M2"}, {}, STATE)
    assert fg_check(check, {"buoy_id": "B9", "mooring_id": "M2"}, {}, STATE)  # no such buoy: another check's refusal


def test_an_error_and_a_list_of_the_owner_say_it_too() -> None:
    plain = {"mooring_id": S, "buoy_id": S}
    said = "Errors: 404 not found; 409 `buoy <id> is not on mooring <id>`."
    [check] = owned_checks(said, plain, LISTED)
    assert check["list"] == "buoy_ids"
    assert fg_check(check, {"buoy_id": "B1", "mooring_id": "M1"}, {}, STATE)
    assert not fg_check(check, {"buoy_id": "B1", "mooring_id": "M2"}, {}, STATE)
    assert owned_checks("409 `buoy <id> is not ready`.", plain, LISTED) == []
    assert owned_checks("", plain, LINKED) == []  # nothing said: no check


def test_cases_naming_records_name_a_buoy_of_the_mooring() -> None:
    from synth.envsynth.key_cases import referenced_cases
    from synth.envsynth.plan import ToolPlan
    from synth.envsynth.testgen import TestCase as Case

    [check] = owned_checks("", PARAMS, LINKED)
    state = {**STATE, "hauls": {}, "cranes": {"C1": {"crane_id": "C1"}}}
    state["buoys"] = {"B1": {"buoy_id": "B1", "mooring_id": "M2"}}  # on another mooring than the first
    plan = ToolPlan(kind="create", collection="hauls", ref_checks={"mooring_id": "moorings", "buoy_id": "buoys"})
    plan = ToolPlan.from_dict({**plan.to_dict(), "checks": [check]})
    generated = Case("book_haul", "x", state, {"mooring_id": "Z", "buoy_id": "Y", "crane_id": "Q"}, expect_error=True)
    (case,) = referenced_cases(plan, [generated])
    assert case.arguments == {"mooring_id": "M1", "buoy_id": "B1", "crane_id": "C1"}  # the crane named too
    assert case.state["buoys"]["B1"]["mooring_id"] == "M1"
    assert fg_check(check, case.arguments, {}, case.state)
