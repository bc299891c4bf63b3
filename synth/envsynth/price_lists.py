"""Price lists the docs give as markdown tables: the first column holds the values of a field and its header names
that field (`wood`), another column holds one number per value and its header names the figure ("price per
metre" -> `price_per_metre`). A quote's line field of that name reads the column at the value the line's element
(or record) holds in the named field:

    | wood | price per metre |
    |---|---|
    | `pine` | 0.05 |
    | `ash` | $0.125 |

gives the line field `price_per_metre` the node {"table": "wood", "param": <holder>, "values": {"pine": 0.05,
"ash": 0.125}, "listed": true}, which formula_runtime.fg_formula reads like any table the docs give; a value the list
does not hold refuses the call ("the call is not allowed (<table> <value> is not listed)": code_templates/_blocks.j2
`lines`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from synth.tooldocs.md_tables import markdown_tables
from synth.words import singular, split_words

AMOUNT = re.compile(r"^[$\u20ac\u00a3]?\s*(-?\d+(?:\.\d+)?)\s*%?$")


@dataclass(frozen=True)
class PriceList:
    key: str  # the field the first column holds values of, as its header names it
    figure: list[str]  # the words of the number column's header
    values: dict[str, float | int]


def _words(text: str) -> list[str]:
    return [singular(w) for w in split_words(text)]


def _number(cell: str) -> float | int | None:
    m = AMOUNT.match(cell.strip("`* "))
    if not m:
        return None
    return float(m.group(1)) if "." in m.group(1) else int(m.group(1))


def price_lists(text: str) -> list[PriceList]:
    """Every (key column, number column) pair of the text's markdown tables: the key cells are distinct words,
    every cell of the number column is a number."""
    out: list[PriceList] = []
    for header, rows in markdown_tables(text):
        keys = [r[0].strip("`* ") for r in rows]
        if not re.fullmatch(r"[a-z][\w ]*", header[0]) or len(set(keys)) != len(keys) or len(keys) < 2:
            continue
        if any(not re.fullmatch(r"[\w.-]+", k) or _number(k) is not None for k in keys):
            continue
        for i in range(1, len(header)):
            numbers = [_number(r[i]) for r in rows]
            if header[i] and all(n is not None for n in numbers):
                values = {k: n for k, n in zip(keys, numbers) if n is not None}
                out.append(PriceList(key="_".join(split_words(header[0])), figure=_words(header[i]), values=values))
    return out


def price_node(name: str, holders: dict[str, dict[str, Any]], lists: list[PriceList]) -> dict[str, Any] | None:
    """The table node of the figure `name` when one price list's number column spells it and exactly one holder
    (element, record) has the list's key field; None otherwise."""
    found = []
    for one in lists:
        if one.figure != _words(name):
            continue
        found += [
            {"table": one.key, "param": holder, "values": dict(one.values), "listed": True}
            for holder, fields in holders.items()
            if one.key in fields
        ]
    return found[0] if len(found) == 1 else None


__all__ = ["PriceList", "price_lists", "price_node"]
