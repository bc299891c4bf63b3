"""Six small readers of the marina docs added or changed in session 43, each fed a few lines of made-up harbour docs:

- verb_moves.verb_move: a state change said by its verb and the states it joins ("moves a `held` charter to
  `confirmed`", "Cancels a held or confirmed charter"), and its use in policy_rules.transition_rules;
- schema_figures: places left (`capacity - booked`) and a state computed from a date and today, rendered by
  shape_code and run against skipper records;
- returns_shape.returned_fields: a list answer's field names in brackets ((skipper_id, name, ...));
- filter_rules.refine_filter: a parameter's own description naming the record's field wins over a pier's `name`;
- testgen._view: optional search parameters are filters, not the key of the record the call names;
- header.py.j2 in_order: records in the order the state holds them, as copies.
"""

from __future__ import annotations

from typing import Any

import pytest

from synth.envsynth.codegen import header_source
from synth.envsynth.filter_map import map_param, referenced_collection
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import transition_rules
from synth.envsynth.priors import tool_priors
from synth.envsynth.returns_shape import returned_fields
from synth.envsynth.schema_figures import dated_state, places_left
from synth.envsynth.shape_code import shape_code
from synth.envsynth.testgen import _view
from synth.envsynth.verb_moves import verb_move
from synth.spec import ToolSpec
from tests.schemas import collection

S, N = {"type": "string"}, {"type": "integer"}
KNOWN = ["held", "confirmed", "sailing", "checked_in", "cancelled"]
TODAY = "2031-04-02"
CONFIRM = "Takes payment and moves a `held` charter to `confirmed`."


def _header() -> dict[str, Any]:
    """The generated env's shared helpers (copy, collection, number_or_zero, in_order), run."""
    ns: dict[str, Any] = {}
    exec(header_source("harbour", "0.0"), ns)
    return ns


# --- verb_moves ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        (CONFIRM, ("confirmed", ["held"])),
        ("Marks a confirmed charter as checked in when the crew arrives.", ("checked_in", ["confirmed"])),
        ("Cancels a held or confirmed charter and frees its berth.", ("cancelled", ["held", "confirmed"])),
        ("Cancel a held or confirmed charter.", ("cancelled", ["held", "confirmed"])),
        ("Sets a held, confirmed or sailing charter to cancelled.", ("cancelled", ["held", "confirmed", "sailing"])),
        ("Moves a held charter to `sailing`; the skipper gets a note.", ("sailing", ["held"])),
    ],
)
def test_verb_move_reads_the_move(sentence: str, expected: tuple[str, list[str]]) -> None:
    assert verb_move([sentence], KNOWN) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "When the crew arrives, marks a confirmed charter as checked in.",  # a condition, not every call
        "If paid, moves a held charter to confirmed.",
        "Gets a charter.",  # no state at all
        "Cancels a charter.",  # a participle, but no from-state
        "Moves a held charter to docked.",  # target not a known state
        "Moves a moored charter to confirmed.",  # from-state not known
        "Moves a held charter to held.",  # target is its own from-state
        "Cancels a cancelled charter.",
        "Cancel a requested or scheduled charter.",  # states of another field
    ],
)
def test_verb_move_stays_silent_on_near_misses(sentence: str) -> None:
    assert verb_move([sentence], KNOWN) is None


def test_verb_move_takes_the_first_sentence_that_says_both() -> None:
    sentences = ["Gets a charter.", "Moves a held charter to sailing.", "Cancels a held charter."]
    assert verb_move(sentences, KNOWN) == ("sailing", ["held"])
    assert verb_move(["Marks a held charter as checked-in."], ["held", "checked-in"]) == ("checked-in", ["held"])


def _confirm_spec(description: str = CONFIRM) -> ToolSpec:
    params = {"type": "object", "properties": {"charter_id": S}, "required": ["charter_id"]}
    return ToolSpec(name="settle_charter", description=description, parameters=params)


def _charter(**extra: Any) -> dict[str, Any]:
    status = {"type": "string", "x-enum": ["held", "confirmed", "cancelled"]}
    return {"type": "object", "properties": {"charter_id": S, "status": status, **extra}}


def test_transition_rules_set_and_allow_through_the_verb_move() -> None:
    assert transition_rules(_confirm_spec(), _charter(), "") == ({"status": "confirmed"}, {"status": ["held"]})


def test_transition_rules_skip_a_target_two_closed_fields_share() -> None:
    shared = {"type": "string", "x-enum": ["confirmed", "refunded"]}
    assert transition_rules(_confirm_spec(), _charter(deposit_state=shared), "") == ({}, {})
    # a second closed field without the target value leaves the route open
    other = {"type": "string", "x-enum": ["paid", "refunded"]}
    got = transition_rules(_confirm_spec(), _charter(deposit_state=other), "")
    assert got == ({"status": "confirmed"}, {"status": ["held"]})


def test_transition_rules_skip_a_conditional_verb_move() -> None:
    spec = _confirm_spec("When the crew arrives, moves a `held` charter to `confirmed`.")
    assert transition_rules(spec, _charter(), "") == ({}, {})


# --- schema_figures + shape_code --------------------------------------------------------------------------------

NOT_YET = {"type": "integer", "description": "Places not yet sold or held."}
CHARTER_OWN = {"charter_id": S, "capacity": N, "booked": N}
CALC = {"op": "calc", "left": "capacity", "operator": "-", "right": "booked", "floor": None}
FROM_DATE = "Computed from valid_until and today's date."
LICENCE = {"type": "string", "enum": ["active", "expired"], "description": FROM_DATE}
SKIPPER_OWN = {"skipper_id": S, "valid_until": {"type": "string", "format": "date"}, "capacity": N, "booked": N}
DATED = {"op": "date_state", "path": ["valid_until"], "passed": "expired", "else": "active", "today": TODAY}


def test_places_left_from_words_or_name() -> None:
    assert places_left("available", NOT_YET, CHARTER_OWN) == CALC
    assert places_left("places", NOT_YET, CHARTER_OWN) == CALC  # "not yet sold" alone says it
    berths = {"pier_id": S, "berth_capacity": N, "berths_taken": N}
    want = {"op": "calc", "left": "berth_capacity", "operator": "-", "right": "berths_taken", "floor": None}
    assert places_left("free_berths", {"type": "integer"}, berths) == want


@pytest.mark.parametrize(
    ("name", "schema", "own"),
    [
        ("free_berths", N, {"berth_capacity": N, "max_length": N, "berths_taken": N}),  # two capacity-like
        ("free_berths", N, {"berth_capacity": N, "length": N}),  # nothing taken
        ("free_berths", N, {"berth_capacity": S, "berths_taken": N}),  # capacity is no number
        ("free_berths", S, {"berth_capacity": N, "berths_taken": N}),  # the answer is no number
        ("places", {"type": "integer", "description": "Places on board."}, CHARTER_OWN),  # says nothing is left
    ],
)
def test_places_left_stays_silent(name: str, schema: dict[str, Any], own: dict[str, Any]) -> None:
    assert places_left(name, schema, own) is None


def test_dated_state_reads_the_date_and_the_passed_word() -> None:
    assert dated_state("licence_state", LICENCE, SKIPPER_OWN, TODAY) == DATED
    quoted = {**LICENCE, "description": "Computed from `valid_until` and today's date."}
    assert dated_state("licence_state", quoted, SKIPPER_OWN, TODAY) == DATED


@pytest.mark.parametrize(
    ("schema", "own", "today"),
    [
        (LICENCE, SKIPPER_OWN, None),  # no business date
        ({**LICENCE, "enum": ["active", "inactive"]}, SKIPPER_OWN, TODAY),  # no "passed" word
        ({**LICENCE, "enum": ["lapsed", "expired"]}, SKIPPER_OWN, TODAY),  # two of them
        ({**LICENCE, "enum": ["active", "expired", "suspended"]}, SKIPPER_OWN, TODAY),  # not two-valued
        ({**LICENCE, "description": "The licence state."}, SKIPPER_OWN, TODAY),  # not computed from a date
        (LICENCE, {"skipper_id": S}, TODAY),  # the named field is not on the record
    ],
)
def test_dated_state_stays_silent(schema: dict[str, Any], own: dict[str, Any], today: str | None) -> None:
    assert dated_state("licence_state", schema, own, today) is None


def test_shape_code_renders_both_figures() -> None:
    plan = ToolPlan(
        kind="get",
        collection="skippers",
        key_field="skipper_id",
        output_fields=["skipper_id", "available", "licence_state"],
        output_map={"available": CALC, "licence_state": DATED},
    )
    ns = _header()
    exec(shape_code("get_skipper", plan), ns)
    shape = ns["shape_get_skipper"]
    record = {"skipper_id": "SK-7", "capacity": 12, "booked": 5, "pier_id": "P-1"}
    got = {d: shape({}, {**record, "valid_until": d}, {}) for d in ("2031-04-01", TODAY, "2031-04-03")}
    assert got["2031-04-01"] == {"skipper_id": "SK-7", "available": 7, "licence_state": "expired"}
    assert got[TODAY] == {"skipper_id": "SK-7", "available": 7, "licence_state": "active"}  # today: not passed
    assert got["2031-04-03"] == {"skipper_id": "SK-7", "available": 7, "licence_state": "active"}
    assert shape({}, {"skipper_id": "SK-8", "capacity": 4, "valid_until": TODAY}, {})["available"] == 4
    assert shape({}, None, {}) is None


# --- returns_shape ----------------------------------------------------------------------------------------------


def test_returned_fields_in_round_brackets() -> None:
    text = (
        "Search skippers. Returns a list of short records (skipper_id, name, pier_id, home_port); "
        "use get_skipper for the full record."
    )
    assert [f.name for f in returned_fields(text)] == ["skipper_id", "name", "pier_id", "home_port"]
    assert returned_fields("Returns a list of boats (default: today)") == []
    assert returned_fields("Returns a list of boats (name, length, pier).") == []  # no field written as one
    assert [f.name for f in returned_fields("Returns {berth_id, pier}")] == ["berth_id", "pier"]


# --- filter_rules -----------------------------------------------------------------------------------------------

PIER_REF = {**S, "x-references": "piers"}
FILTER_COLS = {
    "skippers": collection({"skipper_id": S, "licence_holder": S, "pier_id": PIER_REF}),
    "piers": collection({"pier_id": S, "name": S}),
}
VIA_PIER = {"path": ["name"], "via": "pier_id", "collection": "piers", "op": "eq"}


def _search(name_doc: str | None) -> ToolSpec:
    name = {"type": "string", **({"description": name_doc} if name_doc else {})}
    params = {"type": "object", "properties": {"name": name, "pier_id": S}, "required": []}
    return ToolSpec(name="search_skippers", description="Search skippers by licence holder or pier.", parameters=params)


def test_refine_filter_prefers_the_own_field_the_description_names() -> None:
    assert referenced_collection("pier_id", PIER_REF, "skippers", FILTER_COLS) == "piers"
    assert map_param("name", "skippers", FILTER_COLS) == VIA_PIER  # the link is really there
    plan = ToolPlan(kind="filter", collection="skippers", filter_params=["pier_id"])
    state = {"type": "object", "properties": FILTER_COLS}
    got = refine_filter(_search("Licence holder name or part of it."), plan, state)
    assert got.param_map == {"name": {"path": ["licence_holder"], "via": None, "collection": None, "op": "eq"}}
    assert got.partial_params == ["name"]
    assert refine_filter(_search(None), plan, state).param_map == {"name": VIA_PIER}
    assert refine_filter(_search("Name of the pier."), plan, state).param_map == {"name": VIA_PIER}


# --- testgen._view ----------------------------------------------------------------------------------------------


def _view_of(name: str, params: dict[str, Any]) -> Any:
    skippers = {**collection({"skipper_id": S, "name": S, "pier_id": S}), "x-key-field": "skipper_id"}
    spec = ToolSpec(name=name, description="Look up skippers of the harbour.", parameters=params)
    return _view(spec, tool_priors(spec), {"type": "object", "properties": {"skippers": skippers}}, None, 1)


def test_view_optional_search_parameters_name_no_record() -> None:
    view = _view_of("search_skippers", {"type": "object", "properties": {"name": S, "pier_id": S}, "required": []})
    assert (view.collection, view.key_param, view.missing_fails) == ("skippers", None, None)
    only_name = _view_of("search_skippers", {"type": "object", "properties": {"name": S}, "required": []})
    assert only_name.key_param is None


def test_view_keeps_a_required_or_lone_key() -> None:
    get = _view_of("get_skipper", {"type": "object", "properties": {"skipper_id": S}, "required": ["skipper_id"]})
    assert (get.key_param, get.missing_fails) == ("skipper_id", True)
    lone = _view_of("get_skipper", {"type": "object", "properties": {"skipper_id": S}})
    assert lone.key_param == "skipper_id"
    found = _view_of("find_skipper", {"type": "object", "properties": {"name": S}, "required": ["name"]})
    assert found.key_param == "name"


# --- header.py.j2 in_order --------------------------------------------------------------------------------------


def test_in_order_keeps_insertion_order_as_copies() -> None:
    boats = {"B-2": {"boat": "Kestrel", "crew": ["Ana"]}, "A-1": {"boat": "Tern", "crew": []}}
    got = _header()["in_order"](boats)
    assert got == [{"boat": "Kestrel", "crew": ["Ana"]}, {"boat": "Tern", "crew": []}]
    got[0]["crew"].append("Ben")
    assert boats["B-2"]["crew"] == ["Ana"] and got[0] is not boats["B-2"]
    assert _header()["in_order"]({}) == []


def test_review_near_misses_read_as_nothing() -> None:
    known = ["held", "confirmed", "deleted", "cancelled"]
    assert verb_move(["This does not move a `held` charter to `confirmed`."], known) is None
    assert verb_move(["Use confirm_charter instead, which moves a held charter to confirmed."], known) is None
    assert verb_move(["Deletes a held charter permanently."], known) is None
    assert (
        places_left("days_left", {"type": "integer", "description": "Days until the charter sails."}, CHARTER_OWN)
        is None
    )
    expiring = {"type": "string", "enum": ["valid", "expired"], "description": "Computed from issued_on and today."}
    assert dated_state("licence_state", expiring, {"issued_on": S}, "2031-04-02") is None
