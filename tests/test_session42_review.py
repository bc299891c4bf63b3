"""Review of session 42's readers (quote lines, shares and floors, line checks, state fees, given rules, checked
bullets): readings that misfire on other docs, crash on plausible schemas, or differ from their docstrings (xfail,
strict), beside the behaviours checked to be right. Every domain is a made-up harbour."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from synth.envsynth.allowed_states import not_from
from synth.envsynth.checked_bullets import checked_refusals
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.given_rules import with_given_rules
from synth.envsynth.key_cases import existing_key_cases
from synth.envsynth.lead_conditions import _valued
from synth.envsynth.line_checks import line_checks
from synth.envsynth.line_pricing import element_links
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

S, N, INT, B = {"type": "string"}, {"type": "number"}, {"type": "integer"}, {"type": "boolean"}


def _quote(docs: str, props: dict[str, Any], record: dict[str, Any], params: dict[str, Any], **kw: Any) -> ToolPlan:
    """A quote over one `piers` record named by `pier_id`."""
    schema = {"type": "object", "properties": {"piers": collection({"pier_id": S, **props})}}
    state = {"piers": {"P1": {"pier_id": "P1", **record}}}
    spec = ToolSpec("quote_berth", docs, {"type": "object", "properties": {"pier_id": S, **params}})
    return quote_plan(spec, ToolPlan(kind="get"), schema, state, **kw)


# formula_rules._figure: the `_Scope.pending` wait

RATE = {"nightly_rate": N}
NIGHTS = {"nights": INT}
MUTUAL = (
    "Quote a berth. Nothing is stored.\ndiscount = subtotal / 10.\n"
    "subtotal = nights x nightly_rate (before any discount).\ntotal = subtotal - discount.\n"
    "Returns {pier_id, nights, FIGURES}."
)


def test_figures_that_wait_on_each_other_are_found_when_the_needed_one_comes_first() -> None:
    plan = _quote(MUTUAL.replace("FIGURES", "subtotal, discount, total"), RATE, {"nightly_rate": 20.0}, NIGHTS)
    assert plan.kind == "quote"
    assert dict(plan.quote["steps"])["discount"] == {"op": "/", "args": [{"val": "subtotal"}, {"num": 10}]}


def test_figures_that_wait_on_each_other_are_found_whichever_is_listed_first() -> None:
    plan = _quote(MUTUAL.replace("FIGURES", "discount, subtotal, total"), RATE, {"nightly_rate": 20.0}, NIGHTS)
    assert plan.kind == "quote"


# quote_scope.SAME_AS: "rate" -> "price"


def test_a_rate_phrase_still_names_the_rate_beside_a_price_field() -> None:
    docs = "Quote a berth. Nothing is stored.\nfee = hours x the pier's rate.\ntotal = fee + 5.\n"
    docs += "Returns {pier_id, fee, total}."
    plan = _quote(docs, {"hourly_rate": N, "fuel_price": N}, {"hourly_rate": 20.0, "fuel_price": 1.5}, {"hours": INT})
    assert plan.kind == "quote"
    assert dict(plan.quote["steps"])["fee"]["args"][1] == {"field": "hourly_rate", "param": "pier_id"}


# percent_terms.unread / FLOOR

FLOORED = "Quote a berth. Nothing is stored.\nberth_fee = FORMULA.\ntotal = berth_fee + 5.\n"
FLOORED += "Returns {pier_id, berth_fee, total}."
MINIMUM = {"minimum_fee": N, "nightly_rate": N}


def test_a_floor_of_a_number_reads_as_the_larger_of_the_two() -> None:
    plan = _quote(
        FLOORED.replace("FORMULA", "nights x nightly rate, at least 5"), MINIMUM, {"nightly_rate": 1.5}, NIGHTS
    )
    assert dict(plan.quote["steps"])["berth_fee"]["op"] == "max"


def test_a_minimum_field_named_in_a_formula_is_no_floor() -> None:
    formula = "nights x the pier's nightly rate + the pier's minimum fee"
    plan = _quote(FLOORED.replace("FORMULA", formula), MINIMUM, {"minimum_fee": 20.0, "nightly_rate": 1.5}, NIGHTS)
    assert plan.kind == "quote"


# line_checks._retired

MOORING = {"mooring_id": S, "nightly_rate": N, "available": B}
NAMES = {"element": "berth", "record": "mooring"}


def test_docs_calling_the_line_record_retired_refuse_unavailable_ones() -> None:
    docs = "Quote berths. Retired moorings cannot be booked."
    checks = line_checks(docs, {"mooring_id": S, "nights": INT}, NAMES, MOORING, {})
    assert checks == [
        {"when": {"test": {"field": "available", "param": "mooring"}, "in": [False]}, "said": "Retired moorings"}
    ]


def test_an_archived_quote_says_nothing_of_moorings() -> None:
    docs = "Quote berths for a skipper. Quotes are archived after 30 days and an archived quote can still be read."
    assert line_checks(docs, {"mooring_id": S, "nights": INT}, NAMES, MOORING, {}) == []


# line_pricing.element_links

PIERS = {"piers": collection({"pier_id": S, "max_length": N}), "moorings": collection({"mooring_id": S})}
PIER_SAMPLE = {"piers": {"1": {"pier_id": "1", "max_length": 10.0}, "2": {"pier_id": "2", "max_length": 20.0}}}


def test_an_enum_of_a_collection_s_keys_links_its_records() -> None:
    services = {"harbour_services": collection({"code": S}), **PIERS}
    sample = {**PIER_SAMPLE, "harbour_services": {"wash": {"code": "wash"}, "polish": {"code": "polish"}}}
    element = {"mooring_id": S, "service": {"type": "string", "enum": ["none", "wash", "polish"]}}
    assert element_links(element, services, sample) == {"service": "harbour_services"}


def test_digit_enums_do_not_link_numerically_keyed_records() -> None:
    element = {"mooring_id": S, "deck": {"type": "string", "enum": ["1", "2", "3"]}}
    assert element_links(element, PIERS, PIER_SAMPLE) == {}


def test_an_enum_of_lists_does_not_crash_element_links() -> None:
    assert element_links({"mooring_id": S, "pair": {"enum": [["a", "b"], ["c"]]}}, PIERS, PIER_SAMPLE) == {}


def test_an_enum_of_objects_does_not_crash_valued() -> None:
    scope = SimpleNamespace(named={"pier_id": "piers"}, fields={"pier_id": {"spec": {"enum": [{"a": 1}]}}}, sample={})
    assert _valued("member", scope) is None


# key_cases: entries added so "the last line cannot be removed" still lets one go


def test_an_added_entry_keeps_an_integer_key_an_integer() -> None:
    plan = ToolPlan(kind="item_remove", collection="charters", key_param="charter_id", op_param="line_no")
    plan = ToolPlan.from_dict({**plan.to_dict(), "list_field": "lines", "item_key": "line_no"})
    plan = ToolPlan.from_dict({**plan.to_dict(), "checks": [{"op": "keeps", "least": 1}]})
    state = {"charters": {"C1": {"charter_id": "C1", "lines": [{"line_no": 1, "nights": 2}]}}}
    case = Case(tool="drop_berth", origin="property", state=state, arguments={"charter_id": "X", "line_no": 9})
    lines = existing_key_cases(plan, [case])[0].state["charters"]["C1"]["lines"]
    assert len(lines) == 2 and all(isinstance(line["line_no"], int) for line in lines)


# given_rules

GIVEN = "Update a haul-out.\n\n**Hull surcharges**: only with `action` = `haul`."


def _given(props: dict[str, Any] | None) -> ToolPlan:
    effect = {"op": "set", "field": "surcharge_amount", "source": {"from": "arg", "name": "surcharge_amount"}}
    plan = ToolPlan.from_dict(
        {"kind": "recorded_update", "collection": "haul_outs", "key_param": "haul_id", "effects": [effect]}
    )
    params = {"haul_id": S, "action": {"type": "string", "enum": ["haul", "launch"]}, "surcharge_amount": N}
    spec = ToolSpec("update_haul", GIVEN, {"type": "object", "properties": {**params, "surcharge_note": S}})
    record = {"type": "object"} if props is None else {"type": "object", "properties": props}
    schema = {"type": "object", "properties": {"haul_outs": {"type": "object", "additionalProperties": record}}}
    return with_given_rules(spec, plan, schema, {})


def test_a_group_rule_holds_only_while_the_group_is_given() -> None:
    plan = _given({"haul_id": S, "surcharge_amount": N})
    rule = [c for c in plan.checks if c["op"] == "value_is"]
    assert rule[0]["in"] == ["haul"] and rule[0]["given"] == {"any_given": ["surcharge_amount", "surcharge_note"]}
    assert [e["field"] for e in plan.effects] == ["surcharge_amount"]


def test_a_free_form_record_keeps_the_group_s_writes() -> None:
    assert [e["field"] for e in _given(None).effects] == ["surcharge_amount"]


# checked_bullets

SKIPPERS = {"skippers": collection({"skipper_id": S, "credit_score": INT, "balance_owed": N})}
QUOTE = {"named": {"skipper_id": "skippers"}, "steps": [["total", {"num": 1}]]}


def test_a_number_that_must_be_zero_is_checked_exactly() -> None:
    found = checked_refusals("Checks:\n- balance_owed must be 0.00\n", QUOTE, SKIPPERS, {})
    assert [r["said"] for r in found] == ["balance_owed must be 0.00"]
    assert found[0]["when"]["any"][0]["args"][1] == {"num": 0.0}


def test_a_lower_bound_bullet_is_no_equality() -> None:
    found = checked_refusals("Checks:\n- credit_score must be 600 or more\n", QUOTE, SKIPPERS, {})
    assert all("any" not in r["when"] for r in found)


# allowed_states.CANNOT_BE


def test_a_bullet_of_states_that_cannot_take_the_call_leaves_the_others() -> None:
    known = ["booked", "docked", "laid_up"]
    assert not_from("- booked: no fee.\n- docked or laid_up: cannot be cancelled", known) == ["booked"]
    assert not_from("Note: cannot be undone once the charter sails.", known) == []
