"""A figure the docs name in words and define as one of the record's number fields, nested ones written with dots:
"The fee charged is the boat's charges.total" (`fee_charged`, or `fee` where a word may follow the name)."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import is_number
from synth.words import singular


def named_path(name: str, own: dict[str, Any], text: str, trailing: bool = False, noun: str = "") -> list[str] | None:
    """The path of the record's number field the text defines `name` as ("the fee charged is its charges.total"),
    or None; `trailing` lets one more word follow the name's ("the fee charged" for `fee`); with `noun`, the
    possessive must name the record ("the boat's"). The path ends the phrase ("... is its subtotal plus a tax" is
    no copy)."""
    words = r"\s+".join(re.escape(w) for w in name.split("_")) + (r"(?:\s+\w+)?" if trailing else "")
    said = re.search(
        rf"\bthe\s+{words}\s+(?:is|equals)\s+(?:the\s+(?P<owner>\w+)['\u2019]s\s+|its\s+)"
        r"`?(?P<path>[A-Za-z_]\w*(?:\.\w+)*)`?(?=\s*(?:[;,)]|\.(?:\s|$)|$))",
        text,
        re.IGNORECASE,
    )
    if said is None or (noun and said.group("owner") and singular(said.group("owner").lower()) != singular(noun)):
        return None
    path, node = said.group("path").split("."), {"properties": own}
    for part in path:
        node = (node.get("properties") or {}).get(part) if isinstance(node, dict) else None
    return path if isinstance(node, dict) and is_number(node) else None


__all__ = ["named_path"]
