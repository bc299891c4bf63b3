"""What the docs add after a named record's new state: "the shed becomes 'full' with this boat_id", "the cart
becomes 'ready' at that bay with no open job and `serviced_on` set to the business date".

After "the <noun> becomes '<state>'" (the noun a link of the call's record names), in the same clause:
- "with this <key>": the named record's field of that name takes the call's record's key (`<own noun>_id` only);
- "at that <other noun>": its link to that noun (`bay_id`) takes the argument naming it;
- "with no <words>" / "and no <words>": the one nullable field of it whose name holds those words is cleared;
- "`<field>` set to the business date" (or "today"): that date field takes the business date the docs state.
Each becomes a `ref_set` effect (recorded_update.py.j2): {"own_key": True}, {"arg": name} or a constant `value`.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_linked import _noun, own_words, record_links
from synth.envsynth.prose import unwrap
from synth.spec import record_props as _props
from synth.words import singular

AFTER = r"\s+(?:becomes|is\s+set\s+to|returns\s+to|goes\s+back\s+to)\s+[`'\"][\w-]+[`'\"](?P<rest>[^.;]*)"
HELD = re.compile(r"\bwith\s+this\s+`?(\w+)`?", re.I)
AT = re.compile(r"\bat\s+(?:that|this|the\s+given|the\s+new)\s+(\w+)", re.I)
NONE = re.compile(r"\b(?:with|and)\s+no\s+(\w+(?:\s+\w+)?)", re.I)
DATED = re.compile(
    r"`?(\w+)`?\s+(?:set\s+to|stamped\s+with|=)\s+(?:the\s+business\s+date|the\s+current\s+date|today)", re.I
)


def _nullable(schema: Any) -> bool:
    kinds = schema.get("type") if isinstance(schema, dict) else None
    return isinstance(kinds, list) and "null" in kinds


def linked_extras(
    text: str, collection: str, state_schema: dict[str, Any], params: dict[str, Any], today: str | None
) -> list[dict[str, Any]]:
    """The `ref_set` effects the words after a named record's new state give."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    clauses = [c for c in re.split(r"(?<=[.!?;])\s+|\n", unwrap(text)) if c.strip()]
    for via, other in record_links(own, cols, collection).items():
        theirs = _props(cols, other)
        noun = _noun(via, other)

        def add(field: str, **how: Any) -> None:
            if field in theirs and not any(e["via"] == via and e["field"] == field for e in out):
                out.append({"op": "ref_set", "collection": other, "via": via, "field": field, "value": None, **how})

        for clause in clauses:
            for m in re.finditer(rf"\b{noun}{AFTER}", own_words(clause, noun), re.I):
                rest = m.group("rest")
                held = HELD.search(rest)
                if held and held.group(1) == f"{singular(collection)}_id":  # "with this boat_id"
                    add(held.group(1), own_key=True)
                at = AT.search(rest)
                link = f"{singular(at.group(1).lower())}_id" if at else ""
                if link in params and link in theirs:  # "at that bay": the bay the call names
                    add(link, arg=link)
                for gone in NONE.finditer(rest):
                    words = gone.group(1).lower().split()
                    cleared = [f for f, s in theirs.items() if _nullable(s) and set(words) <= set(f.lower().split("_"))]
                    if len(cleared) == 1:
                        add(cleared[0])
                for dated in DATED.finditer(rest):
                    if today and dated.group(1) in theirs:
                        add(dated.group(1), value=today)
    return out


__all__ = ["linked_extras"]
