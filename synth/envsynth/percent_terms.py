"""Two forms of a prose formula that parse_formula (formula_rules.py) reads before splitting at operators:

- a share: "12% of the subtotal" is 0.12 x the subtotal, and "rebate_pct% of the subtotal" (a figure or a named
  record's number written with a percent sign) is that number / 100 x the subtotal;
- a floor: "<formula>, at least 20.00" (or "but at least", "with a minimum of", "minimum 20.00") is the larger of
  the formula and the number.

Each returns None when the text is not of its form, or when a part of it names nothing known.
"""

from __future__ import annotations

import re
from typing import Any, Callable

NUMBER = r"-?\d+(?:\.\d+)?"
SHARE = re.compile(rf"^(?:({NUMBER})|`?([A-Za-z_]\w*)`?)\s*%\s+of\s+(.+)$")
FLOOR = re.compile(  # "..., at least 20.00", "... but at least the pier's minimum": not "+ the pier's minimum fee"
    r"^(.+?)(?:,\s*|\s+but\s+|\s+and\s+)(?:but\s+)?(?:at\s+least|with\s+a\s+minimum\s+of|minimum(?:\s+of)?)\s+\$?(.+)$",
    re.I,
)

Parse = Callable[[str], dict[str, Any] | None]


def _number(text: str) -> dict[str, Any]:
    return {"num": float(text) if "." in text else int(text)}


def floor_node(text: str, parse: Parse) -> dict[str, Any] | None:
    """ "12% of the subtotal, at least 20.00": max(the formula, 20.00) (or the floor a figure gives)."""
    said = FLOOR.match(text.strip())
    if said is None:
        return None
    bare = re.fullmatch(NUMBER, said.group(2).strip())
    inner, least = parse(said.group(1)), _number(bare.group(0)) if bare else parse(said.group(2))
    return {"op": "max", "args": [inner, least]} if inner is not None and least is not None else None


def share_of_node(text: str, parse: Parse, operand: Parse) -> dict[str, Any] | None:
    """ "12% of the subtotal" or "rebate_pct% of the subtotal": the share of the base the formula after "of" gives."""
    said = SHARE.match(text.strip())
    if said is None:
        return None
    pct = _number(said.group(1)) if said.group(1) else operand(said.group(2))
    base = parse(re.sub(r"\s*\([^()]*\)\s*$", "", said.group(3)))  # "(the surcharge is not discounted)": an aside
    if pct is None or base is None:
        return None
    return {"op": "*", "args": [{"op": "/", "args": [pct, {"num": 100}]}, base]}


def unread(text: str) -> bool:
    """Whether the text has a share or a floor that floor_node and share_of_node could not read: the formula is then
    unknown, not read as one of its words."""
    return bool(SHARE.match(text.strip()) or FLOOR.match(text.strip()))


def is_percent(node: dict[str, Any], tables: list[dict[str, Any]]) -> bool:
    """Whether a formula node holds a percent: a table the docs write with "%", or a field or figure so named."""
    if "table" in node or "table_arg" in node:
        return any(node["values"] == t["values"] and "%" in t["text"] for t in tables)
    return "percent" in str(node.get("field") or node.get("val") or "") or "pct" in str(node.get("field") or "")
