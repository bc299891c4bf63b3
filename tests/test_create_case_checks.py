"""Cases that name existing records are put where a create's checks let the call through (key_cases.py): `_meet_cap`
moves the charters that hold the skipper in the counted states to another state the charters hold (or drops them
when none holds another), `_meet_bound` puts the skipper's number on the allowed side of the limit, and
`_meet_checks` leaves the pier's list of skippers one short of its cap for a `list_cap` of the holder."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.key_cases import _meet_bound, _meet_cap, _meet_checks, existing_key_cases
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case

CAP = {
    "op": "cap",
    "collection": "charters",
    "field": "skipper_id",
    "arg": "skipper_id",
    "where": {"status": ["active"]},
    "max": 1,
}
DUES = {"op": "bound", "collection": "skippers", "via": "skipper_id", "field": "dues_paid", "cmp": ">=", "value": 300.0}
OWED = {"op": "bound", "collection": "skippers", "via": "skipper_id", "field": "owed", "cmp": "<=", "value": 400.0}
PLACES = {
    "op": "list_cap",
    "chain": [{"collection": "piers", "via": "pier_id"}],
    "field": "capacity",
    "list": "moored",
    "of_holder": True,
}


def _charter(key: str, skipper: str, status: str) -> dict[str, Any]:
    return {"charter_id": key, "skipper_id": skipper, "status": status}


def test_the_skippers_counted_charters_move_to_another_state() -> None:
    counted = {
        "C1": _charter("C1", "K1", "active"),
        "C2": _charter("C2", "K2", "active"),
        "C3": _charter("C3", "K2", "closed"),
    }
    _meet_cap(CAP, counted, {"skipper_id": "K1"})
    assert counted == {
        "C1": _charter("C1", "K1", "closed"),  # the state another charter holds
        "C2": _charter("C2", "K2", "active"),  # another skipper's: kept
        "C3": _charter("C3", "K2", "closed"),
    }
    assert fg_check(CAP, {"skipper_id": "K1"}, {}, {"charters": counted}) is True


def test_with_no_other_state_held_the_counted_charters_are_dropped() -> None:
    counted = {"C1": _charter("C1", "K1", "active"), "C2": _charter("C2", "K2", "active")}
    _meet_cap(CAP, counted, {"skipper_id": "K1"})
    assert counted == {"C2": _charter("C2", "K2", "active")}


def test_below_the_cap_nothing_moves() -> None:
    two = {**CAP, "where": {"status": ["active", "pending"]}, "max": 2}
    counted = {"C1": _charter("C1", "K1", "active"), "C3": _charter("C3", "K2", "closed")}
    before = copy.deepcopy(counted)
    _meet_cap(two, counted, {"skipper_id": "K1"})
    assert counted == before  # one of at most two
    counted["C2"] = _charter("C2", "K1", "pending")
    _meet_cap(two, counted, {"skipper_id": "K1"})
    assert [counted[k]["status"] for k in ("C1", "C2", "C3")] == ["closed", "closed", "closed"]


def test_the_linked_number_goes_to_the_allowed_side() -> None:
    short = {"skipper_id": "K1", "dues_paid": 120.0, "owed": 900.0}
    _meet_bound(DUES, short)
    _meet_bound(OWED, short)
    assert short == {"skipper_id": "K1", "dues_paid": 300.0, "owed": 400.0}  # the limits themselves are allowed
    fine = {"skipper_id": "K2", "dues_paid": 520.0, "owed": 10.0}
    _meet_bound(DUES, fine)
    _meet_bound(OWED, fine)
    assert fine == {"skipper_id": "K2", "dues_paid": 520.0, "owed": 10.0}  # already allowed: kept
    strict = {"owed": 900}
    _meet_bound({**OWED, "cmp": "<", "value": 400}, strict)
    assert strict == {"owed": 399}
    above = {"dues_paid": 5}
    _meet_bound({**DUES, "cmp": ">", "value": 300}, above)
    assert above == {"dues_paid": 301}
    unknown = {"dues_paid": None}
    _meet_bound(DUES, unknown)
    assert unknown == {"dues_paid": None}  # no number to move


def _state() -> dict[str, Any]:
    return {
        "skippers": {"K1": {"skipper_id": "K1", "dues_paid": 0.0, "owed": 0.0}},
        "piers": {"P1": {"pier_id": "P1", "capacity": 2, "moored": ["K2", "K3", "K4"]}},
        "charters": {"C1": _charter("C1", "K1", "active")},
    }


def test_the_holders_list_is_cut_below_its_cap() -> None:
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["skipper_id", "pier_id"],
        checks=[PLACES, DUES, CAP],
    )
    state = _state()
    args = {"skipper_id": "K1", "pier_id": "P1"}
    _meet_checks(plan, state, args, args)
    assert state["piers"]["P1"]["moored"] == ["K2"]  # one place left
    assert state["skippers"]["K1"]["dues_paid"] == 300.0
    assert "C1" not in state["charters"]  # no other state held: dropped
    assert all(fg_check(c, args, args, state) for c in plan.checks)
    # a list already below the cap is kept
    spare = _state()
    spare["piers"]["P1"]["moored"] = []
    _meet_checks(plan, spare, args, args)
    assert spare["piers"]["P1"]["moored"] == []
    # a check on the record's own list (no `of_holder`) leaves the pier alone
    own = ToolPlan(kind="create", collection="charters", checks=[{k: v for k, v in PLACES.items() if k != "of_holder"}])
    kept = _state()
    _meet_checks(own, kept, args, args)
    assert kept["piers"]["P1"]["moored"] == ["K2", "K3", "K4"]


def test_a_referenced_case_names_a_pier_with_a_free_place() -> None:
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["skipper_id", "pier_id"],
        ref_checks={"skipper_id": "skippers", "pier_id": "piers"},
        checks=[PLACES, DUES],
    )
    case = Case("open_charter", "x", _state(), {"skipper_id": "Z9", "pier_id": "Z8"})
    (made,) = existing_key_cases(plan, [case], limit=1)
    assert made.arguments == {"skipper_id": "K1", "pier_id": "P1"}
    assert made.state["piers"]["P1"]["moored"] == ["K2"]
    assert made.state["skippers"]["K1"]["dues_paid"] == 300.0
    assert case.state["piers"]["P1"]["moored"] == ["K2", "K3", "K4"]  # the original case untouched
