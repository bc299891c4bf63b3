"""Percents the docs apply to an earlier figure, in prose rather than as a formula (formula_rules.py reads them):

- "the skipper's club discount (silver 5%, gold 10%) is taken off the berth subtotal": the discount is the table's
  percent of the subtotal, keyed as the bracketed table is (keyed_tables.bracket_tables), 0 for a key the table
  does not list (`else`) or a record the call leaves out;
- the figure after it: `berth_total` is the subtotal less the discount, when its name is the subtotal's with
  "subtotal" made "total" or the docs speak of "the discounted berth total";
- "Harbour levy (the marina's levy rate, 8%) is charged on the discounted berth total": the levy is 8% of it;
- a `total` the docs give no formula for is the figure such charges are charged on plus those charges.

Each is rounded to the cent, half up, when the docs say amounts are rounded to cents (at each step) or the sentence
does.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from synth.envsynth.figure_terms import spoken
from synth.words import singular, split_words

PHRASE = r"((?:[\w-]+['\u2019]s\s+)?(?:[\w-]+\s+){0,3}?[\w-]+)"
TAKEN = re.compile(
    rf"{PHRASE}\s*\(([^()]*%[^()]*)\)\s+(?:is|are)\s+(?:taken|deducted|subtracted)\s+(?:off|from)\s+"
    r"(?:the\s+)?([\w' -]+?)(?=[.,;]|$)",
    re.I,
)
CHARGED = re.compile(
    rf"{PHRASE}\s*\([^()]*?(\d+(?:\.\d+)?)\s*%\s*\)\s+(?:is|are)\s+(?:charged|levied|applied|added)\s+on\s+"
    r"(?:top\s+of\s+)?(?:the\s+)?([\w' -]+?)(?=[.,;]|$)",
    re.I,
)
CENTS = re.compile(r"\brounded\s+to\s+(?:the\s+)?cents?\b", re.I)
Operand = Callable[[str], "dict[str, Any] | None"]


def _words(text: str) -> set[str]:
    return {singular(w) for w in split_words(text.replace("'s", ""))}


def _names(name: str, phrase: str) -> bool:
    """The phrase names the figure: every word of its name is one of the phrase's."""
    return _words(name.replace("_", " ")) <= _words(phrase)


def _rounded(node: dict[str, Any], docs: str) -> dict[str, Any]:
    return {"round": node, "digits": 2, "way": "half_up"} if CENTS.search(docs) else node


def _flat(docs: str) -> str:
    return " ".join(docs.split())


def taken_off_node(name: str, scope: Any, operand: Operand) -> dict[str, Any] | None:
    """The figure a bracketed table of percents "is taken off": that percent of what it is taken off."""
    for m in TAKEN.finditer(_flat(scope.docs)):
        table = next((t for t in scope.tables if t["text"] in m.group(0) and "%" in t["text"]), None)
        base = operand(m.group(3))
        if not _names(name, m.group(1)) or table is None or base is None or "arg" in table:
            continue
        keyed = {"table": table["field"], "param": table["param"], "values": table["values"], "else": 0}
        return _rounded({"op": "*", "args": [{"op": "/", "args": [keyed, {"num": 100}]}, base]}, scope.docs)
    return None


def after_taken_node(name: str, scope: Any, operand: Operand) -> dict[str, Any] | None:
    """`berth_total`: the figure a share is taken off, less that share (module docstring)."""
    flat = _flat(scope.docs)
    for m in TAKEN.finditer(flat):
        base = operand(m.group(3))
        taken = [d for d in scope.defined if _names(d, m.group(1))]
        if not base or "val" not in base or len(taken) != 1 or name in (base["val"], taken[0]):
            continue
        spoken_after = re.search(rf"\bdiscounted\s+{spoken(name)}\b", flat, re.I)
        if re.sub(r"subtotal", "total", base["val"]) == name or spoken_after:
            return _rounded({"op": "-", "args": [base, {"val": taken[0]}]}, scope.docs)
    return None


def charged_on_node(name: str, scope: Any, operand: Operand) -> dict[str, Any] | None:
    """ "<figure> (..., 8%) is charged on <base>": 8% of the base."""
    for m in CHARGED.finditer(_flat(scope.docs)):
        base = operand(m.group(3))
        if _names(name, m.group(1)) and base is not None:
            share = {
                "op": "/",
                "args": [{"num": float(m.group(2)) if "." in m.group(2) else int(m.group(2))}, {"num": 100}],
            }
            return _rounded({"op": "*", "args": [share, base]}, scope.docs)
    return None


def implied_total(name: str, scope: Any, operand: Operand) -> dict[str, Any] | None:
    """A `total` the docs do not define: the figure charges are charged on, plus those charges."""
    if name != "total":
        return None
    bases: dict[str, list[str]] = {}
    for m in CHARGED.finditer(_flat(scope.docs)):
        base = operand(m.group(3))
        charged = [d for d in scope.defined if _names(d, m.group(1))]
        if base is None or "val" not in base or len(charged) != 1:
            return None
        bases.setdefault(base["val"], []).append(charged[0])
    if len(bases) != 1:
        return None
    ((base, charges),) = bases.items()
    node: dict[str, Any] = {"val": base}
    for charge in charges:
        node = {"op": "+", "args": [node, {"val": charge}]}
    return _rounded(node, scope.docs)


__all__ = ["after_taken_node", "charged_on_node", "implied_total", "taken_off_node"]
