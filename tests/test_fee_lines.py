"""A late fee a cancellation posts as a line of the hire's tab while the launch is near, what was prepaid beyond it
refunded to the skipper's credit as a negative payment line, and the balance recomputed from both lists as the
data shows; planned from the docs and run."""

from __future__ import annotations

import copy

from synth.envsynth.codegen import render_tool
from synth.envsynth.fee_lines import with_fee_lines
from synth.envsynth.list_runtime import fg_like
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection as _collection

TODAY = "2031-05-28"
S = {"type": "string"}
N = {"type": "number"}
TAB_LINE = {
    "line_id": S,
    "code": {"type": "string", "enum": ["HIRE", "FUEL", "LATE"]},
    "description": S,
    "amount": N,
    "date": S,
}
PAYMENT = {"payment_id": S, "method": {"type": "string", "enum": ["card", "credit"]}, "amount": N, "date": S}
HIRE = {
    "hire_id": S,
    "skipper_id": S,
    "status": {"type": "string", "x-enum": ["booked", "cancelled"]},
    "launch_date": S,
    "days": {"type": "integer"},
    "hire_total": N,
    "tab": {"type": "array", "items": {"type": "object", "properties": TAB_LINE}},
    "payments": {"type": "array", "items": {"type": "object", "properties": PAYMENT}},
    "balance": {"type": "number", "description": "Tab total minus payments."},
}
COLS = {"hires": _collection(HIRE), "skippers": _collection({"skipper_id": S, "credit": N})}
SCHEMA = {"type": "object", "properties": COLS}
TEXT = (
    "Cancels a `booked` hire. When the launch date is fewer than 2 days after the business date (launch today or "
    "tomorrow), a late cancellation fee of one average day (`hire_total` / `days`, rounded to cents) is posted as a "
    "`LATE` tab line described `Late cancellation fee`. Prepayments first cover the fee; what was paid beyond it is "
    "refunded to the skipper's `credit` and recorded as a payment line with method `credit` and a negative amount. "
    "Status becomes `cancelled`."
)
CANCEL = ToolSpec("cancel_hire", TEXT, {"type": "object", "properties": {"hire_id": S}, "required": ["hire_id"]})


def _hire(key: str, launch: str, days: int, total: float, tab: list, paid: list) -> dict:
    balance = round(sum(x["amount"] for x in tab) - sum(x["amount"] for x in paid), 2)
    return {
        "hire_id": key,
        "skipper_id": "K1",
        "status": "booked",
        "launch_date": launch,
        "days": days,
        "hire_total": total,
        "tab": tab,
        "payments": paid,
        "balance": balance,
    }


def _line(n: int, amount: float) -> dict:
    return {"line_id": f"L{n}", "code": "HIRE", "description": "Hire", "amount": amount, "date": "2031-05-01"}


def _paid(n: int, amount: float) -> dict:
    return {"payment_id": f"P{n}", "method": "card", "amount": amount, "date": "2031-05-02"}


STATE = {
    "hires": {
        "H1": _hire("H1", "2031-05-29", 3, 300.0, [], [_paid(1, 250.0)]),  # near: fee 100, refund 150
        "H2": _hire("H2", "2031-06-20", 2, 200.0, [], [_paid(1, 80.0)]),  # far: no fee, refund 80
        "H3": _hire("H3", "2031-05-28", 3, 100.0, [], []),  # near, nothing paid: the fee is owed
        "H4": _hire("H4", "2031-07-01", 1, 50.0, [_line(1, 50.0), _line(2, 10.0)], [_paid(1, 60.0)]),
        "H5": _hire("H5", "2031-07-02", 2, 90.0, [_line(1, 90.0)], [_paid(1, 40.0), _paid(2, 20.0)]),
    },
    "skippers": {"K1": {"skipper_id": "K1", "credit": 5.0}},
}
BASE = ToolPlan(
    kind="recorded_update",
    collection="hires",
    key_field="hire_id",
    key_param="hire_id",
    effects=[{"op": "set", "field": "status", "source": {"from": "const", "value": "cancelled"}}],
    preconditions={"status": ["booked"]},
)


def test_the_fee_posted_and_the_rest_refunded() -> None:
    plan = with_fee_lines(CANCEL, BASE, SCHEMA, TEXT, STATE, TODAY)
    assert [s[0] for s in plan.quote["steps"]] == ["fee", "paid_lines", "paid", "refund", "refund_line"]
    near = copy.deepcopy(STATE)
    h1 = near["hires"]["H1"]
    h1.update(status="cancelled", balance=0.0)  # the fee, less what still covers it
    h1["tab"] = [
        {"line_id": "L1", "code": "LATE", "description": "Late cancellation fee", "amount": 100.0, "date": TODAY}
    ]
    h1["payments"].append({"payment_id": "P2", "method": "credit", "amount": -150.0, "date": TODAY})
    near["skippers"]["K1"]["credit"] = 155.0
    far = copy.deepcopy(STATE)
    far["hires"]["H2"].update(status="cancelled", balance=0.0)
    far["hires"]["H2"]["payments"].append({"payment_id": "P2", "method": "credit", "amount": -80.0, "date": TODAY})
    far["skippers"]["K1"]["credit"] = 85.0
    owed = copy.deepcopy(STATE)
    owed["hires"]["H3"].update(status="cancelled", balance=33.33)
    owed["hires"]["H3"]["tab"] = [
        {"line_id": "L1", "code": "LATE", "description": "Late cancellation fee", "amount": 33.33, "date": TODAY}
    ]
    cases = [Case(CANCEL.name, "x", STATE, {"hire_id": k}, expect_error=False) for k in ("H1", "H2", "H3")]
    for case, after in zip(cases, (near, far, owed)):
        case.state_checks = [{"op": "equals", "state": after}]
    res, err = run_cases(render_tool(CANCEL, plan, SCHEMA), CANCEL.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)


def test_no_fee_lines_when_a_part_is_unread() -> None:
    unsaid = TEXT.replace("(`hire_total` / `days`, rounded to cents) ", "")
    assert with_fee_lines(CANCEL, BASE, SCHEMA, unsaid, STATE, TODAY) == BASE
    unknown = TEXT.replace("`LATE` tab line", "`FINE` tab line")  # no tab line's code holds it
    assert with_fee_lines(CANCEL, BASE, SCHEMA, unknown, STATE, TODAY) == BASE
    assert fg_like(0.0, 0) == 0.0 and isinstance(fg_like(0.0, 0), float) and fg_like(1, True) is True
