"""An argument a change needs only when an entry of the record's list names a flagged record, read from the docs'
errors: "Error: docket <id> contains a hazardous cargo; pass `sealed_by` (inspector initials) is required" needs
`sealed_by` given, "...; the manifest must be signed (`signed`=true)" needs `signed` true, whenever an entry of the
record's list names (by a field referencing another collection) a record whose yes/no field of the flag's name is
true. The check is `flag_needs` (list_runtime.fg_list_rule).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props

NEEDS = re.compile(
    r"\bcontains\s+an?\s+(?P<flag>\w+)\s+\w+;\s+(?:[^\"'\n]*?\(`?(?P<true>\w+)`?\s*=\s*true\)"
    r"|`?(?P<given>\w+)`?\s+(?:\([^)]*\)\s+)?is\s+required)",
    re.I,
)


def flagged_needs(text: str, collection: str, state_schema: dict[str, Any], params: dict[str, Any]) -> list:
    """[{"op": "flag_needs", "list", "via", "collection", "flag", "arg", "need": "true" | "given"}] for each such
    error whose flag, list and argument are known."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    for m in NEEDS.finditer(text):
        flag, arg = m.group("flag").lower(), m.group("true") or m.group("given")
        if arg not in params:
            continue
        found = [
            (name, via, other)
            for name, schema in sorted(own.items())
            if isinstance(schema, dict) and schema.get("type") == "array"
            for via, sub in sorted((((schema.get("items") or {}).get("properties")) or {}).items())
            for other in [(sub or {}).get("x-references")]
            if other in cols and (_props(cols, other).get(flag) or {}).get("type") == "boolean"
        ]
        if len(found) == 1:
            name, via, other = found[0]
            need = "true" if m.group("true") else "given"
            check = {"op": "flag_needs", "list": name, "via": via, "collection": other, "flag": flag, "arg": arg}
            out += [{**check, "need": need}] if {**check, "need": need} not in out else []
    return out


__all__ = ["flagged_needs"]
