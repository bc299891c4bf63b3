"""Figures learned from recorded calls (--traces), session 57, on a harbour desk.

A quote of a tow: the rate by the boat's hull (a table keyed by text), the tugs a tow needs by its length in
minutes (a table keyed by a number the parameter's schema lists, one entry null), the price as the rate times the
minutes over 60, a skipper's prepaid hours kept inside an object only some skippers hold (0 for the others), and
two yes/no figures comparing the right figures (the credit against the price, not against a rate or a fixed fee
that agree by chance; the hours against the tugs, false when the tugs are null). The description says "With a
`skipper_id`, adds ...": the skipper's figures are left out of a call without one.

A payment that lists the moorings it released: the keys of another collection's records the call changed, learned
from the recorded changes and filled in by the rendered tool after the call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.optional_figures import added_with, optional_figures
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_answers import answered_write, changed_keys
from synth.envsynth.trace_learn import learned_variants
from synth.envsynth.trace_quotes import learned_quote
from synth.fidelity.diff import change_list, leaf_changes
from synth.spec import ToolSpec
from tests.recorded import recorded_cases
from tests.schemas import collection

S = {"type": "string"}
N = {"type": "number"}
HOURS = {"type": ["object", "null"], "properties": {"hours_left": N, "bought_on": S}}
SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": collection({"skipper_id": S, "credit": N, "prepaid": HOURS}),
    },
}
SKIPPERS = {
    "SK-1": {"skipper_id": "SK-1", "credit": 20.0, "prepaid": None},
    "SK-2": {"skipper_id": "SK-2", "credit": 0.0, "prepaid": None},
    "SK-3": {"skipper_id": "SK-3", "credit": 120.0, "prepaid": {"hours_left": 6, "bought_on": "2031-01-02"}},
    "SK-4": {"skipper_id": "SK-4", "credit": 95.0, "prepaid": None},
    "SK-5": {"skipper_id": "SK-5", "credit": 50.0, "prepaid": {"hours_left": 1, "bought_on": "2031-02-11"}},
}
RATES = {"mono": 44.0, "multi": 48.0}
TUGS = {60: 1, 90: None, 120: 2}
TOW = ToolSpec(
    "quote_tow",
    "Price a tow without booking it. With a `skipper_id`, adds what that skipper could pay it with.",
    {
        "type": "object",
        "properties": {
            "hull": {"type": "string", "enum": ["mono", "multi"]},
            "minutes": {"type": "integer", "enum": [60, 90, 120]},
            "skipper_id": S,
        },
        "required": ["hull", "minutes"],
    },
)


def _quote(hull: str, minutes: int, skipper: str | None) -> dict[str, Any]:
    price = RATES[hull] * minutes / 60
    out: dict[str, Any] = {"hull": hull, "minutes": minutes, "rate": RATES[hull], "price": price, "tugs": TUGS[minutes]}
    out["standby_fee"] = 35.0
    if skipper is not None:
        rec = SKIPPERS[skipper]
        hours = (rec["prepaid"] or {}).get("hours_left", 0)
        out |= {"skipper_id": skipper, "credit": rec["credit"], "hours_left": hours}
        out["credit_can_cover"] = rec["credit"] >= price
        out["hours_can_cover"] = TUGS[minutes] is not None and hours >= TUGS[minutes]
    return out


def _call(hull: str, minutes: int, skipper: str | None) -> Case:
    args = {"hull": hull, "minutes": minutes, **({"skipper_id": skipper} if skipper else {})}
    case = Case(TOW.name, "trace", {"skippers": SKIPPERS}, args, expect_error=False)
    case.expect_result, case.has_expected_result = _quote(hull, minutes, skipper), True
    return case


RECORDED = [
    _call("mono", 60, "SK-1"),
    _call("multi", 120, "SK-2"),
    _call("mono", 120, "SK-3"),
    _call("multi", 90, "SK-4"),
]


def _reproduced(plan: ToolPlan, cases: list[Case]) -> int:
    res, err = run_cases(render_tool(TOW, plan, SCHEMA), TOW.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" or res.passed < len(cases)
    return res.passed


def test_a_tow_quote_is_learned_with_its_tables_its_divisor_and_its_comparisons() -> None:
    plan = learned_quote(TOW, ToolPlan(kind="get"), RECORDED)
    assert plan is not None and plan.kind == "quote"
    steps = dict((name, node) for name, node in plan.quote["steps"])
    assert steps["rate"] == {"table_arg": "hull", "values": {"mono": 44.0, "multi": 48.0}}
    assert steps["tugs"] == {"table_arg": "minutes", "values": {"60": 1, "120": 2, "90": None}}
    assert steps["price"]["op"] == "/" and steps["price"]["args"][1] == {"num": 60}
    assert steps["hours_left"] == {"path": ["prepaid", "hours_left"], "param": "skipper_id", "default": 0}
    credit = steps["credit_can_cover"]
    assert {"val": "price"} in credit["args"] and {"val": "credit"} in credit["args"]  # not the rate, not the fee
    hours = steps["hours_can_cover"]
    assert {"val": "tugs"} in hours["args"] and {"val": "hours_left"} in hours["args"] and hours["none"] is False
    assert _reproduced(plan, RECORDED) == 4
    unseen = [_call("multi", 60, "SK-5"), _call("mono", 90, "SK-3"), _call("multi", 120, "SK-1")]
    assert _reproduced(plan, unseen) == 3


def test_the_skippers_figures_are_left_out_of_a_call_without_one() -> None:
    plan = learned_quote(TOW, ToolPlan(kind="get"), RECORDED)
    assert plan is not None
    left_out = plan.quote["optional"]
    assert set(left_out) == {"skipper_id", "credit", "hours_left", "credit_can_cover", "hours_can_cover"}
    assert _reproduced(plan, [_call("mono", 60, None), _call("multi", 90, None)]) == 2
    plain = ToolSpec(TOW.name, "Price a tow without booking it.", TOW.parameters)  # no such sentence: kept
    kept = learned_quote(plain, ToolPlan(kind="get"), RECORDED)
    assert kept is not None and "optional" not in kept.quote


def test_added_with_reads_the_phrasings_and_only_optional_parameters() -> None:
    params, required = ["hull", "skipper_id", "berth_id"], ["hull"]
    for text in (
        "With a `skipper_id`, adds what that skipper could pay it with.",
        "With skipper_id given, it also shows the skipper's credit.",
        "If skipper_id is given, the answer also includes the skipper's hours.",
        "When a skipper_id is passed, the quote also lists the skipper's credit.",
    ):
        assert added_with(text, params, required) == ["skipper_id"], text
    assert added_with("With a `hull`, adds the rate.", params, required) == []  # a required one: always there
    assert added_with("With a skipper_id the tow is refused when credit is short.", params, required) == []
    assert added_with("Charged with the skipper_id's card.", params, required) == []


def test_optional_figures_follow_the_figures_they_are_computed_from() -> None:
    steps = [
        ["credit", {"field": "credit", "param": "skipper_id"}],
        ["price", {"op": "*", "args": [{"arg": "minutes"}, {"num": 0.5}]}],
        ["covered", {"op": ">=", "args": [{"val": "credit"}, {"val": "price"}]}],
        ["club", {"field": "name", "param": "skipper_id.club_id"}],  # a record the skipper links
        ["tugs", {"table_arg": "minutes", "values": {"60": 1}}],
    ]
    assert optional_figures(steps, ["skipper_id"]) == {
        "credit": "skipper_id",
        "covered": "skipper_id",
        "club": "skipper_id",
    }
    assert optional_figures(steps, []) == {}


# a payment that releases moorings held for non-payment


PAY = ToolSpec(
    "pay_dues",
    "Pay a harbour bill; once nothing is overdue the skipper's held moorings are released.",
    {"type": "object", "properties": {"bill_id": S, "amount": N}, "required": ["bill_id", "amount"]},
)


def _pay(bill: str, amount: float, total: float, held: list[str]) -> dict[str, Any]:
    moorings = {m: {"mooring_id": m, "status": "held"} for m in ("M1", "M2", "M3")}
    before = {"bills": {bill: {"bill_id": bill, "total": total, "paid": 0.0, "status": "open"}}, "moorings": moorings}
    paid = {"bill_id": bill, "total": total, "paid": amount, "status": "paid" if amount >= total else "open"}
    after = {"bills": {bill: paid}, "moorings": {**moorings, **{m: {"mooring_id": m, "status": "free"} for m in held}}}
    output = {"bill_id": bill, "bill_status": paid["status"], "released": sorted(held)}
    changes = change_list(leaf_changes(before, after))
    return {
        "name": PAY.name,
        "arguments": {"bill_id": bill, "amount": amount},
        "ok": True,
        "output": output,
        "changes": changes,
        "state": before,
    }


def test_a_payment_answers_the_moorings_it_released(tmp_path: Path) -> None:
    rows = [_pay("B1", 50.0, 50.0, ["M3", "M1"]), _pay("B2", 10.0, 40.0, []), _pay("B3", 30.0, 30.0, [])]
    recorded = recorded_cases(tmp_path / "t.jsonl", rows, PAY.name)
    fields, mapped = answered_write("bills", "bill_id", recorded)
    assert mapped["released"] == {"op": "changed_keys", "collection": "moorings"}
    assert mapped["bill_status"] == {"op": "renamed", "path": ["status"]}
    before = recorded[0].state
    assert changed_keys(before, {**before, "moorings": {}}) == {}  # removals are not changes
    plain = ToolPlan(kind="recorded_update", collection="bills", key_param="bill_id", fields=[])
    variants = [v for v in learned_variants(PAY, plain, recorded) if v.output_map.get("released")]
    assert variants
    code = render_tool(PAY, variants[0], {"type": "object", "properties": {}})
    assert "was_0 = copy.deepcopy(collection(env_state, 'moorings'))" in code
    assert "result['released'] = sorted(" in code


def test_no_released_keys_when_no_call_changed_any(tmp_path: Path) -> None:
    rows = [_pay("B2", 10.0, 40.0, []), _pay("B3", 30.0, 30.0, [])]
    recorded = recorded_cases(tmp_path / "t.jsonl", rows, PAY.name)
    assert answered_write("bills", "bill_id", recorded) is None  # an empty list every time: nothing to learn


# a "buy a pass" tool planned on the boat it names, whose recorded calls made a pass


def _bought(boat: str, kind: str, key: str | None, ok: bool = True) -> Case:
    state = {
        "boats": {b: {"boat_id": b, "name": b.lower()} for b in ("BT-1", "BT-2", "BT-3")},
        "passes": {"PS-1": {"pass_id": "PS-1", "boat_id": "BT-1", "kind": "week"}},
    }
    made = {"pass_id": key, "boat_id": boat, "kind": kind}
    changes = [] if key is None else [{"path": f"/passes/{key}", "value": made}]
    return Case(
        "buy_pass",
        "recorded",
        state,
        {"boat_id": boat, "kind": kind},
        expect_error=not ok,
        state_checks=[{"op": "changes", "changes": changes}],
    )


def test_a_plan_on_the_named_record_competes_with_a_create_where_the_calls_made_records() -> None:
    from synth.envsynth.collections import CollectionDraft
    from synth.envsynth.plan_choice import create_variant

    drafts = {
        "boats": CollectionDraft("boats", "boat", {"boat_id": S, "name": S}, "boat_id", key_format={"prefix": "BT-"}),
        "passes": CollectionDraft(
            "passes", "pass", {"pass_id": S, "boat_id": S, "kind": S}, "pass_id", key_format={"prefix": "PS-"}
        ),
    }
    spec = ToolSpec(
        "buy_pass", "Buy a season pass for a boat.", {"type": "object", "properties": {"boat_id": S, "kind": S}}
    )
    made = [_bought("BT-2", "week", "PS-2"), _bought("BT-3", "month", "PS-2"), _bought("BT-9", "week", None, ok=False)]
    for kind in ("update", "filter"):  # a change of the boat, or a read of passes: the calls made passes
        plan = ToolPlan(
            kind=kind, collection="boats" if kind == "update" else "passes", key_field="boat_id", key_param="boat_id"
        )
        variant = create_variant(spec, plan, made, drafts)
        assert variant is not None and variant.kind == "create" and variant.collection == "passes"
        assert variant.key_field == "pass_id" and variant.fields == ["boat_id", "kind"]
    plan = ToolPlan(kind="update", collection="boats", key_field="boat_id", key_param="boat_id")
    assert create_variant(spec, plan, made[:1], drafts) is None  # one made pass is no rule
    nothing = [_bought("BT-2", "week", None), _bought("BT-3", "week", None)]  # successes that made nothing
    assert create_variant(spec, plan, nothing, drafts) is None


def test_a_list_said_newest_first_is_ordered_by_its_first_date_field() -> None:
    from synth.envsynth.list_rules import dated_order

    invoices = {
        "IV-1": {"invoice_no": "IV-1", "period": "2031-01", "issued": "2031-02-01", "due": "2031-02-21"},
        "IV-2": {"invoice_no": "IV-2", "period": "2031-02", "issued": "2031-03-01", "due": "2031-03-21"},
    }
    assert dated_order("List a skipper's harbour invoices, newest first.", invoices) == ["-issued"]
    assert dated_order("List a skipper's harbour invoices, oldest first. Filter by status.", invoices) == ["issued"]
    for text in (
        "List a skipper's invoices with their history (list of {date, event}, newest first).",  # an entry list's order
        "List a skipper's invoices. Notes are shown newest first.",  # not the first sentence's order
        "List a skipper's invoices, newest first and unpaid ones on top.",
    ):
        assert dated_order(text, invoices) == [], text
    undated = {"IV-1": {"invoice_no": "IV-1", "period": "2031-01"}}
    assert dated_order("List a skipper's harbour invoices, newest first.", undated) == []


# a list of invoices wrapped with a total the docs restrict to some states


def _invoices() -> dict[str, Any]:
    rows = [("P1", "open", 10.0, 4.0), ("P1", "late", 6.0, 0.0), ("P2", "open", 8.0, 0.0), ("P2", "paid", 5.0, 5.0)]
    rows += [("P3", "disputed", 9.0, 0.0), ("P3", "open", 3.0, 1.0)]
    keyed = {
        f"IV-{i}": {"invoice_no": f"IV-{i}", "pier_id": p, "status": s, "fee": f, "paid": d}
        for i, (p, s, f, d) in enumerate(rows, 1)
    }
    return {"invoices": keyed}


def _listed(state: dict[str, Any], pier: str) -> Case:
    rows = [dict(r, owed=r["fee"] - r["paid"]) for r in state["invoices"].values() if r["pier_id"] == pier]
    due = sum(r["owed"] for r in rows if r["status"] in ("open", "late"))
    case = Case(
        "list_invoices",
        "recorded",
        state,
        {"pier_id": pier},
        expect_error=False,
        state_checks=[{"op": "changes", "changes": []}],
    )
    case.expect_result, case.has_expected_result = {"pier_id": pier, "invoices": rows, "total_due": due}, True
    return case


def test_a_wrapped_total_sums_only_the_states_its_sentence_names() -> None:
    from synth.envsynth.trace_envelopes import recorded_list_envelope

    plan = ToolPlan(kind="filter", collection="invoices", key_field="invoice_no", filter_params=["pier_id"])
    state = _invoices()
    said = "List a pier's invoices. total_due sums what is still owed on open and late invoices."
    seen = [_listed(state, "P1"), _listed(state, "P2")]  # every owed invoice open or late: the sum alone fits
    wrapped = recorded_list_envelope(plan, seen, said)
    assert wrapped is not None
    assert wrapped.envelope_extras["total_due"] == {"op": "sum", "field": "owed", "where": {"status": ["late", "open"]}}
    assert "where" not in recorded_list_envelope(plan, seen, "List a pier's invoices.").envelope_extras["total_due"]
    every = "List a pier's invoices. total_due sums what is owed on open, late, paid and disputed invoices."
    assert "where" not in recorded_list_envelope(plan, seen, every).envelope_extras["total_due"]  # all states: none
    wrong = "List a pier's invoices. total_due sums what is owed on disputed invoices."
    assert "where" not in recorded_list_envelope(plan, seen, wrong).envelope_extras["total_due"]  # the calls say no
    spec = ToolSpec("list_invoices", said, {"type": "object", "properties": {"pier_id": S}, "required": ["pier_id"]})
    schema = {
        "type": "object",
        "properties": {"invoices": collection({"invoice_no": S, "pier_id": S, "status": S, "fee": N, "paid": N})},
    }
    res, err = run_cases(
        render_tool(spec, wrapped, schema), spec.name, [_listed(state, "P3")], SchemaResult(schema, {}, {}, "docs")
    )
    assert res.passed == 1, err  # the disputed invoice is listed but not added to what is due


def test_the_nights_of_a_mooring_are_the_days_between_its_dates() -> None:
    spec = ToolSpec(
        "quote_mooring",
        "Price a mooring without booking it.",
        {"type": "object", "properties": {"arrive": S, "depart": S, "berth_id": S}, "required": ["arrive", "depart"]},
    )
    berths = {"B1": {"berth_id": "B1", "nightly": 30.0}, "B2": {"berth_id": "B2", "nightly": 42.5}}

    def call(arrive: str, depart: str, berth: str) -> Case:
        nights = (int(depart[-2:]) - int(arrive[-2:])) if arrive[:7] == depart[:7] else 3  # the dates below
        answer = {"arrive": arrive, "depart": depart, "nights": nights, "fee": nights * berths[berth]["nightly"]}
        case = Case(
            spec.name,
            "trace",
            {"berths": berths},
            {"arrive": arrive, "depart": depart, "berth_id": berth},
            expect_error=False,
        )
        case.expect_result, case.has_expected_result = answer, True
        return case

    recorded = [
        call("2031-05-01", "2031-05-04", "B1"),
        call("2031-05-10", "2031-05-12", "B2"),
        call("2031-05-30", "2031-06-02", "B1"),
    ]
    plan = learned_quote(spec, ToolPlan(kind="get"), recorded)
    assert plan is not None
    steps = dict((name, node) for name, node in plan.quote["steps"])
    read = [n.get("arg", n.get("val")) for n in steps["nights"]["days_between"]]  # the argument or its echo
    assert read == ["arrive", "depart"]  # across a month's end too


# a create that appends its new key to the named record's list, and writes no field the data shows elsewhere

RESERVE = ToolSpec(
    "reserve_berth",
    "Reserve a berth for a skipper.",
    {"type": "object", "properties": {"skipper_id": S, "berth_id": S}, "required": ["skipper_id", "berth_id"]},
)
RESERVE_PLAN = ToolPlan(
    kind="create",
    collection="reservations",
    key_field="reservation_id",
    fields=["skipper_id", "berth_id"],
    id_type="pattern",
    key_format={"prefix": "RV-", "digits": 3},
    initial_values={"cancelled_on": None},  # the docs' create writes an empty `cancelled_on`, as the data holds one
)
RESERVE_SCHEMA = {
    "type": "object",
    "properties": {
        "skippers": collection({"skipper_id": S, "reservation_ids": {"type": "array", "items": S}}),
        "reservations": collection(
            {
                "reservation_id": S,
                "skipper_id": S,
                "berth_id": S,
                "status": S,
                "cancelled_on": {"type": ["string", "null"]},
            }
        ),
    },
}


def _reserved(skipper: str, berth: str, held: list[str]) -> dict[str, Any]:
    old = {
        k: {
            "reservation_id": k,
            "skipper_id": "SK-9",
            "berth_id": "B9",
            "status": "cancelled",
            "cancelled_on": "2031-01-02",
        }
        for k in ("RV-001", "RV-002")
    }
    state = {"skippers": {skipper: {"skipper_id": skipper, "reservation_ids": list(held)}}, "reservations": old}
    made = {"reservation_id": "RV-003", "skipper_id": skipper, "berth_id": berth, "status": "held"}
    after = {
        "skippers": {skipper: {"skipper_id": skipper, "reservation_ids": held + ["RV-003"]}},
        "reservations": {**old, "RV-003": made},
    }
    return {
        "name": RESERVE.name,
        "arguments": {"skipper_id": skipper, "berth_id": berth},
        "ok": True,
        "output": made,
        "changes": change_list(leaf_changes(state, after)),
        "state": state,
    }


def test_a_create_appends_its_key_to_the_skippers_list_and_writes_only_the_recorded_fields(tmp_path: Path) -> None:
    from synth.envsynth.trace_creates import learned_creates
    from synth.envsynth.trace_learn import _any_source

    rows = [_reserved("SK-1", "B1", []), _reserved("SK-2", "B4", ["RV-001"]), _reserved("SK-1", "B2", ["RV-002"])]
    recorded = recorded_cases(tmp_path / "r.jsonl", rows, RESERVE.name)
    variants = learned_creates(RESERVE_PLAN, recorded, _any_source)
    appended = {"param": "skipper_id", "collection": "skippers", "field": "reservation_ids", "append_new_key": True}
    assert variants and all(appended in v.ref_sets for v in variants)
    kept = [v for v in variants if any(e["op"] == "learned_keep" for e in v.effects)]
    assert kept and all("cancelled_on" not in e["fields"] for v in kept for e in v.effects if e["op"] == "learned_keep")
    schema = SchemaResult(RESERVE_SCHEMA, {}, {}, "docs")

    def passed(plan: ToolPlan) -> int:
        res, _ = run_cases(render_tool(RESERVE, plan, RESERVE_SCHEMA), RESERVE.name, recorded, schema)
        return res.passed

    assert passed(kept[0]) == 3  # every recorded call, the skipper's list included
    assert max(passed(v) for v in variants if v not in kept) == 0  # `cancelled_on` written as null


def test_no_second_append_where_the_docs_plan_already_appends_the_new_key(tmp_path: Path) -> None:
    from synth.envsynth.trace_creates import learned_creates
    from synth.envsynth.trace_learn import _any_source

    rows = [_reserved("SK-1", "B1", []), _reserved("SK-2", "B4", ["RV-001"]), _reserved("SK-1", "B2", ["RV-002"])]
    recorded = recorded_cases(tmp_path / "r.jsonl", rows, RESERVE.name)
    appends = {
        "op": "member_append",
        "collection": "skippers",
        "via": "skipper_id",
        "list": "reservation_ids",
        "item": "reservation_id",
    }
    plan = ToolPlan.from_dict({**RESERVE_PLAN.to_dict(), "effects": [appends]})
    variants = learned_creates(plan, recorded, _any_source)
    assert variants and not any(s.get("append_new_key") for v in variants for s in v.ref_sets)
