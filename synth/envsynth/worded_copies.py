"""Fields a new record copies from a record it names, as the docs word it: "`day_rate` locked at the pier's
current rate", "`class` copied from the boat's class" ("taken from" is not read: a fee taken from a credit is a
debit). The noun names the record through the new record's link to it (create_checks.noun_link); the source is the
field the words name (as written, or the one field of that record whose name holds the word). Each is a `copied`
effect ({field, via, collection, source}), like data_copies', which the sample can only confirm when no value moved
since; "`start_date` = the later of the pier's start and the business date" adds `not_before` (the business date).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import record_props as _props

COPIED = re.compile(
    r"`?(?P<field>\w+)`?\s+(?:is\s+)?(?:locked|fixed|frozen|copied|set)\s+(?:at|to|from)\s+the\s+"
    r"(?P<noun>[a-z]\w*)['\u2019]s\s+(?:current\s+|own\s+)?`?(?P<source>\w+)`?",
    re.I,
)

LATER_OF = re.compile(
    r"`?(?P<field>\w+)`?\s*(?:=|is)\s*the\s+later\s+of\s+the\s+(?P<noun>[a-z]\w*)(?:['\u2019]s)?\s+`?(?P<source>\w+)`?"
    r"\s+and\s+(?:the\s+business\s+date|today)",
    re.I,
)


def _source(theirs: dict[str, Any], word: str) -> str | None:
    if word in theirs:
        return word
    hits = [f for f in sorted(theirs) if word.lower() in f.lower().split("_")]
    return hits[0] if len(hits) == 1 else None


def worded_copies(
    text: str, own: dict[str, Any], cols: dict[str, Any], skip: set[str], today: str | None = None
) -> list[dict[str, Any]]:
    """The `copied` effects the docs' words give, for the record's fields not in `skip` ("`start_date` = the later of
    the pier's start and the business date": the pier's `start_date`, never before `today`)."""
    from synth.envsynth.create_checks import noun_link  # create_checks reads create_rules, which reads this

    out: list[dict[str, Any]] = []
    for m in [*COPIED.finditer(text), *(LATER_OF.finditer(text) if today else [])]:
        field = m.group("field")
        link = noun_link(m.group("noun"), own, cols)
        if field not in own or field in skip or link is None or any(e["field"] == field for e in out):
            continue
        source = _source(_props(cols, link[1]), m.group("source"))
        if source:
            out.append({"op": "copied", "field": field, "via": link[0], "collection": link[1], "source": source})
            out[-1].update({"not_before": today} if m.re is LATER_OF else {})
    return out


def with_worded(
    text: str,
    own: dict[str, Any],
    cols: dict[str, Any],
    skip: set[str],
    copies: list[dict[str, Any]],
    today: Any,
    initial: dict[str, Any],
) -> list[dict[str, Any]]:
    """The worded copies, then the sample's copies of the other fields. A date `initial` gave the business date only
    because nothing set it (made_dates.made_on) is the worded copy's to set, and leaves `initial`."""
    dated = {f for f, v in initial.items() if today and v == today}
    worded = worded_copies(text, own, cols, skip - dated, today)
    for effect in worded:
        initial.pop(effect["field"], None)
    return worded + [c for c in copies if all(c["field"] != w["field"] for w in worded)]


__all__ = ["with_worded", "worded_copies"]
