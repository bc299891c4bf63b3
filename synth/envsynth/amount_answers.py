"""What a change that computes an amount answers, as its docs spell the answer: "Returns {berthing_id, status:
'cancelled', refund, paid_by ('purse' or 'cash'), credit (the skipper's new credit, or null for cash refunds)}".

Each entry is read as
- a field of the record as the call leaves it (its name, with or without a quoted value after a colon);
- an amount the change computes (defined_amounts.py): the figure of that name;
- a closed field of the record under another name, whose values are the ones the remark quotes;
- "the <noun>'s new <words>": that number of the record the noun links to, after the call; "or null for <value>
  ..." answers null while the record holds that value.
An entry none of these reads leaves the answer as it was (the record).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.cancel_returns import number_named
from synth.envsynth.create_checks import noun_link
from synth.envsynth.plan import ToolPlan
from synth.envsynth.returns_shape import _closing, top_level_parts
from synth.spec import known_values
from synth.spec import record_props as _props

ANSWER = re.compile(r"\bReturns\s+\{", re.I)
ENTRY = re.compile(r"^`?(?P<name>[a-z]\w*)`?\s*(?::\s*[`'\"][^`'\"]*[`'\"]|\((?P<remark>[^()]*)\))?$", re.I)
NEW_OF = re.compile(r"^the\s+(?P<noun>[\w-]+?)['\u2019]s\s+new\s+(?P<words>[a-z][\w ]{0,40}?)(?:,|$)", re.I)
NULL_FOR = re.compile(r"\bor\s+null\s+for\s+[`'\"]?(?P<value>[\w-]+)[`'\"]?\b", re.I)


def _entries(text: str) -> list[tuple[str, str]] | None:
    """(name, remark) of each entry of the first "Returns {...}", or None when one is not such an entry."""
    m = ANSWER.search(text)
    if m is None:
        return None
    end = _closing(text, m.end() - 1)
    if end < 0:
        return None
    out = []
    for part in top_level_parts(text[m.end() : end]):
        entry = ENTRY.match(part.strip())
        if entry is None:
            return None
        out.append((entry.group("name"), (entry.group("remark") or "").strip()))
    return out


def _holder(value: str, own: dict[str, Any]) -> str | None:
    found = [f for f, s in sorted(own.items()) if value in known_values(s)]
    return found[0] if len(found) == 1 else None


def amount_answer(plan: ToolPlan, text: str, state_schema: dict[str, Any], amounts: list[str]) -> ToolPlan:
    """The plan answering the entries its docs spell out (`output_fields` / `output_map`); unchanged when an entry
    cannot be read, or the answer is the record's own fields."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection or "")
    entries = _entries(text)
    if not entries or len(entries) < 2 or all(name in own for name, _ in entries):
        return plan
    mapped: dict[str, dict[str, Any]] = {}
    for name, remark in entries:
        quoted = re.findall(r"[`'\"]([\w-]+)[`'\"]", remark)
        linked = NEW_OF.match(remark)
        if name in own:
            continue
        if name in amounts:
            mapped[name] = {"op": "figure", "name": name}
        elif (
            quoted
            and not linked
            and (field := _holder(quoted[0], own))
            and set(quoted) <= set(known_values(own[field]))
        ):
            mapped[name] = {"op": "own", "field": field}
        elif linked and (link := noun_link(linked.group("noun").replace("-", ""), own, cols)):
            target = number_named(linked.group("words"), _props(cols, link[1]))
            if target is None:
                return plan
            mapped[name] = {"op": "eq", "collection": link[1], "via": link[0], "path": [target]}
            null = NULL_FOR.search(remark)
            if null and (field := _holder(null.group("value"), own)):
                mapped[name]["null_when"] = {"field": field, "in": [null.group("value")]}
        else:
            return plan
    evidence = plan.evidence + ["answers as its docs spell it: " + ", ".join(name for name, _ in entries)]
    fields = [name for name, _ in entries]
    return ToolPlan.from_dict({**plan.to_dict(), "output_fields": fields, "output_map": mapped, "evidence": evidence})


__all__ = ["amount_answer"]
