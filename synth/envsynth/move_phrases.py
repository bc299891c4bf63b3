"""Phrases of a number move that docs_counters reads inside one clause: a rate per unit of one of the record's
numbers ("earns one point per whole euro of the total"), the whole part of one ("by the whole-mile part of
`distance`"), two moves said at once ("the skipper's `trips` increases by 1 and `miles` by 5"), and a move by a
difference of two of the record's numbers ("the skipper's `owed` decreases by `fee - paid`")."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import number_fields as _numbers

PER_UNIT = re.compile(
    r"\b(?P<rate>one|a|an|\d+(?:\.\d+)?)\s+(?:[\w-]+\s+){0,3}?per\s+(?P<whole>whole\s+)?[\w-]+\s+(?:of|in|spent\s+on)\s+"
    r"(?:the\s+)?(?:\w+['\u2019]s\s+)?(?P<field>\w+)",
    re.IGNORECASE,
)


WHOLE_PART = re.compile(
    r"\bby\s+the\s+whole[- ][\w-]+\s+part\s+of\s+(?:the\s+)?(?:\w+['\u2019]s\s+)?`?(?P<field>\w+)`?", re.IGNORECASE
)


def per_unit(sentence: str, own: dict[str, Any], moved: str) -> tuple[dict[str, Any] | None, dict[str, Any]]:
    """("one point per whole euro of the total"): the call's record's number times the rate, rounded down when the
    docs count whole units or say so; (None, {}) when the sentence gives no such rate."""
    m = PER_UNIT.search(sentence)
    part = WHOLE_PART.search(sentence)  # "by the whole-mile part of `distance`": rounded down
    read = m is not None and m.group("field") in _numbers(own)  # "(1 point per euro of berth charges)" names none
    if not read and part and part.group("field") in _numbers(own) and part.group("field") != moved:
        return {"path": [part.group("field")]}, {"times": 1, "floor": True}
    if m is None or m.group("field") not in _numbers(own) or m.group("field") == moved:
        return None, {}
    rate = m.group("rate").lower()
    extras: dict[str, Any] = {
        "times": 1 if rate in ("one", "a", "an") else int(rate) if rate.isdigit() else float(rate)
    }
    if m.group("whole") or re.search(r"\brounded\s+down\b", sentence, re.IGNORECASE):
        extras["floor"] = True
    return {"path": [m.group("field")]}, extras


ELIDED = re.compile(
    r"^(?P<first>.*?(?P<a>`?\w+`?)\s+(?P<verb>increases|decreases|goes\s+up|goes\s+down|rises|drops|falls|grows)\s+"
    r"by\s+.+?)\s+and\s+(?P<b>`?\w+`?)\s+by\s+(?P<y>.+)$",
    re.IGNORECASE,
)


def unelided(piece: str) -> list[str]:
    """ "the skipper's `trips` increases by 1 and `miles` by 5" as two moves, the second said in full."""
    m = ELIDED.match(piece)
    if m is None:
        return [piece]
    a = re.escape(m.group("a"))
    owner = re.search(rf"(\bthe\s+\w+['\u2019]s\s+|\bits\s+)(?={a}\s)", m.group("first"))
    second = f"{owner.group(1) if owner else ''}{m.group('b')} {m.group('verb')} by {m.group('y')}"
    return [m.group("first"), second]


SPELT_DIFFERENCE = re.compile(  # "the skipper's `owed` decreases by `fee - paid`"
    r"(?:\bthe\s+)?(?:\b(?P<owner>\w+)['\u2019]s\s+)?`(?P<field>\w+)`\s+(?P<verb>increases|decreases|goes\s+up|"
    r"goes\s+down|rises|drops|falls|grows)\s+by\s+`(?P<a>\w+)\s*(?P<op>[-+])\s*(?P<b>\w+)`",
    re.IGNORECASE,
)


def spelt_difference(m: re.Match[str], own: dict[str, Any]) -> dict[str, Any] | None:
    """The delta of "`x` decreases by `fee - paid`" (two numbers of the call's record); a decrease never raises the
    number (nothing is taken when the difference is not positive)."""
    a, b = m.group("a"), m.group("b")
    if a not in _numbers(own) or b not in _numbers(own):
        return None
    down = m.group("verb").split()[0].lower() in ("decreases", "drops", "falls") or m.group("verb").endswith("down")
    first, second = {"path": [a]}, {"path": [b]}
    if m.group("op") == "+":
        return {"minus": [first, second], "most": 0} if down else {"plus": [first, second]}
    return {"plus": [second], "minus": [first], "most": 0} if down else {"plus": [first], "minus": [second]}


__all__ = ["SPELT_DIFFERENCE", "per_unit", "spelt_difference", "unelided"]
