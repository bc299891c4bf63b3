"""A record the call names must not already hold a link of some kind, as the docs word it: "Only boats that have
no open charter can get one" or "Error: boat <id> already has open charter <charter_id>". The field is the named
record's one named by the words (`open_charter_id`, `open_charter`), a field that may be empty; the call is refused
unless it is empty (a create's `ref_requires` {param: {field: [None, ""]}}).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import record_props as _props
from synth.spec import schema_types


def _field(words: str, theirs: dict[str, Any]) -> str | None:
    joined = "_".join(words.lower().split())
    hits = [f for f in (joined, f"{joined}_id") if f in theirs and "null" in schema_types(theirs[f] or {})]
    return hits[0] if len(hits) == 1 else None


def vacant_requires(text: str, refs: dict[str, str], cols: dict[str, Any]) -> dict[str, dict[str, list[Any]]]:
    """{param: {field: [None, ""]}} for each record the call names that must not already hold such a link."""
    flat = " ".join(text.split())
    out: dict[str, dict[str, list[Any]]] = {}
    for param, col in sorted(refs.items()):
        noun = re.escape(param[:-3].replace("_", " "))
        said = [
            m.group("words")
            for pattern in (
                rf"\b{noun}\s+<[^<>]+>\s+already\s+has\s+(?:an?\s+)?(?P<words>[a-z]+(?:\s+[a-z]+)?)\s+<",
                rf"\bonly\s+{noun}s?\b[^.;:]*?\bthat\s+have\s+no\s+(?P<words>[a-z]+(?:\s+[a-z]+)?)\s+(?:can|may)\b",
            )
            for m in re.finditer(pattern, flat, re.I)
        ]
        for words in said:
            field = _field(words, _props(cols, col))
            if field:
                out.setdefault(param, {})[field] = [None, ""]
    return out


def with_vacant(
    text: str, refs: dict[str, str], cols: dict[str, Any], checks: dict[str, str], requires: dict[str, dict]
) -> None:
    """Add the vacant fields to a create's `ref_requires` (a requirement already read wins) and the records they
    are read on to its `ref_checks` (they must exist)."""
    for param, fields in vacant_requires(text, refs, cols).items():
        checks.setdefault(param, refs[param])
        requires.setdefault(param, {}).update({f: v for f, v in fields.items() if f not in requires[param]})


__all__ = ["vacant_requires", "with_vacant"]
