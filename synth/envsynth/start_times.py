"""Whether a record's start time has come, read against the clock the docs state.

Docs that give a business date often give the time of day too ("the desk clock used for notice periods reads
12:00", "the current time is 09:30"). A change may then need a record whose start lies ahead ("Cancels a trip that
has not started", "a trip that has already started cannot be cancelled", "409: ... or has already started") or one
whose start has come ("Closes a trip whose start time has passed", "409: ... or not yet taken place"). The record's
start is its date field and its time field (`HH:MM` values): the time field is the one a `^..:..$` pattern or its
examples show as a time of day (one whose name says "start" first, when there are several), the date field the one
with the same first word ("start_date" for "start_time"), else the one named `date`, else the only date field.

A change allowed "only while at least 48 hours remain before its start" (or "only with at least 48 hours'
notice") needs the start that many hours after the clock, and so does one refused with "less than 48 hours'
notice".

Each reading becomes a `dated` check (date_runtime.fg_dated) with a `time_field`: the record's date and time
against the business date and the clock (plus the notice). Without a stated clock, or when the docs say both
sides, nothing is read.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

CLOCK = re.compile(
    r"\b(?:clock|current\s+time|time\s+of\s+day|time\s+now)\b[^.\n]{0,60}?\b(?:reads|is|shows|says|stands\s+at)\s+"
    r"(?P<time>\d{1,2}:\d{2})\b",
    re.I,
)
STARTED = re.compile(
    r"\b(?:has|have|had)\s+(?:already\s+)?(?:started|begun|taken\s+place)\b"
    r"|\bstart(?:\s+time)?\s+has\s+(?:already\s+)?(?:passed|come)\b",
    re.I,
)
NOT_STARTED = re.compile(
    r"\b(?:has|have)\s+not\s+(?:yet\s+)?(?:started|begun|taken\s+place)\b|\bnot\s+yet\s+(?:started|begun|taken\s+place)\b"
    r"|\bstart(?:\s+time)?\s+has\s+not\s+(?:yet\s+)?(?:passed|come)\b",
    re.I,
)
REFUSAL = re.compile(
    r"\b(?:cannot|can\s*not|can't|may\s+not|must\s+not|refused|refuses|rejected|fails?|errors?)\b|\b4\d\d\s*:", re.I
)
NOTICE = re.compile(
    r"\bonly\s+(?:while|if|when|with)\s+at\s+least\s+(?P<n>\d+)\s*(?:hours?|h)\b(?:['\u2019]?\s*notice|\s+remain|\s+are\s+left)"
    r"|\b(?:less\s+than|under|fewer\s+than)\s+(?P<under>\d+)\s*(?:hours?|h)\b['\u2019]?\s*(?:notice|before)[^.;]*"
    r"\b(?:cannot|can't|can\s+not|is\s+refused|are\s+refused|is\s+not\s+allowed)\b",
    re.I,
)
TIME = re.compile(r"^\d{1,2}:\d{2}$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def clock_time(text: str) -> str | None:
    """The one time of day the docs give their clock (`HH:MM`), or None when they give none or several."""
    found = {m.group("time").zfill(5) for m in CLOCK.finditer(text)}
    return found.pop() if len(found) == 1 else None


PATTERNS = {
    "time": (r"^[0-9]{2}:[0-9]{2}$", r"^\d{2}:\d{2}$"),
    "date": (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", r"^\d{4}-\d{2}-\d{2}$"),
}


def _shown(schema: Any, form: re.Pattern[str], fmt: str) -> bool:
    """Whether a field's schema shows its values in this form: by its format, its pattern or its examples."""
    if not isinstance(schema, dict) or "string" not in str(schema.get("type")):
        return False
    examples = [e for e in schema.get("examples") or [] if isinstance(e, str)]
    if schema.get("format") == fmt or str(schema.get("pattern") or "") in PATTERNS[fmt]:
        return True
    return bool(examples) and all(form.match(e) for e in examples)


def start_fields(own: dict[str, Any]) -> tuple[str, str] | None:
    """(date field, time field) of a record's start, or None when its fields do not show one plainly."""
    times = sorted(f for f, s in own.items() if _shown(s, TIME, "time"))
    if len(times) > 1:
        times = [f for f in times if f.lower().split("_")[0] in ("start", "starts", "begin", "begins")]
    dates = sorted(f for f, s in own.items() if _shown(s, DATE, "date"))
    if len(times) != 1 or not dates:
        return None
    lead = times[0].lower().split("_")[0]
    shared = [f for f in dates if f.lower().split("_")[0] == lead and len(f.split("_")) > 1]
    named = shared or [f for f in dates if f.lower() == "date"] or (dates if len(dates) == 1 else [])
    return (named[0], times[0]) if len(named) == 1 else None


def _wanted(sentence: str) -> set[str]:
    """'ahead' or 'come' for each start reading of one sentence: what a refusal refuses is the other side."""
    refused = REFUSAL.search(sentence) is not None
    out = set()
    if NOT_STARTED.search(sentence):
        out.add("come" if refused else "ahead")
    if STARTED.search(NOT_STARTED.sub(" ", sentence)):
        out.add("ahead" if refused else "come")
    return out


def started_checks(description: str, docs: str, own: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """A `dated` check on the record's start (date and time) against the business date and the clock the docs
    (with the policy) state: ahead of it ("has not started") or come ("whose start time has passed"), as the tool's
    own description says (a policy's sentences speak of other tools as well); and one on the start at least the
    notice it asks for after the clock ("only while at least 48 hours remain before its start")."""
    clock = clock_time(docs) if today else None
    fields = start_fields(own) if clock else None
    if fields is None:
        return []
    wanted: set[str] = set()
    for sentence in re.split(r"(?<=[.;!?])\s+|\n\s*\n", description):
        wanted |= _wanted(" ".join(sentence.split()))
    out = []
    if len(wanted) == 1:
        cmp = ">" if wanted == {"ahead"} else "<="
        out.append(
            {"op": "dated", "field": fields[0], "time_field": fields[1], "cmp": cmp, "value": f"{today} {clock}"}
        )
    hours = {int(m.group("n") or m.group("under")) for m in NOTICE.finditer(" ".join(description.split()))}
    if len(hours) == 1 and wanted != {"come"}:
        now = datetime.strptime(f"{today} {clock}", "%Y-%m-%d %H:%M") + timedelta(hours=hours.pop())
        later = now.strftime("%Y-%m-%d %H:%M")
        out.append({"op": "dated", "field": fields[0], "time_field": fields[1], "cmp": ">=", "value": later})
    return out


__all__ = ["clock_time", "start_fields", "started_checks"]
