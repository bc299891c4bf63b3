"""Run a tool's tests in the sandbox (separate process, limits) and judge every outcome."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_trees import WORKING_SUFFIX
from synth.fidelity.diff import DELETED_TEXT, change_signature, leaf_changes
from synth.fidelity.normalize import canonical, same
from synth.sandbox import run_cases

RECORDED = "trace"  # origin of cases made from a real system's recorded calls (synth/envsynth/traces.py)


@dataclass
class CaseFailure:
    """One failed case: which, why, and what the code did."""

    index: int
    origin: str
    # "syntax" | "violation" | "exception" | "timeout" | "memory" | "non_json" | "wrong_error" | "wrong_result"
    # | "wrong_state" | "invalid_state" | "crash"
    kind: str
    message: str

    def text(self, case: TestCase) -> str:
        return (
            f"case {self.index} ({self.origin}: {case.why}) {self.kind}: {self.message}\n"
            f"  arguments={json.dumps(case.arguments, sort_keys=True)[:300]}"
        )


@dataclass
class ToolTestResult:
    passed: int
    total: int
    failures: list[CaseFailure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures and self.total > 0


def _get(state: dict[str, Any], col: str, key: str) -> Any:
    return (state.get(col) or {}).get(key)


def recorded_changes_differ(
    expected: list[dict[str, Any]], before: dict[str, Any], after: dict[str, Any]
) -> str | None:
    """Changed leaves (on the state's own top-level keys, not the environment's working node `<tree>_cwd`)
    against recorded ones, compared as fidelity does."""

    def compared(key: Any) -> bool:
        own = isinstance(key, str) and key.endswith(WORKING_SUFFIX) and key[: -len(WORKING_SUFFIX)] in before
        return key in before and not own

    got = change_signature({p: v for p, v in leaf_changes(before, after).items() if p and compared(p[0])})
    want = {row["path"]: (DELETED_TEXT if row.get("deleted") else canonical(row.get("value"))) for row in expected}
    if got == want:
        return None
    extra = sorted(set(got) - set(want))[:2]
    missing = sorted(set(want) - set(got))[:2]
    wrong = sorted(p for p in set(got) & set(want) if got[p] != want[p])[:2]
    return f"changes differ from the recorded ones: unexpected {extra}, missing {missing}, other values at {wrong}"


CHECK_OPS = {"changes", "unchanged", "equals", "absent", "present", "field_equals", "some_record_has"}


def check_state(case: TestCase, before: dict[str, Any], after: dict[str, Any]) -> str | None:
    """The first state check that fails, as text, or None (a check of no known kind is a programming error)."""
    for chk in case.state_checks:
        op = chk["op"]
        if op not in CHECK_OPS:
            raise ValueError(f"unknown state check {op!r} (known: {', '.join(sorted(CHECK_OPS))})")
        if op == "changes":
            problem = recorded_changes_differ(chk["changes"], before, after)
            if problem:
                return problem
        if op == "unchanged" and before != after:
            return "state changed but the call must not change it"
        if op == "equals" and after != chk["state"]:
            return "final state differs from the expected state"
        if op == "absent" and _get(after, chk["collection"], chk["key"]) is not None:
            return f"{chk['collection']}/{chk['key']} still exists"
        if op == "present" and _get(after, chk["collection"], chk["key"]) is None:
            return f"{chk['collection']}/{chk['key']} missing"
        if op == "field_equals":
            rec = _get(after, chk["collection"], chk["key"]) or {}
            if rec.get(chk["field"]) != chk["value"]:
                return (
                    f"{chk['collection']}/{chk['key']}.{chk['field']} is {rec.get(chk['field'])!r}, "
                    f"expected {chk['value']!r}"
                )
        if op == "some_record_has":
            recs = (after.get(chk["collection"]) or {}).values()
            if not any(all(r.get(k) == v for k, v in chk["fields"].items()) for r in recs):
                return f"no record of {chk['collection']} has {json.dumps(chk['fields'], sort_keys=True)[:200]}"
    return None


def run_tool_tests(
    source: str,
    function: str,
    cases: list[TestCase],
    state_schema: dict[str, Any],
    cpu_seconds: float = 2.0,
    memory_mb: int = 512,
) -> ToolTestResult:
    """Run every case of one tool in one sandboxed child process and judge the outcomes."""
    if not cases:
        return ToolTestResult(0, 0, [CaseFailure(-1, "-", "no_tests", "no test cases")])
    payload = [{"function": function, "state": c.state, "arguments": c.arguments} for c in cases]
    outcomes = run_cases(source, payload, cpu_seconds=cpu_seconds, memory_mb=memory_mb)
    validator = jsonschema.Draft202012Validator(state_schema)
    failures: list[CaseFailure] = []
    for i, (case, out) in enumerate(zip(cases, outcomes)):
        fail = _judge(case, out, validator)
        if fail:
            failures.append(CaseFailure(i, case.origin, fail[0], fail[1]))
    return ToolTestResult(len(cases) - len(failures), len(cases), failures)


def _names_a_record(err: jsonschema.ValidationError, state: Any) -> bool:
    """A pattern the sample data suggested, broken inside a record's list entries by the key of a record of another
    collection: a reference to another kind of record (a pier id where the data only showed mooring ids), which the
    pattern did not foresee. A record's own fields and keys of its own collection still break it."""
    path = list(err.absolute_path)
    if err.validator != "pattern" or not isinstance(err.instance, str) or not isinstance(state, dict):
        return False
    if len(path) < 4 or not any(isinstance(p, int) for p in path[2:]):  # collection / key / list / index / field
        return False
    return any(
        isinstance(records, dict) and name != path[0] and err.instance in records for name, records in state.items()
    )


def _judge(case: TestCase, out: Any, validator: jsonschema.Draft202012Validator) -> tuple[str, str] | None:
    if out.status not in ("ok", "tool_error"):
        return out.status, out.error[:400]
    is_error = out.status == "tool_error"
    if case.expect_error is not None and is_error != case.expect_error:
        return "wrong_error", (
            f"raised ToolError({out.error[:200]!r}) but the test expects success"
            if is_error
            else "returned normally but the test expects a ToolError"
        )
    after = out.state_after if out.state_after is not None else case.state
    err = next((e for e in validator.iter_errors(after) if not _names_a_record(e, after)), None)
    if err is not None:
        where = "/".join(str(p) for p in err.absolute_path)
        return "invalid_state", f"state after the call breaks the schema at /{where}: {err.message[:200]}"
    if is_error and after != case.state:
        return "wrong_state", "a ToolError must leave the state unchanged"
    if case.origin == RECORDED and case.has_expected_result and not is_error:
        if not same(out.result, case.expect_result):
            return (
                "wrong_result",
                f"returned {json.dumps(out.result, sort_keys=True, default=str)[:200]}, "
                f"recorded {json.dumps(case.expect_result, sort_keys=True, default=str)[:200]}",
            )
    elif case.has_expected_result and not is_error and out.result != case.expect_result:
        return (
            "wrong_result",
            f"returned {json.dumps(out.result, sort_keys=True)[:200]}, "
            f"expected {json.dumps(case.expect_result, sort_keys=True)[:200]}",
        )
    problem = check_state(case, case.state, after)
    if problem:
        return "wrong_state", problem
    return None
