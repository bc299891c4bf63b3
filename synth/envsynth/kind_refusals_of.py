"""Calls refused for one kind of the person (or other record) an argument names, when the call takes some
values: "Skippers cannot book `gold` berths", "Cadets cannot request T1 tows". The subject is a plural of a value
of one closed field of a record the new record links (`cadet`: the `rank` of the sailor its `sailor_id` names);
the words after the verb hold listed values of one parameter (its enum, or the values its description backticks
or writes as tokens: `T1`). Each becomes a `refused_if` check (expr_runtime.fg_check): refused when the argument
holds one of the values and the linked record's field holds the subject's value.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_linked import record_links
from synth.envsynth.prose import unwrap
from synth.envsynth.rate_tables import listed_values
from synth.spec import known_values
from synth.words import singular

CANNOT = re.compile(
    r"(?:^|[.;:(]\s*|-\s+)(?P<who>[A-Z][a-z]+s)\s+(?:cannot|can't|can\s+not|may\s+not|are\s+not\s+allowed\s+to)\s+"
    r"(?P<verb>[a-z]+)\s+(?P<what>[^.;()]{1,80})"
)


def kind_refusals_of(text: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict]:
    """The `refused_if` checks of the docs' "<kinds> cannot <verb> <value> <things>" sentences."""
    links = {f: c for f, c in record_links(own, cols, "").items() if f in params}
    out: list[dict[str, Any]] = []
    for m in CANNOT.finditer(unwrap(text)):
        kind = singular(m.group("who").lower())
        holders = []
        for via, col in sorted(links.items()):
            theirs = ((cols.get(col) or {}).get("additionalProperties") or {}).get("properties") or {}
            holders += [(via, col, f) for f, s in sorted(theirs.items()) if kind in known_values(s)]
        words = set(re.findall(r"[\w-]+", m.group("what")))
        named = [(p, [v for v in listed_values(s) if v in words]) for p, s in sorted(params.items()) if p not in links]
        named = [(p, vs) for p, vs in named if vs]
        if len(holders) != 1 or len(named) != 1:
            continue
        via, col, field = holders[0]
        arg, values = named[0]
        check = {
            "op": "refused_if",
            "arg": arg,
            "in": values,
            "if": {"via": via, "collection": col, "field": field, "equals": kind},
        }
        if check not in out:
            out.append(check)
    return out


__all__ = ["kind_refusals_of"]
