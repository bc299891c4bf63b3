"""More readings of a create's per-kind "allowed when" table (type_rows.py): "skipper `active` with no `open`
charter" (a stored `charters` record, or an object on the skipper, that must not be in that state), "the levy is
paid (zero or less)" (a number of the named skipper at most 0), "an `active` dues plan is in place" (such a stored
record, or object, must exist) and alternatives joined by "or" (one check `any_of`); evaluated by
expr_runtime.fg_check and list_runtime.fg_list_rule, and run as generated code of a create."""

from __future__ import annotations

import synth
from synth.envsynth.codegen import header_source, render_tool
from synth.envsynth.create_rules import refine_create
from synth.envsynth.expr_runtime import fg_check
from synth.envsynth.list_runtime import FG_LIST_RULES
from synth.envsynth.plan import ToolPlan
from synth.envsynth.type_rows import type_row_checks
from synth.sandbox import run_cases
from synth.spec import ToolSpec
from tests.schemas import collection

S, N = {"type": "string"}, {"type": "number"}
SKIPPER = {
    "skipper_id": S,
    "status": {"type": "string", "x-enum": ["active", "barred"]},
    "levy": N,
    "dues": N,
}
CHARTER = {"charter_id": S, "skipper_id": S, "status": {"type": "string", "x-enum": ["open", "closed"]}}
DUES_PLAN = {"plan_id": S, "skipper_id": S, "status": {"type": "string", "x-enum": ["active", "lapsed"]}}
BOOKING = {"booking_id": S, "skipper_id": S, "kind": S}
COLS = {
    "skippers": collection(SKIPPER),
    "charters": collection(CHARTER),
    "dues_plans": collection(DUES_PLAN),
    "bookings": collection(BOOKING),
}
SCHEMA = {"type": "object", "properties": COLS}
KIND = {"type": "string", "enum": ["day", "week", "season"]}
ARGS = {"skipper_id": S, "kind": KIND}
TEXT = """Books a mooring slot at the marina for a skipper.

kind | allowed when | fee

`day` | skipper `active` with no `open` charter | 10.00
`week` | the levy is paid (zero or less) or an `active` dues plan is in place | 40.00
`season` | skipper `active`, the levy is paid (zero or less) or an `active` dues plan is in place | 300.00
"""

ACTIVE = {"op": "named_state", "arg": "skipper_id", "collection": "skippers", "field": "status", "allowed": ["active"]}
NO_OPEN = {
    "op": "none_stored",
    "collection": "charters",
    "match": {"skipper_id": {"arg": "skipper_id"}},
    "where": {"status": ["open"]},
}
PAID = {"op": "bound", "collection": "skippers", "via": "skipper_id", "field": "levy", "cmp": "<=", "value": 0}
PLANNED = {
    "op": "some_stored",
    "collection": "dues_plans",
    "match": {"skipper_id": {"arg": "skipper_id"}},
    "where": {"status": ["active"]},
}
EITHER = {"op": "any_of", "checks": [PAID, PLANNED]}


def _when(check: dict, kind: str) -> dict:
    return {**check, "when": {"arg": "kind", "in": [kind]}}


def _table(cell: str) -> str:
    return f"Books a mooring slot.\n\nkind | allowed when | fee\n\n`week` | {cell} | 40.00\n"


def _read(text: str = TEXT, cols: dict = COLS, args: dict = ARGS) -> list[dict]:
    return type_row_checks(text, args, cols)


def test_each_row_gives_its_stored_and_alternative_checks() -> None:
    assert {"some_stored", "none_stored", "named_nested"} <= set(FG_LIST_RULES)
    assert _read() == [
        _when(ACTIVE, "day"),
        _when(NO_OPEN, "day"),
        _when(EITHER, "week"),  # both alternatives in one check
        _when(ACTIVE, "season"),
        _when(EITHER, "season"),
    ]
    assert _read(TEXT.replace("allowed when", "remarks")) == []  # no such column: nothing read


def test_the_or_inside_the_brackets_does_not_split_the_clause() -> None:
    assert _read(_table("the levy is paid (zero or less)")) == [_when(PAID, "week")]  # one reading, no any_of
    assert _read(_table("the levy is paid")) == [_when(PAID, "week")]
    assert _read(_table("an `active` dues plan is in place or the levy is paid (zero or less)")) == [
        _when({"op": "any_of", "checks": [PLANNED, PAID]}, "week")
    ]


def test_an_alternative_left_unread_drops_the_whole_clause() -> None:
    assert _read(_table("the levy is paid (zero or less) or the harbour master agrees")) == []
    assert _read(_table("the tide is paid (zero or less)")) == []  # no number of that name on a named record
    no_plans = {k: v for k, v in COLS.items() if k != "dues_plans"}
    assert _read(_table("the levy is paid (zero or less) or an `active` dues plan is in place"), no_plans) == []
    assert _read(TEXT, args={"kind": KIND}) == []  # the call names no skipper


def test_an_article_is_not_read_as_a_noun() -> None:
    # "an `active` ..." would read as the record `an_id` names in state `active`, which is not there: nothing read
    assert _read(_table("an `active` dues plan is in place")) == [_when(PLANNED, "week")]
    assert _read(_table("a `lapsed` dues plan is in place")) == [
        _when({**PLANNED, "where": {"status": ["lapsed"]}}, "week")
    ]


def _state(levy: object = 0, plans: dict | None = None, charters: dict | None = None, status: str = "active") -> dict:
    return {
        "skippers": {
            "K1": {"skipper_id": "K1", "status": status, "levy": levy, "dues": 0},
            "K2": {"skipper_id": "K2", "status": "active", "levy": 0, "dues": 0},
        },
        "charters": charters or {},
        "dues_plans": plans or {},
        "bookings": {},
    }


def _plan(status: str, skipper: str = "K1") -> dict:
    return {"P1": {"plan_id": "P1", "skipper_id": skipper, "status": status}}


def _charter(status: str, skipper: str = "K1") -> dict:
    return {"C1": {"charter_id": "C1", "skipper_id": skipper, "status": status}}


def _allowed(kind: str, state: dict, skipper: str = "K1", checks: list | None = None) -> bool:
    arguments = {"skipper_id": skipper, "kind": kind}
    checks = _read() if checks is None else checks
    return all(fg_check(c, arguments, {}, state) for c in checks if kind in c["when"]["in"])


def test_paid_up_or_on_an_active_plan_passes_and_owing_without_one_refuses() -> None:
    assert _allowed("week", _state(levy=0)) is True  # paid up
    assert _allowed("week", _state(levy=-12.5)) is True  # in credit
    assert _allowed("week", _state(levy=30, plans=_plan("active"))) is True  # owing, on an active plan
    assert _allowed("week", _state(levy=30)) is False  # owing, no plan
    assert _allowed("week", _state(levy=30, plans=_plan("lapsed"))) is False  # the plan is not active
    assert _allowed("week", _state(levy=30, plans=_plan("active", "K2"))) is False  # another skipper's plan
    assert _allowed("week", _state(levy=0.01)) is False
    assert _allowed("week", _state(levy=None)) is True  # no number kept: the bound has nothing to refuse
    assert _allowed("week", _state(), skipper="K9") is True  # no such skipper: another check's business


def test_each_alternative_on_its_own() -> None:
    args = {"skipper_id": "K1", "kind": "week"}
    assert fg_check(PAID, args, {}, _state(levy=0)) and not fg_check(PAID, args, {}, _state(levy=1))
    assert fg_check(PLANNED, args, {}, _state(plans=_plan("active")))
    assert not fg_check(PLANNED, args, {}, _state(plans=_plan("lapsed")))
    assert not fg_check(PLANNED, args, {}, _state())  # some_stored: nothing stored refuses
    assert not fg_check(PLANNED, {"kind": "week"}, {}, _state(plans=_plan("active")))  # no skipper named
    assert fg_check(NO_OPEN, {"kind": "day"}, {}, _state(charters=_charter("open")))  # none_stored: no skipper passes
    assert fg_check({"op": "any_of", "checks": []}, args, {}, _state()) is False


def test_an_open_charter_refuses_the_day_kind_only() -> None:
    assert _allowed("day", _state()) is True
    assert _allowed("day", _state(charters=_charter("open"))) is False
    assert _allowed("day", _state(charters=_charter("closed"))) is True
    assert _allowed("day", _state(charters=_charter("open", "K2"))) is True  # another skipper's charter
    assert _allowed("day", _state(status="barred")) is False
    assert _allowed("week", _state(charters=_charter("open"), status="barred")) is True  # not checked for a week


def test_the_season_kind_wants_both_conditions() -> None:
    assert _allowed("season", _state(levy=0)) is True
    assert _allowed("season", _state(levy=0, status="barred")) is False
    assert _allowed("season", _state(levy=20)) is False
    assert _allowed("season", _state(levy=20, plans=_plan("active"))) is True


NESTED_SKIPPER = {
    "skipper_id": S,
    "status": {"type": "string", "x-enum": ["active", "barred"]},
    "levy": N,
    "charter_plan": {"type": ["object", "null"], "properties": {"boat_id": S, "status": S}},
    "dues_plan": {
        "type": ["object", "null"],
        "properties": {"since": S, "plan_state": {"type": "string", "x-enum": ["active", "lapsed"]}},
    },
}
NESTED_COLS = {"skippers": collection(NESTED_SKIPPER), "bookings": collection(BOOKING)}
NESTED_TEXT = """Books a mooring slot at the marina for a skipper.

kind | allowed when | fee

`day` | skipper `active` with no `open` charter plan | 10.00
`week` | the levy is paid (zero or less) or an `active` dues plan is in place | 40.00
"""
NO_OPEN_PLAN = {
    "op": "named_nested",
    "arg": "skipper_id",
    "collection": "skippers",
    "path": ["charter_plan", "status"],  # no field knows `open`: the object's `status`
    "in": ["open"],
    "not": True,
}
ON_PLAN = {
    "op": "named_nested",
    "arg": "skipper_id",
    "collection": "skippers",
    "path": ["dues_plan", "plan_state"],  # the one field knowing `active`
    "in": ["active"],
}


def test_objects_on_the_skipper_stand_in_for_stored_records() -> None:
    assert _read(NESTED_TEXT, NESTED_COLS) == [
        _when(ACTIVE, "day"),
        _when(NO_OPEN_PLAN, "day"),
        _when({"op": "any_of", "checks": [PAID, ON_PLAN]}, "week"),
    ]
    # a `charters` collection that names no skipper is not the one meant: the skipper's `charter` object is
    cols = {
        **NESTED_COLS,
        "charters": collection({"charter_id": S, "boat_id": S, "status": {"type": "string", "x-enum": ["open"]}}),
        "skippers": collection({**NESTED_SKIPPER, "charter": {"type": "object", "properties": {"status": S}}}),
    }
    assert _read(_table("skipper `active` with no `open` charter"), cols) == [
        _when(ACTIVE, "week"),
        _when({**NO_OPEN_PLAN, "path": ["charter", "status"]}, "week"),
    ]
    flat = {**NESTED_COLS, "skippers": collection({**NESTED_SKIPPER, "charter_plan": S})}
    assert _read(_table("skipper `active` with no `open` charter plan"), flat) == [_when(ACTIVE, "week")]


def _nested_state(charter_plan: object = None, dues_plan: object = None, levy: object = 0) -> dict:
    skipper = {"skipper_id": "K1", "status": "active", "levy": levy, "charter_plan": charter_plan}
    return {"skippers": {"K1": {**skipper, "dues_plan": dues_plan}}, "bookings": {}}


def test_the_nested_checks_at_run_time() -> None:
    checks = _read(NESTED_TEXT, NESTED_COLS)
    assert _allowed("day", _nested_state(), checks=checks) is True  # a null object: no open charter plan
    assert _allowed("day", _nested_state({"boat_id": "B1", "status": "open"}), checks=checks) is False
    assert _allowed("day", _nested_state({"boat_id": "B1", "status": "done"}), checks=checks) is True
    assert _allowed("day", _nested_state({"boat_id": "B1"}), checks=checks) is True  # no status inside
    assert _allowed("week", _nested_state(levy=15), checks=checks) is False  # owing, null plan
    assert _allowed("week", _nested_state(levy=15, dues_plan={"plan_state": "lapsed"}), checks=checks) is False
    assert _allowed("week", _nested_state(levy=15, dues_plan={"plan_state": "active"}), checks=checks) is True
    assert _allowed("week", _nested_state(levy=0, dues_plan={"plan_state": "lapsed"}), checks=checks) is True
    missing = {"skipper_id": "K9"}  # no such skipper: the negated check passes, the plain one refuses
    assert fg_check(NO_OPEN_PLAN, missing, {}, _nested_state()) is True
    assert fg_check(ON_PLAN, missing, {}, _nested_state(dues_plan={"plan_state": "active"})) is False
    assert fg_check(ON_PLAN, {"skipper_id": "K1"}, {}, _nested_state(dues_plan={"plan_state": "active"})) is True
    assert fg_check(ON_PLAN, {"skipper_id": "K1"}, {}, _nested_state(dues_plan="active")) is False  # not an object


def test_the_dues_are_paid_reads_as_a_bound() -> None:
    dues = {**PAID, "field": "dues"}
    assert _read(_table("the dues are paid (zero or less)")) == [_when(dues, "week")]
    assert _read(_table("the dues are paid (zero or less) or an `active` dues plan is in place")) == [
        _when({"op": "any_of", "checks": [dues, PLANNED]}, "week")
    ]


BOOK = ToolSpec("book_mooring_slot", TEXT, {"type": "object", "properties": ARGS, "required": list(ARGS)}, mutates=True)
BASE = ToolPlan(kind="create", collection="bookings", key_field="booking_id", fields=["skipper_id", "kind"])


def test_the_create_refuses_and_books_as_the_table_says() -> None:
    plan = refine_create(BOOK, BASE, SCHEMA, TEXT)
    assert [c for c in plan.checks if c["op"] == "any_of"] == [_when(EITHER, "week"), _when(EITHER, "season")]
    assert _when(NO_OPEN, "day") in plan.checks
    source = render_tool(BOOK, plan, SCHEMA)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    calls = [
        ("week", _state(levy=0)),  # paid up
        ("week", _state(levy=30, plans=_plan("active"))),  # owing, on a plan
        ("week", _state(levy=30, plans=_plan("lapsed"))),  # owing, no active plan
        ("day", _state(levy=30, charters=_charter("open"))),  # an open charter
        ("day", _state(levy=30, charters=_charter("closed"))),  # owing does not matter for a day
    ]
    cases = [
        {"function": BOOK.name, "state": state, "arguments": {"skipper_id": "K1", "kind": kind}}
        for kind, state in calls
    ]
    outcomes = run_cases(module, cases)
    assert [o.status for o in outcomes] == ["ok", "ok", "tool_error", "tool_error", "ok"]
    assert outcomes[2].state_after == cases[2]["state"]
    booked = list(outcomes[0].state_after["bookings"].values())
    assert [(b["skipper_id"], b["kind"]) for b in booked] == [("K1", "week")]
