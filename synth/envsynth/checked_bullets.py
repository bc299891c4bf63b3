"""A priced create's own list of checks ("Checks, in addition to the quote's: - ..."), each bullet a refusal over
the records the quote reads and its figures (quote_reuse.priced_fields adds them to the quote's refusals):

    - the skipper exists and is "active" (skippers on hold cannot book);
    - berth space: for every mooring, the nights asked for across all lines must not exceed its free_nights;
    - club skippers: balance_owed + the booking's total must not exceed credit_limit;
    - visiting skippers: balance_owed must be 0.00 and the booking total may not exceed 400.00.

A bullet led by "<value> <noun>s:" (a value of one text field of a record the quote names: `club`, `visiting`
spelt with `_` or `-` too) holds for such records only. Its clauses (split at " and "):
- "the <noun> exists and is "<v>"": the named record's field holding that value must hold it;
- "<a> + the <noun>'s total must not exceed <b>": two numbers of a named record and the quote's `total`;
- "<a> must be <N>": a named record's number equals N;
- "the <noun> total may not exceed <N>" (must not): the quote's `total` at most N;
- "the <units> asked for across all lines must not exceed its <field>": refused when a line's flag the quote
  computes against that field (line_pricing.across_node) is false.
A bullet none of whose clauses reads is left alone (a check the quote's lines already make, say); one with a clause
not read gives nothing for that clause.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import field_values, sample_records

CHECKS = re.compile(r"\bChecks\b[^:\n]{0,80}:\s*\n((?:\s*-\s+[^\n]+\n?)+)")
LABEL = re.compile(r"^\s*-\s+(?:(?P<value>[\w-]+)\s+(?P<noun>\w+)s?:\s+)?(?P<body>.+?)[.;]?\s*$")
EXISTS = re.compile(r"^the\s+(\w+)\s+exists\s+and\s+is\s+[\"'`]([\w-]+)[\"'`]", re.I)
SUM_CAP = re.compile(r"^`?(\w+)`?\s*\+\s*the\s+\w+['\u2019]s\s+total\s+must\s+not\s+exceed\s+`?(\w+)`?", re.I)
EQUALS = re.compile(r"^`?(\w+)`?\s+must\s+be\s+(\d+(?:\.\d+)?)\s*$", re.I)  # not "must be 600 or more"
TOTAL_CAP = re.compile(r"^the\s+\w+\s+total\s+(?:may|must)\s+not\s+exceed\s+\$?([\d,]+(?:\.\d+)?)", re.I)
ACROSS = re.compile(r"across\s+all\s+lines\s+must\s+not\s+exceed\s+its\s+`?(\w+)`?", re.I)


def _value_field(value: str, named: dict[str, str], cols: dict[str, Any], sample: dict[str, Any]) -> tuple | None:
    spelt = {value.lower(), value.lower().replace("-", "_")}
    hits = []
    for param, col in sorted(named.items()):
        for field, schema in sorted(_props(cols, col).items()):
            known = field_values(schema, sample_records(sample, col), field)
            hit = next((v for v in known if v.lower() in spelt), None)
            if hit:
                hits.append((param, field, hit))
    return hits[0] if len(hits) == 1 else None


def _number_holder(field: str, named: dict[str, str], cols: dict[str, Any]) -> str | None:
    holders = [
        p for p, c in sorted(named.items()) if (_props(cols, c).get(field) or {}).get("type") in ("number", "integer")
    ]
    return holders[0] if len(holders) == 1 else None


def _clause(text: str, quote: dict[str, Any], cols: dict[str, Any], sample: dict[str, Any]) -> dict[str, Any] | None:
    named = dict(quote.get("named") or {})
    total = {"val": "total"} if "total" in dict(quote.get("steps") or []) else None
    if m := EXISTS.match(text):
        held = _value_field(m.group(2), named, cols, sample)
        return {"not": {"test": {"field": held[1], "param": held[0]}, "in": [held[2]]}} if held else None
    if (m := SUM_CAP.match(text)) and total:
        a, b = _number_holder(m.group(1), named, cols), _number_holder(m.group(2), named, cols)
        if a and a == b:
            owed = {"op": "+", "args": [{"field": m.group(1), "param": a}, total]}
            return {"op": ">", "args": [{"round": owed, "digits": 6}, {"field": m.group(2), "param": a}]}
    if m := EQUALS.match(text):
        holder = _number_holder(m.group(1), named, cols)
        if holder:
            number = float(m.group(2))
            return {
                "any": [
                    {"op": "<", "args": [{"field": m.group(1), "param": holder}, {"num": number}]},
                    {"op": ">", "args": [{"field": m.group(1), "param": holder}, {"num": number}]},
                ]
            }
    if (m := TOTAL_CAP.match(text)) and total:
        return {"op": ">", "args": [total, {"num": float(m.group(1).replace(",", ""))}]}
    if m := ACROSS.search(text):
        for name, node in quote.get("steps") or []:
            for flag, line in (node.get("lines") or {}).get("steps", []) if isinstance(node, dict) else []:
                inner = line.get("round", line) if isinstance(line, dict) else {}
                args = inner.get("args") or [{}, {}]
                if "across" in args[0] and args[1].get("field") == m.group(1):
                    return {"some": name, "field": flag, "in": [False]}
    return None


def checked_refusals(text: str, quote: dict[str, Any], cols: dict[str, Any], sample: dict[str, Any]) -> list[dict]:
    """[{"when": node, "said": bullet}] for the bullets of the docs' "Checks ...:" list that read."""
    found = CHECKS.search(text)
    out: list[dict[str, Any]] = []
    for line in found.group(1).splitlines() if found else []:
        said = LABEL.match(line)
        if not said or not line.strip():
            continue
        label = (
            _value_field(said.group("value"), dict(quote.get("named") or {}), cols, sample)
            if said.group("value")
            else None
        )
        body = re.sub(r"\s*\([^()]*\)", "", said.group("body"))  # "(settle it first)": an aside
        clauses = [
            c.strip() for c in re.split(r"\s+and\s+(?=the\s|`?\w+`?\s+must|`?\w+`?\s*\+)", body) if c.strip()
        ]  # a title ("berth space:") leads no condition
        for clause in clauses:
            node = _clause(re.sub(r"^for\s+every\s+\w+,\s*", "", clause), quote, cols, sample)
            if node is None:
                continue
            if label:
                node = {"all": [{"test": {"field": label[1], "param": label[0]}, "in": [label[2]]}, node]}
            out.append({"when": node, "said": clause})
    return out
