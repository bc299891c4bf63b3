"""Boolean list flags that bring back records a list leaves out by default: `include_closed` ("Also list berths
that are closed. Default false."), `include_archived`, `show_retired` ("Berths out of service are left out unless
include_out_of_service is true").

A flag that is no field of the records, whose name is `include_<what>` / `show_<what>` or whose description opens
with "Also list/include/show" (not "also return": more data, not more records), and whose default is not true,
names what it brings back: a known value of one closed text field (`closed`, `out_of_service`: the flag's own
words, else the one value its description names), or a boolean field of the records (`archived`;
`include_inactive` brings back those whose `active` is false). Unless the call sets the flag true, the list drops
the records holding that value; set true, it drops nothing for it.

`include_flags` gives {flag: conditions} (the same condition shapes as flag_rules: {"field", "equals"}), rendered by
filter.py.j2 as a drop while the flag is not true.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.linked_answers import kept_states

NAMED = re.compile(r"^(?:include|show)_(?P<what>\w+)$", re.I)
ALSO = re.compile(r"^\s*(?:If\s+true,\s*)?(?:also|include)\s+(?:list|include|show)s?\b", re.I)  # not "also return X"
DEFAULT_TRUE = re.compile(r"\bdefaults?(?:\s+is|\s+to|:)?\s*`?true\b|\btrue\s+by\s+default\b", re.I)
# "If true, list only closed berths": a filter that keeps, not one that brings back
ONLY = re.compile(r"\bonly\b", re.I)


def _brought_back(what: str, text: str, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The condition of the records a flag brings back: its name's words, else its description's one value."""
    head = "_".join(what.lower().split("_")[:-1])  # `include_closed_berths`: the records' noun after the value
    words = {what.lower(), what.lower().rstrip("s"), what.lower().replace("_", " "), head} - {""}
    flags = [f for f, s in sorted(record.items()) if isinstance(s, dict) and s.get("type") == "boolean"]
    hits = [{"field": f, "equals": True} for f in flags if f.lower() in words]
    negated = {re.sub(r"^(?:in|un|non_?|not_)", "", w) for w in words if re.match(r"^(?:in|un|non_?|not_)", w)}
    hits += [{"field": f, "equals": False} for f in flags if f.lower() in negated]  # `include_inactive`: not `active`
    for field, schema in sorted(record.items()):
        known = [v for v in (schema.get("enum") or schema.get("x-enum") or [])] if isinstance(schema, dict) else []
        if schema.get("type") == "string":
            hits += [{"field": field, "equals": v} for v in known if isinstance(v, str) and v.lower() in words]
    if hits:
        return hits if len(hits) == 1 else []
    if not ALSO.search(text):
        return []  # the description must say what it brings back ("Also list berths out of use")
    said = kept_states(text, {f: s for f, s in record.items() if isinstance(s, dict) and s.get("type") == "string"})
    values = next(iter(said.values())) if said else []
    return [{"field": next(iter(said)), "equals": values[0]}] if said and len(values) == 1 else []


def include_flags(params: dict[str, Any], record: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """{flag: what it brings back} for the list's include flags (see the module's docstring)."""
    out = {}
    for name, schema in sorted(params.items()):
        if not isinstance(schema, dict) or schema.get("type") != "boolean" or name in record:
            continue
        text = str(schema.get("description") or "")
        named = NAMED.match(name)
        if not (named or ALSO.search(text)) or schema.get("default") is True or DEFAULT_TRUE.search(text):
            continue
        if ONLY.search(text):
            continue
        found = _brought_back(named.group("what") if named else "", text, record)
        if found:
            out[name] = found
    return out


__all__ = ["include_flags"]
