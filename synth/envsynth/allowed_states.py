"""The states a call is allowed from, as its docs say them: "Allowed from `a`, `b` and `c`", "Closes an `active`
agreement", "Cancels an order that is `reserved` or `paid`", "only active loans can be renewed", an `Errors:` list's
"is not A or B", "Picked-up and already cancelled orders cannot be cancelled"."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap

QUOTED = re.compile(r"'([^']{1,60})'|\"([^\"]{1,60})\"|`([^`]{1,60})`")
REFUSED = re.compile(r"\bnot\s+(\w+(?:(?:\s*,\s*|\s+or\s+|\s*,\s*or\s+)\w+)*)", re.IGNORECASE)


def quoted(text: str) -> list[str]:
    """The values quoted in a text (`x`, 'x' or "x"), in order."""
    return [a or b or c for a, b, c in QUOTED.findall(text)]


DESCRIBED = re.compile(  # "Closes a <noun> that is `open` or `held`" ("whose status is"): the states the call acts on
    r"^\s*[A-Z][a-z]+s\s+(?:a|an|the|any)\s+[\w ]{1,40}?\s+(?:(?:that|which)|whose\s+`?\w+`?)\s+(?:is|are)\s+"
    r"(?:still\s+|currently\s+)?"
    r"([`'\"][\w-]+[`'\"](?:(?:\s*,\s*(?:or\s+)?|\s+or\s+)[`'\"][\w-]+[`'\"])*)"
)


DESCRIBED_BEFORE = re.compile(  # "Closes an `active` agreement.": the states quoted before the noun
    r"^\s*[A-Z][a-z]+s\s+(?:a|an|the|any)\s+([`'\"][\w-]+[`'\"](?:\s+or\s+[`'\"][\w-]+[`'\"])*)\s+[a-z]\w*"
)
TURNS = re.compile(  # "turns a `reserved` agreement into an `active` one"
    r"\b(?:turns?|changes?|moves?|converts?)\s+(?:a|an|the|any)\s+([`'\"][\w-]+[`'\"](?:\s+or\s+[`'\"][\w-]+[`'\"])*)"
    r"\s+\w+\s+(?:into|to)\s+(?:a|an|the)?\s*[`'\"]([\w-]+)[`'\"]",
    re.IGNORECASE,
)


def described_states(text: str, known: list[str], target: Any) -> list[str]:
    """The states the opening sentence of a description's paragraph (a summary line may come first) gives the
    record it acts on ("Cancels an order that is `reserved` or `paid`", "Closes an `active` agreement"), or a
    sentence turning one state into the call's ("turns a `reserved` agreement into an `active` one"): every value
    must be known, and the state the call leads to is not among them."""
    for m in TURNS.finditer(unwrap(text)):
        values = quoted(m.group(1))
        if m.group(2) == str(target) and values and all(v in known for v in values):
            return values if str(target) not in values else []
    for paragraph in re.split(r"\n\s*\n", text):
        m = DESCRIBED.match(unwrap(paragraph)) or DESCRIBED_BEFORE.match(unwrap(paragraph))
        values = quoted(m.group(1)) if m else []
        if values:
            return values if all(v in known for v in values) and str(target) not in values else []
    return []


def only_before(text: str, known: list[str]) -> list[str]:
    """States an "only" sentence names bare before its noun: "only active loans can be renewed", "Only a
    checked-in reservation can be checked out" (`checked_in`)."""
    spelt = {v.lower().replace("_", "-"): v for v in known} | {v.lower(): v for v in known}
    q = "[`'\"]?"  # "Only a `reserved` order can be paid": quoted or not
    found = rf"\bonly\s+(?:an?\s+)?{q}([\w-]+){q}(?:\s+or\s+{q}([\w-]+){q})?\s+\w+"
    for m in re.finditer(found, text, re.IGNORECASE):
        words = [spelt.get(w.lower()) for w in m.groups() if w]
        if words and all(words):
            return [w for w in words if w]
    return []


ALLOWED_FROM = re.compile(  # "Allowed from `filed`, `held` and `assessed`", "Possible only in `open` or `held`"
    r"\b(?:allowed|possible|permitted)\s+(?:only\s+)?(?:from|in|while\s+in)\s+"
    r"((?:[`'\"][\w-]+[`'\"](?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)?)+)",
    re.IGNORECASE,
)


def allowed_from(text: str, known: list[str]) -> list[str]:
    """The states a sentence says the call is allowed from ("Allowed from `filed`, `held` and `assessed`"): every
    value must be known."""
    for m in ALLOWED_FROM.finditer(unwrap(text)):
        values = quoted(m.group(1))
        if values and all(v in known for v in values):
            return values
    return []


def refused_from(text: str, known: list[str]) -> list[str]:
    """The states the docs' errors name as required (`Errors: 409: Voyage is not planned or confirmed.`):
    every word after "not" must be a known value."""
    if "Errors:" not in text:
        return []
    for m in REFUSED.finditer(text.split("Errors:", 1)[1]):
        words = [w for w in re.split(r"\s*,\s*or\s+|\s*,\s*|\s+or\s+", m.group(1)) if w]
        if words and all(w in known for w in words):
            return words
    return []


CANNOT_BE = re.compile(
    r"((?:[\w-]+(?:\s*,\s*|\s+and\s+|\s+or\s+)(?:already\s+)?)*[\w-]+)(?:\s+\w+\s+|\s*:\s*)(?:cannot|can't|may\s+not)\s+be\b",
    re.IGNORECASE,
)


def not_from(text: str, known: list[str]) -> list[str]:
    """The known states left when the docs list those whose records cannot take the call ("Picked-up and already
    cancelled orders cannot be cancelled", "- docked or laid_up: cannot be cancelled"): every listed word must be a
    known value (spelt with `-` or a space for `_` too)."""
    spelt = {re.sub(r"[\s-]+", "_", v.lower()): v for v in known}
    for m in CANNOT_BE.finditer(unwrap(text)):
        words = [w for w in re.split(r"\s*,\s*|\s+and\s+|\s+or\s+|\s+", m.group(1)) if w and w.lower() != "already"]
        named = [spelt.get(re.sub(r"-", "_", w.lower())) for w in words]
        if named and all(named):
            return [v for v in known if v not in named]
    return []


__all__ = [
    "allowed_from",
    "described_states",
    "not_from",
    "only_before",
    "quoted",
    "refused_from",
]
