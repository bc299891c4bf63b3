"""An argument the call must pass when a yes/no field says so: "If the boat is flagged needs_pilot, pilot_name is
mandatory", "pilot_name is required when the boat is flagged needs_pilot".

The noun names a record the call's record links (`boat_id` -> the boat's `needs_pilot`), else the call's record
itself (its own boolean field of the flag's name); the argument must be one of the call's parameters. The check
is `any_of` the argument given or the flag not true (expr_runtime.fg_check), so a record without the flag set
passes.
"""

from __future__ import annotations

import re
from typing import Any

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


__all__ = ["flag_required_checks"]
