"""A record a quote prices in place of the one its records link, when the docs say so:

    "when `swap` is true (default), the charter is not `fixed_hull`, the hull is a cruiser with a `twin_id`, and
    that twin has enough `berths` for the crew, the twin is priced instead (`swapped` = true)"

gives a `swap` of the link (`hull_id`, read off the charter) to the record its `twin_id` names, taken when every
condition holds; `swapped` answers whether it was taken, the link's own answer field the id priced, and an answer
field ending in the link's name (`booked_hull_id`) the id the holder names. The runtime block is
code_templates/_blocks.j2 `figures`; conditions are yes/no formula nodes (formula_runtime.fg_formula `test`, `set`,
`all`, `>=`), the alternate record read as `<link>~alternate`, whether it was taken as the value `<link>~swapped`.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.figure_terms import param_default
from synth.envsynth.quote_scope import field_holder

INSTEAD = re.compile(
    r"\bwhen\s+(?P<conds>[^.]+?),\s+the\s+(?P<noun>[\w ]+?)\s+is\s+(?:priced|used|dispensed|charged|booked|taken)"
    r"\s+instead\s*\(\s*`?(?P<flag>\w+)`?\s*=\s*true\s*\)",
    re.I,
)
ARG_IS = re.compile(r"`?(\w+)`?\s+is\s+(true|false)(?:\s*\(default\))?", re.I)
RECORD_IS = re.compile(r"the\s+([\w ]+?)\s+is\s+(not\s+)?`?(\w+)`?", re.I)
WITH = re.compile(r"the\s+[\w ]+?\s+is\s+(?:a|an)\s+\w+\s+with\s+(?:a|an)\s+`?(\w+)`?", re.I)
ENOUGH = re.compile(r"that\s+\w+\s+has\s+enough\s+`?(\w+)`?\s+for\s+the\s+`?(\w+)`?", re.I)
SPLIT = re.compile(r",\s+(?:and\s+)?|\s+and\s+(?=the\b|that\b|`)", re.I)


def _same_ids(cols: dict[str, Any], col: str, field: str) -> bool:
    """The field holds ids of its own collection: its pattern is the collection's key pattern."""
    entry = cols.get(col) or {}
    names = (entry.get("propertyNames") or {}).get("pattern")
    held = ((entry.get("additionalProperties") or {}).get("properties") or {}).get(field) or {}
    return bool(names) and held.get("pattern") == names


def read_swap(scope: Any, cols: dict[str, Any], steps: dict[str, dict[str, Any]], listed: list[str]) -> dict | None:
    """{"link", "collection", "field", "when", "flag"} for the record priced instead, or None unless every
    condition of the docs' sentence reads."""
    m = INSTEAD.search(scope.docs)
    if not m or m.group("flag") not in listed:
        return None
    found: list[tuple[str, str]] = []  # (link, alternate id field)
    when: list[dict[str, Any]] = []
    later: list[tuple[str, str]] = []  # "has enough <field> for the <arg>": read once the link is known
    for part in [p.strip() for p in SPLIT.split(m.group("conds")) if p.strip()]:
        arg, said, enough = ARG_IS.fullmatch(part), RECORD_IS.fullmatch(part), ENOUGH.fullmatch(part)
        withed = WITH.fullmatch(part)
        if arg and arg.group(1) in scope.params:
            node = {"arg": arg.group(1), "default": param_default(scope.params[arg.group(1)])}
            when.append({"test": node, "in": [arg.group(2).lower() == "true"]})
        elif withed:
            holders = [p for p in scope.linked if withed.group(1) in scope.fields[p]]
            holders = [p for p in holders if _same_ids(cols, scope.linked[p][2], withed.group(1))]
            if len(holders) != 1:
                return None
            found.append((holders[0], withed.group(1)))
            when.append({"set": {"field": withed.group(1), "param": holders[0]}})
        elif enough:
            later.append((enough.group(1), enough.group(2)))
        elif said and (holder := field_holder(scope, said.group(3), "boolean")):
            node = {"field": said.group(3), "param": holder}
            when.append({"test": node, "in": [False, None] if said.group(2) else [True]})
        else:
            return None
    if len(found) != 1:
        return None
    link, field = found[0]
    for amount, arg in later:
        if amount not in scope.fields[link] or arg not in steps:
            return None
        when.append({"op": ">=", "args": [{"field": amount, "param": f"{link}~alternate"}, steps[arg]]})
    return {"link": link, "collection": scope.linked[link][2], "field": field, "when": when, "flag": m.group("flag")}


def swapped_steps(
    swap: dict[str, Any], scope: Any, cols: dict[str, Any], steps: dict[str, dict[str, Any]], listed: list[str]
) -> dict[str, dict[str, Any]]:
    """The answer fields the swap sets: whether it was taken, the id priced, and the id the holder names."""
    link, holder = swap["link"], scope.linked[swap["link"]][0]
    key = (cols.get(swap["collection"]) or {}).get("x-key-field")
    out: dict[str, dict[str, Any]] = {swap["flag"]: {"val": f"{link}~swapped"}}
    if link in listed and key:
        out[link] = {"field": key, "param": link}
    for name in [n for n in listed if n.endswith("_" + link) and n not in steps]:  # `booked_hull_id`
        out[name] = {"field": scope.linked[link][1], "param": holder}
    return out


__all__ = ["read_swap", "swapped_steps"]
