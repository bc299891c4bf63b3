"""Number limits on the records a create names, read from the docs: "the <noun> must hold at least N <words> and
must keep less than M in <other words>" refuses the call when the <noun>'s number field sharing a word with <words>
is below N, or the one sharing a word with <other words> is M or more.

The sentence names the record by the noun of a parameter (`<noun>_id` -> <noun>) and says "must"; each "less /
fewer / more than N <words>" (or "at most / at least / no more than N <words>") in it picks the one number field of
that record that shares a word with <words> ("must not" / "never" before it turns the comparison round); "stay
under its `max_<x>s`" (below, under, within, at most) compares the one other number whose words are among the
cap's (`<x>s`) with the cap. Each becomes a `bound` check {collection, via, field, cmp, value} (a value {"field":
cap} reads the cap) that expr_runtime.fg_check evaluates.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.envsynth.prose import unwrap
from synth.spec import record_props as _props
from synth.words import singular, split_words

LIMIT = re.compile(
    r"\b(less|fewer|more|no\s+more|at\s+most|at\s+least)(?:\s+than)?\s+\$?(\d+(?:\.\d+)?)\s+(?:in\s+|of\s+)?"
    r"([a-z][a-z ]{1,30}?)(?=\s*(?:,|;|\.|\band\b|\bor\b|$))",
    re.I,
)
BELOW = re.compile(r"\b(below|under|within|at\s+most)\s+(?:its\s+|their\s+|the\s+)?`?([a-z]\w*_\w+)`?", re.I)
CMP = {"less": "<", "fewer": "<", "more": ">", "no more": "<=", "at most": "<=", "at least": ">="}


GENERIC = {"item", "thing", "unit"}  # nouns that name no field: left out only when the words pick no single field
FLIP = {"<": ">=", "<=": ">", ">": "<=", ">=": "<"}


def _words(text: str) -> set[str]:
    return {singular(w) for w in split_words(text)} - {"in", "on", "of", "the", "a", "an"}


def _negated(before: str) -> bool:
    """Whether the clause leading up to a limit says it is not to be reached ("must not owe more than ...")."""
    clause = re.split(r",|;|\band\b|\bor\b", before)[-1]
    return bool(re.search(r"\b(?:not|never|no\s+longer)\b|n't\b", clause, re.I))


def bound_checks(text: str, refs: dict[str, str], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`bound` checks for the number limits a "must" sentence puts on the records the call's parameters name."""
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.;])\s+", unwrap(text)):
        if not re.search(r"\bmust\b", sentence, re.I):
            continue
        for param, col in sorted(refs.items()):
            noun = param[:-3].replace("_", " ")
            named = re.search(rf"\b{re.escape(noun)}\b", sentence, re.I)
            if not named:
                continue
            numbers = {f: _words(f) for f, s in _props(cols, col).items() if is_number(s)}
            rest = re.split(r";|\bthe\s+(?!same\b)\w+\s+must\b", sentence[named.end() :], flags=re.I)[0]
            for m in BELOW.finditer(rest):  # "under its max_<x>s": the one other number sharing its words
                cap = m.group(2)
                if cap not in numbers:
                    continue
                counts = [f for f, words in numbers.items() if f != cap and words and words < numbers[cap]]
                cmp = "<" if m.group(1).lower() in ("below", "under") else "<="
                cmp = FLIP[cmp] if _negated(rest[: m.start()]) else cmp
                check = {"op": "bound", "collection": col, "via": param, "field": counts[0] if counts else ""}
                check.update({"cmp": cmp, "value": {"field": cap}})
                if len(counts) == 1 and check not in out:
                    out.append(check)
            for m in LIMIT.finditer(rest):
                said = _words(m.group(3))
                fields = [f for f, words in numbers.items() if words & said]
                if len(fields) != 1:  # "<n> items on <x>": the field the other words name
                    fields = [f for f, words in numbers.items() if words & (said - GENERIC)]
                if len(fields) != 1:
                    continue
                value = float(m.group(2)) if "." in m.group(2) else int(m.group(2))
                cmp = CMP[" ".join(m.group(1).lower().split())]
                cmp = FLIP[cmp] if _negated(rest[: m.start()]) else cmp
                check = {"op": "bound", "collection": col, "via": param, "field": fields[0], "cmp": cmp, "value": value}
                if check not in out:
                    out.append(check)
    return out


__all__ = ["bound_checks"]
