"""A limit that holds for one value of a parameter only: "A financial hold can only be released while the student's
balance is 1000.00 USD or less" ("... may be released only if the student's balance is at most 1000", "does not
exceed", "is at least"). The value is one the call's parameter takes (its enum, or a value its description
lists); the noun names the changed record itself; the words name one of its number fields. Each becomes a `bound`
check on the record ({"from": "self", field, cmp, value}) with a `when` on the argument, so other values pass
(code_templates render `when` before the check). "`balance` must be 0 or less", said of the changed record's own
number without a value, holds for every call (`own_limits`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.words import singular

LIMIT = re.compile(
    r"\b(?:an?|the)\s+`?(?P<value>[\w-]+)`?\s+\w+\s+(?:can|may)\s+(?:only\s+be\s+\w+|be\s+\w+\s+only)\s+"
    r"(?:while|when|if)\s+the\s+(?P<noun>\w+)['\u2019]s\s+`?(?P<field>[a-z][\w ]{0,30}?)`?\s+"
    r"(?:is\s+(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?:[A-Z]{3}\s+)?or\s+(?P<side>less|lower|below|fewer|more|higher|above)\b"
    r"|(?P<word>is\s+at\s+most|is\s+at\s+least|does\s+not\s+exceed|is\s+no\s+more\s+than|is\s+no\s+less\s+than)"
    r"\s+(?:[A-Z]{3}\s+|\$)?(?P<num2>\d[\d,]*(?:\.\d+)?))",
    re.I,
)
WORDS = {
    "is at most": "<=",
    "does not exceed": "<=",
    "is no more than": "<=",
    "is at least": ">=",
    "is no less than": ">=",
}
SIDES = {"less": "<=", "lower": "<=", "below": "<=", "fewer": "<=", "more": ">=", "higher": ">=", "above": ">="}


OWN_LIMIT = re.compile(  # "`balance` must be 0 or less."; "its balance must be at least 100.00"
    r"(?:`(?P<field>\w+)`|\bits\s+(?P<words>[a-z][a-z_ ]{0,30}?))\s+must\s+be\s+"
    r"(?:(?P<num>-?\d[\d,]*(?:\.\d+)?)\s+or\s+(?P<side>less|lower|below|more|higher|above)\b"
    r"|(?P<word>at\s+least|at\s+most|no\s+more\s+than|no\s+less\s+than)\s+(?:[A-Z]{3}\s+|\$)?(?P<num2>\d[\d,]*(?:\.\d+)?))",
    re.I,
)


def own_limits(text: str, own: dict[str, Any]) -> list[dict[str, Any]]:
    """`bound` checks on the changed record's own number for "`balance` must be 0 or less" (or more) and "its
    balance must be at least 100.00" (at most, no more than, no less than)."""
    out = []
    for m in OWN_LIMIT.finditer(text):
        field = m.group("field") or "_".join(m.group("words").lower().split())
        if is_number(own.get(field)):
            value = float((m.group("num") or m.group("num2")).replace(",", ""))
            said = "is " + " ".join((m.group("word") or "").lower().split())
            cmp = SIDES[m.group("side").lower()] if m.group("side") else WORDS[said]
            check = {"op": "bound", "from": "self", "field": field, "cmp": cmp}
            out += [{**check, "value": value}] if {**check, "value": value} not in out else []
    return out


def _values(schema: Any) -> list[str]:
    said = schema.get("enum") or [] if isinstance(schema, dict) else []
    return [str(v) for v in said]


def value_limits(text: str, resource: str, own: dict[str, Any], params: dict[str, Any]) -> list[dict[str, Any]]:
    """`bound` checks with a `when` on the argument for each "a <value> <entry> can only be <verb>ed while the
    <record>'s <number> is N or less (or more)" sentence about the changed record."""
    out = []
    for m in LIMIT.finditer(text):
        holders = [p for p, s in params.items() if m.group("value") in _values(s)]
        field = "_".join(m.group("field").lower().split())
        if len(holders) != 1 or singular(m.group("noun").lower()) != resource or not is_number(own.get(field)):
            continue
        value = float((m.group("num") or m.group("num2")).replace(",", ""))
        said = " ".join((m.group("word") or "").lower().split())
        cmp = SIDES[m.group("side").lower()] if m.group("side") else WORDS[said]
        check = {"op": "bound", "from": "self", "field": field, "cmp": cmp, "value": value}
        out.append({**check, "when": {"arg": holders[0], "in": [m.group("value")]}})
    return out


__all__ = ["value_limits"]
