"""Choosing a tool's plan: the kinds a failing plan may switch to, the docs' status transition, and the candidate
that reproduces the most recorded calls (`synth --traces`); the sandboxed test run they all use."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

import synth
from synth.envsynth.case_filters import ARBITRATED_ORIGINS, refused_by_record
from synth.envsynth.codegen import function_name, header_source, render_tool
from synth.envsynth.lookup_target import retarget, target_key
from synth.envsynth.plan import ToolPlan, describe_plan
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.testgen import TestCase
from synth.envsynth.tool_tests import ToolTestResult, run_tool_tests
from synth.sandbox import SandboxViolation, check_source
from synth.spec import ToolSpec

if TYPE_CHECKING:
    from synth.envsynth.tool_stage import BuildOptions

# Structured repair: other kinds a failing plan may switch to.
ALTERNATIVES = {
    "get": ["filter", "search", "action"],
    "filter": ["search", "list"],
    "search": ["filter", "list"],
    "list": ["dump"],
    "update": ["action"],
    "create": ["batch_create"],
    "delete": ["batch_delete"],
    "get_many": ["filter"],
    "action": ["get"],
}


def run_cases(source: str, fn: str, cases: list[TestCase], schema: SchemaResult) -> tuple[ToolTestResult, str]:
    """Run cases on one tool's code in the sandbox: the result, and the first failures as text ("" when all pass)."""
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    problems = check_source(module)
    if problems:
        return ToolTestResult(0, len(cases), []), "sandbox refused the code: " + "; ".join(problems)[:600]
    try:
        res = run_tool_tests(module, fn, cases, schema.state_schema)
    except SandboxViolation as ex:
        return ToolTestResult(0, len(cases), []), f"sandbox refused the code: {ex}"
    if res.ok:
        return res, ""
    return res, "\n".join(f.text(cases[f.index]) if f.index >= 0 else f.message for f in res.failures[:3])


def recorded_text(recorded: list[TestCase]) -> str:
    """A few recorded calls as JSON lines: arguments, success, output and changed leaves."""
    import json

    rows = [
        {
            "arguments": c.arguments,
            "ok": not c.expect_error,
            "output": c.expect_result,
            "changes": next((k["changes"] for k in c.state_checks if k.get("op") == "changes"), []),
        }
        for c in recorded[:4]
    ]
    return "\n".join(json.dumps(r, sort_keys=True, default=str)[:500] for r in rows)


def docs_transition_plan(
    spec: ToolSpec,
    plan: ToolPlan,
    cases: list[TestCase],
    schema: SchemaResult,
    opts: "BuildOptions",
    attempts: list[dict[str, Any]],
    dropped: list[dict[str, Any]],
    price: Callable[[ToolPlan], ToolPlan] | None = None,
) -> tuple[ToolPlan, list[TestCase]]:
    """The docs' status transition instead of a plain update, when its code passes the tests (`price` adds what
    the change reads from sibling reads; without it when that fails the tests).

    A test written without the docs' precondition (it expects success on a record in a state the docs do not
    allow) is dropped: the docs win over the test writer's guess.
    """
    from synth.envsynth.line_toggle import line_toggle
    from synth.envsynth.list_toggle import toggle_plan
    from synth.envsynth.mode_rules import mode_transition
    from synth.envsynth.object_toggle import object_toggle
    from synth.envsynth.paired_lists import paired_lists
    from synth.envsynth.policy_rules import docs_transition, name_guard

    records = _sample_records(opts, plan.collection)
    moved = None
    acting = retarget(spec, plan, schema.state_schema)  # "the boat's open mooring becomes 'closed'"
    if acting is not None:
        other = _sample_records(opts, acting.collection)
        moved = docs_transition(spec, acting, schema.state_schema, opts.policy, other, opts.sample)
    if moved is None:  # "- `add` appends `{...}` to `crew`; - `remove` deletes the matching member": of objects
        moved = object_toggle(spec, plan, schema.state_schema, records, opts.policy)
    if moved is None:  # "action "add" ...: appends a new line numbered after the highest line_no": of lines
        moved = line_toggle(spec, plan, schema.state_schema, records, opts.policy, opts.sample, opts.glossary)
    if moved is None:
        moved = mode_transition(spec, plan, schema.state_schema, opts.policy, records, opts.sample)
    if moved is None:  # "add: ... appended to extras; remove: ...": a list edited by an argument's value
        moved = toggle_plan(spec, plan, schema.state_schema)
    if moved is None:  # "Labels listed in `remove` are taken out first, then the entries in `add` are appended"
        from synth.envsynth.docs_entries import business_date

        moved = paired_lists(spec, plan, schema.state_schema, business_date(spec.description + "\n" + opts.policy))
    if moved is None:
        moved = docs_transition(spec, plan, schema.state_schema, opts.policy, records, opts.sample)
    if moved is None:  # "Change the grade mode ... A history entry {...} is appended": a recorded field change
        moved = _field_change(spec, plan, schema, opts)
    if moved is None:  # "Moves a trip to a new date and time ... A `moved` entry is added": of several fields
        from synth.envsynth.docs_entries import business_date
        from synth.envsynth.several_changes import several_changes

        today = business_date(spec.description + "\n" + opts.policy)
        moved = several_changes(spec, plan, schema.state_schema, opts.policy, opts.sample, today)
    if moved is None:  # "Record a renewed permit": the fields of the entry of a keyed object an argument names
        from synth.envsynth.docs_entries import business_date
        from synth.envsynth.keyed_entries import entry_update

        moved = entry_update(spec, plan, schema.state_schema, business_date(spec.description + "\n" + opts.policy))
    if moved is None:
        moved = name_guard(spec, plan, schema.state_schema)
    if moved is None:
        return plan, cases
    priced = price(moved) if price is not None else moved
    for candidate in [priced, moved] if priced != moved else [moved]:
        accepted = _accepted(spec, plan, candidate, cases, schema, attempts, dropped)
        if accepted is not None:
            return accepted
    return plan, cases


def _field_change(spec: ToolSpec, plan: ToolPlan, schema: SchemaResult, opts: "BuildOptions") -> ToolPlan | None:
    from synth.envsynth.field_changes import field_change
    from synth.envsynth.quote_reuse import sibling_quotes

    siblings = list(opts.siblings or [])
    quotes = sibling_quotes(siblings, schema.state_schema, opts.sample or {}, opts.policy) if siblings else {}
    return field_change(spec, plan, schema.state_schema, opts.policy, opts.sample, siblings, quotes)


def _accepted(
    spec: ToolSpec,
    plan: ToolPlan,
    moved: ToolPlan,
    cases: list[TestCase],
    schema: SchemaResult,
    attempts: list[dict[str, Any]],
    dropped: list[dict[str, Any]],
) -> tuple[ToolPlan, list[TestCase]] | None:
    """The docs' transition and the cases it keeps, when its code passes them but for cases that expect success
    from a state the docs do not allow (those are dropped); None when it fails another case."""
    if plan.kind == "delete":  # "Scrap a voyage ... The status becomes 'scrapped'": the record stays
        cases = [_kept_record(c) for c in cases]
    fn = function_name(spec.name)
    res, _ = run_cases(render_tool(spec, moved, schema.state_schema), fn, cases, schema)
    against: set[int] = set()
    for f in res.failures:
        case = cases[f.index] if f.index >= 0 else None
        target = target_key(moved, case.state, case.arguments) if case is not None else None
        record = (case.state.get(moved.collection) or {}).get(target) if case is not None and target else None
        owns_none = False  # the argument's record exists but owns no record in the state the docs name
        if moved.lookup and case is not None and record is None:
            owners = case.state.get(moved.lookup["owner"]) or {}
            owns_none = isinstance(owners.get(str(case.arguments.get(moved.key_param))), dict)
            record = {} if owns_none else None
        undocumented_mode = (
            case is not None and moved.kind == "by_mode" and case.arguments.get(moved.op_param) not in moved.modes
        )
        unmatched = (  # a test writer's guess the record refuses as the docs read it (a name to remove it lacks)
            case is not None and case.origin in ARBITRATED_ORIGINS and refused_by_record(moved, case)
        )
        if (
            case is None
            or f.kind != "wrong_error"
            or case.expect_error is not False
            or not isinstance(record, dict)
            or (
                all(record.get(k) in v for k, v in moved.preconditions.items())
                and not undocumented_mode
                and not owns_none
                and not unmatched
            )
        ):
            attempts.append(
                {"route": "structured", "attempt": 0, "plan": describe_plan(moved), "error": f.message[:300]}
            )
            return None
        against.add(f.index)
    for i in sorted(against):
        dropped.append(
            {
                "case": cases[i].to_dict(),
                "failure": "expects success from a state the docs do not allow",
                "verdict": {"decision": "docs"},
            }
        )
    attempts.append({"route": "structured", "attempt": 0, "plan": describe_plan(moved), "error": "", "from": "docs"})
    kept = [c for i, c in enumerate(cases) if i not in against]
    return moved, kept + allowed_cases(moved, kept)


def _sample_records(opts: "BuildOptions", name: str | None) -> list[dict[str, Any]]:
    records = (opts.sample or {}).get(name or "")
    return [r for r in records.values() if isinstance(r, dict)] if isinstance(records, dict) else []


def _kept_record(case: TestCase) -> TestCase:
    """The case without the checks that the record is gone: the verb's guess, which the docs overrule."""
    import copy

    out = copy.deepcopy(case)
    out.state_checks = [c for c in out.state_checks if c.get("op") != "absent"]
    return out


def _meet_mode_checks(plan: ToolPlan, state: dict[str, Any], record: Any, arguments: dict[str, Any]) -> None:
    """The state made to meet the checks of the plan, or of the call's mode on a `by_mode` plan (a balance the
    docs say must cover the amount raised to cover it)."""
    from synth.envsynth.key_cases import _meet_checks

    mode = (plan.modes or {}).get(str(arguments.get(plan.op_param or ""))) if plan.kind == "by_mode" else None
    checked = ToolPlan.from_dict(mode["plan"]) if isinstance(mode, dict) and mode.get("plan") else plan
    if isinstance(record, dict):
        _meet_checks(checked, state, record, arguments)


def allowed_cases(plan: ToolPlan, cases: list[TestCase]) -> list[TestCase]:
    """A case the docs' rule allows: a record of a test state put in an allowed state.

    The documented values must then be set.
    """
    import copy

    for case in cases:
        records = case.state.get(plan.collection or "") if isinstance(case.state, dict) else None
        if (
            case.origin == "property"
            or not isinstance(records, dict)
            or not records
            or plan.key_param not in case.arguments
        ):
            continue
        key = min(records)
        if not isinstance(records[key], dict):
            continue
        state = copy.deepcopy(case.state)
        argument = key
        if plan.lookup:  # the owning record's key names it; it is put in the state the docs name
            argument = records[key].get(plan.lookup["field"])
            if str(argument) not in (state.get(plan.lookup["owner"]) or {}):
                continue
            for name, values in sorted(plan.lookup["where"].items()):
                state[plan.collection][key][name] = values[0]
            if target_key(plan, state, {plan.key_param: argument}) != key:
                continue  # another record of the same owner is in that state already and would be acted on
        for name, values in sorted(plan.preconditions.items()):
            state[plan.collection][key][name] = values[0]
        arguments = {**case.arguments, plan.key_param: argument}
        _meet_mode_checks(plan, state, state[plan.collection][key], arguments)
        consts = [e for e in plan.effects if e["op"] == "set" and e["source"]["from"] == "const"]
        checks = [
            {
                "op": "field_equals",
                "collection": plan.collection,
                "key": key,
                "field": e["field"],
                "value": e["source"]["value"],
            }
            for e in consts
        ]
        moded = [e for m in (plan.modes or {}).values() for e in (m.get("plan") or {}).get("effects") or []]
        moded += [e for e in plan.effects if e.get("op") in ("entries_drop", "entries_add")]  # a label not there
        refusable = bool(plan.checks) or any(
            e.get("op") in ("list_add", "list_drop", "entry_drop", "entries_drop", "entries_add") for e in moded
        )
        refusable = refusable or any((m.get("plan") or {}).get("checks") for m in (plan.modes or {}).values())
        return [
            TestCase(
                tool=case.tool,
                origin="docs-rule",
                state=state,
                arguments=arguments,
                expect_error=None if refusable else False,  # a balance the docs check (a value already listed,
                state_checks=[] if refusable else checks,  # or not listed) may still refuse it
                why="the docs allow the call from this state",
            )
        ]
    return []


def candidate_plans(
    spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase], partial: ToolPlan | None = None
) -> list[ToolPlan]:
    """The decided plan, its neighbouring kinds, and variants learned from the recorded calls (`partial`: the
    docs' quote with the figures they give)."""
    from synth.envsynth.trace_learn import learned_variants
    from synth.envsynth.trace_modes import mode_variants

    out = [plan]
    props = list(spec.parameters.get("properties") or {})
    for kind in ALTERNATIVES.get(plan.kind, []):
        out.append(
            ToolPlan.from_dict(
                {
                    **plan.to_dict(),
                    "kind": kind,
                    "key_param": plan.key_param or next(iter(props), None),
                    "filter_params": plan.filter_params or props,
                }
            )
        )
    out += learned_variants(spec, plan, recorded, partial)
    out += mode_variants(spec, plan, recorded)  # a by_mode plan with one value learned from its recorded calls
    return out


def choose_plan(
    spec: ToolSpec,
    plan: ToolPlan,
    candidates: list[ToolPlan],
    cases: list[TestCase],
    recorded: list[TestCase],
    schema: SchemaResult,
) -> tuple[ToolPlan, dict[str, Any], list[int]]:
    """The candidate reproducing the most recorded calls; among equals, one passing the tool's own tests (first
    on ties). Recorded calls are evidence and the own tests guesses from the docs: when the chosen candidate
    reproduces more recorded calls than any candidate passing every own test, the own tests it fails are
    returned (their indexes) to be dropped."""
    fn = function_name(spec.name)
    best, best_score, best_failed, scores = plan, (-1, -1), [], []
    for cand in candidates:
        try:
            source = render_tool(spec, cand, schema.state_schema)
        except Exception:  # a candidate the templates cannot render is no candidate
            scores.append({"plan": describe_plan(cand), "score": None})
            continue
        own, own_error = run_cases(source, fn, cases, schema) if cases else (None, "")
        rec, _ = run_cases(source, fn, recorded, schema)
        score = (rec.passed, 0 if own_error else 1)
        scores.append({"plan": describe_plan(cand), "own_tests": not own_error, "reproduced": rec.passed})
        if score > best_score:
            failed = sorted({f.index for f in own.failures if f.index >= 0}) if own is not None and own_error else []
            if own_error and not failed:
                continue  # an error no single case explains (the code does not load): never chosen over the tests
            best, best_score, best_failed = cand, score, failed
    return best, {"recorded": len(recorded), "candidates": scores, "contradicted_tests": len(best_failed)}, best_failed


def code_outputs(spec: ToolSpec, plan: ToolPlan, cases: list[TestCase], schema: SchemaResult) -> list[Any]:
    """What the plan's code answers to each case (None where it fails or cannot run)."""
    from synth.sandbox import run_cases as run_sandboxed

    fn = function_name(spec.name)
    try:
        source = render_tool(spec, plan, schema.state_schema)
    except Exception:  # a plan the templates cannot render answers nothing
        return [None] * len(cases)
    module = header_source("check", synth.PIPELINE_VERSION, source) + "\n\n" + source
    if check_source(module):
        return [None] * len(cases)
    payload = [{"function": fn, "state": c.state, "arguments": c.arguments} for c in cases]
    return [o.result if o.status == "ok" else None for o in run_sandboxed(module, payload)]


def with_learned_rows(
    spec: ToolSpec,
    plan: ToolPlan,
    cases: list[TestCase],
    recorded: list[TestCase],
    schema: SchemaResult,
    today: str | None,
) -> tuple[ToolPlan, list[int]]:
    """A list read keeping and ordering its records as the recorded answers do (trace_rows.py), when that
    reproduces more recorded calls: (plan, indexes of the own cases it contradicts)."""
    from synth.envsynth.trace_rows import ROW_KINDS, learned_rows

    if plan.kind not in ROW_KINDS or not recorded:
        return plan, []
    variant = learned_rows(plan, recorded, code_outputs(spec, plan, recorded, schema), today)
    if variant is None:
        return plan, []
    chosen, _, contradicted = choose_plan(spec, plan, [plan, variant], cases, recorded, schema)
    return chosen, contradicted if chosen is variant else []


READ_KINDS = ("get", "filter", "search", "list")  # a recorded call that made a record is no read
CREATING_KINDS = ("by_mode", "update", "recorded_update", "action") + READ_KINDS


def _before_after(collection: str, recorded: list[TestCase]) -> list[tuple[TestCase, Any, Any]] | None:
    """(case, the collection's records before, after) of each successful recorded call; None when the collection
    is no map of records on either side of one."""
    from synth.envsynth.traces import apply_changes, recorded_changes

    out = []
    for case in recorded:
        if case.expect_error:
            continue
        before = case.state.get(collection) or {}
        after = apply_changes(case.state, recorded_changes(case)).get(collection) or {}
        if not isinstance(before, dict) or not isinstance(after, dict):
            return None
        out.append((case, before, after))
    return out


def _made_in(name: str, recorded: list[TestCase]) -> bool:
    """Every successful recorded call (two at least) added exactly one record to the collection."""
    calls = _before_after(name, recorded)
    return (
        calls is not None and len(calls) >= 2 and all(len(set(after) - set(before)) == 1 for _, before, after in calls)
    )


def create_variant(spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase], drafts: dict[str, Any]) -> ToolPlan | None:
    """A create on the plan's collection, when the plan changes a record no parameter names (`incident_id` of a
    "Log an incident" tool), or reads records whose key no parameter gives, and every successful recorded call (two
    at least) added exactly one record to it; else, when every such call added one record to one other collection
    whose key no parameter gives (the passes of "buy a season pass", planned on the boat `boat_id` names), a create
    there: the recorded calls make records, so the learned create (trace_creates) competes with the docs' plan."""
    from synth.envsynth.plan import _id_type, _key_format

    params = spec.parameters.get("properties") or {}
    col = drafts.get(plan.collection or "")
    if plan.kind not in CREATING_KINDS or col is None or not col.key_field:
        return None
    unnamed = plan.key_param not in params or (plan.kind in READ_KINDS and col.key_field not in params)
    if not (unnamed and _made_in(col.name, recorded)):
        made = [
            c
            for name, c in sorted(drafts.items())
            if name != col.name and c.key_field and c.key_field not in params and _made_in(name, recorded)
        ]
        if len(made) != 1:
            return None
        col = made[0]
    return ToolPlan(
        kind="create",
        collection=col.name,
        key_field=col.key_field,
        fields=[p for p in params if p in col.fields and p != col.key_field],
        id_type=_id_type(col),
        key_format=_key_format(col),
        evidence=plan.evidence + ["every recorded call made one record: a create"],
    )


def update_variant(spec: ToolSpec, plan: ToolPlan, recorded: list[TestCase], drafts: dict[str, Any]) -> ToolPlan | None:
    """An update of the record a parameter names by its key, when the plan creates (`charter_id` given to a
    "move charter" read as a create) but no successful recorded call (two at least) added a record to the collection
    and each changed the one that parameter names: the learned update (trace_learn) competes with the docs' plan."""
    params = spec.parameters.get("properties") or {}
    col = drafts.get(plan.collection or "")
    if plan.kind != "create" or col is None or not col.key_field or col.key_field not in params:
        return None
    calls = _before_after(col.name, recorded)
    if calls is None or len(calls) < 2:
        return None
    for case, before, after in calls:
        key = str(case.arguments.get(col.key_field))
        if set(after) != set(before) or key not in before or before[key] == after.get(key):
            return None
    return ToolPlan(
        kind="update",
        collection=plan.collection,
        key_field=col.key_field,
        key_param=col.key_field,
        fields=[p for p in params if p in col.fields and p != col.key_field],
        evidence=plan.evidence + ["every recorded call changed the record its key names: an update"],
    )
