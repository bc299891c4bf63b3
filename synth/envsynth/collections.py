"""Doc-derived state layout: which collections exist, their record fields and key fields.

A collection is an object mapping a key (string) to a record (object). Records come from request
bodies, batch parameters and response schemas of the tools that touch the same resource.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from synth.envsynth.priors import ToolPriors, object_properties
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

GENERIC_RESOURCES = {"node", "graph", "item", "record", "object", "data", "store", "entry"}
# parameters of the transport, never fields of a record
TRANSPORT_PARAMS = {
    "page",
    "limit",
    "cursor",
    "access_token",
    "quotaUser",
    "alt",
    "fields",
    "callback",
    "offset",
    "per_page",
    "page_size",
    "pageSize",
    "pageToken",
    "page_token",
    "prettyPrint",
    "key",
    "oauth_token",
    "userIp",
    "upload_protocol",
    "uploadType",
    "$.xgafv",
    "sort",
    "order_by",
    "orderBy",
}
ENVELOPE_KEYS = ("data", "items", "results", "result", "records")


def id_nouns(specs: list[ToolSpec]) -> dict[str, tuple[str, dict[str, Any]]]:
    """{noun: (parameter, schema)} for every `<noun>_id` / `<noun>_number` / `<noun>Id` parameter of the docs."""
    out: dict[str, tuple[str, dict[str, Any]]] = {}
    for spec in specs:
        for pname, pschema in (spec.parameters.get("properties") or {}).items():
            words = split_words(pname)
            if len(words) >= 2 and words[-1].lower() in ("id", "number") and isinstance(pschema, dict):
                if pschema.get("type") in (None, "string", "integer"):
                    noun = "_".join(w.lower() for w in words[:-2] + [singular(words[-2])])
                    if noun not in GENERIC_RESOURCES:
                        out.setdefault(noun, (pname, pschema))
    return out


def response_record(schema: dict[str, Any] | None) -> dict[str, Any]:
    """Record properties of a response: through allOf/oneOf/anyOf and one-key envelopes (`data`, `items`)."""
    if not isinstance(schema, dict):
        return {}
    if schema.get("type") == "array" and isinstance(schema.get("items"), dict):
        return response_record(schema["items"])
    for combo in ("allOf", "oneOf", "anyOf"):
        parts = schema.get(combo)
        if isinstance(parts, list):
            merged: dict[str, Any] = {}
            for part in parts if combo == "allOf" else parts[:1]:
                merged.update(response_record(part))
            if merged:
                return merged
    props = object_properties(schema)
    if len(props) == 1 and next(iter(props)) in ENVELOPE_KEYS:
        inner = response_record(next(iter(props.values())))
        if inner:
            return inner
    if (
        props
        and set(props) & set(ENVELOPE_KEYS)
        and all(
            k in ENVELOPE_KEYS
            or k in TRANSPORT_PARAMS
            or "page" in k.lower()
            or k in ("total", "count", "next", "previous")
            for k in props
        )
    ):
        key = next(k for k in ENVELOPE_KEYS if k in props)
        inner = response_record(props[key])
        if inner:
            return inner
    return props


@dataclass
class CollectionDraft:
    """One collection of the state: its record fields (JSON Schemas) and how records are keyed."""

    name: str
    resource: str
    fields: dict[str, dict[str, Any]] = field(default_factory=dict)
    key_field: str | None = None
    composite_key: list[str] = field(default_factory=list)
    required: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    key_format: dict[str, Any] = field(default_factory=dict)  # {prefix, digits} of keys in sample data

    def record_schema(self) -> dict[str, Any]:
        """JSON Schema of one record."""
        req = sorted(set(self.required) | ({self.key_field} if self.key_field else set(self.composite_key)))
        return {"type": "object", "properties": dict(sorted(self.fields.items())), "required": req}


def clean_field_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop doc-only keywords (readOnly, format, descriptions) that state validation need not carry."""
    if not isinstance(schema, dict):
        return {}
    out: dict[str, Any] = {}
    for k, v in schema.items():
        if k in ("type", "enum"):
            out[k] = copy.deepcopy(v)
        elif k == "items" and isinstance(v, dict):
            out[k] = clean_field_schema(v)
        elif k == "properties" and isinstance(v, dict):
            out[k] = {pk: clean_field_schema(pv) for pk, pv in v.items()}
        elif k == "format" and v == "uuid":
            out[k] = v
    if "type" not in out and "enum" not in out:
        out["type"] = "string"
    return out


RETURNS_UPDATED = re.compile(r"\bReturns\s+the\s+(?:updated|changed|modified)\s+(\w+)(?:\s+record)?\b", re.I)


def returned_record(spec: ToolSpec, keyed: list[str]) -> str | None:
    """Of the collections the parameters name records of (`keyed`, two or more), the one whose record the change
    answers once changed ("Returns the updated boat record"), else None."""
    said = {plural(singular(m.group(1).lower())) for m in RETURNS_UPDATED.finditer(spec.description)}
    found = [c for c in keyed if c in said]
    return found[0] if len(found) == 1 and len(keyed) >= 2 else None


def record_candidates(spec: ToolSpec, pri: ToolPriors) -> list[tuple[str, dict[str, Any], str]]:
    """(resource, record properties, evidence) triples that this tool shows."""
    out: list[tuple[str, dict[str, Any], str]] = []
    props = spec.parameters.get("properties", {}) or {}
    kind = pri.kind_guess
    others = [k for k in props if k not in pri.array_params and k not in pri.path_params]
    batch = False
    for pname in pri.array_params:
        items = props[pname].get("items") or {}
        iprops = object_properties(items)
        payload = pname == "body" or not others
        if iprops and kind == "create" and payload:
            batch = True
            res = singular(split_words(pname)[-1]) if pname != "body" else (pri.resource or "item")
            out.append((res, iprops, f"{spec.name}: items of array parameter `{pname}`"))
    agree = not (pri.verb_kind and pri.http_kind and pri.verb_kind != pri.http_kind)
    if kind in ("create", "update") and pri.resource and agree and not batch:
        body = {k: v for k, v in props.items() if k not in pri.path_params and k not in TRANSPORT_PARAMS}
        if isinstance(props.get("body"), dict) and props["body"].get("type") == "object":
            body = object_properties(props["body"])
        if body:
            out.append((pri.resource, body, f"{spec.name}: body parameters"))
    ret = spec.returns or {}
    ret_props = {k: v for k, v in response_record(ret).items() if k not in TRANSPORT_PARAMS}
    is_list = ret.get("type") == "array"
    if (
        ret_props
        and pri.resource
        and agree
        and (kind in ("create", "update", "get") or (kind in ("list", "search") and is_list))
    ):
        out.append((pri.resource, ret_props, f"{spec.name}: response schema"))
    return out


def draft_collections(specs: list[ToolSpec], priors: dict[str, ToolPriors]) -> dict[str, CollectionDraft]:
    """Collections implied by the docs, in first-seen order."""
    cols: dict[str, CollectionDraft] = {}
    nouns = id_nouns(specs)
    for spec in specs:
        for res, rprops, evidence in record_candidates(spec, priors[spec.name]):
            if res not in nouns:  # the tool's noun that records are named by (`modify_pending_order_x` -> order)
                res = next((singular(w.lower()) for w in split_words(spec.name) if singular(w.lower()) in nouns), res)
            if res in GENERIC_RESOURCES:
                continue
            name = plural(res)
            col = cols.setdefault(name, CollectionDraft(name=name, resource=res))
            for fname, fschema in rprops.items():
                if fname not in col.fields:
                    col.fields[fname] = clean_field_schema(fschema)
            col.sources.append(evidence)
            req = spec.parameters.get("required", []) if "body" in evidence else []
            col.required = sorted(set(col.required) | {r for r in req if r in rprops})
    # array-of-objects params of create tools also define item schemas; fix keys now
    for spec in specs:
        pri = priors[spec.name]
        col = cols.get(plural(pri.resource or ""))
        if col is None:
            continue
        for p in pri.path_params + list((spec.parameters.get("properties") or {}).keys()):
            if p in col.fields and p != "id" and pri.kind_guess in ("get", "update", "delete") and p in pri.path_params:
                col.key_field = p
    for name in list(cols):  # `observations` that are an array field of `entities` are no collection
        others = {k: v for k, v in cols.items() if k != name}
        if list_field_owner(others, name):
            del cols[name]
    for noun, (pname, pschema) in sorted(nouns.items()):  # records the tools name by an id, even with no body
        name = plural(noun)
        if name not in cols and not list_field_owner(cols, name):
            cols[name] = CollectionDraft(
                name=name,
                resource=noun,
                fields={pname: clean_field_schema(pschema)},
                key_field=pname,
                sources=[f"parameter `{pname}`"],
            )
    id_params = {p: s for spec in specs for p, s in (spec.parameters.get("properties") or {}).items()}
    for col in cols.values():
        ref = next((p for p in (f"{col.resource}_id", f"{col.resource}Id") if p in id_params), None)
        if ref and not any(c in col.fields for c in ("id", ref)):  # tools name records by an id the docs never list
            col.fields["id"] = clean_field_schema(id_params[ref])
            col.key_field = "id"
    for col in cols.values():
        if col.key_field is None:
            for cand in ("id", "name", f"{col.resource}Id", f"{col.resource}_id", "username", "key"):
                if cand in col.fields:
                    col.key_field = cand
                    break
        if col.key_field is None:
            col.composite_key = sorted(k for k, v in col.fields.items() if v.get("type") in ("string", "integer"))
        col.required = sorted(r for r in col.required if r in col.fields)
    return cols


def list_field_owner(cols: dict[str, CollectionDraft], noun: str) -> tuple[str, str] | None:
    """(collection, field) when `noun` names an array field of some collection (e.g. entity observations)."""
    for col in cols.values():
        for fname, fs in col.fields.items():
            if fs.get("type") == "array" and plural(fname.lower()) == plural(noun.lower()):
                return col.name, fname
    return None


def singleton_candidates(
    specs: list[ToolSpec], priors: dict[str, ToolPriors], cols: dict[str, CollectionDraft]
) -> dict[str, dict[str, Any]]:
    """Scalar objects of the state: a GET without key parameters whose response is one object."""
    out: dict[str, dict[str, Any]] = {}
    for spec in specs:
        pri = priors[spec.name]
        ret = spec.returns or {}
        if pri.http_kind in ("list", "search") and ret.get("type", "object") == "object" and object_properties(ret):
            if not (spec.parameters.get("properties") or {}):
                name = f"{pri.resource or 'profile'}_profile"
                out[name] = {
                    "type": "object",
                    "properties": {k: clean_field_schema(v) for k, v in object_properties(ret).items()},
                }
    return out


def state_schema_from(cols: dict[str, CollectionDraft], singletons: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The state's JSON Schema: one object property per collection (key -> record) and per singleton."""
    props: dict[str, Any] = {}
    for col in cols.values():
        entry: dict[str, Any] = {"type": "object", "additionalProperties": col.record_schema()}
        if col.key_field:
            entry["x-key-field"] = col.key_field
        else:
            entry["x-composite-key"] = col.composite_key
        props[col.name] = entry
    for name, schema in singletons.items():
        props[name] = schema
    return {"type": "object", "properties": props, "required": sorted(props), "additionalProperties": False}
