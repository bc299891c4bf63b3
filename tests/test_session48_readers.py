"""Readers added in session 48 (docs/envsynth.md "Read in session 48"): whether a record's start time has come by
the clock the docs state, and the notice a change needs (start_times.py); a keyed change of several fields with its
logged entry, its count and its cap (several_changes.py), the entry's text written from the old and the new values
(moved_texts.py)."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.date_runtime import fg_dated
from synth.envsynth.mode_checks import allowed_for_modes
from synth.envsynth.moved_texts import moved_text
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.several_changes import several_changes
from synth.envsynth.start_times import clock_time, start_fields, started_checks
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
DAY = {"type": "string", "format": "date", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
HOUR = {"type": "string", "pattern": "^[0-9]{2}:[0-9]{2}$", "examples": ["09:00", "14:30"]}
LOG = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {"on": DAY, "event": {"type": "string", "x-enum": ["booked", "moved", "sailed"]}, "note": S},
    },
}
TRIP = {
    "date": DAY,
    "start": HOUR,
    "skipper_id": {"type": "string"},
    "status": {"type": "string", "x-enum": ["booked", "sailed", "cancelled"]},
    "move_count": {"type": "integer"},
    "log": LOG,
}
SCHEMA = {"type": "object", "properties": {"trips": {"type": "object", "additionalProperties": {"properties": TRIP}}}}
POLICY = "The harbour office works on 2031-06-02; the harbour clock reads 10:00 for notice periods."
TODAY = "2031-06-02"


def _trip(date: str, start: str, moves: list[tuple[str, str]], status: str = "booked") -> dict:
    log = [{"on": "2031-05-20", "event": "booked", "note": "Booked at the pier"}]
    log += [{"on": "2031-05-25", "event": "moved", "note": f"Shifted from {a} to {b}."} for a, b in moves]
    return {
        "date": date,
        "start": start,
        "skipper_id": "SK-1",
        "status": status,
        "move_count": len(moves),
        "log": log,
    }


TRIPS = {
    "T1": _trip("2031-06-05", "09:00", [("2031-06-01 09:00", "2031-06-05 09:00")]),
    "T2": _trip(
        "2031-06-07", "14:30", [("2031-06-03 11:00", "2031-06-04 11:00"), ("2031-06-04 11:00", "2031-06-07 14:30")]
    ),
    "T3": _trip("2031-06-02", "09:30", []),
    "T4": _trip("2031-06-02", "11:00", []),
}


def test_the_clock_is_the_one_time_of_day_the_docs_give_it() -> None:
    assert clock_time(POLICY) == "10:00"
    assert clock_time("The current time is 9:45 at the marina.") == "09:45"
    assert clock_time("The harbour clock reads 10:00. The pier clock reads 11:00.") is None  # two clocks: neither
    assert clock_time("Trips leave at 10:00 from the pier.") is None  # a time, but no clock's


def test_the_start_is_the_date_and_the_time_of_day_the_record_shows() -> None:
    assert start_fields(TRIP) == ("date", "start")
    two = {"start_date": DAY, "end_date": DAY, "start_time": HOUR, "end_time": HOUR}
    assert start_fields(two) == ("start_date", "start_time")  # the time whose name says start, its date
    assert start_fields({"date": DAY, "skipper_id": S}) is None  # no time of day


def test_a_change_needs_the_start_ahead_or_come_as_its_description_says() -> None:
    ahead = started_checks("Cancels a trip that is still `booked` and has not started.", POLICY, TRIP, TODAY)
    assert ahead == [{"op": "dated", "field": "date", "time_field": "start", "cmp": ">", "value": "2031-06-02 10:00"}]
    refused = "A trip that has already started cannot be cancelled.\n\nErrors: 409: The trip has already started."
    assert started_checks(refused, POLICY, TRIP, TODAY) == ahead  # what a refusal refuses is the other side
    come = "Closes a `booked` trip whose start time has passed.\n\nErrors: 409: Already closed, or not yet taken place."
    assert started_checks(come, POLICY, TRIP, TODAY)[0]["cmp"] == "<="
    assert started_checks(come + " Only a trip that has not started can be moved.", POLICY, TRIP, TODAY) == []  # both
    assert started_checks(come, "No clock is stated.", TRIP, TODAY) == []
    assert started_checks(come, POLICY, TRIP, None) == []


def test_a_notice_period_counts_hours_from_the_clock() -> None:
    said = "A trip can be moved only while at least 48 hours remain before its current start."
    assert started_checks(said, POLICY, TRIP, TODAY) == [
        {"op": "dated", "field": "date", "time_field": "start", "cmp": ">=", "value": "2031-06-04 10:00"}
    ]
    refused = "With less than 6 hours' notice a trip cannot be moved."
    assert started_checks(refused, POLICY, TRIP, TODAY)[0]["value"] == "2031-06-02 16:00"
    fee = "the skipper with at least 48 hours' notice: the fee goes back to credit."  # a branch, not a refusal
    assert started_checks(fee, POLICY, TRIP, TODAY) == []


def test_the_runtime_compares_the_date_and_the_time_of_day() -> None:
    check = {"op": "dated", "field": "date", "time_field": "start", "cmp": ">", "value": "2031-06-02 10:00"}
    assert fg_dated(check, TRIPS["T4"], {}) is True  # 11:00 today: still ahead
    assert fg_dated(check, TRIPS["T3"], {}) is False  # 09:30 today: started
    assert fg_dated(check, {**TRIPS["T3"], "start": "9:30"}, {}) is False  # an unpadded hour reads as 09:30
    assert fg_dated(check, {**TRIPS["T3"], "start": None}, {}) is True  # no time: nothing to refuse on


def test_the_moved_text_writes_the_old_values_then_the_new_ones() -> None:
    samples = [(r["log"][-1]["note"], r) for r in (TRIPS["T1"], TRIPS["T2"])]
    news = {"date": {"from": "arg", "name": "date"}, "start": {"from": "arg", "name": "start"}}
    assert moved_text(samples, news) == {
        "from": "concat",
        "parts": [
            "Shifted from ",
            {"from": "record", "path": ["date"]},
            " ",
            {"from": "record", "path": ["start"]},
            " to ",
            {"from": "arg", "name": "date"},
            " ",
            {"from": "arg", "name": "start"},
            ".",
        ],
    }
    assert moved_text(samples[:1], news) is None  # one sample shows no template
    odd = [(samples[0][0], samples[0][1]), ("Moved on request.", samples[1][1])]
    assert moved_text(odd, news) is None  # the samples write different texts


SPEC = ToolSpec(
    "move_trip",
    "Moves a trip that is still `booked` to a new date and start time, optionally with another skipper. A trip can "
    "be moved only while at least 48 hours remain before its current start, and at most twice in its life "
    "(`move_count`). A `moved` entry is added to the log.",
    {
        "type": "object",
        "properties": {"trip_id": S, "date": DAY, "start": S, "skipper_id": S},
        "required": ["trip_id", "date", "start"],
    },
)
BASE = ToolPlan(kind="update", collection="trips", key_param="trip_id", fields=["date", "start", "skipper_id"])


def _plan() -> ToolPlan:
    plan = several_changes(SPEC, BASE, SCHEMA, POLICY, {"trips": TRIPS}, TODAY)
    assert plan is not None
    return allowed_for_modes(SPEC, plan, SCHEMA, SPEC.description, TODAY, None, POLICY)


def test_several_fields_become_a_recorded_change_with_its_entry_count_and_cap() -> None:
    plan = _plan()
    assert plan.kind == "recorded_update" and plan.preconditions == {"status": ["booked"]}
    sets = {e["field"]: e.get("if_given", False) for e in plan.effects if e["op"] == "set"}
    assert sets == {"date": False, "start": False, "skipper_id": True}  # the optional skipper only when given
    assert {"op": "bound", "from": "self", "field": "move_count", "cmp": "<", "value": 2} in plan.checks
    assert any(c.get("time_field") == "start" and c["value"] == "2031-06-04 10:00" for c in plan.checks)
    entry = next(e for e in plan.effects if e["op"] == "append")["items"][0]["fields"]
    assert entry["event"] == {"from": "const", "value": "moved"} and entry["on"] == {"from": "const", "value": TODAY}


def test_one_field_or_no_entry_and_no_count_is_not_read() -> None:
    one = ToolSpec(SPEC.name, SPEC.description, {"type": "object", "properties": {"trip_id": S, "date": DAY}})
    assert several_changes(one, BASE, SCHEMA, POLICY, {"trips": TRIPS}, TODAY) is None  # field_changes.py's case
    plain = ToolSpec("move_trip", "Moves a trip to a new date and start time.", SPEC.parameters)
    assert several_changes(plain, BASE, SCHEMA, POLICY, {"trips": TRIPS}, TODAY) is None


def test_the_recorded_change_runs_as_the_docs_say() -> None:
    plan = _plan()
    state = {"trips": copy.deepcopy(TRIPS)}
    moved = Case(SPEC.name, "x", state, {"trip_id": "T1", "date": "2031-06-06", "start": "10:00"}, expect_error=False)
    moved.state_checks = [
        {"op": "field_equals", "collection": "trips", "key": "T1", "field": "move_count", "value": 2},
        {"op": "field_equals", "collection": "trips", "key": "T1", "field": "date", "value": "2031-06-06"},
        {"op": "field_equals", "collection": "trips", "key": "T1", "field": "skipper_id", "value": "SK-1"},
    ]
    note = "Shifted from 2031-06-05 09:00 to 2031-06-06 10:00."
    moved.expect_result = {**TRIPS["T1"], "date": "2031-06-06", "start": "10:00", "move_count": 2}
    moved.expect_result["log"] = TRIPS["T1"]["log"] + [{"on": TODAY, "event": "moved", "note": note}]
    moved.has_expected_result = True
    args = {"trip_id": "T2", "date": "2031-06-09", "start": "10:00"}
    twice = Case(SPEC.name, "x", state, args, expect_error=True)  # moved twice already
    soon = Case(SPEC.name, "x", state, {"trip_id": "T4", "date": "2031-06-09", "start": "10:00"}, expect_error=True)
    badly = Case(SPEC.name, "x", state, {"trip_id": "T1", "date": "2031-06-09", "start": "ten"}, expect_error=True)
    res, err = run_cases(
        render_tool(SPEC, plan, SCHEMA), SPEC.name, [moved, twice, soon, badly], SchemaResult(SCHEMA, {}, {}, "d")
    )
    assert err == "" and res.passed == 4, err


def test_the_most_recent_linked_record_is_the_latest_by_its_date() -> None:
    from synth.envsynth.envelope import with_envelope
    from synth.envsynth.stated_answers import stated_answer

    charter = {"type": "object", "properties": {"charter_id": S, "date": S}}
    returns = {
        "type": "object",
        "properties": {"name": S, "last_charter": {"oneOf": [charter, {"type": "null"}]}},
    }
    text = (
        "Reads a skipper. `last_charter` is the most recent charter sailed by the skipper (status `sailed`), or null."
    )
    spec = ToolSpec("get_skipper", text, {"type": "object", "properties": {"skipper_id": S}}, returns)
    theirs = {"skipper_id": S, "date": DAY, "status": S}
    schema = {
        "type": "object",
        "properties": {
            "skippers": {"type": "object", "additionalProperties": {"type": "object", "properties": {"name": S}}},
            "charters": {"type": "object", "additionalProperties": {"type": "object", "properties": theirs}},
        },
    }
    found = stated_answer("last_charter", spec, {"name": S}, schema, "skippers", "skipper_id")
    assert found is not None and found["latest"] == "date"
    shaped = with_envelope(spec, ToolPlan(kind="get", collection="skippers", key_param="skipper_id"), schema)
    state = {
        "skippers": {"SK-1": {"name": "Ana"}},
        "charters": {  # the latest by date is not the last by key
            "C1": {"skipper_id": "SK-1", "date": "2031-03-09", "status": "sailed"},
            "C2": {"skipper_id": "SK-1", "date": "2031-02-01", "status": "sailed"},
            "C3": {"skipper_id": "SK-1", "date": "2031-04-01", "status": "pencilled"},
        },
    }
    case = Case(spec.name, "x", state, {"skipper_id": "SK-1"}, expect_error=False)
    case.expect_result = {"name": "Ana", "last_charter": {"charter_id": "C1", "date": "2031-03-09"}}
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, shaped, schema), spec.name, [case], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 1, err
    undated = {**schema["properties"]["charters"]["additionalProperties"]["properties"], "date": S}
    schema["properties"]["charters"]["additionalProperties"]["properties"] = undated
    assert stated_answer("last_charter", spec, {"name": S}, schema, "skippers", "skipper_id")["latest"] is True


# a create's entries priced from a rate card, its total, and its hold (entry_rates.py, list_totals.create_sums,
# lasting_dates.py, create_rules.refine_create)

FARES = {"adult": 40.0, "child": 20.0}
BOATS = {"B1": {"fares": FARES, "name": "Tern"}, "B2": {"fares": {"adult": 30.0, "child": 15.0}, "name": "Gull"}}
PIERS = {"P1": {"boat_id": "B1", "sail_date": "2031-06-05"}, "P2": {"boat_id": "B2", "sail_date": "2031-06-03"}}


def _charter(kind: str, pier: str, people: list[str], fee: float = 0.0) -> dict:
    boat = BOATS[PIERS[pier]["boat_id"]]
    share = 1.0 if kind == "private" else 0.9  # a group's discount the data does not explain
    fares = [round(boat["fares"][p] * share, 2) for p in people]
    passengers = [{"kind": p, "fare": f} for p, f in zip(people, fares)]
    return {"charter_type": kind, "pier_id": pier, "passengers": passengers, "total": round(sum(fares) + fee, 2)}


SAMPLE = {
    "boats": BOATS,
    "piers": PIERS,
    "charters": {
        "C1": _charter("private", "P1", ["adult", "child"]),
        "C2": _charter("private", "P2", ["adult", "adult"]),
        "C3": _charter("group", "P1", ["adult"] * 3),
        "C4": _charter("private", "P2", ["child"]),
        "C5": _charter("private", "P1", ["adult"]),
        "C6": _charter("group", "P2", ["child"] * 3, fee=25.0),
    },
}
PASSENGER = {"type": "object", "properties": {"kind": S, "fare": {"type": "number"}}}


def test_an_entry_takes_its_fare_from_the_rate_card_its_record_leads_to() -> None:
    from synth.envsynth.entry_rates import entry_rates

    found = entry_rates(SAMPLE, "charters", "passengers", ["kind"], PASSENGER["properties"], ["pier_id"])
    assert found == [
        {
            "op": "entry_rate",
            "field": "passengers",
            "entry_field": "fare",
            "key": "kind",
            "chain": [{"via": "pier_id", "collection": "piers"}, {"via": "boat_id", "collection": "boats"}],
            "card": "fares",
            "when": {"charter_type": ["private"]},  # group fares are discounted: only private ones agree
        }
    ]
    assert entry_rates(SAMPLE, "charters", "passengers", ["kind", "fare"], PASSENGER["properties"], []) == []


def test_a_total_most_records_add_up_from_their_entries_and_a_hold_of_two_days() -> None:
    from synth.envsynth.lasting_dates import lasting
    from synth.envsynth.list_totals import create_sums

    own = {"passengers": {"type": "array", "items": PASSENGER}, "total": {"type": "number"}}
    assert create_sums(SAMPLE, "charters", own, ["total"]) == [
        {"op": "derive", "named": {}, "steps": [["total", {"sum": "passengers", "of": "fare"}]]}
    ]  # five of six records: the sixth adds a fee the data does not explain
    fewer = {**SAMPLE, "charters": {k: c for k, c in SAMPLE["charters"].items() if k in ("C1", "C6")}}
    assert create_sums(fewer, "charters", own, ["total"]) == []  # too few records to tell
    dated = {"hold_until": {"type": ["string", "null"], "format": "date"}, "sail_date": DAY}
    said = "Creates a charter. A hold lasts two days (never past the sail date)."
    assert lasting(said, "hold_until", dated, TODAY) == {
        "op": "days_later",
        "field": "hold_until",
        "today": TODAY,
        "days": 2,
        "not_after": "sail_date",
    }
    assert lasting(said, "sail_date", dated, TODAY) is None  # not the field the noun names
    assert lasting(said, "hold_until", dated, None) is None  # no business date


def test_the_create_prices_expanded_entries_before_it_totals_and_logs_them() -> None:
    charter = {
        "charter_type": {"type": "string", "enum": ["private", "group"]},
        "pier_id": S,
        "passengers": {"type": "array", "items": PASSENGER},
        "total": {"type": "number"},
        "sail_date": DAY,
        "hold_until": {"type": ["string", "null"], "format": "date"},
        "log": {"type": "array", "items": {"type": "object", "properties": {"note": S}}},
    }
    schema = {
        "type": "object",
        "properties": {
            "charters": {"type": "object", "additionalProperties": {"type": "object", "properties": charter}},
            "piers": {"type": "object", "additionalProperties": {"type": "object", "properties": {"boat_id": S}}},
            "boats": {"type": "object", "additionalProperties": {"type": "object", "properties": {"name": S}}},
        },
    }
    item = {"type": "object", "properties": {"kind": S, "quantity": {"type": "integer"}}}
    params = {"pier_id": S, "charter_type": S, "passengers": {"type": "array", "items": item}}
    spec = ToolSpec("create_charter", "Creates a charter.", {"type": "object", "properties": params})
    rate = entry_rates_for_test()
    effects = [
        {"op": "expand_entries", "field": "passengers", "count": "quantity"},
        rate,
        {"op": "derive", "named": {}, "steps": [["total", {"sum": "passengers", "of": "fare"}]]},
        {"op": "copied", "field": "sail_date", "collection": "piers", "via": "pier_id", "source": "sail_date"},
        {"op": "days_later", "field": "hold_until", "today": TODAY, "days": 2, "not_after": "sail_date"},
        {
            "op": "append",
            "field": "log",
            "items": [{"fields": {"note": {"from": "concat", "parts": [{"from": "count", "path": ["passengers"]}]}}}],
        },
    ]
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["pier_id", "charter_type", "passengers"],
        effects=effects,
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )
    state = {"charters": {}, "piers": copy.deepcopy(PIERS), "boats": copy.deepcopy(BOATS)}
    args = {"pier_id": "P2", "charter_type": "private", "passengers": [{"kind": "adult", "quantity": 2}]}
    case = Case(spec.name, "x", state, args, expect_error=False)
    case.state_checks = [
        {"op": "field_equals", "collection": "charters", "key": "C1", "field": "total", "value": 60.0},
        {"op": "field_equals", "collection": "charters", "key": "C1", "field": "hold_until", "value": "2031-06-03"},
        {"op": "field_equals", "collection": "charters", "key": "C1", "field": "log", "value": [{"note": "2"}]},
    ]
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, [case], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 1, err


def entry_rates_for_test() -> dict:
    from synth.envsynth.entry_rates import entry_rates

    return entry_rates(SAMPLE, "charters", "passengers", ["kind"], PASSENGER["properties"], ["pier_id"])[0]


def test_a_date_the_data_copies_from_the_linked_record_is_not_stamped_today() -> None:
    from synth.envsynth.create_rules import refine_create

    own = {"pier_id": {"type": "string", "x-references": "piers"}, "sail_date": DAY, "booked_on": DAY}
    schema = {
        "type": "object",
        "properties": {
            "charters": {"type": "object", "additionalProperties": {"type": "object", "properties": own}},
            "piers": {"type": "object", "additionalProperties": {"type": "object", "properties": {"date": DAY}}},
        },
    }
    piers = {"P1": {"date": "2031-06-05"}, "P2": {"date": "2031-06-03"}, "P3": {"date": "2031-06-09"}}
    charters = {
        f"C{i}": {"pier_id": p, "sail_date": piers[p]["date"], "booked_on": "2031-05-2" + str(i)}
        for i, p in enumerate(["P1", "P2", "P3", "P1"])
    }
    spec = ToolSpec("create_charter", "Creates a charter.", {"type": "object", "properties": {"pier_id": S}})
    base = ToolPlan(kind="create", collection="charters", key_field="charter_id", fields=["pier_id"])
    plan = refine_create(spec, base, schema, spec.description, TODAY, {"charters": charters, "piers": piers})
    copied = [e for e in plan.effects if e["op"] == "copied"]
    assert [(e["field"], e["source"]) for e in copied] == [("sail_date", "date")]  # as every sample record shows
    assert plan.initial_values.get("booked_on") == TODAY and "sail_date" not in plan.initial_values
