"""Values of an argument that a kind of record may only go to: "Keel boats can only go to keel certified riggers."
with the rigger argument's values described one by one ("R1 (Ana, keel certified), R2 (Ben), ...").

The kind names a value of a field of the call's record, or of a record it links (`boat_id` -> the boat's `hull`
holds `keel`; written alike when spaces, hyphens and case are set aside: "E-hull" finds `ehull`). The argument's
values whose aside does not say "<kind> certified" are refused while that field holds the value: a `refused_if`
check (expr_runtime.fg_check) on the call's own record or on the one its link names. "When the skipper is a
`charterer`, their licence must be `valid`" holds the linked record's field knowing that value to it, for records of
that kind only (`linked_state` with `only_if`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import known_values
from synth.spec import record_props as _props

ONLY_TO = re.compile(
    r"\b(?P<kind>[A-Za-z][\w-]*)\s+(?P<things>[a-z]+)\s+(?:can|may)\s+only\s+(?:go|be\s+(?:assigned|given|sent))\s+to\s+"
    r"(?P<kind2>[A-Za-z][\w-]*)[- ]certified\s+(?P<who>[a-z]+)",
    re.I,
)


WHEN_KIND = re.compile(
    r"\bWhen\s+the\s+(?P<noun>[a-z]+)\s+is\s+an?\s+`?(?P<kind>[\w-]+)`?\s*,\s*(?:their|its)\s+"
    r"(?P<words>[a-z][a-z ]{0,30}?)\s+must\s+be\s+`(?P<value>[\w-]+)`",
)


def _plain(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _certified(schema: Any, kind: str) -> tuple[list[str], list[str]] | None:
    """(values said to be certified, the others) of an enum parameter whose description gives each value an aside."""
    values = known_values(schema)
    said = str((schema or {}).get("description") or "") if isinstance(schema, dict) else ""
    asides = {v: re.search(rf"(?<![\w-]){re.escape(v)}\s*\(([^()]*)\)", said) for v in values}
    if not values or not all(asides.values()):
        return None
    certified = rf"\b{re.escape(kind)}[- ]certified\b"
    yes = [v for v in values if re.search(certified, asides[v].group(1), re.I)]
    return (yes, [v for v in values if v not in yes]) if yes else None


def _holder(kind: str, own: dict[str, Any], cols: dict[str, Any]) -> dict[str, Any] | None:
    """The `if` of the check: the field of the record (or of one it links) one of whose values the kind names."""
    hits = [({}, f, v) for f, s in own.items() for v in known_values(s) if _plain(v) == _plain(kind)]
    for via, schema in own.items():
        other = schema.get("x-references") if isinstance(schema, dict) else None
        other = other or (via[:-3] + "s" if via.endswith("_id") and via[:-3] + "s" in cols else None)
        if other in cols and _props(cols, other) is not own:  # a record it links, not its own collection
            link = {"collection": other, "via": via}
            hits += [
                (link, f, v)
                for f, s in _props(cols, other).items()
                for v in known_values(s)
                if _plain(v) == _plain(kind)
            ]
    if len(hits) != 1:
        return None
    link, field, value = hits[0]
    return {**link, "field": field, "equals": value}


def _kind_states(text: str, own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`linked_state` checks with `only_if` for "When the <noun> is a <kind>, their <words> must be `<value>`"."""
    out: list[dict[str, Any]] = []
    for m in WHEN_KIND.finditer(text):
        via = f"{m.group('noun').lower()}_id"
        col = (own.get(via) or {}).get("x-references") or (m.group("noun").lower() + "s")
        theirs = _props(cols, col) if via in own and col in cols else {}
        kinds = [f for f, s in theirs.items() if m.group("kind") in known_values(s)]
        held = [f for f, s in theirs.items() if m.group("value") in known_values(s)]
        said = [f for f in held if set(m.group("words").lower().split()) & set(f.lower().split("_"))]
        held = said if len(held) > 1 else held
        if len(kinds) == 1 and len(held) == 1:
            only = {"field": kinds[0], "in": [m.group("kind")]}
            out.append(
                {
                    "op": "linked_state",
                    "collection": col,
                    "via": via,
                    "field": held[0],
                    "allowed": [m.group("value")],
                    "only_if": only,
                }
            )
    return out


def certified_checks(text: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict]:
    """`refused_if` checks for each "<kind> <things> can only go to <kind> certified <who>" the text says, and the
    `linked_state` checks a kind's required state gives."""
    out: list[dict[str, Any]] = _kind_states(text, own, cols)
    for m in ONLY_TO.finditer(text):
        kind = m.group("kind")
        if _plain(kind) != _plain(m.group("kind2")):
            continue
        split = {p: _certified(s, kind) for p, s in params.items()}
        named = [(p, s) for p, s in split.items() if s and s[1]]
        cond = _holder(kind, own, cols)
        if len(named) == 1 and cond is not None:
            out.append({"op": "refused_if", "arg": named[0][0], "in": named[0][1][1], "if": cond})
    return out


__all__ = ["certified_checks"]
