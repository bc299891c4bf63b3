"""A state the data shows a record in exactly when one of its numbers has reached another: every tab whose
`amount_paid` is at least its `total` is `paid`, and no other tab is. A change that moves the first number (a
payment adding to what is paid) then puts the record in that state once the number reaches the other, from any other
state of the field (a `threshold` effect against a field, applied after the call's moves: docs_thresholds' runtime).
The records below the other number must be the ones not in that state, so a charge that raises `total` is no rule.

At least three records must have reached it and be in that state, and two more must be below it, so one
coincidence is no rule.

When the docs then say the amount may be "not more than the outstanding balance" (`cannot exceed the remaining
amount`), the argument that moves the number is capped at what is left before it reaches the other: an `arg_limit`
of `bound - number` (a payment of at most `total - amount_paid`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.expr_runtime import fg_number as _number
from synth.envsynth.plan import ToolPlan
from synth.spec import record_props

MIN_MET = 3
MIN_APART = 2
OWED = re.compile(  # "not more than the outstanding balance", "cannot exceed the remaining amount"
    r"\b(?:not\s+(?:be\s+)?more\s+than|no\s+more\s+than|(?:cannot|can\s*not|may\s+not|must\s+not)\s+"
    r"(?:exceed|be\s+more\s+than)|at\s+most)"
    r"\s+the\s+(?:outstanding|remaining|unpaid)\s+(?:balance|amount)\b",
    re.I,
)
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


def _moving_arg(plan: ToolPlan, number: str) -> str | None:
    """The argument that moves the record's number: summed into it from the entries the call adds, or added to it."""
    for e in plan.effects:
        steps = (e.get("steps") or []) if e.get("op") == "derive" else []
        for field, formula in steps:
            of = formula.get("of") if isinstance(formula, dict) and formula.get("sum") == plan.list_field else None
            if field == number and plan.kind == "item_add" and of in plan.fields:
                return of
        delta = e.get("delta") or {}
        path = e.get("path") or []
        if (
            e.get("op") == "adjust"
            and e.get("collection") == plan.collection
            and path[1:] == [{"from": "const", "value": number}]
        ):
            terms = (delta.get("expr") or {}).get("plus") if delta.get("from") == "expr" else [delta]
            names = [t.get("arg") or t.get("name") for t in terms or [] if isinstance(t, dict)]
            if len(names) == 1 and names[0]:
                return names[0]
    return None


def with_settled_states(
    plan: ToolPlan, state_schema: dict[str, Any], sample: dict[str, Any], text: str = ""
) -> ToolPlan:
    """The change with the state its moved number puts the record in once it meets the other, as the data shows
    (and, when `text` says the amount may not exceed what is outstanding, the moving argument capped at it)."""
    if plan.kind not in ("item_add", "recorded_update") or not plan.collection or not plan.key_param:
        return plan
    records = [r for r in (sample.get(plan.collection) or {}).values() if isinstance(r, dict)]
    props = record_props(state_schema.get("properties") or {}, plan.collection)
    effects, checks = [], []
    for number in _moved_numbers(plan):
        found = settled_state(records, number, props)
        arg = _moving_arg(plan, number) if found is not None and OWED.search(text) else None
        if arg is not None:
            owed = {"plus": [{"path": [found["bound"]]}], "minus": [{"path": [number]}], "digits": 2}
            checks.append({"op": "arg_limit", "arg": arg, "cmp": "<=", "expr": owed})
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
    checks = [c for c in checks if c not in plan.checks]
    if not effects and not checks:
        return plan
    evidence = plan.evidence + ["a state the data shows when two numbers meet"]
    changed = {"effects": plan.effects + effects, "checks": plan.checks + checks, "evidence": evidence}
    return ToolPlan.from_dict({**plan.to_dict(), **changed})


__all__ = ["settled_state", "with_settled_states"]
