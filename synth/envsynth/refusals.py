"""States a named record must not be in, read from the refusals the docs list: "`<noun> <id> is <value> and cannot
<verb> ...`" (or "`<noun> <id> is <value>; ... cannot ...`") refuses the call while the <noun>'s field holding
`<value>` holds it. Such a field must then hold one of its other enum values.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap

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


__all__ = ["refused_states"]
