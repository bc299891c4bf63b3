"""The session-56 readers, alone and through the whole pipeline on a harbour desk (harbour words only): a tariff
code allowed "only for boats flagged needs_pilot", "per-night services cannot exceed the nights of the mooring"
for the codes the tariff prices per night, a time argument given as HH:MM, `log` as a creating verb, a payment
capped at what a tab leaves outstanding (and the key cases that pay within it), a card limit on the number a
call takes from its record, limits on taking a crew hand off a charter (a least crew for one kind, a state that
keeps its crew close to the sailing), the policy items that name the tool's act, a daily cap summed over
the day's logged entries, the first log entry a create writes as its documented example shows it, and a value
refused for kinds of linked records in a condition; and the words a refusal by these checks gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synth.envsynth.arg_limits import capped_args
from synth.envsynth.check_reasons import check_reason
from synth.envsynth.daily_caps import with_daily_caps
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.first_entries import first_entries
from synth.envsynth.flag_required import only_for_flagged
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.kind_caps import kind_caps
from synth.envsynth.param_dates import described_clocks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import tool_text
from synth.envsynth.priors import tool_priors
from synth.envsynth.refused_for import refused_for
from synth.envsynth.removal_limits import removal_limits, tool_words
from synth.envsynth.settled_states import with_settled_states
from synth.envsynth.testgen import TestCase
from synth.spec import ToolSpec
from tests.desks import harbour_desk

S, N, B = {"type": "string"}, {"type": "number"}, {"type": "boolean"}
CODE = {"type": "string", "description": "Tariff code, e.g. 'HX-TOW', 'HX-POWER'."}
COUNT = {"type": "integer", "description": "How many (nights for per-night services). Default 1."}
PARAMS = {"mooring_id": S, "code": CODE, "quantity": COUNT, "note": S}
SERVICE = {"type": "object", "properties": {"code": {**S, "x-references": "tariff"}, "quantity": N, "amount": N}}
MOORING = {"mooring_id": S, "boat_id": S, "nights": N, "status": S, "services": {"type": "array", "items": SERVICE}}
COLS = {
    "moorings": {"type": "object", "additionalProperties": {"type": "object", "properties": MOORING}},
    "boats": {"type": "object", "additionalProperties": {"type": "object", "properties": {"needs_pilot": B}}},
    "tariff": {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {"basis": {"type": "string", "x-enum": ["each", "per_night"]}, "price": N},
        },
    },
}
RULES = (
    "Rules: per-night services cannot exceed the nights of the mooring; HX-PILOT only for boats flagged needs_pilot."
)


def test_a_code_allowed_only_for_flagged_boats_reads_the_boat_the_mooring_links() -> None:
    own = COLS["moorings"]["additionalProperties"]["properties"]
    found = only_for_flagged(RULES, PARAMS, own, COLS)
    cond = {"collection": "boats", "via": "boat_id", "field": "needs_pilot", "unless": True}
    assert found == [{"op": "refused_if", "arg": "code", "in": ["HX-PILOT"], "if": cond}]
    state = {"boats": {"B1": {"needs_pilot": True}, "B2": {"needs_pilot": False}}}
    check, mooring = found[0], {"boat_id": "B2"}
    assert not fg_check(check, {"code": "HX-PILOT"}, mooring, state)  # B2 is not flagged
    assert fg_check(check, {"code": "HX-TOW"}, mooring, state)  # another code
    assert fg_check(check, {"code": "HX-PILOT"}, {"boat_id": "B1"}, state)
    assert only_for_flagged(RULES, {"mooring_id": S, "code": S}, own, COLS) == []  # no parameter takes the code
    assert only_for_flagged(RULES.replace("needs_pilot", "needs_tug"), PARAMS, own, COLS) == []  # no such flag
    with_enum = {"code": {"type": "string", "enum": ["HX-TOW", "HX-PILOT"]}, "tug": CODE}
    assert only_for_flagged(RULES, with_enum, own, COLS)[0]["arg"] == "code"  # the enum's, though `tug` is shaped


def test_a_count_capped_for_one_kind_of_tariff_entry_only() -> None:
    own = COLS["moorings"]["additionalProperties"]["properties"]
    found = kind_caps(RULES, PARAMS, own, COLS)
    when = {"collection": "tariff", "arg": "code", "field": "basis", "in": ["per_night"]}
    cap = {"op": "arg_limit", "arg": "quantity", "cmp": "<=", "expr": {"plus": [{"path": ["nights"]}]}}
    assert found == [{**cap, "while_named": when}]
    state = {"tariff": {"HX-POWER": {"basis": "per_night"}, "HX-TOW": {"basis": "each"}}}
    mooring = {"nights": 3}
    assert not fg_check(found[0], {"code": "HX-POWER", "quantity": 4}, mooring, state)
    assert fg_check(found[0], {"code": "HX-POWER", "quantity": 3}, mooring, state)
    assert fg_check(found[0], {"code": "HX-TOW", "quantity": 9}, mooring, state)  # charged each: no cap
    assert kind_caps(RULES.replace("of the mooring", "of the boat"), PARAMS, own, COLS) == []  # not this record
    assert kind_caps(RULES.replace("per-night", "per-week"), PARAMS, own, COLS) == []  # no tariff basis of that kind
    two_counts = {**PARAMS, "crew": {"type": "integer"}}
    assert kind_caps(RULES, two_counts, own, COLS) == []  # which number is capped is unclear


def test_a_time_given_as_hh_mm_is_held_to_the_24_hour_clock() -> None:
    params = {
        "mooring_id": S,
        "leaving_at": {"type": "string", "description": "Time the boat leaves the berth, HH:MM, 24-hour clock."},
        "tide": {"type": "string", "format": "time"},
        "note": {"type": "string", "description": "Free text, e.g. 'leaving at 5pm'."},
    }
    found = described_clocks(params)
    assert found == [{"op": "arg_clock", "arg": "leaving_at"}, {"op": "arg_clock", "arg": "tide"}]
    for value, ok in [("17:45", True), ("09:05", True), ("5:15pm", False), ("9:05", False), ("24:00", False)]:
        assert fg_check(found[0], {"leaving_at": value}, {}, {}) is ok, value
    assert fg_check(found[0], {}, {}, {})  # left out: another check's business


def test_log_opens_a_name_as_a_creating_verb_but_not_after_another_verb() -> None:
    spec = ToolSpec(name="log_sighting", description="Log a sighting of a loose buoy.", parameters={"type": "object"})
    assert tool_priors(spec).verb_kind == "create"
    read = ToolSpec(name="get_log", description="Read the harbour log.", parameters={"type": "object"})
    assert tool_priors(read).verb_kind == "get"


TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "add_mooring_service",
            "description": "Add a chargeable service to a reserved or occupied mooring, by tariff code: HX-TOW "
            "(towing) charged each; HX-POWER (shore power) charged per night; HX-PILOT (pilotage) charged each. "
            + RULES
            + " Returns the updated mooring.",
            "parameters": {"type": "object", "properties": PARAMS, "required": ["mooring_id", "code"]},
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_mooring",
            "description": "Get a mooring by id.",
            "parameters": {"type": "object", "properties": {"mooring_id": S}, "required": ["mooring_id"]},
        },
    },
]


def _service(code: str, quantity: int, price: float, note: str) -> dict[str, Any]:
    entry = {"code": code, "quantity": quantity, "unit_price": price, "amount": quantity * price}
    return {**entry, "note": note} if note else entry


def _data() -> dict[str, Any]:
    names = ["Ada", "Ines", "Tomas", "Bram"]
    boats = {f"B{i}": {"boat_id": f"B{i}", "name": n, "needs_pilot": i in (1, 3)} for i, n in enumerate(names, 1)}
    tariff = {
        "HX-TOW": {"code": "HX-TOW", "basis": "each", "price": 40.0},
        "HX-POWER": {"code": "HX-POWER", "basis": "per_night", "price": 6.0},
        "HX-PILOT": {"code": "HX-PILOT", "basis": "each", "price": 55.0},
        "HX-WATER": {"code": "HX-WATER", "basis": "per_night", "price": 2.0},
        "HX-CRANE": {"code": "HX-CRANE", "basis": "each", "price": 90.0},
    }
    moorings = {}
    for i, (boat, nights, status, services) in enumerate(
        [
            ("B1", 3, "reserved", [_service("HX-TOW", 1, 40.0, "at dawn")]),
            ("B2", 4, "occupied", [_service("HX-POWER", 2, 6.0, "")]),
            ("B2", 2, "departed", []),
            ("B1", 5, "occupied", [_service("HX-PILOT", 1, 55.0, "")]),
        ],
        start=1,
    ):
        key = f"M{i}"
        record = {"mooring_id": key, "boat_id": boat, "nights": nights, "status": status, "services": services}
        moorings[key] = record
    return {"boats": boats, "tariff": tariff, "moorings": moorings}


def test_the_desk_refuses_pilotage_for_an_unflagged_boat_and_power_past_the_nights(tmp_path: Path) -> None:
    env = harbour_desk(tmp_path, TOOLS, _data())

    def call(**arguments: Any) -> bool:
        return bool(env.step({"name": "add_mooring_service", "arguments": arguments}).info["ok"])

    assert not call(mooring_id="M2", code="HX-PILOT", quantity=1)  # Ines's boat is not flagged
    assert not call(mooring_id="M2", code="HX-POWER", quantity=5)  # 4 nights
    assert env.state["moorings"]["M2"]["services"] == _data()["moorings"]["M2"]["services"]
    assert call(mooring_id="M2", code="HX-POWER", quantity=4)
    assert call(mooring_id="M1", code="HX-PILOT", quantity=1)  # Ada's boat is flagged
    assert call(mooring_id="M2", code="HX-TOW", quantity=6)  # charged each: no cap
    assert env.state["moorings"]["M2"]["services"][-1]["code"] == "HX-TOW"


def _tab(key: str, status: str, total: float, paid: float) -> dict[str, Any]:
    return {"tab_id": key, "status": status, "total": total, "amount_paid": paid}


TABS = [
    _tab("T1", "paid", 40.0, 40.0),
    _tab("T2", "paid", 12.5, 12.5),
    _tab("T3", "open", 30.0, 0.0),
    _tab("T4", "paid", 8.0, 8.0),
    _tab("T5", "overdue", 25.0, 5.0),
]
TAB = {"tab_id": S, "status": {"type": "string", "x-enum": ["open", "overdue", "paid"]}, "total": N, "amount_paid": N}
TAB_SCHEMA = {"properties": {"tabs": {"type": "object", "additionalProperties": {"type": "object", "properties": TAB}}}}
PAYING = ToolPlan(
    kind="recorded_update",
    collection="tabs",
    key_field="tab_id",
    key_param="tab_id",
    effects=[
        {
            "op": "adjust",
            "collection": "tabs",
            "path": [{"from": "arg", "name": "tab_id"}, {"from": "const", "value": "amount_paid"}],
            "delta": {"from": "expr", "expr": {"plus": [{"arg": "amount"}]}},
        }
    ],
)


def test_a_payment_of_not_more_than_the_outstanding_balance_is_capped_at_what_is_left() -> None:
    said = "Take a payment; the amount may be partial but not more than the outstanding balance."
    sample = {"tabs": {t["tab_id"]: t for t in TABS}}
    capped = with_settled_states(PAYING, TAB_SCHEMA, sample, said)
    owed = {"plus": [{"path": ["total"]}], "minus": [{"path": ["amount_paid"]}], "digits": 2}
    assert capped.checks == [{"op": "arg_limit", "arg": "amount", "cmp": "<=", "expr": owed}]
    assert not fg_check(capped.checks[0], {"amount": 20.01}, TABS[4], sample)  # 20.00 is left on T5
    assert fg_check(capped.checks[0], {"amount": 20.0}, TABS[4], sample)
    assert with_settled_states(PAYING, TAB_SCHEMA, sample, "Take a payment.").checks == []  # nothing said
    assert with_settled_states(PAYING, TAB_SCHEMA, {"tabs": {}}, said).checks == []  # no settled state in the data


def test_a_key_case_pays_within_what_is_left_on_the_tab() -> None:
    capped = with_settled_states(
        PAYING, TAB_SCHEMA, {"tabs": {t["tab_id"]: t for t in TABS}}, "cannot exceed the remaining amount"
    )
    state = {"tabs": {t["tab_id"]: dict(t) for t in TABS}}
    case = TestCase("pay_tab", "x", state, {"tab_id": "T9", "amount": 70.0})
    made = existing_key_cases(capped, [case])
    assert len(made) == 1 and made[0].arguments["tab_id"] == "T1"
    t1 = made[0].state["tabs"]["T1"]
    assert t1["amount_paid"] == 0.0 and made[0].arguments["amount"] == 40.0  # nothing was left: paid from nothing
    assert fg_check(capped.checks[0], made[0].arguments, t1, made[0].state)
    part = TestCase("pay_tab", "x", {"tabs": {"T5": dict(TABS[4])}}, {"tab_id": "T9", "amount": 70.0})
    made = existing_key_cases(capped, [part])
    assert made[0].state["tabs"]["T5"]["amount_paid"] == 5.0 and made[0].arguments["amount"] == 20.0  # 20.00 left


def test_a_card_limit_caps_the_number_a_call_takes_from_its_record() -> None:
    params = {"tab_id": S, "method": {"type": "string", "enum": ["card", "skipper_purse"]}}
    own = {"remaining_due": N, "status": S}
    said = "Settle the tab in one payment. The full remaining_due is taken. The card limit of 900.00 per day applies."
    found = capped_args(said, params, own)
    assert found == [
        {
            "op": "bound",
            "from": "self",
            "field": "remaining_due",
            "cmp": "<=",
            "value": 900.0,
            "when": {"arg": "method", "in": ["card"]},
        }
    ]
    assert capped_args(said.replace("The full remaining_due is taken. ", ""), params, own) == []  # takes what?
    with_amount = {**params, "amount": N}
    assert capped_args(said, with_amount, own)[0]["op"] == "arg_limit"  # an amount argument: it is capped


CREW = {"type": "array", "items": {"type": "object", "properties": {"crew_id": S, "name": S}}}
CHARTER = {
    "charter_id": S,
    "kind": {"type": "string", "x-enum": ["club", "private"]},
    "status": {"type": "string", "x-enum": ["cancelled", "confirmed", "held"]},
    "sailing_date": {"type": "string", "format": "date"},
    "crew": CREW,
}
REMOVAL_POLICY = """## Changes to crews

- Removing a crew hand from a confirmed charter is allowed until two days before the sailing.
- Club charters cannot go below four sailors.
"""


def test_limits_on_taking_a_crew_member_off_a_charter() -> None:
    found = removal_limits(REMOVAL_POLICY, tool_words("removeCrewHand"), "charters", CHARTER, "2031-03-01")
    others = {"op": "value_is", "source": {"from": "record", "path": ["status"]}, "in": ["cancelled", "held"]}
    dated = {"op": "dated", "field": "sailing_date", "cmp": ">=", "value": "2031-03-03"}
    assert found == [
        {"op": "keeps", "least": 4, "when_field": "kind", "when_in": ["club"]},
        {"op": "any_of", "checks": [others, dated]},
    ]
    near = {"status": "confirmed", "sailing_date": "2031-03-02"}
    assert not fg_check(found[1], {}, near, {}) and fg_check(found[1], {}, {**near, "status": "held"}, {})
    assert fg_check(found[1], {}, {**near, "sailing_date": "2031-03-03"}, {})
    assert removal_limits(REMOVAL_POLICY, tool_words("removeCrewHand"), "charters", CHARTER, None) == found[:1]
    assert removal_limits(REMOVAL_POLICY, tool_words("addCrewHand"), "charters", CHARTER, "2031-03-01") == found[:1]
    assert removal_limits(REMOVAL_POLICY, tool_words("removeCrewHand"), "moorings", CHARTER, "2031-03-01") == []


def test_the_policy_items_naming_the_act_in_a_section_on_its_nouns() -> None:
    spec = ToolSpec(name="removeCrewHand", description="Removes one crew hand.", parameters={"type": "object"})
    policy = "# Desk\n\n## Fees\n- A fee of 5.00.\n\n" + REMOVAL_POLICY
    found = tool_text(spec, policy)
    assert "allowed until two days before the sailing" in found  # the item naming the act
    assert "Club charters cannot go below" not in found and "A fee of 5.00" not in found  # the section's others
    other = ToolSpec(name="renameCharter", description="Renames a charter.", parameters={"type": "object"})
    assert tool_text(other, policy) == other.description  # no section names renaming a charter
    workflow = "# Desk\n\n## Charter workflow\n1. Removing a crew hand needs the skipper's word.\n"
    assert tool_text(spec, workflow) == spec.description  # its heading is not on crews or hands


def _crew(n: int) -> list[dict[str, Any]]:
    return [{"crew_id": f"C{i}", "name": f"sailor {i}"} for i in range(1, n + 1)]


def test_a_key_case_keeps_a_club_charter_above_its_least_crew_with_ids_of_its_series() -> None:
    plan = ToolPlan(
        kind="item_remove",
        collection="charters",
        key_field="charter_id",
        key_param="charter_id",
        list_field="crew",
        item_key="crew_id",
        op_param="crew_id",
        checks=[{"op": "keeps", "least": 4, "when_field": "kind", "when_in": ["club"]}],
    )
    for kind, size in (("club", 5), ("private", 2)):
        charter = {"charter_id": "H1", "kind": kind, "status": "held", "sailing_date": "2031-04-01", "crew": _crew(2)}
        case = TestCase("removeCrewHand", "x", {"charters": {"H1": charter}}, {"charter_id": "H9", "crew_id": "C9"})
        made = existing_key_cases(plan, [case])
        crew = made[0].state["charters"]["H1"]["crew"]
        assert [c["crew_id"] for c in crew] == [f"C{i}" for i in range(1, size + 1)], kind


FUEL = ToolPlan(
    kind="recorded_update",
    collection="skippers",
    key_field="skipper_id",
    key_param="skipper_id",
    effects=[
        {
            "op": "append",
            "field": "history",
            "items": [
                {
                    "fields": {
                        "date": {"from": "const", "value": "2031-03-01"},
                        "event": {"from": "const", "value": "fuel_purchase"},
                        "litres": {"from": "arg", "name": "litres"},
                    }
                }
            ],
        }
    ],
)


def test_a_daily_cap_sums_the_days_logged_entries_of_the_kind() -> None:
    said = "Sell fuel to a skipper: at most 200 litres per skipper per day."
    capped = with_daily_caps(FUEL, said, "litres")
    cap = capped.checks[-1]
    assert cap == {
        "op": "day_cap",
        "list": "history",
        "kind": {"event": "fuel_purchase"},
        "date_field": "date",
        "today": "2031-03-01",
        "field": "litres",
        "arg": "litres",
        "most": 200.0,
    }
    skipper = {
        "history": [
            {"date": "2031-03-01", "event": "fuel_purchase", "litres": 150},
            {"date": "2031-02-28", "event": "fuel_purchase", "litres": 190},  # another day
            {"date": "2031-03-01", "event": "fuel_refund", "litres": 90},  # another kind
        ]
    }
    assert fg_check(cap, {"litres": 50}, skipper, {}) and not fg_check(cap, {"litres": 51}, skipper, {})
    assert with_daily_caps(FUEL, "A daily limit of 200.00 applies.", "litres").checks[-1]["most"] == 200.0
    assert with_daily_caps(FUEL, "at most 200 litres per mooring per day", "litres").checks == []  # another noun
    assert with_daily_caps(FUEL, said, "amount").checks == []  # the entry does not log that argument
    assert with_daily_caps(FUEL, "Sell fuel to a skipper.", "litres").checks == []


def test_a_create_writes_the_first_log_entry_its_example_shows() -> None:
    example = {
        "survey_id": "SV-0101",
        "status": "open",
        "opened_on": "2031-02-11",
        "hull": "cracked",
        "notes": [{"date": "2031-02-11", "status": "open", "note": "Survey opened"}],
    }
    spec = ToolSpec(
        name="open_survey",
        description="Opens a survey: a new survey with status `open`, `opened_on` = business date, and a first "
        "notes entry.",
        parameters={"type": "object", "properties": {"hull": S}},
        returns={"example": example},
    )
    own = {"status": S, "opened_on": S, "hull": S, "notes": {"type": "array", "items": {"type": "object"}}}
    plan = ToolPlan(kind="create", collection="surveys", initial_values={"status": "open", "opened_on": "2031-03-01"})
    made = first_entries(spec, plan, own)
    entry = {"date": "2031-03-01", "status": "open", "note": "Survey opened"}  # the business date, not the example's
    assert made.initial_values == {**plan.initial_values, "notes": [entry]}
    by_hull = {**example, "notes": [{"date": "2031-02-11", "note": "cracked"}]}
    copied = ToolSpec(spec.name, spec.description, spec.parameters, returns={"example": by_hull})
    assert first_entries(copied, plan, own) == plan  # a value of the call's `hull`: no constant entry
    plain = ToolSpec(spec.name, "Opens a survey.", spec.parameters, returns={"example": example})
    assert first_entries(plain, plan, own) == plan  # no first entry said


BERTH_COLS = {
    "berths": {"type": "object", "additionalProperties": {"type": "object", "properties": {"boat_id": S, "tow": B}}},
    "boats": {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {"kind": {"type": "string", "x-enum": ["club", "private"]}, "credit_balance": N},
        },
    },
    "levies": {
        "type": "object",
        "additionalProperties": {
            "type": "object",
            "properties": {"boat_id": S, "status": {"type": "string", "x-enum": ["paid", "unpaid"]}},
        },
    },
}


def test_a_value_refused_for_kinds_of_linked_records_in_a_condition() -> None:
    said = "`tow` is refused for club boats with an unpaid levy and for private boats with less than 20.00 credit."
    params = {"berth_id": S, "action": {"type": "string", "enum": ["tow", "moor"]}}
    own = BERTH_COLS["berths"]["additionalProperties"]["properties"]
    found = refused_for(said, params, own, BERTH_COLS)
    when = {"arg": "action", "in": ["tow"]}
    base = {"op": "refused_for", "via": "boat_id", "collection": "boats", "field": "kind"}
    unpaid = {"collection": "levies", "by": "boat_id", "field": "status", "value": "unpaid"}
    assert found == [
        {**base, "value": "club", "cond": unpaid, "when": when},
        {**base, "value": "private", "cond": {"field": "credit_balance", "below": 20.0}, "when": when},
    ]
    state = {
        "boats": {"B1": {"kind": "club", "credit_balance": 0.0}, "B2": {"kind": "private", "credit_balance": 19.5}},
        "levies": {"I1": {"boat_id": "B1", "status": "unpaid"}, "I2": {"boat_id": "B2", "status": "unpaid"}},
    }
    assert not fg_check(found[0], {"action": "tow"}, {"boat_id": "B1"}, state)  # a club boat with an unpaid levy
    assert fg_check(found[0], {"action": "tow"}, {"boat_id": "B2"}, state)  # a private boat: the other rule's
    assert not fg_check(found[1], {"action": "tow"}, {"boat_id": "B2"}, state)  # 19.50 of credit
    paid = {**state, "levies": {"I1": {"boat_id": "B1", "status": "paid"}}}
    assert fg_check(found[0], {"action": "tow"}, {"boat_id": "B1"}, paid)
    assert refused_for(said.replace("`tow`", "`haul`"), params, own, BERTH_COLS) == []  # no parameter takes it


def test_a_refusal_says_the_rule_it_broke_in_words_safe_for_generated_code() -> None:
    flagged = {"op": "refused_if", "arg": "code", "in": ["HX-PILOT"], "if": {"collection": "boats", "unless": True}}
    assert check_reason({**flagged, "if": {**flagged["if"], "field": "needs_pilot"}}) == (
        "code HX-PILOT needs a boat flagged needs_pilot"
    )
    unpaid = {"collection": "levies", "value": "unpaid"}
    found = {"op": "refused_for", "value": "club", "collection": "boats", "cond": unpaid}
    assert check_reason(found) == "not for club boats with an unpaid levy"
    assert check_reason({"op": "arg_clock", "arg": "leaving_at"}) == "leaving_at must be HH:MM, 24-hour clock"
    assert check_reason({"op": "day_cap", "most": 200.0}) == "daily limit of 200.00 reached"
    assert check_reason({"op": "overlap"}) == "overlap check"  # no words for it: as before
    quoted = {"op": "arg_clock", "arg": 'leaving_"at%\\'}
    assert check_reason(quoted) == "leaving_at must be HH:MM, 24-hour clock"  # nothing that breaks a literal
