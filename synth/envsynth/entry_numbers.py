"""Numbers a create gives the entries of a list it copies from the call: a chandlery requisition's `lines` given
as [{"sku", "qty"}] are stored as [{"line": 1, "sku", "qty"}, {"line": 2, ...}], each entry numbered by its place.

Read from the data alone: the list field's entries in every sample record hold a field the call's entries do not
describe, whose value is the entry's place counted from 1, as a number (1, 2, 3) or after one fixed prefix (`A1`,
`A2`, `L-1`): at least two records with entries, one of them with two or more, so one entry is no sequence. Each
becomes a `number_entries` effect {"field", "key", "prefix"} (`prefix` None for numbers) that create.py.j2 applies
to entries that lack the key.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.call_entries import call_entries
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, record_props

MIN_RECORDS = 2


def _prefix(values: list[Any]) -> tuple[bool, str | None] | None:
    """(numbered, prefix) when each value is its place from 1: ints, or one prefix before the place; else None."""
    if all(isinstance(v, int) and not isinstance(v, bool) and v == i + 1 for i, v in enumerate(values)):
        return True, None
    prefixes = set()
    for i, v in enumerate(values):
        m = re.fullmatch(rf"(\D*){i + 1}", v) if isinstance(v, str) else None
        if m is None:
            return None
        prefixes.add(m.group(1))
    return (True, prefixes.pop()) if len(prefixes) == 1 else None


def _numbering(lists: list[list[Any]], key: str) -> tuple[bool, str | None] | None:
    found = set()
    for entries in lists:
        if not all(isinstance(e, dict) and key in e for e in entries):
            return None
        got = _prefix([e[key] for e in entries])
        if got is None:
            return None
        found.add(got[1])
    return (True, found.pop()) if len(found) == 1 else None


def numbered_entries(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], sample: dict[str, Any] | None
) -> ToolPlan:
    """The create numbering the entries of each list it copies from the call, as the data does, once they are
    shaped as the data stores them (call_entries.py); else unchanged."""
    plan = call_entries(spec, plan, state_schema, sample)
    if plan.kind != "create" or not plan.collection or not isinstance(sample, dict):
        return plan
    own = record_props(state_schema.get("properties") or {}, plan.collection)
    records = [r for r in (sample.get(plan.collection) or {}).values() if isinstance(r, dict)]
    params = spec.parameters.get("properties") or {}
    effects = []
    for name in plan.fields:
        given = ((params.get(name) or {}).get("items") or {}).get("properties")
        stored = ((own.get(name) or {}).get("items") or {}).get("properties")
        if not isinstance(given, dict) or not isinstance(stored, dict):
            continue
        lists = [r[name] for r in records if isinstance(r.get(name), list) and r[name]]
        if len(lists) < MIN_RECORDS or max(len(x) for x in lists) < 2:
            continue
        for key in sorted(set(stored) - set(given)):
            numbering = _numbering(lists, key)
            if numbering is not None:
                effects.append({"op": "number_entries", "field": name, "key": key, "prefix": numbering[1]})
                break
    if not effects or any(e.get("op") == "number_entries" for e in plan.effects):
        return plan
    evidence = plan.evidence + ["entries numbered by their place, as the data's are"]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": plan.effects + effects, "evidence": evidence})


__all__ = ["numbered_entries"]
