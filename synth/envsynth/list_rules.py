"""What a list or search tool's docs say about which records it answers and in which order, beyond its parameters:

- a state it keeps or leaves out: "Lists berths that are free for mooring (berths that are taken or
  blocked are never returned)" keeps records whose closed text field (known values in the data) is `open`;
- its order: "Results are sorted by date, start time, then berth id" / "ordered by boat_id" sorts by those fields
  (a phrase names a field by its words joined with `_`, or by its first word when that is a field).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.list_scopes import scope_checks
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, field_called

SORTED = re.compile(r"\b(?:(?:sorted|ordered)\s+by|order\s*:\s*by)\s+([^.;(){}:]{1,120})", re.IGNORECASE)
ASIDE = re.compile(r"\s*\(([^()]{1,40})\)")  # "by pier (north first), then ...": an aside on the phrase before
NEVER = re.compile(r"\s+(?:are|is)\s+(?:never|not)\s+(?:returned|listed|included|shown)\b", re.I)
CLAUSE = re.compile(r"[;(]|,\s+(?:and|but)\s+|\bbut\b")  # "..., and taken or closed berths are never ..."
THAT_ARE = re.compile(r"\b(?:lists?|returns?|finds?|searches?)\b[^.;()]{0,80}?\bthat\s+are\s+([^.;(),]{1,60})", re.I)
ERRORS = re.compile(r"\b(errors?|fails?|refused|invalid)\b", re.I)


def _closed_fields(record: dict[str, Any]) -> dict[str, list[str]]:
    return {
        f: [str(v) for v in (s.get("enum") or s.get("x-enum") or [])]
        for f, s in record.items()
        if isinstance(s, dict) and s.get("type") == "string" and (s.get("enum") or s.get("x-enum"))
    }


def _values(text: str, known: list[str]) -> set[str]:
    low = {v.lower(): v for v in known}
    return {low[w.lower()] for w in re.findall(r"\w+", text) if w.lower() in low}


def list_scope(description: str, record: dict[str, Any]) -> dict[str, list[str]]:
    """{field: values kept} the description fixes for every call (empty when it fixes none)."""
    sentences = [x for x in re.split(r"(?<=[.!?])\s+", description) if not ERRORS.search(x)]
    out: dict[str, list[str]] = {}
    for field, known in _closed_fields(record).items():
        dropped: set[str] = set()
        kept: set[str] = set()
        for sentence in sentences:
            for m in NEVER.finditer(sentence):  # its subject: from the last clause boundary before the verb
                dropped |= _values(CLAUSE.split(sentence[: m.start()])[-1], known)
            for m in THAT_ARE.finditer(sentence):  # "that are open", "that are pending or active for booking"
                kept |= _values(re.split(r"\s+(?:for|with|at|in|on|by)\s+", m.group(1))[0], known)
        if kept and not dropped & kept:
            out[field] = sorted(kept)
        elif dropped and len(dropped) < len(known):
            out[field] = [v for v in known if v not in dropped]
    for field, schema in sorted(record.items()):  # "Retired boats (active = false) are never returned"
        if not isinstance(schema, dict) or schema.get("type") != "boolean":
            continue
        said = rf"`?\b{re.escape(field)}`?\s*(?:=|is)\s*`?(true|false)\b"
        flags = {
            hit.group(1).lower() == "true"
            for sentence in sentences
            for m in NEVER.finditer(sentence)
            if (hit := re.search(said, sentence[: m.start()], re.I))
        }
        if len(flags) == 1:
            out[field] = [not flags.pop()]
    return out if len(out) == 1 else {}


DESCENDING = re.compile(r"\b(desc(?:ending)?|newest first|latest first|most recent first|highest first)\b", re.I)
NOISE = ("the", "its", "their", "by", "asc", "ascending", "desc", "descending", "order", "first", "oldest", "newest")
NOISE += ("latest", "earliest", "most", "recent", "highest", "lowest")  # the words of a direction


def _field_of(phrase: str, record: dict[str, Any]) -> str | None:
    words = [w.lower() for w in re.findall(r"[A-Za-z]\w*", phrase) if w.lower() not in NOISE]
    for name in ("_".join(words), words[0] if len(words) == 2 and "_".join(words) not in record else ""):
        if name and name in record:
            return name
    return field_called(" ".join(words), record)  # "arrival date": the field the parameters call so


def _aside(m: re.Match[str]) -> str:
    """An aside in brackets within an order: a direction or a further key ("(newest first)", "(then boat id)") joins
    the order; another ("(P1 first)") is dropped where the order goes on after it, else it ends the order."""
    said = m.group(1).strip()
    if DESCENDING.search(said) or re.match(r"(?:and\s+)?then\b", said, re.I):
        return ", " + said
    return "" if m.string[m.end() : m.end() + 1] == "," else "; "


def sort_fields(description: str, record: dict[str, Any]) -> list[str]:
    """The fields the docs order the answer by: the leading phrases that each name one ("ordered by boat id, of
    boats {...}" -> boat_id); all of them descending ("sorted by date, newest first") are `-field`; a mix of
    directions gives no order."""
    found = SORTED.search(ASIDE.sub(_aside, description))
    if not found:
        return []
    phrases = [p for p in re.split(r",\s*(?:and\s+|then\s+)?|\s+then\s+|\s+and\s+", found.group(1)) if p.strip()]
    merged: list[str] = []
    for p in phrases:  # ", newest first" qualifies the phrase before it
        if merged and DESCENDING.fullmatch(p.strip()):
            merged[-1] += " " + p
        else:
            merged.append(p)
    phrases = merged
    fields = [_field_of(p, record) for p in phrases]
    if fields and fields[0] and not all(fields):  # "ordered by part id, of parts {...}", "by boat id and include ..."
        kept = fields.index(None)
        fields, phrases = fields[:kept], phrases[:kept]
    if not fields or not all(fields):
        return []
    down = [bool(DESCENDING.search(p)) for p in phrases]
    if any(down) and not all(down):
        return []
    return [("-" if d else "") + str(f) for f, d in zip(fields, down)]


DATED_FIRST = re.compile(r"^[^.]*?,\s*(newest|latest|most recent|oldest|earliest)\s+first\s*(?:\.|$)", re.I)
ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")


def dated_order(description: str, records: Any) -> list[str]:
    """The order of a list said "List a skipper's invoices, newest first.": by the records' first date field (the
    first field every sample record holds as a date), newest first (`-field`) or oldest first; none without one."""
    found = DATED_FIRST.match(description.strip())
    rows = [r for r in (records.values() if isinstance(records, dict) else []) if isinstance(r, dict)]
    if not found or not rows:
        return []
    for field in rows[0]:
        values = [r.get(field) for r in rows]
        if all(isinstance(v, str) and ISO_DAY.match(v) for v in values):
            return [("-" if found.group(1).lower() in ("newest", "latest", "most recent") else "") + field]
    return []


PRICED_FIRST = re.compile(
    r"\b(?P<up>cheapest|lowest[- ]priced|least expensive)\s+first\b|\b(?:most expensive|highest[- ]priced)\s+first\b",
    re.I,
)
TIES = re.compile(r"\bties\s+(?:broken\s+)?by\s+`?(\w+)`?", re.I)
PRICE_WORDS = ("price", "rate", "fee", "cost", "rent", "charge")


def priced_order(description: str, record: dict[str, Any]) -> list[str]:
    """The order of a list said "cheapest first (ties by berth_id)" (or most expensive first): by the record's one
    price-like number (a field whose name holds price, rate, fee, cost, rent or charge), then the tie field."""
    found = PRICED_FIRST.search(description)
    if not found:
        return []
    priced = [
        f
        for f, s in record.items()
        if isinstance(s, dict) and s.get("type") in ("number", "integer") and set(f.split("_")) & set(PRICE_WORDS)
    ]
    if len(priced) != 1:
        return []
    down = "" if found.group("up") else "-"
    tie = TIES.search(description[found.end() : found.end() + 60])
    then = [down + tie.group(1)] if tie and tie.group(1) in record and tie.group(1) != priced[0] else []
    return [down + priced[0]] + then


def refine_list(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    today: str | None = None,
    sample: dict[str, Any] | None = None,
) -> ToolPlan:
    """The filter / list plan with the states, linked states, date floor and order its docs fix (unchanged when
    they fix none)."""
    if plan.kind not in ("filter", "list") or not plan.collection:
        return plan
    col = (state_schema.get("properties") or {}).get(plan.collection) or {}
    shape = col.get("additionalProperties") if isinstance(col, dict) else None
    record = shape.get("properties") if isinstance(shape, dict) else None
    record = record if isinstance(record, dict) else {}
    params = set(spec.parameters.get("properties") or {})
    scope = {f: v for f, v in list_scope(spec.description, record).items() if f not in params}
    answer = spec.returns.get("description") if isinstance(spec.returns, dict) else None  # "ordered by day"
    order = sort_fields(spec.description, record) or sort_fields(str(answer or ""), record)
    order = order or dated_order(spec.description, (sample or {}).get(plan.collection))
    order = order or priced_order(spec.description, record)
    props = spec.parameters.get("properties") or {}
    cols = state_schema.get("properties") or {}
    checks = scope_checks(spec.description, plan.collection, cols, today, props, sample)
    if not scope and not order and not checks:
        return plan
    return ToolPlan.from_dict({**plan.to_dict(), "list_scope": scope, "sort_fields": order, "scope_checks": checks})


__all__ = ["dated_order", "list_scope", "priced_order", "refine_list", "sort_fields"]
