"""A rounding rule the docs give for every amount ("Every figure is rounded to the cent (half up) where it is
computed"): each computed number of a quote, its lines' included, is rounded so, where it is computed (so later
figures use the rounded value). Echoed arguments and fields, dates and yes/no figures are left as they are."""

from __future__ import annotations

import re
from typing import Any

EVERY = re.compile(
    r"\b(?:every|each|all)\s+(?:amounts?|figures?|prices?|money\s+amounts?)\s+(?:is|are)\s+rounded\s+to\s+"
    r"(?:(\d)\s+decimals?(?:\s+places)?|the\s+(?:nearest\s+)?cent)(?:\s*\(\s*(half[ -]up|half[ -]down)\s*\))?",
    re.I,
)
ARITH = {"+", "-", "*", "/", "min", "max", "pct_off"}


def _numeric(node: Any) -> bool:
    """Whether a node computes a number: arithmetic, or a choice between numbers."""
    if not isinstance(node, dict):
        return False
    if node.get("op") in ARITH or "num" in node:
        return True
    if "when" in node or "if_field" in node:
        return _numeric(node.get("then")) and _numeric(node.get("else"))
    return False


def every_rounded(description: str, steps: dict[str, dict[str, Any]]) -> None:
    """Round every computed number of the quote (and of its lines) as the docs' one rule for all amounts says."""
    said = EVERY.search(description)
    if said is None:
        return
    way = (said.group(2) or "nearest").lower().replace(" ", "_").replace("-", "_")
    rounding = {"digits": int(said.group(1) or 2), "way": way}
    for name, node in list(steps.items()):
        if _numeric(node):
            steps[name] = {"round": node, **rounding}
        for pair in (node.get("lines") or {}).get("steps", []):
            if _numeric(pair[1]):
                pair[1] = {"round": pair[1], **rounding}
