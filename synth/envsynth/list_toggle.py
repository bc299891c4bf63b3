"""A list of plain values the call adds to or takes from by an argument's value (mode_rules.py segments):

    Add or remove one extra on a firing. action is 'add' or 'remove'; the firing is 'open' or 'loaded'.
    add: refused if the extra is already there or the firing already has 3 extras; the extra is appended to the end
    of extras.
    remove: refused if absent.

makes a `by_mode` plan whose adding value appends the other argument to the record's list (`list_add`, refused when
it is there already or the list holds the number the docs cap it at) and whose removing value takes it out
(`list_drop`, refused when it is not there); the states the docs allow hold for both
(code_templates/recorded_update.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.mode_rules import by_mode_plan, mode_segments
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from synth.words import plural, singular

ADDING = {"add", "attach", "enable", "include", "assign", "tag", "grant", "subscribe", "join", "insert"}
DROPPING = {"remove", "detach", "disable", "exclude", "unassign", "untag", "revoke", "unsubscribe", "leave", "drop"}
APPENDED = re.compile(
    r"\b(?:appended|added)\s+to\s+(?:the\s+end\s+of\s+)?(?:the\s+|its\s+)?(?:list\s+of\s+)?`?(\w+)`?", re.I
)
CAP = re.compile(r"\balready\s+has\s+(\d+)\s+`?(\w+)`?", re.I)
STATES = re.compile(r"\bthe\s+(\w+)\s+(?:is|must\s+be)\s+((?:['`][\w-]+['`](?:,\s*|\s+or\s+))+['`][\w-]+['`])", re.I)


def _plain_lists(own: dict[str, Any]) -> list[str]:
    """The record's list fields of plain values (not objects)."""
    out = []
    for name, schema in sorted(own.items()):
        if not isinstance(schema, dict) or schema.get("type") != "array":
            continue
        items = schema.get("items")
        if isinstance(items, dict) and (items.get("properties") or items.get("type") == "object"):
            continue
        out.append(name)
    return out


def _states(text: str, noun: str, own: dict[str, Any]) -> dict[str, list[str]]:
    """{status field: values} for "the <noun> is 'a', 'b' or 'c'" when one field of the record is known to hold
    them all."""
    for m in STATES.finditer(text):
        if singular(m.group(1).lower()) != noun:
            continue
        values = re.findall(r"['`]([\w-]+)['`]", m.group(2))
        holders = [
            f
            for f, s in sorted(own.items())
            if isinstance(s, dict) and set(values) <= {str(v) for v in (s.get("enum") or s.get("x-enum") or [])}
        ]
        if len(holders) == 1:
            return {holders[0]: values}
    return {}


def toggle_values(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]
) -> tuple[str, dict[str, str], str, str, str, dict[str, Any]] | None:
    """(parameter, {value: segment}, shared text, adding value, dropping value, the record's fields) of an update
    whose docs describe one adding and one removing value of a parameter, else None (object_toggle.py too)."""
    if plan.kind != "update" or not plan.collection or not plan.key_param:
        return None
    found = mode_segments(spec)
    if found is None:
        return None
    param, segments, shared = found
    adding = [v for v in segments if v.lower() in ADDING]
    dropping = [v for v in segments if v.lower() in DROPPING]
    if len(adding) != 1 or len(dropping) != 1 or len(segments) != 2:
        return None
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    own = ((col.get("additionalProperties") or {}).get("properties") or {}) if isinstance(col, dict) else {}
    return param, segments, shared, adding[0], dropping[0], own


def toggle_plan(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan | None:
    """The `by_mode` plan of a list toggle, or None when the docs describe no adding and removing value."""
    found = toggle_values(spec, plan, state_schema)
    if found is None:
        return None
    param, segments, shared, adding_value, dropping_value, own = found
    lists = _plain_lists(own)
    said = APPENDED.search(segments[adding_value]) or APPENDED.search(shared)
    field = said.group(1) if said and said.group(1) in lists else lists[0] if len(lists) == 1 and not said else None
    params = spec.parameters.get("properties") or {}
    items = [p for p in params if p not in (param, plan.key_param)]
    if field is None or len(items) != 1:
        return None
    add: dict[str, Any] = {"op": "list_add", "field": field, "arg": items[0]}
    cap = CAP.search(segments[adding_value])
    if cap and cap.group(2).lower() in (field.lower(), plural(singular(field.lower())), singular(field.lower())):
        add["most"] = int(cap.group(1))
    preconditions = _states(shared, singular(plan.collection), own)
    base = {**plan.to_dict(), "kind": "recorded_update", "preconditions": preconditions}
    modes = {
        adding_value: {"plan": {**base, "effects": [add]}, "requires": []},
        dropping_value: {
            "plan": {**base, "effects": [{"op": "list_drop", "field": field, "arg": items[0]}]},
            "requires": [],
        },
    }
    return by_mode_plan(
        plan, param, modes, preconditions, f"`{items[0]}` added to or taken from `{field}` by `{param}`"
    )


__all__ = ["toggle_plan", "toggle_values"]
