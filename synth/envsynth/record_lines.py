"""Quote lines over a list the quoted record holds: "a `<word>` row charged at the <owner>'s `<field>`, then a row for
every <element>" (line, row or entry; per, for each or for every) answers `<lines>: [{<text>, <number>}]` with a
leading line {<text>: "<word>", <number>: the owner's <field>} and then a line for each element of the record's
`<element>s` list, {<text>: the element, <number>: its price}.

The list is the named record's array field whose singular is the <element> noun; a line's text field (by the answer
schema's types) takes the element and its number field the element's price, from a price list the docs give as a
table (price_lists.py) or in prose ("<Heading>: <a> 12.00, <b> 40.00, <c> 9.50"), holding every value the list's
schema or the sample's records give it. The leading line, when the docs name one, comes first.

The node is {"record_lines": {holder, list, text, number, prices, lead}} (code_templates/_blocks.j2
`record_lines`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.price_lists import price_lists
from synth.envsynth.prose import unwrap
from synth.envsynth.returns_shape import ReturnedField
from synth.spec import ToolSpec
from synth.words import singular

PER = re.compile(r"\b(?:one|a|an)\s+(?:line|entry|row)\s+(?:per|for\s+(?:each|every))\s+([a-z_]+)", re.I)
LEAD = re.compile(
    r"\b(?:the|a|an)\s+(?:leading\s+|first\s+|opening\s+)?`?([\w-]+)`?\s+(?:line|row|entry)\s+"
    r"(?:(?:charged|priced|billed)\s+)?(?:at|for|with)\s+the\s+[a-z]+['\u2019]s\s+`?(\w+)`?",
    re.I,
)


PAIR = re.compile(r"^\s*(?:and\s+)?`?([a-z][\w-]*)`?\s+\$?(\d+(?:\.\d+)?)\s*$", re.I)


def _values(schema: dict[str, Any], records: list[Any], field: str) -> list[str]:
    """The values a list's elements take: its schema's enum, else those of the sample's records."""
    items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
    known = [str(v) for v in (items.get("enum") or items.get("x-enum") or [])]
    seen = {str(v) for r in records if isinstance(r, dict) for v in (r.get(field) or []) if isinstance(v, (str, int))}
    return known or sorted(seen)


def _prose(sentence: str) -> dict[str, Any]:
    """{name: number} of a "...: a 12.00, b 40.00, c 9.50" list of three pairs or more (nothing else in it)."""
    head, _, tail = sentence.partition(":")
    pairs = [PAIR.match(part) for part in re.split(r",|;", tail.strip().rstrip("."))] if tail else []
    if len(pairs) < 3 or not all(pairs):
        return {}
    return {m.group(1): float(m.group(2)) if "." in m.group(2) else int(m.group(2)) for m in pairs if m}


def _prices(values: list[str], docs: str) -> dict[str, Any] | None:
    """The one price per element value the docs give: a markdown price list holding these values, else a prose
    list of pairs holding them all."""
    for one in price_lists(docs):
        if values and set(one.values) >= set(values):
            return dict(one.values)
    for sentence in re.split(r"(?<=[.;])\s+(?=[A-Z`-])|\n(?=\s*[-*#])", unwrap(docs)):
        table = _prose(sentence)
        if values and set(table) >= set(values):
            return table
    return None


def record_line_node(field: ReturnedField, spec: ToolSpec, scope: Any) -> dict[str, Any] | None:
    """The `record_lines` node of an answer list built from a list the quoted record holds, or None."""
    entries = list(field.entries)
    per = PER.search(spec.description)
    if per is None or len(entries) != 2:
        return None
    noun = singular(per.group(1).lower())
    lists = [
        (p, f, s)
        for p in scope.named
        for f, s in (scope.fields.get(p) or {}).items()
        if isinstance(s, dict) and s.get("type") == "array" and singular(f.lower()) == noun
    ]
    returns = spec.returns if isinstance(spec.returns, dict) else {}
    line = (((returns.get("properties") or {}).get(field.name) or {}).get("items") or {}).get("properties") or {}
    kinds = {e.name: (line.get(e.name) or {}).get("type") for e in entries}
    texts = [n for n, kind in kinds.items() if kind == "string"]
    numbers = [n for n, kind in kinds.items() if kind in ("number", "integer")]
    if len(lists) != 1 or len(texts) != 1 or len(numbers) != 1:
        return None
    holder, lst, schema = lists[0]
    records = scope.sample.get(scope.named[holder]) if isinstance(scope.sample.get(scope.named[holder]), dict) else {}
    values = _values(schema, list(records.values()), lst)
    prices = _prices(values, scope.docs) if values else None
    if prices is None:
        return None
    lead = None
    said = LEAD.search(spec.description)
    if said:
        holders = [p for p, fs in scope.fields.items() if said.group(2) in fs]
        if len(holders) != 1:
            return None
        lead = {"text": said.group(1), "number": {"field": said.group(2), "param": holders[0]}}
    return {
        "record_lines": {
            "holder": holder,
            "list": lst,
            "text": texts[0],
            "number": numbers[0],
            "prices": prices,
            "lead": lead,
        }
    }


__all__ = ["record_line_node"]
