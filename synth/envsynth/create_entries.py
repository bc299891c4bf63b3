"""The entry a new record's list opens with, when a create's docs name its kind and the sample records show it:
"history (list of {date, event, note}; starts with a "created" entry)", 'a `reserved` entry is written to the
history', 'with a "created" history entry'.

The list is the one the docs name, else the record's list whose entries know the kind (its enum or the data's
values); the sample records of the collection must mostly open that list with an entry of the kind, which is
what says the kind is the opening one and not a later event. The entry's fields are read as docs_entries reads
an entry (the kind, the business date, a parameter of the same name), its free text learned from the opening
entries of the samples (entry_texts.learned_text: "booked 4 night(s) for a party of 3"). Each becomes an `append`
create effect (code_templates/create.py.j2), applied after everything else the record gets.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import sample_records
from synth.envsynth.docs_entries import _entry_rule, _kind_fields
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.flag_tails import flag_tail
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec

KIND = re.compile(
    r"\b(?:a|an|one)\s+(?:first\s+|new\s+)?[`'\"](?P<kind>[\w-]+)[`'\"]\s+(?:(?P<list>[a-z]\w*)\s+)?"
    r"(?:entry|event|line)\b"
    r"|\b(?:a|an|one)\s+(?:first\s+|new\s+)?(?P<list_first>[a-z]\w*)\s+(?:entry|event)\s+[`'\"](?P<kind_after>[\w-]+)[`'\"]",
    re.IGNORECASE,
)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MIN_OPENED = 3  # sample records that must all open a list with one kind before the data alone says a create does
CREATED = {  # kinds that name a record's creation
    "created", "opened", "booked", "registered", "received", "requested", "placed", "submitted", "added", "new",
    "logged", "filed", "issued", "reserved", "held", "made", "raised", "started",
}  # fmt: skip


def _opening(records: list[dict[str, Any]], field: str, kind_field: str, kind: str) -> list[dict[str, Any]]:
    """The sample records whose `field` list opens with an entry of the kind, when most of those holding any do."""
    holding = [r for r in records if isinstance(r.get(field), list) and r[field] and isinstance(r[field][0], dict)]
    opened = [r for r in holding if r[field][0].get(kind_field) == kind]
    return opened if len(opened) >= 2 and 2 * len(opened) > len(holding) else []


def _texts(field: str, kind_field: str, opened: list[dict[str, Any]], state: dict[str, Any]) -> dict[str, Any]:
    """{entry field: a learned text source} for the free-text fields of the opening entries."""
    out = {}
    names = dict.fromkeys(n for r in opened for n in r[field][0] if n != kind_field)
    for name in names:
        values = [r[field][0].get(name) for r in opened]
        if not all(isinstance(v, str) for v in values) or all(DATE.match(v) for v in values):
            continue
        if len(set(values)) < 2:
            continue
        samples = [(r[field][0][name], r, []) for r in opened]
        found = learned_text(samples)
        found = found if found is not None else flag_tail(samples, state)  # "...; spare X fitted for Y" while swapped
        if found is not None:
            out[name] = found
    return out


def _data_openings(
    own: dict[str, Any],
    records: list[dict[str, Any]],
    params: dict[str, Any],
    required: list[str],
    today: str,
    state: dict[str, Any],
    initial: dict[str, Any],
) -> list[dict[str, Any]]:
    """`append` effects for the lists the docs name no opening entry of, where every sample record (three at
    least) opens the list with an entry of one kind, a word of creation ("created", "booked") or the state the
    create leaves the record in: what the data shows a new record starts with. Its text is
    learned from every record, else from those still in the state the create leaves them in (`initial`: the
    texts a later change left untouched show values it has since changed, "Pencilled until <the hold's end>")."""
    out = []
    for field, schema in sorted(own.items()):
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        holding = [r for r in records if isinstance(r.get(field), list) and r[field] and isinstance(r[field][0], dict)]
        if not isinstance(items, dict) or len(holding) < MIN_OPENED or len(holding) < len(records):
            continue
        for kind_field in sorted(items.get("properties") or {}):
            kinds = {r[field][0].get(kind_field) for r in holding}
            kind = kinds.pop() if len(kinds) == 1 else None
            if not isinstance(kind, str) or _kind_fields(items, kind, False)[0] != [kind_field]:
                continue
            if kind.lower() not in CREATED and kind not in initial.values():
                continue  # an event every record went through later (an inspection passed), not its creation
            fresh = [r for r in holding if initial and all(r.get(k) == v for k, v in initial.items())]
            texts = _texts(field, kind_field, holding, state) or _texts(field, kind_field, fresh, state)
            rule = _entry_rule(
                kind_field, kind, [r[field][0] for r in holding], params, required, [], today, texts=texts
            )
            if rule is not None:
                out.append({"op": "append", "field": field, "items": [rule]})
                break
    return out


def opening_entries(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    sample: dict[str, Any] | None,
    today: str | None,
) -> ToolPlan:
    """The create plan with the opening entry its docs name appended to the new record's list."""
    if plan.kind != "create" or not plan.collection or not today:
        return plan
    own = _props(state_schema.get("properties") or {}, plan.collection)
    records = sample_records(sample or {}, plan.collection)
    params = spec.parameters.get("properties") or {}
    required = list(spec.parameters.get("required") or [])
    done = {e.get("field") for e in plan.effects if e.get("op") == "append"}
    found = []
    for m in KIND.finditer(unwrap(text)):
        said_list, kind = m.group("list") or m.group("list_first"), m.group("kind") or m.group("kind_after")
        lists = [said_list] if said_list in own else sorted(own)
        for field in lists:
            schema = own.get(field) or {}
            items = schema.get("items") if schema.get("type") == "array" else None
            kinds, _ = _kind_fields(items, kind, False) if isinstance(items, dict) else ([], False)
            opened = _opening(records, field, kinds[0], kind) if len(kinds) == 1 else []
            if not opened or field in done:
                continue
            texts = _texts(field, kinds[0], opened, sample or {})
            same = [r[field][0] for r in opened]
            rule = _entry_rule(kinds[0], kind, same, params, required, [], today, texts=texts)
            if rule is not None:
                found.append({"op": "append", "field": field, "items": [rule]})
                done.add(field)
    initial = {k: v for k, v in plan.initial_values.items() if isinstance(v, str)}
    written = done | set(plan.initial_values) | set(plan.fields) | {e.get("field") for e in plan.effects}
    opened = _data_openings(own, records, params, required, today, sample or {}, initial)
    found += [e for e in opened if e["field"] not in written]  # a list nothing else starts
    if not found:
        return plan
    evidence = plan.evidence + ["opening entries: " + ", ".join(e["field"] for e in found)]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": list(plan.effects) + found, "evidence": evidence})


__all__ = ["opening_entries"]
