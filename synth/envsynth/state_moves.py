"""A state change whose new state is the call's argument, along the moves the docs draw: "Moves an order along its
states: `open` → `scheduled` or `cancelled`; `scheduled` → `done` or `cancelled`." (or a "| From | To |" table of
them). The parameter named as the
record's state field (or whose values are those states) sets it, and a `transition` check refuses a move the
docs do not draw from the record's current state (expr_runtime.fg_check)."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _known
from synth.envsynth.prose import unwrap

ARROW = re.compile(r"`([\w-]+)`\s*(?:→|->|⟶)\s*(`[\w-]+`(?:\s*(?:,|\bor\b|\band\b)\s*`[\w-]+`)*)")


FROM_HEAD = re.compile(r"^(?:From|Current(?:\s+(?:state|status))?)$", re.I)
TO_HEAD = re.compile(r"^(?:To|Allowed(?:\s+\w+)?|Next(?:\s+(?:states?|status))?|May\s+move\s+to)$", re.I)


def table_moves(text: str) -> list[tuple[str, str]]:
    """(state, the cell of the states it may move to) of each row of a two-column "From | To" table (leading and
    trailing pipes or not, blank lines between rows allowed); a row whose first cell is no one backticked state is
    skipped, a row with no backticked value at all ends the table (another table's header), and a cell with none
    (`—`, "(final)") moves nowhere."""
    out, inside = [], False
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if "|" in line else []
        if len(cells) == 2 and FROM_HEAD.match(cells[0]) and TO_HEAD.match(cells[1]):
            inside = True
            continue
        if line.strip() and len(cells) != 2:
            inside = False
        start = re.fullmatch(r"`([\w-]+)`", cells[0]) if inside and len(cells) == 2 else None
        bare = re.fullmatch(r"([a-z][a-z0-9]*(?:[_-][a-z0-9]+)*)", cells[0]) if inside and len(cells) == 2 else None
        if start:
            out.append((start.group(1), cells[1]))
        elif bare and "`" not in line and (cells[1] == "" or BARE_TARGETS.fullmatch(_unnoted(cells[1]))):
            out.append((bare.group(1), " ".join(f"`{v}`" for v in re.findall(r"[a-z][\w-]*", _unnoted(cells[1])))))
        elif len(cells) == 2 and "`" not in line and not re.fullmatch(r":?-{3,}:?", cells[0]):
            inside = False  # a row of another table ("| Field | Meaning |")
    return out


# "closed, in_progress (reopen)", "waiting or done", "—": a row of bare states (the table's own words)
BARE_TARGETS = re.compile(
    r"\s*(?:[a-z][a-z0-9]*(?:[_-][a-z0-9]+)*(?:\s*(?:,|\bor\b|\band\b)\s*|\s*$))*|\s*[-\u2013\u2014]?\s*"
)


def _unnoted(cell: str) -> str:
    """A cell without its notes in brackets ("in_progress (reopen)", "(final)")."""
    return re.sub(r"\([^()]*\)", "", cell).strip()


def arrow_moves(text: str, props: dict[str, Any], params: dict[str, Any]) -> dict[str, Any] | None:
    """{"field", "arg", "map": {state: [states it may move to]}} when the text draws at least two moves between
    the known values of one closed field of the record and a parameter gives the new state; else None."""
    moves: dict[str, list[str]] = {}
    drawn = [(m.group(1), m.group(2)) for m in ARROW.finditer(unwrap(text))] + table_moves(text)
    for start, targets in drawn:
        moves.setdefault(start, [])
        moves[start] += [v for v in re.findall(r"`([\w-]+)`", targets) if v not in moves[start]]
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
