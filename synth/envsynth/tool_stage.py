"""Stage 2: one tool's code, its tests, and the repair loop until they agree (or the tool is left out)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from synth.envsynth.arg_limits import amount_param
from synth.envsynth.ask import ChatClient, ask_choice
from synth.envsynth.availability import availability
from synth.envsynth.back_lists import with_back_lists
from synth.envsynth.business_dates import business_time
from synth.envsynth.case_filters import ARBITRATED_ORIGINS, YIELDED, docs_refused, yield_to_checks
from synth.envsynth.codegen import function_name, render_tool, write_free_form
from synth.envsynth.compute_plan import compute_plan
from synth.envsynth.create_checks import create_checks
from synth.envsynth.create_entries import opening_entries
from synth.envsynth.create_profile import profile_effects
from synth.envsynth.create_rules import refine_create
from synth.envsynth.daily_caps import with_daily_caps
from synth.envsynth.docs_entries import business_date
from synth.envsynth.entry_defaults import entry_defaults
from synth.envsynth.entry_numbers import numbered_entries
from synth.envsynth.envelope import with_envelope
from synth.envsynth.example_answers import example_answer
from synth.envsynth.example_creates import example_entries, example_values
from synth.envsynth.example_embeds import example_embeds
from synth.envsynth.fee_lines import with_fee_lines
from synth.envsynth.figure_bounds import figure_bounds
from synth.envsynth.filter_rules import refine_filter
from synth.envsynth.first_entries import first_entries
from synth.envsynth.formula_rules import quote_plan
from synth.envsynth.full_states import with_full_states
from synth.envsynth.get_rules import lookup_keys
from synth.envsynth.given_rules import with_given_rules
from synth.envsynth.instalments import instalment_plan
from synth.envsynth.item_rules import refine_item
from synth.envsynth.list_rules import refine_list
from synth.envsynth.list_totals import with_list_totals
from synth.envsynth.mode_checks import allowed_for_modes
from synth.envsynth.named_conditions import with_named_conditions
from synth.envsynth.option_rules import with_option_rules
from synth.envsynth.overflow_rules import overflow_effects
from synth.envsynth.passed_flags import passed_flags
from synth.envsynth.plan import WRITE_KINDS, PlanContext, ToolPlan, decide_plan, describe_plan
from synth.envsynth.plan_choice import (
    ALTERNATIVES,
    candidate_plans,
    choose_plan,
    create_variant,
    docs_transition_plan,
    recorded_text,
    run_cases,
    update_variant,
    with_learned_rows,
)
from synth.envsynth.posted_lines import with_posted_lines
from synth.envsynth.priors import tool_priors
from synth.envsynth.quote_reuse import priced_fields, recomputed_fields, sibling_quotes
from synth.envsynth.roster_moves import roster_moves
from synth.envsynth.row_cuts import cut_rows
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.search_rules import search_as_filter
from synth.envsynth.settled_states import with_settled_states
from synth.envsynth.testgen import TestCase, doc_example_cases, llm_cases, property_cases, question_cases
from synth.envsynth.tool_tests import ToolTestResult
from synth.envsynth.trace_gate import shown_fields, worse_than_missing
from synth.llm.prompts import render
from synth.spec import ToolSpec, record_props


@dataclass
class BuildOptions:
    """How one tool is built."""

    route: str = "auto"  # "auto" | "code" | "structured"
    strong_model: bool = False  # auto tries free-form code first only for strong models
    votes: int = 3
    max_repairs: int = 2
    seed: int = 0
    n_property_cases: int = 8
    env_id: str = "env"
    policy: str = ""  # the domain policy text passed with the docs (preconditions, status transitions)
    sample: dict[str, Any] | None = None  # the sample data's single state (--data), read for transitions' effects
    styled_output: dict[str, str] | None = None  # an unrecorded tool's message in the recorded tools' style
    glossary: str = ""  # every tool's description: where a field one tool lists is defined by another's docs
    siblings: tuple[ToolSpec, ...] = ()  # every tool of the docs: a create priced as a sibling read computes


@dataclass
class ToolBuild:
    """The outcome for one tool: code, plan, tests, status and the trail of attempts."""

    name: str
    function: str
    status: str  # "passed" | "failed"
    route: str  # "structured" | "code"
    source: str
    plan: dict[str, Any] | None
    tests: list[dict[str, Any]]
    passed_cases: int = 0
    total_cases: int = 0
    last_error: str = ""
    attempts: list[dict[str, Any]] = field(default_factory=list)
    dropped_tests: list[dict[str, Any]] = field(default_factory=list)
    test_view: dict[str, Any] = field(default_factory=dict)
    traces_reproduced: int = 0  # recorded calls (--traces) the code reproduces; those join its tests
    traces_total: int = 0
    trace_failure: str = ""  # the first recorded call it does not reproduce

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "ToolBuild":
        return cls(**d)


def make_tests(
    spec: ToolSpec, schema: SchemaResult, client: ChatClient | None, opts: BuildOptions
) -> tuple[list[TestCase], dict[str, Any], list[str]]:
    """The tool's tests, written without looking at any code."""
    pri = tool_priors(spec)
    today = business_date(spec.description + "\n" + opts.policy)  # a happy path's dates fall near it
    cases, view = question_cases(spec, pri, schema.state_schema, client, opts.seed, opts.votes, today)
    dropped: list[str] = []
    if client is not None and opts.strong_model:
        extra, dropped = llm_cases(spec, schema.state_schema, client)
        cases += extra
    cases += doc_example_cases(spec, schema.state_schema, opts.seed)
    cases += property_cases(spec, schema.state_schema, opts.seed, opts.n_property_cases)
    return cases, view, dropped


def _arbitrate(
    spec: ToolSpec,
    source: str,
    cases: list[TestCase],
    res: ToolTestResult,
    client: ChatClient | None,
    dropped: list[dict[str, Any]],
    refused: set[int] = frozenset(),
) -> list[TestCase]:
    """For failed LLM-written tests, ask which side is wrong; drop tests judged wrong (at most half of them), and
    the `refused` ones (case_filters.docs_refused)."""
    if client is None:
        return [c for i, c in enumerate(cases) if i not in refused]
    earlier = sum(1 for d in dropped if (d.get("verdict") or {}).get("decision") != YIELDED)
    budget = sum(1 for c in cases if c.origin in ARBITRATED_ORIGINS) // 2 - (earlier - len(refused))
    drop: set[int] = set(refused)
    for f in res.failures:
        case = cases[f.index] if f.index >= 0 else None
        if (
            f.index in refused
            or case is None
            or case.origin not in ARBITRATED_ORIGINS
            or f.kind not in ("wrong_error", "wrong_state", "wrong_result")
        ):
            continue
        if len(drop) - len(refused) >= budget:
            break
        prompt_vars = dict(
            name=spec.name,
            description=spec.description[:300],
            state=str(case.state)[:400],
            arguments=str(case.arguments)[:300],
            expected=f"error={case.expect_error} checks={case.state_checks}"[:300],
            actual=f.message[:300],
        )
        vote = ask_choice(client, "envsynth_arbiter.j2", ["code", "test"], "tests.arbiter", **prompt_vars)
        if vote.decision == "test":
            drop.add(f.index)
            dropped.append({"case": case.to_dict(), "failure": f.message, "verdict": vote.to_dict()})
    return [c for i, c in enumerate(cases) if i not in drop]


def build_tool(
    spec: ToolSpec,
    schema: SchemaResult,
    client: ChatClient | None,
    opts: BuildOptions,
    recorded: list[TestCase] | None = None,
) -> ToolBuild:
    """Write, test and repair one tool; the returned build says whether it passed and why not.

    `recorded`: cases from a real system's recorded calls of this tool (--traces). The free-form route must
    reproduce them; the structured route picks, among candidate plans that pass its tests, the one that
    reproduces the most, and keeps those it reproduces as tests.
    """
    build = _build_tool(spec, schema, client, opts, list(recorded or []))
    if build.status == "passed":
        from synth.envsynth.gate import GATE_PREFIX, gate_problems

        shown = shown_fields(build, list(recorded or []))
        problems = gate_problems(spec, build.plan, build.source, build.function, build.tests, shown)
        problems += worse_than_missing(build, list(recorded or []))
        if problems:
            build.status, build.last_error = "failed", GATE_PREFIX + "; ".join(problems)
    return build


def _build_tool(
    spec: ToolSpec, schema: SchemaResult, client: ChatClient | None, opts: BuildOptions, recorded: list[TestCase]
) -> ToolBuild:
    fn = function_name(spec.name)
    cases, view, llm_dropped = make_tests(spec, schema, client, opts)
    layouts = (schema.data or {}).get("collections") or {}
    ctx = PlanContext(
        collections=schema.drafts(),
        singletons=schema.singletons,
        client=client,
        votes=opts.votes,
        trees=dict((schema.data or {}).get("trees") or {}),
        list_collections=[n for n, c in layouts.items() if c.get("layout") == "list"],
    )
    pri = tool_priors(spec)
    plan = search_as_filter(spec, decide_plan(spec, pri, ctx), schema.state_schema)
    today = business_date(spec.description + "\n" + _policy_for(spec, opts.policy) + "\n" + opts.policy)
    plan = refine_list(spec, refine_filter(spec, plan, schema.state_schema), schema.state_schema, today, opts.sample)
    available = availability(spec, plan, schema.state_schema)  # bookings overlapping the dates drop a record
    if available:
        plan = ToolPlan.from_dict({**plan.to_dict(), "availability": available})
    plan = lookup_keys(spec, plan, schema.state_schema)
    docs_text = spec.description + "\n" + _policy_for(spec, opts.policy)
    today = business_date(docs_text + "\n" + opts.policy)
    clock = business_time(docs_text + "\n" + opts.policy) if today else None  # "now is 2031-02-03 10:00"
    plan = passed_flags(spec, plan, schema.state_schema, today, clock, docs_text + "\n" + opts.policy)
    plan = refine_create(spec, plan, schema.state_schema, docs_text, today, opts.sample, opts.policy, clock)
    plan = refine_item(spec, plan, schema.state_schema, docs_text, opts.sample, today)
    plan = quote_plan(spec, plan, schema.state_schema, opts.sample or {}, opts.policy, glossary=opts.glossary)
    if plan.kind in ("create", "item_add", "item_remove") and opts.siblings:
        quotes = sibling_quotes(list(opts.siblings), schema.state_schema, opts.sample or {}, opts.policy)
        plan = priced_fields(
            spec, plan, schema.state_schema, list(opts.siblings), quotes, docs_text, opts.sample, today
        )
        plan = recomputed_fields(spec, plan, schema.state_schema, list(opts.siblings), quotes, docs_text)
    plan = with_named_conditions(spec, plan, schema.state_schema, list(opts.siblings))  # "must be active, ..."
    plan = profile_effects(spec, plan, schema.state_schema, docs_text)  # "defaults to the camper's party_size"
    plan = opening_entries(spec, plan, schema.state_schema, docs_text, opts.sample, today)  # "starts with a ..."
    # "Checks, in order: ..."
    plan = create_checks(spec, plan, schema.state_schema, docs_text, today, opts.sample, opts.policy)
    plan = overflow_effects(spec, plan, schema.state_schema, docs_text)  # "If the section is full, ... unless"
    plan = with_list_totals(plan, schema.state_schema, docs_text, opts.sample or {})  # "total is recomputed"
    plan = with_full_states(spec, plan, schema.state_schema, docs_text)  # "when every tier is full, ... `sold_out`"
    plan = entry_defaults(spec, plan, schema.state_schema, opts.sample or {}, today, clock)
    plan = numbered_entries(spec, plan, schema.state_schema, opts.sample)  # `line`: 1, 2, ... as the data numbers
    attempts: list[dict[str, Any]] = []
    dropped: list[dict[str, Any]] = [{"reason": r} for r in llm_dropped]
    use_code = client is not None and (opts.route == "code" or (opts.route == "auto" and opts.strong_model))
    source, error, res = "", "", ToolTestResult(0, 0)
    if use_code:
        previous = ""
        for attempt in range(opts.max_repairs + 1):
            source = write_free_form(
                client,
                spec,
                schema.state_schema,
                previous=previous,
                error=error,
                policy=_policy_for(spec, opts.policy),
                recorded=recorded_text(recorded),
            )
            res, error = run_cases(source, fn, cases + recorded, schema)
            attempts.append({"route": "code", "attempt": attempt, "error": error[:800]})
            if not error:
                done = _done(spec, fn, "code", source, None, cases + recorded, res, attempts, dropped, view)
                done.traces_reproduced = done.traces_total = len(recorded)
                return done
            cases = _arbitrate(spec, source, cases, res, client, dropped)
            previous = source
        if opts.route == "code":
            return _failed(spec, fn, "code", source, None, cases, res, error, attempts, dropped, view)
    if plan.kind == "unsupported" and recorded and ctx.trees:  # what the recorded answers measure, if anything
        from synth.envsynth.trace_measure import learn_tree_total

        plan = learn_tree_total(spec, ctx.trees, recorded) or plan
    if plan.kind == "unsupported":
        error = "no part of the state serves this tool: " + "; ".join(plan.evidence[-1:])
        attempts.append({"route": "structured", "attempt": 0, "plan": "unsupported", "error": error})
        return _failed(
            spec, fn, "structured", "", plan, cases, ToolTestResult(0, len(cases)), error, attempts, dropped, view
        )
    computing = compute_plan(spec, plan)
    if computing is not None:  # a computation must compute: one case with a known value
        plan = computing
        cases = cases + [
            TestCase(
                tool=spec.name,
                origin="docs-rule",
                state=cases[0].state if cases else {},
                arguments={plan.key_param: "(2 + 3) * 4 - 6 / 3"},
                expect_error=False,
                expect_result=18,
                has_expected_result=True,
                why="the tool computes",
            )
        ]
    price = _pricing(spec, schema, opts, docs_text) if opts.siblings else None
    plan, cases = docs_transition_plan(spec, plan, cases, schema, opts, attempts, dropped, price)
    plan = instalment_plan(spec, plan, schema.state_schema, docs_text, opts.sample, today)  # "divided by the number of"
    plan = with_fee_lines(spec, plan, schema.state_schema, docs_text, opts.sample, today)  # "posted as a `LATE` line"
    plan = roster_moves(spec, plan, schema.state_schema, docs_text, opts.sample, today)  # "Every <noun> on the roster"
    posted = with_posted_lines(plan, schema.state_schema, docs_text, opts.sample or {}, today)  # "two lines are posted"
    listed = posted.effects[-1]["field"] if posted is not plan else None  # "balance is recomputed (tab total - ...)"
    plan = with_list_totals(posted, schema.state_schema, docs_text, opts.sample or {}, listed) if listed else plan
    allowed = allowed_for_modes(spec, plan, schema.state_schema, docs_text, today, opts.sample, opts.policy)
    if allowed != plan:  # the docs' own rules win over cases from a looser reading
        added = [c for c in allowed.checks if c not in plan.checks]
        cases = yield_to_checks(allowed, added, cases, dropped)
    plan = with_option_rules(spec, allowed, schema.state_schema, docs_text)  # "`card` (needs `last4`)"
    drawn = [c for c in plan.checks if c not in allowed.checks]  # "or from the skipper's purse balance": covered
    cases = yield_to_checks(plan, drawn, cases, dropped) if drawn else cases
    plan = with_given_rules(spec, plan, schema.state_schema, opts.sample or {})  # "**Charges**: only with ..."
    settled = with_settled_states(plan, schema.state_schema, opts.sample or {}, docs_text)  # `paid` once paid in full
    settled = with_daily_caps(settled, docs_text, amount_param(spec.parameters.get("properties") or {}))
    owed = [c for c in settled.checks if c not in plan.checks]  # "not more than the outstanding balance"
    plan, cases = settled, yield_to_checks(settled, owed, cases, dropped) if owed else cases
    if opts.styled_output and not recorded and plan.kind in WRITE_KINDS and plan.key_param:
        from synth.envsynth.trace_style import styled_plan_fields

        plan = ToolPlan.from_dict({**plan.to_dict(), **styled_plan_fields(opts.styled_output, plan.key_param)})
        plan.evidence.append("answers in the message style of the recorded tools")
    plan = with_envelope(spec, plan, schema.state_schema, opts.glossary, today, opts.siblings)
    plan = example_answer(spec, plan, schema.state_schema, opts.sample or {}, today)  # "**Response 200** {...}"
    said = docs_text + "\n" + opts.policy
    plan = example_embeds(spec, plan, schema.state_schema, said, today)  # `"harbour": {...}` in its example
    plan = cut_rows(spec, plan, schema.state_schema, today, clock, said)  # each row cut to the fields it shows
    cols = schema.state_schema.get("properties") or {}
    own = record_props(cols, plan.collection or "")
    plan = example_values(spec, first_entries(spec, plan, own), own, opts.sample or {})  # what its example shows
    plan = example_entries(spec, plan, own, opts.sample or {})  # the `created` entry its example's history starts with
    plan = with_back_lists(plan, cols, opts.sample or {})
    plan = figure_bounds(spec, plan, schema.state_schema)  # "min_free_berths: at least this many free berths"
    if plan.tree:
        from synth.envsynth.tree_tests import tree_success_cases

        cases = cases + tree_success_cases(spec, plan, schema.state_schema)
    else:
        from synth.envsynth.key_cases import existing_key_cases
        from synth.envsynth.line_cases import line_cases

        cases = (
            cases + existing_key_cases(plan, cases) + line_cases(plan, cases, spec.parameters.get("properties") or {})
        )
    if recorded:
        partial = None  # a read the docs price but do not fully: its figures, the rest learned from the calls
        if plan.kind in ("get", "quote"):
            sample = opts.sample or {}
            partial = quote_plan(
                spec, ToolPlan(kind="get"), schema.state_schema, sample, opts.policy, True, opts.glossary
            )
        candidates = candidate_plans(spec, plan, recorded, partial)
        for made in (create_variant, update_variant):  # the recorded calls make records, or change a named one
            other = made(spec, plan, recorded, ctx.collections)
            candidates += candidate_plans(spec, other, recorded) if other is not None else []
        plan, chosen, contradicted = choose_plan(spec, plan, candidates, cases, recorded, schema)
        for i in contradicted:  # guesses from the docs that the recorded calls contradict
            dropped.append({"case": cases[i].to_dict(), "failure": "contradicted by the recorded calls"})
        cases = [c for i, c in enumerate(cases) if i not in set(contradicted)]
        plan, contradicted = with_learned_rows(spec, plan, cases, recorded, schema, today)  # which, in what order
        dropped += [{"case": cases[i].to_dict(), "failure": "contradicted by the recorded calls"} for i in contradicted]
        cases = [c for i, c in enumerate(cases) if i not in set(contradicted)]
        attempts.append(
            {"route": "structured", "attempt": 0, "plan": describe_plan(plan), "error": "", "chosen_by": chosen}
        )
    tried = [plan.kind]
    for attempt in range(opts.max_repairs + 1):
        try:
            source = render_tool(spec, plan, schema.state_schema)
        except Exception as ex:  # a plan the templates cannot render (e.g. no collection)
            source, error = "", f"cannot render plan {describe_plan(plan)}: {ex}"
            res = ToolTestResult(0, len(cases))
        else:
            res, error = run_cases(source, fn, cases, schema)
        attempts.append({"route": "structured", "attempt": attempt, "plan": describe_plan(plan), "error": error[:800]})
        if not error:
            return _with_traces(
                _done(spec, fn, "structured", source, plan, cases, res, attempts, dropped, view),
                source,
                fn,
                recorded,
                schema,
            )
        cases = _arbitrate(spec, source, cases, res, client, dropped, docs_refused(cases, res, dropped, plan))
        res2, error2 = run_cases(source, fn, cases, schema) if source else (res, error)
        if source and not error2:
            attempts.append(
                {
                    "route": "structured",
                    "attempt": attempt,
                    "plan": describe_plan(plan),
                    "error": "",
                    "after": "arbiter dropped tests",
                }
            )
            return _with_traces(
                _done(spec, fn, "structured", source, plan, cases, res2, attempts, dropped, view),
                source,
                fn,
                recorded,
                schema,
            )
        options = [k for k in ALTERNATIVES.get(plan.kind, []) if k not in tried]
        if not options:
            break
        choice = options[0]
        if client is not None and len(options) > 1:
            vote = ask_choice(
                client,
                "envsynth_collection.j2",
                options,
                "repair.kind",
                name=spec.name,
                description=f"{spec.description[:200]} (failed as {plan.kind}: {error[:160]})",
            )
            choice = vote.decision or options[0]
        tried.append(choice)
        plan = ToolPlan.from_dict(
            {
                **plan.to_dict(),
                "kind": choice,
                "key_param": plan.key_param or next(iter(spec.parameters.get("properties") or {}), None),
                "filter_params": plan.filter_params or list(spec.parameters.get("properties") or {}),
            }
        )
    return _failed(spec, fn, "structured", source, plan, cases, res, error, attempts, dropped, view)


def _pricing(spec: ToolSpec, schema: SchemaResult, opts: BuildOptions, text: str) -> Callable[[ToolPlan], ToolPlan]:
    """What a docs transition reads from sibling reads' figures (quote_effects), for docs_transition_plan."""
    from synth.envsynth.quote_effects import priced_plan

    def price(plan: ToolPlan) -> ToolPlan:
        quotes = sibling_quotes(list(opts.siblings), schema.state_schema, opts.sample or {}, opts.policy)
        today = business_date(text + "\n" + opts.policy)
        return priced_plan(spec, plan, schema.state_schema, list(opts.siblings), quotes, text, today, opts.sample)

    return price


def _policy_for(spec: ToolSpec, policy: str) -> str:
    """The policy sections for this tool (without its description, which the prompt already has)."""
    if not policy:
        return ""
    from synth.envsynth.policy_rules import tool_text

    return tool_text(spec, policy)[len(spec.description) :].strip()


def _with_traces(build: ToolBuild, source: str, fn: str, recorded: list[TestCase], schema: SchemaResult) -> ToolBuild:
    """Run the recorded cases on the passing code: those it reproduces join its tests, the rest are counted."""
    if not recorded:
        return build
    res, _ = run_cases(source, fn, recorded, schema)
    failing = {f.index for f in res.failures}
    kept = [c.to_dict() for i, c in enumerate(recorded) if i not in failing]
    build.tests = build.tests + kept
    build.passed_cases += len(kept)
    build.total_cases += len(kept)
    build.traces_reproduced, build.traces_total = len(kept), len(recorded)
    first = next((f for f in res.failures), None)
    build.trace_failure = (
        first.text(recorded[first.index]) if first and first.index >= 0 else (first.message if first else "")
    )[:600]
    return build


def _done(spec, fn, route, source, plan, cases, res, attempts, dropped, view) -> ToolBuild:
    """A tool whose code passes its tests."""
    return _build(spec, fn, "passed", route, source, plan, cases, res, "", attempts, dropped, view)


def _failed(spec, fn, route, source, plan, cases, res, error, attempts, dropped, view) -> ToolBuild:
    """A tool left out, with the last error."""
    return _build(spec, fn, "failed", route, source, plan, cases, res, error, attempts, dropped, view)


def _build(spec, fn, status, route, source, plan, cases, res, error, attempts, dropped, view) -> ToolBuild:
    cases_json = [c.to_dict() for c in cases]
    plan_json = plan.to_dict() if plan else None
    return ToolBuild(
        spec.name,
        fn,
        status,
        route,
        source,
        plan_json,
        cases_json,
        res.passed,
        res.total,
        error,
        attempts,
        dropped,
        view,
    )


__all__ = ["BuildOptions", "ToolBuild", "build_tool", "make_tests", "render"]
