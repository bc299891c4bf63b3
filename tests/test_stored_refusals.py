"""Refusals by stored records of another kind ("The skipper must not have the boat on charter", "no berth of the
boat may be 'free' at the skipper's home port"): read by stored_refusals.py as `none_stored` checks, evaluated by
list_runtime.fg_list_rule through expr_runtime.fg_check, added by item_rules.refine_item and run as generated code."""

from __future__ import annotations

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.item_rules import refine_item
from synth.envsynth.plan import ToolPlan
from synth.envsynth.stored_refusals import stored_refusals
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S = {"type": "string"}
CHARTER = {
    "charter_id": S,
    "boat_id": S,
    "skipper_id": S,
    "status": {"type": "string", "x-enum": ["active", "returned", "lost"]},
}
BERTH = {"berth_id": S, "boat_id": S, "port": S, "status": {"type": "string", "x-enum": ["free", "taken", "closed"]}}
SKIPPER = {"skipper_id": S, "home_port": S, "status": {"type": "string", "x-enum": ["cleared", "barred"]}}
COLS = {
    "boats": collection({"boat_id": S, "waiting_list": {"type": "array", "items": S}}),
    "charters": collection(CHARTER),
    "berths": collection(BERTH),
    "skippers": collection(SKIPPER),
}
SCHEMA = {"type": "object", "properties": COLS}
TEXT = (
    "Add a skipper to the end of a boat's waiting list. The skipper must not have the boat on charter, and no berth "
    "of the boat may be 'free' at the skipper's home port."
)
PARAMS = {"boat_id": S, "skipper_id": S}
JOIN = ToolSpec("join_waiting_list", TEXT, {"type": "object", "properties": PARAMS, "required": list(PARAMS)})
PLAN = ToolPlan(
    kind="item_add",
    collection="boats",
    key_field="boat_id",
    key_param="boat_id",
    op_param="skipper_id",
    list_field="waiting_list",
)
ON_CHARTER = {
    "op": "none_stored",
    "collection": "charters",
    "match": {"boat_id": {"own": "boat_id"}, "skipper_id": {"arg": "skipper_id"}},
    "where": {"status": ["active"]},  # returned and lost charters are over
}
FREE_BERTH = {
    "op": "none_stored",
    "collection": "berths",
    "match": {
        "boat_id": {"own": "boat_id"},
        "port": {"named": "skipper_id", "collection": "skippers", "field": "home_port"},
    },
    "where": {"status": ["free"]},
}


def _read(text: str = TEXT, cols: dict = COLS, params: dict = PARAMS, on: str = "boats", key: str = "boat_id"):
    return stored_refusals(text, on, key, params, cols)


def _state(charters: dict | None = None, berths: dict | None = None) -> dict:
    return {
        "boats": {b: {"boat_id": b, "waiting_list": []} for b in ("B1", "B2")},
        "charters": charters or {},
        "berths": berths or {},
        "skippers": {
            "K1": {"skipper_id": "K1", "home_port": "Split", "status": "cleared"},
            "K2": {"skipper_id": "K2", "home_port": "Hvar", "status": "cleared"},
        },
    }


def test_the_two_sentences_give_two_checks() -> None:
    assert _read() == [ON_CHARTER, FREE_BERTH]
    assert _read(TEXT.split(", and")[0] + ".") == [ON_CHARTER]  # only the charter sentence
    assert _read("Add a skipper. No berth" + TEXT.split("and no berth")[1]) == [FREE_BERTH]
    assert _read(TEXT.replace("must not have", "must not already have")) == [ON_CHARTER, FREE_BERTH]


def test_open_states_are_those_that_read_as_ongoing() -> None:
    states = ["active", "overdue", "returned", "lost", "cancelled", "done"]
    cols = {**COLS, "charters": collection({**CHARTER, "status": {"type": "string", "x-enum": states}})}
    assert _read(cols=cols)[0]["where"] == {"status": ["active", "overdue"]}
    ended = {**CHARTER, "status": {"type": "string", "x-enum": ["returned", "lost"]}}
    assert _read(cols={**COLS, "charters": collection(ended)}) == [FREE_BERTH]  # no open state left
    two = {**CHARTER, "kind": {"type": "string", "x-enum": ["sail", "motor"]}}
    assert _read(cols={**COLS, "charters": collection(two)}) == [FREE_BERTH]  # which closed field is the state?


def test_an_open_charter_of_the_skipper_for_the_boat_refuses() -> None:
    def ok(status: str, boat: str = "B1", skipper: str = "K1", asked: str = "K1") -> bool:
        charter = {"charter_id": "C1", "boat_id": boat, "skipper_id": skipper, "status": status}
        state = _state(charters={"C1": charter})
        record = state["boats"]["B1"]
        return fg_check(ON_CHARTER, {"boat_id": "B1", "skipper_id": asked}, record, state)

    assert ok("active") is False
    assert ok("returned") is True and ok("lost") is True
    assert ok("active", skipper="K2") is True  # another skipper's charter
    assert ok("active", boat="B2") is True  # another boat's charter
    assert ok("active", asked="K2") is True  # the call names another skipper
    assert fg_check(ON_CHARTER, {"boat_id": "B1", "skipper_id": "K1"}, {"boat_id": "B1"}, _state()) is True


def test_a_free_berth_at_the_skippers_home_port_refuses() -> None:
    def ok(status: str, port: str = "Split", boat: str = "B1", skipper: str = "K1") -> bool:
        berth = {"berth_id": "E1", "boat_id": boat, "port": port, "status": status}
        state = _state(berths={"E1": berth})
        return fg_check(FREE_BERTH, {"boat_id": "B1", "skipper_id": skipper}, state["boats"]["B1"], state)

    assert ok("free") is False  # K1's home port is Split
    assert ok("taken") is True and ok("closed") is True
    assert ok("free", port="Hvar") is True  # another port
    assert ok("free", port="Hvar", skipper="K2") is False  # K2's home port is Hvar
    assert ok("free", boat="B2") is True  # another boat's berth
    assert ok("free", skipper="K9") is True  # no stored skipper: no home port to compare
    state = _state(berths={"E1": {"berth_id": "E1", "boat_id": "B1", "port": None, "status": "free"}})
    state["skippers"]["K1"]["home_port"] = None  # a missing value matches nothing, not even another missing one
    assert fg_check(FREE_BERTH, {"boat_id": "B1", "skipper_id": "K1"}, state["boats"]["B1"], state) is True


def test_no_charter_check_without_the_stored_kind_its_id_or_a_second_id() -> None:
    def charter_checks(**kw) -> list:
        return [c for c in _read(**kw) if c["collection"] != "berths"]

    assert charter_checks(text=TEXT.replace("on charter", "on hire")) == []  # no `hires` collection
    no_boat = {k: v for k, v in CHARTER.items() if k != "boat_id"}
    assert charter_checks(cols={**COLS, "charters": collection(no_boat)}) == []  # charters name no boat
    no_skipper = {k: v for k, v in CHARTER.items() if k != "skipper_id"}
    assert charter_checks(cols={**COLS, "charters": collection(no_skipper)}) == []  # nothing but the boat to match
    assert charter_checks(params={"boat_id": S}) == []  # the call names no skipper


def test_no_berth_check_without_the_state_the_port_or_the_skipper() -> None:
    assert _read(TEXT.replace("'free'", "'vacant'")) == [ON_CHARTER]  # a value no closed field lists
    assert _read(TEXT.replace("home port", "mooring")) == [ON_CHARTER]  # no field the words name
    assert _read(TEXT.replace("skipper's", "owner's")) == [ON_CHARTER]  # no `owners` collection
    assert _read(params={"boat_id": S, "sailor_id": S}) == []  # no `skipper_id` argument for either check
    no_boat = {k: v for k, v in BERTH.items() if k != "boat_id"}
    assert _read(cols={**COLS, "berths": collection(no_boat)}) == [ON_CHARTER]  # berths name no boat
    two = {**BERTH, "kind": {"type": "string", "x-enum": ["free", "paid"]}}
    assert _read(cols={**COLS, "berths": collection(two)}) == [ON_CHARTER]  # 'free' on two closed fields


def test_the_boat_comes_from_an_argument_on_another_collection() -> None:
    cols = {**COLS, "marinas": collection({"marina_id": S, "queue": {"type": "array", "items": S}})}
    params = {"marina_id": S, "boat_id": S, "skipper_id": S}
    by_arg = {"boat_id": {"arg": "boat_id"}}
    assert _read(cols=cols, params=params, on="marinas", key="marina_id") == [
        {**ON_CHARTER, "match": {**ON_CHARTER["match"], **by_arg}},
        {**FREE_BERTH, "match": {**FREE_BERTH["match"], **by_arg}},
    ]
    params = {"marina_id": S, "skipper_id": S}
    assert _read(cols=cols, params=params, on="marinas", key="marina_id") == []  # the call names no boat


def test_refine_item_adds_the_checks_for_item_add_only() -> None:
    plan = refine_item(JOIN, PLAN, SCHEMA, TEXT)
    assert [c for c in plan.checks if c["op"] == "none_stored"] == [ON_CHARTER, FREE_BERTH]
    removal = ToolPlan.from_dict({**PLAN.to_dict(), "kind": "item_remove"})
    assert not [c for c in refine_item(JOIN, removal, SCHEMA, TEXT).checks if c["op"] == "none_stored"]


def test_the_generated_call_is_refused_by_the_stored_records() -> None:
    plan = refine_item(JOIN, PLAN, SCHEMA, TEXT)
    state = _state(
        charters={
            "C1": {"charter_id": "C1", "boat_id": "B1", "skipper_id": "K1", "status": "active"},
            "C2": {"charter_id": "C2", "boat_id": "B2", "skipper_id": "K2", "status": "returned"},
        },
        berths={
            "E1": {"berth_id": "E1", "boat_id": "B2", "port": "Split", "status": "free"},
            "E2": {"berth_id": "E2", "boat_id": "B2", "port": "Hvar", "status": "taken"},
        },
    )
    source = render_tool(JOIN, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    calls = [
        {"boat_id": "B1", "skipper_id": "K1"},  # K1 has B1 on an active charter
        {"boat_id": "B2", "skipper_id": "K1"},  # B2 has a free berth at K1's home port, Split
        {"boat_id": "B2", "skipper_id": "K2"},  # a returned charter; B2's berth at Hvar is taken
        {"boat_id": "B1", "skipper_id": "K2"},  # nothing stored against it
    ]
    outcomes = run_cases(module, [{"function": JOIN.name, "state": state, "arguments": a} for a in calls])
    assert [o.status for o in outcomes] == ["tool_error", "tool_error", "ok", "ok"]
    assert outcomes[0].state_after == state and outcomes[1].state_after == state
    assert outcomes[2].state_after["boats"]["B2"]["waiting_list"] == ["K2"]
    assert outcomes[3].state_after["boats"]["B1"]["waiting_list"] == ["K2"]


def test_a_one_word_place_followed_by_more_words() -> None:
    text = TEXT.replace("home port.", "port when it asks.")
    cols = {**COLS, "skippers": collection({**SKIPPER, "port": S})}
    ported = {**FREE_BERTH["match"]["port"], "field": "port"}
    assert _read(text, cols=cols) == [ON_CHARTER, {**FREE_BERTH, "match": {**FREE_BERTH["match"], "port": ported}}]
