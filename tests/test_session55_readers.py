"""Readers added in session 55, each on harbour words: a figure a top-up earns past a threshold, a fresh id of a
series the log entries share, a policy section whose heading holds the tool's words, a payment drawn from a balance
"by card or from the skipper's purse", a state the data shows when two numbers meet; and from recorded calls: what
a write answers from the entry it appended, an object it filled or the record it links, the object a list read
wraps its records in, and a field the data holds only as null that the calls fill."""

from __future__ import annotations

from typing import Any

from synth.envsynth.docs_entries import _entry_rule
from synth.envsynth.earned_figures import earned_figures
from synth.envsynth.id_series import fresh_ids, id_series, series_shape
from synth.envsynth.option_rules import or_from
from synth.envsynth.plan import ToolPlan
from synth.envsynth.policy_rules import tool_text
from synth.envsynth.series_runtime import fg_next_in_series
from synth.envsynth.settled_states import settled_state, with_settled_states
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_answers import answered_write
from synth.envsynth.trace_envelopes import recorded_list_envelope
from synth.envsynth.trace_schema import widened_schema
from synth.envsynth.traces import TraceCall
from synth.spec import ToolSpec
from tests.schemas import collection
from tests.tool_calls import run_calls

S, N = {"type": "string"}, {"type": "number"}
AMOUNT = {"type": "object", "properties": {"skipper_id": S, "amount": N}, "required": ["skipper_id", "amount"]}


def test_a_figure_earned_from_a_threshold_names_the_entry_field_it_fills() -> None:
    said = "A fuel purchase of 40 or more earns 2.00 bonus credit; the bonus is not counted in the daily cap."
    found = earned_figures(said, {"date", "ref", "amount", "bonus"}, AMOUNT, "fuel_purchase")
    assert found == {
        "bonus": {"from": "earned", "arg": "amount", "floor": 40.0, "strict": False, "value": 2.0, "else": 0.0}
    }
    over = earned_figures("Any haul over 500 gets a 25 rebate.", {"rebate"}, AMOUNT, "haul")["rebate"]
    assert over["strict"] is True and over["value"] == 25.0 and over["else"] == 0
    assert earned_figures(said, {"date", "amount"}, AMOUNT, "fuel_purchase") == {}  # no entry field of that word
    assert earned_figures(said, {"bonus"}, AMOUNT, "haul") == {}  # the subject names neither the kind nor `amount`
    two = {"type": "object", "properties": {"amount": N, "litres": N}}
    assert earned_figures(said, {"bonus"}, two, "fuel_purchase") == {}  # which number it measures is unclear


def test_ids_of_one_series_and_the_next_one_across_the_state() -> None:
    assert id_series(["PT-0101", "PT-0102", "PT-0104"]) == {"prefix": "PT-", "digits": 4}
    assert id_series(["PT-0101", "PT-0101"]) is None  # one value twice: no fresh id in each
    assert id_series(["PT-0101", "RX-0102"]) is None and id_series(["P1", "P2"]) is None
    assert series_shape("SL-042") == {"prefix": "SL-", "digits": 3} and series_shape("storm") is None
    state = {
        "skippers": {
            "S1": {"history": [{"ref": "PT-0101"}, {"ref": "PT-0107"}], "purse": {"last": "PT-0109"}},
            "S2": {"history": [{"ref": "HX-0900"}, {"note": "PT-0200"}]},
        }
    }
    assert fg_next_in_series(state, "ref", "PT-", 4) == "PT-0108"  # entries' `ref` only (the object has no `ref`)
    assert fg_next_in_series(state, None, "PT-", 4) == "PT-0201"  # any key of an entry or an object
    assert fg_next_in_series({}, "ref", "PT-", 4) == "PT-0001"


def test_a_logged_entry_takes_the_next_reference_and_the_figure_it_earns() -> None:
    same = [
        {"date": "2031-02-0" + str(i), "event": "top_up", "ref": f"PT-010{i}", "amount": a, "bonus": b}
        for i, (a, b) in enumerate([(10.0, 0.0), (50.0, 2.0), (20.0, 0.0)], start=1)
    ]
    figures = earned_figures("A top-up of 40 or more earns 2.00 bonus credit.", {"bonus"}, AMOUNT, "top_up")
    texts = {**figures, **fresh_ids(same, frozenset({"S1", "S2"}))}
    rule = _entry_rule("event", "top_up", same, AMOUNT["properties"], ["amount"], [], "2031-03-01", texts=texts)
    assert rule is not None
    assert rule["fields"]["ref"] == {"from": "next_in_series", "field": "ref", "prefix": "PT-", "digits": 4}
    assert rule["fields"]["bonus"]["from"] == "earned" and rule["fields"]["amount"] == {"from": "arg", "name": "amount"}
    assert _entry_rule("event", "top_up", same, AMOUNT["properties"], ["amount"], [], "2031-03-01") is None  # bonus
    assert fresh_ids(same, frozenset({"PT-0101"})) == {}  # a value that keys a record names it: no fresh id


def test_a_policy_section_whose_heading_holds_every_word_of_the_tools_name() -> None:
    policy = (
        "# Harbour desk\n\n## 2. Moorings\nBerths are let by the night.\n\n"
        "## 3. Holding-tank pump-outs\nA pump-out costs 8.00.\n"
    )
    spec = ToolSpec("pump_out", "Pump out a boat's holding tank.", {"type": "object", "properties": {}})
    assert "A pump-out costs 8.00." in tool_text(spec, policy)
    other = ToolSpec("moor_boat", "Moor a boat.", {"type": "object", "properties": {}})
    assert "pump-out" not in tool_text(other, policy)  # no heading holds `moor` and `boat`


SKIPPERS = collection({"skipper_id": S, "name": S, "purse": N})
TABS = collection(
    {
        "tab_id": S,
        "skipper_id": S,
        "status": {"type": "string", "x-enum": ["disputed", "open", "overdue", "paid"]},
        "total": N,
        "amount_paid": N,
    }
)
TAB_SCHEMA = {"type": "object", "properties": {"skippers": SKIPPERS, "tabs": TABS}}
PAY_TAB = ToolSpec(
    "pay_tab",
    "Take a payment against an open tab, by card or from the skipper's purse. Returns the tab.",
    {
        "type": "object",
        "properties": {"tab_id": S, "amount": N, "method": {"type": "string", "enum": ["card", "skipper_purse"]}},
        "required": ["tab_id", "amount", "method"],
    },
)


def _tab(key: str, status: str, total: float, paid: float) -> dict[str, Any]:
    return {"tab_id": key, "skipper_id": "S1", "status": status, "total": total, "amount_paid": paid}


def _tabs_state() -> dict[str, Any]:
    tabs = [
        _tab("T1", "paid", 40.0, 40.0),
        _tab("T2", "paid", 12.5, 12.5),
        _tab("T3", "open", 30.0, 0.0),
        _tab("T4", "paid", 8.0, 8.0),
        _tab("T5", "overdue", 25.0, 5.0),
        _tab("T6", "disputed", 9.0, 0.0),
    ]
    return {
        "skippers": {"S1": {"skipper_id": "S1", "name": "Ines", "purse": 20.0}},
        "tabs": {t["tab_id"]: t for t in tabs},
    }


def test_a_payment_by_card_or_from_a_purse_must_be_covered_and_takes_it_off() -> None:
    found = or_from(PAY_TAB, "tabs", "tab_id", TAB_SCHEMA, PAY_TAB.description)
    when = {"arg": "method", "in": ["skipper_purse"]}
    assert [f["op"] for f in found] == ["enough", "adjust"] and all(f["when"] == when for f in found)
    assert found[0]["field"] == "purse" and found[0]["amount"] == {"plus": [{"arg": "amount"}]}
    plain = ToolSpec("pay_tab", "Take a payment by card or cash.", PAY_TAB.parameters)
    assert or_from(plain, "tabs", "tab_id", TAB_SCHEMA, plain.description) == []


def test_a_state_the_data_shows_exactly_when_two_numbers_meet() -> None:
    records = list(_tabs_state()["tabs"].values())
    props = TAB_SCHEMA["properties"]["tabs"]["additionalProperties"]["properties"]
    assert settled_state(records, "amount_paid", props) == {
        "field": "status",
        "value": "paid",
        "bound": "total",
        "from": ["disputed", "open", "overdue"],
    }
    assert settled_state(records[:4], "amount_paid", props) is None  # one record apart: too few to tell
    mixed = records + [_tab("T7", "open", 5.0, 5.0)]
    assert settled_state(mixed, "amount_paid", props) is None  # an open tab paid in full: no such rule


def test_a_payment_that_meets_the_total_settles_the_tab_and_a_purse_pays_only_what_it_holds() -> None:
    found = or_from(PAY_TAB, "tabs", "tab_id", TAB_SCHEMA, PAY_TAB.description)
    plan = ToolPlan(
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
            },
            found[1],
        ],
        checks=[found[0]],
    )
    settled = with_settled_states(plan, TAB_SCHEMA, _tabs_state())
    assert settled.effects[-1]["op"] == "threshold" and settled.effects[-1]["bound_field"] == "total"

    def after(tab: str, paid: float, status: str, purse: float) -> dict[str, Any]:
        state = _tabs_state()
        state["tabs"][tab].update(amount_paid=paid, status=status)
        state["skippers"]["S1"]["purse"] = purse
        return state

    run_calls(
        PAY_TAB,
        settled,
        TAB_SCHEMA,
        _tabs_state,
        [
            ({"tab_id": "T3", "amount": 30.0, "method": "card"}, after("T3", 30.0, "paid", 20.0)),
            ({"tab_id": "T5", "amount": 10.0, "method": "skipper_purse"}, after("T5", 15.0, "overdue", 10.0)),
            ({"tab_id": "T5", "amount": 20.0, "method": "skipper_purse"}, after("T5", 25.0, "paid", 0.0)),
            ({"tab_id": "T3", "amount": 25.0, "method": "skipper_purse"}, None),  # the purse holds 20.00
        ],
    )


def _case(state: dict[str, Any], arguments: dict[str, Any], result: Any, changes: list[dict[str, Any]]) -> TestCase:
    return TestCase(
        "x",
        "recorded",
        state,
        arguments,
        expect_error=False,
        expect_result=result,
        has_expected_result=True,
        state_checks=[{"op": "changes", "changes": changes}],
    )


def _purses() -> dict[str, Any]:
    return {
        "skippers": {
            "S1": {"skipper_id": "S1", "club_id": "C1", "purse": 5.0, "history": [], "settled": None},
            "S2": {"skipper_id": "S2", "club_id": "C2", "purse": 0.0, "history": [], "settled": None},
        },
        "clubs": {"C1": {"club_id": "C1", "credit": 40.0}, "C2": {"club_id": "C2", "credit": 12.0}},
    }


def test_a_write_answers_the_entry_it_appended_the_object_it_filled_and_the_linked_record() -> None:
    cases = []
    for key, amount, ref, club in (("S1", 10, "PT-0108", "C1"), ("S2", 20, "PT-0108", "C2")):
        state = _purses()
        credit = state["clubs"][club]["credit"]
        changes = [
            {"path": f"/skippers/{key}/history/0/ref", "value": ref},
            {"path": f"/skippers/{key}/history/0/amount", "value": float(amount)},
            {"path": f"/skippers/{key}/settled", "value": {"slip": "SL-1", "amount": float(amount)}},
        ]
        answer = {"skipper_id": key, "ref": ref, "amount": float(amount), "slip": "SL-1", "credit": credit}
        cases.append(_case(state, {"skipper_id": key, "amount": amount}, answer, changes))
    fields, mapped = answered_write("skippers", "skipper_id", cases)
    assert fields == ["skipper_id", "ref", "amount", "slip", "credit"]
    assert mapped["ref"] == {"op": "end_entry", "path": ["history", "ref"], "last": True}
    assert mapped["amount"] == {"op": "end_entry", "path": ["history", "amount"], "last": True}  # 10.0, not 10
    assert mapped["slip"] == {"op": "nested", "path": ["settled", "slip"]}
    assert mapped["credit"] == {"op": "eq", "collection": "clubs", "via": "club_id", "path": ["credit"]}


def _berths() -> dict[str, Any]:
    berths = {
        f"B{i}": {"berth_id": f"B{i}", "pier_id": pier, "fee": fee, "paid": paid}
        for i, (pier, fee, paid) in enumerate([("P1", 10.0, 4.0), ("P1", 6.0, 6.0), ("P2", 8.0, 0.0)], start=1)
    }
    return {"berths": berths}


def test_a_list_read_wrapped_with_an_argument_and_a_sum_of_its_records() -> None:
    plan = ToolPlan(kind="filter", collection="berths", key_field="berth_id", filter_params=["pier_id"])
    state = _berths()

    def answered(pier: str) -> dict[str, Any]:
        rows = [dict(b, owed=b["fee"] - b["paid"]) for b in state["berths"].values() if b["pier_id"] == pier]
        return {"pier_id": pier, "berths": rows, "total_owed": sum(r["owed"] for r in rows), "count": len(rows)}

    cases = [_case(state, {"pier_id": p}, answered(p), []) for p in ("P1", "P2")]
    wrapped = recorded_list_envelope(plan, cases)
    assert wrapped is not None and wrapped.output_key == "berths"
    assert wrapped.envelope_extras == {
        "pier_id": {"op": "arg", "name": "pier_id"},
        "total_owed": {"op": "sum", "field": "owed"},
        "count": {"op": "count"},
    }
    assert wrapped.output_map["owed"]["op"] == "calc"  # each berth's owed: fee - paid
    bare = [_case(state, {"pier_id": "P1"}, answered("P1")["berths"], [])] * 2
    assert recorded_list_envelope(plan, bare) is None  # a bare list: no envelope


def test_a_field_null_in_the_data_is_typed_by_what_the_calls_write() -> None:
    schema = {"type": "object", "properties": {"skippers": collection({"settled": {"type": "null"}, "note": S})}}
    calls = [
        TraceCall("settle", "t1", 0, {}, True, {}, [{"path": "/skippers/S1/settled/slip", "value": "SL-1"}], {}),
        TraceCall("note", "t1", 1, {}, True, {}, [{"path": "/skippers/S1/note", "value": "late"}], {}),
    ]
    widened, notes = widened_schema(schema, calls)
    props = widened["properties"]["skippers"]["additionalProperties"]["properties"]
    assert props["settled"]["type"] == ["object", "null"] and props["note"] == S  # a typed field stays as it is
    assert notes == ["skippers.settled: null in every record of the data; typed object or null by the traces"]


def test_a_write_answers_the_whole_entry_a_renamed_state_and_what_is_still_owed() -> None:
    cases = []
    for key, amount, status in (("T3", 30.0, "paid"), ("T5", 10.0, "overdue")):
        state = _tabs_state()
        state["tabs"][key]["payments"] = []
        paid = state["tabs"][key]["amount_paid"] + amount
        entry = {"payment_id": "TP-0009", "amount": amount}
        changes = [
            {"path": f"/tabs/{key}/payments/0", "value": entry},
            {"path": f"/tabs/{key}/amount_paid", "value": paid},
            {"path": f"/tabs/{key}/status", "value": status},
        ]
        owed = state["tabs"][key]["total"] - paid
        answer = {"payment": entry, "tab_status": status, "owed": owed}
        cases.append(_case(state, {"tab_id": key, "amount": amount}, answer, changes))
    fields, mapped = answered_write("tabs", "tab_id", cases)
    assert fields == ["payment", "tab_status", "owed"]
    assert mapped["payment"] == {"op": "last_entry", "path": ["payments"]}
    assert mapped["tab_status"] == {"op": "renamed", "path": ["status"]}
    assert mapped["owed"]["op"] == "calc" and (mapped["owed"]["left"], mapped["owed"]["right"]) == (
        "total",
        "amount_paid",
    )
