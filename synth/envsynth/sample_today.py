"""The business date a data sample implies, when neither the docs nor recorded calls state one.

A sample is a snapshot of a system taken on its business date: what its records say has already happened is
stamped on or before that day. The stamps read are fields named by one past participle (`created`, `opened_on`,
`submitted_at`, `logged_date`, `date_created`, `last_updated`; not `scheduled`, `rescheduled`, `expected` or
`requested`, which may lie ahead) and the dates of entries in a record's log-like list (`history`, `log`, `events`,
...); a year from 2900 on (`9999-12-31`) stands for "never" and is no stamp. The latest stamp is the last day the sample
saw something happen; the business date is taken as the day after it, the snapshot's morning (on fifteen systems
whose docs state their date it lay 0 to 7 days after the latest stamp, most often 1). Without stamps nothing is
implied: a sample of catalogues and plans says nothing about its clock.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

STAMP_VALUE = re.compile(r"^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$")
PARTICIPLE = re.compile(r"^[a-z]{3,}ed$")
AHEAD = {  # participles a record may hold for a day still to come
    "scheduled", "rescheduled", "expected", "planned", "requested", "preferred", "booked", "needed", "estimated",
    "proposed", "intended", "desired", "reserved", "required", "allowed", "limited", "promised", "targeted",
    "projected", "postponed", "deferred",
}  # fmt: skip
DATE_SUFFIXES = {"at", "on", "date", "day", "time"}
LEADS = {"date", "last", "first", "time"}  # `date_created`, `last_updated`
SENTINEL_YEAR = 2900  # 9999-12-31 and the like stand for "never", not a day that happened
LOG_LISTS = {"history", "log", "logs", "events", "activity", "timeline", "audit", "changes", "updates", "actions"}
ENTRY_DATES = {"date", "at", "on", "timestamp", "time", "when"}


def _stamp_field(name: str) -> bool:
    """A field named by one past participle, with an optional date suffix (`created`, `opened_on`)."""
    words = [w for w in re.split(r"[_\W]+|(?<=[a-z])(?=[A-Z])", name) if w]
    words = [w.lower() for w in words]
    if len(words) == 2 and words[1] in DATE_SUFFIXES:
        words = words[:1]
    elif len(words) == 2 and words[0] in LEADS:
        words = words[1:]
    return len(words) == 1 and bool(PARTICIPLE.match(words[0])) and words[0] not in AHEAD


def _collect(node: Any, out: list[str], in_log: bool = False) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            found = STAMP_VALUE.match(value) if isinstance(value, str) else None
            if found:
                if _stamp_field(str(key)) or (in_log and str(key).lower() in ENTRY_DATES):
                    out.append(found.group(1))
            elif isinstance(value, list):
                log = str(key).lower() in LOG_LISTS
                for item in value:
                    _collect(item, out, log)
            else:
                _collect(value, out)
    elif isinstance(node, list):
        for item in node:
            _collect(item, out, in_log)


def sampled_business_date(state: Any) -> str | None:
    """The day after the latest date the sample's records stamp as past (None without stamps)."""
    stamps: list[str] = []
    _collect(state, stamps)
    valid = []
    for stamp in stamps:
        try:
            day = dt.date.fromisoformat(stamp)
        except ValueError:
            continue
        if day.year < SENTINEL_YEAR:
            valid.append(day)
    if not valid:
        return None
    return (max(valid) + dt.timedelta(days=1)).isoformat()


def sampled_date_line(date: str) -> str:
    """The sentence the implied date joins the policy with (docs_entries.business_date reads it)."""
    return f"The business date is set to {date} (the day after the latest date the data sample's records stamp)."


__all__ = ["sampled_business_date", "sampled_date_line"]
