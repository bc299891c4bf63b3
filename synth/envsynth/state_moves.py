"""A state change whose new state is the call's argument, along the moves the docs draw: "Moves an order along its
states: `open` → `scheduled` or `cancelled`; `scheduled` → `done` or `cancelled`." The parameter named as the
record's state field (or whose values are those states) sets it, and a `transition` check refuses a move the
docs do not draw from the record's current state (expr_runtime.fg_check)."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _known
from synth.envsynth.prose import unwrap

ARROW = re.compile(r"`([\w-]+)`\s*(?:→|->|⟶)\s*(`[\w-]+`(?:\s*(?:,|\bor\b|\band\b)\s*`[\w-]+`)*)")


def arrow_moves(text: str, props: dict[str, Any], params: dict[str, Any]) -> dict[str, Any] | None:
    """{"field", "arg", "map": {state: [states it may move to]}} when the text draws at least two moves between
    the known values of one closed field of the record and a parameter gives the new state; else None."""
    moves: dict[str, list[str]] = {}
    for m in ARROW.finditer(unwrap(text)):
        moves.setdefault(m.group(1), [])
        moves[m.group(1)] += [v for v in re.findall(r"`([\w-]+)`", m.group(2)) if v not in moves[m.group(1)]]
    if sum(len(v) for v in moves.values()) < 2:
        return None
    said = set(moves) | {v for targets in moves.values() for v in targets}
    fields = [f for f, s in props.items() if isinstance(s, dict) and set(moves) <= {str(v) for v in _known(s)}]
    if len(fields) != 1:
        return None
    field = fields[0]
    args = [field] if field in params else []
    args = args or [
        p for p, s in params.items() if isinstance(s, dict) and s.get("enum") and set(map(str, s["enum"])) <= said
    ]
    return {"field": field, "arg": args[0], "map": moves} if len(args) == 1 else None


__all__ = ["arrow_moves"]
