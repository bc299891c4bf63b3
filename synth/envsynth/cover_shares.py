"""Figures of a quote split between a payer and the customer, read from the docs' own sentences:

- a table by a record's field with two columns picked by a yes/no field ("Cover by `tier`, `rigged` / bare:
  none 0% / 0%, club 60% / 30%") -> the percent for the tier, from the first column when `rigged` is true, for the
  figure named by the heading's words and a percent (`cover_percent`);
- a fee for records with a yes/no field ("Racing hulls add a $3.00 `racing_fee`");
- a percent off for one value of a field and records with a yes/no field ("Non-members (`tier` none) get a 15%
  cash discount on rigged boats (`walk_in_discount`)"), a percent of the base figure, rounded to the cent;
- a least share the customer pays while the payer covers the rest ("Members pay at least a $5.00 minimum fee per
  berth (never more than `base_price`); the club pays the rest") -> the payer's figure capped at the base less
  that least share for everyone but the value the docs set apart as "un-" or "non-" that word ("Non-members
  (`tier` none)"), and a `<x>_share`
  the docs leave unsaid as the base less what the payer and the discounts take;
- a yes/no `in_<amount>` (`in_stock`): the record's amount covers the call's count;
- a yes/no figure "(true when the boat's hull class is on the skipper's banned list)": membership.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.quote_scope import field_holder as _holder
from synth.spec import field_by_words, list_by_words

NUMBER = r"\d+(?:\.\d+)?"
PAIRED = re.compile(
    rf"([\w ]+?)\s+by\s+`?(\w+)`?,\s+`?(\w+)`?\s*/\s*`?(\w+)`?:\s+((?:\w+\s+{NUMBER}%?\s*/\s*{NUMBER}%?(?:,\s+)?)+)",
    re.I,
)
PAIR = re.compile(rf"(\w+)\s+({NUMBER})%?\s*/\s*({NUMBER})%?")
FLAG_FEE = re.compile(rf"\b(\w+)\s+\w+\s+add\s+(?:a|an)\s+\$?({NUMBER})\s+`?(\w+)`?", re.I)
GROUP_OFF = re.compile(
    rf"\(`?(\w+)`?\s+(\w+)\)\s+get\s+(?:a|an)\s+({NUMBER})%\s+[\w ]+?\s+on\s+(\w+)\s+\w+\s*\(`?(\w+)`?\)", re.I
)
LEAST = re.compile(
    rf"\b(\w+)\s+\w+\s+pay\s+at\s+least\s+(?:a|an)\s+\$?({NUMBER})\s+minimum\b[^.;]*?\(never\s+more\s+than\s+`?(\w+)`?\)"
    r";\s+the\s+(\w+)\s+pays\s+the\s+rest",
    re.I,
)
MEMBER = re.compile(
    r"`?(\w+)`?\s*\(true\s+when\s+the\s+\w+['\u2019]s\s+([\w ]+?)\s+is\s+(?:on|in)\s+the\s+\w+['\u2019]s\s+([\w ]+?)"
    r"\s+list\)",
    re.I,
)


def _flag_node(scope: Any, word: str) -> dict[str, Any] | None:
    """ "rigged" -> whether the record's yes/no field `rigged` is true."""
    holder = _holder(scope, word.lower(), "boolean")
    return {"test": {"field": word.lower(), "param": holder}, "in": [True]} if holder else None


def _base(scope: Any, steps: dict[str, dict[str, Any]]) -> str | None:
    """The figure a share is taken of: the first product the quote computes (`base_price`)."""
    return next((n for n, node in steps.items() if node.get("op") == "*" and n in scope.defined), None)


def _paired(name: str, scope: Any) -> dict[str, Any] | None:
    for m in PAIRED.finditer(scope.docs):
        words = set(re.findall(r"[a-z]+", m.group(1).lower()))  # the figure's name: the heading's words, a percent
        named = set(name.split("_"))
        if not words & named or not named <= words | {"percent", "pct", "rate"}:
            continue
        if not (holder := _holder(scope, m.group(2))):
            continue
        first, second = _flag_node(scope, m.group(3)), _flag_node(scope, m.group(4))
        if (first is None) == (second is None):
            return None
        pairs = PAIR.findall(m.group(5))
        tables = [
            {"table": m.group(2), "param": holder, "values": {k: float(row[i]) for k, *row in pairs}} for i in (0, 1)
        ]
        flag, (yes, no) = (first, tables) if first else (second, tables[::-1])
        return {"if": flag, "then": yes, "else": no}
    return None


def _group_off(name: str, scope: Any, steps: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    m = next((m for m in GROUP_OFF.finditer(scope.docs) if m.group(5) == name), None)
    holder, flag, base = (
        (_holder(scope, m.group(1)), _flag_node(scope, m.group(4)), _base(scope, steps)) if m else [None] * 3
    )
    if not (m and holder and flag and base):
        return None
    share = {"op": "*", "args": [{"val": base}, {"num": float(m.group(3)) / 100}]}
    when = {"all": [{"test": {"field": m.group(1), "param": holder}, "in": [m.group(2)]}, flag]}
    return {"if": when, "then": {"round": share, "digits": 2, "way": "nearest"}, "else": {"num": 0}}


def _least(scope: Any) -> tuple[re.Match[str], dict[str, Any]] | None:
    """The least-share sentence and the test for those it leaves out ("Non-members (`tier` none)")."""
    m = LEAST.search(scope.docs)
    if not m:
        return None
    apart = re.search(rf"\b(?:un|non-?){re.escape(m.group(1).lower())}\s+\w+\s+\(`?(\w+)`?\s+(\w+)\)", scope.docs, re.I)
    holder = _holder(scope, apart.group(1)) if apart else None
    return (m, {"test": {"field": apart.group(1), "param": holder}, "in": [apart.group(2)]}) if holder else None


def payer_figure(steps: dict[str, dict[str, Any]], scope: Any) -> None:
    """Caps the payer's figure ("the club pays the rest") so the customer pays at least the least share."""
    read = _least(scope)
    if not read:
        return
    m, apart = read
    payer = [n for n in steps if n.startswith(m.group(4).lower() + "_")]
    if len(payer) != 1 or m.group(3) not in steps:
        return
    base, raw = {"val": m.group(3)}, steps[payer[0]]
    least = {"op": "min", "args": [{"num": float(m.group(2))}, base]}
    kept = {"op": "max", "args": [{"op": "-", "args": [base, raw]}, least]}
    steps[payer[0]] = {"if": apart, "then": raw, "else": {"op": "-", "args": [base, kept]}}


def _rest_share(name: str, scope: Any, steps: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    read = _least(scope) if name.endswith("_share") else None
    if not read or read[0].group(3) not in steps:
        return None
    payer = [n for n in steps if n.startswith(read[0].group(4).lower() + "_") and n in scope.defined]
    offs = [m.group(5) for m in GROUP_OFF.finditer(scope.docs) if m.group(5) != name]
    if len(payer) != 1 or any(o not in scope.defined for o in offs):
        return None
    node: dict[str, Any] = {"op": "-", "args": [{"val": read[0].group(3)}, {"val": payer[0]}]}
    for off in offs:
        node = {"op": "-", "args": [node, {"val": off}]}
    return node


def _covers(name: str, scope: Any) -> dict[str, Any] | None:
    m = re.fullmatch(r"in_(\w+)", name)
    holder = _holder(scope, m.group(1), "number") or _holder(scope, m.group(1), "integer") if m else None
    counts = [p for p in scope.counts if p in scope.defined]
    if not (m and holder and len(counts) == 1):
        return None
    return {"op": ">=", "args": [{"field": m.group(1), "param": holder}, {"val": counts[0]}]}


def _member(name: str, scope: Any) -> dict[str, Any] | None:
    m = next((m for m in MEMBER.finditer(scope.docs) if m.group(1) == name), None)
    if not m:
        return None
    one = [(p, f) for p, fs in scope.fields.items() if (f := field_by_words(m.group(2), fs))]
    listed = [(p, f) for p, fs in scope.fields.items() if (f := list_by_words(m.group(3), fs))]
    if len(one) != 1 or len(listed) != 1:
        return None
    return {"member": {"field": one[0][1], "param": one[0][0]}, "of": {"field": listed[0][1], "param": listed[0][0]}}


def share_figure(name: str, scope: Any, steps: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """The node of one answer figure these sentences define, or None."""
    fee = next((m for m in FLAG_FEE.finditer(scope.docs) if m.group(3) == name), None)
    flag = _flag_node(scope, fee.group(1)) if fee else None
    if fee and flag:
        return {"if": flag, "then": {"num": float(fee.group(2))}, "else": {"num": 0}}
    return (
        _paired(name, scope)
        or _group_off(name, scope, steps)
        or _rest_share(name, scope, steps)
        or _covers(name, scope)
        or _member(name, scope)
    )


__all__ = ["payer_figure", "share_figure"]
