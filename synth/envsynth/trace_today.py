"""The business date a real system works on, learned from its recorded calls (--traces) when the docs never say it.

A system with a fixed clock stamps the same date into what its writes create or change: a `created` field, a
history entry, a cancellation's date. So among the dates (YYYY-MM-DD) the recorded successful writes set, leaving
out those the call was given as arguments and those the changed place already held, one date that most of them
set, and far more often than any other date, is the business date. Dates copied from other records (a voyage's
sailing date written onto a charter) vary from call to call and lose to it; with no clear winner nothing is
learned.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from synth.envsynth.traces import parse_pointer

DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
MIN_CALLS = 2  # one call is a coincidence
MIN_SHARE = 0.5  # of the writes that set any new date
MIN_LEAD = 2.0  # times as many calls as the runner-up


def _dates(value: Any, out: set[str]) -> None:
    if isinstance(value, dict):
        for item in value.values():
            _dates(item, out)
    elif isinstance(value, list):
        for item in value:
            _dates(item, out)
    elif isinstance(value, str) and DATE.match(value):
        out.add(value)


def _held(state: dict[str, Any], pointer: str) -> Any:
    """The value at a JSON pointer of the state before the call (None where there is none)."""
    node: Any = state
    for part in parse_pointer(pointer) if pointer.startswith("/") else []:
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def recorded_business_date(calls: list[Any]) -> str | None:
    """The date most successful recorded writes set that none of them was given, when one clearly leads; `calls`
    are TraceCalls (arguments, ok, changes)."""
    counts: Counter[str] = Counter()
    dated = 0
    for call in calls:
        if not call.ok or not call.changes:
            continue
        written: set[str] = set()
        for change in call.changes:
            if not change.get("deleted"):
                new, held = set(), set()
                _dates(change.get("value"), new)
                _dates(_held(getattr(call, "state", None) or {}, change.get("path", "")), held)
                written |= new - held  # a date the record already held, written back unchanged, is no stamp
        given: set[str] = set()
        _dates(call.arguments, given)
        new = written - given
        if new:
            dated += 1
            counts.update(new)
    if not counts:
        return None
    (best, n), *rest = counts.most_common(2) + [("", 0)]
    runner_up = rest[0][1]
    if n < MIN_CALLS or n < MIN_SHARE * dated or n < MIN_LEAD * runner_up:
        return None
    return best


def business_date_line(date: str) -> str:
    """The sentence the learned date joins the policy with (docs_entries.business_date reads it)."""
    return f"The business date is fixed at {date} (learned from the recorded calls)."


__all__ = ["business_date_line", "recorded_business_date"]
