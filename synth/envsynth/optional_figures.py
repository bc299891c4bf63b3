"""Figures a quote answers only when an optional argument is given, read from its description: "With a
`skipper_id`, adds what that skipper could pay it with" or "If berth_id is given, the answer also shows ...".
Each figure that reads the argument (itself, the record it names, a record that one links, or a figure computed
from those) is then left out of the answer of a call without it, instead of answered as 0 or null.
"""

from __future__ import annotations

import re
from typing import Any

_NAME = r"`?([A-Za-z_][A-Za-z0-9_]*)`?"
_ADDS = r"(?:it\s+|the\s+(?:answer|quote|result)\s+)?(?:also\s+)?(?:adds|shows|includes|returns|gives|lists)\b"
_PATTERNS = (
    re.compile(rf"\b(?:with|given)\s+(?:a|an|the)?\s*{_NAME}(?:\s+given)?\s*,\s*{_ADDS}", re.I),
    re.compile(rf"\b(?:if|when)\s+(?:a|an|the)?\s*{_NAME}\s+is\s+(?:given|passed|supplied|set)\s*,\s*{_ADDS}", re.I),
)


def added_with(text: str, params: list[str], required: list[str]) -> list[str]:
    """The optional parameters whose presence the text says adds to the answer, in the parameters' order."""
    named = {m.group(1) for pattern in _PATTERNS for m in pattern.finditer(text or "")}
    return [p for p in params if p in named and p not in required]


def _reads(node: Any, out: set[str], vals: set[str]) -> None:
    """Collect the parameters (`arg`, `table_arg`, `param` and its link's holder) and figures (`val`) a node reads."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("arg", "table_arg") and isinstance(value, str):
                out.add(value)
            elif key == "param" and isinstance(value, str):
                out.add(value.split(".")[0])
            elif key == "val" and isinstance(value, str):
                vals.add(value)
            else:
                _reads(value, out, vals)
    elif isinstance(node, list):
        for value in node:
            _reads(value, out, vals)


def optional_figures(steps: list[list[Any]], optional: list[str]) -> dict[str, str]:
    """{figure: the optional parameter it reads} for the figures reading one, directly or through other figures."""
    direct: dict[str, set[str]] = {}
    needs: dict[str, set[str]] = {}
    for name, node in steps:
        params: set[str] = set()
        vals: set[str] = set()
        _reads(node, params, vals)
        direct[name], needs[name] = params & set(optional), vals - {name}
    changed = True
    while changed:  # through the figures they are computed from
        changed = False
        for name in direct:
            more = set().union(*(direct.get(v, set()) for v in needs[name])) - direct[name]
            if more:
                direct[name] |= more
                changed = True
    return {name: sorted(held)[0] for name, held in direct.items() if held}


__all__ = ["added_with", "optional_figures"]
