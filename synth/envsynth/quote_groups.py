"""Quotes grouped into a map: an answer field the docs key by a placeholder ("piers: {<pier>: {metres, dues}}")
holds one entry per value of that field among the entries of a named record's list (the visit's `stops`, grouped
by their `pier`; entries without one are left out), each figure as the docs give it: "metres is the total of its
stops" (the one number of the list's entries, or the one the phrase names), "dues is max(metres, the harbour's
minimum charge for that pier)" (an object field of a named or linked record, read at the group's value). A total
over the map sums one figure of its entries (quote_lines.sum_node).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from synth.envsynth.figure_terms import stated_formulas
from synth.envsynth.formula_rules import parse_formula
from synth.envsynth.returns_shape import ReturnedField
from synth.spec import ToolSpec
from synth.words import plural, singular

GROUP = "group"  # the name the group ({"key", "items"}) is in scope under
SUM_OF = re.compile(r"(?:the\s+)?(?:sum|total)\s+of\s+(?:its|their|the\s+group's|the)\s+([\w ]+?)$", re.I)


def _numbers(items: dict[str, Any]) -> list[str]:
    return [f for f, s in sorted(items.items()) if isinstance(s, dict) and s.get("type") in ("number", "integer")]


def group_source(field: ReturnedField, scope: Any, cols: dict[str, Any]) -> dict[str, Any] | None:
    """The named record's list whose entries hold the placeholder's field: {holder, list, by, items}."""
    by = field.keyed_by.replace(" ", "_")
    found = []
    for holder, fields in scope.fields.items():
        for lst, schema in sorted(fields.items()):
            items = (schema.get("items") or {}) if isinstance(schema, dict) and schema.get("type") == "array" else {}
            props = items.get("properties") or {}
            hit = next((f for f in (by, singular(by), plural(by), f"{by}_id") if f in props), None)
            if hit:
                found.append({"holder": holder, "list": lst, "by": hit, "items": props})
    return found[0] if len(found) == 1 else None


def group_node(field: ReturnedField, spec: ToolSpec, outer: Any, cols: dict[str, Any]) -> dict[str, Any] | None:
    """The `groups` node of a keyed map field of the answer, or None when any of its figures is unknown."""
    entries = [e.name for e in field.entries]
    source = group_source(field, outer, cols) if field.keyed_by and entries else None
    if source is None or GROUP in outer.fields or GROUP in outer.params:
        return None
    scope = copy.copy(outer)
    scope.defined, scope.group = list(outer.defined), GROUP
    steps: dict[str, dict[str, Any]] = {}
    for _ in range(len(entries)):
        for name in [n for n in entries if n not in steps]:
            for text in stated_formulas(name, spec.description):
                summed = SUM_OF.match(text)
                if summed:
                    said = [f for f in _numbers(source["items"]) if f in summed.group(1).split()]
                    numbers = said or _numbers(source["items"])
                    node = {"group_sum": numbers[0], "group": GROUP} if len(numbers) == 1 else None
                else:
                    node = parse_formula(text, scope)
                if node is not None:
                    steps[name] = node
                    scope.defined.append(name)
                    break
    if len(steps) != len(entries):
        return None
    groups = {
        **{k: source[k] for k in ("holder", "list", "by")},
        "name": GROUP,
        "steps": [[n, steps[n]] for n in entries],
    }
    return {"groups": groups}


__all__ = ["group_node", "group_source"]
