"""Entries a create stores from a list the call gives in another shape: a charter's `passengers` asked for as
[{"category": "adult", "quantity": 3}] are stored as three entries of one passenger each, and a passenger's
`name`, which the call may leave out, is stored as null.

- A call entry's whole number the stored entries do not have, named for a count (`quantity`, `qty`, `count`) or
  described as one ("Number of identical ...", "Number of passengers" for a list of passengers; not "Number of
  nights"), repeats the entry that many times without it (`expand_entries`).
- A stored entry field the call's entries do not describe, or describe as optional, that the stored schema allows
  to be null and the data shows null in some entry, is null where the call leaves it out (`fill_entries`); other
  fields (an id, a price) are left to the readers that know them (entry_numbers.py, entry_figures.py), or taken from
  a rate card the sample data shows (`entry_rate`, entry_rates.py).

Both apply before the entries are numbered (code_templates/create.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import sample_records
from synth.envsynth.entry_rates import entry_rates
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, record_props, schema_types
from synth.words import singular

COUNT_NAMES = ("quantity", "qty", "count")
COUNT_WORDS = re.compile(r"\bidentical\b|\bcopies\b|\bhow\s+many\s+(?:such|of\s+(?:it|them|these))\b", re.I)


def _count_field(given: dict[str, Any], stored: dict[str, Any], noun: str) -> str | None:
    """The call entry's number that counts copies of the entry: named so, or described as identical copies or
    as a number of the list's own noun ("Number of passengers" for `passengers`; not "Number of nights")."""
    said = re.compile(rf"\bnumber\s+of\s+(?:\w+\s+)?{re.escape(singular(noun))}s?\b", re.I)
    found = [
        name
        for name, schema in given.items()
        if name not in stored
        and isinstance(schema, dict)
        and "integer" in schema_types(schema)
        and (
            name.lower() in COUNT_NAMES
            or COUNT_WORDS.search(str(schema.get("description") or ""))
            or said.search(str(schema.get("description") or ""))
        )
    ]
    return found[0] if len(found) == 1 else None


def call_entries(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], sample: dict[str, Any] | None
) -> ToolPlan:
    """The create with the list entries the call gives expanded by their count and their nullable fields filled;
    unchanged when no list the call gives needs either."""
    if plan.kind != "create" or not plan.collection:
        return plan
    own = record_props(state_schema.get("properties") or {}, plan.collection)
    params = spec.parameters.get("properties") or {}
    records = sample_records(sample or {}, plan.collection)
    done = {(e.get("op"), e.get("field")) for e in plan.effects}
    effects = []
    for name in plan.fields:
        given_items = (params.get(name) or {}).get("items") or {}
        given = given_items.get("properties")
        stored = ((own.get(name) or {}).get("items") or {}).get("properties")
        if not isinstance(given, dict) or not isinstance(stored, dict):
            continue
        count = _count_field(given, stored, name.split("_")[-1])
        if count and ("expand_entries", name) not in done:
            effects.append({"op": "expand_entries", "field": name, "count": count})
        entries = [e for r in records for e in (r.get(name) or []) if isinstance(e, dict)]
        always = set(given_items.get("required") or [])
        nulls = {
            key: None
            for key, schema in stored.items()
            if key not in always
            and "null" in schema_types(schema)
            and any(key in e and e[key] is None for e in entries)
        }
        if nulls and ("fill_entries", name) not in done:
            effects.append({"op": "fill_entries", "field": name, "values": nulls})
        if ("entry_rate", name) not in done:  # a number taken from a rate card the record's links lead to
            effects += entry_rates(sample or {}, plan.collection, name, list(given), stored, list(params))
    if not effects:
        return plan
    evidence = plan.evidence + [
        "entries the call gives stored as the data stores them: " + ", ".join(sorted({e["field"] for e in effects}))
    ]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": plan.effects + effects, "evidence": evidence})


__all__ = ["call_entries"]
