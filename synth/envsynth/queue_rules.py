"""What a create's docs say about a waiting queue and records like the new one:

- "when the dock has a waiting list, only the skipper first in the list may book it, and doing so removes them from
  the list": the record the new one links (`dock_id` -> docks) holds the list (`waiting_list`, named by the words);
  the call is refused unless the list is empty or its head is the new record's `skipper_id` (check `queue_head`),
  and the head leaves the list (effect `queue_pop`, code_templates/create.py.j2);
- "the skipper must not already have another boat of the same class on hire": no stored record of the created kind
  (`hires`) names the same skipper and the same class while it holds the state the new one starts in (check
  `none_alike`; the class read off the new record's own `class_id`).
Both checks run in list_runtime.fg_list_rule.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.spec import field_by_words, known_values
from synth.words import singular

QUEUE = re.compile(
    r"\bwhen\s+the\s+(\w+)\s+has\s+an?\s+([\w ]+?),\s+only\s+the\s+(\w+)\s+first\s+in\s+the\s+(?:queue|line|list)\s+"
    r"may\s+[\w ]+?,\s+and\s+doing\s+so\s+removes\s+them\s+from\s+the\s+(?:queue|line|list)",
    re.I,
)
ANOTHER = re.compile(
    r"\bthe\s+(\w+)\s+must\s+not\s+already\s+have\s+another\s+\w+\s+of\s+the\s+same\s+(\w+)\s+on\s+(\w+)", re.I
)


def _link(noun: str, own: dict[str, Any], cols: dict[str, Any]) -> tuple[str, str] | None:
    """(own field, collection) of the record a noun names through the new record's `<noun>_id`."""
    field = f"{noun.lower()}_id"
    target = (own.get(field) or {}).get("x-references") if isinstance(own.get(field), dict) else None
    target = target or next((c for c in cols if singular(c) == noun.lower()), None)
    return (field, target) if field in own and target in cols else None


def queue_rules(text: str, plan: ToolPlan, own: dict[str, Any], cols: dict[str, Any]) -> tuple[list, list]:
    """(checks, effects) a create's docs give about a queue on a linked record and records like the new one."""
    checks: list[dict[str, Any]] = []
    effects: list[dict[str, Any]] = []
    for m in QUEUE.finditer(text):
        holder, waiting = _link(m.group(1), own, cols), f"{m.group(3).lower()}_id"
        props = (
            ((cols.get(holder[1]) or {}).get("additionalProperties") or {}).get("properties") or {} if holder else {}
        )
        listed = field_by_words(m.group(2), props)
        if holder and listed and waiting in own:
            rule = {"collection": holder[1], "via": holder[0], "list": listed, "field": waiting}
            checks.append({"op": "queue_head", **rule})
            effects.append({"op": "queue_pop", **rule})
    for m in ANOTHER.finditer(text):
        who, same = f"{m.group(1).lower()}_id", f"{m.group(2).lower()}_id"
        states = {
            f: [v]
            for f, v in plan.initial_values.items()
            if isinstance(own.get(f), dict) and str(v) in known_values(own[f])
        }
        if singular(plan.collection or "") == m.group(3).lower() and who in own and same in own and states:
            checks.append({"op": "none_alike", "collection": plan.collection, "fields": [who, same], "where": states})
    return checks, effects


__all__ = ["queue_rules"]
