"""A figure earned past a threshold, as policy text states it: "A top-up of 30 or more earns 3.00 bonus credit",
"any haul over 500 gets a 2.50 rebate", "Top-ups of at least £40 earn £2.00 `bonus`". The word after the figure names
the field of the logged entry that holds it (`bonus`, `rebate`); the call's one number parameter is what the
threshold is measured on, and the sentence's subject must name the logged kind or that parameter (a skipper "with a
purse of 100 or more" is about a stored number, not the call). The entry then holds the figure when the argument
reaches the threshold ("or more", "at least": at it too; "over", "above", "more than": past it), else 0. A negated
sentence ("Not every ...") or a figure earned only under a condition ("... only for club skippers") is no rule.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import negated_before
from synth.words import singular

MONEY = r"[£$€]?\s?"
NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
SUBJECT = r"(?:(?:an?|any|each|every)\s+)?(?P<subject>[\w-]+(?:\s+[\w-]+)?)"
EARN = r"(?:earns?|gets?|receives?|comes?\s+with|qualif(?:y|ies)\s+for)"
FIGURE = rf"(?:an?\s+)?{MONEY}(?P<value>{NUMBER})\s+`?(?P<word>[a-z]\w*)`?"
EARNS = re.compile(
    rf"\b{SUBJECT}\s+(?:of\s+{MONEY}(?P<floor>{NUMBER})\s+or\s+(?:more|above|over)"
    rf"|of\s+at\s+least\s+{MONEY}(?P<least>{NUMBER})"
    rf"|(?:over|above|of\s+more\s+than)\s+{MONEY}(?P<past>{NUMBER}))\s+{EARN}\s+{FIGURE}",
    re.IGNORECASE,
)
CONDITIONED = re.compile(r"^\s*(?:\w+\s+)?(?:only|if|when|unless|provided|except)\b", re.IGNORECASE)


def _number_param(parameters: dict[str, Any]) -> str | None:
    """The tool's one number parameter, or None."""
    props = parameters.get("properties") or {}
    found = [n for n, s in props.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    return found[0] if len(found) == 1 else None


def _words(text: str) -> set[str]:
    return {singular(w.lower()) for w in re.split(r"[\s_-]+", text) if w}


def _number(text: str) -> float:
    return float(text.replace(",", ""))


def earned_figures(
    text: str, entry_fields: set[str], parameters: dict[str, Any], kind: str = ""
) -> dict[str, dict[str, Any]]:
    """Entry field -> `earned` source for each threshold figure the text states whose word is one of the entry's
    fields and whose subject names the logged `kind` or the number parameter (one rule per field, else none)."""
    arg = _number_param(parameters)
    if not arg:
        return {}
    named = _words(kind) | _words(arg)
    seen: dict[str, list[dict[str, Any]]] = {}
    for m in EARNS.finditer(text):
        word = m.group("word").lower()
        ahead = re.split(r"[.;\n]", text[m.end() :], maxsplit=1)[0]
        if word not in entry_fields or not (_words(m.group("subject")) & named):
            continue
        if negated_before(text, m.start()) or CONDITIONED.match(ahead):
            continue
        floor = m.group("floor") or m.group("least") or m.group("past")
        zero = 0.0 if "." in m.group("value") else 0
        rule = {
            "from": "earned",
            "arg": arg,
            "floor": _number(floor),
            "strict": m.group("past") is not None,
            "value": _number(m.group("value")),
            "else": zero,
        }
        seen.setdefault(word, [])
        seen[word] += [rule] if rule not in seen[word] else []
    return {word: found[0] for word, found in seen.items() if len(found) == 1}


__all__ = ["earned_figures"]
