"""A keyed change of several fields the call gives ("Moves a trip that is still `planned` to a new date and start
time ... A `moved` entry is added to the log"), read as a recorded change instead of a plain update when the docs
say more than "the fields take the values" (field_changes.py reads the one-field case):

- each field the call names (by its own name, or as `new_<field>`) takes the argument, refused unless of the type
  and form (pattern, values) the field's schema gives; an optional one only when the call gives it;
- an entry the docs name by its kind ("a `moved` entry is added to the log") is appended: its kind, the new value
  where the records' latest entries of that kind hold their record's current one (`to_date`), the old one in a
  field named for it (`from_date`, `old_start`), the business date in the other date fields, an argument of the
  same name, and a text learned from those entries (moved_texts.py: "Moved from <old date> <old time> to <date>
  <time>.", or one entry_texts.py learns);
- a count of these changes the description names (`move_count` for a tool whose name says "move") rises by one,
  and "at most twice" (once, three times, N times) in a sentence naming it or the tool's verb caps it;
- "a trip that is still `planned`" holds the record to that state.

Nothing is read (None) unless the docs give an entry or a count.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import sample_records
from synth.envsynth.docs_entries import GOES_INTO, NAMED, NAMED_LIST_FIRST
from synth.envsynth.entry_texts import learned_text
from synth.envsynth.moved_texts import moved_text
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec, record_props, schema_types
from synth.words import split_words

STILL = re.compile(r"\bthat\s+(?:is|are)\s+still\s+[`'\"](?P<value>[\w-]+)[`'\"]", re.I)
REFUSED = re.compile(r"\b(?:cannot|can\s*not|can't|may\s+not|must\s+not|refused|is\s+not\s+allowed)\b", re.I)
TIMES = {"once": 1, "twice": 2, "thrice": 3}
AT_MOST = re.compile(
    r"\b(?:at\s+most|no\s+more\s+than|up\s+to|not\s+more\s+than)\s+(?P<n>once|twice|thrice|(?P<num>\d+)\s+times)\b",
    re.I,
)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _changed(spec: ToolSpec, key: str, own: dict[str, Any]) -> dict[str, str]:
    """{parameter: the record field it sets}, for parameters named as a field or as `new_<field>`."""
    out = {}
    for name in spec.parameters.get("properties") or {}:
        field = name if name in own else name[4:] if name.startswith("new_") and name[4:] in own else None
        if field and name != key and field not in out.values():
            out[name] = field
    return out


def _kind_of(text: str, own: dict[str, Any]) -> tuple[str, str, str] | None:
    """(list field, kind field, kind) of the one entry the text names by its kind on the record's own list."""
    found = set()
    for form in (NAMED, NAMED_LIST_FIRST, GOES_INTO):
        for m in form.finditer(text):
            field = m.group("field")
            items = (own.get(field) or {}).get("items") if isinstance(own.get(field), dict) else None
            props = (items or {}).get("properties") or {}
            kinds = [
                k
                for k, s in props.items()
                if m.group("kind") in ((s or {}).get("enum") or (s or {}).get("x-enum") or [])
            ]
            if len(kinds) == 1:
                found.add((field, kinds[0], m.group("kind")))
    return found.pop() if len(found) == 1 else None


def _entry(
    kind: tuple[str, str, str], records: list[dict[str, Any]], changed: dict[str, str], params: dict[str, Any], today
) -> dict[str, Any] | None:
    """The entry appended: each field of the latest logged entries of the kind explained, else None."""
    field, kind_field, value = kind
    latest = []
    for record in records:
        same = [e for e in record.get(field) or [] if isinstance(e, dict) and e.get(kind_field) == value]
        latest += [(same[-1], record)] if same else []
    if len(latest) < 2:
        return None
    fields: dict[str, Any] = {kind_field: {"from": "const", "value": value}}
    news = {f: {"from": "arg", "name": p} for p, f in changed.items() if p in params}
    for name in dict.fromkeys(k for e, _ in latest for k in e):
        texts = [e.get(name) for e, _ in latest]
        if name == kind_field:
            continue
        now = [f for f in news if all(t is not None and t == r.get(f) for t, (_, r) in zip(texts, latest))]
        was = _old_field(name, news)
        if len(now) == 1:  # the entry holds the value the change wrote (`to_date`)
            fields[name] = news[now[0]]
        elif was:  # `from_date`, `old_start`: the value before the change
            fields[name] = {"from": "record", "path": [was]}
        elif today and all(isinstance(t, str) and DATE.match(t) for t in texts):
            fields[name] = {"from": "const", "value": today}
        elif name in params:
            fields[name] = {"from": "arg", "name": name}
        elif all(isinstance(t, str) for t in texts):
            text = moved_text([(t, r) for t, r in zip(texts, [r for _, r in latest])], news)
            text = text or learned_text([(t, r, []) for t, r in zip(texts, [r for _, r in latest])])
            if text is None:
                return None
            fields[name] = text
        else:
            return None
    return {"op": "append", "field": field, "items": [{"fields": fields}]}


def _verb(spec: ToolSpec) -> str:
    """The first five letters of the verb the tool's name opens with ("resch" for reschedule_trip)."""
    words = split_words(spec.name)
    return words[0].lower()[:5] if words and len(words[0]) >= 4 else ""


def _old_field(name: str, news: dict[str, Any]) -> str | None:
    """The changed field an entry field named for its old value stands for (`from_date`, `old_start`)."""
    lead, _, rest = name.partition("_")
    if lead.lower() not in ("from", "old", "previous", "prior", "was") or not rest:
        return None
    found = [f for f in news if f == rest or f.split("_")[-1] == rest]
    return found[0] if len(found) == 1 else None


def _counter(spec: ToolSpec, own: dict[str, Any], changed: dict[str, str]) -> str | None:
    """The number field counting these changes: named in the description, ending in `count`, named for the verb
    the tool's name opens with, and not a field the call sets."""
    verb = _verb(spec)
    found = [
        f
        for f, s in own.items()
        if f.endswith("count")
        and isinstance(s, dict)
        and set(schema_types(s)) & {"number", "integer"}
        and f in spec.description
        and f not in changed.values()
        and verb
        and any(w.lower().startswith(verb) for w in f.split("_"))
    ]
    return found[0] if len(found) == 1 else None


def _cap(text: str, counter: str, spec: ToolSpec) -> int | None:
    """The most times the docs allow the change: "at most twice" in a sentence naming the count, or a word opening
    with the tool's verb ("moved" for move_trip; not "removed")."""
    verb = re.compile(rf"\b{re.escape(_verb(spec))}\w*", re.I) if _verb(spec) else None
    for sentence in re.split(r"(?<=[.;!?])\s+", unwrap(text)):
        m = AT_MOST.search(sentence)
        if m and (counter in sentence or (verb is not None and verb.search(sentence))):
            return int(m.group("num")) if m.group("num") else TIMES[m.group("n").lower()]
    return None


def several_changes(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], text: str, sample: Any, today: str | None
) -> ToolPlan | None:
    """The plain update of several fields as a recorded change (see the module's docstring), or None."""
    if plan.kind != "update" or not plan.collection or not plan.key_param:
        return None
    own = record_props(state_schema.get("properties") or {}, plan.collection)
    changed = _changed(spec, plan.key_param, own)
    if len(changed) < 2:
        return None
    params = spec.parameters.get("properties") or {}
    required = set(spec.parameters.get("required") or [])
    records = sample_records(sample or {}, plan.collection)
    kind = _kind_of(unwrap(spec.description), own)
    entry = _entry(kind, records, changed, params, today) if kind else None
    counter = _counter(spec, own, changed)
    if entry is None and counter is None:
        return None
    effects: list[dict[str, Any]] = []
    for name, field in changed.items():
        effect = {"op": "set", "field": field, "source": {"from": "arg", "name": name}}
        shown = {k: v for k, v in (own.get(field) or {}).items() if k in ("type", "pattern", "enum")}
        effect = {**effect, "checked": shown} if shown else effect  # the argument as the stored data writes it
        effects.append(effect if name in required else {**effect, "if_given": True})
    effects += [entry] if entry else []
    checks: list[dict[str, Any]] = []
    if counter:
        path = [{"from": "arg", "name": plan.key_param}, {"from": "const", "value": counter}]
        delta = {"from": "expr", "expr": {"plus": [{"const": 1}]}}
        effects.append({"op": "adjust", "collection": plan.collection, "path": path, "delta": delta})
        cap = _cap(spec.description + "\n" + text, counter, spec)
        checks += [{"op": "bound", "from": "self", "field": counter, "cmp": "<", "value": cap}] if cap else []
    states: dict[str, list[Any]] = {}
    said = " ".join(s for s in re.split(r"(?<=[.;!?])\s+", unwrap(spec.description)) if not REFUSED.search(s))
    for m in STILL.finditer(said):  # "a trip that is still `booked`" (not "one still `pencilled` cannot be moved")
        holders = [f for f, s in own.items() if m.group("value") in (((s or {}).get("x-enum")) or [])]
        if len(holders) == 1:
            states.setdefault(holders[0], []).append(m.group("value"))
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "recorded_update",
            "effects": effects,
            "checks": list(plan.checks) + [c for c in checks if c not in plan.checks],
            "preconditions": {**plan.preconditions, **states},
            "evidence": plan.evidence + [f"a recorded change of {', '.join(sorted(changed.values()))}"],
        }
    )


__all__ = ["several_changes"]
