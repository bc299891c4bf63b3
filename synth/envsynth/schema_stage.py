"""Stage 1: the state schema. The LLM proposes collections; checks decide; the docs' own draft backs it up."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

import jsonschema

from synth.envsynth.ask import ChatClient
from synth.envsynth.collections import CollectionDraft, draft_collections, singleton_candidates, state_schema_from
from synth.envsynth.priors import ToolPriors, tool_priors
from synth.llm.prompts import render
from synth.spec import DocSet

PROPOSAL_SCHEMA = {
    "type": "object",
    "properties": {
        "collections": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "name": {"type": "string"},
                    "key": {"type": "string"},
                    "fields": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"name": {"type": "string"}, "type": {"type": "string"}},
                            "required": ["name", "type"],
                        },
                    },
                },
                "required": ["name", "key", "fields"],
            },
        }
    },
    "required": ["collections"],
}
JSON_TYPES = {"string", "integer", "number", "boolean", "array", "object"}


@dataclass
class SchemaResult:
    """The state schema, the collections behind it, and how it was decided."""

    state_schema: dict[str, Any]
    collections: dict[str, dict[str, Any]]
    singletons: dict[str, dict[str, Any]]
    source: str  # "llm" | "llm+docs" | "docs"
    attempts: list[dict[str, Any]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)  # grounding sample data: files, layout, references, notes

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SchemaResult":
        return cls(**d)

    def drafts(self) -> dict[str, CollectionDraft]:
        return {k: CollectionDraft(**v) for k, v in self.collections.items()}


def proposal_problems(proposal: dict[str, Any], needed: dict[str, CollectionDraft]) -> list[str]:
    """What an LLM proposal lacks that the tools need (collections, key fields, field types)."""
    problems = []
    by_name = {c.get("name", "").lower(): c for c in proposal.get("collections", [])}
    for name, col in needed.items():
        got = by_name.get(name.lower())
        if got is None:
            problems.append(f"collection `{name}` is missing (tools use it: {col.sources[0] if col.sources else name})")
            continue
        fields = {f.get("name"): f.get("type") for f in got.get("fields", [])}
        if col.key_field and got.get("key") != col.key_field:
            problems.append(f"collection `{name}` must be keyed by `{col.key_field}`")
        missing = [f for f in col.fields if f not in fields]
        if missing:
            problems.append(f"collection `{name}` lacks fields {missing[:6]}")
        bad = [f for f, t in fields.items() if t not in JSON_TYPES]
        if bad:
            problems.append(f"collection `{name}` has fields with unknown types: {bad[:6]}")
    return problems


def merge_proposal(proposal: dict[str, Any], cols: dict[str, CollectionDraft]) -> int:
    """Add the proposal's extra, well-typed fields to known collections; returns how many were added."""
    added = 0
    for c in proposal.get("collections", []):
        col = cols.get(str(c.get("name", "")).lower())
        if col is None:
            continue
        for f in c.get("fields", []):
            name, typ = f.get("name"), f.get("type")
            if isinstance(name, str) and name.isidentifier() and typ in JSON_TYPES and name not in col.fields:
                col.fields[name] = (
                    {"type": typ}
                    if typ not in ("array", "object")
                    else ({"type": "array", "items": {"type": "string"}} if typ == "array" else {"type": "object"})
                )
                added += 1
    return added


def build_state_schema(docset: DocSet, client: ChatClient | None, max_attempts: int = 2) -> SchemaResult:
    """Ask the LLM for the state's collections, check the answer, re-ask with problems, fall back to the docs."""
    priors: dict[str, ToolPriors] = {t.name: tool_priors(t) for t in docset.tools}
    cols = draft_collections(docset.tools, priors)
    singletons = singleton_candidates(docset.tools, priors, cols)
    attempts: list[dict[str, Any]] = []
    source = "docs"
    if client is not None:
        tools = [
            {"name": t.name, "description": t.description, "params": list((t.parameters.get("properties") or {}))[:8]}
            for t in docset.tools
        ]
        problems: list[str] = []
        for _ in range(max_attempts):
            prompt = render("envsynth_state_schema.j2", tools=tools, policy=docset.policy, problems=problems)
            try:
                proposal = client.json(
                    [{"role": "user", "content": prompt}], PROPOSAL_SCHEMA, max_tokens=700, tag="schema"
                ).data
            except Exception as ex:  # no valid JSON after the client's own repairs
                attempts.append({"problems": [f"no valid answer: {str(ex)[:200]}"]})
                break
            problems = proposal_problems(proposal, cols)
            attempts.append({"proposal": proposal, "problems": problems})
            if not problems:
                added = merge_proposal(proposal, cols)
                source = "llm" if added == 0 else "llm+docs"
                break
        else:
            source = "docs"
    schema = state_schema_from(cols, singletons)
    jsonschema.Draft202012Validator.check_schema(schema)
    return SchemaResult(
        state_schema=schema,
        collections={k: asdict(v) for k, v in cols.items()},
        singletons=singletons,
        source=source,
        attempts=attempts,
    )


def schema_summary(result: SchemaResult) -> str:
    """Short text for reports."""
    parts = [
        f"{n} (key {c.get('key_field') or '+'.join(c.get('composite_key', [])) or 'the map key'}, "
        f"{len(c['fields'])} fields)"
        for n, c in result.collections.items()
    ]
    parts += [f"{n} (object)" for n in result.singletons]
    parts += [f"{n} (tree of `{t['children']}`)" for n, t in (result.data.get("trees") or {}).items()]
    return ", ".join(parts) + f"; decided by: {result.source}"


__all__ = ["SchemaResult", "build_state_schema", "proposal_problems", "schema_summary", "json"]
