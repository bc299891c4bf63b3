"""The dates a date parameter's own description allows: "a weekday after today, at most 30 days ahead".

A parameter is a date one when its schema says `format: date`, its name ends in "date" or its description gives
the form `YYYY-MM-DD`. Its description may say
- "weekday" / "working day" / "not on a weekend": the date is Monday to Friday;
- "after today" / "after the business date" / "in the future": later than the business date;
- "today or later" / "not in the past" / "on or after today": not before it;
- "at most N days ahead" / "within N days" / "no more than N days ahead": at most N days after it;
- "between the business date and N days after it": not before it and at most N days after it.
The tool's description may say the same in a clause naming the parameter by its words ("The new expiry date must be
in the future", "the sail-on date must be between today and 30 days ahead"). Each becomes an `arg_date` check
(expr_runtime.fg_check) against the business date the docs state.
A parameter whose description gives the form `HH:MM` (or whose schema says `format: time`) takes a time of day on
the 24-hour clock, two digits each side (`arg_clock`). An error that refuses a weekend ("`... is a weekend; the
dock is open Monday to Friday`") holds the one date parameter to weekdays.
"""

from __future__ import annotations

import re
from typing import Any

FORMS = (
    (re.compile(r"\b(?:week\s?days?|working\s+days?|not\s+(?:on\s+)?(?:a\s+)?weekends?)\b", re.I), {"cmp": "weekday"}),
    (
        re.compile(
            r"\b(?:(?<!\bor\s)after\s+(?:today|the\s+business\s+date)|later\s+than\s+(?:today|the\s+business\s+date)|"
            r"in\s+the\s+future)\b",
            re.I,
        ),
        {"cmp": ">"},
    ),
    (re.compile(r"\b(?:today\s+or\s+later|not\s+in\s+the\s+past|on\s+or\s+after\s+today)\b", re.I), {"cmp": ">="}),
)
AHEAD = re.compile(
    r"\b(?:at\s+most|no\s+more\s+than|within|up\s+to)\s+(\d+)\s+days(?:\s+(?:ahead|after\s+today|from\s+today))?\b",
    re.I,
)


WEEKEND = re.compile(
    r"\b(?:is|falls\s+on)\s+(?:a|on\s+a)\s+(?:weekend|Saturday|Sunday)\b|\bMonday\s+(?:to|through|-)\s+Friday\b"
    r"|\bdo(?:es)?\s+not\s+work\s+(?:on\s+)?weekends\b",
    re.I,
)


BETWEEN = re.compile(  # "between the business date and 30 days after it": from today to N days ahead, both included
    r"\bbetween\s+(?:today|the\s+business\s+date)\s+and\s+(\d+)\s+days\s+"
    r"(?:after\s+(?:it|that|today|the\s+business\s+date)|ahead|later)\b",
    re.I,
)


def _is_date(name: str, schema: Any) -> bool:
    return isinstance(schema, dict) and (
        schema.get("format") == "date"
        or name.lower().endswith("date")
        or "YYYY-MM-DD" in str(schema.get("description"))
    )


def described_dates(params: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """`arg_date` checks for what each date parameter's description allows."""
    if not today:
        return []
    out: list[dict[str, Any]] = []
    for name, schema in sorted(params.items()):
        said = str(schema.get("description") or "") if _is_date(name, schema) else ""
        if not said:
            continue
        between = BETWEEN.search(said)
        said = BETWEEN.sub(" ", said)  # "between today and 30 days after today" is no "after today"
        for form, made in FORMS:
            if form.search(said):
                out.append({"op": "arg_date", "arg": name, "today": today, **made})
        if between:
            out.append({"op": "arg_date", "arg": name, "today": today, "cmp": ">="})
            out.append({"op": "arg_date", "arg": name, "today": today, "cmp": "<=", "days": int(between.group(1))})
        ahead = None if between else AHEAD.search(said)
        if ahead:
            out.append({"op": "arg_date", "arg": name, "today": today, "cmp": "<=", "days": int(ahead.group(1))})
    return out


CLOCK = re.compile(r"(?<![T\w:-])HH:MM(?!:SS)\b", re.I)  # "HH:MM, 24-hour clock"; not "HH:MM:SS", "DDTHH:MM"


def described_clocks(params: dict[str, Any]) -> list[dict[str, Any]]:
    """`arg_clock` checks for each parameter whose description gives the form `HH:MM` (or whose format is time)."""
    return [
        {"op": "arg_clock", "arg": name}
        for name, schema in sorted(params.items())
        if isinstance(schema, dict)
        and schema.get("type") in (None, "string")
        and (CLOCK.search(str(schema.get("description") or "")) or schema.get("format") == "time")
    ]


def said_dates(text: str, params: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """`arg_date` checks for what the tool's description says a date parameter must be, in the clause that names
    it by its words: "The new expiry date must be in the future and ..." (up to the clause's comma or semicolon)."""
    if not today:
        return []
    out: list[dict[str, Any]] = []
    for name, schema in sorted(params.items()):
        if not _is_date(name, schema):
            continue
        spelt = "[ -]".join(re.escape(w) for w in name.split("_"))  # "sail-on date" for `sail_on_date`
        words = rf"`?(?:{re.escape(name)}|{spelt})`?"
        named = rf"\b{words},?\s+(?:which\s+)?must\s+(not\s+)?be\b([^,;.]*)"
        for said in re.finditer(named, text, re.I):
            clause = ("not " if said.group(1) else "") + said.group(2)  # "must not be in the past": "not in the past"
            made_here = [made for form, made in (FORMS[2:] if said.group(1) else FORMS[1:]) if form.search(clause)]
            between = None if said.group(1) else BETWEEN.search(clause)  # "between today and 30 days ahead"
            ahead = None if said.group(1) or between else AHEAD.search(clause)
            if between:
                made_here = [{"cmp": ">="}, {"cmp": "<=", "days": int(between.group(1))}]
            elif ahead:
                made_here.append({"cmp": "<=", "days": int(ahead.group(1))})
            for made in made_here:  # a weekday is the description's to say
                check = {"op": "arg_date", "arg": name, "today": today, **made}
                if check not in out:
                    out.append(check)
    return out


def error_weekdays(text: str, params: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """A weekday check on the one date parameter when the docs' errors refuse a weekend ("`... is a weekend; the
    dock is open Monday to Friday`", "crews do not work weekends")."""
    dates = [p for p, s in sorted(params.items()) if _is_date(p, s)]
    if len(dates) != 1 or not today or not WEEKEND.search(text):
        return []
    return [{"op": "arg_date", "arg": dates[0], "today": today, "cmp": "weekday"}]


PASSED = re.compile(
    r"`(?P<value>[\w-]+)`\s*\(\s*only\s+(?:once|after|when)\s+the\s+(?P<words>[a-z][a-z ]{0,30}?)\s+has\s+passed\s*\)",
    re.I,
)


ITEM = re.compile(r"(?:^|\s)-\s+`(?P<value>[\w-]+)`\s*:")
ON_OR = re.compile(
    r"\b(?:can|may)\s+only\s+be\s+[a-z]+\s+on\s+or\s+(?P<side>after|before)\s+(?:its|the\s+[a-z]+['\u2019]s)\s+"
    r"`(?P<field>\w+)`",
    re.I,
)


def _values(schema: Any) -> list[str]:
    """The values a parameter takes: its enum, else those its description quotes ("`landed` or `lost`")."""
    schema = schema if isinstance(schema, dict) else {}
    return schema.get("enum") or re.findall(r"`([\w-]+)`", str(schema.get("description") or ""))


def value_dates(text: str, params: dict[str, Any], own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """A `dated` check for an argument value allowed only once a date of the record has passed ("`no_show` (only
    once the start date has passed)"): the record's date before the business date, when the argument holds it; and
    one a value's item allows only on or after (before) a date of the record ("- `landed`: ... can only be recorded
    on or after its `eta`"): that date on or before (after) the business date."""
    out: list[dict[str, Any]] = []
    for m in PASSED.finditer(text) if today else []:
        holders = [p for p, s in sorted(params.items()) if m.group("value") in ((s or {}).get("enum") or [])]
        field = "_".join(m.group("words").lower().split())
        if len(holders) == 1 and isinstance(own.get(field), dict):
            when = {"arg": holders[0], "in": [m.group("value")]}
            out.append({"op": "dated", "field": field, "cmp": "<", "value": today, "when": when})
    paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", text)] if today else []
    items = [(flat, list(ITEM.finditer(flat))) for flat in paragraphs]  # an item ends at the next or a blank line
    for flat, m, after in [(flat, m, a) for flat, heads in items for m, a in zip(heads, heads[1:] + [None])]:
        body = flat[m.end() : after.start() if after else None]  # "- `landed`: ... only ... on or after its `eta`"
        holders = [p for p, s in sorted(params.items()) if m.group("value") in _values(s)]
        for said in ON_OR.finditer(body):
            if len(holders) == 1 and isinstance(own.get(said.group("field")), dict):
                when = {"arg": holders[0], "in": [m.group("value")]}
                cmp = "<=" if said.group("side").lower() == "after" else ">="
                out.append({"op": "dated", "field": said.group("field"), "cmp": cmp, "value": today, "when": when})
    return out


__all__ = ["described_dates", "error_weekdays", "said_dates", "value_dates"]
