"""Cases that reach each value of a line toggle (line_toggle.py): the generated arguments rarely name a record in the
state the docs allow, a catalogue record the adding value may take, or a line the removing value may drop, so the
publish gate would see every call refused. For each value, one case on a test state: the first record of the
collection put in the allowed state and named by the key parameter; for the adding value, a catalogue record
meeting the stated flag and not on the linked record's list, with the other needed arguments at their least; for
the removing value, a line the record holds that no check protects (one borrowed from another record when it
holds none). Either outcome is accepted; the gate sees whether any call succeeds.
"""

from __future__ import annotations

import copy
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase


def _adding(mode: dict[str, Any], state: dict[str, Any], record: dict[str, Any], args: dict[str, Any]) -> bool:
    """Names a catalogue record the adding value may take; False when the state holds none."""
    (arg, col), *_ = list((mode.get("ref_checks") or {}).items()) or [(None, None)]
    if arg is None:
        return False
    wanted = (mode.get("ref_requires") or {}).get(arg) or {}
    listed = [c for c in mode.get("checks") or [] if c.get("op") == "named_not_listed"]
    for key, other in sorted((state.get(col) or {}).items()):
        if not isinstance(other, dict) or any(other.get(f) not in v for f, v in wanted.items()):
            continue
        holders = [(state.get(c["holder"]) or {}).get(str(record.get(c["via"]))) or {} for c in listed]
        if any(other.get(c["field"]) in (h.get(c["list"]) or []) for c, h in zip(listed, holders)):
            continue
        args[arg] = key
        return True
    return False


def _removing(mode: dict[str, Any], state: dict[str, Any], key: str, collection: str, args: dict[str, Any]) -> bool:
    """Names a line of the record no check protects, borrowing one from another record when it holds none."""
    drop = next((e for e in mode.get("effects") or [] if e.get("op") == "entry_drop"), None)
    if drop is None:
        return False
    kept = [c for c in mode.get("checks") or [] if c.get("op") == "entry_refused"]
    free = lambda e: isinstance(e, dict) and not any(e.get(c["field"]) in c["in"] for c in kept)  # noqa: E731
    record = state[collection][key]
    lines = [e for e in record.get(drop["field"]) or [] if free(e)]
    if not lines:
        donors = [e for r in state[collection].values() if isinstance(r, dict) for e in r.get(drop["field"]) or []]
        donors = [copy.deepcopy(e) for e in donors if free(e)]
        if not donors:
            return False
        held = [e.get(drop["match"]) for e in record.get(drop["field"]) or [] if isinstance(e, dict)]
        numbers = [n for n in held if isinstance(n, int) and not isinstance(n, bool)]
        donors[0][drop["match"]] = max(numbers or [0]) + 1
        record.setdefault(drop["field"], []).append(donors[0])
        lines = [donors[0]]
    args[drop["arg"]] = copy.deepcopy(lines[0].get(drop["match"]))
    return True


def line_cases(plan: ToolPlan, cases: list[TestCase], params: dict[str, Any]) -> list[TestCase]:
    """One case per value of a line toggle's `by_mode` plan that the test states let it reach."""
    if plan.kind != "by_mode" or not plan.collection or not plan.key_param:
        return []
    out: list[TestCase] = []
    for value, mode in sorted(plan.modes.items()):
        sub = mode["plan"]
        base = next(
            (c for c in cases if isinstance((c.state or {}).get(plan.collection), dict) and c.state[plan.collection]),
            None,
        )
        if base is None:
            return out
        state = copy.deepcopy(base.state)
        key = min(state[plan.collection])
        record = state[plan.collection][key]
        if not isinstance(record, dict):
            continue
        for field, allowed in sorted((sub.get("preconditions") or {}).items()):
            record[field] = (
                copy.deepcopy(allowed[0]) if allowed and record.get(field) not in allowed else record.get(field)
            )
        args: dict[str, Any] = {plan.key_param: key, plan.op_param: value}
        adding = not any(e.get("op") == "entry_drop" for e in sub.get("effects") or [])
        reached = _adding(sub, state, record, args) if adding else _removing(sub, state, key, plan.collection, args)
        if not reached:
            continue
        for name in [n for n in mode.get("requires") or [] if n not in args]:
            schema = params.get(name) or {}
            args[name] = schema.get("minimum", 1) if schema.get("type") in ("integer", "number") else None
        out.append(TestCase(tool=base.tool, origin="existing-key", state=state, arguments=args, why=f"{value} reaches"))
    return out


__all__ = ["line_cases"]
