"""Which test cases the docs themselves refuse: a case that expects success where a record the call names is
missing or in a state the docs exclude, or where a check read from the docs says no. tool_stage drops such LLM-written
cases when they fail (the docs win over the test writer's guess) and drops the docs' own looser cases when a
stricter reading of the same docs adds checks; each drop is recorded with why."""

from __future__ import annotations

from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.tool_tests import ToolTestResult

ARBITRATED_ORIGINS = {"llm-questions", "llm-cases"}
YIELDED = "yielded"  # the decision of a docs-rule case dropped for the docs' stricter reading: not the arbiter's


DOCS_REFUSAL = "the call is not allowed ("  # how the templates word a refusal by a check read from the docs


KEYED_KINDS = {"get", "update", "recorded_update", "item_add", "item_remove", "delete", "by_mode"}


def refused_by_record(plan: ToolPlan, case: TestCase) -> bool:
    """The call's own record is missing, in a state its preconditions do not allow, or (removing an entry) has no
    entry the call names."""
    if plan.kind not in KEYED_KINDS or not plan.key_param or not plan.collection:
        return False
    value = case.arguments.get(plan.key_param)
    record = (case.state.get(plan.collection) or {}).get(str(value)) if value is not None else None
    if value is not None and not isinstance(record, dict):
        return True
    if not isinstance(record, dict):
        return False
    if any(record.get(f) not in allowed for f, allowed in plan.preconditions.items()):
        return True
    entries, picked = record.get(plan.list_field or ""), case.arguments.get(plan.op_param or "")
    if plan.kind == "item_remove" and plan.item_key and isinstance(entries, list) and picked is not None:
        return not any(isinstance(e, dict) and e.get(plan.item_key) == picked for e in entries)
    return any(_unmatched_removal(eff, record, case.arguments) for eff in plan.effects)


def _unmatched_removal(eff: dict[str, Any], record: dict[str, Any], arguments: dict[str, Any]) -> bool:
    """A paired edit's value to remove that no entry of the record's list holds (paired_lists.py)."""
    given = arguments.get(str(eff.get("arg"))) if eff.get("op") == "entries_drop" else None
    if not isinstance(given, list):
        return False
    fold = (lambda v: str(v).casefold()) if eff.get("caseless") else (lambda v: v)
    held = {fold(e.get(eff["match"])) for e in record.get(eff["field"]) or [] if isinstance(e, dict)}
    return any(fold(v) not in held for v in given if isinstance(v, (str, int, float)))


def outside_states(plan: ToolPlan, case: TestCase) -> bool:
    """A docs-rule case that expects success from a state of its record the plan's preconditions exclude."""
    if case.origin != "docs-rule" or case.expect_error or not plan.key_param or not plan.collection:
        return False
    record = (case.state.get(plan.collection) or {}).get(str(case.arguments.get(plan.key_param)))
    return isinstance(record, dict) and any(record.get(f) not in v for f, v in plan.preconditions.items())


def refused_by_checks(plan: ToolPlan, checks: list[dict[str, Any]], case: TestCase) -> bool:
    """A docs-rule case that expects success where one of these checks, read from the docs, refuses the call."""
    from synth.envsynth.expr_runtime import fg_check

    if case.origin != "docs-rule" or case.expect_error or not checks or not plan.key_param or not plan.collection:
        return False
    record = (case.state.get(plan.collection) or {}).get(str(case.arguments.get(plan.key_param)))
    return isinstance(record, dict) and not all(fg_check(c, case.arguments, record, case.state) for c in checks)


def refused_by_references(plan: ToolPlan | None, case: TestCase) -> bool:
    """The docs refuse the call: its own record is missing or not in an allowed state (refused_by_record), a
    record a parameter names is missing though the docs say it must exist, or is in a state the docs do not allow
    (a create's `ref_checks` and `ref_requires`), or the entry a priced create picks from it is not there (its
    quote's `select`)."""
    if plan is None:
        return False
    if refused_by_record(plan, case):
        return True
    for param, col in plan.ref_checks.items():
        value = case.arguments.get(param)
        if value is not None and str(value) not in (case.state.get(col) or {}):
            return True
    for param, fields in plan.ref_requires.items():
        col = plan.ref_checks.get(param)
        record = (case.state.get(col) or {}).get(str(case.arguments.get(param))) if col else None
        if isinstance(record, dict) and any(record.get(f) not in allowed for f, allowed in fields.items()):
            return True
    named = (plan.quote or {}).get("named") or {}
    for param, (holder, items, match) in ((plan.quote or {}).get("select") or {}).items():  # a berth of the pier
        record = (case.state.get(named.get(holder, "")) or {}).get(str(case.arguments.get(holder)))
        value = case.arguments.get(param)
        entries = record.get(items) if isinstance(record, dict) else None
        if value is not None and isinstance(entries, list):
            if not any(isinstance(e, dict) and e.get(match) == value for e in entries):
                return True
    return False


def docs_refused(
    cases: list[TestCase], res: ToolTestResult, dropped: list[dict[str, Any]], plan: ToolPlan | None = None
) -> set[int]:
    """The LLM-written tests (their indexes) that expect success where the docs refuse the call (a check read from
    them, or a record the call names that is missing or in a state they do not allow), recorded as dropped: the
    docs win over the test writer's guess (as for a transition from a state the docs do not allow)."""
    drop = set()
    for f in res.failures:
        case = cases[f.index] if 0 <= f.index < len(cases) else None
        if (
            case is not None
            and case.origin in ARBITRATED_ORIGINS
            and f.kind == "wrong_error"
            and case.expect_error is False
            and (DOCS_REFUSAL in f.message or refused_by_references(plan, case))
        ):
            drop.add(f.index)
            dropped.append({"case": case.to_dict(), "failure": f.message, "verdict": {"decision": "docs"}})
    return drop


def yield_to_checks(
    plan: ToolPlan, added: list[dict[str, Any]], cases: list[TestCase], dropped: list[dict[str, Any]]
) -> list[TestCase]:
    """The cases without the docs-rule ones that the plan's preconditions or its `added` checks refuse; each one
    left out is recorded in `dropped`."""
    kept = []
    for case in cases:
        if outside_states(plan, case):
            why = "the docs allow the call only from other states of its record"
        elif refused_by_checks(plan, added, case):
            why = "a check read from the docs refuses the call"
        else:
            kept.append(case)
            continue
        dropped.append({"case": case.to_dict(), "failure": why, "verdict": {"decision": YIELDED}})
    return kept
