"""Parameters a call checks against what is on file rather than stores: "the licence number presented matches the
one on file (case-insensitive)" becomes a `matches` check (the argument equals the `licence_number` of the
customer the record names), and the parameter is not kept on the record.

The parameter's words must come shortly before "matches" / "must match" / "is checked against", and exactly one
record the call's record links to must have a field of the parameter's name.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_linked import record_links
from synth.envsynth.prose import unwrap
from synth.words import singular

MATCHES = (
    r"(?:\w+\s+){0,2}?(?:matches|must\s+match|has\s+to\s+match|is\s+checked\s+against|is\s+compared\s+(?:with|to)"
    r"|must\s+equal|has\s+to\s+equal|must\s+be\s+equal\s+to)\b"
)
CASELESS = re.compile(r"case[- ]insensitive|ignoring\s+case|any\s+case", re.IGNORECASE)


def matching_checks(
    text: str, params: dict[str, Any], collection: str, state_schema: dict[str, Any]
) -> tuple[list[dict[str, Any]], set[str]]:
    """(`matches` checks, the parameters they use) for the parameters the docs say must match what is on file."""
    cols = state_schema.get("properties") or {}
    own = ((cols.get(collection) or {}).get("additionalProperties") or {}).get("properties") or {}
    links = record_links(own, cols, collection)
    checks, used = [], set()
    for sentence in re.split(r"(?<=[.!?;])\s+", unwrap(text)):
        for name in params:
            if name in used:
                continue
            spelt = r"[\s_]+".join(re.escape(w) for w in name.split("_"))
            said = re.search(rf"(?:`{re.escape(name)}`|\b{spelt})\s+{MATCHES}", sentence, re.IGNORECASE)
            if not said:
                continue
            owned = re.match(r"\s*(?:the\s+)?(\w+)['\u2019]s\s+`?(\w+)`?", sentence[said.end() :])  # "the pier's `pin`"
            if name in own and not owned:
                continue  # a value the record keeps, unless the docs name another record's field it must match
            field = owned.group(2) if owned else name
            if owned and field in own and singular(owned.group(1).lower()) == singular(collection):
                check = {"op": "same", "a": {"from": "arg", "name": name}, "b": {"from": "record", "path": [field]}}
                checks.append({**check, "caseless": True} if CASELESS.search(sentence) else check)
                used.add(name)  # "the code must equal the mooring's `gate_code`": its own field
                continue
            holders = [
                (via, other)
                for via, other in sorted(links.items())
                if field in (((cols.get(other) or {}).get("additionalProperties") or {}).get("properties") or {})
                and (not owned or owned.group(1).lower() in (via[:-3].replace("_", " "), other[:-1]))
            ]
            if len(holders) != 1:
                continue
            via, other = holders[0]
            check = {"op": "matches", "arg": name, "collection": other, "via": via, "field": field}
            if CASELESS.search(sentence):
                check["caseless"] = True
            checks.append(check)
            used.add(name)
    return checks, used


__all__ = ["matching_checks"]
