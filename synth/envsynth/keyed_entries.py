"""A change to one entry of a record's keyed object: "Record a renewed permit for a boat ... verified_on is set to
today and authority is kept unless a new one is given", with `update_permit(boat_id, permit, expiry_date,
authority)` where the record holds `permits: {"mooring": {expiry, verified_on, authority}, "insurance": {...}}`.

A write on one record whose other parameters are an enum naming entries of exactly one object field of the record
(its values all keys of that object) and values for the entries' fields, each parameter one field by name (`authority`)
or by the field's name followed by more words (`expiry_date` -> `expiry`), sets those fields of the entry the enum
argument names; an optional parameter only when given; "<field> is set to today" sets that date field to the
business date; "the new <parameter> must be later than the one already on file" refuses a value not after the
entry's own. Every other parameter must name a field, or nothing is read.

The plan is a `recorded_update` with one `entry_set` effect ({"op", "field", "key_arg", "sets", "optional"}) and
an `entry_later` check for each "later than the one on file" (list_runtime.fg_list_rule),
rendered by recorded_update.py.j2; the call answers the record.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, record_props

LATER = (  # not after "need not" / "does not have to"
    r"\b{words}\b`?(?![^.]{{0,40}}?\b(?:need\s+not|needn't|does\s+not\s+have\s+to|not\s+required))"
    r"[^.]{{0,80}}?\b(?:later\s+than|after)\s+the\s+(?:(?:one|date|value)\s+(?:already\s+)?"
    r"(?:on\s+file|on\s+record|held|stored|recorded)|(?:current|existing|old|previous)\s+(?:one|date|value))\b"
)


def _words(name: str) -> str:
    """A parameter's name as a pattern of its words ("expiry_date" -> "expiry[ _]date")."""
    return r"[ _]".join(re.escape(w) for w in name.split("_"))


def _entry_fields(schema: dict[str, Any], keys: list[str]) -> set[str] | None:
    """The fields every named entry of an object field holds, or None when some key is no entry of it."""
    entries = (schema.get("properties") or {}) if isinstance(schema, dict) else {}
    if not keys or not all(isinstance(entries.get(k), dict) and entries[k].get("properties") for k in keys):
        return None
    return set.intersection(*(set(entries[k]["properties"]) for k in keys))


def _field_for(param: str, fields: set[str]) -> str | None:
    """The entry field a parameter sets: the same name, or the field's name followed by more words."""
    param = param[4:] if param.startswith("new_") and param[4:] else param  # `new_valid_until`
    if param in fields:
        return param
    hits = [f for f in fields if param.startswith(f + "_")]
    return hits[0] if len(hits) == 1 else None


def entry_update(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], today: str | None) -> ToolPlan | None:
    """The `recorded_update` plan of a change to one keyed entry, or None when the tool is not one."""
    if plan.kind != "update" or not plan.collection or not plan.key_param:
        return None
    own = record_props(state_schema.get("properties") or {}, plan.collection)
    params = spec.parameters.get("properties") or {}
    required = set(spec.parameters.get("required") or [])
    others = [p for p in params if p != plan.key_param]
    picks = []
    for arg in others:
        values = (params.get(arg) or {}).get("enum") or []
        if not values or not all(isinstance(v, str) for v in values):
            continue
        for field, schema in sorted(own.items()):
            fields = _entry_fields(schema, list(values))
            if fields:
                picks.append((arg, field, fields))
    if len(picks) != 1:
        return None
    key_arg, holder, fields = picks[0]
    sets: dict[str, dict[str, Any]] = {}
    optional = []
    for arg in others:
        if arg == key_arg:
            continue
        field = _field_for(arg, fields)
        if field is None or field in sets:
            return None
        sets[field] = {"from": "arg", "name": arg}
        if arg not in required:
            optional.append(field)
    for field in sorted(fields - set(sets)):
        said = re.search(rf"\b{re.escape(field)}`?\s+(?:is\s+)?(?:set\s+to|becomes)\s+today\b", spec.description)
        if said and today:
            sets[field] = {"from": "const", "value": today}
    if not sets:
        return None
    effect = {"op": "entry_set", "field": holder, "key_arg": key_arg, "sets": sets, "optional": sorted(optional)}
    later = [  # "The new expiry date must be ... later than the one already on file"
        {"op": "entry_later", "arg": source["name"], "field": holder, "key_arg": key_arg, "sub": field}
        for field, source in sorted(sets.items())
        if source.get("from") == "arg" and re.search(LATER.format(words=_words(source["name"])), spec.description, re.I)
    ]
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "recorded_update",
            "fields": [],
            "field_paths": {},
            "effects": [effect],
            "checks": plan.checks + [c for c in later if c not in plan.checks],
            "evidence": plan.evidence
            + [f"`{key_arg}` names an entry of `{holder}`; the other arguments set its fields"],
        }
    )


__all__ = ["entry_update"]
