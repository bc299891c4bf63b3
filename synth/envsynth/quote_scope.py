"""The scope a quote's figures are read in (formula_rules.py): the records the call's parameters name and those
they link, the list entries a parameter picks, the tables the docs give (bracketed, listed after a colon, in the
policy) keyed by a record's field or an argument, the values a record left out reads as, and the figures found so far.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.figure_terms import SPLIT
from synth.envsynth.filter_map import referenced_collection
from synth.envsynth.keyed_tables import absent_values, bracket_tables, listed_tables
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

STOP_WORDS = {"the", "a", "an", "of", "s", "for", "to", "in", "on", "by", "and", "or", "per", "its", "their"}
SAME_AS = {"cap": "max", "maximum": "max", "limit": "max", "ceiling": "max", "minimum": "min"}
LOOSE = {"rate": "price"}  # tried only when the plain words name no field


def _words(text: str) -> list[str]:
    return [singular(w) for w in split_words(text)]


def _meant(words: set[str], loose: bool = False) -> set[str]:
    """Words with a bound's synonyms made one ("cap", "maximum", "limit" -> "max"; with `loose`, "rate" ->
    "price" too), stop words left out."""
    same = {**SAME_AS, **LOOSE} if loose else SAME_AS
    return {same.get(w, w) for w in words} - STOP_WORDS


@dataclass
class _Scope:
    params: dict[str, Any]
    named: dict[str, str] = field(default_factory=dict)  # parameter -> collection of the record it names
    fields: dict[str, dict[str, Any]] = field(default_factory=dict)  # parameter -> fields of its record/element
    select: dict[str, list[str]] = field(default_factory=dict)  # parameter -> [holder parameter, list, match field]
    tables: list[dict[str, Any]] = field(default_factory=list)
    defined: list[str] = field(default_factory=list)
    echoes: list[str] = field(default_factory=list)  # defined figures that echo a named record's field
    counts: dict[str, set[str]] = field(default_factory=dict)  # integer parameter -> words of its name and docs
    linked: dict[str, list[str]] = field(default_factory=dict)  # link field -> [holder parameter, field, collection]
    group: str = ""  # in a map's groups (quote_groups.py): the name the group is in scope under
    sample: dict[str, Any] = field(default_factory=dict)  # the sample state (values a field can hold)
    absent: dict[str, dict[str, str]] = field(default_factory=dict)  # param -> {field: value when it is left out}
    lists: set[str] = field(default_factory=set)  # answer fields that are lists or maps of lines
    docs: str = ""  # the tool's description and the policy text (price lists, values' numbers)
    phrases: dict[str, str] = field(default_factory=dict)  # a figure's phrase, squashed -> the figure it defines
    pending: set[str] = field(default_factory=set)  # figures not found yet (a formula naming one waits for it)
    waiting: bool = True  # whether a formula naming a pending figure waits (no longer once a pass finds nothing)
    final: bool = True  # the last pass over the figures left: fallbacks that wait for the docs' formula apply


def _scope(spec: ToolSpec, cols: dict[str, Any], sample: dict[str, Any], policy: str = "") -> _Scope:
    params = spec.parameters.get("properties") or {}
    scope = _Scope(params=params, sample=sample, docs=spec.description + "\n" + policy)
    for p in params:
        stem = p[:-3] if p.endswith("_id") else p
        ending = referenced_collection(p, None, "", cols)  # `site_id` -> campsites
        for name in (plural(stem), plural(singular(stem)), ending):
            if name in cols and name not in scope.named.values():
                scope.named[p], scope.fields[p] = name, _props(cols, name)
                break
    for p, col in list(scope.named.items()):  # the records a named record links: the pier its `pier_id` names
        for f, schema in sorted(_props(cols, col).items()):
            target = schema.get("x-references") if isinstance(schema, dict) else None
            if target in cols and target != col and f not in params and f not in scope.fields:
                scope.linked[f], scope.fields[f] = [p, f, target], _props(cols, target)
    for p, schema in params.items():  # `season` picks the entry of the berth's `rates` list whose `season` it is
        if not isinstance(schema, dict) or schema.get("type") not in ("string", None):
            continue
        for holder in list(scope.named):
            for lst, schema in scope.fields[holder].items():
                items = (schema.get("items") or {}) if isinstance(schema, dict) else {}
                if p not in scope.named and p in (items.get("properties") or {}):
                    scope.select[p] = [holder, lst, p]
                    scope.fields[p] = items["properties"]
    scope.counts = {
        p: set(_words(p + " " + str(s.get("description") or "")))
        for p, s in params.items()
        if isinstance(s, dict) and s.get("type") == "integer"
    }
    text = spec.description
    cut = re.compile(r"[,;:.()]|" + SPLIT.pattern)  # "the rate of" + the table's phrase
    scope.tables += bracket_tables(text, scope.named, scope.fields, sample, cut, lambda t: set(_words(t)) - STOP_WORDS)
    records = {**scope.named, **{f: link[2] for f, link in scope.linked.items()}}  # and the records they link
    scope.tables += listed_tables(text, params, records, scope.fields, sample)  # "Daily rates: economy 39.00, ..."
    told = [t["values"].items() for t in scope.tables]  # then the policy's, but for those the description tells
    more = listed_tables(policy, params, scope.named, scope.fields, sample)
    scope.tables += [t for t in more if not any(t["values"].items() <= known for known in told)]
    scope.absent = absent_values(scope.docs, params, scope.named, scope.fields, sample)  # "Without `x`, ... at the y z"
    return scope


def _record_default(param: str, scope: _Scope) -> dict[str, Any]:
    """{"default_field": [record parameter, field]} when the parameter's docs say it "defaults to the <noun>'s
    <field>", a field of the record another parameter names; {} otherwise."""
    said = str((scope.params.get(param) or {}).get("description") or "")
    m = re.search(r"\bdefaults?\s+to\s+the\s+([\w-]+)['\u2019]s\s+`?(\w+)`?", said, re.I)
    if not m:
        return _participle_default(said, scope)
    noun = singular(m.group(1).lower())
    holders = [p for p, col in scope.named.items() if noun in (singular(col), p[:-3] if p.endswith("_id") else p)]
    if len(holders) == 1 and m.group(2) in (scope.fields.get(holders[0]) or {}):
        return {"default_field": [holders[0], m.group(2)]}
    return {}


def participle_stem(word: str) -> str:
    """The stem a participle shares with its noun: "chartered" -> "chart" (charter), "booked" -> "book" (booking)."""
    word = word.lower()
    stem = word[:-2] if len(word) > 6 else word[:-1]
    return stem[: max(4, len(stem) - 2)]


def field_holder(scope: _Scope, field_name: str, kind: str | None = None) -> str | None:
    """The one parameter (a named or linked record) whose record has this field (of this JSON type)."""
    found = [
        p
        for p, fs in scope.fields.items()
        if isinstance(fs.get(field_name), dict) and (kind is None or kind in str(fs[field_name].get("type")))
    ]
    return found[0] if len(found) == 1 else None


def _participle_default(said: str, scope: _Scope) -> dict[str, Any]:
    """ "defaults to the booked hours": the field of the one named record whose noun shares the word's stem
    ("booked" / booking), when that record alone holds the field."""
    m = re.search(r"\bdefaults?\s+to\s+the\s+([a-z]+ed)\s+`?(\w+)`?", said, re.I)
    if not m:
        return {}
    stem, field_name = participle_stem(m.group(1)), m.group(2)
    holders = [p for p, col in scope.named.items() if singular(col).startswith(stem) and field_name in scope.fields[p]]
    others = [p for p, fs in scope.fields.items() if field_name in fs and p not in holders]
    return {"default_field": [holders[0], field_name]} if len(holders) == 1 and not others else {}


__all__ = ["STOP_WORDS", "_Scope", "_meant", "_record_default", "_scope", "_words", "field_holder", "participle_stem"]
