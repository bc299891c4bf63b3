"""Traces as examples, session 53: from one recorded success, a learned change does not hold the record to the
amounts or the whole objects that one call happened to find (a state is a value like `booked`), and the docs'
entry removal ("takes a tender off a mooring") is kept as a check when the change is learned from the calls, so the
learned plan refuses a tender that is not on the list as the real system did."""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import choose_plan
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.envsynth.trace_learn import learned_variants
from synth.spec import ToolSpec
from tests.schemas import collection

S, N = {"type": "string"}, {"type": "number"}
TENDER = {"type": "object", "properties": {"name": S, "fee": N}}
LOG = {"type": "object", "properties": {"event": S, "note": S}}
MOORING = {
    "mooring_id": S,
    "status": S,
    "fees": {"type": "object", "properties": {"base": N, "tenders": N}},
    "total": N,
    "tenders": {"type": "array", "items": TENDER},
    "log": {"type": "array", "items": LOG},
}
SCHEMA = {"type": "object", "properties": {"moorings": collection(MOORING)}}
SPEC = ToolSpec(
    "remove_tender",
    "Takes a tender off a mooring while it is still `booked`.",
    {"type": "object", "properties": {"mooring_id": S, "name": S}, "required": ["mooring_id", "name"]},
    mutates=True,
)
DOCS_PLAN = ToolPlan(
    kind="item_remove",
    collection="moorings",
    key_field="mooring_id",
    key_param="mooring_id",
    list_field="tenders",
    item_key="name",
    op_param="name",
    preconditions={"status": ["booked"]},
)


def _mooring(key: str, status: str, tenders: list[str]) -> dict[str, Any]:
    fee = 10.0 * len(tenders)
    return {
        "mooring_id": key,
        "status": status,
        "fees": {"base": 50.0, "tenders": fee},
        "total": 50.0 + fee,
        "tenders": [{"name": t, "fee": 10.0} for t in tenders],
        "log": [{"event": "booked", "note": "Booked"}],
    }


def _state() -> dict[str, Any]:
    return {
        "moorings": {
            "M1": _mooring("M1", "booked", ["Puffin"]),
            "M2": _mooring("M2", "moored", ["Tern"]),
            "M3": _mooring("M3", "booked", ["Skua"]),
        }
    }


def _recorded() -> list[Case]:
    changes = [
        {"path": "/moorings/M1/fees/tenders", "value": 0.0},
        {"path": "/moorings/M1/total", "value": 50.0},
        {"path": "/moorings/M1/tenders", "value": []},
        {"path": "/moorings/M1/tenders/0/fee", "deleted": True},
        {"path": "/moorings/M1/tenders/0/name", "deleted": True},
        {"path": "/moorings/M1/log/1/event", "value": "tender_removed"},
        {"path": "/moorings/M1/log/1/note", "value": "Puffin removed, 10.00 credited"},
    ]
    ok = Case(SPEC.name, "trace", _state(), {"mooring_id": "M1", "name": "Puffin"}, expect_error=False)
    ok.state_checks = [{"op": "changes", "changes": changes}]
    wrong_state = Case(SPEC.name, "trace", _state(), {"mooring_id": "M2", "name": "Tern"}, expect_error=True)
    not_listed = Case(SPEC.name, "trace", _state(), {"mooring_id": "M3", "name": "Gannet"}, expect_error=True)
    return [ok, wrong_state, not_listed]


def test_no_precondition_on_an_amount_or_an_object_one_call_found() -> None:
    variants = [v for v in learned_variants(SPEC, DOCS_PLAN, _recorded()) if v.kind == "recorded_update"]
    assert variants
    for variant in variants:
        assert not set(variant.preconditions) & {"total", "fees", "tenders"}, variant.preconditions


def test_the_docs_entry_removal_is_kept_as_a_check_and_the_learned_change_reproduces_every_call() -> None:
    variants = [v for v in learned_variants(SPEC, DOCS_PLAN, _recorded()) if v.kind == "recorded_update"]
    kept = variants[0]
    assert kept.preconditions == {"status": ["booked"]}
    listed = {"op": "entry_named", "collection": "moorings", "via_arg": "mooring_id", "list": "tenders"}
    assert {**listed, "field": "name", "arg": "name"} in kept.checks
    chosen, scores, _ = choose_plan(
        SPEC, DOCS_PLAN, [DOCS_PLAN] + variants, [], _recorded(), SchemaResult(SCHEMA, {}, {}, "docs")
    )
    assert chosen.kind == "recorded_update" and max(c["reproduced"] for c in scores["candidates"]) == 3
    plain = copy.deepcopy(DOCS_PLAN)
    plain.kind = "update"  # no entry removal in the docs' plan: no such check
    assert not any(c["op"] == "entry_named" for v in learned_variants(SPEC, plain, _recorded()) for c in v.checks)
