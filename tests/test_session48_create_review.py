"""A review of session 48's create readers: fares a new charter's passengers take from a rate card the sample data
shows (entry_rates.py, wired in call_entries.py and create.py.j2), a new record's figure summed from its entries
(list_totals.create_sums), dates that last some days (lasting_dates.lasting), dates the data copies rather than
stamps (create_rules.refine_create), entries given by count, and the object checks a create now makes (codegen and
check_fields). Each test written first as a strict xfail was a misfire found, asserting the right behaviour;
thirteen are fixed (the comment above each says what misfired) and two are left as strict xfails, their reasons
saying what stands in the way. The plain tests pin behaviour checked and found right."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from synth.envsynth.call_entries import call_entries
from synth.envsynth.codegen import render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.entry_rates import entry_rates
from synth.envsynth.lasting_dates import lasting
from synth.envsynth.list_totals import create_sums
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
N = {"type": "number"}
DAY = {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
TODAY = "2031-06-02"
FARE_CARDS = {"B1": {"fares": {"adult": 40.0, "child": 20.0}}, "B2": {"fares": {"adult": 30.0, "child": 15.0}}}
PASSENGER = {"kind": S, "fare": N}


def _charter(boat: str, kinds: list[str], **fields: Any) -> dict[str, Any]:
    """A charter on `boat` whose passengers pay its card fare."""
    fares = FARE_CARDS[boat]["fares"]
    return {"boat_id": boat, "passengers": [{"kind": k, "fare": fares.get(k)} for k in kinds], **fields}


def _schema(charter: dict[str, Any], **others: dict[str, Any]) -> dict[str, Any]:
    cols = {"charters": charter, **others}
    return {
        "type": "object",
        "properties": {
            name: {"type": "object", "additionalProperties": {"type": "object", "properties": props}}
            for name, props in cols.items()
        },
    }


def _runs(spec: ToolSpec, plan: ToolPlan, schema: dict[str, Any], case: Case) -> tuple[int, str]:
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, [case], SchemaResult(schema, {}, {}, "d"))
    return res.passed, err


def _create(fields: list[str], effects: list[dict[str, Any]] | None = None) -> ToolPlan:
    return ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=fields,
        effects=effects or [],
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )


# rate cards (entry_rates.py)


# misfired before the review's fix: the condition is learned on a lifecycle status: sailed and pending charters both
# pay the card fare and only cancelled (refunded) ones do not, but the largest agreeing group, `status: sailed`,
# becomes the condition, which no new charter holds, so a new charter's passengers are never priced
def test_a_card_condition_on_a_lifecycle_status_never_holds_for_a_new_charter() -> None:
    refunded = {"boat_id": "B2", "status": "cancelled", "passengers": [{"kind": "adult", "fare": 0.0}]}
    charters = {
        "C1": _charter("B1", ["adult", "child"], status="sailed"),
        "C2": _charter("B2", ["adult", "adult"], status="sailed"),
        "C3": _charter("B1", ["child"], status="sailed"),
        "C4": _charter("B2", ["adult"], status="pending"),
        "C5": _charter("B1", ["child"], status="pending"),
        "C6": {**refunded, "passengers": refunded["passengers"] * 2},
    }
    found = entry_rates({"boats": FARE_CARDS, "charters": charters}, "charters", "passengers", ["kind"], PASSENGER, [])
    assert found, "every charter that is not cancelled pays its card fare"
    assert all("pending" in e["when"].get("status", ["pending"]) for e in found)  # a new charter starts pending


# misfired before the review's fix: a card learned from one charter: fares are set per charter (none match the card)
# except on the one charter on the sun deck, whose three passengers happen to pay card fares; three entries of a
# single parent record are taken as a rule `when deck == sun`
def test_a_rate_card_is_not_learned_from_the_passengers_of_one_charter() -> None:
    def agreed(boat: str, deck: str, fares: list[tuple[str, float]]) -> dict[str, Any]:
        return {"boat_id": boat, "deck": deck, "passengers": [{"kind": k, "fare": f} for k, f in fares]}

    charters = {
        "C1": agreed("B1", "upper", [("adult", 35.0), ("child", 12.0)]),
        "C2": agreed("B2", "upper", [("adult", 25.0)]),
        "C3": agreed("B1", "lower", [("adult", 33.0)]),
        "C4": agreed("B2", "lower", [("child", 11.0)]),
        "C5": agreed("B1", "sun", [("adult", 40.0), ("adult", 40.0), ("child", 20.0)]),
    }
    sample = {"boats": FARE_CARDS, "charters": charters}
    assert entry_rates(sample, "charters", "passengers", ["kind"], PASSENGER, ["boat_id"]) == []


# misfired before the review's fix: two cards agree with the sample fares (a full-fare cancellation fee equals the
# fare); the first by name, `cancellation_fees`, is taken for `fare` although `fares` is the card named for the field
def test_the_card_named_for_the_entry_field_wins_over_an_equal_one() -> None:
    boats = {k: {**b, "cancellation_fees": dict(b["fares"])} for k, b in FARE_CARDS.items()}
    charters = {
        "C1": _charter("B1", ["adult", "child"]),
        "C2": _charter("B2", ["adult", "adult"]),
        "C3": _charter("B1", ["child"]),
    }
    found = entry_rates({"boats": boats, "charters": charters}, "charters", "passengers", ["kind"], PASSENGER, [])
    assert [e["card"] for e in found] == ["fares"]


# misfired before the review's fix: fill_entries runs before entry_rate: the sample's infants (a kind the card does
# not list) hold a null fare, so every passenger the call gives is filled with fare null first and the card never
# prices an adult
def test_a_nullable_fare_the_data_leaves_null_is_still_priced_from_the_card() -> None:
    charters = {
        "C1": _charter("B1", ["adult", "child", "infant"]),
        "C2": _charter("B2", ["adult", "adult"]),
        "C3": _charter("B1", ["child"]),
        "C4": _charter("B2", ["adult", "infant"]),
    }
    stored = {"type": "object", "properties": {"kind": S, "fare": {"type": ["number", "null"]}}}
    schema = _schema({"boat_id": S, "passengers": {"type": "array", "items": stored}}, boats={"fares": {}})
    item = {"type": "object", "properties": {"kind": S}, "required": ["kind"]}
    params = {"boat_id": S, "passengers": {"type": "array", "items": item}}
    spec = ToolSpec("create_charter", "Creates a charter.", {"type": "object", "properties": params})
    plan = call_entries(spec, _create(["boat_id", "passengers"]), schema, {"boats": FARE_CARDS, "charters": charters})
    state = {"charters": {}, "boats": copy.deepcopy(FARE_CARDS)}
    case = Case(spec.name, "x", state, {"boat_id": "B1", "passengers": [{"kind": "adult"}, {"kind": "infant"}]}, False)
    stored_passengers = [{"kind": "adult", "fare": 40.0}, {"kind": "infant", "fare": None}]
    case.state_checks = [
        {"op": "field_equals", "collection": "charters", "key": "C1", "field": "passengers", "value": stored_passengers}
    ]
    passed, err = _runs(spec, plan, schema, case)
    assert passed == 1, err


def test_a_rate_card_reader_survives_odd_sample_data() -> None:
    boats = {
        "B1": {"fares": {"adult": 40, "child": True, "1": None}, "tide": None, "cabins": [1], "deck": {}},
        "B2": {"fares": {"adult": 30.0, "child": 15.0}},
        3: {"fares": [1]},
    }
    charters = {
        "C1": {"boat_id": "B1", "passengers": [{"kind": "adult", "fare": 40}, {"kind": None}, "junk", None]},
        "C2": {"boat_id": "B2", "passengers": [{"kind": "adult", "fare": 30.0}, {"kind": "child", "fare": True}]},
        "C3": {"boat_id": None, "passengers": None},
        "C4": {"boat_id": "B2", "passengers": {"kind": "adult"}},
    }
    assert entry_rates({"boats": boats, "charters": charters}, "charters", "passengers", ["kind"], PASSENGER, []) == []
    listed = {"boats": [{"fares": {"adult": 1}}], "charters": [{"boat_id": 1, "passengers": [{"kind": ["a"]}]}]}
    assert entry_rates(listed, "charters", "passengers", ["kind"], PASSENGER, ["boat_id"]) == []


# misfired before the review's fix: call_entries reads the sample collection with .values(): a collection kept as a
# list (which sample_records and entry_rates accept) raises AttributeError before the rate card is read
def test_call_entries_reads_a_list_shaped_sample_collection() -> None:
    charters = [_charter("B1", ["adult", "child"]), _charter("B2", ["adult"]), _charter("B2", ["child"])]
    schema = _schema(
        {"boat_id": S, "passengers": {"type": "array", "items": {"type": "object", "properties": PASSENGER}}}
    )
    params = {"boat_id": S, "passengers": {"type": "array", "items": {"type": "object", "properties": {"kind": S}}}}
    spec = ToolSpec("create_charter", "Creates a charter.", {"type": "object", "properties": params})
    plan = call_entries(spec, _create(["boat_id", "passengers"]), schema, {"boats": FARE_CARDS, "charters": charters})
    assert [e["op"] for e in plan.effects] == ["entry_rate"]


# entries given by count (create.py.j2 expand_entries)


# misfired before the review's fix: an entry asked for with quantity 0 (a form sending every kind, zeros included) is
# stored once: expand_entries reads any count that is not a positive integer as 1, adding a child nobody asked for
def test_a_passenger_count_of_zero_adds_no_passenger() -> None:
    stored = {"type": "object", "properties": PASSENGER}
    schema = _schema({"boat_id": S, "passengers": {"type": "array", "items": stored}})
    item = {"type": "object", "properties": {"kind": S, "quantity": {"type": "integer"}}}
    params = {"boat_id": S, "passengers": {"type": "array", "items": item}}
    spec = ToolSpec("create_charter", "Creates a charter.", {"type": "object", "properties": params})
    plan = _create(["boat_id", "passengers"], [{"op": "expand_entries", "field": "passengers", "count": "quantity"}])
    asked = [{"kind": "adult", "quantity": 2}, {"kind": "child", "quantity": 0}]
    case = Case(spec.name, "x", {"charters": {}}, {"boat_id": "B1", "passengers": asked}, expect_error=False)
    stored_passengers = [{"kind": "adult"}, {"kind": "adult"}]
    case.state_checks = [
        {"op": "field_equals", "collection": "charters", "key": "C1", "field": "passengers", "value": stored_passengers}
    ]
    passed, err = _runs(spec, plan, schema, case)
    assert passed == 1, err


# totals of a new record (list_totals.create_sums)

OWN = {
    "passengers": {"type": "array", "items": {"type": "object", "properties": PASSENGER}},
    "fare_paid": N,
    "status": S,
}


# misfired before the review's fix: `fare_paid` equals the fares in the settled (sailed) sample charters and is 0 on
# the pending one; four of five is 80%, so a brand-new charter is stored as paid in full
def test_a_fare_paid_most_sailed_charters_settled_is_not_summed_for_a_new_one() -> None:
    def paid(kinds: list[str], fare_paid: float, status: str) -> dict[str, Any]:
        return _charter("B1", kinds, fare_paid=fare_paid, status=status)

    charters = {
        "C1": paid(["adult", "child"], 60.0, "sailed"),
        "C2": paid(["adult"], 40.0, "sailed"),
        "C3": paid(["adult", "adult"], 80.0, "sailed"),
        "C4": paid(["child", "child"], 40.0, "sailed"),
        "C5": paid(["adult"], 0.0, "pending"),
    }
    assert create_sums({"charters": charters}, "charters", OWN, ["fare_paid"]) == []


# misfired before the review's fix: a total of fare times berths per cabin is learned as the plain sum of the cabins'
# fares, because most sample cabins hold one berth; a cabin of three berths is then charged for one
def test_a_total_of_fares_times_berths_is_not_the_sum_of_fares() -> None:
    own = {
        "cabins": {
            "type": "array",
            "items": {"type": "object", "properties": {"deck": S, "fare": N, "berths": {"type": "integer"}}},
        },
        "total": N,
    }

    def cabins(lines: list[tuple[str, float, int]]) -> dict[str, Any]:
        entries = [{"deck": d, "fare": f, "berths": b} for d, f, b in lines]
        return {"cabins": entries, "total": sum(f * b for _, f, b in lines)}

    charters = {
        "C1": cabins([("upper", 50.0, 1)]),
        "C2": cabins([("lower", 5.0, 1), ("upper", 50.0, 1)]),
        "C3": cabins([("main", 8.0, 1)]),
        "C4": cabins([("lower", 5.0, 1)]),
        "C5": cabins([("lower", 5.0, 3)]),
    }
    found = create_sums({"charters": charters}, "charters", own, ["total"])
    assert {"sum": "cabins", "of": "fare"} not in [step for e in found for _, step in e["steps"]]


# misfired before the review's fix: create_sums adds up every entry value of a field some entry holds as a number: a
# cabin numbered `3B` beside cabins 3, 4 and 5 raises TypeError (int + str), which breaks the whole create
def test_create_sums_does_not_crash_on_a_text_value_beside_numbers() -> None:
    own = {"passengers": {"type": "array", "items": {"type": "object", "properties": {"fare": N}}}, "total": N}
    rows = [(3, 40.0), ("3B", 20.0), (4, 30.0), (5, 40.0)]
    charters = {f"C{i}": {"passengers": [{"cabin": c, "fare": f}], "total": f} for i, (c, f) in enumerate(rows)}
    steps = [s for e in create_sums({"charters": charters}, "charters", own, ["total"]) for s in e["steps"]]
    assert steps == [["total", {"sum": "passengers", "of": "fare"}]]


def test_a_sum_skips_null_and_true_fares_in_the_sample() -> None:
    own = {"passengers": {"type": "array", "items": {"type": "object", "properties": {"fare": N}}}, "total": N}
    fares = [40.0, 20.0, None, 30.0]
    charters = {
        f"C{i}": {"passengers": [{"fare": f, "crew": True, "cabins": [1]}], "total": f} for i, f in enumerate(fares)
    }
    assert create_sums({"charters": charters}, "charters", own, ["total"]) == [
        {"op": "derive", "named": {}, "steps": [["total", {"sum": "passengers", "of": "fare"}]]}
    ]
    assert create_sums({"charters": [{"passengers": None, "total": 3}]}, "charters", own, ["total"]) == []


# dates that last some days (lasting_dates.lasting, create_rules.refine_create)


# misfired before the review's fix: a duration counted from another date is read as counted from the business date:
# 'valid for 14 days from the sail date', 'lasts 2 days after the sail date' and a charter that 'lasts three days'
# (from its sail date) all become today plus N
def test_a_duration_counted_from_another_date_is_not_counted_from_today() -> None:
    permit = {"permit_until": DAY, "sail_date": DAY}
    said = "Creates a permit. A permit is valid for 14 days from the sail date."
    assert lasting(said, "permit_until", permit, TODAY) is None
    held = {"hold_until": DAY, "sail_date": DAY}
    assert lasting("A hold lasts 2 days after the sail date.", "hold_until", held, TODAY) is None
    trip = {"charter_end": DAY, "sail_date": DAY}
    assert lasting("Creates a charter. Each charter lasts three days.", "charter_end", trip, TODAY) is None


def test_a_duration_in_other_units_or_of_a_noun_naming_two_dates_is_not_read() -> None:
    held = {"hold_until": DAY}
    assert lasting("A hold lasts 48 hours.", "hold_until", held, TODAY) is None
    assert lasting("A hold lasts two weeks.", "hold_until", held, TODAY) is None
    assert lasting("A hold lasts up to two days.", "hold_until", held, TODAY) is None
    mooring = {"mooring_start": DAY, "mooring_end": DAY}
    assert lasting("A mooring lasts 30 days.", "mooring_end", mooring, TODAY) is None
    nullable = {"hold_until": {"type": ["string", "null"], "format": "date"}, "sail_date": DAY}
    said = "A hold lasts two days (never past the sail date)."
    assert lasting(said, "hold_until", nullable, TODAY)["not_after"] == "sail_date"


PERMITS = {
    "SK-1": {"permit_until": "2031-06-20"},
    "SK-2": {"permit_until": "2031-07-01"},
    "SK-3": {"permit_until": "2031-06-11"},
}


# misfired before the review's fix: 'a permit lasts 30 days from issue', an aside about the skipper's permit, sets the
# charter's `permit_until` to today plus 30 and so skips the copy of the skipper's `permit_until` every sample charter
# shows
def test_a_permit_sentence_does_not_override_the_permit_date_the_data_copies() -> None:
    own = {"skipper_id": {"type": "string", "x-references": "skippers"}, "permit_until": DAY, "sail_date": DAY}
    schema = _schema(own, skippers={"permit_until": DAY})
    skippers = ["SK-1", "SK-2", "SK-3", "SK-1"]
    charters = {
        f"C{i}": {"skipper_id": s, "permit_until": PERMITS[s]["permit_until"], "sail_date": f"2031-06-0{i + 3}"}
        for i, s in enumerate(skippers)
    }
    text = (
        "Creates a charter for a skipper on a sail date; the skipper must exist. The skipper's permit must still be "
        "valid on the sail date (a permit lasts 30 days from issue)."
    )
    spec = ToolSpec("create_charter", text, {"type": "object", "properties": {"skipper_id": S, "sail_date": DAY}})
    base = ToolPlan(kind="create", collection="charters", key_field="charter_id", fields=["skipper_id", "sail_date"])
    plan = refine_create(spec, base, schema, text, TODAY, {"charters": charters, "skippers": PERMITS})
    assert [(e["op"], e.get("via")) for e in plan.effects if e.get("field") == "permit_until"] == [
        ("copied", "skipper_id")
    ]


# misfired before the review's fix: a create whose only reading is 'A hold lasts two days' loses it: refine_create
# returns the plan unchanged when nothing but a days_later effect was read (its final test does not look at those
# effects)
def test_a_hold_that_lasts_two_days_is_kept_when_nothing_else_is_read() -> None:
    schema = {
        "type": "object",
        "properties": {
            "holds": {
                "type": "object",
                "additionalProperties": {"type": "object", "properties": {"berth_id": S, "hold_until": DAY}},
            }
        },
    }
    text = "Places a hold on a berth. A hold lasts two days."
    spec = ToolSpec("hold_berth", text, {"type": "object", "properties": {"berth_id": S}})
    base = ToolPlan(kind="create", collection="holds", key_field="hold_id", fields=["berth_id"])
    plan = refine_create(spec, base, schema, text, TODAY, {})
    assert {"op": "days_later", "field": "hold_until", "today": TODAY, "days": 2} in plan.effects


# misfired before the review's fix: made_on now runs after the data's copies: sample charters entered with their trip
# share its `created_on`, so a new charter copies the trip's creation date instead of taking the business date
def test_a_created_on_date_is_the_business_date_not_the_trip_date_the_data_matches() -> None:
    own = {"trip_id": {"type": "string", "x-references": "trips"}, "created_on": DAY}
    schema = _schema(own, trips={"created_on": DAY})
    trips = {"T1": {"created_on": "2031-05-01"}, "T2": {"created_on": "2031-05-10"}, "T3": {"created_on": "2031-05-20"}}
    charters = {
        f"C{i}": {"trip_id": t, "created_on": trips[t]["created_on"]} for i, t in enumerate(["T1", "T2", "T3", "T2"])
    }
    spec = ToolSpec("create_charter", "Creates a charter on a trip.", {"type": "object", "properties": {"trip_id": S}})
    base = ToolPlan(kind="create", collection="charters", key_field="charter_id", fields=["trip_id"])
    plan = refine_create(spec, base, schema, spec.description, TODAY, {"charters": charters, "trips": trips})
    assert plan.initial_values.get("created_on") == TODAY


# object checks of a create (codegen._top_level(objects=True), check_fields)

SKIPPER = {"type": "object", "required": ["name", "phone"], "properties": {"name": S, "phone": S}}


def _object_schema(props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    record = {"type": "object", "required": required, "properties": props}
    return {"type": "object", "properties": {"charters": {"type": "object", "additionalProperties": record}}}


def _skipper_spec(required: list[str]) -> ToolSpec:
    given = {"type": "object", "required": required, "properties": {"name": S, "phone": S}}
    params = {"type": "object", "properties": {"boat_id": S, "skipper": given}, "required": ["boat_id"]}
    return ToolSpec("create_charter", "Creates a charter.", params)


@pytest.mark.xfail(
    strict=True,
    reason="the stored schema's `required` (every sample skipper has a phone) refuses a call whose skipper leaves out "
    "the phone its own parameter makes optional (left: the stored schema is inferred from the data, and a record "
    "without the phone would break it)",
)
def test_a_given_object_may_leave_out_a_field_its_parameter_makes_optional() -> None:
    schema = _object_schema({"boat_id": S, "skipper": SKIPPER}, ["boat_id", "skipper"])
    spec = _skipper_spec(["name"])
    case = Case(spec.name, "x", {"charters": {}}, {"boat_id": "B1", "skipper": {"name": "Ana"}}, expect_error=False)
    passed, err = _runs(spec, _create(["boat_id", "skipper"]), schema, case)
    assert passed == 1, err


@pytest.mark.xfail(
    strict=True,
    reason="an object field the call never gives starts from its type defaults ({'set_on': ''}), whose blank date "
    "breaks the stored schema's date pattern: the create's object check now reads only objects the call gives, but "
    "the default itself is still stored (left: a required object nothing sets has no default a schema accepts)",
)
def test_an_object_the_call_does_not_give_does_not_fail_its_own_date_check() -> None:
    anchor = {"type": "object", "required": ["set_on", "buoy"], "properties": {"set_on": DAY, "buoy": S}}
    schema = _object_schema({"boat_id": S, "anchor": anchor}, ["boat_id", "anchor"])
    spec = _skipper_spec(["name"])
    case = Case(spec.name, "x", {"charters": {}}, {"boat_id": "B1"}, expect_error=False)
    passed, err = _runs(spec, _create(["boat_id", "skipper"]), schema, case)
    assert passed == 1, err


def test_a_given_object_missing_a_field_both_schemas_require_is_refused_and_null_passes() -> None:
    nullable = {**SKIPPER, "type": ["object", "null"]}
    schema = _object_schema({"boat_id": S, "skipper": nullable}, ["boat_id", "skipper"])
    spec = _skipper_spec(["name", "phone"])
    state: dict[str, Any] = {"charters": {}}
    short = Case(spec.name, "x", state, {"boat_id": "B1", "skipper": {"name": "Ana"}}, expect_error=True)
    assert _runs(spec, _create(["boat_id", "skipper"]), schema, short)[0] == 1
    empty = Case(spec.name, "x", state, {"boat_id": "B1", "skipper": None}, expect_error=False)
    assert _runs(spec, _create(["boat_id", "skipper"]), schema, empty)[0] == 1
    whole = Case(spec.name, "x", state, {"boat_id": "B1", "skipper": {"name": "Ana", "phone": "1"}}, False)
    whole.state_checks = [
        {
            "op": "field_equals",
            "collection": "charters",
            "key": "C1",
            "field": "skipper",
            "value": whole.arguments["skipper"],
        }
    ]
    assert _runs(spec, _create(["boat_id", "skipper"]), schema, whole)[0] == 1
