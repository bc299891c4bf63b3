"""What a create priced by a sibling quote writes beyond the figures it copies (quote_reuse.priced_fields):

- a field the docs tie to the copied ones by an equation ("balance_due = charter_total - deposit + fees", said in
  any tool's docs) is solved for when it is the one field of the equation left unset (`subtotal` from
  `skipper_pays = subtotal - discount - club_pays + fees`);
- the line a new record opens its list of lines with ("queued with one charter line ..."), each field learned from
  the first line of every sample record: a value all of them share, the quote's figure of the same name, the
  product of two other fields of the line (`line_total`), or the fields of the record the line names joined by a
  space ("Swift 8 m sloop": `name`, `length`, `rig` of the boat its `boat_id` names, read from the quote's named
  records, so the one priced). The line is a `priced_line` create effect (code_templates/create.py.j2).
"""

from __future__ import annotations

import re
from itertools import permutations
from typing import Any

from synth.envsynth.data_copies import sample_records
from synth.envsynth.expr_runtime import fg_number
from synth.words import singular

EQUATION = re.compile(r"`?\b([a-z]\w*)`?\s*=\s*((?:`?[a-z]\w*`?\s*[+-]\s*)+`?[a-z]\w*`?)")
ONE_LINE = re.compile(r"\bwith\s+one\s+(?:[\w-]+\s+){0,3}?line\b", re.I)


def signed(node: dict[str, Any], terms: list[tuple[str, dict[str, Any]]]) -> dict[str, Any]:
    """The node with each (sign, term) added or taken off in turn."""
    for sign, term in terms:
        node = {"op": sign, "args": [node, term]}
    return node


def equations(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """(left side, [(sign, term)]) of each "a = b - c + d" the text writes, the first term signed "+"."""
    out = []
    for m in EQUATION.finditer(text):
        parts = re.split(r"\s*([+-])\s*", m.group(2).replace("`", ""))
        out.append((m.group(1), [("+", parts[0])] + list(zip(parts[1::2], parts[2::2]))))
    return out


def solved_fields(glossary: str, assign: dict[str, Any], open_fields: list[str]) -> dict[str, dict[str, Any]]:
    """{record field: its formula node over the copied figures} for each unset field an equation of the docs
    leaves as its one unknown."""
    out: dict[str, dict[str, Any]] = {}
    for left, terms in equations(glossary):
        names = [left] + [t for _, t in terms]
        unknown = [n for n in names if n not in assign]
        if len(unknown) != 1 or unknown[0] not in open_fields or unknown[0] in out or len(set(names)) != len(names):
            continue
        if any(isinstance(assign[n], dict) for n in names if n != unknown[0]):
            continue
        value = {n: {"val": assign[n]} for n in names if n in assign}
        if unknown[0] == left:  # the left side: the signed sum of the terms
            node = signed(value[terms[0][1]], [(s, value[t]) for s, t in terms[1:]])
        else:  # a term: the left side less the other terms, negated when the term is taken off
            sign = next(s for s, t in terms if t == unknown[0])
            rest = [(("-" if s == "+" else "+"), value[t]) for s, t in terms if t != unknown[0]]
            node = signed(value[left], rest)
            node = node if sign == "+" else {"op": "-", "args": [{"num": 0}, node]}
        out[unknown[0]] = {"round": node, "digits": 2, "way": "nearest"}
    return out


def _joined(texts: list[str], linked: list[dict[str, Any]]) -> list[str] | None:
    """The fields of the linked records whose values, joined by a space, write every text."""
    if not linked or any(not isinstance(r, dict) for r in linked):
        return None
    names = [k for k, v in sorted(linked[0].items()) if isinstance(v, str) and v and v in texts[0]]
    for size in (1, 2, 3, 4):
        for picked in permutations(names, size):
            if all(" ".join(str(r.get(k)) for k in picked) == t for r, t in zip(linked, texts)):
                return list(picked)
    return None


def opening_line(
    text: str, collection: str, own: dict[str, Any], quote: dict[str, Any], sample: dict[str, Any]
) -> dict[str, Any] | None:
    """A `priced_line` effect writing the line the docs open the new record's list of lines with, or None."""
    if not ONE_LINE.search(text):
        return None
    lists = [f for f, s in own.items() if singular(f).endswith("line") and (s or {}).get("type") == "array"]
    items = ((own.get(lists[0]) or {}).get("items") or {}) if len(lists) == 1 else {}
    props = items.get("properties") or {}
    firsts = [r[lists[0]][0] for r in sample_records(sample, collection) if r.get(lists[0])] if props else []
    firsts = [e for e in firsts if isinstance(e, dict)]
    if len(firsts) < 2:
        return None
    figures = [n for n, _ in quote.get("steps") or []]
    params = {
        **{p: c for p, c in (quote.get("named") or {}).items()},
        **{k: v[2] for k, v in (quote.get("linked") or {}).items()},
    }
    entry: dict[str, Any] = {}
    for sub in props:
        values = [e.get(sub) for e in firsts]
        if sub in figures:
            entry[sub] = {"val": sub}
        elif all(v == values[0] for v in values):
            entry[sub] = {"const": values[0]}
    for sub in [s for s in props if s not in entry]:
        values = [e.get(sub) for e in firsts]
        pairs = [(a, b) for a in entry for b in entry if a < b and "val" in entry[a] and "val" in entry[b]]
        product = [
            (a, b)
            for a, b in pairs
            if all(fg_number(v) and fg_number(e.get(a)) and fg_number(e.get(b)) for e, v in zip(firsts, values))
            and all(abs(e[a] * e[b] - v) < 0.005 for e, v in zip(firsts, values))
        ]
        if len(product) == 1:
            a, b = product[0]
            entry[sub] = {"round": {"op": "*", "args": [entry[a], entry[b]]}, "digits": 2, "way": "nearest"}
            continue
        refs = [(f, (s or {}).get("x-references")) for f, s in props.items() if (s or {}).get("x-references")]
        holders = [(f, p) for f, col in refs for p, c in params.items() if c == col]
        if len(holders) != 1 or not all(isinstance(v, str) for v in values):
            return None
        field, param = holders[0]
        linked = [(sample.get(params[param]) or {}).get(str(e.get(field))) for e in firsts]
        joined = _joined(values, linked)
        if joined is None:
            return None
        entry[sub] = {"join": [{"field": k, "param": param} for k in joined], "sep": " "}
    return {"op": "priced_line", "field": lists[0], "entry": entry}


__all__ = ["equations", "opening_line", "signed", "solved_fields"]
