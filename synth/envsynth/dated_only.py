"""A call allowed on one day of the record only: "Boarding is only possible on the sailing date" refuses the call
unless the record's date field the words name (`sailing_date`) is the business date; read as two `dated` checks (the
date on or before today, and on or after it). A sentence that names no date field of the record, or with no
business date known, gives none.

A call allowed while something of the record has not lapsed: "Only reserved berths whose hold has not expired can
be taken up" refuses the call once the record's one date field named by the noun and an end word (`hold_until`,
`hold_expires_on`, `hold_end`) lies before the business date (one `dated` check; a record without that date passes).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import field_by_words

ONLY_ON = re.compile(
    r"\bonly\s+(?:(?:be\s+)?(?:possible|allowed|permitted|done|made)\s+)?on\s+(?:the|its|their)\s+"
    r"(?:[a-z]\w*['\u2019]s\s+)?([a-z]\w*(?:\s[a-z]\w*)?)\b",  # "on the charter's sailing date"
    re.I,
)


def only_on_checks(sentence: str, own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """`dated` checks holding the record's named date to the business date, or [] when the sentence says none."""
    if not today:
        return []
    for m in ONLY_ON.finditer(sentence):
        if re.search(r"\bnot\s+$", sentence[: m.start()], re.I):  # "not only on the sailing date but also ..."
            continue
        words = m.group(1).lower().split()
        field = field_by_words(m.group(1), own) or (
            field_by_words(" ".join(words[:-1]), own) if len(words) > 1 and words[-1] in ("date", "day") else None
        )
        if field and "date" in str((own.get(field) or {}).get("format") or "") + field:
            return [
                {"op": "dated", "field": field, "cmp": "<=", "value": today},
                {"op": "dated", "field": field, "cmp": ">=", "value": today},
            ]
    return []


UNLAPSED = re.compile(
    r"\bwhose\s+([a-z]\w*)\s+(?:has|have)\s+not\s+(?:yet\s+)?(?:lapsed|expired|run\s+out|ended)\b", re.I
)
END_WORDS = ("until", "expires", "expiry", "end", "ends", "deadline")


def unlapsed_checks(sentence: str, own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """The `dated` check of "whose <noun> has not lapsed": the noun's end date is not before the business date."""
    if not today:
        return []
    for m in UNLAPSED.finditer(sentence):
        noun = m.group(1).lower()
        ends = [
            f
            for f in sorted(own)
            if f.lower().startswith(noun + "_") and any(w in END_WORDS for w in f.lower().split("_")[1:])
        ]
        if len(ends) == 1:
            return [{"op": "dated", "field": ends[0], "cmp": ">=", "value": today}]
    return []


def day_checks(sentence: str, own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """The checks of both readings above."""
    return only_on_checks(sentence, own, today) + unlapsed_checks(sentence, own, today)


__all__ = ["day_checks", "only_on_checks", "unlapsed_checks"]
