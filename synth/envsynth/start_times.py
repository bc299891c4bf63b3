"""Whether a record's start time has come, read against the clock the docs state.

Docs that give a business date often give the time of day too ("the desk clock used for notice periods reads
12:00", "the current time is 09:30", "it is now 2:30 pm"). A change may then need a record whose start lies ahead
("Cancels a trip that has not started", "a trip that has already started cannot be cancelled", "409: ... or has
already started", "can only be cancelled before it starts") or one whose start has come ("Closes a trip whose start
time has passed", "409: ... or not yet taken place", "fails unless the trip has started"). The record's start is
its date field and its time field (`HH:MM` values): the time field is the one its format, pattern or examples show
as a time of day (one whose name says "start" first, when there are several; never one that says the end), the
date field the one with the same first word ("start_date" for "start_time"), else the one named `date`, else the
only date field.

Only the tool's own description is read for the side, and only its sentences that state the rule: the one saying
what the tool does ("Closes a trip whose ..."), "only ...", and refusals ("cannot", "is not allowed", "Returns 409
if ..."), where "unless" and "until" turn a refusal around. A sentence saying what follows ("... forfeits the
deposit", "If the trip has not started, ...", "whether or not") states no rule, nor does a refusal of starting again
in a tool that starts the record (that is its state, not the clock).

A change allowed "only while at least 48 hours remain before its start" (or "only with at least 2 days' notice",
"up to 48 hours before its start") needs the start that many hours after the clock, and so does one refused with
"less than 48 hours' notice" or "within 48 hours of its start" (not a sentence about a refund or a fee).

Each reading becomes a `dated` check (date_runtime.fg_dated) with a `time_field`: the record's date and time
against the business date and the clock (plus the notice). Without a stated clock, or when the docs say both
sides, nothing is read.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

HOUR = r"(?P<time{0}>\d{{1,2}}:\d{{2}})(?::\d{{2}})?(?:\s*(?P<half{0}>[ap])\.?m\.?(?![a-z]))?"
CLOCK = re.compile(
    r"\b(?:(?<!hour\s)(?<!hour-)clock|current\s+time|time\s+of\s+day|time\s+now)\b[^.;\n]{0,60}?"
    r"\b(?:reads|is|shows|says|stands\s+at|is\s+set\s+to|is\s+fixed\s+at)\s+(?:\d{4}-\d{2}-\d{2}T)?"
    + HOUR.format("")
    + r"|\bit\s+is\s+now\s+"
    + HOUR.format("2"),
    re.I,
)
STARTED = re.compile(
    r"\b(?:has|have|had)\s+(?:already\s+)?(?:started|begun|taken\s+place)\b"
    r"|\b(?:start|departure)(?:\s+time)?\s+(?:has\s+(?:already\s+)?(?:passed|come)|is\s+in\s+the\s+past)\b",
    re.I,
)
NOT_STARTED = re.compile(
    r"\b(?:has|have)\s+not\s+(?:yet\s+)?(?:started|begun|taken\s+place)\b|\bnot\s+yet\s+(?:started|begun|taken\s+place)\b"
    r"|\b(?:start|departure)(?:\s+time)?\s+has\s+not\s+(?:yet\s+)?(?:passed|come)\b"
    r"|\bonly\b[^.;]*\bbefore\s+(?:it|they)\s+(?:starts?|begins?)\b",
    re.I,
)
REFUSAL = re.compile(
    r"\b(?:cannot|can\s*not|can't|can\s+no\s+longer|may\s+not|must\s+not|refused|refuses|rejected|fails?|errors?)\b"
    r"|\bis\s+not\s+allowed\b|\bare\s+not\s+allowed\b|\b4\d\d\b",
    re.I,
)
TURNED = re.compile(r"\b(?:unless|until)\b", re.I)  # "fails unless it has started": the refusal turned around
CONSEQUENCE = re.compile(r"^\s*if\b|\bwhether\s+or\s+not\b|\bforfeits?\b|\bis\s+accepted\b", re.I)
ACTION = re.compile(r"^\s*(?:[A-Z][a-z]+s)\b")  # "Closes a trip whose ...": what the tool does
RESTARTED = re.compile(r"\b(?:cannot|can't|can\s*not)\s+be\s+(?:started|begun)\b", re.I)
NOTICE = re.compile(
    r"\bonly\s+(?:while|if|when|with)\s+at\s+least\s+(?P<n>\d+)\s*(?P<unit>hours?|h|days?)\b"
    r"(?:['\u2019]?\s*notice|\s+remain|\s+are\s+left)"
    r"|\bup\s+to\s+(?P<upto>\d+)\s*(?P<unit2>hours?|h|days?)\s+before\s+(?:its|their|the)\s+(?:\w+\s+)?start\b"
    r"|\b(?:less\s+than|under|fewer\s+than)\s+(?P<under>\d+)\s*(?P<unit3>hours?|h|days?)\b['\u2019]?\s*"
    r"(?:notice|before)[^.;]*\b(?:cannot|can't|can\s+not|is\s+refused|are\s+refused|is\s+not\s+allowed)\b"
    r"|\b(?:cannot|can't|can\s+not)\s+be\s+\w+\s+within\s+(?P<within>\d+)\s*(?P<unit4>hours?|h|days?)\s+of\b",
    re.I,
)
ABOUT_MONEY = re.compile(r"\b(?:refund\w*|paid\s+back|deposit|fee|charged?|credit)\b", re.I)
TIME = re.compile(r"^\d{1,2}:\d{2}(?::\d{2})?$")
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ENDS = ("end", "ends", "finish", "finishes", "close", "closes", "return", "returns", "stop")


def clock_time(text: str) -> str | None:
    """The one time of day the docs give their clock (`HH:MM`, 24-hour), or None when they give none or several."""
    found = set()
    for m in CLOCK.finditer(text):
        time, half = (m.group("time"), m.group("half")) if m.group("time") else (m.group("time2"), m.group("half2"))
        hours, minutes = (int(x) for x in time.split(":"))
        if half and half.lower() == "p" and hours < 12:
            hours += 12
        elif half and half.lower() == "a" and hours == 12:
            hours = 0
        found.add(f"{hours:02d}:{minutes:02d}")
    return found.pop() if len(found) == 1 else None


def _shown(schema: Any, fmt: str) -> bool:
    """Whether a field's schema shows its values as times of day (`time`) or dates (`date`): by its format, by a
    pattern that fits a sample value of that form and not the other, or by its examples."""
    if not isinstance(schema, dict) or "string" not in str(schema.get("type")):
        return False
    samples = {"time": "10:00", "date": "2026-01-01"}
    other = "date" if fmt == "time" else "time"
    pattern = str(schema.get("pattern") or "")
    if schema.get("format") == fmt:
        return True
    try:
        if pattern and re.search(pattern, samples[fmt]) and not re.search(pattern, samples[other]):
            return True
    except re.error:
        pass
    examples = [e for e in schema.get("examples") or [] if isinstance(e, str)]
    return bool(examples) and all((TIME if fmt == "time" else DATE).match(e) for e in examples)


def start_fields(own: dict[str, Any]) -> tuple[str, str] | None:
    """(date field, time field) of a record's start, or None when its fields do not show one plainly."""
    times = sorted(f for f, s in own.items() if _shown(s, "time") and f.lower().split("_")[0] not in ENDS)
    if len(times) > 1:
        times = [f for f in times if f.lower().split("_")[0] in ("start", "starts", "begin", "begins")]
    dates = sorted(f for f, s in own.items() if _shown(s, "date"))
    if len(times) != 1 or not dates:
        return None
    lead = times[0].lower().split("_")[0]
    shared = [f for f in dates if f.lower().split("_")[0] == lead and len(f.split("_")) > 1]
    named = shared or [f for f in dates if f.lower() == "date"] or (dates if len(dates) == 1 else [])
    return (named[0], times[0]) if len(named) == 1 else None


def _wanted(sentence: str) -> set[str]:
    """'ahead' or 'come' for each start reading of one sentence that states a rule: what a refusal refuses is the
    other side ("unless" / "until" turn it around)."""
    if CONSEQUENCE.search(sentence) or RESTARTED.search(sentence):
        return set()
    refusal = REFUSAL.search(sentence)
    if not refusal and not ACTION.match(sentence) and not re.search(r"\bonly\b", sentence, re.I):
        return set()
    turned = refusal is not None and TURNED.search(sentence[refusal.end() :]) is not None
    refused = refusal is not None and not turned
    out = set()
    if NOT_STARTED.search(sentence):
        out.add("come" if refused else "ahead")
    if STARTED.search(NOT_STARTED.sub(" ", sentence)):
        out.add("ahead" if refused else "come")
    return out


def _notice_hours(description: str) -> set[int]:
    """The hours of notice the description's rule sentences ask for (days count 24 hours); none from a sentence
    about a refund, a deposit or a fee."""
    out = set()
    for sentence in re.split(r"(?<=[.;!?])\s+", " ".join(description.split())):
        for m in NOTICE.finditer(sentence) if not ABOUT_MONEY.search(sentence) else ():
            n = m.group("n") or m.group("upto") or m.group("under") or m.group("within")
            unit = m.group("unit") or m.group("unit2") or m.group("unit3") or m.group("unit4")
            out.add(int(n) * (24 if unit.lower().startswith("d") else 1))
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
        now = f"{today} {clock}"
        out.append({"op": "dated", "field": fields[0], "time_field": fields[1], "cmp": cmp, "value": now})
    hours = _notice_hours(description)
    if len(hours) == 1 and wanted != {"come"}:
        later = datetime.strptime(f"{today} {clock}", "%Y-%m-%d %H:%M") + timedelta(hours=hours.pop())
        value = later.strftime("%Y-%m-%d %H:%M")
        out.append({"op": "dated", "field": fields[0], "time_field": fields[1], "cmp": ">=", "value": value})
    return out


__all__ = ["clock_time", "start_fields", "started_checks"]
