"""Checks a change must pass, read from the errors its docs list ("Errors: \"Error: prescription <id> expired on
<date>\"; ..."). Each listed error that names what refuses the call becomes a check of expr_runtime.fg_check:

- "<noun> <id> expired on <date>": the record's one expiry date (a field with "expir" in its name) is not before
  the business date (`dated`);
- "<noun> <id> has no <words> remaining" (or left): the record's one number named by those words is above 0
  (`bound`);
- "<noun> <id> has an open <other noun> <id>": no record of the other noun's collection that names this one is in
  the states the docs give for it ("a prescription with a queued or filled order"), or in the state the adjective
  itself names (`cap` of 1);
- "<id> is a Schedule II medicine": the record, or the one it links, whose field named by the word before the value
  holds that value refuses it (`linked_state` with the field's other values, or the record's own states).

An error the record's fields cannot express is left out.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_linked import record_links
from synth.spec import record_props as _props
from synth.words import singular

ERROR = re.compile(r"[\"\u201c]Error:\s*([^\"\u201d]{4,200})[\"\u201d]")
ID = r"(?:<[^<>]{1,30}>|`?\{\w+\}`?)"
EXPIRED = re.compile(rf"^([a-z][a-z ]{{0,30}}?)\s+{ID}\s+(?:has\s+)?expired\s+on\b", re.I)
NONE_LEFT = re.compile(
    rf"^([a-z][a-z ]{{0,30}}?)\s+{ID}\s+has\s+no\s+([a-z][a-z ]{{0,30}}?)\s+(remaining|left)\b", re.I
)
OPEN_OTHER = re.compile(
    rf"^([a-z][a-z ]{{0,30}}?)\s+{ID}\s+(?:already\s+)?has\s+an?\s+([a-z]+)\s+([a-z][a-z ]{{0,30}}?)\s+{ID}", re.I
)
IS_KIND = re.compile(rf"^(?:[a-z][a-z ]{{0,30}}?\s+)?{ID}\s+is\s+an?\s+([A-Za-z]+)\s+([\w-]+)\s+[a-z]+", re.I)


def _known(schema: Any) -> list[Any]:
    return list((schema.get("enum") or schema.get("x-enum") or []) if isinstance(schema, dict) else [])


def _words(text: str) -> list[str]:
    return [singular(w) for w in re.findall(r"[a-z]+", text.lower())]


def _is_own(noun: str, collection: str) -> bool:
    words, own = _words(noun), _words(collection.replace("_", " "))
    return bool(words) and (words == own or words[-1] == own[-1])


def _number(schema: Any) -> bool:
    kinds = schema.get("type") if isinstance(schema, dict) else None
    kinds = kinds if isinstance(kinds, list) else [kinds]
    return "number" in kinds or "integer" in kinds


def _expired(noun: str, collection: str, own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    dates = [f for f in own if "expir" in f.lower()]
    if not today or not _is_own(noun, collection) or len(dates) != 1:
        return []
    return [{"op": "dated", "field": dates[0], "cmp": ">=", "value": today}]


def _none_left(noun: str, what: str, tail: str, collection: str, own: dict[str, Any]) -> list[dict[str, Any]]:
    if not _is_own(noun, collection):
        return []
    wanted = set(_words(what))
    named = [f for f, s in own.items() if _number(s) and wanted <= set(_words(f.replace("_", " ")))]
    if len(named) > 1:
        named = [f for f in named if singular(tail.lower()) in _words(f.replace("_", " "))]
    return [{"op": "bound", "from": "self", "field": named[0], "cmp": ">", "value": 0}] if len(named) == 1 else []


def _open_other(
    noun: str, adjective: str, other: str, text: str, collection: str, key_param: str | None, cols: dict[str, Any]
) -> list[dict[str, Any]]:
    words = _words(other)
    named = [c for c in cols if c != collection and _words(c.replace("_", " ")) == words]
    if not _is_own(noun, collection) or len(named) != 1 or not key_param:
        return []
    theirs = _props(cols, named[0])
    refs = [f for f, col in record_links(theirs, cols, named[0]).items() if col == collection]
    if len(refs) != 1:
        return []
    last = re.escape(other.split()[-1])
    listed = re.search(rf"\b(?:an?|any)\s+((?:`?\w+`?\s*,\s*)*`?\w+`?\s+or\s+`?\w+`?)\s+(?:\w+\s+)?{last}s?\b", text)
    values = re.findall(r"\w+", re.sub(r"\bor\b", " ", listed.group(1))) if listed else [adjective]
    for field, schema in sorted(theirs.items()):
        known = [str(v) for v in _known(schema)]
        if known and all(v in known for v in values):
            where = {field: [v for v in _known(schema) if str(v) in values]}
            return [{"op": "cap", "arg": key_param, "collection": named[0], "field": refs[0], "where": where, "max": 1}]
    return []


def _is_kind(word: str, value: str, collection: str, own: dict[str, Any], cols: dict[str, Any]):
    """(checks, own states) refusing a record, or the one it links, whose field `word` holds `value`."""
    name = word.lower()
    if value in [str(v) for v in _known(own.get(name))]:
        return [], {name: [v for v in _known(own[name]) if str(v) != value] + [None]}
    found = []
    for via, col in sorted(record_links(own, cols, collection).items()):
        known = _known(_props(cols, col).get(name))
        if value in [str(v) for v in known]:
            found.append(
                {
                    "op": "linked_state",
                    "collection": col,
                    "via": via,
                    "field": name,
                    "allowed": [v for v in known if str(v) != value] + [None],
                }
            )
    return (found, {}) if len(found) == 1 else ([], {})


def error_checks(
    text: str,
    collection: str,
    key_param: str | None,
    state_schema: dict[str, Any],
    today: str | None,
    params: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], dict[str, list[Any]]]:
    """(checks, {own field: the values it may hold}) the listed errors of a change of `collection` give (`params`:
    the change's parameters, for an argument an error says a flagged entry needs)."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    checks: list[dict[str, Any]] = []
    states: dict[str, list[Any]] = {}
    for m in ERROR.finditer(text):
        said = m.group(1).strip()
        found: list[dict[str, Any]] = []
        if (e := EXPIRED.match(said)) is not None:
            found = _expired(e.group(1), collection, own, today)
        elif (e := NONE_LEFT.match(said)) is not None:
            found = _none_left(e.group(1), e.group(2), e.group(3), collection, own)
        elif (e := OPEN_OTHER.match(said)) is not None:
            found = _open_other(e.group(1), e.group(2), e.group(3), text, collection, key_param, cols)
        elif (e := IS_KIND.match(said)) is not None:
            found, held = _is_kind(e.group(1), e.group(2), collection, own, cols)
            states.update({f: v for f, v in held.items() if f not in states})
        checks += [c for c in found if c not in checks]
    from synth.envsynth.error_conditions import error_conditions

    checks += [c for c in error_conditions(text, collection, state_schema, today) if c not in checks]  # "`x` — when"
    from synth.envsynth.flagged_entries import flagged_needs

    checks += [c for c in flagged_needs(text, collection, state_schema, params or {}) if c not in checks]
    return checks, states


__all__ = ["error_checks"]
