"""A late-cancellation fee of one day's rate, due by the argument's reason and how near the start is, waived for one
tier, taken out of the held deposit with the rest refunded; the block that records them, the log entry whose text
the one sample shows (read through the block the call sets), and a reason allowed only once the start has passed."""

from __future__ import annotations

import copy

from synth.envsynth.allowed_when import allowed_checks
from synth.envsynth.codegen import render_tool
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.param_dates import value_dates
from synth.envsynth.plan import ToolPlan
from synth.envsynth.plan_choice import run_cases
from synth.envsynth.policy_rules import docs_transition
from synth.envsynth.quote_effects import priced_plan
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase as Case
from synth.spec import ToolSpec
from tests.schemas import collection

TODAY = "2026-06-12"
S, N = {"type": "string"}, {"type": "number"}
ENTRY = {"type": "object", "properties": {"date": S, "event": {"type": "string", "x-enum": ["cancelled"]}, "detail": S}}
BERTHING = {
    "berthing_id": S,
    "skipper_id": {**S, "x-references": "skippers"},
    "status": {"type": "string", "x-enum": ["reserved", "cancelled"]},
    "tier": {"type": "string", "x-enum": ["standard", "gold"]},
    "start_date": S,
    "daily_rate": N,
    "deposit_held": N,
    "cancellation": {"type": ["object", "null"], "properties": {"reason": S, "fee": N, "deposit_refunded": N}},
    "log": {"type": "array", "items": ENTRY},
}
COLS = {"berthings": collection(BERTHING), "skippers": collection({"skipper_id": S, "credit": N})}
SCHEMA = {"type": "object", "properties": COLS}
REASONS = ["skipper_request", "no_show", "berth_closed"]
CANCEL = ToolSpec(
    "cancel_berthing",
    "Cancels a berthing that is still `reserved`.\n\nReasons: `skipper_request`, `no_show` (only once the start "
    "date has passed) and `berth_closed`.\n\nLate-cancellation fee: one day at the berthing's daily rate when the "
    "reason is `skipper_request` or `no_show` and the start date is less than 2 days away (today, tomorrow or "
    "already past). Gold members never pay it. The fee is taken out of the held deposit (as far as the deposit "
    "reaches); the rest of the deposit is refunded to the skipper's `credit`.\n\nEffects: status `cancelled`, a "
    "`cancellation` block (reason, fee, deposit_refunded), `deposit_held` set to 0, and a `cancelled` log entry.",
    {
        "type": "object",
        "properties": {"berthing_id": S, "reason": {"type": "string", "enum": REASONS}},
        "required": ["berthing_id", "reason"],
    },
)


def _berthing(key: str, **kw) -> dict:
    base = {"berthing_id": key, "skipper_id": "S1", "status": "reserved", "tier": "standard", "start_date": TODAY}
    return {**base, "daily_rate": 40.0, "deposit_held": 100.0, "cancellation": None, "log": [], **kw}


SAMPLE = _berthing("B0", status="cancelled", deposit_held=0.0)
SAMPLE.update(
    cancellation={"reason": "skipper_request", "fee": 0.0, "deposit_refunded": 100.0},
    log=[{"date": "2026-06-01", "event": "cancelled", "detail": "skipper_request, fee 0.00"}],
)
STATE = {
    "berthings": {
        "B0": SAMPLE,
        "B1": _berthing("B1"),  # starts today: the fee is due
        "B2": _berthing("B2", start_date="2026-06-20"),  # far off: free
        "B3": _berthing("B3", tier="gold"),  # waived
        "B4": _berthing("B4", deposit_held=25.0),  # the deposit does not reach
        "B5": _berthing("B5", start_date="2026-06-11"),  # started yesterday
    },
    "skippers": {"S1": {"skipper_id": "S1", "credit": 0.0}},
}
PLAN = ToolPlan(kind="update", collection="berthings", key_field="berthing_id", key_param="berthing_id")


def test_a_word_before_a_value_picks_the_field_it_names() -> None:
    record = {"fee": 0.0, "deposit_held": 0.0, "reason": "x"}
    found = learned_text([("x, fee 0.00", record, [])])
    assert found == {
        "from": "concat",
        "parts": [
            {"from": "record", "path": ["reason"]},
            ", fee ",
            {"from": "fixed", "of": {"from": "record", "path": ["fee"]}, "decimals": 2},
        ],
    }
    assert learned_text([("x, total 0.00", record, [])]) is None  # the word names neither: still undecided


def test_a_reason_allowed_once_the_start_has_passed() -> None:
    own = COLS["berthings"]["additionalProperties"]["properties"]
    assert value_dates(CANCEL.description, CANCEL.parameters["properties"], own, TODAY) == [
        {"op": "dated", "field": "start_date", "cmp": "<", "value": TODAY, "when": {"arg": "reason", "in": ["no_show"]}}
    ]


def test_the_late_fee_its_cover_its_refund_and_its_record() -> None:
    moved = docs_transition(
        CANCEL, PLAN, SCHEMA, f"The business date is {TODAY}.", list(STATE["berthings"].values()), STATE
    )
    assert moved is not None
    plan = priced_plan(CANCEL, moved, SCHEMA, [CANCEL], {}, CANCEL.description, TODAY)
    assert [n for n, _ in plan.quote["steps"]] == ["fee_due", "fee", "refund"]
    plan = allowed_checks(CANCEL, plan, SCHEMA, CANCEL.description, TODAY)  # "`no_show` (only once ... passed)"

    def after(key: str, reason: str, fee: float, refunded: float) -> dict:
        state = copy.deepcopy(STATE)
        state["berthings"][key].update(
            status="cancelled",
            deposit_held=0,
            cancellation={"reason": reason, "fee": fee, "deposit_refunded": refunded},
            log=[{"date": TODAY, "event": "cancelled", "detail": f"{reason}, fee {fee:.2f}"}],
        )
        state["skippers"]["S1"]["credit"] = refunded
        return state

    expected = [
        ("B1", "skipper_request", 40.0, 60.0),
        ("B2", "skipper_request", 0.0, 100.0),
        ("B3", "skipper_request", 0.0, 100.0),
        ("B4", "skipper_request", 25.0, 0.0),
        ("B1", "berth_closed", 0.0, 100.0),
        ("B5", "no_show", 40.0, 60.0),
    ]
    cases = []
    for key, reason, fee, refunded in expected:
        case = Case(CANCEL.name, "x", STATE, {"berthing_id": key, "reason": reason}, expect_error=False)
        case.state_checks = [{"op": "equals", "state": after(key, reason, fee, refunded)}]
        cases.append(case)
    cases.append(Case(CANCEL.name, "x", STATE, {"berthing_id": "B1", "reason": "no_show"}, expect_error=True))
    res, err = run_cases(render_tool(CANCEL, plan, SCHEMA), CANCEL.name, cases, SchemaResult(SCHEMA, {}, {}, "docs"))
    assert err == "" and res.passed == len(cases)
