"""State changes the docs make on a condition of the record's own state: "if the pier is `crowded`, its status becomes
`calm`", "If the voyage was `late`, it moves to `overdue`".

The two values must both be known values of one string field of the record (its `enum` or the data's values);
each becomes a `set_if` effect ({field, when: [value], value}) that holds only when the record had that value when
the call began.
"""

from __future__ import annotations

import re
from typing import Any

Q = r"[`'\"]"
CONDITIONAL = re.compile(
    rf"\bif\s+(?:the\s+)?(?P<subject>\w+)\s+(?:was|is)\s+(?:still\s+)?{Q}(?P<a>[\w-]+){Q},?\s+(?:then\s+)?"
    rf"(?P<then>it|the\s+\w+|its\s+\w+)\s+"
    rf"(?:goes\s+back\s+to|returns\s+to|becomes|moves\s+to|is\s+set\s+to|changes\s+to)\s+{Q}(?P<b>[\w-]+){Q}",
    re.IGNORECASE,
)


def conditional_sets(text: str, record_props: dict[str, Any], noun: str = "") -> list[dict[str, Any]]:
    """`set_if` effects for the changes the text makes only from one state of the record (`noun`: the record's
    own noun, which the condition and the change must be about: "If the pier is `crowded`, the booking becomes
    ..." changes another record)."""
    own = {noun.lower(), "it"} if noun else {"it"}
    out: list[dict[str, Any]] = []
    for m in CONDITIONAL.finditer(text):
        then = m.group("then").lower().split()
        subject_ok = m.group("subject").lower() in own or m.group("subject").lower() in record_props
        then_ok = then[0] in ("it", "its") or then[-1] in own
        if noun and not (subject_ok and then_ok):
            continue
        a, b = m.group("a"), m.group("b")
        fields = [
            f
            for f, s in sorted(record_props.items())
            if isinstance(s, dict) and {a, b} <= {str(v) for v in (s.get("enum") or s.get("x-enum") or [])}
        ]
        if len(fields) == 1 and a != b:
            effect = {"op": "set_if", "field": fields[0], "when": [a], "value": b}
            if effect not in out:
                out.append(effect)
    return out


__all__ = ["conditional_sets"]
