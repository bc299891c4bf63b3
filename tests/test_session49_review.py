"""Review probes for linked_errors, offcard_rates, entry_rates._scaled and list_sizes: inputs a general API's docs or
sample data may hold, written by a helper who reviewed them. Fourteen probes were misfires, each written first as a
strict xfail asserting the right behaviour; all are fixed (the comment above each says what misfired). The plain
tests pin behaviour checked and found right."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.entry_rates import _scaled, entry_rates
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.linked_errors import linked_errors
from synth.envsynth.list_sizes import list_sizes
from synth.envsynth.offcard_rates import off_card
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.rate_runtime import fg_off_card
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.shape_code import holds
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
N = {"type": "number"}
DAY = {"type": "string", "format": "date"}
TODAY = "2031-06-02"


# --------------------------------------------------------------------------------------------------------------------
# linked_errors


def _col(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


COLS = {
    "charters": _col({"charter_id": S, "pier_id": S, "trip_id": S, "skipper": S}),
    "piers": _col({"pier_id": S, "status": S, "harbour": S, "tide": S}),
    "trips": _col({"trip_id": S, "day": DAY, "state": S}),
}
OWN = COLS["charters"]["additionalProperties"]["properties"]
PIERS = {
    "P1": {"pier_id": "P1", "status": "open", "harbour": "north", "tide": "high"},
    "P2": {"pier_id": "P2", "status": "closed", "harbour": "south", "tide": "low"},
    "P3": {"pier_id": "P3", "status": "open", "harbour": "north", "tide": "unknown"},
}
TRIPS_DATED = {
    "T1": {"trip_id": "T1", "day": "2031-06-01", "state": "scheduled"},
    "T2": {"trip_id": "T2", "day": "2031-06-09", "state": "cancelled"},
}
SAMPLE = {"piers": PIERS, "trips": TRIPS_DATED}


def _refused(checks: list[dict[str, Any]], record: dict[str, Any], state: dict[str, Any]) -> bool:
    return any(not fg_check(c, {}, record, state) for c in checks)


def test_error_state_reads_sample_records_kept_as_a_list_and_keeps_the_stored_case() -> None:
    piers = [{"pier_id": "P1", "status": "Open"}, {"pier_id": "P2", "status": "Closed"}, {"pier_id": "P3"}]
    checks = linked_errors("Errors: 422: e.g. closed pier.", OWN, COLS, {"piers": piers}, TODAY)
    state = {"piers": {p["pier_id"]: p for p in piers}}
    assert _refused(checks, {"pier_id": "P2"}, state)
    assert not _refused(checks, {"pier_id": "P1"}, state)
    assert not _refused(checks, {"pier_id": "P3"}, state)  # no status at all


def test_error_state_with_none_values_and_no_sample_reads_without_crashing() -> None:
    piers = {"P1": {"pier_id": "P1", "status": None}, "P2": None, "P3": {"pier_id": "P3", "status": 5}}
    assert linked_errors("Errors: 422: e.g. closed pier.", OWN, COLS, {"piers": piers}, TODAY) == []
    assert linked_errors("Errors: 422: e.g. closed pier.", OWN, COLS, {}, TODAY) == []
    assert linked_errors("Errors:", OWN, COLS, SAMPLE, TODAY) == []


# misfired before the review's fix: "404: Unknown pier" names a pier id no record holds, yet `unknown` is a value of
# the piers' `tide` field, so the reader refuses every existing pier whose tide is unknown
def test_a_404_unknown_noun_is_not_a_state_of_the_linked_record() -> None:
    checks = linked_errors("Errors: 404: Unknown pier or trip; 422: e.g. closed pier.", OWN, COLS, SAMPLE, TODAY)
    assert not _refused(checks, {"pier_id": "P3"}, SAMPLE)  # P3 exists, is open; its tide is merely unknown
    assert _refused(checks, {"pier_id": "P2"}, SAMPLE)


# misfired before the review's fix: a row that states what the call requires ("Open pier and scheduled trip required")
# is split into items, and "Open pier" is read as a state to refuse: every charter at an open pier is refused
def test_a_row_stating_the_required_state_does_not_refuse_that_state() -> None:
    checks = linked_errors("Errors: 422: Open pier and scheduled trip required.", OWN, COLS, SAMPLE, TODAY)
    assert not _refused(checks, {"pier_id": "P1"}, SAMPLE)


# misfired before the review's fix: the same with "Requires:" before the list: "scheduled trip" is read as a refused
# state
def test_a_requires_list_does_not_refuse_the_listed_states() -> None:
    checks = linked_errors("Errors: 422: Requires: open pier, scheduled trip.", OWN, COLS, SAMPLE, TODAY)
    assert not _refused(checks, {"trip_id": "T1"}, SAMPLE)


# misfired before the review's fix: an example list in parentheses keeps the ")" on its last item, which then reads as
# nothing
def test_an_example_list_in_parentheses_reads_its_last_item() -> None:
    checks = linked_errors(
        "Errors: 422: Charter rules not met (e.g. closed pier, past trip).", OWN, COLS, SAMPLE, TODAY
    )
    assert {c["op"] for c in checks} == {"linked_state", "dated"}


# misfired before the review's fix: error rows on their own lines (a bulleted list, no ";") are read as one row and
# nothing is found
def test_error_rows_on_separate_lines_are_each_read() -> None:
    text = "Books a charter.\n\nErrors:\n- 404: Unknown pier\n- 409: Closed pier\n"
    checks = linked_errors(text, OWN, COLS, SAMPLE, TODAY)
    assert [c.get("field") for c in checks] == ["status"]


def test_a_word_that_is_a_value_of_the_link_field_itself_or_of_no_field_reads_as_nothing() -> None:
    piers = {"P1": {"pier_id": "closed", "status": "open"}, "P2": {"pier_id": "P2", "status": "open"}}
    assert linked_errors("Errors: 422: e.g. closed pier, full pier.", OWN, COLS, {"piers": piers}, TODAY) == []


def test_past_reads_nothing_when_the_linked_record_has_two_dates() -> None:
    cols = {**COLS, "trips": _col({"trip_id": S, "day": DAY, "back": DAY})}
    assert linked_errors("Errors: 422: e.g. past trip.", OWN, cols, SAMPLE, TODAY) == []


# misfired before the review's fix: "past trip" reads the trip's one `date`-format field, here the day it was listed,
# while the trip's own time is a date-time: every trip listed before the business date (all of them) is refused
def test_past_does_not_read_a_bookkeeping_date_beside_the_records_date_time() -> None:
    when = {"type": "string", "format": "date-time"}
    cols = {**COLS, "trips": _col({"trip_id": S, "departs": when, "listed_on": DAY})}
    checks = linked_errors("Errors: 422: e.g. past trip.", OWN, cols, SAMPLE, TODAY)
    state = {"trips": {"T9": {"trip_id": "T9", "departs": "2031-07-01T09:00:00", "listed_on": "2031-05-01"}}}
    assert not _refused(checks, {"trip_id": "T9"}, state)


def test_a_hyphenated_state_and_an_enum_in_the_schema_are_read() -> None:
    cols = {**COLS, "piers": _col({"pier_id": S, "status": {"type": "string", "enum": ["open", "out-of-service"]}})}
    checks = linked_errors("Errors: 409: e.g. out-of-service pier.", OWN, cols, {}, TODAY)
    state = {"piers": {"P1": {"status": "out-of-service"}, "P2": {"status": "open"}}}
    assert _refused(checks, {"pier_id": "P1"}, state)
    assert not _refused(checks, {"pier_id": "P2"}, state)


# --------------------------------------------------------------------------------------------------------------------
# list_sizes

LIST_OWN = {
    "kind": {"type": "string", "enum": ["private", "group"]},
    "passengers": {"type": "array"},
    "boats": {"type": "array"},
}


def _too_many(checks: list[dict[str, Any]], record: dict[str, Any]) -> bool:
    arguments: dict[str, Any] = {}
    return any(
        (not c.get("when") or eval(holds(c["when"]), {}, {"record": record, "arguments": arguments}))
        and not fg_check(c, arguments, record, {})
        for c in checks
    )


def test_a_hedged_kind_reads_as_nothing_and_a_rule_after_a_colon_is_read() -> None:
    assert list_sizes("Most charters take up to 8 passengers.", "charters", LIST_OWN) == []
    checks = list_sizes("Rules: charters take 1 to 8 passengers.", "charters", LIST_OWN)
    assert _too_many(checks, {"passengers": [{}] * 9})
    assert _too_many(checks, {"passengers": None})
    assert not _too_many(checks, {"passengers": [{}] * 8})


# misfired before the review's fix: "up to 8 passengers, or 12 with a second skipper" is read as a cap of 8 always, so
# a charter of 10 passengers with a second skipper, which the docs allow, is refused
def test_a_cap_with_an_exception_does_not_refuse_what_the_exception_allows() -> None:
    checks = list_sizes("Charters take up to 8 passengers, or 12 with a second skipper.", "charters", LIST_OWN)
    assert not _too_many(checks, {"passengers": [{}] * 10, "skippers": ["SK1", "SK2"]})


# misfired before the review's fix: "up to 8 passengers per boat" is read as a cap on the charter's whole list: two
# boats' 12 are refused
def test_a_per_unit_cap_is_not_a_cap_on_the_whole_list() -> None:
    checks = list_sizes("Charters take up to 8 passengers per boat.", "charters", LIST_OWN)
    assert not _too_many(checks, {"boats": ["B1", "B2"], "passengers": [{}] * 12})


# misfired before the review's fix: "up to 8 passengers at the base fare; extra passengers pay 15 each" is a price
# rule, not a cap
def test_a_fare_band_is_not_a_cap() -> None:
    text = "Charters take up to 8 passengers at the base fare; extra passengers pay 15.0 each."
    assert not _too_many(list_sizes(text, "charters", LIST_OWN), {"passengers": [{}] * 9})


# misfired before the review's fix: the reader accepts "a"/"each"/"every" and the singular noun, yet only the plural
# verb: "Each charter takes up to 8 passengers" reads as nothing
def test_a_singular_sentence_is_read() -> None:
    checks = list_sizes("Each charter takes up to 8 passengers.", "charters", LIST_OWN)
    assert checks == [{"op": "list_room", "list": "passengers", "most": 9}]


# misfired before the review's fix: a list field typed ["array", "null"] (nullable, OpenAPI 3.1 style) is not taken
# for a list
def test_a_nullable_list_field_is_read() -> None:
    own = {**LIST_OWN, "passengers": {"type": ["array", "null"]}}
    checks = list_sizes("Charters take up to 8 passengers.", "charters", own)
    assert checks == [{"op": "list_room", "list": "passengers", "most": 9}]


def test_two_kinds_with_the_same_bounds_each_keep_their_guard() -> None:
    text = "Private charters take 1 to 8 passengers. Group charters take 1 to 8 passengers. "
    text += "Charters take up to 40 passengers."
    checks = list_sizes(text, "charters", LIST_OWN)
    assert _too_many(checks, {"kind": "group", "passengers": [{}] * 9})
    assert _too_many(checks, {"kind": "private", "passengers": []})
    assert not _too_many(checks, {"kind": None, "passengers": [{}] * 20})
    assert _too_many(checks, {"kind": None, "passengers": [{}] * 41})


# --------------------------------------------------------------------------------------------------------------------
# offcard_rates / rate_runtime

FARE_TRIPS = {
    "T1": {"trip_id": "T1", "kind": "harbour", "fares": {"adult": 40.0, "child": 20.0}},
    "T2": {"trip_id": "T2", "kind": "coastal", "fares": {"adult": 30.0, "child": 15.0}},
    "T3": {"trip_id": "T3", "kind": "coastal", "fares": {"adult": 50.0, "child": 25.0}},
}
CLUBS = {"gold": {"club": "gold", "discount_pct": 30}, "blue": {"club": "blue", "discount_pct": 10}}
SKIPPERS = {"SK1": {"skipper_id": "SK1", "club": "gold"}, "SK2": {"skipper_id": "SK2", "club": "blue"}}
CHAIN = [{"via": "trip_id", "collection": "trips"}]


def _skipper_fare(trip: dict[str, Any], skipper: str | None) -> float:
    if trip["kind"] == "harbour":
        return 0.0
    pct = CLUBS[SKIPPERS[skipper or ""]["club"]]["discount_pct"]
    return round(trip["fares"]["adult"] * (1 - pct / 100), 2)


def _charter(trips: dict[str, Any], trip: str, skipper: str | None, kinds: list[str]) -> dict[str, Any]:
    fares, out = trips[trip]["fares"], []
    for kind in kinds:
        fare = _skipper_fare(trips[trip], skipper) if kind == "skipper" else fares[kind]
        out.append({"kind": kind, "fare": fare})
    return {"trip_id": trip, "skipper_id": skipper, "passengers": out}


def _fare_sample() -> dict[str, Any]:
    charters = {
        "C1": _charter(FARE_TRIPS, "T1", "SK1", ["skipper", "adult"]),
        "C2": _charter(FARE_TRIPS, "T1", "SK2", ["skipper", "child"]),
        "C3": _charter(FARE_TRIPS, "T2", "SK1", ["skipper", "adult"]),
        "C4": _charter(FARE_TRIPS, "T3", "SK2", ["skipper"]),
        "C5": _charter(FARE_TRIPS, "T2", None, ["adult", "child"]),
    }
    return {"trips": FARE_TRIPS, "clubs": CLUBS, "skippers": SKIPPERS, "charters": charters}


def _off(sample: dict[str, Any]) -> list[dict[str, Any]]:
    return off_card(sample, "charters", "passengers", "fare", "kind", CHAIN, "fares")


def test_off_card_rules_do_not_depend_on_the_order_of_the_sample_records() -> None:
    sample = _fare_sample()
    backwards = {**sample, "charters": dict(reversed(list(sample["charters"].items())))}
    backwards["skippers"] = dict(reversed(list(SKIPPERS.items())))
    assert _off(sample) == _off(backwards) != []


def test_off_card_ignores_odd_entries_and_values_without_crashing() -> None:
    sample = _fare_sample()
    sample["charters"]["C6"] = {"trip_id": "T2", "skipper_id": "SK1", "passengers": ["skipper", None, 3]}
    sample["charters"]["C7"] = {"trip_id": "T9", "passengers": [{"kind": "skipper", "fare": 1.0}]}  # no such trip
    sample["charters"]["C8"] = {"trip_id": None, "passengers": None}
    sample["charters"]["C9"] = {"trip_id": "T1", "passengers": [{"kind": "skipper", "fare": True}, {"fare": 0.0}]}
    assert _off(sample) == _off(_fare_sample())
    assert _off({"charters": [], "trips": None}) == []


def test_off_card_reads_a_constant_of_zero_held_as_int_and_float_alike() -> None:
    sample = _fare_sample()
    sample["charters"]["C2"]["passengers"][0]["fare"] = 0  # an int zero beside the float ones
    sample["charters"]["C9"] = _charter(FARE_TRIPS, "T1", "SK2", ["skipper"])
    rules = _off(sample)
    harbour = [r for r in rules if r["when"] and r["when"]["is"] == "harbour"]
    assert len(harbour) == 1 and harbour[0]["const"] == 0


def test_off_card_less_pct_tolerates_cents_rounding() -> None:
    trips = {
        "T1": {"trip_id": "T1", "kind": "coastal", "fares": {"adult": 12.99, "child": 7.49}},
        "T2": {"trip_id": "T2", "kind": "coastal", "fares": {"adult": 33.33, "child": 9.99}},
    }
    clubs = {"gold": {"club": "gold", "discount_pct": 15}, "blue": {"club": "blue", "discount_pct": 33}}
    skippers = {"SK1": {"skipper_id": "SK1", "club": "gold"}, "SK2": {"skipper_id": "SK2", "club": "blue"}}

    def charter(trip: str, skipper: str) -> dict[str, Any]:
        pct = clubs[skippers[skipper]["club"]]["discount_pct"]
        fare = round(trips[trip]["fares"]["adult"] * (1 - pct / 100), 2)
        return {"trip_id": trip, "skipper_id": skipper, "passengers": [{"kind": "skipper", "fare": fare}]}

    charters = {"C1": charter("T1", "SK1"), "C2": charter("T2", "SK2"), "C3": charter("T2", "SK1")}
    sample = {"trips": trips, "clubs": clubs, "skippers": skippers, "charters": charters}
    (rule,) = _off(sample)
    assert rule["base"] == "adult" and rule["when"] is None
    state = {"skippers": skippers, "clubs": clubs}
    record = {"skipper_id": "SK2"}
    got = fg_off_card([rule], "kind", record, {"kind": "skipper"}, trips["T1"]["fares"], state)
    assert got == round(12.99 * 0.67, 2)


# misfired before the review's fix: the trip's own id splits the skipper entries the same way as the trip's `kind`,
# and being met first the id wins: the rules say "on trip T1" rather than "on a harbour trip", so a skipper on another
# coastal trip (T3 holds no charters in the sample) is left unpriced
def test_a_split_is_by_a_closed_field_not_by_the_linked_records_id() -> None:
    sample = _fare_sample()
    sample["charters"] = {
        "C1": _charter(FARE_TRIPS, "T1", "SK1", ["skipper", "adult"]),
        "C2": _charter(FARE_TRIPS, "T1", "SK2", ["skipper"]),
        "C3": _charter(FARE_TRIPS, "T2", "SK1", ["skipper"]),
        "C4": _charter(FARE_TRIPS, "T2", "SK2", ["skipper", "child"]),
    }
    rules = _off(sample)
    assert [r["when"]["field"] for r in rules] == ["kind", "kind"]
    state = {"trips": FARE_TRIPS, "skippers": SKIPPERS, "clubs": CLUBS}
    record = {"trip_id": "T3", "skipper_id": "SK2"}
    assert fg_off_card(rules, "kind", record, {"kind": "skipper"}, FARE_TRIPS["T3"]["fares"], state) == 45.0


def test_the_runtime_gives_none_for_odd_percentages_links_and_cards() -> None:
    rule = {
        "value": "skipper",
        "when": None,
        "base": "adult",
        "less_pct": {"chain": [{"via": "skipper_id", "collection": "skippers"}], "field": "pct"},
    }
    card = {"adult": 40.0}
    skippers = {"SK1": {"pct": "30"}, "SK2": {"pct": True}, "SK3": {"pct": 25}, "7": {"pct": 50}}
    state = {"skippers": skippers}
    entry = {"kind": "skipper"}
    assert fg_off_card([rule], "kind", {"skipper_id": "SK1"}, entry, card, state) is None
    assert fg_off_card([rule], "kind", {"skipper_id": "SK2"}, entry, card, state) is None
    assert fg_off_card([rule], "kind", {"skipper_id": None}, entry, card, state) is None
    assert fg_off_card([rule], "kind", {"skipper_id": ["SK3"]}, entry, card, state) is None
    assert fg_off_card([rule], "kind", {"skipper_id": "SK3"}, entry, {"adult": "40"}, state) is None
    assert fg_off_card([rule], "kind", {"skipper_id": "SK3"}, entry, None, state) is None
    assert fg_off_card([rule], "kind", {"skipper_id": "SK3"}, entry, card, {"skippers": None}) is None
    assert fg_off_card([rule], "kind", {"skipper_id": 7}, entry, card, state) == 20.0
    assert fg_off_card([rule], "kind", {"skipper_id": "SK3"}, entry, card, state) == 30.0


# --------------------------------------------------------------------------------------------------------------------
# entry_rates._scaled


def _pairs(rows: list[tuple[dict[str, Any], dict[str, float], list[str], float]]) -> list[Any]:
    """((parent, entry), card rate) for charters paying their card times a factor."""
    out = []
    for parent, card, kinds, factor in rows:
        parent = {**parent, "passengers": [{"kind": k, "fare": round(card[k] * factor, 2)} for k in kinds]}
        out += [((parent, e), card[e["kind"]]) for e in parent["passengers"]]
    return out


def _group_rows(card: dict[str, float], club: float, school: float) -> list[Any]:
    return _pairs(
        [
            ({"kind": "private", "group": None}, card, ["adult", "child"], 1),
            ({"kind": "private", "group": None}, card, ["adult"], 1),
            ({"kind": "party", "group": "club"}, card, ["adult", "child"], club),
            ({"kind": "party", "group": "club"}, card, ["child"], club),
            ({"kind": "party", "group": "school"}, card, ["adult"], school),
            ({"kind": "party", "group": "school"}, card, ["child", "adult"], school),
        ]
    )


def test_scaled_reads_none_as_a_group_of_its_own() -> None:
    card = {"adult": 40.0, "child": 20.0}
    rows = _pairs(
        [
            ({"kind": "private", "group": "x"}, card, ["adult", "child"], 1),
            ({"kind": "private", "group": "x"}, card, ["adult"], 1),
            ({"kind": "party", "group": "club"}, card, ["adult"], 0.9),
            ({"kind": "party", "group": "club"}, card, ["child"], 0.9),
            ({"kind": "party", "group": None}, card, ["adult"], 0.5),
            ({"kind": "party"}, card, ["child"], 0.5),
        ]
    )
    scaled = _scaled(rows, "fare", {"kind": ["private"]})
    assert scaled == {"field": "group", "factors": [[None, 0.5], ["club", 0.9]]}


def test_scaled_reads_nothing_without_a_condition_or_from_a_zero_factor_coincidence() -> None:
    card = {"adult": 40.0, "child": 20.0}
    assert _scaled(_group_rows(card, 0.9, 0.5), "fare", {}) is None
    assert _scaled(_group_rows(card, 1, 1), "fare", {"kind": ["private"]}) is None  # every factor 1: nothing


# misfired before the review's fix: the factor is read as entry / card rate rounded to 4 places; with card prices in
# cents the rounded fares give ratios that differ in the 4th place (11.04/12.99 = 0.8499, 6.37/7.49 = 0.8505), so a
# plain 15% off is missed
def test_scaled_reads_a_factor_from_fares_rounded_to_cents() -> None:
    scaled = _scaled(_group_rows({"adult": 12.99, "child": 7.49}, 0.85, 0.5), "fare", {"kind": ["private"]})
    assert scaled == {"field": "group", "factors": [["club", 0.85], ["school", 0.5]]}


# misfired before the review's fix: a card price of 0 (children ride free) gives no ratio, so the group holding a free
# entry has no factor and the whole field is dropped, though 0 times any factor is 0
def test_scaled_reads_a_factor_beside_a_free_card_price() -> None:
    scaled = _scaled(_group_rows({"adult": 40.0, "child": 0.0}, 0.9, 0.5), "fare", {"kind": ["private"]})
    assert scaled == {"field": "group", "factors": [["club", 0.9], ["school", 0.5]]}


# --------------------------------------------------------------------------------------------------------------------
# entry_rates end to end: the rendered create with card, scaled and off-card entries together


def _spec() -> ToolSpec:
    passenger = {"type": "object", "properties": {"kind": S}, "required": ["kind"]}
    props = {"trip_id": S, "skipper_id": S, "kind": S, "group": S, "passengers": {"type": "array", "items": passenger}}
    return ToolSpec("book_charter", "Books a charter.", {"type": "object", "properties": props})


def _schema() -> dict[str, Any]:
    passenger = {"type": "object", "properties": {"kind": S, "fare": N}, "required": ["kind", "fare"]}
    cols = {
        "charters": {
            "charter_id": S,
            "trip_id": S,
            "skipper_id": S,
            "kind": S,
            "group": S,
            "passengers": {"type": "array", "items": passenger},
        },
        "trips": {"trip_id": S, "kind": S, "fares": {"type": "object"}},
        "skippers": {"skipper_id": S, "club": S},
        "clubs": {"club": S, "discount_pct": N},
    }
    return {"type": "object", "properties": {n: _col(p) for n, p in cols.items()}}


def test_the_rendered_create_prices_scaled_and_off_card_entries_and_refuses_unpriced_ones() -> None:
    effect = {
        "op": "entry_rate",
        "field": "passengers",
        "entry_field": "fare",
        "key": "kind",
        "chain": CHAIN,
        "card": "fares",
        "when": {"kind": ["private"]},
        "scaled": {"field": "group", "factors": [[None, 0.5], ["club", 0.9]]},
        "others": [{"value": "skipper", "when": None, "const": 0.0}],
    }
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["trip_id", "skipper_id", "kind", "group", "passengers"],
        effects=[effect],
        id_type="pattern",
        key_format={"prefix": "C", "digits": 1},
    )
    schema = _schema()
    state = {"trips": copy.deepcopy(FARE_TRIPS), "skippers": SKIPPERS, "clubs": CLUBS, "charters": {}}
    cases = []
    for name, group, fares in (("club", "club", [27.0, 0.0]), ("none", None, [15.0, 0.0])):
        args: dict[str, Any] = {"trip_id": "T2", "kind": "party", "passengers": []}
        args["passengers"] = [{"kind": "adult"}, {"kind": "skipper"}]
        if group:
            args["group"] = group
        case = Case("book_charter", name, state, args, expect_error=False)
        value = [{"kind": k, "fare": f} for k, f in zip(["adult", "skipper"], fares)]
        case.state_checks = [
            {"op": "field_equals", "collection": "charters", "key": "C1", "field": "passengers", "value": value}
        ]
        cases.append(case)
    # a `crews` entry neither the card nor a rule prices keeps no fare, which the stored schema requires
    args = {"trip_id": "T2", "kind": "party", "group": "club", "passengers": [{"kind": "crews"}]}
    cases.append(Case("book_charter", "crews", state, args, expect_error=True))
    res, err = run_cases(render_tool(_spec(), plan, schema), "book_charter", cases, SchemaResult(schema, {}, {}, "d"))
    assert res.passed == 3, err


def test_entry_rates_with_no_off_card_entries_adds_no_others() -> None:
    sample = _fare_sample()
    for charter in sample["charters"].values():
        charter["passengers"] = [p for p in charter["passengers"] if p["kind"] != "skipper"]
    effects = entry_rates(sample, "charters", "passengers", ["kind"], {"kind": S, "fare": N}, ["trip_id"])
    assert len(effects) == 1 and "others" not in effects[0] and "scaled" not in effects[0]
