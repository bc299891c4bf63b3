"""A read of one record that can also be looked up by another of its fields: `get_member(member_id | email)`,
"look the member up by id or by email". A parameter other than the key that is a text field of the records (by
name) finds the record whose field holds its value, when the key is not given; its docs (or the tool's) saying
"case-insensitive" make the match ignore case. Without the key and without any such value the call is refused.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.filter_rules import CASELESS
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from synth.words import singular


def lookup_keys(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The get plan with `lookup_params` ({parameter: {"field", "caseless"}}) for the other fields it can be
    looked up by; unchanged when it has none."""
    if plan.kind != "get" or not plan.collection or not plan.key_param:
        return plan
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    record = ((col.get("additionalProperties") or {}) if isinstance(col, dict) else {}).get("properties") or {}
    params = spec.parameters.get("properties") or {}
    lookups = {}
    for name, schema in sorted(params.items()):
        field = record.get(name)
        if name == plan.key_param or not isinstance(field, dict) or field.get("type") != "string":
            continue
        if (schema or {}).get("type") not in (None, "string"):
            continue
        said = str((schema or {}).get("description") or "") + " " + spec.description
        lookups[name] = {"field": name, "caseless": bool(CASELESS.search(said))}
    for name, schema in sorted(params.items()):  # "or by one of its boats' hull numbers": a field of records naming it
        if (
            name == plan.key_param
            or name in lookups
            or name in record
            or (schema or {}).get("type") not in (None, "string")
        ):
            continue
        found = _naming_field(name, plan.collection, state_schema)
        if found is not None:
            said = str((schema or {}).get("description") or "") + " " + spec.description
            digits = bool(SPELT_NUMBER.search(said))  # "given with spaces or in +31 form": matched by its digits
            lookups[name] = {"field": name, "caseless": False, "via": found[0], "ref": found[1], "digits": digits}
    if not lookups or len(lookups) != len([p for p in params if p != plan.key_param]):
        return plan  # every other parameter must be a lookup field: otherwise they are options, not keys
    evidence = plan.evidence + ["also looked up by " + ", ".join(sorted(lookups))]
    return ToolPlan.from_dict({**plan.to_dict(), "lookup_params": lookups, "evidence": evidence})


SPELT_NUMBER = re.compile(
    r"\bwith(?:\s+or\s+without)?\s+spaces\b|\+\d{1,3}\b(?![.%])|\binternational\s+form(?:at)?\b", re.I
)


def _naming_field(name: str, collection: str, state_schema: dict[str, Any]) -> tuple[str, str] | None:
    """(collection, reference field) of the one other collection whose records hold a text field `name` and name a
    record of `collection` (`boats.hull_no`, `boats.skipper_id`)."""
    own = singular(collection)
    found = []
    for other, col in sorted((state_schema.get("properties") or {}).items()):
        props = ((col.get("additionalProperties") or {}) if isinstance(col, dict) else {}).get("properties") or {}
        refs = [
            f
            for f, sub in props.items()
            if isinstance(sub, dict) and (sub.get("x-references") == collection or f == f"{own}_id")
        ]
        if other != collection and (props.get(name) or {}).get("type") == "string" and len(refs) == 1:
            found.append((other, refs[0]))
    return found[0] if len(found) == 1 else None


__all__ = ["lookup_keys"]
