"""The fixed date a system's docs work on, when they state one: "the business date is 2031-02-03", "today is the
desk's business date (the sandbox is fixed at 2031-05-14)", a date written in words ("Monday 16 March 2026")."""

from __future__ import annotations

import re

WEEKDAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?"  # "is **Wednesday 2026-03-04**"
# the date right after "business date" / "today" (only linking words, a parenthesis or markup between them)
TODAY = re.compile(
    r"\b(?:business|current|today's|system)\s+date\b(?:\s*\(\W*today\W*\))?"
    r"(?:\s+(?:for|of|at|in)\s+(?:the\s+|our\s+|all\s+)?(?!expiry|issue|birth|renewal|purchase|arrival|departure)\w+"
    r"(?:\s+(?!is\b)\w+){0,2})?"  # "for all desk work is", "for the front desk is"
    r"[\s,:=(*`'\"]*(?:is\s+|of\s+)?[*`'\"]*" + WEEKDAY + r"(\d{4}-\d{2}-\d{2})"
    r"|\btoday[*_`'\"]*\s*(?:is|=|:|\()\s*[*`'\"]*" + WEEKDAY + r"(\d{4}-\d{2}-\d{2})"
    # "today is the desk's business date (the sandbox is fixed at 2031-05-14)": a date the clock is held at
    r"|\b(?:business|current|system)\s+date\b[^.\d]{0,60}?\b(?:fixed|set|frozen|held|pinned)\s+(?:at|to|on)\s+"
    r"(\d{4}-\d{2}-\d{2})",
    re.IGNORECASE,
)


MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
WORDED = re.compile(  # "Monday 16 March 2026", "16th March, 2026", "March 16, 2026", "Mon, March 16th 2026"
    r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+|(?:mon|tue|wed|thu|fri|sat|sun),?\s+)?"
    r"(?:(?P<d1>\d{1,2})(?:st|nd|rd|th)?\s+(?P<m1>[a-z]{3})[a-z]*\.?|(?P<m2>[a-z]{3})[a-z]*\.?\s+"
    r"(?P<d2>\d{1,2})(?:st|nd|rd|th)?),?\s+(?P<y>\d{4})\b",
    re.IGNORECASE,
)


def _iso(m: re.Match[str]) -> str:
    month = (m.group("m1") or m.group("m2")).lower()
    day = int(m.group("d1") or m.group("d2"))
    if month not in MONTHS or not 1 <= day <= 31:
        return m.group(0)
    return f"{m.group('y')}-{MONTHS.index(month) + 1:02d}-{day:02d}"


def business_date(text: str) -> str | None:
    """The fixed date the docs work on, when they state one (and only one); a date written in words ("Monday 16
    March 2026") reads as its ISO form."""
    text = WORDED.sub(_iso, text)
    dates = {next(d for d in found if d) for found in TODAY.findall(text)}
    return dates.pop() if len(dates) == 1 else None


NOW = re.compile(  # "*now* is **2026-03-04 10:00**", "now: 2026-03-04T10:00"
    r"\bnow\b[*_`'\"]*\s*(?:is|=|:)\s*[*`'\"]*" + WEEKDAY + r"\d{4}-\d{2}-\d{2}(?:T|\s+(?:at\s+)?)(\d{1,2}:\d{2})\b",
    re.IGNORECASE,
)
AFTER_DATE = re.compile(r"[*`'\"]*\s*(?:,\s*|\s+at\s+|T)?(\d{1,2}:\d{2})\b")  # "**2026-03-04**, 10:00 district time"


def business_time(text: str) -> str | None:
    """The time of day the docs' fixed clock stands at, `HH:MM`, when they state one (and only one) beside the
    business date ("now is 2031-02-03 10:00", "the business date is 2031-02-03, 10:00 local time")."""
    text = WORDED.sub(_iso, text)
    times = {m.group(1) for m in NOW.finditer(text)}
    for m in TODAY.finditer(text):
        after = AFTER_DATE.match(text, m.end())
        if after:
            times.add(after.group(1))
    times = {t.zfill(5) for t in times if int(t.split(":")[0]) < 24 and int(t.split(":")[1]) < 60}
    return times.pop() if len(times) == 1 else None


MOMENT = re.compile(r"^\d{4}-\d{2}-\d{2}([T ])\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$")


def moment_field(schema: object) -> bool:
    """A field of timestamps (date and time): `format: date-time`, or examples that all read so."""
    if not isinstance(schema, dict):
        return False
    examples = [e for e in schema.get("examples") or [] if e is not None]
    if schema.get("format") == "date-time":
        return True
    return bool(examples) and all(isinstance(e, str) and MOMENT.match(e) for e in examples)


def moment(day: str, clock: str, schema: object) -> str:
    """The business date at the business time in the form the field's examples show (`2031-02-03T10:00`,
    `2031-02-03 10:00:00Z`, ...; `T` and minutes when they show none)."""
    examples = schema.get("examples") if isinstance(schema, dict) else None
    shown = next((MOMENT.match(e) for e in examples or [] if isinstance(e, str) and MOMENT.match(e)), None)
    if shown is None:
        return f"{day}T{clock}"
    sep, seconds, fraction, zone = shown.groups()
    fraction = "." + "0" * (len(fraction) - 1) if fraction else ""
    return f"{day}{sep}{clock}{':00' if seconds else ''}{fraction}{zone or ''}"
