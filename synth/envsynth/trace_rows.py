"""Which records a list read answers, and in what order, learned from recorded calls (--traces).

The plan's code is run on each recorded call; where it answers records the real system left out, a rule that
keeps every answered record and drops some left-out ones is looked for, in this order:
- a numeric argument bounding a number of the record, stored or computed by the plan's answer (`min_berths`: the
  charters with at least that many free berths; a call without the argument is not bounded);
- a date field on or after the business date (the real system lists from today onward);
- a state-like field of the record (a few string values) whose left-out values the answered records never hold;
- the same of a record the record links (a berth on a pier that is `closed`).
Each rule must drop a record no earlier rule drops. When the answered records come in another order than the
code's, one or two stored fields that sort every recorded answer so give the order.

The result is a plan variant (`scope_checks`, `sort_fields`); plan_choice keeps it only when it reproduces more
recorded calls. Two recorded answers at least, so one coincidence is no rule.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from synth.envsynth.expr_runtime import fg_number as _number
from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase

MIN_RECORDINGS = 2
MAX_STATES = 8  # a field with more distinct values is no state
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ROW_KINDS = ("filter", "list")  # the templates that scope and sort
Row = tuple[dict[str, Any], bool]  # (the record as stored, with the code's answered fields; answered by the system)
Call = tuple[dict[str, Any], dict[str, Any], list[str], list[Row]]  # arguments, state, answered keys, code's rows


def _calls(plan: ToolPlan, recorded: list[TestCase], outputs: list[Any]) -> list[Call]:
    """The recorded list answers whose every record the code also answered, with the code's rows."""
    out: list[Call] = []
    kf, col = plan.key_field or "", plan.collection or ""
    for case, got in zip(recorded, outputs):
        want = case.expect_result
        if case.expect_error or not isinstance(want, list) or not isinstance(got, list):
            continue
        if not all(isinstance(r, dict) and kf in r for r in want + got):
            continue
        stored = case.state.get(col) or {}
        keys = [str(r[kf]) for r in want]
        got_keys = [str(r[kf]) for r in got]
        if not set(keys) <= set(got_keys) or len(set(got_keys)) != len(got_keys):
            continue
        rows = [({**(stored.get(k) or {}), **r}, k in keys) for k, r in zip(got_keys, got)]
        out.append((case.arguments, case.state, keys, rows))
    return out


def _zero(value: Any) -> Any:
    return value if _number(value) else 0


def _calc_value(row: dict[str, Any], calc: dict[str, Any]) -> Any:
    left, right = _zero(row.get(calc["left"])), _zero(row.get(calc["right"]))
    return left + right if calc["operator"] == "+" else left - right


def holds(check: dict[str, Any], row: dict[str, Any], args: dict[str, Any], state: dict[str, Any]) -> bool:
    """Whether a learned check keeps the row (as _blocks.j2's scope_holds renders it)."""
    op = check["op"]
    if op == "bound":
        wanted = args.get(check["arg"], check.get("default"))
        if wanted is None:
            return True
        value = _calc_value(row, check["calc"]) if "calc" in check else _zero(row.get(check["field"]))
        return value >= _zero(wanted) if check["cmp"] == ">=" else value <= _zero(wanted)
    if op == "from":
        return str(row.get(check["field"]) or "") >= check["value"]
    if op == "dropped":
        return row.get(check["field"]) not in check["dropped"]
    linked = (state.get(check["collection"]) or {}).get(str(row.get(check["via"])))
    return (linked or {}).get(check["field"]) not in check["dropped"]


def _fits(check: dict[str, Any], calls: list[Call], left: list[list[bool]]) -> int:
    """How many still-left records the check drops; -1 when it drops an answered one."""
    dropped = 0
    for (args, state, _, rows), alive in zip(calls, left):
        for (row, kept), live in zip(rows, alive):
            if holds(check, row, args, state):
                continue
            if kept:
                return -1
            dropped += live
    return dropped


def _bounds(plan: ToolPlan, calls: list[Call]) -> list[dict[str, Any]]:
    """Bound checks: each numeric argument against each number of the records (closest names first)."""
    args = sorted({a for c in calls for a, v in c[0].items() if _number(v)})
    numbers = sorted({f for c in calls for row, _ in c[3] for f, v in row.items() if _number(v)})
    out = []
    for arg in args:
        bare = re.sub(r"^(?:min|max|minimum|maximum|least|most)_", "", arg)
        for f in sorted(numbers, key=lambda f: (f != bare, bare not in f, f)):
            spec = plan.output_map.get(f)
            how: dict[str, Any] = {"field": f}
            if spec is not None:  # an answered figure: only one the template computes again
                if spec.get("op") != "calc" or spec.get("operator") not in ("+", "-") or spec.get("floor"):
                    continue
                how = {"calc": {k: spec[k] for k in ("left", "operator", "right")}}
            if bare == arg and _matched(arg, f, calls):
                continue  # every answered record holds the argument itself: an exact match, not a bound
            cmps = ["<=", ">="] if arg.startswith(("max", "most")) else [">=", "<="]
            out += [{"op": "bound", "arg": arg, "cmp": cmp, **how} for cmp in cmps]
    return out


def _matched(arg: str, field: str, calls: list[Call]) -> bool:
    """Every record answered to a call giving the argument holds its value in the field."""
    return all(row.get(field) == args[arg] for args, _, _, rows in calls if arg in args for row, kept in rows if kept)


def _dated(calls: list[Call]) -> list[str]:
    fields = {f for c in calls for row, _ in c[3] for f, v in row.items() if isinstance(v, str) and DATE.match(v)}
    return sorted(
        f for f in fields if all(row.get(f) is None or DATE.match(str(row.get(f))) for c in calls for row, _ in c[3])
    )


def _floors(calls: list[Call], today: str | None) -> list[dict[str, Any]]:
    if not today or not DATE.match(today):
        return []
    tomorrow = (dt.date.fromisoformat(today) + dt.timedelta(days=1)).isoformat()
    return [{"op": "from", "field": f, "value": v} for f in _dated(calls) for v in (today, tomorrow)]


def _states(records: list[dict[str, Any]], skip: set[str]) -> list[str]:
    """Fields holding a few string values over many records (a status, a kind), dates and keys left out."""
    out = []
    for f in sorted({f for r in records for f in r} - skip):
        values = [r.get(f) for r in records]
        strings = {v for v in values if isinstance(v, str)}
        if not strings or any(v is not None and not isinstance(v, str) for v in values):
            continue
        if any(DATE.match(v) for v in strings) or len(strings) > MAX_STATES or len(strings) >= len(records):
            continue
        out.append(f)
    return out


def _dropping(field: str, read, calls: list[Call], left: list[list[bool]]) -> list[Any] | None:
    """The values of `field` (read off each row) of the left records that no answered record holds."""
    kept, dropped = set(), set()
    for (args, state, _, rows), alive in zip(calls, left):
        for (row, ans), live in zip(rows, alive):
            value = read(row, state)
            if ans:
                kept.add(value)
            elif live:
                dropped.add(value)
    dropped -= kept
    if not dropped or not all(isinstance(v, str) for v in dropped):
        return None
    return sorted(dropped)


def _references(records: list[dict[str, Any]], state: dict[str, Any], own: str) -> set[str]:
    """Fields whose values all name records of another collection (a reference is no state)."""
    keys = {str(k) for name, recs in state.items() if name != own and isinstance(recs, dict) for k in recs}
    fields = {f for r in records for f in r}
    return {f for f in fields if all(r.get(f) is None or str(r.get(f)) in keys for r in records)}


def _own_states(plan: ToolPlan, calls: list[Call], left: list[list[bool]]) -> list[dict[str, Any]]:
    records = [r for c in calls for r in (c[1].get(plan.collection or "") or {}).values() if isinstance(r, dict)]
    skip = {plan.key_field or ""} | _references(records, calls[0][1], plan.collection or "")
    out = []
    for f in _states(records, skip):
        dropped = _dropping(f, lambda row, _s, f=f: row.get(f), calls, left)
        if dropped:
            out.append({"op": "dropped", "field": f, "dropped": dropped})
    return out


def _names(via: str, collection: str) -> bool:
    """The reference's words name the collection (`pier_id` -> piers)."""
    stem = re.sub(r"_(?:id|key|code|number|no)$", "", via.lower())
    return bool(stem) and (collection.lower() == stem or collection.lower().rstrip("s") == stem.rstrip("s"))


def _linked_states(plan: ToolPlan, calls: list[Call], left: list[list[bool]]) -> list[dict[str, Any]]:
    state0 = calls[0][1]
    out = []
    for via in sorted({f for c in calls for row, _ in c[3] for f in row}):
        targets = [
            other
            for other, recs in sorted(state0.items())
            if other != plan.collection
            and isinstance(recs, dict)
            and all(str(row.get(via)) in recs for c in calls for row, _ in c[3] if row.get(via) is not None)
            and any(row.get(via) is not None for c in calls for row, _ in c[3])
        ]
        named = [o for o in targets if _names(via, o)]  # `pier_id` reads piers before any collection it fits
        for other in (named or targets)[:1]:
            linked = [r for r in state0[other].values() if isinstance(r, dict)]
            for f in _states(linked, set()):

                def read(row, state, other=other, via=via, f=f):
                    return ((state.get(other) or {}).get(str(row.get(via))) or {}).get(f)

                dropped = _dropping(f, read, calls, left)
                if dropped:
                    out.append({"op": "linked", "via": via, "collection": other, "field": f, "dropped": dropped})
    return out


def _scope(plan: ToolPlan, calls: list[Call], today: str | None) -> list[dict[str, Any]]:
    left = [[not kept for _, kept in rows] for *_, rows in calls]
    chosen: list[dict[str, Any]] = []
    bounded: set[str] = set()
    families = (
        lambda: [c for c in _bounds(plan, calls) if c["arg"] not in bounded],
        lambda: _floors(calls, today),
        lambda: _own_states(plan, calls, left),
        lambda: _linked_states(plan, calls, left),
    )
    for family in families:
        for check in family():
            if not any(any(row) for row in left):
                return chosen
            if check["op"] == "bound" and check["arg"] in bounded:
                continue
            if _fits(check, calls, left) > 0:
                chosen.append(check)
                bounded |= {check["arg"]} if check["op"] == "bound" else set()
                for (args, state, _, rows), alive in zip(calls, left):
                    for i, (row, _) in enumerate(rows):
                        alive[i] = alive[i] and holds(check, row, args, state)
    return chosen


def _sort_key(value: Any) -> tuple[int, Any]:
    if value is None:
        return (2, "")
    return (0, value) if _number(value) else (1, str(value))


def _order(plan: ToolPlan, calls: list[Call], checks: list[dict[str, Any]]) -> list[str]:
    """Stored fields sorting every recorded answer as the system did, when the code's order differs."""
    shown = []
    for args, state, keys, rows in calls:
        kf = plan.key_field or ""
        kept = [row for row, _ in rows if str(row.get(kf)) in keys and all(holds(c, row, args, state) for c in checks)]
        shown.append((kept, keys))
    if all([str(r.get(plan.key_field)) for r in kept] == keys for kept, keys in shown):
        return []
    stored = set.intersection(*[set(r) for kept, _ in shown for r in kept]) if any(k for k, _ in shown) else set()
    stored -= set(plan.output_map)
    singles = sorted(stored)
    options = (
        [[f] for f in singles] + [["-" + f] for f in singles] + [[a, b] for a in singles for b in singles if a != b]
    )
    for fields in options:
        if all(_sorted_as(kept, keys, fields, plan.key_field or "") for kept, keys in shown):
            return fields
    return []


def _sorted_as(rows: list[dict[str, Any]], keys: list[str], fields: list[str], kf: str) -> bool:
    ordered = sorted(
        rows, key=lambda r: [_sort_key(r.get(f.lstrip("-"))) for f in fields], reverse=fields[0].startswith("-")
    )
    return [str(r.get(kf)) for r in ordered] == keys


def learned_rows(plan: ToolPlan, recorded: list[TestCase], outputs: list[Any], today: str | None) -> ToolPlan | None:
    """The plan keeping and ordering the records as the recorded answers do (`outputs`: what the plan's code
    answered to each recorded call, None where it failed), or None when they show nothing to learn."""
    if plan.kind not in ROW_KINDS or not plan.collection or not plan.key_field or plan.return_key:
        return None
    calls = _calls(plan, recorded, outputs)
    if len(calls) < MIN_RECORDINGS:
        return None
    checks = _scope(plan, calls, today)
    order = _order(plan, calls, checks)
    if not checks and not order:
        return None
    evidence = plan.evidence + ["answered records and their order learned from recorded calls"]
    changes: dict[str, Any] = {"scope_checks": plan.scope_checks + checks, "evidence": evidence}
    if order:
        changes["sort_fields"] = order
    return ToolPlan.from_dict({**plan.to_dict(), **changes})


__all__ = ["holds", "learned_rows"]
