"""Figures of a priced stay or hire read from its two dates (formula_rules.py builds the quote):

- the length: `nights` / `rental_days` is the number of days from the first date parameter to the second ("nights
  run from the arrival date up to, not including, the departure date"), or a formula says so ("Rental days =
  end_date - start_date");
- a calendar rate: "each night is surcharged by the month it falls in: 20% of the nightly fee for nights in June,
  July and August; 10% for nights in May and September" or "every rental day that falls on a Saturday or Sunday
  costs 15% more, i.e. weekend days x 15% of the daily rate": a sum over the days of each day's percent (by its
  month or weekday) of one figure.

Nodes (formula_runtime.fg_formula): {"days_between": [from, to]} and {"calendar": {"from", "to", "months" |
"weekdays": {number: percent}, "of": figure}}.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from synth.envsynth.figure_terms import param_default, spoken

MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
STARTS = {"start", "from", "arrival", "arrive", "arriving", "check_in", "checkin", "begin", "pickup", "first", "in"}
ENDS = {"end", "to", "until", "departure", "depart", "departing", "check_out", "checkout", "return", "last", "out"}
LENGTH_WORDS = {"rental", "stay", "total", "number", "of", "num", "n", "billable", "hire", "trip", "booked", "charged"}
KINDS_OF_DAY = {"weekend": (5, 6), "weekday": (0, 1, 2, 3, 4), "working": (0, 1, 2, 3, 4)}
PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*(?:%|percent\b)", re.I)
BASE = re.compile(r"\d\s*(?:%|percent)\s+of\s+(?:the\s+)?([\w' -]+?)(?=\s+(?:for|on|in|per|when)\b|[,;.)]|$)", re.I)


def _is_date(name: str, schema: Any) -> bool:
    if not isinstance(schema, dict) or schema.get("type") not in ("string", None):
        return False
    said = str(schema.get("description") or "")
    return schema.get("format") == "date" or "YYYY-MM-DD" in said or bool(re.search(r"(?:^|_)date$", name))


def date_pair(params: dict[str, Any]) -> tuple[str, str] | None:
    """(first, second) of the two date parameters that bound a span: by their names' words (arrival / departure,
    start_date / end_date), else in the order the tool lists them; None unless there are exactly two."""
    dates = [p for p, s in params.items() if _is_date(p, s)]
    if len(dates) != 2:
        return None
    words = [set(p.lower().split("_")) | {p.lower().removesuffix("_date")} for p in dates]
    if words[1] & STARTS and words[0] & ENDS:
        return dates[1], dates[0]
    return dates[0], dates[1]


def _arg(params: dict[str, Any], name: str) -> dict[str, Any]:
    return {"arg": name, "default": param_default(params[name])}


def span_node(name: str, params: dict[str, Any], text: str) -> dict[str, Any] | None:
    """The length of the stay a figure named `nights` / `days` (`rental_days`, `number_of_nights`) is, between the
    two date parameters, or how many of those days are weekend days or weekdays (`weekend_days`); None for other
    names or without the pair."""
    words = name.lower().split("_")
    pair = date_pair(params)
    if words[-1] not in ("nights", "days") or pair is None:
        return None
    kind = KINDS_OF_DAY.get("_".join(words[:-1]))
    if kind is not None:  # `weekend_days`: how many of the days are such days
        days = {str(d): 1 for d in kind}
        return {
            "calendar": {"from": _arg(params, pair[0]), "to": _arg(params, pair[1]), "weekdays": days, "amount": True}
        }
    if not set(words[:-1]) <= LENGTH_WORDS:
        return None
    said = re.search(rf"\b{spoken(name)}\**\s*(?:=|is)\s*`?(\w+)`?\s*-\s*`?(\w+)`?", text, re.I)
    if said and {said.group(1), said.group(2)} == set(pair):  # "Rental days = end_date - start_date"
        pair = (said.group(2), said.group(1))
    return {"days_between": [_arg(params, pair[0]), _arg(params, pair[1])]}


def definition_text(name: str, text: str) -> str:
    """The bullet or sentence group that opens with the figure's name ("- peak_surcharge: ...", "**Weekend
    surcharge**: ..."), up to the next bullet or blank line."""
    found = re.search(rf"\b{spoken(name)}\**\s*:\s*(.+?)(?=\n\s*(?:[-*]|\d+\.)\s|\n\s*\n|$)", text, re.I | re.S)
    return found.group(1) if found else ""


def _named_days(clause: str) -> tuple[str, dict[str, int]]:
    """("months" | "weekdays", {number: 1}) of the days a clause names: months by name, weekdays by name, or the
    weekend; ("", {}) when it names none."""
    low = clause.lower()
    months = {str(i + 1): 1 for i, m in enumerate(MONTHS) if re.search(rf"\b{m}\b", low)}
    if months:
        return "months", months
    days = {str(i): 1 for i, d in enumerate(WEEKDAYS) if re.search(rf"\b{d}s?\b", low)}
    if re.search(r"\bweekends?\b", low):
        days.update({"5": 1, "6": 1})
    return ("weekdays", days) if days else ("", {})


def calendar_node(
    name: str, text: str, params: dict[str, Any], operand: Callable[[str], dict[str, Any] | None]
) -> dict[str, Any] | None:
    """A surcharge by the days' months or weekdays: each clause of the figure's definition gives a percent and the
    days it applies to, all as a share of the one figure named after "% of"; None when the definition names no
    days, gives no base, or mixes months and weekdays."""
    body = definition_text(name, text)
    pair = date_pair(params)
    if not body or pair is None:
        return None
    rates: dict[str, dict[str, float | int]] = {}
    for clause in re.split(r";|\.\s+", body):
        pct = PERCENT.search(clause)
        kind, days = _named_days(clause)
        if pct is None or not kind:
            continue
        value = float(pct.group(1)) if "." in pct.group(1) else int(pct.group(1))
        rates.setdefault(kind, {}).update({d: value for d in days})
    base = BASE.search(body)
    if len(rates) != 1 or base is None:
        return None
    of = operand(base.group(1))
    if of is None:
        return None
    kind, table = next(iter(rates.items()))
    return {"calendar": {"from": _arg(params, pair[0]), "to": _arg(params, pair[1]), kind: table, "of": of}}


__all__ = ["calendar_node", "date_pair", "definition_text", "span_node"]
