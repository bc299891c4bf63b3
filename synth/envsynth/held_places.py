"""Places a record holds on another, as the docs say it: "Creates a charter and reserves its places on the
boat" (the boat's `seats_booked` rises by the charter's passengers), "Cancels a charter and releases its places"
(it drops by them again).

- The verb says which way: reserve, hold, take, book, occupy (+); release, free, give back, return (-); the unit
  is a place, seat, space or spot.
- The record the places are on is the one the words after the unit name ("on the boat": the record's `boat_id`),
  else the one linked record whose collection keeps a count of places taken (`booked`, `reserved`, `taken`,
  `sold`, `occupied`, `filled`, `held`, `used`, alone or as a field's last word) beside a capacity
  (`capacity`, `places`, `seats`, `spaces`, `max_...`, `limit`).
- How many: the record's one number named for heads (`party_size`, `guests`, `people`, `seats`, `places`,
  `headcount`, `quantity`), else the entries of its one list that is not a dated log (the passengers, or their
  quantities). "Returns the seats" and "the next trip takes its place" move nothing, nor does a negated verb.

A create that reserves places is refused when they would take the count past the capacity (`sum_within`). Each
move is an `adjust` effect on the linked record (code_templates/_blocks.j2 `moves`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_linked import record_links
from synth.spec import record_props
from synth.words import plural, split_words

UNIT = r"(?:places?|seats?|spaces?|spots?)"
RESERVE = re.compile(
    rf"\b(?:reserves?|reserving|holds?|takes?|books?|occupies|occupy)\s+(?:its|their|the|all|one|each)?\s*"
    rf"(?:own\s+)?{UNIT}\b(?:\s+(?:in|on|at|of)\s+(?:the\s+|its\s+|their\s+)?(?P<noun>[a-z][a-z ]{{0,30}}?))?"
    r"(?=\s*(?:[.,;:()]|$|\band\b|\bbut\b|\bincluding\b|\bfor\b))",
    re.I,
)
RELEASE = re.compile(
    rf"\b(?:releases?|releasing|frees?|freeing|gives?\s+back)\s+(?:its|their|the|all|his|her)?\s*"
    rf"(?:own\s+)?{UNIT}\b(?:\s+(?:in|on|at|of)\s+(?:the\s+|its\s+|their\s+)?(?P<noun>[a-z][a-z ]{{0,30}}?))?"
    r"(?=\s*(?:[.,;:()]|$|\band\b|\bbut\b))",
    re.I,
)
NEGATED = re.compile(r"\b(?:not|never|without|nothing|no\s+longer)\b(?:\s+\w+){0,3}\s*$", re.I)
IDIOM = re.compile(r"\btakes?\s+(?:its|their|his|her)\s+place\b", re.I)  # "the next trip takes its place"
COUNTS = {"booked", "reserved", "taken", "sold", "occupied", "filled", "held", "used"}
CAPS = {"capacity", "places", "seats", "spaces", "limit"}
HEADS = {"party", "guests", "people", "persons", "seats", "places", "headcount", "quantity", "size"}


def _is_number(schema: Any) -> bool:
    types = schema.get("type") if isinstance(schema, dict) else None
    return bool({"integer", "number"} & set(types if isinstance(types, list) else [types]))


def _counted(theirs: dict[str, Any]) -> tuple[str, str] | None:
    """(count field, capacity field) of a record that keeps places taken beside a capacity."""
    counts = [f for f, s in theirs.items() if _is_number(s) and (split_words(f) or [""])[-1].lower() in COUNTS]
    caps = [
        f
        for f, s in theirs.items()
        if _is_number(s) and f not in counts and (f.lower() in CAPS or f.lower().startswith("max_"))
    ]
    return (counts[0], caps[0]) if len(counts) == 1 and len(caps) == 1 else None


def _target(noun: str | None, own: dict[str, Any], cols: dict[str, Any]) -> tuple[str, str, str, str] | None:
    """(link field, collection, count field, capacity field) of the record the places are on."""
    links = record_links(own, cols, "")
    found = []
    for field, col in sorted(links.items()):
        counted = _counted(record_props(cols, col))
        if counted is None:
            continue
        if noun:
            words = {w.lower() for w in noun.split()}
            named = set(split_words(field[:-3] if field.endswith("_id") else field)) | {col, col.rstrip("s")}
            if not words & {w.lower() for w in named} and plural(noun.split()[-1].lower()) != col:
                continue
        found.append((field, col) + counted)
    return found[0] if len(found) == 1 else None


def _dated(items: dict[str, Any]) -> bool:
    props = items.get("properties") or {}
    return any("date" in str((s or {}).get("format") or "") or k in ("date", "on", "at") for k, s in props.items())


def places_taken(own: dict[str, Any]) -> dict[str, Any] | None:
    """The `sum` operand counting the places a record holds: its one undated list's entries (or their quantities),
    else its one number named for heads."""
    lists = [
        (f, s["items"])
        for f, s in sorted(own.items())
        if isinstance(s, dict)
        and s.get("type") == "array"
        and isinstance(s.get("items"), dict)
        and (s["items"].get("properties") and not _dated(s["items"]))
    ]
    heads = [f for f, s in sorted(own.items()) if _is_number(s) and set(split_words(f)) & HEADS]
    if len(heads) == 1:  # a number named for heads says it first (`party_size` beside a list of provisions)
        return {"path": [heads[0]]}
    if len(lists) == 1 and not heads:
        field, items = lists[0]
        qty = [k for k, s in (items.get("properties") or {}).items() if k in ("quantity", "qty") and _is_number(s)]
        return {"sum": {"list": field, "field": qty[0] if qty else None}}
    return None


def held_places(text: str, collection: str, state_schema: dict[str, Any], create: bool) -> list[dict[str, Any]]:
    """The `adjust` effect (and, for a create, the `sum_within` check) the text's "reserves its places" or
    "releases its places" makes; none when the text says neither, or the record or the count is unclear."""
    cols = state_schema.get("properties") or {}
    own = record_props(cols, collection)
    moves = [(m, 1) for m in RESERVE.finditer(text)] + [(m, -1) for m in RELEASE.finditer(text)]
    moves = [
        (m, sign)
        for m, sign in moves
        if not NEGATED.search(text[max(0, m.start() - 60) : m.start()]) and not IDIOM.match(m.group(0))
    ]
    if not moves or len({sign for _, sign in moves}) != 1:
        return []
    sign = moves[0][1]
    nouns = {m.group("noun").strip() for m, _ in moves if m.group("noun")}
    target = _target(nouns.pop() if len(nouns) == 1 else None, own, cols)
    count = places_taken(own)
    if target is None or count is None:
        return []
    link, col, field, cap = target
    delta = {"plus": [count]} if sign > 0 else {"minus": [count]}
    path = [{"from": "record", "path": [link]}, {"from": "const", "value": field}]
    out: list[dict[str, Any]] = [
        {"op": "adjust", "collection": col, "path": path, "delta": {"from": "expr", "expr": delta}}
    ]
    if create and sign > 0:
        term = (
            {"count": count["sum"]["list"], "field": count["sum"]["field"]}
            if "sum" in count
            else {"own": count["path"]}
        )
        out.append({"op": "sum_within", "collection": col, "via": link, "add": [{"linked": field}, term], "limit": cap})
    return out


__all__ = ["held_places", "places_taken"]
