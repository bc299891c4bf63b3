"""Environment synthesis as plain stage functions (the Prefect flows call the same functions).

docset = ingest(paths)
schema = build_state_schema(docset, client, config)
builds = [build_tool(spec, docset, schema, client, config) for spec in docset.tools]
draft  = assemble(docset, schema, builds, config, stats)
publish_environment(draft, out_dir)
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from synth.envsynth import schema_stage, tool_stage
from synth.envsynth.ask import ChatClient
from synth.envsynth.publish import EnvDraft, assemble_environment, publish_environment, write_unpublished_report
from synth.envsynth.schema_stage import SchemaResult
from synth.envsynth.tool_stage import BuildOptions, ToolBuild
from synth.errors import ForgeError
from synth.spec import DocSet, ToolSpec


@dataclass
class SynthConfig:
    """Knobs of environment synthesis."""

    env_id: str
    route: str = "auto"  # "auto" | "code" | "structured"
    strong_model: bool = False
    votes: int = 3
    max_repairs: int = 2
    min_pass_ratio: float = 0.5
    min_tools: int = 2
    seed: int = 0
    n_property_cases: int = 8
    data: str | None = None  # --data: sample data that grounds the state (JSON, JSONL or a folder)
    data_sha256: str = ""  # digest of the data files (part of every stage's cache key)
    traces: str | None = None  # --traces: a real system's recorded calls (forgegym fidelity --record)
    traces_sha256: str = ""  # digest of the traces file (part of every stage's cache key)
    traces_per_tool: int = 24  # recorded calls per tool turned into cases

    def build_options(self) -> BuildOptions:
        return BuildOptions(
            route=self.route,
            strong_model=self.strong_model,
            votes=self.votes,
            max_repairs=self.max_repairs,
            seed=self.seed,
            n_property_cases=self.n_property_cases,
            env_id=self.env_id,
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def ingest(paths: list[str | Path]) -> DocSet:
    """Load the tool docs (exit 2 on bad input through InputError)."""
    from synth.tooldocs import load_docs

    return load_docs([str(p) for p in paths])


def build_state_schema(docset: DocSet, client: ChatClient | None, config: SynthConfig) -> SchemaResult:
    """The docs' state schema, or with --data the data's layout reconciled with the docs."""
    from synth.envsynth.field_words import with_field_words

    if config.data:
        from synth.data import grounded_state_schema

        result = grounded_state_schema(docset, config.data)
        if config.traces:  # a field the data holds only as null but the recorded calls fill
            from synth.envsynth.trace_schema import widened_schema

            calls = recorded_calls(config.traces, config.traces_sha256, config.data)
            result.state_schema, notes = widened_schema(result.state_schema, calls)
            result.data = {**result.data, "notes": list(result.data.get("notes") or []) + notes}
    else:
        from synth.envsynth.docs_tree import docs_tree_schema, prefers_tree

        result = schema_stage.build_state_schema(docset, client)
        if prefers_tree(docset, result):  # shell-like docs: files and folders, no records
            return docs_tree_schema(docset) or result
    result.state_schema = with_field_words(result.state_schema, list(docset.tools))  # "arrival date" -> `arrive_on`
    return result


def build_tool(
    spec: ToolSpec, docset: DocSet, schema: SchemaResult, client: ChatClient | None, config: SynthConfig
) -> ToolBuild:
    """One tool's build; with --traces its recorded calls are cases it is chosen and kept by."""
    recorded = None
    if config.traces:
        from synth.envsynth.traces import pick_calls, trace_case

        calls = recorded_calls(config.traces, config.traces_sha256, config.data)
        recorded = [trace_case(c) for c in pick_calls(calls, spec.name, config.traces_per_tool)]
        trees = dict((schema.data or {}).get("trees") or {})
        if trees:
            from synth.envsynth.trace_trees import place_in_tree

            recorded = [place_in_tree(c, trees) for c in recorded]
    opts = config.build_options()
    opts.policy = with_business_date(docset, config)  # a date the docs never state: recorded, else sampled
    opts.glossary = "\n\n".join(t.description for t in docset.tools)
    opts.siblings = tuple(docset.tools)
    if config.traces and not recorded:  # nobody recorded this tool: answer in the style the others recorded
        opts.styled_output = unrecorded_style(spec, docset, config)
    if config.data:
        opts.sample = single_sample_state(config.data, config.data_sha256)
    return tool_stage.build_tool(spec, schema, client, opts, recorded)


def with_recorded_date(docset: DocSet, config: SynthConfig) -> str:
    """The policy, with the business date the recorded calls show (trace_today.py) when the docs state none."""
    from synth.envsynth.docs_entries import business_date
    from synth.envsynth.trace_today import business_date_line, recorded_business_date

    docs = "\n".join(t.description for t in docset.tools) + "\n" + docset.policy
    if business_date(docs) or not config.traces:
        return docset.policy
    learned = recorded_business_date(recorded_calls(str(config.traces), config.traces_sha256, config.data))
    return docset.policy + ("\n\n" + business_date_line(learned) + "\n" if learned else "")


def with_business_date(docset: DocSet, config: SynthConfig) -> str:
    """The policy, with a business date when the docs state none: the one the recorded calls stamp
    (with_recorded_date), else the one the data sample implies (sample_today.py)."""
    from synth.envsynth.docs_entries import business_date
    from synth.envsynth.sample_today import sampled_business_date, sampled_date_line

    policy = with_recorded_date(docset, config)
    if business_date("\n".join(t.description for t in docset.tools) + "\n" + policy) or not config.data:
        return policy
    implied = sampled_business_date(single_sample_state(config.data, config.data_sha256))
    return policy + ("\n\n" + sampled_date_line(implied) + "\n" if implied else "")


def unrecorded_style(spec: ToolSpec, docset: DocSet, config: SynthConfig) -> dict[str, Any] | None:
    """{key, quote, participle} of the message style other tools' recorded calls share, when the docs promise
    this tool a message under the same key (trace_style.py)."""
    from synth.envsynth.trace_style import learn_style, styled_output

    calls = recorded_calls(str(config.traces), config.traces_sha256, config.data)
    seen: dict[str, list[tuple[dict[str, Any], Any]]] = {}
    for c in calls:
        if c.ok:
            seen.setdefault(c.tool, []).append((c.arguments, c.output))
    style = learn_style(docset.tools, seen)
    return styled_output(spec, docset.tools, style) if style is not None else None


@lru_cache(maxsize=2)
def single_sample_state(path: str, sha256: str) -> dict[str, Any] | None:
    """The sample data's state when it holds exactly one (cached per digest), else None."""
    from synth.data.load import load_sample_data

    states = load_sample_data(path).states
    return states[0] if len(states) == 1 else None


@lru_cache(maxsize=2)
def recorded_calls(path: str, sha256: str, data: str | None) -> list[Any]:
    """The recorded calls of a traces file (cached per file digest).

    The data's single state starts traces without one.
    """
    from synth.envsynth.traces import load_traces

    state = None
    if data:
        from synth.data.load import load_sample_data

        states = load_sample_data(data).states
        state = states[0] if len(states) == 1 else None
    return load_traces(path, state)


def traces_digest(path: str | Path) -> str:
    """sha256 of a traces file (InputError naming it when unreadable)."""
    import hashlib

    from synth.errors import InputError

    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError as err:
        raise InputError(str(path), "(file)", f"cannot read: {err}") from None


def assemble(
    docset: DocSet,
    schema: SchemaResult,
    builds: list[ToolBuild],
    config: SynthConfig,
    stats: dict[str, Any],
    models: dict[str, Any] | None = None,
) -> EnvDraft:
    policy = with_business_date(docset, config)
    draft = assemble_environment(
        docset,
        schema,
        builds,
        env_id=config.env_id,
        min_pass_ratio=config.min_pass_ratio,
        min_tools=config.min_tools,
        stats=stats,
        models=models or {},
        notes=date_notes(docset, policy),
        policy=policy,  # the agent works on the date the tools were built on
    )
    if config.data:
        from synth.data import attach_data

        attach_data(draft, schema, config.data)
    return draft


def date_notes(docset: DocSet, policy: str) -> tuple[str, ...]:
    """REPORT.md's line on a business date the docs never state but the traces or the data sample gave
    (`policy`: with_business_date's)."""
    added = policy[len(docset.policy) :].strip()
    return tuple(f"Assumed: {line}" for line in added.splitlines() if line.strip())


def synthesize_environment(
    paths: list[str | Path],
    out_dir: str | Path,
    client: ChatClient | None,
    config: SynthConfig,
    progress: Callable[[str, int, int], None] | None = None,
    models: dict[str, Any] | None = None,
) -> EnvDraft:
    """All stages in order; publishes only when enough tools pass (else raises ForgeError with the reason)."""
    t0 = time.perf_counter()
    docset = ingest(paths)
    if progress:
        progress("state schema", 0, len(docset.tools))
    schema = build_state_schema(docset, client, config)
    builds = []
    for i, spec in enumerate(docset.tools):
        if progress:
            progress(f"tool {spec.name}", i, len(docset.tools))
        builds.append(build_tool(spec, docset, schema, client, config))
    if progress:
        progress("publish", len(docset.tools), len(docset.tools))
    stats = llm_stats(client)
    stats["wall_s"] = round(time.perf_counter() - t0, 2)
    draft = assemble(docset, schema, builds, config, stats, models)
    if not draft.publishable:
        report = write_unpublished_report(draft, out_dir)
        raise ForgeError(f"{config.env_id}: not published: {draft.reason} (each tool's reason: {report})")
    publish_environment(draft, out_dir)
    return draft


def llm_stats(client: Any) -> dict[str, Any]:
    """The client's call, cache and token counts (empty without a client)."""
    stats = getattr(client, "stats", None)
    if stats is None:
        return {}
    d = stats.to_dict() if hasattr(stats, "to_dict") else dict(stats)
    keep = ("calls", "cache_hits", "prompt_tokens", "completion_tokens", "latency_s")
    return {k: d[k] for k in keep if k in d}


__all__ = [
    "EnvDraft",
    "SchemaResult",
    "SynthConfig",
    "ToolBuild",
    "assemble",
    "build_state_schema",
    "build_tool",
    "ingest",
    "publish_environment",
    "synthesize_environment",
]
