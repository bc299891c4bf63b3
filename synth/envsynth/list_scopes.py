"""Which records a list or search answers, as its docs say beyond its own fields and parameters:

- through a linked record's state: "Berths of piers that are closed for repairs are not listed" leaves out the
  records whose `pier_id` names a pier in a state the sentence names (`closed`, a known value of the pier's one
  closed field holding it);
- from the business date on: "Lists the tide windows from today onward" keeps records whose one date field is the
  business date or later (only in a sentence that lists the answer, not one about an argument);
- from a date argument that defaults to the business date: "Lists the sailings from a given date (default:
  today)", or a date parameter "Earliest sailing date. Defaults to today.", keeps the records from the business
  date on when the call leaves that argument out (the argument's own filter reads it when given).

A sentence that hedges ("that are not ...", "unless ...", "by default") reads as nothing.

Each is a `scope_checks` entry of the plan ({"op": "linked", "via", "collection", "field", "dropped"} or {"op":
"from", "field", "value"}), rendered as a condition every answered record meets (_blocks.j2 `scope_holds`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import field_values, sample_records
from synth.envsynth.filter_map import referenced_collection
from synth.spec import record_props
from synth.words import singular

NEVER = re.compile(r"\s+(?:are|is)\s+(?:never|not)\s+(?:returned|listed|included|shown)\b", re.I)
OF_THAT = re.compile(r"\b(?P<noun>[a-z]\w*)\s+(?:that|which)\s+(?:are|is)\s+(?P<rest>[^.;]{1,80})$", re.I)
ONWARD = re.compile(r"\bfrom\s+today\s+(?:on(?:wards?)?|forward)\b|\btoday\s+or\s+later\b", re.I)
HEDGED = re.compile(r"\b(?:not|no\s+longer|unless|by\s+default|include\w*)\b", re.I)
TODAY_WORDS = (  # today, not "today minus 7 days"
    r"(?:today(?:['\u2019]s\s+date)?|the\s+(?:current|business)\s+date)\b(?!\s*(?:minus|plus|less|[-+\u2212]|\d))"
)
DEFAULT_TODAY = re.compile(r"\(?\s*\bdefaults?(?:\s+is|\s+to|:)?\s+" + TODAY_WORDS, re.I)
FROM_GIVEN = re.compile(
    r"\bfrom\s+(?:a\s+given|the\s+given|an?\s+)?\s*`?(\w+)`?\s*\(\s*defaults?(?::|\s+is|\s+to)?\s+" + TODAY_WORDS,
    re.I,
)
EARLIEST = re.compile(r"^(?:from|start|since|after|earliest)(?:_|$)|^(?:earliest|first)\b|\bor\s+later\b", re.I)
LISTING = re.compile(r"^\W*(?:Lists?|Returns?|Shows?|Finds?|Search(?:es)?)\b", re.I)  # the answer, not an argument


def _linked_drop(
    sentence: str, collection: str, cols: dict[str, Any], sample: dict[str, Any] | None = None
) -> dict[str, Any] | None:
    """The linked-state check of one "... of <nouns> that are <state> ... are not listed" sentence, or None (the
    values of a field whose schema lists none are those the sample's records hold)."""
    hit = NEVER.search(sentence)
    said = OF_THAT.search(sentence[: hit.start()]) if hit else None
    if not said or HEDGED.search(said.group("rest") + " " + sentence[hit.end() :]):
        return None  # "that are not active", "unless include_retired is true", "by default"
    record = record_props(cols, collection)
    for ref, schema in sorted(record.items()):
        other = referenced_collection(ref, schema, collection, cols)
        if not other or singular(other.lower()) != singular(said.group("noun").lower()):
            continue
        words = {w.lower() for w in re.findall(r"[\w-]+", said.group("rest"))}
        first = (re.findall(r"[\w-]+", said.group("rest")) or [""])[0].lower()  # "closed (to the public)"
        records = sample_records(sample or {}, other)
        known_by_field = {
            f: field_values(s, records, f) if isinstance(s, dict) else [] for f, s in record_props(cols, other).items()
        }
        for field, known in sorted(known_by_field.items(), key=lambda fk: (first not in map(str.lower, fk[1]), fk[0])):
            dropped = [v for v in known if v.lower() in words]
            if dropped and len(dropped) < len(known):
                return {"op": "linked", "via": ref, "collection": other, "field": field, "dropped": dropped}
    return None


def _date_floor(description: str, record: dict[str, Any], today: str | None) -> dict[str, Any] | None:
    """The check of "from today onward" on the record's one date field, or None."""
    dates = [f for f, s in record.items() if isinstance(s, dict) and s.get("format") == "date"]
    sentences = [
        x for part in re.split(r"\n\s*\n", description) for x in re.split(r"(?<=[.!?])\s+", " ".join(part.split()))
    ]
    said = [x for x in sentences if LISTING.match(x) and ONWARD.search(x) and not re.search(r"\bby\s+\w+_", x)]
    if not today or not said or len(dates) != 1:
        return None
    return {"op": "from", "field": dates[0], "value": today}


def _defaulted_floor(
    description: str, record: dict[str, Any], params: dict[str, Any], today: str | None
) -> dict[str, Any] | None:
    """The check of a date argument defaulting to today ("from a given date (default: today)"), or None."""
    dates = [f for f, s in record.items() if isinstance(s, dict) and s.get("format") == "date"]
    if not today or len(dates) != 1:
        return None
    date_params = [
        p
        for p, s in sorted(params.items())
        if isinstance(s, dict) and (s.get("format") == "date" or "YYYY-MM-DD" in str(s.get("description") or ""))
    ]
    earliest = [p for p in date_params if EARLIEST.search(p) or EARLIEST.search(str(params[p].get("description")))]
    listed = " ".join(x for x in re.split(r"(?<=[.!?])\s+", " ".join(description.split())) if LISTING.match(x))
    said = FROM_GIVEN.search(listed)
    own = [p for p in earliest if DEFAULT_TODAY.search(str(params[p].get("description") or ""))]
    if not own and not said:
        return None
    picked = own or earliest
    if len(picked) != 1:
        return None
    return {"op": "from", "field": dates[0], "value": today, "unless": picked[0]}


def scope_checks(
    description: str,
    collection: str,
    cols: dict[str, Any],
    today: str | None,
    params: dict[str, Any] | None = None,
    sample: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """The scope checks a list's docs fix for every call ([] when none; `sample`: the data's state, for the values
    of fields whose schema lists none)."""
    checks = [
        c
        for sentence in re.split(r"(?<=[.!?])\s+", " ".join(description.split()))
        if (c := _linked_drop(sentence, collection, cols, sample))
    ]
    floor = _date_floor(description, record_props(cols, collection), today)
    floor = floor or _defaulted_floor(description, record_props(cols, collection), params or {}, today)
    return checks + ([floor] if floor else [])


__all__ = ["scope_checks"]
