"""Extras of a marina's catalogue that fit some boat classes only ("The roof rack only fits cruiser and ketch
classes"): read by fit_rules.py as a list check with `empty_passes`, evaluated by list_runtime.fg_list_rule through
expr_runtime.fg_check and added by item_rules.refine_item to item_add plans; and a recorded_update `set` of a number
constant that keeps a float field a float (0 written on 0.0 stays 0.0) in the generated code."""

from __future__ import annotations

import copy

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.fit_rules import fit_rules
from synth.envsynth.item_rules import refine_item
from synth.envsynth.list_runtime import FG_LIST_RULES
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.sandbox import run_cases as sandbox_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S, N, INT = {"type": "string"}, {"type": "number"}, {"type": "integer"}
CLASSES = {"type": "array", "items": S}
# the list check's op, named by the runtime's own table (the one `named_*` op that is not `named_not_listed`)
OP = "named_holds"
CHARTER = {
    "charter_id": S,
    "boat_class": {"type": "string", "x-enum": ["cruiser", "ketch", "dinghy", "catamaran"]},
    "status": {"type": "string", "x-enum": ["booked", "settled"]},
    "extras": CLASSES,
}
EXTRA = {"extra_id": S, "name": S, "allowed_classes": CLASSES}
COLS = {"charters": collection(CHARTER), "extras": collection(EXTRA)}
SCHEMA = {"type": "object", "properties": COLS}
PARAMS = {"charter_id": S, "extra_id": S}
TEXT = (
    "Adds an extra from the marina's catalogue to a charter. The roof rack only fits cruiser and ketch classes; "
    "an extra that fits every class keeps an empty list."
)
FIT = {
    "op": OP,
    "param": "extra_id",
    "collection": "extras",
    "list": "allowed_classes",
    "field": "boat_class",
    "empty_passes": True,
}
ADD = ToolSpec("add_charter_extra", TEXT, {"type": "object", "properties": PARAMS, "required": list(PARAMS)})
PLAN = ToolPlan(
    kind="item_add",
    collection="charters",
    key_field="charter_id",
    key_param="charter_id",
    op_param="extra_id",
    list_field="extras",
)


def _read(text: str = TEXT, cols: dict = COLS, params: dict = PARAMS) -> list[dict]:
    return fit_rules(text, "charters", "charter_id", params, cols)


def test_the_docs_sentence_gives_one_list_check_that_passes_empty_lists() -> None:
    assert OP in FG_LIST_RULES
    assert _read() == [FIT]
    commas = "Each extra only suits cruiser, ketch or dinghy classes."
    assert _read(commas) == [FIT]
    assert _read("The roof rack fits cruiser and ketch classes.") == []  # no "only": every class may take it


def test_nothing_is_read_when_a_value_field_or_list_is_not_there() -> None:
    assert _read(TEXT.replace("ketch", "schooner")) == []  # not a known boat class
    no_list = {**COLS, "extras": collection({"extra_id": S, "name": S, "allowed_sizes": CLASSES})}
    assert _read(cols=no_list) == []  # no list named by "classes" on the extra
    as_text = {**COLS, "extras": collection({"extra_id": S, "allowed_classes": S})}
    assert _read(cols=as_text) == []  # a field of that name that is no list
    no_field = {**COLS, "charters": collection({k: v for k, v in CHARTER.items() if k != "boat_class"})}
    assert _read(cols=no_field) == []  # the charter keeps no class
    assert _read(params={"charter_id": S}) == []  # the call names no extra


def test_two_arguments_naming_listed_records_give_nothing() -> None:
    cols = {**COLS, "moorings": collection({"mooring_id": S, "classes": CLASSES})}
    params = {**PARAMS, "mooring_id": S}
    assert _read(cols=cols, params=params) == []  # the extra or the mooring: which one is meant is not known
    assert _read(cols=cols, params={"charter_id": S, "mooring_id": S}) == [
        {**FIT, "param": "mooring_id", "collection": "moorings", "list": "classes"}
    ]
    keyed = {**COLS, "charters": collection({**CHARTER, "allowed_classes": CLASSES})}
    assert _read(cols=keyed) == [FIT]  # the call's own key is never the named record


def _state(allowed: object, boat_class: object = "dinghy") -> dict:
    return {
        "charters": {"C1": {"charter_id": "C1", "boat_class": boat_class, "status": "booked", "extras": []}},
        "extras": {"X1": {"extra_id": "X1", "name": "roof rack", "allowed_classes": allowed}},
    }


def _fits(check: dict, allowed: object, boat_class: object = "dinghy", extra: str = "X1") -> bool:
    state = _state(allowed, boat_class)
    return fg_check(check, {"charter_id": "C1", "extra_id": extra}, state["charters"]["C1"], state)


def test_the_runtime_refuses_a_class_missing_from_a_filled_list() -> None:
    assert _fits(FIT, ["cruiser", "ketch"]) is False
    assert _fits(FIT, ["cruiser", "ketch"], "ketch") is True
    assert _fits(FIT, ["cruiser", "ketch"], "") is True  # the charter's class is not known: nothing to refuse
    assert _fits(FIT, ["cruiser", "ketch"], None) is True
    assert _fits(FIT, ["cruiser"], extra="X9") is True  # no such extra: another check's business


def test_an_empty_or_null_list_fits_every_class_only_with_empty_passes() -> None:
    assert _fits(FIT, []) is True
    assert _fits(FIT, None) is True
    plain = {k: v for k, v in FIT.items() if k != "empty_passes"}
    assert _fits(plain, []) is False  # the plain check wants the class on the list
    assert _fits(plain, None) is False
    assert _fits(plain, ["dinghy"]) is True


def test_refine_item_adds_the_check_to_item_add_plans_only() -> None:
    plan = refine_item(ADD, PLAN, SCHEMA, TEXT)
    assert [c for c in plan.checks if c["op"] == OP] == [FIT]
    removal = ToolPlan.from_dict({**PLAN.to_dict(), "kind": "item_remove"})
    assert not [c for c in refine_item(ADD, removal, SCHEMA, TEXT).checks if c["op"] == OP]
    source = render_tool(ADD, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    calls = [
        (["cruiser", "ketch"], "dinghy"),  # refused: the list lacks the dinghy class
        (["cruiser", "ketch"], "ketch"),
        ([], "dinghy"),  # fits every class
    ]
    cases = [
        {"function": ADD.name, "state": _state(allowed, kind), "arguments": {"charter_id": "C1", "extra_id": "X1"}}
        for allowed, kind in calls
    ]
    outcomes = sandbox_cases(module, cases)
    assert [o.status for o in outcomes] == ["tool_error", "ok", "ok"]
    assert outcomes[0].state_after == cases[0]["state"]
    assert outcomes[1].state_after["charters"]["C1"]["extras"] == ["X1"]


SETTLED = {
    "charter_id": S,
    "status": {"type": "string", "x-enum": ["booked", "settled"]},
    "deposit_held": N,
    "fuel_owed": N,
    "crew_count": INT,
    "tip": N,
    "returned": {"type": "boolean"},
    "note": {"type": ["string", "null"]},
}
SETTLE_SCHEMA = {"type": "object", "properties": {"charters": collection(SETTLED)}}
SETTLE = ToolSpec(
    "settle_charter",
    "Settles a booked charter: the deposit is returned (deposit_held 0), fuel_owed and crew_count go to 0, the tip "
    "is the one given, the boat is marked returned and the note reads 'closed'.",
    {"type": "object", "properties": {"charter_id": S, "tip": N}, "required": ["charter_id", "tip"]},
)
SETTLE_PLAN = ToolPlan.from_dict(
    {
        "kind": "recorded_update",
        "collection": "charters",
        "key_field": "charter_id",
        "key_param": "charter_id",
        "preconditions": {"status": ["booked"]},
        "effects": [
            {"op": "set", "field": "status", "source": {"from": "const", "value": "settled"}},
            {"op": "set", "field": "deposit_held", "source": {"from": "const", "value": 0}},
            {"op": "set", "field": "fuel_owed", "source": {"from": "const", "value": 0}},
            {"op": "set", "field": "crew_count", "source": {"from": "const", "value": 0}},
            {"op": "set", "field": "tip", "source": {"from": "arg", "name": "tip"}},
            {"op": "set", "field": "returned", "source": {"from": "const", "value": True}},
            {"op": "set", "field": "note", "source": {"from": "const", "value": "closed"}},
        ],
    }
)


def test_a_number_constant_keeps_a_float_field_a_float() -> None:
    start = {"charter_id": "C1", "status": "booked", "deposit_held": 0.0, "fuel_owed": 42.5, "crew_count": 3}
    state = {"charters": {"C1": {**start, "tip": 5.0, "returned": False, "note": None}}}
    source = render_tool(SETTLE, SETTLE_PLAN, SETTLE_SCHEMA)
    assert 'fg_like(record.get("deposit_held")' in source and 'fg_like(record.get("tip")' not in source
    after = copy.deepcopy(state)
    after["charters"]["C1"].update(status="settled", deposit_held=0.0, fuel_owed=0.0, crew_count=0)
    after["charters"]["C1"].update(tip=0, returned=True, note="closed")
    case = Case(SETTLE.name, "x", state, {"charter_id": "C1", "tip": 0}, expect_error=False)
    case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(source, SETTLE.name, [case], SchemaResult(SETTLE_SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == 1
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    outcome = sandbox_cases(module, [{"function": SETTLE.name, "state": state, "arguments": case.arguments}])[0]
    assert outcome.status == "ok"
    got = outcome.state_after["charters"]["C1"]
    assert repr(got["deposit_held"]) == "0.0" and isinstance(got["deposit_held"], float)  # 0 on 0.0
    assert repr(got["fuel_owed"]) == "0.0"  # 0 on 42.5
    assert repr(got["crew_count"]) == "0" and type(got["crew_count"]) is int  # an int field stays int
    assert repr(got["tip"]) == "0"  # an argument is written as given
    assert got["returned"] is True and got["note"] == "closed"  # other constants as they are
