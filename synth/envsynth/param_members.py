"""Checks a create's parameter descriptions state about the record another argument names:

- "`skipper_id`: ...; must be a current crew member of the boat": the new record's value (a skipper) must be on the
  boat's list of skippers (`crew_members`, or the one list of the boat whose entries reference skippers), when the
  call gives one (`named_holds`: the boat is the one the call names by its link field);
- "`haul_out` (boolean): ... Only allowed for boats with no crew": while the call sets the yes/no argument, the
  boat's list named by the last word (`crew`) must be empty (`empty`, guarded by `when`).

The boat is the noun's record through the new record's links (create_checks.noun_link).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import record_props
from synth.words import singular

MEMBER = re.compile(
    r"\bmust\s+be\s+(?:a|an|one\s+of\s+the)\s+(?:current\s+|listed\s+|registered\s+)?(?P<member>[a-z]\w*)"
    r"(?:\s+member)?s?\s+(?:of|on|in)\s+the\s+(?P<noun>[a-z]\w*)(?:['\u2019]s\s+`?(?P<list>\w+)`?)?"
    r"(?=\s*(?:[.;]|$))",  # "of the pier's crew": that list; "or a club sailor", "unless ..." after it: not read
    re.I,
)
ONLY_EMPTY = re.compile(
    r"\bonly\s+(?:allowed\s+|possible\s+|valid\s+)?(?:for|on)\s+(?:an?\s+)?(?P<noun>[a-z]\w*?)s?\s+"
    r"(?:with\s+no|without(?:\s+any)?)\s+`?(?P<list>[a-z]\w*)`?(?=\s*(?:[.;]|$))",
    re.I,
)


def _lists(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f: s for f, s in sorted(schema.items()) if isinstance(s, dict) and s.get("type") == "array"}


def _member_list(member: str, theirs: dict[str, Any], refers: str | None) -> str | None:
    """The named record's list the member word names (`occupant` -> `occupants`), else its one list of ids of the
    kind the value refers to."""
    lists = _lists(theirs)
    named = [f for f in lists if singular(f) == singular(member.lower())]
    if len(named) == 1:
        return named[0]
    kind = [f for f, s in lists.items() if refers and (s.get("items") or {}).get("x-references") == refers]
    return kind[0] if len(kind) == 1 else None


def param_members(params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """The `named_holds` and guarded `empty` checks of the parameter descriptions (module docstring)."""
    from synth.envsynth.create_checks import noun_link

    out: list[dict[str, Any]] = []
    for name, schema in sorted(params.items()):
        text = " ".join(str((schema or {}).get("description") or "").split())
        for m in MEMBER.finditer(text) if name in own else ():
            link = noun_link(m.group("noun"), own, cols)
            theirs = record_props(cols, link[1]) if link else {}
            held = _member_list(m.group("list") or m.group("member"), theirs, (own.get(name) or {}).get("x-references"))
            if m.group("list") and held != m.group("list"):
                continue  # "a member of the pier's club": a list the pier does not hold
            if link and held and link[0] in params and link[0] != name:
                out.append({"op": "named_holds", "param": link[0], "collection": link[1], "list": held, "field": name})
        if (schema or {}).get("type") != "boolean":
            continue
        for m in ONLY_EMPTY.finditer(text):
            before = text[text.rfind(". ", 0, m.start()) + 1 : m.start()]  # the sentence up to "only"
            if re.search(r"\b(?:false|unset|off|disabled|not\s+set)\b", before, re.I):
                continue  # "Setting it to `false` is only allowed ...": the guard is the other value
            link = noun_link(m.group("noun"), own, cols)
            theirs = record_props(cols, link[1]) if link else {}
            if link and m.group("list") in _lists(theirs):
                guard = {"arg": name, "in": [True]}
                out.append(
                    {"op": "empty", "collection": link[1], "via": link[0], "field": m.group("list"), "when": guard}
                )
    return out


__all__ = ["param_members"]
