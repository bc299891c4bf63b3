"""Entries whose text the docs list the parts of, learned from as few as one sample entry: 'a "released" log entry
records the reason, the days before launch and the amount' with the sample note "engine trouble; 12 day(s) before
launch, 79.00 credited" is "<reason>; <days to launch> day(s) before launch, <refund> credited".

Each listed part is one of
- a parameter the part names (`reason`), shown as its documented default or one of its allowed values in the
  sample;
- a count of days "before" ("until", "to") or "since" ("after") a date of the record the part names, from the
  entry's date (`launch` minus the entry's date), shown as a whole number;
- a number of the record the part names by its name or last word ("the amount" -> `refund_amount`), shown as
  written or with two decimals.

Every part must be found exactly once in the sample text, without overlapping another; the rest of the text is
literal. The entry's other fields are read as docs_entries reads them (its kind, the business date, ...).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.date_runtime import fg_day_number
from synth.envsynth.docs_appends import is_number
from synth.envsynth.docs_entries import _entry_rule, _kind_fields
from synth.envsynth.entry_texts import _renderings

RECORDS = re.compile(  # 'a "cancelled" history entry records the reason, the days before arrival and the amount'
    r"\b(?:an?|one)\s+[`'\"]?(?P<kind>[\w-]+)[`'\"]?\s+(?P<list>\w+)\s+(?:entry|event|line|record)\s+"
    r"(?:records|notes|holds|shows|gives|lists|states|logs|keeps)\s+(?P<what>[^.;]+)",
    re.IGNORECASE,
)
PARTS = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
DAYS = re.compile(r"^days?\s+(?P<way>before|until|till|to|since|after)\s+(?:the\s+|its\s+)?(?P<date>[\w ]+?)$", re.I)
DEFAULT = re.compile(r"\bdefaults?\s+(?:to|is)\s+[`'\"](?P<value>[^`'\"]+)[`'\"]", re.IGNORECASE)
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _day(text: Any) -> int | None:
    return fg_day_number(text) if isinstance(text, str) else None


def _param_values(schema: dict[str, Any]) -> list[str]:
    """The texts a parameter may show in a sample written without knowing its argument: its default, its values."""
    out = [str(schema["default"])] if "default" in schema else []
    said = DEFAULT.search(str(schema.get("description") or ""))
    out += [said.group("value")] if said else []
    return out + [str(v) for v in schema.get("enum") or []]


def _part(
    words: str, params: dict[str, Any], record: dict[str, Any], props: dict[str, Any], entry_day: int | None, today: str
) -> list[tuple[str, dict[str, Any]]]:
    """(text, source) readings of one listed part against the sample record and entry."""
    words = re.sub(r"^(?:the|its|their|a|an)\s+", "", words.strip(), flags=re.I).lower()
    name = words.replace(" ", "_")
    if name in params:
        source = {"from": "arg", "name": name}
        values = _param_values(params[name])
        return [(v, {**source, "default": values[0]} if values else source) for v in values]
    days = DAYS.match(words)
    if days:
        field = next(
            (f for f in (days.group("date").replace(" ", "_"), days.group("date").split()[0]) if f in props), None
        )
        then = _day(record.get(field)) if field else None
        if then is None or entry_day is None:
            return []
        since = days.group("way").lower() in ("since", "after")
        count = entry_day - then if since else then - entry_day
        operand = {"late" if since else "ahead": {"path": [field], "today": today}}
        return [(str(count), {"from": "expr", "expr": {"plus": [operand]}})]
    last = words.split()[-1] if words else ""
    numbers = [f for f, s in props.items() if is_number(s)]
    hits = [f for f in numbers if f == name] or [f for f in numbers if f.split("_")[-1] == last]
    if len(hits) != 1:
        return []
    out = []
    for text, decimals in _renderings(record.get(hits[0])):
        source = {"from": "record", "path": [hits[0]]}
        out.append((text, {"from": "fixed", "of": source, "decimals": decimals} if decimals == 2 else source))
    return out


def listed_text(
    what: str,
    text: str,
    record: dict[str, Any],
    entry_day: int | None,
    params: dict[str, Any],
    props: dict[str, Any],
    today: str,
) -> dict[str, Any] | None:
    """A `concat` source writing the sample `text` (an entry of `record` written on day number `entry_day`) from
    the parts `what` lists, or None when a part is not found exactly once. `today`: the business date a new entry
    counts its days from."""
    spans: list[tuple[int, int, dict[str, Any]]] = []
    for words in PARTS.split(what.strip()):
        found = [
            (m.start(), m.end(), source)
            for shown, source in _part(words, params, record, props, entry_day, today)
            if shown
            for m in [re.search(rf"(?<![\w.]){re.escape(shown)}(?![\w]|\.\d)", text)]
            if m and len(re.findall(rf"(?<![\w.]){re.escape(shown)}(?![\w]|\.\d)", text)) == 1
        ]
        if not found:
            return None
        start, end, source = found[0]
        if any(start < e and s < end for s, e, _ in spans):
            return None
        spans.append((start, end, source))
    parts: list[Any] = []
    at = 0
    for start, end, source in sorted(spans, key=lambda s: s[0]):
        parts += ([text[at:start]] if start > at else []) + [source]
        at = end
    parts += [text[at:]] if at < len(text) else []
    return {"from": "concat", "parts": parts}


def listed_entries(
    text: str,
    record_props: dict[str, Any],
    parameters: dict[str, Any],
    records: list[dict[str, Any]],
    today: str | None,
) -> list[dict[str, Any]]:
    """`append` effects for the entries the text lists the parts of, their free text learned from the sample
    entries of the kind (every one of them written the same way)."""
    params = parameters.get("properties") or {}
    required = list(parameters.get("required") or [])
    out: list[dict[str, Any]] = []
    for m in RECORDS.finditer(text):
        field = m.group("list")
        schema = record_props.get(field)
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        if not isinstance(items, dict) or not today or any(e["field"] == field for e in out):
            continue
        kinds, _ = _kind_fields(items, m.group("kind"), True)
        if len(kinds) != 1:
            continue
        pairs = [(r, e) for r in records for e in r.get(field) or [] if e.get(kinds[0]) == m.group("kind")]
        words = [
            n
            for n, s in (items.get("properties") or {}).items()
            if n != kinds[0] and pairs and all(isinstance(e.get(n), str) and not DATE.match(e[n]) for _, e in pairs)
        ]
        dates = [
            n for n in (items.get("properties") or {}) if pairs and all(_day(e.get(n)) is not None for _, e in pairs)
        ]
        texts: dict[str, dict[str, Any]] = {}
        for name in words:
            learned = [
                listed_text(
                    m.group("what"), e[name], r, _day(e.get(dates[0])) if dates else None, params, record_props, today
                )
                for r, e in pairs
            ]
            if learned and all(x is not None and x == learned[0] for x in learned):
                texts[name] = learned[0]
        if len(texts) != len(words) or not words:
            continue
        same = [e for _, e in pairs]
        rule = _entry_rule(kinds[0], m.group("kind"), same, params, required, [], today, texts=texts)
        if rule is not None:
            out.append({"op": "append", "field": field, "items": [rule]})
    return out


__all__ = ["listed_entries", "listed_text"]
