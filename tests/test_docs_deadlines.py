"""Deadlines from a calendar table in the policy: a band column and columns of dates, tied to the business date by
each tool's own description (until the cancelling deadline; after it and by the refund date; an error once the
mooring deadline has passed); planned and rendered."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.docs_deadlines import date_tables, deadline_checks
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

POLICY = """# Marina desk

Every desk works on the business date 2031-06-10.

| tide band | notes | mooring closes | cancelling closes | refunds close |
|:--|:--|:--|:--|:--|
| SPRING | early berths | 2031-03-01 | 2031-05-01 | 2031-06-30 |
| SUMMER | high season | 2031-06-20 | 2031-06-15 | 2031-07-15 |
"""


SCHEMA = {
    "type": "object",
    "properties": {
        "berths": _collection({"berth_id": {"type": "string"}, "tide_band": {"type": "string"}}),
        "stays": _collection(
            {
                "stay_id": {"type": "string"},
                "berth_id": {"type": "string", "x-references": "berths"},
                "status": {"type": "string", "x-enum": ["booked", "cancelled", "refunded"]},
            }
        ),
    },
}
STATE = {
    "berths": {"B1": {"berth_id": "B1", "tide_band": "SPRING"}, "B2": {"berth_id": "B2", "tide_band": "SUMMER"}},
    "stays": {
        "S1": {"stay_id": "S1", "berth_id": "B1", "status": "booked"},
        "S2": {"stay_id": "S2", "berth_id": "B2", "status": "booked"},
    },
}
KEY = {"type": "object", "properties": {"stay_id": {"type": "string"}}, "required": ["stay_id"]}
CANCEL = ToolSpec(
    "cancel_stay",
    "Cancels a booked stay. This is possible until the berth's tide band's cancelling deadline. The status becomes "
    "'cancelled'. An error is raised for a stay that is not booked, or once the cancelling deadline has passed.",
    KEY,
)
REFUND = ToolSpec(
    "refund_stay",
    "Refunds a booked stay. It is accepted after the cancelling deadline of the stay's band and by its refund date. "
    "The status becomes 'refunded'. Errors: refusing a stay still in the cancelling period.",
    KEY,
)
PLAN = ToolPlan(kind="update", collection="stays", key_field="stay_id", key_param="stay_id")


def test_the_calendar_table_and_the_checks_each_tool_says() -> None:
    ((header, rows),) = date_tables(POLICY)
    assert header == ["tide band", "notes", "mooring closes", "cancelling closes", "refunds close"] and len(rows) == 2
    assert date_tables("| a | b |\n|---|---|\n| x | y |\n") == []  # no dates
    cancel = deadline_checks(CANCEL.description, POLICY, "stays", SCHEMA, STATE, "2031-06-10")
    assert cancel == [
        {
            "op": "deadline",
            "from": "record",
            "via": "berth_id",
            "collection": "berths",
            "field": "tide_band",
            "dates": {"SPRING": "2031-05-01", "SUMMER": "2031-06-15"},
            "today": "2031-06-10",
            "cmp": "<=",
        }
    ]
    refund = deadline_checks(REFUND.description, POLICY, "stays", SCHEMA, STATE, "2031-06-10")
    assert [(c["dates"]["SPRING"], c["cmp"]) for c in refund] == [("2031-05-01", ">"), ("2031-06-30", "<=")]
    both = "Cancels a stay before the cancelling deadline; after the cancelling deadline it is refunded."
    assert deadline_checks(both, POLICY, "stays", SCHEMA, STATE, "2031-06-10") == []  # tied both ways
    assert deadline_checks(CANCEL.description, POLICY, "stays", SCHEMA, STATE, None) == []  # no business date
    book = "Moors a boat at a berth. Errors: a mooring deadline that has passed."
    params = {"berth_id": {"type": "string"}}
    (check,) = deadline_checks(book, POLICY, "stays", SCHEMA, {"berths": STATE["berths"]}, "2031-06-10", params)
    assert check["via"] == "berth_id" and check["cmp"] == "<=" and check["from"] == "record"


def test_a_transition_is_refused_on_the_wrong_side_of_the_deadline() -> None:
    for spec, allowed, refused in ((CANCEL, "S2", "S1"), (REFUND, "S1", "S2")):
        plan = docs_transition(spec, PLAN, SCHEMA, POLICY, list(STATE["stays"].values()), STATE)
        assert plan is not None and plan.checks and {c["op"] for c in plan.checks} == {"deadline"}
        done = copy.deepcopy(STATE)
        done["stays"][allowed]["status"] = "cancelled" if spec is CANCEL else "refunded"
        ok = Case(spec.name, "x", STATE, {"stay_id": allowed}, expect_error=False)
        ok.state_checks = [{"op": "equals", "state": done}]
        late = Case(spec.name, "x", STATE, {"stay_id": refused}, expect_error=True)
        res, err = run_cases(render_tool(spec, plan, SCHEMA), spec.name, [ok, late], SchemaResult(SCHEMA, {}, {}, "d"))
        assert err == "" and res.passed == 2, spec.name
