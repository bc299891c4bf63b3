"""The log entries a paired list edit writes, one per value it removes or adds, learned from recorded calls
(--traces): a berth's `log` gaining {"day": "2025-06-01", "kind": "crew_removed", "note": "Crew Ana Lind removed"}
for each name in `remove`, then one per object in `add`.

A paired edit (paired_lists.py) changes one list of its record; the recorded calls show entries appended to another
list of the same record, as many as the values the call gave, in the order of the edit's effects. Each field of
those entries is one value in every recorded entry of that effect (the business date, a kind), or a text holding
the value the entry is about (the object's matched field), the same words before and after it every time. Two
successful calls at least, each entry accounted for; the variant adds an `edit_logs` effect
(recorded_update.py.j2).
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.testgen import TestCase
from synth.envsynth.traces import apply_changes, recorded_changes

EDITS = ("entries_drop", "entries_add")


def _value(given: Any, match: str) -> Any:
    return given.get(match) if isinstance(given, dict) else given


def _appended(case: TestCase, collection: str, key: str, edited: str) -> dict[str, list[Any]] | None:
    """{list field: the entries the call appended at its end}, other than the edited list; None when a list
    changed otherwise (an entry removed or rewritten)."""
    before = (case.state.get(collection) or {}).get(key)
    after = (apply_changes(case.state, recorded_changes(case)).get(collection) or {}).get(key)
    if not isinstance(before, dict) or not isinstance(after, dict):
        return None
    out = {}
    for field, now in after.items():
        was = before.get(field)
        if field == edited or not isinstance(now, list) or now == was:
            continue
        if not isinstance(was, list) or now[: len(was)] != was:
            return None
        out[field] = now[len(was) :]
    return out


def _field_rule(values: list[Any], about: list[Any]) -> dict[str, Any] | None:
    """A text holding the entry's value between the same words each time (even once), else one value in every
    entry."""
    if all(
        isinstance(v, str) and isinstance(a, (str, int, float)) and len(str(a)) > 1 and str(a) in v
        for v, a in zip(values, about)
    ):
        first, said = values[0], str(about[0])
        at = first.find(said)
        pre, post = first[:at], first[at + len(said) :]
        if all(v == pre + str(a) + post for v, a in zip(values, about)):
            return {"text": [pre, post]}
    if all(v == values[0] for v in values):
        return {"const": values[0]}
    return None


def edit_log_variant(plan: ToolPlan, recorded: list[TestCase]) -> ToolPlan | None:
    """The paired edit writing the log entries its recorded calls show, or None."""
    edits = [e for e in plan.effects if e.get("op") in EDITS]
    if plan.kind != "recorded_update" or not edits or not plan.collection or not plan.key_param:
        return None
    edited = str(edits[0]["field"])
    ok = [c for c in recorded if not c.expect_error]
    if len(ok) < 2:
        return None
    per_edit: list[list[tuple[dict[str, Any], Any]]] = [[] for _ in edits]  # (entry, the value it is about)
    log_field = None
    for case in ok:
        appended = _appended(case, plan.collection, str(case.arguments.get(plan.key_param)), edited)
        if appended is None or len(appended) > 1:
            return None
        field, entries = next(iter(appended.items()), (None, []))
        given = [list(case.arguments.get(str(e["arg"])) or []) for e in edits]
        if len(entries) != sum(len(g) for g in given) or (field and log_field and field != log_field):
            return None
        log_field = log_field or field
        at = 0
        for i, (eff, values) in enumerate(zip(edits, given)):
            for value in values:
                if not isinstance(entries[at], dict):
                    return None
                per_edit[i].append((entries[at], _value(value, str(eff["match"]))))
                at += 1
    if log_field is None:
        return None
    logs = []
    for eff, seen in zip(edits, per_edit):
        if not seen:  # never recorded: no entry is known for it
            continue
        names = sorted(seen[0][0])
        if any(sorted(entry) != names for entry, _ in seen):
            return None
        rules = {n: _field_rule([entry[n] for entry, _ in seen], [about for _, about in seen]) for n in names}
        if any(r is None for r in rules.values()):
            return None
        logs.append({"arg": eff["arg"], "match": eff["match"], "fields": rules})
    effect = {"op": "edit_logs", "field": log_field, "logs": logs}
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "effects": plan.effects + [effect],
            "evidence": plan.evidence + [f"each value edited logs an entry on `{log_field}` (recorded calls)"],
        }
    )


__all__ = ["edit_log_variant"]
