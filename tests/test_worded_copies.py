"""A new charter's fields copied from the pier it names as the docs word them (worded_copies.py): "`day_rate` locked
at the pier's current rate" (the pier's one field whose name holds "rate"), "`start_date` = the later of the pier's
start and the business date" (a copy never before the business date), while "`fee` is taken from the skipper's
`credit`" is a debit, no copy. Also the starting state "creates an `active` charter" (create_rules._starts_in), the
skipper's field named for the new key ("The skipper's `current_charter_id` is set.", create_sets.new_key_sets), and
a create rendered end to end with them."""

from __future__ import annotations

from typing import Any

from synth.envsynth.create_rules import _starts_in, refine_create
from synth.envsynth.create_sets import new_key_sets
from synth.envsynth.plan import ToolPlan
from synth.envsynth.worded_copies import with_worded, worded_copies
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
TODAY = "2031-05-06"
STATUS = {"type": "string", "x-enum": ["pending", "active", "closed"]}


def _schema(day: dict[str, Any]) -> dict[str, Any]:
    skipper = {"skipper_id": S, "credit": N, "current_charter_id": {"type": ["string", "null"]}, "notes": S}
    pier = {"pier_id": S, "daily_rate": N, "start_date": day, "name": S}
    charter = {
        "charter_id": S,
        "skipper_id": S,
        "pier_id": S,
        "day_rate": N,
        "fee": N,
        "start_date": day,
        "status": STATUS,
    }
    return {
        "type": "object",
        "properties": {"skippers": collection(skipper), "piers": collection(pier), "charters": collection(charter)},
    }


SCHEMA = _schema(S)
COLS = SCHEMA["properties"]
OWN = COLS["charters"]["additionalProperties"]["properties"]
RATE = {"op": "copied", "field": "day_rate", "via": "pier_id", "collection": "piers", "source": "daily_rate"}
LATER = "`start_date` = the later of the pier's start and the business date."
START = {
    "op": "copied",
    "field": "start_date",
    "via": "pier_id",
    "collection": "piers",
    "source": "start_date",
    "not_before": TODAY,
}
TEXT = (
    "Creates an `active` charter for a skipper at a pier. `day_rate` locked at the pier's current rate. "
    + LATER
    + " The skipper's `current_charter_id` is set."
)


def test_a_field_locked_at_the_named_records_field() -> None:
    assert worded_copies("`day_rate` locked at the pier's current rate.", OWN, COLS, set()) == [RATE]
    assert worded_copies("`day_rate` is copied from the pier's `daily_rate`.", OWN, COLS, set()) == [RATE]
    assert worded_copies("`day_rate` locked at the pier's current rate.", OWN, COLS, {"day_rate"}) == []  # set
    # two fields of the pier hold "rate": which one is not said
    two = {**COLS, "piers": collection({"pier_id": S, "daily_rate": N, "weekly_rate": N})}
    assert worded_copies("`day_rate` locked at the pier's current rate.", OWN, two, set()) == []
    # the harbour is no record the charter names
    assert worded_copies("`day_rate` locked at the harbour's current rate.", OWN, COLS, set()) == []


def test_a_fee_taken_from_a_skippers_credit_is_no_copy() -> None:
    assert worded_copies("`fee` is taken from the skipper's `credit`.", OWN, COLS, set()) == []


def test_the_later_of_the_piers_start_and_the_business_date() -> None:
    assert worded_copies(LATER, OWN, COLS, set(), TODAY) == [START]
    assert worded_copies(LATER, OWN, COLS, set()) == []  # no business date known
    # the worded copies first, then the sample's copies of other fields
    sampled = [
        {"op": "copied", "field": "day_rate", "via": "pier_id", "collection": "piers", "source": "name"},
        {"op": "copied", "field": "fee", "via": "skipper_id", "collection": "skippers", "source": "credit"},
    ]
    text = "`day_rate` locked at the pier's current rate. " + LATER
    assert with_worded(text, OWN, COLS, set(), sampled, TODAY, {}) == [RATE, START, sampled[1]]
    # a date given the business date only because nothing set it is the worded copy's to set
    initial = {"start_date": TODAY}
    assert with_worded(LATER, OWN, COLS, {"start_date"}, [], TODAY, initial) == [START] and initial == {}
    kept = {"start_date": "2031-01-01"}  # a value the docs state is left alone
    assert with_worded(LATER, OWN, COLS, {"start_date"}, [], TODAY, kept) == [] and kept == {"start_date": "2031-01-01"}


def test_a_quoted_state_before_the_noun_is_the_new_records_state() -> None:
    assert _starts_in("Creates an `active` charter for the skipper.", "status", STATUS) == "active"
    assert _starts_in("Opens a new 'pending' charter at the pier.", "status", STATUS) == "pending"
    assert _starts_in("Creates an `afloat` charter.", "status", STATUS) is None  # no state of a charter
    assert _starts_in("Creates an active charter.", "status", STATUS) is None  # not quoted


def test_a_skippers_field_named_for_the_new_key_is_set_to_it() -> None:
    refs = {"skipper_id": "skippers", "pier_id": "piers"}
    assert new_key_sets(["The skipper's `current_charter_id` is set."], refs, COLS, "charter", []) == [
        {"param": "skipper_id", "collection": "skippers", "field": "current_charter_id", "new_key": True}
    ]
    assert new_key_sets(["The skipper's `notes` is set."], refs, COLS, "charter", []) == []
    assert new_key_sets(["The skipper's `current_charter_id` is set."], refs, COLS, "sail", []) == []  # other key
    done = [{"param": "skipper_id", "collection": "skippers", "field": "current_charter_id", "new_key": True}]
    assert new_key_sets(["The skipper's `current_charter_id` is set."], refs, COLS, "charter", done) == []


def _plan(schema: dict[str, Any]) -> tuple[ToolSpec, ToolPlan]:
    spec = ToolSpec(
        "open_charter",
        TEXT,
        {"type": "object", "properties": {"skipper_id": S, "pier_id": S}, "required": ["skipper_id", "pier_id"]},
        mutates=True,
    )
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["skipper_id", "pier_id"],
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )
    return spec, refine_create(spec, plan, schema, TEXT, TODAY)


def test_a_rendered_create_copies_the_rate_and_the_later_date() -> None:
    spec, plan = _plan(SCHEMA)
    assert RATE in plan.effects and START in plan.effects
    assert plan.initial_values == {"status": "active"}
    assert plan.ref_sets == [
        {"param": "skipper_id", "collection": "skippers", "field": "current_charter_id", "new_key": True}
    ]

    def state() -> dict[str, Any]:
        return {
            "skippers": {"K1": {"skipper_id": "K1", "credit": 50.0, "current_charter_id": None, "notes": ""}},
            "piers": {
                "P1": {"pier_id": "P1", "daily_rate": 12.5, "start_date": "2031-06-01", "name": "Long"},
                "P2": {"pier_id": "P2", "daily_rate": 30.0, "start_date": "2031-04-01", "name": "Short"},
            },
            "charters": {},
        }

    def after(pier: str, rate: float, start: str) -> dict[str, Any]:
        out = state()
        out["charters"]["C1"] = {
            "charter_id": "C1",
            "skipper_id": "K1",
            "pier_id": pier,
            "day_rate": rate,
            "start_date": start,
            "status": "active",
        }
        out["skippers"]["K1"]["current_charter_id"] = "C1"
        return out

    calls = [
        ({"skipper_id": "K1", "pier_id": "P1"}, after("P1", 12.5, "2031-06-01")),  # the pier starts after today
        ({"skipper_id": "K1", "pier_id": "P2"}, after("P2", 30.0, TODAY)),  # the pier started before today
    ]
    run_calls(spec, plan, SCHEMA, state, calls)


def test_the_later_date_is_copied_for_a_date_formatted_field() -> None:
    _, plan = _plan(_schema({"type": "string", "format": "date"}))
    assert START in plan.effects
    assert "start_date" not in plan.initial_values
