"""States a named record must not be in, read from the refusals the docs list: "`<noun> <id> is <value> and cannot
<verb> ...`" (or "`<noun> <id> is <value>; ... cannot ...`") refuses the call while the <noun>'s field holding
`<value>` holds it. Such a field must then hold one of its other enum values. "Sunk and seized boats do not
take payments" ("... cannot be changed") refuses the same way, each word before the plural noun a value of the
field (any case).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap
from synth.words import plural

CANNOT = r"(?:cannot|can't|can\s+not|may\s+not|is\s+not\s+allowed\s+to)"


def _known(schema: Any) -> list[Any]:
    return list((schema.get("enum") or schema.get("x-enum") or []) if isinstance(schema, dict) else [])


def refused_states(text: str, noun: str, props: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: the values it may hold} for each field of the `noun` record whose value a listed refusal names."""
    said = rf"\b{re.escape(noun)}\s+(?:<[^<>]{{1,30}}>|`?\{{?\w+\}}?`?)\s+is\s+`?([\w-]+)`?\s*"
    said += rf"(?:and\b|;|,)\s*[^`.\n]{{0,80}}?\b{CANNOT}"
    out: dict[str, list[Any]] = {}
    for m in re.finditer(said, unwrap(text), re.I):
        for field, schema in sorted(props.items()):
            known = _known(schema)
            if m.group(1) in [str(v) for v in known]:
                kept = [v for v in (out.get(field) or known) if str(v) != m.group(1)]
                if kept:
                    out[field] = kept
    return out


def refused_kinds(text: str, noun: str, props: dict[str, Any]) -> dict[str, list[Any]]:
    """{field: the values it may hold} for "<value> (and <value>) <nouns> do not take ..." said of `noun` records."""
    said = rf"\b((?:[\w-]+\s*(?:,|\band\b|\bor\b)\s*)*[\w-]+)\s+{re.escape(plural(noun))}\s+"
    said += r"(?:do\s+not|don't|cannot|can't|may\s+not|never)\s+"
    said += r"(?:take|accept|receive|get|be\s+(?:given|changed|edited|modified))\b"
    out: dict[str, list[Any]] = {}
    for m in re.finditer(said, unwrap(text), re.I):
        words = [w.lower() for w in re.split(r"\s*,\s*|\s+and\s+|\s+or\s+", m.group(1).strip()) if w]
        for field, schema in sorted(props.items()):
            known = {str(v).lower(): v for v in _known(schema)}
            if words and all(w in known for w in words):
                kept = [v for v in (out.get(field) or _known(schema)) if str(v).lower() not in words]
                if kept:
                    out[field] = kept
    return out


__all__ = ["refused_kinds", "refused_states"]
