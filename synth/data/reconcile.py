"""Reconcile the schema inferred from sample data with the docs' own draft, and cut small grounded states.

The data decides the layout (top-level keys, record shapes, key fields, types its values have); the docs win
where they are explicit and the data agrees: their enums join the data's values, their fields that the data
never shows become optional record fields. Collections the docs imply but the data lacks are not added.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict
from typing import Any

import jsonschema

from synth.data.infer import DataLayout
from synth.data.load import SampleData
from synth.envsynth.collections import CollectionDraft, draft_collections
from synth.envsynth.priors import tool_priors
from synth.envsynth.schema_stage import SchemaResult
from synth.errors import ForgeError
from synth.spec import DocSet
from synth.words import plural, singular

CUTS = 3  # grounded example states kept in the schema (tests and tasks start from them)
CUT_RECORDS = 3  # records per collection in one cut
CUT_MAX_CHARS = 40_000  # a whole sample state smaller than this is kept whole


def _record_schema(entry: dict[str, Any]) -> dict[str, Any]:
    return entry.get("additionalProperties") if entry.get("type") == "object" else entry.get("items") or {}


def _merge_field(name: str, col: str, doc: dict[str, Any], data: dict[str, Any], notes: list[str]) -> None:
    dtype, ftype = doc.get("type"), data.get("type")
    if ftype == "null" and isinstance(dtype, str) and dtype != "null":  # never set in the data: the docs' type
        data["type"] = [dtype, "null"]
        if "format" in doc:
            data["format"] = doc["format"]
        if isinstance(doc.get("enum"), list):  # the values the docs list, and null (what the data holds)
            data["enum"] = [*doc["enum"], *([None] if None not in doc["enum"] else [])]
        notes.append(f"{col}.{name}: null in every record of the data; typed {dtype} or null from the docs")
        return
    if dtype and ftype and dtype != ftype and not (dtype == "number" and ftype == "integer"):
        notes.append(f"{col}.{name}: docs say {dtype}, the data has {ftype}; kept the data's type")
        return
    if "enum" in doc:  # the docs list the values: a closed set, with every value the data shows
        values = sorted(set(doc["enum"]) | set(data.get("x-enum") or data.get("enum") or []), key=str)
        data["enum"] = values
        for k in ("pattern", "examples", "x-enum"):
            data.pop(k, None)


def reconcile(layout: DataLayout, docset: DocSet) -> tuple[dict[str, Any], dict[str, CollectionDraft], list[str]]:
    """(state schema, collection drafts in the data's layout, notes on what the docs changed or could not)."""
    schema = copy.deepcopy(layout.state_schema)
    props = schema["properties"]
    priors = {t.name: tool_priors(t) for t in docset.tools}
    doc_cols = draft_collections(docset.tools, priors)
    notes: list[str] = []
    drafts: dict[str, CollectionDraft] = {}
    for name, info in layout.collections.items():
        entry = props[name]
        record = _record_schema(entry)
        fields = record.setdefault("properties", {})
        doc = doc_cols.get(name) or doc_cols.get(plural(singular(name)))
        if doc is not None:
            for fname, fschema in doc.fields.items():
                if fname == doc.key_field and fname not in fields:
                    continue  # the docs' guessed key: the data keys its records itself
                if fname in fields:
                    _merge_field(fname, name, fschema, fields[fname], notes)
                else:  # e.g. a tool's flat parameters that the data nests: the records keep the data's shape
                    notes.append(f"{name}.{fname}: named by the docs, not a field of the data's records; not added")
        drafts[name] = CollectionDraft(
            name=name,
            resource=singular(name),
            fields=copy.deepcopy(fields),
            key_field=info["key_field"],
            composite_key=[],
            required=list(record.get("required") or []),
            key_format=info["key_format"] or {},
            sources=[
                f"data: {info['layout']} of records" + (f" keyed by `{info['key_field']}`" if info["key_field"] else "")
            ],
        )
    for name in doc_cols:
        if name not in props:
            notes.append(
                f"{name}: implied by the docs but absent from the data; not added (the data decides the layout)"
            )
    return schema, drafts, notes


def cut_states(
    data: SampleData, layout: DataLayout, n: int = CUTS, per: int = CUT_RECORDS, max_chars: int = CUT_MAX_CHARS
) -> list[dict[str, Any]]:
    """Small states in the data's layout: whole small samples, else a few records of every collection."""

    out: list[dict[str, Any]] = []
    step = max(1, len(data.states) // n)
    for state in data.states[::step][:n]:
        if len(json.dumps(state)) <= max_chars:
            out.append(copy.deepcopy(state))
    if len(out) >= min(n, len(data.states)):
        return out
    out = []
    base = data.states[0]
    for i in range(n):
        cut: dict[str, Any] = {}
        for name, value in base.items():
            info = layout.collections.get(name)
            if info is None:
                cut[name] = copy.deepcopy(value)
                continue
            keys = sorted(value) if info["layout"] == "map" else list(range(len(value)))
            group = keys[i::n] or keys  # cuts draw from disjoint records; the smallest keep tests and tasks small
            chosen = sorted(
                sorted(group, key=lambda k: (len(json.dumps(value[k], sort_keys=True)), str(k)))[:per], key=str
            )
            cut[name] = (
                {k: copy.deepcopy(value[k]) for k in chosen}
                if info["layout"] == "map"
                else [copy.deepcopy(value[k]) for k in chosen]
            )
        out.append(cut)
    return out


def grounded_schema(docset: DocSet, data: SampleData, layout: DataLayout) -> SchemaResult:
    """The SchemaResult of a grounded environment (source `data+docs`), checked against every sample state."""
    schema, drafts, notes = reconcile(layout, docset)
    cuts = cut_states(data, layout)
    schema["examples"] = cuts
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for i, state in enumerate(data.states):
        err = next(iter(validator.iter_errors(state)), None)
        if err is not None:  # the docs' explicit word contradicts the data: the data is still the layout
            where = "/".join(str(p) for p in err.absolute_path)
            raise ForgeError(f"reconciled schema rejects sample state {i + 1} at {where}: {err.message[:200]}")
    singletons = {name: props for name, props in schema["properties"].items() if name in layout.objects}
    info = {
        "path": data.path,
        "kind": data.kind,
        "files": sorted(data.files),
        "sha256": data.sha256(),
        "states": len(data.states),
        "collections": layout.collections,
        "trees": layout.trees,
        "references": layout.references,
        "notes": notes,
    }
    return SchemaResult(
        state_schema=schema,
        collections={k: asdict(v) for k, v in drafts.items()},
        singletons=singletons,
        source="data+docs",
        attempts=[],
        data=info,
    )


__all__ = ["cut_states", "grounded_schema", "reconcile"]
