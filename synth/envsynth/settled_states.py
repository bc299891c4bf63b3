"""A state the data shows a record in exactly when one of its numbers has reached another: every tab whose
`amount_paid` is at least its `total` is `paid`, and no other tab is. A change that moves the first number (a
payment adding to what is paid) then puts the record in that state once the number reaches the other, from any other
state of the field (a `threshold` effect against a field, applied after the call's moves: docs_thresholds' runtime).
The records below the other number must be the ones not in that state, so a charge that raises `total` is no rule.

At least three records must have reached it and be in that state, and two more must be below it, so one
coincidence is no rule.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.expr_runtime import fg_number as _number
from synth.envsynth.plan import ToolPlan
from synth.spec import record_props

MIN_MET = 3
MIN_APART = 2
WORD = re.compile(r"^[a-z]+(?:[_ -][a-z]+)*$")  # a state's value: plain lower-case words
NUMBERS = {"number", "integer"}


def _types(declared: Any) -> list[str]:
    return [declared] if isinstance(declared, str) else [t for t in declared or [] if isinstance(t, str)]


def settled_state(records: list[dict[str, Any]], number: str, props: dict[str, Any]) -> dict[str, Any] | None:
    """{field, value, bound, from} when the records in one state of a text field are exactly those whose `number`
    has reached another number field `bound`, else None (`from`: the field's other states)."""
    found = []
    numbers = sorted(
        f for f, s in props.items() if f != number and isinstance(s, dict) and NUMBERS & set(_types(s.get("type")))
    )
    texts = sorted(f for f, s in props.items() if isinstance(s, dict) and (s.get("enum") or s.get("x-enum")))
    texts += sorted(  # states too few to be typed as a closed set: plain lower-case words in every record
        f
        for f in props
        if f not in texts and records and all(isinstance(r.get(f), str) and WORD.match(r[f]) for r in records)
    )
    for bound in numbers:
        pairs = [r for r in records if _number(r.get(number)) and _number(r.get(bound))]
        met = [r for r in pairs if r[number] >= r[bound] - 1e-9]  # reached it (an overpaid record too)
        apart = [r for r in pairs if r[number] < r[bound] - 1e-9]  # below it: a number that rises to meet it
        if len(met) < MIN_MET or len(apart) < MIN_APART:
            continue
        for field in texts:
            held = {r.get(field) for r in met}
            value = next(iter(held)) if len(held) == 1 else None
            if isinstance(value, str) and value not in {r.get(field) for r in apart}:
                known = props[field].get("enum") or props[field].get("x-enum") or [r.get(field) for r in records]
                others = sorted({str(v) for v in known if v not in (None, value)} | {r.get(field) for r in apart})
                found.append({"field": field, "value": value, "bound": bound, "from": others})
    return found[0] if len(found) == 1 else None


def _moved_numbers(plan: ToolPlan) -> list[str]:
    """The own record's numbers the plan recomputes or moves."""
    out = [step[0] for e in plan.effects if e.get("op") == "derive" for step in e.get("steps") or []]
    for e in plan.effects:
        path = e.get("path") or []
        if e.get("op") == "adjust" and e.get("collection") == plan.collection and len(path) == 2:
            head, last = path
            if head == {"from": "arg", "name": plan.key_param} and last.get("from") == "const":
                out.append(last["value"])
    return list(dict.fromkeys(out))


def with_settled_states(plan: ToolPlan, state_schema: dict[str, Any], sample: dict[str, Any]) -> ToolPlan:
    """The change with the state its moved number puts the record in once it meets the other, as the data shows."""
    if plan.kind not in ("item_add", "recorded_update") or not plan.collection or not plan.key_param:
        return plan
    records = [r for r in (sample.get(plan.collection) or {}).values() if isinstance(r, dict)]
    props = record_props(state_schema.get("properties") or {}, plan.collection)
    effects = []
    for number in _moved_numbers(plan):
        found = settled_state(records, number, props)
        if found is None or any(e.get("field") == found["field"] for e in plan.effects):
            continue
        effects.append(
            {
                "op": "threshold",
                "collection": plan.collection,
                "via": None,
                "field": found["field"],
                "from": found["from"],
                "value": found["value"],
                "number": number,
                "cmp": ">=",
                "bound": None,
                "bound_field": found["bound"],
                "entry": None,
            }
        )
    if not effects:
        return plan
    evidence = plan.evidence + ["a state the data shows when two numbers meet"]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": plan.effects + effects, "evidence": evidence})


__all__ = ["settled_state", "with_settled_states"]
