"""An argument the call must pass when a yes/no field says so: "If the boat is flagged needs_pilot, pilot_name is
mandatory", "pilot_name is required when the boat is flagged needs_pilot".

The noun names a record the call's record links (`boat_id` -> the boat's `needs_pilot`), else the call's record
itself (its own boolean field of the flag's name); the argument must be one of the call's parameters. The check
is `any_of` the argument given or the flag not true (expr_runtime.fg_check), so a record without the flag set
passes.

A value an argument may take only for flagged records reads the other way round: "`HX-PILOT` only for boats
flagged needs_pilot" refuses the call when the argument holds that value and the linked record's flag is not true
(`refused_if` with `unless`). The argument is the one parameter whose enum holds the value, else the one whose
description quotes an example of the same shape (`HX-TOW` beside `HX-PILOT`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.spec import record_props

FLAG = r"(?:is\s+(?:flagged|marked)(?:\s+as)?|has)\s+`?(?P<flag>[a-z]\w*)`?"
NEEDED = r"(?:is|are)\s+(?:mandatory|required|compulsory|needed)"
SAID = (
    re.compile(
        rf"\b(?i:if|when)\s+the\s+(?P<noun>[a-z]+)\s+{FLAG}\s*,\s*(?:then\s+)?`?(?P<arg>[a-z]\w*)`?\s+{NEEDED}\b"
    ),
    re.compile(rf"`?(?P<arg>[a-z]\w*)`?\s+{NEEDED}\s+(?:only\s+)?(?:when|if)\s+the\s+(?P<noun>[a-z]+)\s+{FLAG}"),
    re.compile(  # "pilot_name is required for boats flagged needs_pilot"
        rf"`?(?P<arg>[a-z]\w*)`?\s+{NEEDED}\s+for\s+(?:the\s+)?(?P<noun>[a-z]+?)e?s\s+(?:flagged|marked)(?:\s+as)?\s+"
        r"`?(?P<flag>[a-z]\w*)`?"
    ),
)


CODE = r"`?(?P<value>[A-Z][A-Z0-9]*(?:[-_][A-Z0-9]+)+)`?"
ONLY_FOR = re.compile(  # "HX-PILOT only for boats flagged needs_pilot", "HX-PILOT is allowed only for a boat marked"
    rf"{CODE}\s+(?:\([^()]*\)\s+)?(?:(?:is|are)\s+(?:allowed|available|sold|given)\s+)?only\s+for\s+"
    r"(?:the\s+|an?\s+)?(?P<noun>[a-z]+?)(?:e?s)?\s+(?:flagged|marked)(?:\s+as)?\s+`?(?P<flag>[a-z]\w*)`?"
)


def _shape(text: str) -> str:
    return re.sub(r"[A-Z]+", "A", re.sub(r"[0-9]+", "9", text))


def _holding_param(value: str, params: dict[str, Any]) -> str | None:
    """The one parameter that takes the value: its enum holds it, else its description quotes one of its shape."""
    enums = [p for p, s in params.items() if isinstance(s, dict) and value in (s.get("enum") or [])]
    if enums:
        return enums[0] if len(enums) == 1 else None
    shaped = [
        p
        for p, s in params.items()
        if isinstance(s, dict)
        and s.get("type") in (None, "string")
        and any(
            _shape(q) == _shape(value) for q in re.findall(r"['`\"]([A-Z][A-Z0-9_-]+)['`\"]", s.get("description", ""))
        )
    ]
    return shaped[0] if len(shaped) == 1 else None


def only_for_flagged(text: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict]:
    """`refused_if` checks of "<VALUE> only for <records> flagged <flag>" whose argument and linked flag are known."""
    out: list[dict[str, Any]] = []
    for m in ONLY_FOR.finditer(text):
        arg = _holding_param(m.group("value"), params)
        link = noun_link(m.group("noun").lower(), own, cols) if arg else None
        if link is None or not _is_flag(record_props(cols, link[1]).get(m.group("flag"))):
            continue
        cond = {"collection": link[1], "via": link[0], "field": m.group("flag"), "unless": True}
        check = {"op": "refused_if", "arg": arg, "in": [m.group("value")], "if": cond}
        if check not in out:
            out.append(check)
    return out


def _is_flag(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "boolean"


def flag_required_checks(text: str, params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict]:
    """The `any_of` checks of each such sentence whose noun, flag and argument are known."""
    out: list[dict[str, Any]] = []
    for pattern in SAID:
        for m in pattern.finditer(text):
            noun, flag, arg = m.group("noun").lower(), m.group("flag"), m.group("arg")
            if arg not in params:
                continue
            unset: dict[str, Any] | None = None
            via = f"{noun}_id"
            other = (own.get(via) or {}).get("x-references") if isinstance(own.get(via), dict) else None
            other = other or (f"{noun}s" if via in own else None)
            linked = record_props(cols, other) if other in cols else {}
            if linked != own and _is_flag(linked.get(flag)):  # a record it links, not its own key
                unset = {"op": "linked_state", "collection": other, "via": via, "field": flag, "allowed": [False, None]}
            elif _is_flag(own.get(flag)) and (via not in own or linked == own):  # the call's own record is flagged
                unset = {"op": "value_is", "source": {"from": "record", "path": [flag]}, "in": [False, None]}
            check = {"op": "any_of", "checks": [{"op": "given", "arg": arg}, unset]} if unset else None
            if check and check not in out:
                out.append(check)
    return out


__all__ = ["flag_required_checks", "only_for_flagged"]
