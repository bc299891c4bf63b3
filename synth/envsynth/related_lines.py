"""Quote lines over the records of another collection that name the quoted record: "Returns {paddler_id,
overdue_kayaks (sorted by kayak_id), late_owed}; every overdue kayak has {kayak_id, days_over, surcharge}" with "A
line is made for every afloat kayak whose `due_back` has passed: its days_over since that date, and surcharge =
1.25 per day, capped at 30.00 per kayak".

The answer's list field names the collection by its last word (`overdue_kayaks` -> kayaks), whose records link the
record a parameter names (`paddler_id`). A "for every <value> <noun> whose <date> has passed" sentence (or "for each
<value> <noun> past <its date>") keeps the records in that state (a known value of one of their fields) whose date
is before the business date. Each line field is a field of the record, the whole days from that date to today for a
`days_*` / `*_days` field, or the formula the docs give ("<figure> = 1.25 per day, capped at 30.00 per <noun>", or
"<figure> charged to date (...)": a rate per day of a days figure, capped). Lines keep the collection's key order,
or the documented "sorted by <field>".

The node is {"related": {collection, link, holder, name, where, before_today, today, order, steps, fields}}
(code_templates/_blocks.j2 `related`); a days figure is {"days_since": field, "param": name, "today": date}.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.docs_entries import business_date
from synth.envsynth.figure_terms import stated_formulas
from synth.envsynth.prose import unwrap
from synth.envsynth.returns_shape import ReturnedField
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

NUMBER = r"\d+(?:\.\d+)?"
EACH = re.compile(  # "for each <value> <noun> past <its date>", "for every <value> <noun> whose <date> has passed"
    r"\bfor\s+(?:each|every)\s+([\w ]{0,40}?)\s+(?:past\s+(?:its|their|the)\s+([\w ]{2,30}?)|whose\s+`?(\w+)`?\s+"
    r"(?:has|have)\s+(?:already\s+)?passed)\s*[:,;.]",
    re.I,
)
PER_UNIT_CAPPED = re.compile(
    rf"^\s*\$?({NUMBER})\s+(?:per|a|each)\s+([a-z]+)(?:\s*,\s*(?:at\s+most|capped\s+at|up\s+to)\s+\$?({NUMBER})"
    r"(?:\s+(?:per|a|each)\s+[a-z]+)?)?\s*$",
    re.I,
)
ORDERED = re.compile(r"\b(?:ordered|sorted)\s+by\s+`?(\w+)`?", re.I)


def _number(text: str) -> float | int:
    return float(text) if "." in text else int(text)


def _collection(name: str, cols: dict[str, Any]) -> str | None:
    last = split_words(name)[-1] if split_words(name) else ""
    found = [c for c in (plural(singular(last)), last) if c in cols]
    return found[0] if found else None


def _filter(text: str, noun: str, props: dict[str, Any]) -> tuple[dict[str, list[Any]], str | None] | None:
    """({field: allowed values}, the date field that must be past) of the "for each / every <value> <noun> ..." sentence
    about `noun`; None when there is none or it names no known field."""
    for m in EACH.finditer(unwrap(text)):
        words = m.group(1).lower().split()
        if not words or singular(words[-1]) != singular(noun):
            continue
        where: dict[str, list[Any]] = {}
        for word in words[:-1]:
            holders = [
                f for f, s in props.items() if isinstance(s, dict) and word in (s.get("enum") or s.get("x-enum") or [])
            ]
            if len(holders) != 1:
                return None
            where.setdefault(holders[0], []).append(word)
        date = "_".join((m.group(2) or m.group(3)).lower().split())
        if date not in props:
            return None
        return where, date
    return None


def _definitions(name: str, text: str) -> list[str]:
    said = re.escape(name).replace("_", "[ _]")
    said += r"(?:\s+[a-z]+ed)?(?:\s+so\s+far|\s+to\s+date)?"  # "the <figure> charged to date (...)"
    found = [m.group(1) for m in re.finditer(rf"\b{said}\s*\(([^()]{{3,120}})\)", text, re.I)]
    return found + stated_formulas(name, unwrap(text))  # "<figure> = 1.50 per day, capped at 20.00 per <noun>"


def _formula(text: str, defined: list[str]) -> dict[str, Any] | None:
    """A rate per unit of a days figure, capped when the docs cap it: "1.25 per day, capped at 30.00 per kayak"."""
    m = PER_UNIT_CAPPED.match(text)
    if not m:
        return None
    unit = singular(m.group(2).lower())
    counted = [d for d in defined if unit in [singular(w) for w in split_words(d)]]
    if len(counted) != 1:
        return None
    node: dict[str, Any] = {"op": "*", "args": [{"num": _number(m.group(1))}, {"val": counted[0]}]}
    if m.group(3):
        node = {"op": "min", "args": [node, {"num": _number(m.group(3))}]}
    return {"round": node, "digits": 2, "way": "nearest"}


def related_node(field: ReturnedField, spec: ToolSpec, scope: Any, cols: dict[str, Any]) -> dict[str, Any] | None:
    """The `related` node of an answer list over another collection's records, or None."""
    entries = [e.name for e in field.entries]
    col = _collection(field.name, cols)
    if not entries or col is None or col in scope.named.values():
        return None
    props = _props(cols, col)
    links = [
        (p, f)
        for p, named in scope.named.items()
        for f, s in props.items()
        if f == p or (isinstance(s, dict) and s.get("x-references") == named)
    ]
    today = business_date(scope.docs)
    found = _filter(spec.description, singular(col), props)
    if len(links) != 1 or found is None or today is None:
        return None
    where, date = found
    name = singular(col)
    steps: dict[str, dict[str, Any]] = {}
    for entry in entries:
        if entry in props:
            steps[entry] = {"field": entry, "param": name}
        elif "days" in split_words(entry) and date:
            steps[entry] = {"days_since": date, "param": name, "today": today}
    for entry in [e for e in entries if e not in steps]:
        node = next((n for t in _definitions(entry, spec.description) if (n := _formula(t, list(steps)))), None)
        if node is None:
            return None
        steps[entry] = node
    order = ORDERED.search(field.remark or "")
    return {
        "related": {
            "collection": col,
            "link": links[0][1],
            "holder": links[0][0],
            "name": name,
            "where": where,
            "before_today": date,
            "today": today,
            "order": order.group(1) if order and order.group(1) in props else None,
            "steps": [[e, steps[e]] for e in entries],
            "fields": entries,
        }
    }


__all__ = ["related_node"]
