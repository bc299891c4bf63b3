"""Quote lines one per day of a stay: "Each night (from the arrival date up to, not including, the departure date)
is priced at the berth class's rate for the tide band (...) of the period that contains the night."

The answer's list field (`nightly: [{date, tide_band, rate}]`) gets a line for each day from the first date
parameter up to (not including) the second (date_spans.date_pair). The record covering the day is the one of the
collection the sentence names ("the <noun> that contains / covers / includes the night") whose two date fields
hold it: its start and end, told apart by their names (date_spans' start and end words) or else their order, and its
end day exclusive when, in the sample, one record ends on the day another starts. No record covering a day refuses
the call. Each line field is then the day (the one date field), a field of the covering record, or the entry of a
named record's map (`rates` for `rate`) at the covering record's field whose sample values are all keys of that map
(tried before a field named alike). A line field of no such kind leaves the list unknown.

The node is {"dated_lines": {"from", "to", "collection", "name", "start", "end", "end_exclusive", "day", "steps",
"fields", "priced"}}, rendered as a loop (code_templates/_blocks.j2 `dated_lines`); `priced` is the line field a
subtotal sums (`dated_total`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import sample_records
from synth.envsynth.date_spans import ENDS, STARTS, _arg, _is_date, date_pair
from synth.envsynth.returns_shape import ReturnedField
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

COVERS = re.compile(
    r"\b(?:the\s+)?([A-Za-z][\w-]*)\s+(?:that|which)\s+(?:contains|covers|includes|spans)\s+"
    r"(?:the|that|each|this|every)\s+(?:night|day|date)\b",
    re.I,
)
EACH_DAY = re.compile(r"\b(?:each|every|per)\s+(?:night|day)\b", re.I)
DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _bounds(records: list[dict[str, Any]]) -> tuple[str, str, bool] | None:
    """(start field, end field, end exclusive) of records spanning dates: their two fields that always hold a day."""
    if not records:
        return None
    dated = [f for f in records[0] if all(isinstance(r.get(f), str) and DAY.match(r[f]) for r in records)]
    if len(dated) != 2:
        return None
    start, end = dated
    if set(split_words(end)) & STARTS and set(split_words(start)) & ENDS:
        start, end = end, start
    starts = {r[start] for r in records}
    return start, end, any(r[end] in starts for r in records)


def _alike(entry: str, field: str) -> bool:
    """One name's words inside the other's (`band`, `rate_band`)."""
    a, b = set(split_words(entry)), set(split_words(field))
    return bool(a and b) and (a <= b or b <= a)


def _item_schemas(spec: ToolSpec, name: str) -> dict[str, Any]:
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    schema = (returns.get("properties") or {}).get(name) or {}
    items = schema.get("items") if isinstance(schema, dict) else None
    return (items.get("properties") or {}) if isinstance(items, dict) else {}


def _map_keys(sample: dict[str, Any], col: str, field: str) -> set[str] | None:
    """The keys every sample record's `field` map holds; None when some record's field is no map."""
    keys: set[str] | None = None
    for record in sample_records(sample, col):
        held = record.get(field)
        if not isinstance(held, dict):
            return None
        keys = set(held) if keys is None else keys & set(held)
    return keys


def _keyed_entry(entry: str, noun: str, records: list[dict[str, Any]], scope: Any) -> dict[str, Any] | None:
    """`rate` as the entry of the named record's `rates` map at the covering record's field whose sample values
    are all keys of that map (the period's `tide_band`)."""
    hits = []
    for p, col in scope.named.items():
        for f in sorted(scope.fields.get(p) or {}):
            keys = (
                _map_keys(scope.sample, col, f) if f in (plural(entry), entry + "s") or singular(f) == entry else None
            )
            for by in sorted(records[0]) if keys else ():
                values = {str(r.get(by)) for r in records if r.get(by) is not None}
                if values and values <= keys and len(values) >= 2:
                    hits.append({"field": f, "param": p, "at_field": [noun, by]})
    return hits[0] if len(hits) == 1 else None


def dated_line_node(field: ReturnedField, spec: ToolSpec, scope: Any, cols: dict[str, Any]) -> dict[str, Any] | None:
    """The lines of a list answer field priced day by day over the call's two dates, or None (module docstring)."""
    pair = date_pair(scope.params)
    flat = " ".join(scope.docs.split())
    cover = COVERS.search(flat)
    if not field.is_list or not field.entries or pair is None or cover is None or not EACH_DAY.search(flat):
        return None
    noun = singular(cover.group(1).lower())
    col = next((c for c in (plural(noun), noun) if c in cols), None)
    records = sample_records(scope.sample, col) if col else []
    bounds = _bounds(records)
    if col is None or bounds is None or noun in scope.params or noun in scope.fields:
        return None
    entries = [e.name for e in field.entries]
    items = _item_schemas(spec, field.name)
    days = [e for e in entries if _is_date(e, items.get(e, {"type": "string"}))]
    if len(days) != 1:
        return None
    held = _props(cols, col)
    steps: list[list[Any]] = []
    priced = ""
    for entry in [e for e in entries if e != days[0]]:
        keyed = None if entry in held else _keyed_entry(entry, noun, records, scope)
        if keyed is not None:
            steps.append([entry, keyed])
            priced = priced or entry
            continue
        same = [entry] if entry in held else [f for f in sorted(held) if _alike(entry, f)]
        if len(same) != 1:
            return None
        steps.append([entry, {"field": same[0], "param": noun}])  # `band` of the period's `tide_band`
    start, end, exclusive = bounds
    lines = {"from": _arg(scope.params, pair[0]), "to": _arg(scope.params, pair[1]), "collection": col}
    lines.update({"name": noun, "start": start, "end": end, "end_exclusive": exclusive, "day": days[0]})
    lines.update({"steps": steps, "fields": entries, "priced": priced})
    return {"dated_lines": lines}


def dated_total(name: str, steps: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """A `subtotal` (`berth_subtotal`) over the one list of dated lines: the sum of its priced field."""
    if not re.search(r"(?:^|_)subtotal$", name):
        return None
    dated = [(k, n["dated_lines"]["priced"]) for k, n in steps.items() if (n.get("dated_lines") or {}).get("priced")]
    return {"sum": dated[0][0], "of": dated[0][1]} if len(dated) == 1 else None


__all__ = ["dated_line_node", "dated_total"]
