"""Read in session 50 from a create's docs, each run in the rendered tool: a linked record's change led by a yes/no
argument ("With `close_pier`, the pier's status becomes `closed`"), the new record's key appended to a linked
record's list ("its ID is appended to the pier's `open_charters`"), one record per linked record and field in some
states (one_per.py), and parameter descriptions naming a linked record's list (param_members.py)."""

from __future__ import annotations

from typing import Any

from synth.envsynth.codegen import render_tool
from synth.envsynth.create_checks import create_checks
from synth.envsynth.create_rules import refine_create
from synth.envsynth.create_sets import flag_lead
from synth.envsynth.full_states import with_full_states
from synth.envsynth.member_lists import member_lists
from synth.envsynth.one_per import one_per
from synth.envsynth.param_members import param_members
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec

S = {"type": "string"}
STATUS = {"type": "string", "x-enum": ["booked", "boarding", "sailed"]}
PIER_STATUS = {"type": "string", "x-enum": ["open", "closed"]}
DOCS = """Books a charter from a pier.

**Rules**: a pier can have only one unresolved (`booked` or `boarding`) charter per route; a second one is refused.

**Effects**: a new charter (`CH-` + next number) with status `booked`; its ID is appended to the pier's
`open_charters`. With `close_pier`, the pier's status becomes `closed`.
"""
PARAMS_FLAG = {"arg": "close_pier", "in": [True]}
PARAMS = {
    "pier_id": {**S, "description": "Pier it leaves from."},
    "route": {**S, "description": "Where it goes."},
    "skipper_id": {**S, "description": "Skipper running it; must be a current crew member of the pier."},
    "close_pier": {
        "type": "boolean",
        "description": "Close the pier once booked (default `false`). Only allowed for piers with no crew.",
    },
}


def _cols() -> dict[str, Any]:
    ids = {"type": "array", "items": {**S, "x-references": "charters"}}
    crew = {"type": "array", "items": {**S, "x-references": "skippers"}}
    props = {
        "charters": {
            "charter_id": S,
            "pier_id": {**S, "x-references": "piers"},
            "route": S,
            "skipper_id": {"type": ["string", "null"], "x-references": "skippers"},
            "status": STATUS,
        },
        "piers": {"pier_id": S, "status": PIER_STATUS, "crew": crew, "open_charters": ids},
        "skippers": {"skipper_id": S},
    }
    keys = {"charters": "charter_id", "piers": "pier_id", "skippers": "skipper_id"}
    return {
        n: {"type": "object", "x-key-field": keys[n], "additionalProperties": {"type": "object", "properties": p}}
        for n, p in props.items()
    }


def _plan(docs: str = DOCS) -> tuple[ToolSpec, ToolPlan, dict[str, Any]]:
    spec = ToolSpec("book_charter", docs, {"type": "object", "properties": PARAMS, "required": ["pier_id", "route"]})
    schema = {"type": "object", "properties": _cols()}
    plan = ToolPlan(
        kind="create",
        collection="charters",
        key_field="charter_id",
        fields=["pier_id", "route", "skipper_id"],
        id_type="pattern",
        key_format={"prefix": "CH-", "digits": 3},
        initial_values={"status": "booked"},
    )
    plan = refine_create(spec, plan, schema, docs)
    plan = create_checks(spec, plan, schema, docs, None)
    return spec, with_full_states(spec, plan, schema, docs), schema


def _state(crew: list[str], charters: dict[str, Any] | None = None) -> dict[str, Any]:
    pier = {"pier_id": "P1", "status": "open", "crew": crew, "open_charters": []}
    return {"charters": charters or {}, "piers": {"P1": pier}, "skippers": {"SK1": {"skipper_id": "SK1"}}}


def _run(cases: list[Case]) -> tuple[int, str]:
    spec, plan, schema = _plan()
    res, err = run_cases(render_tool(spec, plan, schema), spec.name, cases, SchemaResult(schema, {}, {}, "d"))
    return res.passed, err


def test_a_sentence_led_by_a_yes_no_argument_guards_the_change_and_other_leads_do_not() -> None:
    lead = flag_lead("With `close_pier`, the pier's status becomes `closed`.", PARAMS)
    assert lead == (PARAMS_FLAG, "the pier's status becomes `closed`.")
    assert flag_lead("If `close_pier` is false, the pier stays open.", PARAMS) == (
        {"arg": "close_pier", "in": [False]},
        "the pier stays open.",
    )
    assert flag_lead("With `route`, the pier's status becomes `closed`.", PARAMS) is None  # not yes/no: unreadable
    plain = "With care, the pier's status becomes `closed`."
    assert flag_lead(plain, PARAMS) == (None, plain)  # no argument leads it
    _, plan, _ = _plan()
    assert plan.ref_sets == [
        {"param": "pier_id", "collection": "piers", "field": "status", "value": "closed", "when": PARAMS_FLAG}
    ]
    unguarded = DOCS.replace("With `close_pier`, the", "The")
    assert [s.get("when") for s in _plan(unguarded)[1].ref_sets] == [None]


def test_the_readers_find_the_key_append_the_one_per_rule_and_the_parameter_checks() -> None:
    _, plan, _ = _plan()
    appended = [e for e in plan.effects if e["op"] == "member_append"]
    assert appended == [
        {"op": "member_append", "collection": "piers", "via": "pier_id", "list": "open_charters", "item": "charter_id"}
    ]
    own = _cols()["charters"]["additionalProperties"]["properties"]
    assert one_per(DOCS, "charters", own, _cols()) == [
        {
            "op": "none_alike",
            "collection": "charters",
            "fields": ["pier_id", "route"],
            "where": {"status": ["booked", "boarding"]},
        }
    ]
    assert param_members(PARAMS, own, _cols()) == [
        {"op": "empty", "collection": "piers", "via": "pier_id", "field": "crew", "when": PARAMS_FLAG},
        {"op": "named_holds", "param": "pier_id", "collection": "piers", "list": "crew", "field": "skipper_id"},
    ]
    assert all(c in plan.checks for c in param_members(PARAMS, own, _cols()) + one_per(DOCS, "charters", own, _cols()))


def test_sentences_the_readers_cannot_place_read_as_nothing() -> None:
    own = _cols()["charters"]["additionalProperties"]["properties"]
    cols = _cols()
    schema = {"type": "object", "properties": cols}
    kind = [
        e["item"] for e in member_lists("The new charter is added to the pier's `open_charters`.", "charters", schema)
    ]
    assert kind == ["charter_id"]  # the created kind, named
    assert member_lists("The new skipper is added to the pier's `open_charters`.", "charters", schema) == []
    assert member_lists("When it sails, its ID is added to the pier's `open_charters`.", "charters", schema) == []
    assert one_per("A pier can have only one active charter per route.", "charters", own, cols) == []  # no such state
    assert one_per("A pier can have only one charter per route.", "charters", own, cols) == [
        {"op": "none_alike", "collection": "charters", "fields": ["pier_id", "route"], "where": {}}
    ]
    assert one_per("A pier can have only one boat per route.", "charters", own, cols) == []  # another kind
    assert one_per("A harbour can have only one charter per route.", "charters", own, cols) == []  # no such link
    assert one_per("A pier can have only one `booked` charter per tide.", "charters", own, cols) == []  # no field
    quiet = {
        "skipper_id": {**S, "description": "Skipper running it; must be a licensed sailor."},
        "close_pier": {"type": "string", "description": "Only allowed for piers with no crew."},  # not yes/no
    }
    assert param_members(quiet, own, cols) == []


def test_the_rendered_create_applies_each_rule() -> None:
    booked = {"C0": {"charter_id": "C0", "pier_id": "P1", "route": "bay", "skipper_id": None, "status": "booked"}}
    sailed = {"C0": {**booked["C0"], "status": "sailed"}}
    cases = [
        Case(
            "book_charter", "second unresolved on a route", _state([], booked), {"pier_id": "P1", "route": "bay"}, True
        ),
        Case("book_charter", "not crew", _state(["SK2"]), {"pier_id": "P1", "route": "bay", "skipper_id": "SK1"}, True),
        Case(
            "book_charter",
            "crewed pier closed",
            _state(["SK1"]),
            {"pier_id": "P1", "route": "bay", "close_pier": True},
            True,
        ),
    ]
    opened = Case(
        "book_charter",
        "closes an empty pier",
        _state([], sailed),
        {"pier_id": "P1", "route": "bay", "close_pier": True},
        False,
    )
    opened.state_checks = [
        {"op": "field_equals", "collection": "piers", "key": "P1", "field": "status", "value": "closed"},
        {"op": "field_equals", "collection": "piers", "key": "P1", "field": "open_charters", "value": ["CH-001"]},
    ]
    kept = Case(
        "book_charter", "crew books", _state(["SK1"]), {"pier_id": "P1", "route": "bay", "skipper_id": "SK1"}, False
    )
    kept.state_checks = [
        {"op": "field_equals", "collection": "piers", "key": "P1", "field": "status", "value": "open"},
        {"op": "field_equals", "collection": "piers", "key": "P1", "field": "open_charters", "value": ["CH-001"]},
    ]
    passed, err = _run(cases + [opened, kept])
    assert passed == 5, err
