"""Answer fields a read's docs define in a sentence of their own, beside the record's stored fields:

- "`plan_active` is true while the plan still has trips left": a yes/no that a count of the record (or of one of
  its objects) named by the words before "left" / "remaining" (`trips_remaining`) is above 0 (`above`);
- "`open_charter` is the charter currently pencilled for the skipper (status `pencilled`), or null": the one record
  of the collection the field's last word names (`charters`) that references the record read and holds that
  state, with the keys the answer's schema gives it (the key under its documented name), else null
  (`linked_one`; reads that name the record by their key parameter only); "the most recent (latest, last)
  charter ..." is the one with the latest date, by the one date field of those records (a `created_at` stamp beside
  another date aside), else the last by key.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.keyed_views import key_names
from synth.envsynth.returns_shape import answer_schema
from synth.spec import ToolSpec, record_props
from synth.words import plural, singular, split_words


def _schema_of(spec: ToolSpec, name: str) -> dict[str, Any]:
    sub = (answer_schema(spec).get("properties") or {}).get(name) or {}
    for one in sub.get("oneOf") or sub.get("anyOf") or []:
        if isinstance(one, dict) and one.get("type") == "object":
            return one
    return sub if isinstance(sub, dict) else {}


def _counts(own: dict[str, Any]) -> list[tuple[list[str], list[str]]]:
    """(path, words) of the record's numbers and of its objects' numbers."""
    out = []
    for field, schema in own.items():
        if not isinstance(schema, dict):
            continue
        if schema.get("type") in ("integer", "number"):
            out.append(([field], split_words(field)))
        for key, sub in (schema.get("properties") or {}).items():
            if isinstance(sub, dict) and sub.get("type") in ("integer", "number"):
                out.append(([field, key], split_words(key)))
    return out


def _above(name: str, text: str, own: dict[str, Any]) -> dict[str, Any] | None:
    m = re.search(
        rf"`?\b{re.escape(name)}\b`?\s+is\s+true\s+(?:while|when|if|as\s+long\s+as)\s+[^.;]*?\b(\w+)\s+(?:left|remaining)\b",
        text,
        re.I,
    )
    if m is None or re.search(r"\d|\bat\s+least\b|\bmore\s+than\b", m.group(0)):
        return None  # a threshold other than none left is not read here
    word = singular(m.group(1).lower())
    hits = [
        path
        for path, words in _counts(own)
        if {singular(w.lower()) for w in words} & {word} and {w.lower() for w in words} & {"remaining", "left"}
    ]
    return {"op": "above", "path": hits[0], "value": 0} if len(hits) == 1 else None


RECENT = re.compile(r"\b(?:most\s+recent(?:ly)?|latest|newest|last)\b", re.I)
STAMPS = ("created", "updated", "modified", "changed", "inserted")  # when a record was written, not what it is of


def _dated(schema: Any) -> bool:
    """A date (or date-time) field: by its format, or a pattern of an ISO date."""
    schema = schema if isinstance(schema, dict) else {}
    pattern = str(schema.get("pattern") or "")
    return schema.get("format") in ("date", "date-time") or pattern.startswith(("^[0-9]{4}-", "^\\d{4}-"))


def _linked_one(
    name: str, text: str, spec: ToolSpec, state_schema: dict[str, Any], collection: str, key_param: str | None
) -> dict[str, Any] | None:
    if not key_param:
        return None
    cols = state_schema.get("properties") or {}
    noun = name.split("_")[-1]
    other = plural(noun) if plural(noun) in cols else noun if noun in cols else None
    if other is None or other == collection:
        return None
    theirs = record_props(cols, other)
    refs = [
        f for f, s in theirs.items() if f == f"{singular(collection)}_id" or (s or {}).get("x-references") == collection
    ]
    said = re.search(rf"`?\b{re.escape(name)}\b`?\s+is\s+the\s+([^.]*?)(?:,\s*or\s+null|\.)", text, re.I)
    if len(refs) != 1 or said is None:
        return None
    where: dict[str, list[str]] = {}
    for m in re.finditer(r"\b(\w+)\s+`([\w-]+)`((?:\s*(?:,|or)\s*`[\w-]+`)*)", said.group(1)):
        if m.group(1) in theirs:  # "status `pencilled`", "status `pencilled` or `confirmed`"
            where[m.group(1)] = [m.group(2)] + re.findall(r"`([\w-]+)`", m.group(3))
    keys = key_names(other, state_schema)
    wanted = list((_schema_of(spec, name).get("properties") or {}))
    fields = {f: f for f in wanted if f in theirs}
    named_key = [f for f in wanted if f in keys]
    if not wanted or len(fields) + len(named_key) != len(wanted):
        return None
    out = {
        "op": "linked_one",
        "collection": other,
        "ref": refs[0],
        "arg": key_param,
        "where": where,
        "fields": fields,
        "key_name": named_key[0] if named_key else None,
    }
    if RECENT.search(said.group(1)):  # "the most recent charter of the skipper": the latest by its date, else key
        dated = [f for f, s in theirs.items() if _dated(s)]
        dated = [f for f in dated if f.split("_")[0].lower() not in STAMPS] or dated  # the sailing date, not a stamp
        out["latest"] = dated[0] if len(dated) == 1 else True
    return out


def stated_answer(
    name: str,
    spec: ToolSpec,
    own: dict[str, Any],
    state_schema: dict[str, Any],
    collection: str,
    key_param: str | None,
) -> dict[str, Any] | None:
    """How an answer field the docs define in a sentence is made (the forms above), else None."""
    text = spec.description or ""
    return _above(name, text, own) or _linked_one(name, text, spec, state_schema, collection, key_param)


__all__ = ["stated_answer"]
