"""A call allowed on one day of the record only: "Boarding is only possible on the sailing date" refuses the call
unless the record's date field the words name (`sailing_date`) is the business date; read as two `dated` checks (the
date on or before today, and on or after it). A sentence that names no date field of the record, or with no
business date known, gives none.
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import field_by_words

ONLY_ON = re.compile(
    r"\bonly\s+(?:(?:be\s+)?(?:possible|allowed|permitted|done|made)\s+)?on\s+(?:the|its|their)\s+"
    r"([a-z]\w*(?:\s[a-z]\w*)?)\b",
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


__all__ = ["only_on_checks"]
