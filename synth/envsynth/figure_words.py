"""Answer figures the docs state in words rather than as a formula (formula_rules.py reads the formulas):

- one number per value of a field: "<n>, <n> or <n> according to <the record's field>" or "set by <the record's
  field>: <n>, <n> or <n>", with each value's number given where the docs name the value ("`joiner` (25
  percent)"); a value given without a number takes the one number no other value took;
- a figure after a removal: "<figure> net of the rebate" (or "after the rebate") beside an answer field
  `<figure>_before_rebate` and a percent field of that removal (`rebate_percent`) is the first less that percent,
  rounded as a sentence of the tool's description rounds the rebated figure ("rebated prices are rounded to the
  nearest penny, ties going up");
- a yes/no comparison: "True when `<figure>` stays within <the record's field>" compares two known figures;
- a capped share: "the <field> used (<the record's> positive `<field>`, capped at <another figure>)";
- the rest: "`<field>` is the rest" makes `<field>` the (sub)total less the credits and discounts taken.
"""

from __future__ import annotations

import re
from typing import Any

from synth.words import singular, split_words

NUMBER = r"-?\d+(?:\.\d+)?"
BY_VALUE = re.compile(
    rf"^\s*((?:{NUMBER}\s*%?\s*(?:,\s*|\s+or\s+|\s+and\s+|,\s*or\s+))+{NUMBER})\s*%?\s+"
    r"(?:depending\s+on|according\s+to|based\s+on|by)\s+(.+?)\s*\.?\s*$",
    re.I,
)
# the same numbers after the field they follow: "Set by the account's grade: 35, 25 or 0"
BY_VALUE_LATE = re.compile(
    rf"^.*?\b(?:by|for|from|on)\s+((?:the\s+)?[\w`'\u2019 -]+?)\s*[:(]\s*"
    rf"((?:{NUMBER}\s*%?\s*(?:,\s*|\s+or\s+|\s+and\s+|,\s*or\s+))+{NUMBER})\s*%?\s*\)?\s*\.?\s*$",
    re.I,
)
AFTER = re.compile(r"^\s*(?:the\s+)?([\w -]+?)\s+(?:after|net\s+of)\s+(?:the\s+)?([\w -]+?)\s*(?:[,.;(]|$)", re.I)
WHETHER = re.compile(
    r"^\s*(?:true\s+when\s+|whether\s+)(.+?)\s+(is\s+within|fits\s+(?:in(?:to)?|within)|is\s+at\s+most|"
    r"does\s+not\s+exceed|is\s+no\s+more\s+than|stays\s+within|is\s+at\s+least|exceeds|is\s+over|is\s+above|"
    r"is\s+more\s+than|is\s+below|is\s+under|is\s+less\s+than)\s+(.+?)\s*\.?\s*$",
    re.I,
)
COMPARE = {"within": "<=", "fits": "<=", "at most": "<=", "not exceed": "<=", "no more": "<=", "stays": "<="}
COMPARE.update({"at least": ">=", "exceeds": ">", "over": ">", "above": ">", "more than": ">"})
COMPARE.update({"below": "<", "under": "<", "less than": "<"})
ROUNDING = re.compile(
    r"([\w' -]{1,60}?)\s+(?:is|are)\s+rounded\s+to\s+the\s+nearest\s+(cent|penny|whole\s+\w+|integer)"
    r"(?:\s*,\s*(?:with\s+)?(?:halves|half|ties)\s+(?:rounding|rounded|going|round)\s+(up|down|away\s+from\s+zero))?",
    re.I,
)


def _words(text: str) -> set[str]:
    return {singular(w) for w in split_words(text)}


def _number(text: str) -> float | int:
    return float(text) if "." in text else int(text)


def _known_values(node: dict[str, Any], scope: Any) -> list[str]:
    """The values the field a node reads can hold: its enum, else the sample records' values."""
    schema = (scope.fields.get(node["param"]) or {}).get(node["field"]) or {}
    values = [str(v) for v in (schema.get("enum") or schema.get("x-enum") or [])] if isinstance(schema, dict) else []
    col = scope.named.get(node["param"])
    if not values and col:
        records = (scope.sample.get(col) or {}).values() if isinstance(scope.sample.get(col), dict) else []
        values = sorted({str(r.get(node["field"])) for r in records if isinstance(r, dict) and r.get(node["field"])})
    return values


def by_value(own: str, scope: Any, operand: Any) -> dict[str, Any] | None:
    """A table node for "<n>, <n> or <n> according to <the record's field>" (or "... by <the record's field>: <n>,
    <n> or <n>"), or None."""
    m, late = BY_VALUE.match(own), BY_VALUE_LATE.match(own)
    if m:
        said, field = m.group(1), m.group(2)
    elif late:
        said, field = late.group(2), late.group(1)
    else:
        return None
    numbers = [_number(n) for n in re.findall(NUMBER, said)]
    node = operand(field.replace("`", ""), scope)
    if not node or set(node) != {"field", "param"}:
        return None
    values = _known_values(node, scope)
    table: dict[str, float | int] = {}
    for value in values:
        said = re.search(rf"(?<![\w-])`?{re.escape(value)}`?\s*\(([^()]*)\)", scope.docs)
        found = [_number(n) for n in re.findall(NUMBER, said.group(1))] if said else []
        if len(found) == 1 and found[0] in numbers:
            table[value] = found[0]
    left = [v for v in values if v not in table]
    spare = [n for n in numbers if n not in table.values()]
    if len(left) == 1 and len(spare) == 1:
        table[left[0]] = spare[0]
    if not values or len(table) != len(values):
        return None
    return {"table": node["field"], "param": node["param"], "values": table}


def _rounding(base: str, removal: str, text: str) -> dict[str, Any] | None:
    """How the description rounds the figure "after <removal>" ("rebated prices are rounded to the nearest penny,
    ties going up"): {digits, way}, or None when it says nothing of it."""
    for m in ROUNDING.finditer(text):
        subject = _words(m.group(1))
        if _words(base) & subject and any(w.startswith(r[:5]) for r in _words(removal) for w in subject):
            digits = 2 if m.group(2).lower() in ("cent", "penny") else 0
            way = {"up": "half_up", "down": "half_down"}.get((m.group(3) or "").lower(), "half_up")
            return {"digits": digits, "way": way if m.group(3) else "nearest"}
    return None


def after_removal(own: str, scope: Any, text: str) -> dict[str, Any] | None:
    """The figure "<base> after <removal>" (or "net of"): a known `<base>_before_<removal>` figure less the known
    percent figure of that removal, rounded as the description says."""
    m = AFTER.match(own)
    if not m:
        return None
    base, removal = _words(m.group(1)), _words(m.group(2))
    before = [d for d in scope.defined if base <= _words(d) and removal <= _words(d) and "before" in split_words(d)]
    share = [
        d
        for d in scope.defined
        if removal <= _words(d) and {"pct", "percent", "percentage"} & _words(d) and d not in before
    ]
    if len(before) != 1 or len(share) != 1:
        return None
    node: dict[str, Any] = {"op": "pct_off", "args": [{"val": before[0]}, {"val": share[0]}]}
    rounded = _rounding(m.group(1), m.group(2), text)
    return {"round": node, **rounded} if rounded else node


def comparison(own: str, scope: Any, operand: Any) -> dict[str, Any] | None:
    """A yes/no figure comparing two known figures ("True when `metres_total` stays within the metre cap")."""
    m = WHETHER.match(own)
    if not m:
        return None
    words = " ".join(m.group(2).lower().split())
    op = next((o for key, o in COMPARE.items() if key in words), None)
    left, right = (operand(part.replace("`", ""), scope) for part in (m.group(1), m.group(3)))
    return {"op": op, "args": [left, right]} if op and left and right else None


CAPPED = re.compile(
    r"^(?:the\s+)?(.+?)\s*,\s*(?:up\s+to|at\s+most|capped\s+at|(?:but\s+)?(?:never|no|not)\s+more\s+than)\s+"
    r"(?:the\s+)?(.+?)\s*$",
    re.I,
)
# "positive <x>", or "<x> when above zero" / "if positive" after it
POSITIVE = re.compile(
    r"\b(?:positive|non-negative)\s+|\s+(?:when|if|while)\s+(?:it\s+is\s+)?(?:positive|above\s+zero|over\s+zero)\b",
    re.I,
)
TAKEN_OFF = re.compile(r"credit|discount|rebate|deduct|reduction|allowance|voucher|_applied|_used", re.I)
# figures named like a share, a figure before something is taken, or what is left to take: not amounts taken off
NOT_AN_AMOUNT = {"pct", "percent", "percentage", "rate", "ratio", "before", "balance", "remaining", "available", "left"}


def described(name: str, text: str) -> list[str]:
    """Bracketed texts the description puts right after a phrase holding every word of the name ("the voucher
    value used (...)" for `voucher_used`)."""
    wanted = _words(name.replace("_", " "))
    out = []
    for m in re.finditer(r"\(([^()]{3,160})\)", text):
        before = re.split(r"[,;:.]", text[: m.start()])[-1].split()[-8:]
        if wanted and wanted <= _words(" ".join(before)):
            out.append(m.group(1))
    return out


def capped(text: str, scope: Any, operand: Any) -> dict[str, Any] | None:
    """ "the <record>'s positive `<field>`, capped at <figure>": min(max(<field>, 0), <figure>)."""
    m = CAPPED.match(text.replace("`", ""))
    if not m:
        return None
    left_text = POSITIVE.sub("", m.group(1))
    left, right = operand(left_text, scope), operand(m.group(2), scope)
    if not left or not right:
        return None
    if left_text != m.group(1):
        left = {"op": "max", "args": [left, {"num": 0}]}
    return {"op": "min", "args": [left, right]}


def remainder(name: str, scope: Any) -> dict[str, Any] | None:
    """The figure the docs call what is left ("`<field>` is the rest", "what remains is `<field>`"): the
    (sub)total less the figures that take something off it (a credit, a discount)."""
    said = re.escape(name).replace("_", "[ _]")
    rest = r"(?:the\s+rest|the\s+remainder|what\s+(?:remains|is\s+left))"  # "what remains is `<x>`" too
    if not re.search(rf"\b{rest}\s+is\s+(?:the\s+)?`?{said}\b|`?\b{said}`?\s+is\s+{rest}", scope.docs, re.I):
        return None
    totals = [d for d in scope.defined if re.fullmatch(r"(?:sub)?total", d)]
    taken = [
        d
        for d in scope.defined
        if TAKEN_OFF.search(d) and d not in scope.echoes and not NOT_AN_AMOUNT & set(split_words(d)) and d not in totals
    ]
    if len(totals) != 1 or not taken:
        return None
    node: dict[str, Any] = {"val": totals[0]}
    for one in taken:
        node = {"op": "-", "args": [node, {"val": one}]}
    return node


__all__ = ["after_removal", "by_value", "capped", "comparison", "described", "remainder"]
