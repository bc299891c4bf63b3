"""A schedule of instalments a keyed write stores on its record, as its docs spell it:

    Every instalment is the `total` divided by the number of instalments, rounded **down** to the cent; the last
    instalment takes the remainder. Instalment *k* is due on the 15th of the *k*-th month after today. The plan
    replaces the mooring's `dues_plan`, a `plan_made` entry is appended to the log, and a `lapsed` mooring becomes
    `current`.

The call sets the record's object field the docs name ("replaces the mooring's `dues_plan`", else the one object
field whose schema holds the schedule's list) to the object its answer describes, and answers with it. Each key of
the answer schema is read as
- the schedule: one entry per instalment, the count being the integer argument named like the list, each entry's
  keys read off the answer's example (the number 1, 2, ..., the due date, the amount;
  date_runtime.fg_instalments);
- the figure "The plan's `total` is the <field>" names (a field of the record);
- the example's value when it is the business date or a value the docs quote;
- an id whose example holds the number of a sample record's key: the same text around the record's own number; a
  trailing 1 after it counts the plans the record's log shows of the kind the call appends, plus one.
A `<old>` record "becomes `<new>`" only from that state; the entry appended copies what the plan holds (the data's
entries of that kind show which figure); "must not already have an `open` plan" refuses a record whose object
holds that value. Any key left unread keeps the plan as it was.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_entries import NAMED
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, field_by_words, known_values
from synth.spec import record_props as _props

SPLIT = re.compile(
    r"\b(?:every|each)\s+(?P<item>[a-z]+)\s+is\s+the\s+`?(?P<total>\w+)`?\s+divided\s+by\s+the\s+(?:number|count)\s+of"
    r"\s+`?(?P<list>\w+)`?\s*,?\s*rounded\s+(?:\**(?P<way>down)\**\s+)?to\s+the\s+(?:cent|penny)\s*[;,]\s*(?:and\s+)?"
    r"the\s+last\s+(?:one|[a-z]+)\s+(?:takes|gets|carries|absorbs)\s+the\s+(?:remainder|rest|difference)",
    re.I,
)
DUE = re.compile(
    r"\b[a-z]+\s+\*?(?P<k>[a-z])\*?\s+is\s+due\s+on\s+the\s+(?P<day>\d{1,2})(?:st|nd|rd|th)\s+of\s+the\s+\*?(?P=k)\*?"
    r"-?th\s+month\s+after\s+(?:today|the\s+business\s+date)",
    re.I,
)
REPLACES = re.compile(
    r"\bthe\s+(?P<obj>[a-z]+)\s+(?:replaces|is\s+stored\s+(?:in|as))\s+the\s+(?:[a-z]+['\u2019]s\s+)?`(?P<field>\w+)`",
    re.I,
)
TOTAL_IS = re.compile(
    r"\bthe\s+[a-z]+['\u2019]s\s+`(?P<field>\w+)`\s+is\s+the\s+(?:[a-z]+['\u2019]s\s+)?(?:current\s+)?`?"
    r"(?P<words>[a-z][a-z_ ]{0,30}?)`?\s*(?=[.;,]|$)",
    re.I,
)
BECOMES = re.compile(r"\b(?:an?|the)\s+`(?P<old>[\w-]+)`\s+(?P<noun>[a-z]+)\s+becomes\s+`(?P<new>[\w-]+)`", re.I)
NOT_ALREADY = re.compile(
    r"\bmust\s+not\s+already\s+(?:have|hold|carry)\s+an?\s+`(?P<value>[\w-]+)`\s+(?P<noun>[a-z]+)", re.I
)
DATE = re.compile(r"^\d{4}-\d\d-\d\d$")


def _schedule_fields(items: dict[str, Any], example: Any) -> dict[str, str] | None:
    """{"index", "due", "amount"}: the keys of a schedule entry, read off the example's entries."""
    entries = [e for e in example if isinstance(e, dict)] if isinstance(example, list) else []
    if not entries:
        return None
    out: dict[str, str] = {}
    for name in items:
        values = [e.get(name) for e in entries]
        if values == list(range(1, len(values) + 1)):
            out["index"] = name
        elif all(isinstance(v, str) and DATE.match(v) for v in values):
            out["due"] = name
        elif all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            out["amount"] = name
        else:
            return None
    return out if len(out) == len(items) and "amount" in out else None


def _logged(text: str, own: dict[str, Any], records: list[dict[str, Any]]) -> tuple[str, str, str, list] | None:
    """(list, kind field, kind, the data's entries of that kind) of the entry the text appends to the record."""
    for m in NAMED.finditer(text):
        field = m.group("field")
        if field not in own or (own[field] or {}).get("type") != "array":
            continue
        kind = m.group("kind")
        pairs = [(r, e) for r in records for e in (r.get(field) or []) if isinstance(e, dict) and kind in e.values()]
        keys = {k for _, e in pairs for k, v in e.items() if v == kind}
        if pairs and len(keys) == 1:
            return field, keys.pop(), kind, pairs
    return None


def _id_source(value: str, keys: list[str], logged: tuple[str, str, str, list] | None) -> dict[str, Any] | None:
    """The text around the record's own number, when the example's value holds a sample key's number."""
    numbers = {(re.findall(r"\d+", k) or [""])[-1] for k in keys} - {""}
    found = [n for n in numbers if n in value]
    if len(found) != 1:
        return None
    head, tail = value.split(found[0], 1)
    parts: list[Any] = [head, {"from": "own_number"}]
    counted = re.fullmatch(r"(\D+)1", tail)
    if counted and logged:  # "-1": the first plan; later ones count the record's logged plans
        field, kind_field, kind, _ = logged
        parts += [
            counted.group(1),
            {"from": "kind_count", "list": field, "field": kind_field, "value": kind, "after": 1},
        ]
    else:
        parts += [tail] if tail else []
    return {"from": "concat", "parts": [p for p in parts if p != ""]}


def instalment_plan(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    sample: dict[str, Any] | None,
    today: str | None,
) -> ToolPlan:
    """A `recorded_update` storing the schedule the docs spell on the record the call names, or the plan as it was."""
    split, due = SPLIT.search(text), DUE.search(text)
    if not split or not today or not plan.collection or not plan.key_param:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    answer, example = returns.get("properties") or {}, returns.get("example")
    params = (spec.parameters or {}).get("properties") or {}
    listed = split.group("list")
    items = ((answer.get(listed) or {}).get("items") or {}).get("properties") or {}
    if (params.get(listed) or {}).get("type") != "integer" or not items or not isinstance(example, dict):
        return plan
    target = REPLACES.search(text)
    holders = [f for f, s in own.items() if listed in ((s or {}).get("properties") or {})]
    field = (
        target.group("field") if target and target.group("field") in own else holders[0] if len(holders) == 1 else None
    )
    total_is = [m for m in TOTAL_IS.finditer(text) if m.group("field") == split.group("total")]
    total_src = field_by_words(total_is[0].group("words"), own) if total_is else None
    entry = _schedule_fields(items, example.get(listed))
    if field is None or total_src is None or entry is None:
        return plan
    records = [r for r in ((sample or {}).get(plan.collection) or {}).values() if isinstance(r, dict)]
    logged = _logged(text, own, records)
    quoted = set(re.findall(r"`([\w-]+)`", text))
    total = {"from": "record", "path": [total_src]}
    day = int(due.group("day")) if due else int(today[8:])
    fields: dict[str, Any] = {}
    for name in answer:
        value = example.get(name)
        if name == listed:
            count = {"from": "arg", "name": listed}
            fields[name] = {
                "from": "instalments", "total": total, "count": count, "today": today, "day": day,
                "down": bool(split.group("way")), "fields": entry,
            }  # fmt: skip
        elif name == split.group("total"):
            fields[name] = total
        elif value == today:
            fields[name] = {"from": "const", "value": today}
        elif isinstance(value, str) and value in quoted:
            fields[name] = {"from": "const", "value": value}
        elif isinstance(value, str) and (
            made := _id_source(value, [str(k) for k in (sample or {}).get(plan.collection) or {}], logged)
        ):
            fields[name] = made
        else:
            return plan
    effects: list[dict[str, Any]] = [{"op": "set", "field": field, "source": {"from": "object", "fields": fields}}]
    for m in BECOMES.finditer(text):  # "a `lapsed` mooring becomes `current`": only from that state
        states = [f for f, s in own.items() if {m.group("old"), m.group("new")} <= set(known_values(s))]
        if len(states) == 1:
            when = {"field": states[0], "in": [m.group("old")]}
            effects.append(
                {"op": "set", "field": states[0], "source": {"from": "const", "value": m.group("new")}, "when": when}
            )
    if logged:
        kept = _logged_entry(logged, field, fields, today)
        if kept is None:
            return plan
        effects.append({"op": "append", "field": logged[0], "items": [kept]})
    checks = [
        {"op": "nested_not", "path": [field, name], "values": [m.group("value")]}
        for m in NOT_ALREADY.finditer(text)
        for name, value in example.items()
        if value == m.group("value") and name in fields
    ]
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "kind": "recorded_update",
            "fields": [],
            "field_paths": {},
            "effects": effects,
            "checks": list(plan.checks) + checks,
            "output_fields": list(answer),
            "output_map": {name: {"op": "nested", "path": [field, name]} for name in answer},
            "evidence": plan.evidence + ["an instalment schedule stored as the docs spell it"],
        }
    )


def _logged_entry(
    logged: tuple[str, str, str, list], field: str, fields: dict[str, Any], today: str
) -> dict[str, Any] | None:
    """The appended entry: its kind, the business date, and each other key the figure of the stored object that the
    data's entries of that kind hold (on the record holding that object)."""
    _, kind_field, kind, pairs = logged
    out: dict[str, Any] = {}
    for name in dict.fromkeys(k for _, e in pairs for k in e):
        values = [e.get(name) for _, e in pairs]
        if name == kind_field:
            out[name] = {"from": "const", "value": kind}
        elif all(isinstance(v, str) and DATE.match(v) for v in values):
            out[name] = {"from": "const", "value": today}
        else:
            held = [
                {k for k, v in (r.get(field) or {}).items() if v == e.get(name)}
                if isinstance(r.get(field), dict)
                else set()
                for r, e in pairs
            ]
            common = set.intersection(*held) & set(fields) if held else set()
            if len(common) != 1:
                return None
            out[name] = fields[common.pop()]
    return {"fields": out}


__all__ = ["instalment_plan"]
