"""What a create writes that its documented example shows (create_rules reads the rest): the response example of a
new record (it holds the record's key) beside the request example, both on the sample data.

Each scalar field of the example record that no parameter, starting value or effect of the plan sets is read as
- the field of a record the call names (its request example's id, found in the sample data) holding the same value,
  that field's own name first (`locked_rate` 179.00 is the named unit's `monthly_rate`): the new record takes it
  from that record (`inherits`);
- else, for a field whose documented values are listed (an enum, or the data's values), or a value the description
  writes out ("Creates a `held` charter"), that value (`status` "held");
- else, for a number the description writes as an amount ("A $25.00 reservation deposit is collected"), that
  number (`deposit_paid` 25.0).
A value found none of these ways (a price the call computes) is left to the other readers.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.returns_shape import answer_schema
from synth.spec import ToolSpec


def _request_example(spec: ToolSpec) -> dict[str, Any]:
    """The documented example call's arguments (`spec.examples`), else each parameter's own example."""
    for call in spec.examples:
        if isinstance(call.get("arguments"), dict) and call["arguments"]:
            return dict(call["arguments"])
    props = spec.parameters.get("properties") or {}
    out = {}
    for name, schema in props.items():
        if not isinstance(schema, dict):
            continue
        shown = schema.get("examples") if isinstance(schema.get("examples"), list) else None
        if shown:
            out[name] = shown[0]
        elif "example" in schema:
            out[name] = schema["example"]
    return out


def _listed(field: str, own: dict[str, Any], spec: ToolSpec) -> list[Any]:
    """The values the state schema or the documented answer lists for the field (an enum), else none."""
    documented = (answer_schema(spec).get("properties") or {}).get(field)
    for schema in (own.get(field), documented):
        if isinstance(schema, dict) and isinstance(schema.get("enum") or schema.get("x-enum"), list):
            return schema.get("enum") or schema["x-enum"]  # listed by the docs, or every value the data holds
    return []


def _said_amount(value: Any, text: str) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not value:
        return False
    return bool(re.search(rf"(?<![\d.]){re.escape(f'{value:,.2f}')}(?![\d])", text))


def example_values(spec: ToolSpec, plan: ToolPlan, own: dict[str, Any], sample: dict[str, Any]) -> ToolPlan:
    """The create's plan with the starting values and inherited fields its example record shows."""
    example = (spec.returns or {}).get("example") if isinstance(spec.returns, dict) else None
    if plan.kind != "create" or not isinstance(example, dict) or plan.key_field not in example:
        return plan
    asked = _request_example(spec)
    params = set(spec.parameters.get("properties") or {})
    set_here = set(plan.initial_values) | set(plan.inherits) | {e.get("field") for e in plan.effects}
    initial, inherits = dict(plan.initial_values), dict(plan.inherits)
    for field, value in example.items():
        if field == plan.key_field or field in params or field in set_here or field not in own:
            continue
        if isinstance(value, (dict, list)) or value is None or any(value == v for v in asked.values()):
            continue
        found = []
        for param, col in sorted(plan.ref_checks.items()):
            held = (sample.get(col) or {}).get(str(asked.get(param)))
            if isinstance(held, dict):
                found += [(g != field, g, param, col) for g, v in held.items() if v == value and type(v) is type(value)]
        found.sort()
        if found and (not found[0][0] or len(found) == 1):  # its own name, else the one field holding it
            _, source, param, col = found[0]
            inherits[field] = (param, col, source)
            continue
        if isinstance(value, str) and value in _listed(field, own, spec):
            initial[field] = value
        elif isinstance(value, str) and re.search(rf"\b(?:an?|the)\s+`{re.escape(value)}`", spec.description):
            initial[field] = value  # "Creates a `requested` tow": a state the description writes out
        elif _said_amount(value, spec.description):
            initial[field] = value
    if initial == plan.initial_values and inherits == plan.inherits:
        return plan
    evidence = plan.evidence + ["starting values and inherited fields as the example record shows"]
    return ToolPlan.from_dict({**plan.to_dict(), "initial_values": initial, "inherits": inherits, "evidence": evidence})


def _entry_source(value: Any, example: dict[str, Any], key: str) -> dict[str, Any] | None:
    """Where an entry's value comes from: the new record's field holding the same value, a text built around such
    values ("Berth opened with tier B" around the record's `tier`), else the value itself; None for the record's
    key (not set yet when entries are made)."""
    if value == example.get(key):
        return None
    fields = [f for f, v in sorted(example.items()) if f != key and v == value and isinstance(v, (str, int, float))]
    if fields and not isinstance(value, bool):
        return {"from": "record", "path": [fields[0]]}
    if not isinstance(value, str):
        return {"from": "const", "value": value}
    tokens = {
        str(v): f
        for f, v in sorted(example.items())
        if f != key and isinstance(v, str) and re.fullmatch(r"[\w.-]{2,40}", v)
    }
    parts: list[Any] = []
    cursor = 0
    for m in re.finditer(r"[\w.-]+", value):
        if m.group(0) in tokens and value.count(m.group(0)) == 1:
            parts += [value[cursor : m.start()], {"from": "record", "path": [tokens[m.group(0)]]}]
            cursor = m.end()
    if not parts:
        return {"from": "const", "value": value}
    parts = [p for p in parts + [value[cursor:]] if p != ""]
    return {"from": "concat", "parts": parts}


def example_entries(spec: ToolSpec, plan: ToolPlan, own: dict[str, Any], sample: dict[str, Any]) -> ToolPlan:
    """The create's plan with the entries its example record starts a list with, when nothing else fills that list
    and the data's records of the collection start theirs with entries of the same fields (a history's `created`
    entry): each value is the new record's field holding it, a text around such values, or written as shown."""
    example = (spec.returns or {}).get("example") if isinstance(spec.returns, dict) else None
    if plan.kind != "create" or not isinstance(example, dict) or plan.key_field not in example:
        return plan
    params = set(spec.parameters.get("properties") or {})
    set_here = set(plan.inherits) | {e.get("field") for e in plan.effects}
    stored = [r for r in (sample.get(plan.collection or "") or {}).values() if isinstance(r, dict)]
    effects = list(plan.effects)
    for field, entries in sorted(example.items()):
        if field in params or field in set_here or field not in own or not isinstance(entries, list) or not entries:
            continue
        if not all(isinstance(e, dict) and e for e in entries) or plan.initial_values.get(field) not in (None, []):
            continue
        firsts = [r[field][0] for r in stored if isinstance(r.get(field), list) and r[field]]
        if not firsts or any(not isinstance(f, dict) or set(f) != set(entries[0]) for f in firsts):
            continue
        rules = []
        for entry in entries:
            sources = {name: _entry_source(v, example, plan.key_field or "") for name, v in entry.items()}
            if any(src is None for src in sources.values()):
                rules = []
                break
            rules.append({"fields": sources})
        if rules:
            effects.append({"op": "append", "field": field, "items": rules})
    if effects == list(plan.effects):
        return plan
    evidence = plan.evidence + ["the entries its example record starts a list with"]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": effects, "evidence": evidence})


__all__ = ["example_entries", "example_values"]
