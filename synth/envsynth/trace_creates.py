"""What a create writes into the new record, learned from recorded calls (--traces): each field of the record the
real system made, read from the call's arguments, the records its arguments name ("the member's tier"), the new
record's own key, one constant, or a text or entry list written from those ("booked for PT-2001"); and the fields of the
records its arguments name that every call set to one same value or to the new record's key (`ref_sets`: the unit's
status, its current order).

A field is learned when one such source gives its value in every successful recorded call; the variants then
set the learned fields over what the docs' own plan writes (`learned_set`), all of them or only those that are
not numbers computed some other way, and the recorded calls choose among them (plan_choice.choose_plan).
"""

from __future__ import annotations

from typing import Any, Callable

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.trace_links import scalars
from synth.envsynth.traces import apply_changes, recorded_changes

Sample = tuple[Any, dict[str, Any], dict[str, Any], dict[str, Any]]
Learn = Callable[[list[Sample], str], "dict[str, Any] | None"]
NAMED = "\x00named:"  # the key a named record's values are read under while learning
OWN_KEY = "\x00key"
NEW = object()  # the new record's key, as a named record's field took it
PLAIN = {"arg", "const", "record", "concat", "given", "fixed", "object", "list", "switch", "positive"}


def _named(args: dict[str, Any], state: dict[str, Any], col: str) -> dict[str, str]:
    """{argument: collection} of the arguments naming a record of another collection."""
    out = {}
    for name, value in sorted(args.items()):
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            held = [
                c for c, recs in sorted(state.items()) if c != col and isinstance(recs, dict) and str(value) in recs
            ]
            if len(held) == 1:
                out[name] = held[0]
    return out


def _rewritten(node: Any, named: dict[str, str]) -> Any:
    """The source with the learning context's paths read at run time; None when one cannot be."""
    if isinstance(node, list):
        items = [_rewritten(v, named) for v in node]
        return None if any(i is None and v is not None for i, v in zip(items, node)) else items
    if not isinstance(node, dict):
        return node
    if "from" in node and node["from"] not in PLAIN:
        return None  # computed over the learning context's paths: not the new record's
    if node.get("from") == "record":
        path = node.get("path") or []
        if path == [OWN_KEY]:
            return {"from": "own_key"}
        if len(path) == 2 and isinstance(path[0], str) and path[0].startswith(NAMED):
            arg = path[0][len(NAMED) :]
            return {"from": "named", "collection": named[arg], "arg": arg, "field": path[1]}
        return None
    when = node.get("when") or {}
    if node.get("from") == "switch" and ("arg" not in when or when["arg"] in named):
        return None  # by a field of the learning context, or by which record the call names: a list of answers
    out = {}
    for key, value in node.items():
        done = _rewritten(value, named)
        if done is None and value is not None:
            return None
        out[key] = done
    return out


def _new_records(plan: ToolPlan, ok: list[TestCase]) -> list[tuple[TestCase, str, dict[str, Any]]] | None:
    out = []
    for case in ok:
        before = case.state.get(plan.collection or "") or {}
        after = apply_changes(case.state, recorded_changes(case)).get(plan.collection or "") or {}
        made = [k for k in after if k not in before and isinstance(after[k], dict)]
        if len(made) != 1:
            return None
        out.append((case, made[0], after[made[0]]))
    return out


def _field_source(name: str, made: list, named: dict[str, str], kp: str, learn: Learn) -> dict[str, Any] | None:
    samples = []
    for case, key, record in made:
        context = {
            OWN_KEY: key,
            **{NAMED + a: scalars(case.state[c].get(str(case.arguments[a]))) for a, c in named.items()},
        }
        samples.append((record.get(name), case.arguments, context, case.state))
    values = [v for v, *_ in samples]
    if all(v is None for v in values):
        return {"from": "const", "value": None}  # never set on creation: no field that happens to be empty
    if all(isinstance(v, list) for v in values) and len({len(v) for v in values}) == 1 and values[0]:
        items = [learn([(v[i], a, r, s) for v, a, r, s in samples], kp) for i in range(len(values[0]))]
        found = {"from": "list", "items": items} if all(i is not None for i in items) else None
    else:
        found = learn(samples, kp)
    return _rewritten(found, named) if found is not None else None


def _named_sets(plan: ToolPlan, made: list, named: dict[str, str]) -> list[dict[str, Any]]:
    """`ref_sets` of the records the call's arguments name: a scalar field every successful recorded call changed
    on the named record to one same value (a status), or to the new record's key."""
    out = []
    for arg, col in sorted(named.items()):
        seen: dict[str, list[Any]] = {}
        grown: dict[str, int] = {}
        for case, key, _ in made:
            before = case.state[col].get(str(case.arguments[arg])) or {}
            after = apply_changes(case.state, recorded_changes(case)).get(col, {}).get(str(case.arguments[arg])) or {}
            for field, value in after.items():
                if before.get(field) != value and not isinstance(value, (dict, list)):
                    seen.setdefault(field, []).append(NEW if value == key else value)
                elif isinstance(value, list) and value == list(before.get(field) or []) + [key]:
                    grown[field] = grown.get(field, 0) + 1  # the new record's key appended (its reservation ids)
        for field, count in sorted(grown.items()):
            taken = any(s.get("param") == arg and s.get("field") == field for s in plan.ref_sets)
            taken = taken or any(  # the docs' plan appends to that list already (a `member_append`)
                e.get("collection") == col and field in (e.get("list"), e.get("field")) for e in plan.effects
            )
            if count == len(made) and not taken:
                out.append({"param": arg, "collection": col, "field": field, "append_new_key": True})
        for field, values in sorted(seen.items()):
            taken = any(s.get("param") == arg and s.get("field") == field for s in plan.ref_sets)
            if taken or len(values) != len(made) or any(v != values[0] for v in values):
                continue
            entry: dict[str, Any] = {"param": arg, "collection": col, "field": field}
            entry.update({"new_key": True} if values[0] is NEW else {"value": values[0]})
            out.append(entry)
    return out


def learned_creates(plan: ToolPlan, recorded: list[TestCase], learn: Learn) -> list[ToolPlan]:
    """Create variants setting the fields the recorded calls show over the docs' plan (none when nothing is
    learned)."""
    ok = [c for c in recorded if not c.expect_error]
    if plan.kind != "create" or not plan.collection or len(ok) < 2:
        return []
    made = _new_records(plan, ok)
    if not made:
        return []
    named = _named(made[0][0].arguments, made[0][0].state, plan.collection)
    named = {a: c for a, c in named.items() if all(a in case.arguments for case, _, _ in made)}
    named = {
        a: c for a, c in named.items() if all(str(case.arguments[a]) in case.state.get(c, {}) for case, _, _ in made)
    }
    fields = sorted({f for _, _, record in made for f in record} - {plan.key_field})
    sets = []
    for name in fields:
        source = _field_source(name, made, named, plan.key_param or "", learn)
        if source is not None:
            sets.append({"op": "learned_set", "field": name, "source": source})
    linked = _named_sets(plan, made, named)
    if not sets and not linked:
        return []
    numbers = {
        f
        for f in fields
        if any(isinstance(r.get(f), (int, float)) and not isinstance(r.get(f), bool) for _, _, r in made)
    }
    kept = [e for e in sets if e["field"] not in numbers or e["source"]["from"] in ("arg", "named")]
    base = {**plan.to_dict(), "evidence": plan.evidence + ["new record's fields learned from recorded calls"]}
    base["ref_sets"] = list(plan.ref_sets) + linked
    written = {"op": "learned_keep", "fields": sorted(set(fields) | {plan.key_field or ""} - {""})}
    out = [ToolPlan.from_dict({**base, "effects": list(plan.effects) + sets})]
    if kept != sets and kept:
        out.append(ToolPlan.from_dict({**base, "effects": list(plan.effects) + kept}))
    # the same, writing no field the real system's new records never hold (a `cancelled_on` the data shows elsewhere)
    out += [ToolPlan.from_dict({**v.to_dict(), "effects": list(v.effects) + [written]}) for v in list(out)]
    return out


__all__ = ["learned_creates"]
