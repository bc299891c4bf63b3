"""A figure earned past a threshold, as policy text states it: "A top-up of 30 or more earns 3.00 bonus credit",
"a transfer over 500 gets a 2.50 rebate". The word after the figure names the field of the logged entry that holds
it (`bonus`, `rebate`); the call's one number parameter is what the threshold is measured on. The entry then holds
the figure when the argument reaches the threshold ("or more": at it too; "over", "above": past it), else 0.
"""

from __future__ import annotations

import re
from typing import Any

NUMBER = r"\d+(?:\.\d+)?"
EARNS = re.compile(
    rf"\b(?:an?|any|each|every)\s+[\w-]+(?:\s+[\w-]+)?\s+of\s+(?P<floor>{NUMBER})\s+(?P<side>or\s+more|or\s+above|or\s+over)\s+"
    rf"(?:earns?|gets?|receives?|comes\s+with|qualifies\s+for)\s+(?:an?\s+)?(?P<value>{NUMBER})\s+(?P<word>[a-z]\w*)"
    rf"|\b(?:an?|any|each|every)\s+[\w-]+(?:\s+[\w-]+)?\s+(?P<side2>over|above|of\s+more\s+than)\s+(?P<floor2>{NUMBER})\s+"
    rf"(?:earns?|gets?|receives?|comes\s+with|qualifies\s+for)\s+(?:an?\s+)?(?P<value2>{NUMBER})\s+(?P<word2>[a-z]\w*)",
    re.IGNORECASE,
)


def _number_param(parameters: dict[str, Any]) -> str | None:
    """The tool's one number parameter, or None."""
    props = parameters.get("properties") or {}
    found = [n for n, s in props.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    return found[0] if len(found) == 1 else None


def earned_figures(text: str, entry_fields: set[str], parameters: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Entry field -> `earned` source for each threshold figure the text states whose word is one of the entry's
    fields (one sentence per field, else none)."""
    arg = _number_param(parameters)
    if not arg:
        return {}
    seen: dict[str, list[dict[str, Any]]] = {}
    for m in EARNS.finditer(text):
        word = (m.group("word") or m.group("word2")).lower()
        if word not in entry_fields:
            continue
        floor = float(m.group("floor") or m.group("floor2"))
        value = float(m.group("value") or m.group("value2"))
        strict = m.group("side2") is not None
        zero = 0.0 if "." in (m.group("value") or m.group("value2")) else 0
        seen.setdefault(word, []).append(
            {"from": "earned", "arg": arg, "floor": floor, "strict": strict, "value": value, "else": zero}
        )
    return {word: found[0] for word, found in seen.items() if len(found) == 1}


__all__ = ["earned_figures"]
