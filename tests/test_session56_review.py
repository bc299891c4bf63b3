"""Review probes of the session-56 readers on a harbour desk (harbour words only): each reader is fed the phrasings
a real tool doc might use for the same rule (paraphrases, singular and plural nouns, backquoted names, currency
signs, thousands separators, number words) and near-misses that state no such rule (negations, conditions, other
nouns, a value no parameter takes, an unclear parameter); the checks read are run with fg_check on small states
(exactly at a cap passes, just over is refused, a missing field passes). Each expectation is what the doc text
means; where a reader misreads it, the probe stands alone under a strict xfail naming the misreading."""

from __future__ import annotations

from typing import Any

import pytest

from synth.envsynth.arg_limits import capped_args
from synth.envsynth.check_reasons import check_reason
from synth.envsynth.daily_caps import with_daily_caps
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.first_entries import first_entries
from synth.envsynth.flag_required import only_for_flagged
from synth.envsynth.kind_caps import kind_caps
from synth.envsynth.param_dates import described_clocks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import tool_text
from synth.envsynth.refused_for import refused_for
from synth.envsynth.removal_limits import removal_limits, tool_words
from synth.envsynth.settled_states import with_settled_states
from synth.envsynth.shape_code import holds
from synth.spec import ToolSpec

S, N, B = {"type": "string"}, {"type": "number"}, {"type": "boolean"}


def _obj(props: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "additionalProperties": {"type": "object", "properties": props}}


def passes(check: dict[str, Any], args: dict[str, Any], record: dict[str, Any], state: dict[str, Any]) -> bool:
    """The check as the generated tool runs it: its `when` guard (the templates' `holds`), then fg_check."""
    guard = check.get("when")
    if guard and not eval(holds(guard), {}, {"arguments": args, "record": record}):
        return True
    return bool(fg_check(check, args, record, state))


# --- a tariff code only for flagged boats; per-night services capped by the mooring's nights -------------------
CODE = {"type": "string", "description": "Tariff code, e.g. 'HX-TOW', 'HX-POWER'."}
PARAMS = {"mooring_id": S, "code": CODE, "quantity": {"type": "integer"}, "note": S}
SERVICE = {"type": "object", "properties": {"code": {**S, "x-references": "tariff"}, "quantity": N}}
MOORING = {"mooring_id": S, "boat_id": S, "nights": N, "status": S, "services": {"type": "array", "items": SERVICE}}
BASIS = {"type": "string", "x-enum": ["each", "per_night"]}
COLS = {"moorings": _obj(MOORING), "boats": _obj({"needs_pilot": B}), "tariff": _obj({"basis": BASIS, "price": N})}
BOATS = {"B1": {"needs_pilot": True}, "B2": {"needs_pilot": False}, "B3": {}}
TARIFF = {"HX-POWER": {"basis": "per_night"}, "HX-TOW": {"basis": "each"}, "HX-PILOT": {"basis": "each"}}
HARBOUR = {"boats": BOATS, "tariff": TARIFF}


def _flagged(text: str, params: dict[str, Any] = PARAMS) -> list[dict[str, Any]]:
    return only_for_flagged(text, params, MOORING, COLS)


def _pilot_refused_for(found: list[dict[str, Any]], code: str, boat: str) -> bool:
    return not all(passes(c, {"code": code}, {"boat_id": boat}, HARBOUR) for c in found)


def test_flag_paraphrases_refuse_the_code_for_an_unflagged_boat() -> None:
    for said in [
        "HX-PILOT is available only for boats flagged needs_pilot.",
        "HX-PILOT is allowed only for a boat marked as needs_pilot.",
        "`HX-PILOT` only for boats flagged `needs_pilot`.",
        "HX-PILOT (pilotage) only for boats flagged needs_pilot.",
        "HX-PILOT only for boat flagged needs_pilot.",
    ]:
        found = _flagged(said)
        assert _pilot_refused_for(found, "HX-PILOT", "B2"), said
        assert not _pilot_refused_for(found, "HX-PILOT", "B1"), said


def test_flag_near_misses_and_boundaries() -> None:
    assert _flagged("HX-PILOT only for boats not flagged needs_pilot.") == []  # the other way round
    assert _flagged("HX-PILOT is not only for boats flagged needs_pilot.") == []  # a negation
    assert _flagged("HX-PILOT only for skippers flagged needs_pilot.") == []  # another noun
    assert _flagged("VHF-16 only for boats flagged needs_pilot.") == []  # no parameter takes a code of that shape
    enum = {"mooring_id": S, "code": {"type": "string", "enum": ["HX-TOW", "HX-PILOT"]}}
    assert _flagged("HX-CRANE only for boats flagged needs_pilot.", enum) == []  # not in the enum
    two = {**PARAMS, "tug_code": {"type": "string", "description": "e.g. 'TG-ONE'."}}
    assert _flagged("HX-PILOT only for boats flagged needs_pilot.", two) == []  # which parameter is unclear
    (check,) = _flagged("HX-PILOT only for boats flagged needs_pilot.")
    assert fg_check(check, {"code": "HX-PILOT"}, {"boat_id": "B1"}, HARBOUR)  # flagged
    assert not fg_check(check, {"code": "HX-PILOT"}, {"boat_id": "B3"}, HARBOUR)  # flag not set: not flagged
    assert fg_check(check, {"code": "HX-TOW"}, {"boat_id": "B2"}, HARBOUR)  # another code
    assert fg_check(check, {}, {"boat_id": "B2"}, HARBOUR)  # no code given
    assert fg_check(check, {"code": "HX-PILOT"}, {"boat_id": "B9"}, HARBOUR)  # no such boat: another check's


@pytest.mark.xfail(strict=True, reason="'Only boats flagged X may take CODE' (subject first) is not read")
def test_flag_subject_first_phrasing() -> None:
    assert _pilot_refused_for(_flagged("Only boats flagged needs_pilot may take HX-PILOT."), "HX-PILOT", "B2")


@pytest.mark.xfail(strict=True, reason="'HX-PILOT and HX-TOW only for ...' refuses only the last code")
def test_flag_two_codes_in_one_sentence() -> None:
    assert _pilot_refused_for(_flagged("HX-PILOT and HX-TOW only for boats flagged needs_pilot."), "HX-PILOT", "B2")


def _capped(text: str, params: dict[str, Any] = PARAMS) -> list[dict[str, Any]]:
    return kind_caps(text, params, MOORING, COLS)


def _power_refused(found: list[dict[str, Any]], quantity: int, nights: int = 3) -> bool:
    return not all(fg_check(c, {"code": "HX-POWER", "quantity": quantity}, {"nights": nights}, HARBOUR) for c in found)


def test_kind_cap_paraphrases_cap_per_night_services_at_the_nights() -> None:
    for said in [
        "Per-night services may not exceed the number of nights of the mooring.",
        "per night services must not exceed the nights in the mooring",
        "per-night extras cannot exceed the nights of the mooring",
        "per-night services can not exceed the nights of the moorings",
    ]:
        found = _capped(said)
        assert _power_refused(found, 4) and not _power_refused(found, 3), said


def test_kind_cap_near_misses_and_boundaries() -> None:
    assert _capped("per-night services cannot exceed the nights of the boat") == []  # not the mooring's number
    assert _capped("per-night services cannot exceed the berths of the mooring") == []  # no such number
    assert _capped("per-night services cannot exceed the status of the mooring") == []  # not a number
    assert _capped("per-night services can exceed the nights of the mooring") == []  # no negation: no cap
    assert _capped("per-week services cannot exceed the nights of the mooring") == []  # no such basis
    extra = {**PARAMS, "crew": {"type": "integer"}}
    assert _capped("per-night services cannot exceed the nights of the mooring", extra) == []  # which count?
    (cap,) = _capped("per-night services cannot exceed the nights of the mooring")
    assert fg_check(cap, {"code": "HX-TOW", "quantity": 9}, {"nights": 3}, HARBOUR)  # charged each
    assert fg_check(cap, {"code": "HX-WATER", "quantity": 9}, {"nights": 3}, HARBOUR)  # not in the tariff
    assert fg_check(cap, {"code": "HX-POWER", "quantity": 9}, {}, HARBOUR)  # nights not recorded
    assert fg_check(cap, {"code": "HX-POWER"}, {"nights": 3}, HARBOUR)  # no quantity given


def test_kind_cap_more_than() -> None:
    assert _power_refused(_capped("Per-night services cannot be more than the nights of the mooring."), 4)


@pytest.mark.xfail(strict=True, reason="'the nights of the mooring plus one' is read as the nights alone")
def test_kind_cap_plus_one() -> None:
    assert not _power_refused(_capped("Per-night services cannot exceed the nights of the mooring plus one."), 4)


# --- HH:MM times ---------------------------------------------------------------------------------------------------
def _clock(schema: dict[str, Any]) -> list[dict[str, Any]]:
    return described_clocks({"leaving_at": schema})


def test_clock_descriptions_read_and_not_read() -> None:
    assert _clock({"type": "string", "description": "Time the boat leaves, as `HH:MM`."}) != []
    assert _clock({"type": "string", "format": "time"}) != []
    assert _clock({"type": "integer", "description": "Minutes past midnight (rather than HH:MM)."}) == []
    assert _clock({"type": "string", "description": "Free text, e.g. 'leaving at 5pm'."}) == []


def test_clock_values_on_the_24_hour_clock() -> None:
    (check,) = _clock({"type": "string", "description": "HH:MM"})
    for value, ok in [("00:00", True), ("23:59", True), ("24:00", False), ("12:60", False), ("17:45 ", False)]:
        assert fg_check(check, {"leaving_at": value}, {}, {}) is ok, value
    assert not fg_check(check, {"leaving_at": "1745"}, {}, {}) and not fg_check(check, {"leaving_at": 1745}, {}, {})
    assert fg_check(check, {}, {}, {})  # left out


def test_clock_lower_case_form() -> None:
    assert _clock({"type": "string", "description": "Departure time in hh:mm (24h)."}) != []


def test_clock_with_seconds() -> None:
    assert all(fg_check(c, {"leaving_at": "17:45:30"}, {}, {}) for c in _clock({**S, "description": "HH:MM:SS"}))


def test_clock_inside_a_timestamp() -> None:
    found = _clock({**S, "description": "Departure, YYYY-MM-DDTHH:MM."})
    assert all(fg_check(c, {"leaving_at": "2031-03-01T17:45"}, {}, {}) for c in found)


# --- a payment capped at what the tab leaves outstanding ----------------------------------------------------------
def _tab(status: str, total: float, paid: float) -> dict[str, Any]:
    return {"status": status, "total": total, "amount_paid": paid}


TABS = {f"T{i}": _tab(*v) for i, v in enumerate([("paid", 40.0, 40.0), ("paid", 12.5, 12.5), ("open", 30.0, 0.0)], 1)}
TABS.update(T4=_tab("paid", 8.0, 8.0), T5=_tab("overdue", 25.0, 5.0))
TAB = {"tab_id": S, "status": {"type": "string", "x-enum": ["open", "overdue", "paid"]}, "total": N, "amount_paid": N}
TAB_SCHEMA = {"properties": {"tabs": _obj(TAB)}}
PAID = [{"from": "arg", "name": "tab_id"}, {"from": "const", "value": "amount_paid"}]
DELTA = {"from": "expr", "expr": {"plus": [{"arg": "amount"}]}}
ADJUST = {"op": "adjust", "collection": "tabs", "path": PAID, "delta": DELTA}
PAYING = ToolPlan(kind="recorded_update", collection="tabs", key_field="tab_id", key_param="tab_id", effects=[ADJUST])


def _owed(text: str) -> list[dict[str, Any]]:
    return with_settled_states(PAYING, TAB_SCHEMA, {"tabs": TABS}, text).checks


def _pays(checks: list[dict[str, Any]], amount: float, tab: str = "T5") -> bool:
    return all(fg_check(c, {"amount": amount}, TABS[tab], {"tabs": TABS}) for c in checks)


def test_owed_paraphrases_cap_the_payment_at_what_is_left() -> None:
    for said in [
        "The amount may not exceed the remaining amount.",
        "The amount must not exceed the unpaid balance.",
        "Pay at most the outstanding balance.",
        "A payment of no more than the remaining balance.",
        "The amount can not exceed the outstanding amount.",
    ]:
        checks = _owed(said)
        assert _pays(checks, 20.0) and not _pays(checks, 20.01), said  # 20.00 is left on T5


def test_owed_near_misses_and_boundaries() -> None:
    assert _owed("The amount may exceed the outstanding balance; the excess is kept as credit.") == []
    assert _owed("The amount is not capped at the outstanding balance.") == []
    assert _owed("Overpaying is allowed: the amount may be more than the outstanding balance.") == []
    checks = _owed("not more than the outstanding balance")
    assert _pays(checks, 30.0, "T3") and not _pays(checks, 30.01, "T3")
    assert all(fg_check(c, {}, TABS["T5"], {}) for c in checks)  # no amount given
    assert all(fg_check(c, {"amount": 99.0}, {"status": "open"}, {}) for c in checks)  # no numbers on the tab


def test_owed_cannot_be_more_than() -> None:
    assert not _pays(_owed("The amount cannot be more than the outstanding balance."), 20.01)


@pytest.mark.xfail(strict=True, reason="a cap said of refunds (another noun) caps the payment")
def test_owed_said_of_refunds() -> None:
    assert _owed("Refunds may not exceed the remaining amount; a payment may be any amount.") == []


@pytest.mark.xfail(strict=True, reason="'the outstanding balance plus 10.00' is read as the balance alone")
def test_owed_plus_a_margin() -> None:
    assert _pays(_owed("not more than the outstanding balance plus 10.00"), 30.0)  # 20.00 + 10.00


# --- a card limit on the number a call takes ----------------------------------------------------------------------
METHOD = {"type": "string", "enum": ["card", "skipper_purse", "cash"]}
SETTLE = {"tab_id": S, "method": METHOD}
DUE = {"remaining_due": N, "status": S}
TAKEN = "The full remaining_due is taken. "


def _limited(text: str, params: dict[str, Any] = SETTLE) -> list[tuple[str, float, str]]:
    return [(c["op"], c["value"], c["when"]["in"][0]) for c in capped_args(text, params, DUE)]


def test_card_limit_paraphrases() -> None:
    assert _limited(TAKEN + "The card limit of 1,200.00 per transaction applies.") == [("bound", 1200.0, "card")]
    assert _limited(TAKEN + "Card payments are limited to 900.00.") == [("bound", 900.0, "card")]
    assert _limited(TAKEN + "Card payments are capped at 900.00.") == [("bound", 900.0, "card")]
    assert _limited(TAKEN + "Cash is accepted up to 1,500 per payment.") == [("bound", 1500.0, "cash")]
    assert _limited("The whole `remaining_due` is charged. The `card` limit of 900 applies.") == [
        ("bound", 900.0, "card")
    ]
    said = "The card limit of 900.00 per transaction applies."
    assert _limited(said, {**SETTLE, "amount": N}) == [("arg_limit", 900.0, "card")]  # an amount argument


def test_card_limit_near_misses_and_boundaries() -> None:
    assert _limited(TAKEN + "There is no card limit of 900.00 any more.") == []
    assert _limited(TAKEN + "The cheque limit of 900.00 applies.") == []  # no method takes cheques
    assert _limited("The card limit of 900.00 per transaction applies.") == []  # the call takes what?
    (check,) = capped_args(TAKEN + "The card limit of 900.00 per transaction applies.", SETTLE, DUE)
    assert passes(check, {"method": "card"}, {"remaining_due": 900.0}, {})
    assert not passes(check, {"method": "card"}, {"remaining_due": 900.01}, {})
    assert passes(check, {"method": "skipper_purse"}, {"remaining_due": 5000.0}, {})
    assert passes(check, {"method": "card"}, {"status": "open"}, {})  # nothing due recorded


def test_card_limit_currency_sign() -> None:
    assert _limited(TAKEN + "The card limit of $900 per transaction applies.") == [("bound", 900.0, "card")]


@pytest.mark.xfail(strict=True, reason="a limit the text says was removed is read as in force")
def test_card_limit_removed() -> None:
    assert _limited(TAKEN + "The card limit of 900.00 was removed in 2030.") == []


# --- a daily cap over the day's logged entries --------------------------------------------------------------------
def _logging(field: str, event: str) -> ToolPlan:
    fields = {"date": {"from": "const", "value": "2031-03-01"}, "event": {"from": "const", "value": event}}
    item = {"fields": {**fields, field: {"from": "arg", "name": field}}}
    effect = {"op": "append", "field": "history", "items": [item]}
    keyed = {"key_field": "skipper_id", "key_param": "skipper_id"}
    return ToolPlan(kind="recorded_update", collection="skippers", effects=[effect], **keyed)


FUEL, DUES = _logging("litres", "fuel_purchase"), _logging("amount", "harbour_due")


def _most(text: str, shape: ToolPlan = FUEL, arg: str = "litres") -> list[float]:
    return [c["most"] for c in with_daily_caps(shape, text, arg).checks]


def test_daily_cap_paraphrases() -> None:
    assert _most("At most 200 litres per day.") == [200.0]
    assert _most("at most 1,200 litres per skipper per day") == [1200.0]
    assert _most("at most 200 litres per skippers per day") == [200.0]
    assert _most("A skipper may buy at most 200 litres per day.") == [200.0]
    assert _most("The daily limit is 200 litres.") == [200.0]
    assert _most("A daily fuel limit of 200 litres applies.") == [200.0]
    assert _most("at most $200 per skipper per day", DUES, "amount") == [200.0]
    assert _most("at most € 1,200.50 per skipper per day", DUES, "amount") == [1200.5]


def test_daily_cap_near_misses_and_boundaries() -> None:
    assert _most("There is no daily limit.") == []
    assert _most("at most 200 litres per skipper per week") == []  # not a day
    assert _most("at most 200 litres per skipper per sailing") == []
    assert _most("at most 200 litres per boat per day") == []  # another noun's cap
    assert _most("at most 200 litres per skipper per day", FUEL, "amount") == []  # not the logged argument
    (cap,) = with_daily_caps(FUEL, "at most 200 litres per skipper per day", "litres").checks
    today = {"date": "2031-03-01", "event": "fuel_purchase"}
    earlier, refund = {**today, "date": "2031-02-28", "litres": 190}, {**today, "event": "fuel_refund", "litres": 90}
    skipper = {"history": [{**today, "litres": 120}, {**today, "litres": 30.5}, today, earlier, refund]}
    assert fg_check(cap, {"litres": 49.5}, skipper, {}) and not fg_check(cap, {"litres": 49.6}, skipper, {})
    assert fg_check(cap, {"litres": 200}, {}, {}) and not fg_check(cap, {"litres": 200.5}, {}, {})  # no history
    assert fg_check(cap, {}, skipper, {})  # no litres given


def test_daily_cap_limited_to_a_day() -> None:
    assert _most("Fuel is limited to 200 litres a day.") == [200.0]


def test_daily_cap_no_more_than() -> None:
    assert _most("no more than 200 litres per skipper per day") == [200.0]


def test_daily_cap_negated_with_a_number() -> None:
    assert _most("There is no daily limit of 200 litres any more.") == []


def test_daily_cap_of_another_noun() -> None:
    assert _most("A skipper may make at most 2 sailings per day.") == []


def test_daily_cap_backquoted_noun() -> None:
    assert _most("at most 200 litres per `skipper` per day") == [200.0]


def test_daily_cap_number_word() -> None:
    assert _most("at most twenty litres per skipper per day") == [20.0]


# --- a value refused for kinds of linked boats --------------------------------------------------------------------
KIND = {"type": "string", "x-enum": ["club", "private"]}
BERTH_COLS = {
    "berths": _obj({"boat_id": S, "tow": B}),
    "boats": _obj({"kind": KIND, "credit_balance": N}),
    "levies": _obj({"boat_id": S, "status": {"type": "string", "x-enum": ["paid", "unpaid"]}}),
}
BERTH = BERTH_COLS["berths"]["additionalProperties"]["properties"]
ACTION = {"berth_id": S, "action": {"type": "string", "enum": ["tow", "moor"]}}
FLEET = {
    "boats": {"B1": {"kind": "club"}, "B2": {"kind": "private", "credit_balance": 19.99}, "B3": {"kind": "private"}},
    "levies": {"L1": {"boat_id": "B1", "status": "unpaid"}, "L2": {"boat_id": "B4", "status": "unpaid"}},
}


def _refused(text: str) -> list[dict[str, Any]]:
    return refused_for(text, ACTION, BERTH, BERTH_COLS)


def _tow_refused(found: list[dict[str, Any]], boat: str, state: dict[str, Any] = FLEET) -> bool:
    return not all(passes(c, {"action": "tow"}, {"boat_id": boat}, state) for c in found)


def test_refused_for_paraphrases() -> None:
    for said in [
        "tow is refused for club boats with an unpaid levy.",
        "'tow' is rejected for club boats with an unpaid levy.",
        "`tow` is not allowed for club boats with an unpaid levy.",
    ]:
        assert _tow_refused(_refused(said), "B1"), said
    for said in [
        "`tow` is refused for private boats with less than $20.00 credit.",
        "`tow` is refused for private boats with fewer than 20 credit.",
    ]:
        assert _tow_refused(_refused(said), "B2"), said
    levy, credit = "`tow` is refused for club boats with an unpaid levy", "`moor` is refused for private boats"
    two = levy + "; " + credit + " with less than 5.00 credit."
    assert [c["when"]["in"] for c in _refused(two)] == [["tow"], ["moor"]]
    assert _refused("`tow` is refused for private boats with less than €1,020.00 credit.")[0]["cond"]["below"] == 1020.0


def test_refused_for_near_misses_are_not_read() -> None:
    for said in [
        "`tow` is never refused for club boats with an unpaid levy.",
        "`tow` is no longer refused for club boats with an unpaid levy.",
        "`tow` is refused for club skippers with an unpaid levy.",  # another noun
        "`tow` is refused for navy boats with an unpaid levy.",  # no such kind
        "`tow` is refused for club boats with an overdue levy.",  # no such state
        "`tow` is refused for private boats with less than 20.00 fuel.",  # no such number
        "`haul` is refused for club boats with an unpaid levy.",  # no parameter takes it
    ]:
        assert _refused(said) == [], said


def test_refused_for_evaluates_on_small_states() -> None:
    found = _refused(
        "`tow` is refused for club boats with an unpaid levy and for private boats with less than 20.00 credit."
    )
    assert not _tow_refused(found, "B3")  # no credit recorded
    assert not _tow_refused(found, "B2", {**FLEET, "boats": {"B2": {"kind": "private", "credit_balance": 20.0}}})
    assert not all(passes(c, {"action": "tow"}, {"boat_id": "B2"}, FLEET) for c in found)  # 19.99 of credit
    assert all(passes(c, {"action": "moor"}, {"boat_id": "B1"}, FLEET) for c in found)  # another action
    assert not _tow_refused(found, "B1", {**FLEET, "levies": {"L1": {"boat_id": "B1", "status": "paid"}}})
    assert not _tow_refused(found, "B5", {**FLEET, "boats": {"B5": {"kind": "club"}}})  # L2 is another boat's


def test_refused_for_singular_noun() -> None:
    assert _tow_refused(_refused("`tow` is refused for a club boat with an unpaid levy."), "B1")


def test_refused_for_plural_condition() -> None:
    assert _tow_refused(_refused("`tow` is refused for club boats with unpaid levies."), "B1")


def test_refused_for_or_for() -> None:
    said = "`tow` is refused for club boats with an unpaid levy or for private boats with less than 20.00 credit."
    assert _tow_refused(_refused(said), "B1") and _tow_refused(_refused(said), "B2")


# --- limits on taking a crew hand off a charter -------------------------------------------------------------------
STATUS = {"type": "string", "x-enum": ["cancelled", "confirmed", "held"]}
CHARTER = {"kind": KIND, "status": STATUS, "sailing_date": {"type": "string", "format": "date"}, "crew": {}}
REMOVE = tool_words("removeCrewHand")


def _removal(text: str, words: list[str] = REMOVE) -> list[dict[str, Any]]:
    return removal_limits(text, words, "charters", CHARTER, "2031-03-01")


def test_removal_paraphrases() -> None:
    keeps = [{"op": "keeps", "least": 4, "when_field": "kind", "when_in": ["club"]}]
    assert _removal("Club charters cannot go below 4 sailors.") == keeps
    assert _removal("Club charters may not drop below four crew.") == keeps
    assert _removal("A club charter cannot go below four sailors.") == keeps
    for said in [
        "Removing crew hands from a confirmed charter is only allowed until one day before the sailing.",
        "Removing a crew hand from a confirmed charter is allowed until 1 day before the sailing date.",
    ]:
        (check,) = _removal(said)
        near = {"status": "confirmed", "sailing_date": "2031-03-02"}
        assert fg_check(check, {}, near, {}) and not fg_check(check, {}, {**near, "sailing_date": "2031-03-01"}, {})
        assert fg_check(check, {}, {"status": "held", "sailing_date": "2031-03-01"}, {})  # not confirmed
        assert fg_check(check, {}, {"status": "confirmed"}, {})  # no date recorded


def test_removal_near_misses_are_not_read() -> None:
    until = "Removing a crew hand from a confirmed charter is allowed until two days before the sailing."
    for said in [
        "Club moorings cannot go below four boats.",  # another record
        "Navy charters cannot go below four sailors.",  # no such kind
        "Club charters can go below four sailors.",  # no negation
        until.replace("before", "after"),
        until.replace("the sailing", "the launch"),  # no such date
        until.replace("confirmed", "sunk"),  # no such state
    ]:
        assert _removal(said) == [], said
    assert _removal(until, tool_words("addCrewHand")) == []  # another act


@pytest.mark.xfail(strict=True, reason="'cannot go below four knots' (a speed) is read as a least crew of four")
def test_removal_a_speed() -> None:
    assert _removal("Club charters cannot go below four knots in the harbour.") == []


def test_removal_twelve() -> None:
    keeps = [{"op": "keeps", "least": 12, "when_field": "kind", "when_in": ["club"]}]
    assert _removal("Club charters cannot go below twelve sailors.") == keeps


# --- the policy section found by the act its text names -----------------------------------------------------------
HAND = ToolSpec(name="removeCrewHand", description="Removes one crew hand.", parameters={"type": "object"})


def _policy(body: str, head: str = "## Changes to crews") -> str:
    return "# Desk\n\n## Fees\n- A fee of 5.00.\n\n" + head + "\n\n" + body + "\n"


def test_policy_section_named_by_its_act() -> None:
    for said in [
        "- Remove crew hands only with the skipper's word.",
        "- Removes the crew hand from the manifest.",
    ]:
        assert said in tool_text(HAND, _policy(said)), said
    # an item that mentions the act without opening with it may state another step's rule: left out
    assert "skipper" not in tool_text(HAND, _policy("- Never remove a crew hand without the skipper's word."))
    assert "skipper" not in tool_text(HAND, _policy("- Adding a crew hand needs the skipper's word."))
    assert "handbook" not in tool_text(HAND, _policy("- Removing a crew handbook is free."))
    two = _policy("- Removing a crew hand needs the skipper's word.") + "\n## Crew rotas\n\n- Removing a crew hand.\n"
    assert tool_text(HAND, two) == HAND.description  # two sections name it: which is unclear


@pytest.mark.xfail(strict=True, reason="the noun form 'Removal of a crew hand' does not name the act")
def test_policy_removal_noun() -> None:
    assert "skipper" in tool_text(HAND, _policy("- Removal of a crew hand needs the skipper's word."))


# --- the first log entry a create writes --------------------------------------------------------------------------
EXAMPLE = {"status": "open", "opened_on": "2031-02-11", "notes": [{"date": "2031-02-11", "note": "Survey opened"}]}
SURVEY = {"status": S, "opened_on": S, "notes": {"type": "array", "items": {"type": "object"}}}
OPENING = ToolPlan(kind="create", collection="surveys", initial_values={"status": "open", "opened_on": "2031-03-01"})


def _notes(said: str, example: dict[str, Any] = EXAMPLE, shape: ToolPlan = OPENING) -> Any:
    spec = ToolSpec("open_survey", said, {"type": "object"}, returns={"example": example})
    return first_entries(spec, shape, SURVEY).initial_values.get("notes")


def test_first_entry_paraphrases_and_near_misses() -> None:
    entry = [{"date": "2031-03-01", "note": "Survey opened"}]
    for said in ["with an initial `notes` entry", "with an opening note entry", "and writes one first notes entry"]:
        assert _notes("Opens a hull survey " + said + ".") == entry, said
    said = "Opens a hull survey with a first notes entry."
    assert _notes("Opens a hull survey with a first log entry.") is None  # no list of that name
    assert _notes(said, {**EXAMPLE, "notes": EXAMPLE["notes"] * 2}) is None  # which entry is first?
    assert _notes(said, {**EXAMPLE, "notes": []}) is None
    unset = ToolPlan(kind="create", collection="surveys", initial_values={"status": "open"})
    assert _notes(said, shape=unset) is None  # its date is no constant


def test_first_entry_negated() -> None:
    assert _notes("Opens a hull survey without a first notes entry.") is None


# --- the words of a refusal ---------------------------------------------------------------------------------------
def test_check_reasons_in_words() -> None:
    overdue = {"op": "refused_for", "value": "club", "collection": "boats", "cond": {"collection": "levies"}}
    overdue["cond"]["value"] = "overdue"
    assert check_reason(overdue) == "not for club boats with an overdue levy"
    below = {"op": "refused_for", "value": "private", "collection": "boats", "cond": {"field": "credit", "below": 20.0}}
    assert check_reason(below) == "not for private boats with credit below 20.00"
    card = {"op": "bound", "from": "self", "field": "remaining_due", "cmp": "<=", "value": 900.0}
    card["when"] = {"arg": "method", "in": ["card"]}
    assert check_reason(card) == "remaining_due above 900.00 for method card"
    nights = {"op": "arg_limit", "arg": "quantity", "expr": {"plus": [{"path": ["nights"]}]}, "while_named": {}}
    assert check_reason(nights) == "quantity exceeds the nights"
    pilot = {"op": "refused_if", "arg": "code", "in": ["HX-PILOT", "HX-TOW"], "if": {"collection": "ferries"}}
    pilot["if"].update(field="needs_pilot", unless=True)
    assert check_reason(pilot) == "code HX-PILOT or HX-TOW needs a ferry flagged needs_pilot"
