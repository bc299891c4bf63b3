"""A create whose linked record may be full: "If the section is full, the call fails unless join_waitlist is true,
in which case the enrollment is created with status 'waitlisted', nothing is charged, and the student id is
appended to the section's waitlist (at most 5 students per waitlist)".

The linked record is the one the noun names (`section_id` -> sections); it is full when the number the create adds
to on it (its `enrolled_count`, an `adjust` effect of the plan) has reached its capacity (the one number field
named capacity, limit, size or max_*). Full, the call is refused unless the yes/no parameter is true; then the new
record takes the stated value instead of its starting one, the amounts the sibling quote set are 0 ("nothing is
charged"), the create's moves on other records are not made (they take a seat), and the argument the sentence names
joins the linked record's list, which may hold at most the stated number. An entry the record opens with
("event: 'enrolled' or 'waitlisted', note ... 'position N' (the student's place on the waitlist, counting from 1)")
then shows the new value and the place in the list.

One `overflow` effect (code_templates/create.py.j2): {via, collection, count, limit, switch, field, value, list,
item, max?, zero, entry?: {list, event, note, prefix}}.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec
from synth.words import singular

FULL = re.compile(
    r"\bif\s+the\s+(?P<noun>[a-z]\w*)\s+is\s+full,\s+the\s+(?:call|request)\s+fails\s+unless\s+`?(?P<switch>\w+)`?\s+is\s+"
    r"true,\s+in\s+which\s+case\s+(?P<rest>[^.]*?(?:\([^()]*\)[^.]*?)*)\.(?:\s|$)",
    re.I,
)
STATUS = re.compile(r"\bwith\s+(?:status|state)\s+[`'\"](?P<value>[\w-]+)[`'\"]", re.I)
APPENDED = re.compile(
    r"\bthe\s+(?P<what>[a-z][\w ]*?)\s+is\s+(?:appended|added)\s+to\s+the\s+\w+['\u2019]s\s+`?(?P<list>\w+)`?"
    r"(?:\s*\(at\s+most\s+(?P<max>\d+))?",
    re.I,
)
NOTHING_CHARGED = re.compile(r"\bnothing\s+is\s+(?:charged|billed|paid)\b", re.I)
PLACE = re.compile(r"[`'\"](?P<prefix>[A-Za-z][\w ]*?\s)N[`'\"]\s*\(the\s+\w+['\u2019]s\s+place\b", re.I)
CAPACITY = re.compile(r"^(?:capacity|limit|size|max_\w+|\w+_capacity|\w+_limit)$")


def _count_field(plan: ToolPlan, collection: str) -> str | None:
    """The number the create adds to on the linked record (`enrolled_count`)."""
    fields = [
        e["path"][-1].get("value")
        for e in plan.effects
        if e.get("op") == "adjust" and e.get("collection") == collection and e.get("path")
    ]
    return fields[0] if len(fields) == 1 else None


def overflow_effects(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], text: str) -> ToolPlan:
    """The create plan with an `overflow` effect when its docs say what a full linked record makes of the call."""
    if plan.kind != "create" or not plan.collection:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    params = spec.parameters.get("properties") or {}
    plain = unwrap(text)
    m = FULL.search(plain)
    if m is None or (params.get(m.group("switch")) or {}).get("type") != "boolean":
        return plan
    link = noun_link(m.group("noun"), own, cols)
    status, appended = STATUS.search(m.group("rest")), APPENDED.search(m.group("rest"))
    if link is None or status is None or appended is None:
        return plan
    via, linked = link
    theirs = _props(cols, linked)
    limits = [f for f in sorted(theirs) if CAPACITY.match(f) and (theirs[f] or {}).get("type") in ("integer", "number")]
    count = _count_field(plan, linked)
    field = next((f for f, s in sorted(own.items()) if status.group("value") in _known(s or {})), None)
    item = "_".join(appended.group("what").lower().split())
    listed = appended.group("list")
    if len(limits) != 1 or count is None or field is None or item not in params or listed not in theirs:
        return plan
    effect: dict[str, Any] = {
        "op": "overflow",
        "via": via,
        "collection": linked,
        "count": count,
        "limit": limits[0],
        "switch": m.group("switch"),
        "field": field,
        "value": status.group("value"),
        "list": listed,
        "item": item,
        "zero": sorted((plan.quote or {}).get("assign") or {}) if NOTHING_CHARGED.search(m.group("rest")) else [],
    }
    effect.update({"max": int(appended.group("max"))} if appended.group("max") else {})
    entry = _entry(plan, own, plain, field, listed)
    effect.update({"entry": entry} if entry else {})
    evidence = plan.evidence + [f"a full {singular(linked)} makes the record `{status.group('value')}`"]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": list(plan.effects) + [effect], "evidence": evidence})


def _entry(plan: ToolPlan, own: dict[str, Any], text: str, field: str, listed: str) -> dict[str, Any] | None:
    """The opening entry's fields that show the new value and the place in the list ("'position N' (the student's
    place on the waitlist, counting from 1)")."""
    place = PLACE.search(text)
    if place is None or listed.lower() not in text[place.end() : place.end() + 40].lower():
        return None
    for e in plan.effects:
        if e.get("op") != "append":
            continue
        fields = (e.get("items") or [{}])[0].get("fields") or {}
        starts = plan.initial_values.get(field)
        event = [n for n, src in fields.items() if src.get("from") == "const" and src.get("value") == starts]
        notes = [n for n, src in fields.items() if src.get("from") == "const" and src.get("value") == ""]
        if len(event) == 1 and len(notes) == 1:
            return {"list": e["field"], "event": event[0], "note": notes[0], "prefix": place.group("prefix")}
    return None


__all__ = ["overflow_effects"]
