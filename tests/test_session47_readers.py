"""Readers added in session 47 (docs/envsynth.md "Read in session 47"): what one value of a mode parameter writes,
read off the records that value shaped (mode_objects.py); fields a state change empties, read off the data
(cleared_fields.py); a logged text whose few samples add a clause of their own, and a money figure every sample
shares (entry_texts.py)."""

from __future__ import annotations

import copy

from synth.envsynth.cleared_fields import cleared_fields
from synth.envsynth.codegen import render_tool
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.mode_objects import mode_object, mode_path, mode_records
from synth.envsynth.mode_rules import mode_transition
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
N = {"type": "number"}
METHODS = ["card", "account", "voucher"]


def _charter(cid: str, status: str, total: float, method: str | None, notes: list[str], hold: str | None = None):
    settlement = None
    if method == "account":
        settlement = {"method": method, "taken": 0.0, "owed": total}
    elif method:
        settlement = {"method": method, "taken": total, "owed": 0.0}
    log = [{"on": "2031-01-02", "event": "pencilled", "note": "Held"}]
    log += [{"on": "2031-01-03", "event": "booked", "note": n} for n in notes]
    return {
        "charter_id": cid,
        "skipper_name": "Skipper " + cid,
        "status": status,
        "total": total,
        "hold_expires": hold,
        "settlement": settlement,
        "log": log,
    }


CHARTERS = [
    _charter("C1", "booked", 120.0, "card", ["Taken 120.00 by card"]),
    _charter("C2", "booked", 64.5, "card", ["Taken 64.50 by card"]),
    _charter("C3", "booked", 80.0, "account", ["Owed 80.00 on account of Skipper C3"]),
    _charter("C4", "sailed", 80.0, "account", ["Owed 80.00 on account of Skipper C4"]),
    _charter("C5", "booked", 30.0, "voucher", ["Taken 30.00 by voucher"]),
    _charter("C6", "pencilled", 55.0, None, [], hold="2031-02-05"),
    _charter("C7", "pencilled", 42.0, None, [], hold="2031-02-06"),
]


def test_the_mode_lives_in_an_object_key_whose_values_are_the_parameters() -> None:
    assert mode_path(CHARTERS, METHODS) == ("settlement", "method")
    assert [r["charter_id"] for r in mode_records(CHARTERS, ("settlement", "method"), "account")] == ["C3", "C4"]
    assert mode_path(CHARTERS, ["card", "cash"]) is None  # `account` is no value of this parameter
    one_value = [c for c in CHARTERS if (c["settlement"] or {}).get("method") == "card"]
    assert mode_path(one_value, METHODS) is None  # a single value is no mode


def test_the_object_is_written_per_value_as_the_records_in_the_new_state_hold_it() -> None:
    path = ("settlement", "method")
    card = mode_object(CHARTERS, path, "method", "card", {"status": "booked"}, {"status"})
    assert card == {
        "op": "set",
        "field": "settlement",
        "source": {
            "from": "object",
            "fields": {
                "method": {"from": "arg", "name": "method"},
                "taken": {"from": "record", "path": ["total"]},
                "owed": {"from": "const", "value": 0.0},
            },
            "nulls": True,
        },
    }
    account = mode_object(CHARTERS, path, "method", "account", {"status": "booked"}, {"status"})
    fields = account["source"]["fields"]  # one record in the new state: a figure it holds, the zero as it is
    assert fields["owed"] == {"from": "record", "path": ["total"]} and fields["taken"]["value"] == 0.0
    assert mode_object(CHARTERS, path, "method", "card", {"status": "booked"}, {"settlement"}) is None  # written
    assert mode_object(CHARTERS, path, "method", "card", {"status": "lost"}, set()) is None  # nothing in that state
    odd = copy.deepcopy(CHARTERS)
    odd[1]["settlement"]["taken"] = 11.0  # neither the total nor one value: the object is not guessed
    assert mode_object(odd, path, "method", "card", {"status": "booked"}, set()) is None


def test_a_state_change_clears_what_every_record_in_the_new_state_leaves_empty() -> None:
    done = cleared_fields(CHARTERS, {"status": "booked"}, {"status": ["pencilled"]}, {"status"})
    fields = {e["field"] for e in done}
    assert "hold_expires" in fields and all(e["source"] == {"from": "const", "value": None} for e in done)
    assert "settlement" not in fields  # the booked hold one
    assert cleared_fields(CHARTERS, {"status": "booked"}, {}, set()) == []  # the states it leaves are unknown
    assert cleared_fields(CHARTERS, {"status": "booked"}, {"status": ["pencilled"]}, {"hold_expires"}) == []
    held_on = copy.deepcopy(CHARTERS)
    held_on[0]["hold_expires"] = "2031-01-09"  # one booked charter keeps its date: not cleared
    assert cleared_fields(held_on, {"status": "booked"}, {"status": ["pencilled"]}, set()) == []
    crewed = copy.deepcopy(CHARTERS)
    for charter in crewed:  # a reference only pencilled charters hold: cleared later, perhaps, not by this change
        charter["crew_id"] = "K1" if charter["status"] == "pencilled" else None
    assert "crew_id" not in {
        e["field"] for e in cleared_fields(crewed, {"status": "booked"}, {"status": ["pencilled"]}, set())
    }
    one_held = [c for c in CHARTERS if c["charter_id"] != "C7"]
    assert cleared_fields(one_held, {"status": "booked"}, {"status": ["pencilled"]}, set()) == []


def _samples(texts_and_totals):
    return [(text, {"total": total, "skipper_name": name}, []) for text, total, name in texts_and_totals]


def test_a_few_texts_adding_a_clause_of_their_own_keep_the_plain_template() -> None:
    texts = [
        ("Taken 120.00 by card", 120.0, "A"),
        ("Taken 64.50 by card", 64.5, "B"),
        ("Taken 30.00 by card", 30.0, "C"),
        ("Taken 8.00 by card; 1 voucher used", 8.0, "D"),
    ]
    found = learned_text(_samples(texts))
    assert found == {
        "from": "concat",
        "parts": ["Taken ", {"from": "fixed", "of": {"from": "record", "path": ["total"]}, "decimals": 2}, " by card"],
    }
    assert learned_text(_samples(texts[1:])) is None  # three samples: too few to set one aside
    other = texts[:3] + [("Refused 8.00 by card; 1 voucher used", 8.0, "D")]  # not the template's head
    assert learned_text(_samples(other)) is None
    two_odd = texts[:2] + [("Taken 8.00 by card; x", 8.0, "D"), ("Taken 9.00 by card; y", 9.0, "E")]
    assert learned_text(_samples(two_odd)) is None  # half of them: no plain form stands out


def test_a_money_figure_every_sample_shares_is_the_record_figure_it_equals() -> None:
    texts = [("Owed 80.00 on account of A", 80.0, "A"), ("Owed 80.00 on account of B", 80.0, "B")]
    found = learned_text(_samples(texts))
    assert found["parts"][1] == {"from": "fixed", "of": {"from": "record", "path": ["total"]}, "decimals": 2}
    swell = [("swell 3/3 for A", 3, "A"), ("swell 3/3 for B", 3, "B")]  # a whole number shared: the words' own
    assert learned_text(_samples(swell)) == {
        "from": "concat",
        "parts": ["swell 3/3 for ", {"from": "record", "path": ["skipper_name"]}],
    }
    free = [("Owed 0.00 on account of A", 0.0, "A"), ("Owed 0.00 on account of B", 0.0, "B")]
    assert learned_text(_samples(free))["parts"][0] == "Owed 0.00 on account of "  # a zero shared stays written


ENTRY = {
    "type": "object",
    "properties": {"on": {"type": "string", "format": "date"}, "event": {"type": "string", "x-enum": []}, "note": S},
}
STATES = ["pencilled", "booked", "sailed", "cancelled"]
ENTRY["properties"]["event"]["x-enum"] = STATES
CHARTER = {
    "charter_id": S,
    "skipper_name": S,
    "status": {"type": "string", "enum": STATES},
    "total": N,
    "hold_expires": {"type": ["string", "null"]},
    "settlement": {"type": ["object", "null"]},
    "log": {"type": "array", "items": ENTRY},
}
SCHEMA = {
    "type": "object",
    "properties": {"charters": {"type": "object", "additionalProperties": {"type": "object", "properties": CHARTER}}},
}
SPEC = ToolSpec(
    "settle_charter",
    "Takes payment and moves a `pencilled` charter to `booked` (business date 2031-02-03).\n\n"
    "Payment methods:\n- `card`: the total is charged to the skipper's card.\n- `account`: the total is put on the "
    "skipper's account.\n- `voucher`: the total is paid with a harbour voucher.",
    {
        "type": "object",
        "properties": {"charter_id": S, "method": {"type": "string", "enum": METHODS}},
        "required": ["charter_id", "method"],
    },
)


def test_each_payment_method_writes_its_object_clears_the_hold_and_logs_its_own_text() -> None:
    state = {"charters": {c["charter_id"]: c for c in CHARTERS}}
    base = ToolPlan(kind="update", collection="charters", key_field="charter_id", key_param="charter_id")
    plan = mode_transition(SPEC, base, SCHEMA, "", CHARTERS, state)
    assert plan is not None and set(plan.modes) == set(METHODS)
    on_account = Case(SPEC.name, "x", state, {"charter_id": "C6", "method": "account"}, expect_error=False)
    after = copy.deepcopy(state["charters"]["C6"])
    after.update(status="booked", hold_expires=None, settlement={"method": "account", "taken": 0.0, "owed": 55.0})
    after["log"] = after["log"] + [
        {"on": "2031-02-03", "event": "booked", "note": "Owed 55.00 on account of Skipper C6"}
    ]
    on_account.state_checks = [
        {"op": "field_equals", "collection": "charters", "key": "C6", "field": k, "value": v} for k, v in after.items()
    ]
    by_card = Case(SPEC.name, "x", state, {"charter_id": "C7", "method": "card"}, expect_error=False)
    by_card.state_checks = [
        {
            "op": "field_equals",
            "collection": "charters",
            "key": "C7",
            "field": "settlement",
            "value": {"method": "card", "taken": 42.0, "owed": 0.0},
        },
        {
            "op": "field_equals",
            "collection": "charters",
            "key": "C7",
            "field": "log",
            "value": state["charters"]["C7"]["log"]
            + [{"on": "2031-02-03", "event": "booked", "note": "Taken 42.00 by card"}],
        },
    ]
    res, err = run_cases(
        render_tool(SPEC, plan, SCHEMA), SPEC.name, [on_account, by_card], SchemaResult(SCHEMA, {}, {}, "d")
    )
    assert err == "" and res.passed == 2, res


PASSENGER = {"type": "object", "properties": {"name": S, "fare": N}}
TRIP = {
    "trip_id": S,
    "boat_id": S,
    "skipper_id": S,
    "status": {"type": "string", "enum": ["held", "cancelled"]},
    "passengers": {"type": "array", "items": PASSENGER},
    "log": {"type": "array", "items": ENTRY},
}
BOATS = {
    "type": "object",
    "additionalProperties": {
        "type": "object",
        "properties": {"boat_id": S, "capacity": {"type": "integer"}, "seats_booked": {"type": "integer"}},
    },
}
SKIPPERS = {"type": "object", "additionalProperties": {"type": "object", "properties": {"skipper_id": S}}}
TRIPS = {
    "type": "object",
    "properties": {
        "trips": {"type": "object", "additionalProperties": {"type": "object", "properties": TRIP}},
        "boats": BOATS,
        "skippers": SKIPPERS,
    },
}


def test_places_a_record_reserves_or_releases_move_the_count_of_the_record_they_are_on() -> None:
    from synth.envsynth.held_places import held_places, places_taken

    assert places_taken(TRIP) == {"sum": {"list": "passengers", "field": None}}  # the log is dated: not places
    made = held_places("Books a trip and reserves its seats on the boat.", "trips", TRIPS, True)
    adjust, within = made
    assert adjust == {
        "op": "adjust",
        "collection": "boats",
        "path": [{"from": "record", "path": ["boat_id"]}, {"from": "const", "value": "seats_booked"}],
        "delta": {"from": "expr", "expr": {"plus": [{"sum": {"list": "passengers", "field": None}}]}},
    }
    assert within["op"] == "sum_within" and within["limit"] == "capacity"
    (freed,) = held_places("Cancels a held trip and releases its places.", "trips", TRIPS, False)
    assert freed["delta"]["expr"] == {"minus": [{"sum": {"list": "passengers", "field": None}}]}
    assert held_places("Cancels a trip; its seats are not released.", "trips", TRIPS, False) == []
    assert held_places("The boat keeps its places until the skipper is told.", "trips", TRIPS, False) == []
    assert held_places("Books a trip and reserves its seats on the skipper.", "trips", TRIPS, True) == []
    counted = {**TRIP, "passengers": {"type": "array", "items": {**PASSENGER, "properties": {"qty": N}}}}
    schema = {
        **TRIPS,
        "properties": {
            **TRIPS["properties"],
            "trips": {"type": "object", "additionalProperties": {"type": "object", "properties": counted}},
        },
    }
    assert places_taken(counted) == {"sum": {"list": "passengers", "field": "qty"}}  # a line per kind: its quantity
    assert (
        held_places("Reserves the places.", "trips", schema, False)[0]["delta"]["expr"]["plus"][0]["sum"]["field"]
        == "qty"
    )


def test_a_create_that_reserves_places_is_refused_past_the_capacity_and_takes_them() -> None:
    spec = ToolSpec(
        "book_trip",
        "Books a trip and reserves its seats on the boat.",
        {
            "type": "object",
            "properties": {"boat_id": S, "passengers": {"type": "array", "items": PASSENGER}},
            "required": ["boat_id", "passengers"],
        },
    )
    from synth.envsynth.create_checks import create_checks

    base = ToolPlan(kind="create", collection="trips", key_field="trip_id", fields=["boat_id", "passengers"])
    plan = create_checks(spec, base, TRIPS, spec.description, None)
    state = {"trips": {}, "boats": {"B1": {"boat_id": "B1", "capacity": 4, "seats_booked": 2}}, "skippers": {}}
    two = [{"name": "Ana", "fare": 10.0}, {"name": "Ben", "fare": 10.0}]
    fits = Case(spec.name, "x", state, {"boat_id": "B1", "passengers": two}, expect_error=False)
    fits.state_checks = [
        {"op": "field_equals", "collection": "boats", "key": "B1", "field": "seats_booked", "value": 4}
    ]
    over = Case(spec.name, "x", state, {"boat_id": "B1", "passengers": two + two[:1]}, expect_error=True)
    res, err = run_cases(render_tool(spec, plan, TRIPS), spec.name, [fits, over], SchemaResult(TRIPS, {}, {}, "d"))
    assert err == "" and res.passed == 2, res


def test_call_entries_asked_for_by_count_are_stored_one_each_with_their_nullable_fields_null() -> None:
    from synth.envsynth.call_entries import call_entries

    stored = {"type": "object", "properties": {"kind": S, "name": {"type": ["string", "null"]}}}
    asked = {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": S, "name": S, "quantity": {"type": "integer", "description": "Number of identical"}},
    }
    trip = {"trip_id": S, "passengers": {"type": "array", "items": stored}}
    schema = {
        "type": "object",
        "properties": {"trips": {"type": "object", "additionalProperties": {"type": "object", "properties": trip}}},
    }
    sample = {"trips": {"T1": {"trip_id": "T1", "passengers": [{"kind": "adult", "name": None}]}}}
    spec = ToolSpec(
        "book_trip",
        "Books a trip.",
        {"type": "object", "properties": {"passengers": {"type": "array", "items": asked}}, "required": ["passengers"]},
    )
    base = ToolPlan(kind="create", collection="trips", key_field="trip_id", fields=["passengers"])
    plan = call_entries(spec, base, schema, sample)
    assert [e["op"] for e in plan.effects] == ["expand_entries", "fill_entries"]
    case = Case(
        spec.name,
        "x",
        {"trips": {}},
        {"passengers": [{"kind": "adult", "quantity": 2}, {"kind": "child", "name": "Ola"}]},
        expect_error=False,
    )
    case.state_checks = [
        {
            "op": "field_equals",
            "collection": "trips",
            "key": "1",
            "field": "passengers",
            "value": [
                {"kind": "adult", "name": None},
                {"kind": "adult", "name": None},
                {"kind": "child", "name": "Ola"},
            ],
        }
    ]
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, [case], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 1, res
    unseen = {"trips": {"T1": {"trip_id": "T1", "passengers": [{"kind": "adult", "name": "Ana"}]}}}
    assert [e["op"] for e in call_entries(spec, base, schema, unseen).effects] == ["expand_entries"]  # no null seen
    plain = {**asked, "properties": {"kind": S, "name": S, "seats": {"type": "integer"}}}  # a number, not a count
    spec2 = ToolSpec(
        "book_trip",
        "Books a trip.",
        {"type": "object", "properties": {"passengers": {"type": "array", "items": plain}}},
    )
    assert [e["op"] for e in call_entries(spec2, base, schema, sample).effects] == ["fill_entries"]


def test_numbers_logged_where_texts_are_expected_are_no_template() -> None:
    samples = [
        (12.5, {"total": 12.5}, []),
        (3.0, {"total": 3.0}, []),
        (4.0, {"paid": False}, []),
        (5.0, {"paid": True}, []),
    ]
    assert learned_text(samples) is None


def test_a_business_date_written_in_words_reads_as_its_iso_form() -> None:
    from synth.envsynth.docs_entries import business_date

    assert business_date("The harbour's business date is Monday 16 March 2026; the clock reads 12:00.") == "2026-03-16"
    assert business_date("Business date: March 3rd, 2031.") == "2031-03-03"
    assert business_date("The business date is Tue, 3 Feb 2031.") == "2031-02-03"
    assert business_date("The business date is 40 May 2026.") is None  # no such day
    assert business_date("Opened 2 May 2020; the business date is 2031-02-03.") == "2031-02-03"


SKIPPER = {"name": S, "permit": {"type": "object", "properties": {"kind": S, "status": S}}, "boat_id": S}
KEYLESS = {
    "type": "object",
    "properties": {
        "skippers": {
            "type": "object",
            "propertyNames": {"type": "string"},
            "additionalProperties": {"type": "object", "properties": SKIPPER},
        },
        "boats": {
            "type": "object",
            "x-key-field": "boat_id",
            "additionalProperties": {"type": "object", "properties": {"boat_id": S, "name": S}},
        },
    },
}
KEYLESS_STATE = {
    "skippers": {
        "SK-1": {"name": "Ana", "permit": {"kind": "day", "status": "valid"}, "boat_id": "B1"},
        "SK-2": {"name": "Ben", "permit": {"kind": "day", "status": "lapsed"}, "boat_id": "B1"},
    },
    "boats": {"B1": {"boat_id": "B1", "name": "Tern"}},
}


def test_records_kept_without_their_key_are_answered_with_it_where_the_docs_show_it() -> None:
    from synth.envsynth.keyed_views import key_names, view_keys

    assert key_names("skippers", KEYLESS) == ["skipper_id"] and key_names("boats", KEYLESS) == []
    shows = {"type": "object", "properties": {"skipper_id": S, "name": S}}
    spec = ToolSpec("get_skipper", "Reads a skipper.", {"type": "object", "properties": {"skipper_id": S}}, shows)
    assert view_keys(spec, KEYLESS) == {"skippers": "skipper_id"}
    silent = ToolSpec("get_skipper", "Reads a skipper.", {"type": "object", "properties": {"skipper_id": S}})
    assert view_keys(silent, KEYLESS) == {}  # the answer never shows the key: answered as kept
    plan = ToolPlan(kind="get", collection="skippers", key_param="skipper_id")
    case = Case(spec.name, "x", KEYLESS_STATE, {"skipper_id": "SK-2"}, expect_error=False)
    case.expect_result, case.has_expected_result = {"skipper_id": "SK-2", **KEYLESS_STATE["skippers"]["SK-2"]}, True
    case.state_checks = [
        {"op": "field_equals", "collection": "skippers", "key": "SK-2", "field": "name", "value": "Ben"},
    ]
    code = render_tool(spec, plan, KEYLESS)
    assert "fg_keyed(" in code
    res, err = run_cases(code, spec.name, [case], SchemaResult(KEYLESS, {}, {}, "d"))
    assert err == "" and res.passed == 1, res


def test_a_summary_lists_the_key_and_a_flattened_nested_field() -> None:
    from synth.envsynth.envelope import projection

    rows = ["skipper_id", "name", "permit_status"]
    plan = ToolPlan(kind="filter", collection="skippers")
    spec = ToolSpec("find_skippers", "Finds skippers.", {"type": "object", "properties": {"name": S}})
    fields, mapped = projection(spec, plan, KEYLESS, rows=rows)
    assert fields == rows
    assert mapped == {
        "skipper_id": {"op": "map_key", "collection": "skippers"},
        "permit_status": {"op": "nested", "path": ["permit", "status"]},
    }


MOORING = {"type": "object", "properties": {"label": S, "pier": S}}
OWNER = {"owner_id": S, "name": S, "moorings": {"type": "array", "items": MOORING}}
OWNERS = {
    "type": "object",
    "properties": {"owners": {"type": "object", "additionalProperties": {"type": "object", "properties": OWNER}}},
}
EDIT = ToolSpec(
    "edit_moorings",
    "Edits an owner's moorings. Labels listed in `remove` are taken out first, then the entries in `add` are "
    "appended as given. An owner keeps between one and three moorings; labels are short words and unique "
    "for the owner.",
    {
        "type": "object",
        "properties": {
            "owner_id": S,
            "add": {"type": "array", "items": MOORING},
            "remove": {"type": "array", "items": S, "description": "Labels to remove."},
        },
        "required": ["owner_id"],
    },
)


def test_a_list_edited_by_an_adding_and_a_removing_argument() -> None:
    from synth.envsynth.paired_lists import paired_lists

    base = ToolPlan(kind="update", collection="owners", key_field="owner_id", key_param="owner_id")
    plan = paired_lists(EDIT, base, OWNERS)
    assert plan is not None and [e["op"] for e in plan.effects] == ["entries_drop", "entries_add"]
    assert plan.effects[1]["unique"] and (plan.effects[1]["fewest"], plan.effects[1]["most"]) == (1, 3)
    home, yard = {"label": "home", "pier": "P1"}, {"label": "yard", "pier": "P4"}
    state = {"owners": {"O1": {"owner_id": "O1", "name": "Ana", "moorings": [home]}}}

    def case(args, error, moorings=None):
        made = Case(EDIT.name, "x", state, {"owner_id": "O1", **args}, expect_error=error)
        if moorings is not None:
            made.state_checks = [
                {"op": "field_equals", "collection": "owners", "key": "O1", "field": "moorings", "value": moorings}
            ]
        return made

    moved = {"label": "home", "pier": "P9"}
    cases = [
        case({"remove": ["home"], "add": [moved]}, False, [moved]),  # replaced in one call: removals first
        case({"add": [yard]}, False, [home, yard]),
        case({"add": [{"label": "home", "pier": "P2"}]}, True),  # a label held already
        case({"remove": ["shed"]}, True),  # nothing to remove
        case({"remove": ["home"]}, True),  # would leave none
        case({"add": [yard, {"label": "a", "pier": "P5"}, {"label": "b", "pier": "P6"}]}, True),  # four
    ]
    res, err = run_cases(render_tool(EDIT, plan, OWNERS), EDIT.name, cases, SchemaResult(OWNERS, {}, {}, "d"))
    assert err == "" and res.passed == len(cases), res
    single = ToolSpec(EDIT.name, EDIT.description, {**EDIT.parameters, "properties": {"owner_id": S, "add": {}}})
    assert paired_lists(single, base, OWNERS) is None  # no removing list: not this edit


def test_answer_fields_a_read_defines_in_a_sentence_of_its_own() -> None:
    from synth.envsynth.stated_answers import stated_answer

    plan_obj = {"type": "object", "properties": {"trips_total": N, "trips_remaining": N}}
    own = {"name": S, "plan": plan_obj}
    charter = {"type": "object", "properties": {"charter_id": S, "date": S}}
    returns = {
        "type": "object",
        "properties": {
            "name": S,
            "plan_active": {"type": "boolean"},
            "open_charter": {"oneOf": [charter, {"type": "null"}]},
        },
    }
    text = (
        "Reads a skipper. `plan_active` is true while the plan still has trips left. `open_charter` is the charter "
        "currently pencilled for the skipper (status `pencilled`), or null."
    )
    spec = ToolSpec("get_skipper", text, {"type": "object", "properties": {"skipper_id": S}}, returns)
    schema = {
        "type": "object",
        "properties": {
            "skippers": {"type": "object", "additionalProperties": {"type": "object", "properties": own}},
            "charters": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "properties": {"skipper_id": S, "date": S, "status": S},
                },
            },
        },
    }
    assert stated_answer("plan_active", spec, own, schema, "skippers", "skipper_id") == {
        "op": "above",
        "path": ["plan", "trips_remaining"],
        "value": 0,
    }
    assert stated_answer("open_charter", spec, own, schema, "skippers", "skipper_id") == {
        "op": "linked_one",
        "collection": "charters",
        "ref": "skipper_id",
        "arg": "skipper_id",
        "where": {"status": ["pencilled"]},
        "fields": {"date": "date"},
        "key_name": "charter_id",
    }
    assert stated_answer("open_charter", spec, own, schema, "skippers", None) is None  # no key to match by
    assert stated_answer("name_active", spec, own, schema, "skippers", "skipper_id") is None  # nothing says
    plan = ToolPlan(kind="get", collection="skippers", key_param="skipper_id")
    from synth.envsynth.envelope import with_envelope

    shaped = with_envelope(spec, plan, schema)
    assert shaped.output_fields == ["name", "plan_active", "open_charter"]
    state = {
        "skippers": {"SK-1": {"name": "Ana", "plan": {"trips_total": 5, "trips_remaining": 0}}},
        "charters": {
            "C1": {"skipper_id": "SK-1", "date": "2031-02-01", "status": "sailed"},
            "C2": {"skipper_id": "SK-1", "date": "2031-03-01", "status": "pencilled"},
        },
    }
    case = Case(spec.name, "x", state, {"skipper_id": "SK-1"}, expect_error=False)
    case.expect_result = {
        "name": "Ana",
        "plan_active": False,
        "open_charter": {"charter_id": "C2", "date": "2031-03-01"},
    }
    case.has_expected_result = True
    res, err = run_cases(render_tool(spec, shaped, schema), spec.name, [case], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 1, res


def test_values_described_in_sentences_of_their_own_set_the_state_they_name() -> None:
    from synth.envsynth.mode_rules import mode_segments

    voyage = {
        "voyage_id": S,
        "skipper_id": S,
        "status": {"type": "string", "enum": ["underway", "docked", "lost"]},
        "log": {"type": "array", "items": ENTRY},
    }
    schema = {
        "type": "object",
        "properties": {
            "voyages": {"type": "object", "additionalProperties": {"type": "object", "properties": voyage}},
            "skippers": {
                "type": "object",
                "additionalProperties": {"type": "object", "properties": {"skipper_id": S, "trips": N}},
            },
        },
    }
    spec = ToolSpec(
        "close_voyage",
        "Closes an `underway` voyage (business date 2031-02-03). `docked` adds one to the skipper's `trips`. "
        "`lost` keeps everything as it was.",
        {
            "type": "object",
            "properties": {"voyage_id": S, "outcome": {"type": "string", "enum": ["docked", "lost"]}, "note": S},
            "required": ["voyage_id", "outcome"],
        },
    )
    param, segments, _ = mode_segments(spec)
    assert param == "outcome" and set(segments) == {"docked", "lost"}
    state = {
        "voyages": {"V1": {"voyage_id": "V1", "skipper_id": "K1", "status": "underway", "log": []}},
        "skippers": {"K1": {"skipper_id": "K1", "trips": 4}},
    }
    base = ToolPlan(kind="update", collection="voyages", key_field="voyage_id", key_param="voyage_id")
    plan = mode_transition(spec, base, schema, "", list(state["voyages"].values()), state)
    assert plan is not None
    docked = Case(spec.name, "x", state, {"voyage_id": "V1", "outcome": "docked"}, expect_error=False)
    docked.state_checks = [
        {"op": "field_equals", "collection": "voyages", "key": "V1", "field": "status", "value": "docked"},
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "trips", "value": 5},
    ]
    lost = Case(spec.name, "x", state, {"voyage_id": "V1", "outcome": "lost"}, expect_error=False)
    lost.state_checks = [
        {"op": "field_equals", "collection": "voyages", "key": "V1", "field": "status", "value": "lost"},
        {"op": "field_equals", "collection": "skippers", "key": "K1", "field": "trips", "value": 4},
    ]
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, [docked, lost], SchemaResult(schema, {}, {}, "d"))
    assert err == "" and res.passed == 2, res


def test_an_answer_made_of_all_of_its_parts_lists_every_part_s_fields() -> None:
    from synth.envsynth.envelope import documented_fields

    returns = {"allOf": [{"type": "object", "properties": {"voyage_id": S}}, {"properties": {"skipper_trips": N}}]}
    spec = ToolSpec("close_voyage", "Closes a voyage.", {"type": "object", "properties": {}}, returns)
    assert documented_fields(spec) == ["voyage_id", "skipper_trips"]
