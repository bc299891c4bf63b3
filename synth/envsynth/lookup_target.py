"""A write keyed by one record that changes another: "Checks in a boat by its hull number. The boat's open mooring
becomes 'closed' ... Returns the updated mooring."

The argument names a record of one collection (the boat); the docs say the call changes that record's <state>
<noun> ("the boat's open mooring") and answer that noun, a collection whose records name the first by a field (a
mooring's `boat_id`). The call then acts on the record of the second collection that names the argument's record
and is in that state (`status` `open`): a `lookup` plan ({owner, field, where}) found at call time, refused when the
argument's record does not exist or has no such record. Without a state word ("the boat's mooring") nothing says
which of the records it owns is meant, so the plan is left as it is.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from synth.words import plural, singular

OWNED = re.compile(
    r"\b(?P<owner>\w+)['\u2019]s\s+(?:(?P<adj>[\w-]+)\s+)?(?P<noun>\w+)\s+(?:becomes|is\s+set\s+to|is)\b"
)
RETURNS = re.compile(r"\bReturns?\s+the\s+(?:updated\s+|changed\s+|closed\s+|new\s+)?(?P<noun>\w+)", re.IGNORECASE)


def retarget(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan | None:
    """The plan moved onto the record the argument's record owns in the documented state, or None."""
    if plan.kind not in ("update", "delete") or not plan.collection or not plan.key_param or plan.lookup:
        return None
    owner = singular(plan.collection)
    cols = state_schema.get("properties") or {}
    answered = RETURNS.search(spec.description)
    for m in OWNED.finditer(spec.description):
        other = plural(singular(m.group("noun").lower()))
        if m.group("owner").lower() != owner or other == plan.collection or not _props(cols, other):
            continue
        if not answered or plural(singular(answered.group("noun").lower())) != other:
            continue  # the docs answer the other record: what they say the call is about
        fields = _props(cols, other)
        refs = [
            f
            for f, s in sorted(fields.items())
            if f == plan.key_param or (isinstance(s, dict) and s.get("x-references") == plan.collection)
        ]
        if len(refs) != 1:
            continue
        adj = m.group("adj")
        if not adj:
            continue  # which of the records it owns would be a guess ("the boat's mooring")
        states = [
            f
            for f, s in sorted(fields.items())
            if isinstance(s, dict) and adj in (s.get("enum") or s.get("x-enum") or [])
        ]
        if len(states) != 1:
            continue  # a word that names no state of the other record ("the boat's last mooring")
        where = {states[0]: [adj]}
        key_field = (cols.get(other) or {}).get("x-key-field")
        lookup = {"owner": plan.collection, "field": refs[0], "where": where}
        evidence = plan.evidence + [f"acts on the {owner}'s {adj} {singular(other)}"]
        return ToolPlan.from_dict(
            {**plan.to_dict(), "collection": other, "key_field": key_field, "lookup": lookup, "evidence": evidence}
        )
    return None


def target_key(plan: ToolPlan, state: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """The key of the record a call acts on in a state (the argument itself without a lookup)."""
    records = state.get(plan.collection or "") if isinstance(state, dict) else None
    if not isinstance(records, dict):
        return None
    if not plan.lookup:
        return str(arguments.get(plan.key_param))
    wanted = str(arguments.get(plan.key_param))
    for key, record in sorted(records.items()):
        if (
            isinstance(record, dict)
            and str(record.get(plan.lookup["field"])) == wanted
            and all(record.get(f) in v for f, v in plan.lookup["where"].items())
        ):
            return key
    return None


__all__ = ["retarget", "target_key"]
