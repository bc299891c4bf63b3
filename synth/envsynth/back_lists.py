"""Keys a record keeps of the records that name it, read from the sample data: a skipper's `hold_ids` that hold,
for every skipper of the sample, exactly the keys of the holds whose `skipper_id` names that skipper; a berth's
`current_hold_id` that holds the key of the one hold naming it in the state a new hold starts in (`held`), null
when none does. A create of such a record (its `skipper_id` given by the call) appends the new key to the named
skipper's list (`ref_sets` with `append_new_key`, create.py.j2), or writes it to the named berth's field
(`new_key`), as the data says the system keeps them.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.spec import record_props


def _kept(sample: dict[str, Any], holders: str, made: str, via: str, field: str) -> bool:
    """Every record of `holders` lists under `field` exactly the keys of the `made` records naming it by `via`,
    one list at least holding some."""
    owners, records = sample.get(holders), sample.get(made)
    if not isinstance(owners, dict) or not isinstance(records, dict) or len(owners) < 2:
        return False
    some = False
    for key, owner in owners.items():
        held = owner.get(field) if isinstance(owner, dict) else None
        if not isinstance(held, list):
            return False
        named = sorted(k for k, r in records.items() if isinstance(r, dict) and str(r.get(via)) == str(key))
        if sorted(str(h) for h in held) != named:
            return False
        some = some or bool(held)
    return some


def _points(sample: dict[str, Any], holders: str, made: str, via: str, field: str, state: tuple[str, Any]) -> bool:
    """Every record of `holders` holds under `field` the key of the one `made` record naming it by `via` in the
    state a new one starts in (`status` held), or null when none does; one of them holds a key."""
    owners, records = sample.get(holders), sample.get(made)
    if not isinstance(owners, dict) or not isinstance(records, dict) or len(owners) < 2:
        return False
    some = False
    for key, owner in owners.items():
        if not isinstance(owner, dict) or field not in owner:
            return False
        named = [
            k
            for k, r in records.items()
            if isinstance(r, dict) and str(r.get(via)) == str(key) and r.get(state[0]) == state[1]
        ]
        if len(named) > 1 or owner[field] != (named[0] if named else None):
            return False
        some = some or bool(named)
    return some


def with_back_lists(plan: ToolPlan, cols: dict[str, Any], sample: dict[str, Any]) -> ToolPlan:
    """The create's plan appending its new key to each list, and writing it to each pointer, that the data shows
    the named records keep of the records naming them."""
    if plan.kind != "create" or not plan.collection:
        return plan
    mine = record_props(cols, plan.collection)
    added = []
    for param, holders in sorted(plan.ref_checks.items()):
        if param not in mine or param not in plan.fields:
            continue
        for field, schema in sorted(record_props(cols, holders).items()):
            taken = any(s.get("param") == param and s.get("field") == field for s in plan.ref_sets)
            taken = taken or any(  # an effect of the plan writes that field already (a `member_append`)
                e.get("collection") == holders and field in (e.get("list"), e.get("field")) for e in plan.effects
            )
            if isinstance(schema, dict) and schema.get("type") == "array" and not taken:
                if _kept(sample, holders, plan.collection, param, field):
                    added.append({"param": param, "collection": holders, "field": field, "append_new_key": True})
            elif not taken and any(  # the one record naming it in the state a new one starts in: the new one
                _points(sample, holders, plan.collection, param, field, (f, v))
                for f, v in sorted(plan.initial_values.items())
                if isinstance(v, str)
            ):
                added.append({"param": param, "collection": holders, "field": field, "new_key": True})
    if not added:
        return plan
    evidence = plan.evidence + ["the new key joins the lists the data shows the named records keep"]
    return ToolPlan.from_dict({**plan.to_dict(), "ref_sets": list(plan.ref_sets) + added, "evidence": evidence})


__all__ = ["with_back_lists"]
