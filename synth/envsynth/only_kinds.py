"""A change the docs allow on some kinds of record only: "`tab`: club group charters only", "Only for club or
scout charters.", "Available to group charters only", "(group charters only)".

The words just before the record's noun (its collection's singular, or that name's last word, plural or not) must
each be a known value of one closed field of the record (`club` of `party_kind`, `group` of `charter_type`; a value
`sea_scouts` may be spelt "sea scouts"), joined by nothing, commas, "or" or "and". They become `value_is` checks on
the record: the call is refused unless each field named holds one of its words. The phrase must say "only" right
after the noun, and open a line, a sentence, a clause (after ":", ";", "(", a dash) or follow "for" or "available
/ open / allowed / offered / reserved / restricted / limited to" (never "applies to" or "printed on": a discount's or
a label's scope is no refusal), or open with "only for" / "only on".

A bullet led by a value of a closed parameter ('- `tab`: ...') holds only for calls passing that value (`when`); a
bullet whose value names no parameter is not read; a sentence naming one value of a closed parameter in backquotes
("The `tab` method is available to club charters only.") holds for that value.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.clause_guards import BULLET, bullet_guards
from synth.envsynth.create_rules import _known
from synth.envsynth.figure_terms import param_default
from synth.words import singular

LEAD = (
    r"(?:^|(?<=[.!?:;(\u2013\u2014])\s*|(?<=\s-)\s*|\bfor\s+|"
    r"\b(?:available|open|allowed|offered|reserved|restricted|limited)\s+(?:only\s+)?(?:to|for)\s+)"
)


def _values(own: dict[str, Any]) -> dict[str, str]:
    """{value: the one closed field of the record that knows it} (values two fields know are left out)."""
    seen: dict[str, list[str]] = {}
    for field, schema in sorted(own.items()):
        for value in _known(schema) if isinstance(schema, dict) else []:
            if isinstance(value, str) and re.fullmatch(r"[A-Za-z][\w-]*", value):
                seen.setdefault(value.lower(), []).append(field)
    return {v: fields[0] for v, fields in seen.items() if len(set(fields)) == 1}


def _patterns(noun: str, values: dict[str, str]) -> list[re.Pattern[str]]:
    """ "<values> <noun>s only" after a lead, and "only for/on <values> <noun>s"."""
    nouns = {noun.replace("_", " "), noun.split("_")[-1]}
    said = "(?:" + "|".join(re.escape(n) for n in sorted(nouns, key=len, reverse=True)) + r")(?:e?s)?"
    value = "|".join(re.escape(v).replace("_", "[_ ]") for v in sorted(values, key=len, reverse=True))
    words = rf"(?P<words>(?:(?:{value})(?:\s*,\s*|\s+(?:or|and)\s+|\s+))+)"
    return [
        re.compile(rf"{LEAD}(?:the\s+)?{words}{said}\s+only\b", re.IGNORECASE | re.MULTILINE),
        re.compile(rf"\bonly\s+(?:for|on)\s+(?:the\s+)?{words}{said}\b", re.IGNORECASE),
    ]


def _kinds(sentence: str, noun: str, values: dict[str, str]) -> list[dict[str, Any]]:
    """The `value_is` checks one sentence says."""
    if not values:
        return []
    out: list[dict[str, Any]] = []
    one = re.compile("|".join(re.escape(v).replace("_", "[_ ]") for v in sorted(values, key=len, reverse=True)), re.I)
    for pattern in _patterns(noun, values):
        for m in pattern.finditer(sentence):
            picked: dict[str, list[str]] = {}
            for said in one.finditer(m.group("words")):
                value = re.sub(r"\s+", "_", said.group(0).lower())
                field = values.get(value)
                if field is not None and value not in picked.setdefault(field, []):
                    picked[field].append(value)
            for field, allowed in sorted(picked.items()):
                check = {"op": "value_is", "source": {"from": "record", "path": [field]}, "in": allowed}
                if check not in out:
                    out.append(check)
    return out


def _named_value(sentence: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """The one value of a closed parameter a sentence names in backquotes, as a `when` guard."""
    quoted = set(re.findall(r"`([\w-]+)`", sentence))
    found = [
        (name, value)
        for name, sub in sorted(params.items())
        if isinstance(sub, dict) and len(sub.get("enum") or []) >= 2
        for value in sub["enum"]
        if value in quoted
    ]
    if len(found) != 1:
        return None
    name, value = found[0]
    return {"arg": name, "default": param_default(params[name]), "in": [value]}


def only_kinds(text: str, collection: str, own: dict[str, Any], params: dict[str, Any]) -> list[dict[str, Any]]:
    """The checks that the record is of the kinds the text allows the change on, each bullet's under its value."""
    noun = singular(collection)
    values = _values(own)
    out: list[dict[str, Any]] = []
    for line, guard in bullet_guards(text, params):
        if BULLET.match(line) and guard is None:
            continue  # a value of nothing the call passes: not a rule on this call
        for sentence in re.split(r"(?<=[.!?])\s+", BULLET.sub("", line)):
            checks = _kinds(sentence, noun, values)
            when = (
                {"arg": guard["arg"], "default": param_default(params[guard["arg"]]), "in": guard["in"]}
                if guard is not None
                else _named_value(sentence, params)
            )
            checks = [{**c, "when": when} for c in checks] if when else checks
            out += [c for c in checks if c not in out]
    return out


__all__ = ["only_kinds"]
