"""Readers added in session 54 for a desk whose docs say little in the way the synthesis read before (harbour
words only): a skipper looked up by one of their boats' hull numbers, answered with every boat in full and their
dues added up; a boat managed by an `action` whose values are verbs (`suspend` leads to `suspended`, `lights_on`
sets a yes/no field), logging what the data's suspended boats log; a purse topped up ("Add credit to a skipper's
purse"); a tab paid by `pay_tab` (a `payments` entry, `amount_paid` kept as their sum); a plan "marked paid_off"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from synth.envsynth.collections import CollectionDraft
from synth.envsynth.entry_logs import data_appends, name_logged
from synth.envsynth.item_plan import item_edit_plan
from synth.envsynth.list_totals import summed_names
from synth.envsynth.mode_rules import _verb_state, mode_segments
from synth.envsynth.plan import PlanContext
from synth.envsynth.policy_rules import MARKED_AFTER_AND
from synth.envsynth.priors import tool_priors
from synth.envsynth.refusals import refused_kinds
from synth.envsynth.returns_shape import returned_fields
from synth.envsynth.transition_copies import _source
from synth.spec import ToolSpec
from tests.desks import harbour_desk


def _tool(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    parameters = {"type": "object", "properties": props, "required": required}
    return {"type": "function", "function": {"name": name, "description": description, "parameters": parameters}}


S = {"type": "string"}
TOOLS = [
    _tool(
        "get_skipper",
        "Look up a skipper by skipper id or by one of their boats' hull numbers (hull numbers may be given with "
        "spaces). Returns the skipper record (name, status, purse, dues and their dues_total, history) with every "
        "boat of the skipper in full.",
        {"skipper_id": S, "hull_no": S},
        [],
    ),
    _tool(
        "manage_boat",
        "Change a boat's berth state. suspend (reason storm or owner; the boat must be active) stops every service; "
        "reactivate brings a suspended boat back. lights_on / lights_off switch the berth lights. Returns the "
        "boat's status, suspension_reason and lights_enabled.",
        {
            "boat_id": S,
            "action": {"type": "string", "enum": ["suspend", "reactivate", "lights_on", "lights_off"]},
            "reason": {"type": "string", "enum": ["storm", "owner"]},
        },
        ["boat_id", "action"],
    ),
    _tool(
        "top_up_purse",
        "Add credit to a skipper's purse by card. Retired skippers cannot be topped up. Returns the skipper.",
        {"skipper_id": S, "amount": {"type": "number"}},
        ["skipper_id", "amount"],
    ),
]


def _boat(key: str, skipper: str, hull: str, status: str = "active", reason: str | None = None) -> dict[str, Any]:
    history = [{"date": "2031-01-02", "event": "moored"}]
    if status == "suspended":
        history.append({"date": "2031-02-0" + key[-1], "event": "suspended", "reason": reason})
    return {
        "boat_id": key,
        "skipper_id": skipper,
        "hull_no": hull,
        "status": status,
        "suspended_on": "2031-02-0" + key[-1] if status == "suspended" else None,
        "suspension_reason": reason,
        "lights_enabled": key in ("B1", "B4"),
        "history": history,
    }


def _data() -> dict[str, Any]:
    skippers = {
        f"S{i}": {
            "skipper_id": f"S{i}",
            "name": name,
            "status": "retired" if i == 4 else "active",
            "purse": float(5 * i),
            "dues": [{"date": "2031-02-01", "amount": 2.5 * i}, {"date": "2031-02-15", "amount": 1.0}],
            "history": [{"date": "2031-01-01", "event": "joined"}],
        }
        for i, name in enumerate(["Ines", "Tomas", "Ada", "Bram"], start=1)
    }
    boats = {
        "B1": _boat("B1", "S1", "HX 1001"),
        "B2": _boat("B2", "S1", "HX 1002", "suspended", "storm"),
        "B3": _boat("B3", "S2", "HX 1003", "suspended", "owner"),
        "B4": _boat("B4", "S3", "HX 1004"),
        "B5": _boat("B5", "S2", "HX 1005", "suspended", "storm"),
        "B6": _boat("B6", "S4", "HX 1006"),
        "B7": _boat("B7", "S3", "HX 1007", "suspended", "owner"),
    }
    return {"skippers": skippers, "boats": boats}


def _desk(tmp_path: Path) -> Any:
    return harbour_desk(tmp_path, TOOLS, _data())


def test_a_skipper_found_by_a_hull_number_with_every_boat_and_the_dues_added_up(tmp_path: Path) -> None:
    env = _desk(tmp_path)
    found = env.step({"name": "get_skipper", "arguments": {"hull_no": "HX1003"}})
    assert found.info["ok"], found.observation
    skipper = found.info["result"]
    assert skipper["skipper_id"] == "S2" and skipper["dues_total"] == 6.0
    assert [b["boat_id"] for b in skipper["boats"]] == ["B3", "B5"] and skipper["boats"][0] == _data()["boats"]["B3"]
    missing = env.step({"name": "get_skipper", "arguments": {"hull_no": "HX 9999"}})
    assert not missing.info["ok"]


def test_an_action_spelt_as_a_verb_leads_to_its_state_and_logs_as_the_data_does(tmp_path: Path) -> None:
    env = _desk(tmp_path)
    done = env.step({"name": "manage_boat", "arguments": {"boat_id": "B1", "action": "suspend", "reason": "owner"}})
    assert done.info["ok"], done.observation
    assert done.info["result"] == {
        "boat_id": "B1",
        "status": "suspended",
        "suspension_reason": "owner",
        "lights_enabled": True,
    }
    boat = env.state["boats"]["B1"]
    assert boat["history"][-1]["event"] == "suspended" and boat["history"][-1]["reason"] == "owner"
    again = env.step({"name": "manage_boat", "arguments": {"boat_id": "B3", "action": "suspend", "reason": "owner"}})
    assert not again.info["ok"]  # the boat must be active
    lit = env.step({"name": "manage_boat", "arguments": {"boat_id": "B4", "action": "lights_off"}})
    assert lit.info["ok"] and env.state["boats"]["B4"]["lights_enabled"] is False
    back = env.step({"name": "manage_boat", "arguments": {"boat_id": "B2", "action": "reactivate"}})
    assert back.info["ok"] and env.state["boats"]["B2"]["status"] == "active"


def test_credit_added_to_a_purse_and_refused_to_a_retired_skipper(tmp_path: Path) -> None:
    env = _desk(tmp_path)
    topped = env.step({"name": "top_up_purse", "arguments": {"skipper_id": "S1", "amount": 20}})
    assert topped.info["ok"], topped.observation
    assert env.state["skippers"]["S1"]["purse"] == 25.0
    assert not env.step({"name": "top_up_purse", "arguments": {"skipper_id": "S4", "amount": 20}}).info["ok"]


def test_bare_value_clauses_and_their_shared_clause() -> None:
    spec = ToolSpec("manage_boat", TOOLS[1]["function"]["description"], TOOLS[1]["function"]["parameters"])
    found = mode_segments(spec)
    assert found is not None and found[0] == "action"
    assert found[1]["suspend"].startswith("(reason storm or owner; the boat must be active)")
    assert found[1]["lights_on"] == found[1]["lights_off"]
    # a value that is a plain word of a sentence is no label when another value is not described
    loose = ToolSpec(
        "set_tide", "tide rises twice a day. Returns the berth.", {"properties": {"tide": {"enum": ["tide", "ebb"]}}}
    )
    assert mode_segments(loose) is None


def test_a_verb_leads_to_its_participle_and_on_off_to_a_flag() -> None:
    own = {
        "status": {"type": "string", "enum": ["afloat", "suspended", "active_hold"]},
        "lights_enabled": {"type": "boolean"},
    }
    assert _verb_state(own, "suspend") == {"status": "suspended"}
    assert _verb_state(own, "lights_off") == {"lights_enabled": False}
    assert _verb_state(own, "moor") is None
    assert _verb_state({"status": {"type": "string", "enum": ["active", "laid_up"]}}, "reactivate") == {
        "status": "active"
    }


def test_the_fields_a_possessive_returns_sentence_lists() -> None:
    names = [
        f.name for f in returned_fields("Sets it. Returns the boat's status, suspension_reason and lights_enabled.")
    ]
    assert names == ["boat_id", "status", "suspension_reason", "lights_enabled"]
    assert returned_fields("Returns the boat's crew, cargo and flags.") == []  # plain words: no fields


def test_a_refusal_in_the_tools_own_verb_and_a_plan_marked_without_is() -> None:
    props = {"status": {"type": "string", "enum": ["active", "retired"]}}
    said = "Retired skippers cannot be topped up."
    assert refused_kinds(said, "skipper", props, "top_up_purse") == {"status": ["active"]}
    assert refused_kinds(said, "skipper", props, "get_skipper") == {}
    found = MARKED_AFTER_AND.search("The lock is opened and the plan marked paid_off.")
    assert found is not None and found.group(1) == "paid_off"


def test_the_data_appends_a_log_entry_despite_one_remark_and_by_the_tools_name() -> None:
    boats = list(_data()["boats"].values())
    boats[1]["history"][-1]["note"] = "Gale warning"  # one entry with a remark of its own
    found = data_appends(boats, "status", "suspended", ["active"])
    assert found and found[0]["items"][0]["fields"]["event"] == {"from": "const", "value": "suspended"}
    skippers = list(_data()["skippers"].values())
    for s in skippers:
        s["history"].append({"date": "2031-02-20", "event": "top_up_purse", "amount": s["purse"]})
    item = {
        "type": "object",
        "properties": {"date": S, "event": {"type": "string", "x-enum": ["joined", "top_up_purse"]}},
    }
    props = {
        "history": {
            "type": "array",
            "items": {**item, "properties": {**item["properties"], "amount": {"type": "number"}}},
        }
    }
    params = {"type": "object", "properties": {"skipper_id": S, "amount": {"type": "number"}}}
    logged = name_logged("top_up_purse", "skipper", props, params, skippers, "2031-03-01")
    assert logged and logged[0]["field"] == "history"
    assert name_logged("pay_dues", "skipper", props, params, skippers, "2031-03-01") == []


def test_paying_a_tab_adds_an_entry_to_its_payments() -> None:
    n = {"type": "number"}
    payment = {"type": "object", "properties": {"payment_id": S, "date": S, "amount": n, "method": S}}
    tabs = CollectionDraft(
        "tabs",
        "tab",
        {"tab_id": S, "total": n, "amount_paid": n, "payments": {"type": "array", "items": payment}},
        key_field="tab_id",
    )
    ctx = PlanContext(collections={"tabs": tabs}, singletons={}, client=None)
    params = {"type": "object", "properties": {"tab_id": S, "amount": n, "method": S}, "required": ["tab_id"]}
    pay = ToolSpec("pay_tab", "Take a payment against an open tab.", params)
    plan = item_edit_plan(pay, tool_priors(pay), ctx, mutates=True)
    assert plan is not None and plan.kind == "item_add" and plan.list_field == "payments"
    assert sorted(plan.fields) == ["amount", "method"]
    settle = ToolSpec("settle_tab", "Settle a tab.", params)  # no `settlements` list: no entry
    assert item_edit_plan(settle, tool_priors(settle), ctx, mutates=True) is None


def test_a_number_every_record_holds_as_its_entries_sum() -> None:
    tabs = {
        f"T{i}": {
            "tab_id": f"T{i}",
            "total": 50.0,
            "amount_paid": float(sum(p)),
            "payments": [{"amount": a} for a in p],
        }
        for i, p in enumerate([[10, 5], [20], [1, 2, 3], []])
    }
    assert summed_names({"tabs": tabs}, "tabs", "payments") == ["amount_paid"]
    del tabs["T0"], tabs["T1"]
    assert summed_names({"tabs": tabs}, "tabs", "payments") == []  # two records say too little


def test_two_zeros_agreeing_are_no_copy() -> None:
    records = [{"skipper_id": "S1", "owed": 0.0}, {"skipper_id": "S2", "owed": 0.0}]
    sample = {"skippers": {"S1": {"purse": 0.0}, "S2": {"purse": 0.0}}}
    assert _source("owed", records, {"skipper_id": "skippers"}, sample) is None
    records[1]["owed"], sample["skippers"]["S2"]["purse"] = 4.0, 4.0
    assert _source("owed", records, {"skipper_id": "skippers"}, sample) == ("skipper_id", "skippers", "purse")
    records[0]["owed"], sample["skippers"]["S1"]["purse"] = 4.0, 4.0  # one value, not zero: still a copy
    assert _source("owed", records, {"skipper_id": "skippers"}, sample) == ("skipper_id", "skippers", "purse")
