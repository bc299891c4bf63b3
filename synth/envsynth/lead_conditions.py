"""When a documented figure applies, read from the words that lead its formula (formula_rules._figure wraps the
formula's node):

    5. Charter: `levy` = 12% of the subtotal, at least 20.00.
    6. Club rebate: for member skippers, rebate = rebate_pct% of the subtotal.

- a numbered line whose label (before the colon) is a yes/no parameter's name ("Charter" for `charter`) applies
  when the call sets it, else the figure is 0;
- "for <value> <noun>s," before the figure's name, where exactly one text field of a record the call names holds
  that value (its enum, else the sample's values), applies to such records, else 0 (a record left out reads 0 too).

And a date figure "N days after today for <a> <noun>s and M days for <b> <noun>s" (or "today + N days", "N days
after the business date"): the business date plus N days, or M days when `b` is a yes/no parameter the call sets
(or `a` is one it leaves unset), or a value an enum parameter holds.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import field_values, sample_records
from synth.envsynth.figure_terms import param_default, spoken
from synth.words import singular, split_words

LEAD = r"^\s*\d+[.)]\s+(?P<label>[A-Za-z][\w -]{0,40}?):\s*(?P<prefix>[^\n]{0,80}?)`?\b{name}`?\s*="
FOR_VALUE = re.compile(r"\bfor\s+(?:the\s+)?([\w-]+)\s+(\w+?)s?\s*,?\s*$", re.I)
DAYS = re.compile(
    r"^(?:(?P<n>\d+)\s+days?\s+after\s+(?:today|the\s+business\s+date)|today\s*\+\s*(?P<n2>\d+)\s+days?)"
    r"(?:\s+for\s+(?P<a>[\w-]+)\s+\w+?s?\s+and\s+(?P<m>\d+)\s+days?\s+for\s+(?P<b>[\w-]+)\s+\w+?s?)?\s*$",
    re.I,
)


def flag_param(word: str, params: dict[str, Any]) -> str | None:
    """The yes/no parameter a word (or label) names."""
    words = split_words(word.lower())
    hits = [
        p for p, s in params.items() if isinstance(s, dict) and s.get("type") == "boolean" and split_words(p) == words
    ]
    return hits[0] if len(hits) == 1 else None


def _valued(value: str, scope: Any) -> tuple[str, str] | None:
    """(parameter, field): the one text field of a named record that holds this value."""
    hits = []
    for param, col in sorted(scope.named.items()):
        records = sample_records(scope.sample, col)
        for field, schema in sorted((scope.fields.get(param) or {}).items()):
            if value in field_values(schema, records, field):
                hits.append((param, field))
    return hits[0] if len(hits) == 1 else None


def lead_condition(name: str, node: dict[str, Any], docs: str, scope: Any) -> dict[str, Any]:
    """The figure's node, applying only as the words leading its formula say (the node itself when none do)."""
    said = re.search(LEAD.replace("{name}", spoken(name)), docs, re.I | re.M)
    if said is None:
        return node
    zero = {"num": 0}
    value = FOR_VALUE.search(said.group("prefix"))
    held = _valued(value.group(1).lower(), scope) if value else None
    if held is not None:  # "for member skippers, ..."
        return {
            "if_field": {"param": held[0], "field": held[1], "in": [value.group(1).lower()]},
            "then": node,
            "else": zero,
        }
    flag = flag_param(said.group("label"), scope.params) if not said.group("prefix").strip() else None
    if flag is not None:  # "Storm cover: storm_levy = ..."
        return {
            "when": {"arg": flag, "default": param_default(scope.params[flag]), "in": [True]},
            "then": node,
            "else": zero,
        }
    return node


def _days_for(word: str, days: int, other: int, scope: Any) -> dict[str, Any] | None:
    """N days when the call's yes/no parameter or an enum parameter says `word`, else the other count."""
    flag = flag_param(word, scope.params)
    if flag is not None:
        when = {"arg": flag, "default": param_default(scope.params[flag]), "in": [True]}
        return {"when": when, "then": {"num": days}, "else": {"num": other}}
    enums = [p for p, s in scope.params.items() if isinstance(s, dict) and word in (s.get("enum") or [])]
    if len(enums) == 1:
        when = {"arg": enums[0], "default": param_default(scope.params[enums[0]]), "in": [word]}
        return {"when": when, "then": {"num": days}, "else": {"num": other}}
    return None


def days_after_node(text: str, scope: Any, today: str | None) -> dict[str, Any] | None:
    """ "5 days after today for day sails and 2 days for express sails": the business date plus those days."""
    said = DAYS.match(" ".join(text.split()).rstrip("."))
    if said is None or today is None:
        return None
    first = int(said.group("n") or said.group("n2"))
    days: dict[str, Any] | None = {"num": first}
    if said.group("m"):
        second = int(said.group("m"))
        days = _days_for(singular(said.group("b").lower()), second, first, scope)
        days = days or _days_for(singular(said.group("a").lower()), first, second, scope)
    return {"days_after": days, "today": today} if days is not None else None


def stated_date(name: str, docs: str, scope: Any) -> dict[str, Any] | None:
    """The date figure a clause "<name> is N days after today ..." (or "= today + N days") gives, else None."""
    from synth.envsynth.docs_entries import business_date
    from synth.envsynth.figure_terms import stated_formulas

    today = business_date(scope.docs)
    return next((n for t in stated_formulas(name, docs) if (n := days_after_node(t, scope, today))), None)
