"""The state a change leaves its record in, as its docs' answer names it: "Returns the updated charter (status
'boarding')", "Returns the cancelled charter (status: 'cancelled')", "Returns the charter with status 'sailed', the
added fee lines and ...".

The record answered must be the tool's own (its name holds the noun, or the docs say "the record"), the value one
the field is known to hold, and the only one named ("'booked' -> 'boarding'" and "'boarding' or 'booked'" are not
read, nor is a negated answer or one under a condition).
"""

from __future__ import annotations

import re

from synth.words import singular

LEAD = (
    r"\bReturns?\s+the\s+(?:updated\s+|changed\s+|modified\s+|[a-z]+ed\s+)?(?P<noun>\w+)(?:\s+record|\s+object)?\s*"
    r"(?:\(\s*|,?\s+(?:now\s+)?(?:with|now)\s+)"
)
VALUE = (  # quoted, or a bare word closing the brackets: "(status boarding)"; one value only
    r"\s*:?\s+(?:of\s+|set\s+to\s+)?(?:[`'\"](?P<value>[^`'\"]{1,60})[`'\"]|(?P<bare>[a-z][a-z_]*)(?=\s*\)))"
    r"(?!\s*(?:->|\u2192|or\b|,\s*or\b|unchanged\b))"
)
CONDITION = re.compile(r"\b(?:if|when|whenever|unless|once)\b", re.I)


def returned_state(sentence: str, field_words: re.Pattern[str], known: list[str], name_words: set[str]) -> str | None:
    """The value of the field (`field_words` matches its name) the answered record holds, or None."""
    found = re.search(
        LEAD + rf"(?:its\s+|the\s+)?(?:{field_words.pattern})" + VALUE,
        sentence,
        re.IGNORECASE,
    )
    value = (found.group("value") or found.group("bare")) if found else None
    if not found or value not in known or CONDITION.search(sentence):
        return None  # a value the field does not hold, or an answer under a condition
    if re.search(r"\b(?:never|not)\b", sentence[: found.start()], re.I):
        return None  # a negated answer
    noun = singular(found.group("noun").lower())
    return value if noun in name_words or noun == "record" else None
