"""States a named record must not be in, read from the refusals the docs list: "`<noun> <id> is <value> and cannot
<verb> ...`" (or "`<noun> <id> is <value>; ... cannot ...`") refuses the call while the <noun>'s field holding
`<value>` holds it. Such a field must then hold one of its other enum values. "Sunk and seized boats do not
take payments" ("... cannot be changed") refuses the same way, each word before the plural noun a value of the
field (any case). An error naming one state as its whole reason ("'Error: bay <id> is closed'") refuses that state
(`error_states`), and "Lines the harbour posts itself (`mooring`, `crane`) cannot be voided" refuses a call naming an
entry of those kinds (`refused_entries`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap
from synth.spec import known_values
from synth.words import plural, singular, split_words

CANNOT = r"(?:cannot|can't|can\s+not|may\s+not|is\s+not\s+allowed\s+to)"


def _known(schema: Any) -> list[Any]:
    return list((schema.get("enum") or schema.get("x-enum") or []) if isinstance(schema, dict) else [])


def refused_states(text: str, noun: str, props: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: the values it may hold} for each field of the `noun` record whose value a listed refusal names."""
    said = rf"\b{re.escape(noun)}\s+(?:<[^<>]{{1,30}}>|`?\{{?\w+\}}?`?)\s+is\s+`?([\w-]+)`?\s*"
    said += rf"(?:and\b|;|,)\s*[^`.\n]{{0,80}}?\b{CANNOT}"
    out: dict[str, list[Any]] = {}
    for m in re.finditer(said, unwrap(text), re.I):
        for field, schema in sorted(props.items()):
            known = _known(schema)
            if m.group(1) in [str(v) for v in known]:
                kept = [v for v in (out.get(field) or known) if str(v) != m.group(1)]
                if kept:
                    out[field] = kept
    return out


def error_states(text: str, noun: str, props: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: the values it may hold} for an error naming one state of the `noun` record as the whole reason:
    "'Error: bay <id> is closed'" (a known value of one field, the quote closing right after it)."""
    said = rf"\bError:\s*{re.escape(noun)}\s+(?:<[^<>]{{1,30}}>|\{{\w+\}}|#+)\s+is\s+([\w-]+)['\"]"
    out: dict[str, list[Any]] = {}
    for m in re.finditer(said, unwrap(text), re.I):
        fields = [f for f, schema in sorted(props.items()) if m.group(1) in known_values(schema)]
        if len(fields) == 1:
            kept = [v for v in (out.get(fields[0]) or _known(props[fields[0]])) if str(v) != m.group(1)]
            if kept:
                out[fields[0]] = kept
    return out


def refused_for(text: str, noun: str, props: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: the values it may hold} for "Refused for `withdrawn` and `lapsed` <noun>s": the one field knowing
    every value named keeps the others."""
    said = r"\bRefused\s+for\s+(`[\w-]+`(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)`[\w-]+`)*)\s+([a-z]+)"
    out: dict[str, list[Any]] = {}
    for m in re.finditer(said, unwrap(text), re.I):
        values = re.findall(r"`([\w-]+)`", m.group(1))
        fields = [f for f, schema in sorted(props.items()) if set(values) <= set(known_values(schema))]
        if singular(m.group(2).lower()) == singular(noun.lower()) and len(fields) == 1:
            kept = [v for v in _known(props[fields[0]]) if str(v) not in values]
            out.update({fields[0]: kept} if kept else {})
    return out


def refused_kinds(text: str, noun: str, props: dict[str, Any], name: str = "") -> dict[str, list[Any]]:
    """{field: the values it may hold} for "<value> (and <value>) <nouns> do not take ..." said of `noun` records,
    or "... cannot be changed on <value> or <value> <nouns>"; with the tool's `name`, also in its own verb ("Retired
    skippers cannot be topped up" of `top_up_purse`)."""
    from synth.envsynth.verb_moves import _participles

    verb = (split_words(name) or [""])[0].lower()
    said = rf"\b((?:[\w-]+\s*(?:,|\band\b|\bor\b)\s*)*[\w-]+)\s+{re.escape(plural(noun))}\s+"
    said += r"(?:do\s+not|don't|cannot|can't|may\s+not|never)\s+"
    own = "".join(f"|{re.escape(p)}" for p in sorted(_participles(verb))) if len(verb) > 2 else ""  # "topped"
    said += rf"(?:take|accept|receive|get|be\s+(?:given|changed|edited|modified{own}))\b"
    on = r"\b(?:cannot|can't|may\s+not)\s+be\s+\w+(?:ed|en)\s+(?:on|for)\s+(?:an?\s+|the\s+|any\s+)?"
    on += (
        rf"((?:[\w-]+\s*(?:,|\band\b|\bor\b)\s*)*[\w-]+)\s+{re.escape(plural(noun))}\b"  # "cannot be changed on closed"
    )
    out: dict[str, list[Any]] = {}
    for m in [*re.finditer(said, unwrap(text), re.I), *re.finditer(on, unwrap(text), re.I)]:
        words = [w.lower() for w in re.split(r"\s*,\s*|\s+and\s+|\s+or\s+", m.group(1).strip()) if w]
        for field, schema in sorted(props.items()):
            known = {str(v).lower(): v for v in _known(schema)}
            if words and all(w in known for w in words):
                kept = [v for v in (out.get(field) or _known(schema)) if str(v).lower() not in words]
                if kept:
                    out[field] = kept
    return out


ENTRY_REFUSED = re.compile(rf"\b(?:{CANNOT}|(?:are|is)\s+not|never)\s+(?:be\s+)?\w+(?:ed|en)\b", re.I)


def refused_entries(text: str, item_props: dict[str, Any], list_field: str, match: str, arg: str) -> list[dict]:
    """`entry_refused` checks for "Lines posted by the desk (`dock`, `crane`) cannot be voided": the entry of the
    record's list the argument names must not hold one of the quoted values, all known values of one field of the
    entries."""
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.;])\s+", unwrap(text)):
        values = re.findall(r"`([^`]{1,40})`", sentence)
        if not values or not ENTRY_REFUSED.search(sentence):
            continue
        fields = [f for f, sub in sorted(item_props.items()) if set(values) <= set(known_values(sub))]
        if len(fields) == 1 and not any(c["field"] == fields[0] for c in out):
            out.append(
                {
                    "op": "entry_refused",
                    "list": list_field,
                    "match": match,
                    "arg": arg,
                    "field": fields[0],
                    "in": values,
                }
            )
    return out


__all__ = ["error_states", "refused_entries", "refused_for", "refused_kinds", "refused_states"]
