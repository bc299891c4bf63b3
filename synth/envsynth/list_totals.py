"""Figures of a record that its docs say a list edit recomputes ("subtotal, discount, fees and total are
recomputed"), each as the sample records show it is made from the record's list and fields:

- the sum of a number of the list's entries (`subtotal` = the tickets' prices);
- a fixed amount per entry (`fees` = 2.50 per ticket);
- a percentage a linked record holds of another figure, to the cent (`discount` = the promo code's `percent_off`
  of the subtotal; 0 without a promo code);
- a sum and difference of two or three other figures (`total` = subtotal - discount + fees);
- the total of one list less the total of another (`balance` = charges - payments), at least 0 when the data shows
  it is, or the docs say so and the data does not tell.

Every sample record holding the list must agree (to the cent), with at least three of them and two values of the
figure between them; a figure no rule explains is left as it is. The rules run in an order where each figure's
inputs come first, as `derive` steps of fg_formula nodes over the record's values.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import MIN_RECORDS, keyed_records, sample_records
from synth.envsynth.entry_copies import _holder
from synth.envsynth.expr_runtime import fg_number
from synth.envsynth.plan import ToolPlan
from synth.envsynth.quote_reuse import recomputed_names

Node = dict[str, Any]
FLOOR = re.compile(r"\b(?:below|under|less\s+than)\s+(?:0|zero)\b|\bnegative\b", re.I)
CENT = 0.005


def _agree(records: list[dict[str, Any]], field: str, worked: list[Any]) -> bool:
    return all(fg_number(w) and abs(w - r.get(field)) < CENT for r, w in zip(records, worked))


def _entries(record: dict[str, Any], list_field: str) -> list[dict[str, Any]]:
    items = record.get(list_field)
    return [e for e in items if isinstance(e, dict)] if isinstance(items, list) else []


def _sums(records: list[dict[str, Any]], list_field: str, field: str) -> list[Node]:
    names = sorted({k for r in records for e in _entries(r, list_field) for k, v in e.items() if fg_number(v)})
    out = []
    for name in names:
        worked = [sum(e.get(name) or 0 for e in _entries(r, list_field)) for r in records]
        if _agree(records, field, worked):
            out.append({"sum": list_field, "of": name})
    return out


def _per_entry(records: list[dict[str, Any]], list_field: str, field: str) -> list[Node]:
    counted = [(len(_entries(r, list_field)), r.get(field)) for r in records]
    rates = {round(v / n, 6) for n, v in counted if n}
    if len(rates) != 1 or len({n for n, _ in counted}) < 2:
        return []
    rate = rates.pop()
    if rate == 0 or not all(abs(rate * n - v) < CENT for n, v in counted):
        return []
    return [{"op": "*", "args": [{"num": rate}, {"count": list_field}]}]


def _links(sample: dict[str, Any], collection: str, records: list[dict[str, Any]]) -> dict[str, str]:
    """{record field: the other collection its values (when set) are keys of}."""
    out = {}
    for name in sorted({k for r in records for k in r}):
        values = [r.get(name) for r in records if r.get(name) is not None]
        other = _holder(sample, collection, values) if all(isinstance(v, str) for v in values) else None
        if other is not None:
            out[name] = other
    return out


def _shares(
    sample: dict[str, Any], records: list[dict[str, Any]], field: str, links: dict[str, str], numbers: list[str]
) -> list[Node]:
    out = []
    for link, other in sorted(links.items()):
        held = keyed_records(sample, other)
        rates = sorted({k for r in held.values() for k, v in r.items() if fg_number(v)})
        for rate, base in itertools.product(rates, [n for n in numbers if n != field]):
            worked = []
            for r in records:
                linked = held.get(str(r.get(link))) if r.get(link) is not None else {}
                pct, whole = (linked or {}).get(rate, 0 if not linked else None), r.get(base)
                worked.append(round(pct / 100 * whole, 2) if fg_number(pct) and fg_number(whole) else None)
            if _agree(records, field, worked) and any(w for w in worked):
                share = {
                    "op": "*",
                    "args": [{"op": "/", "args": [{"field": rate, "param": link}, {"num": 100}]}, {"val": base}],
                }
                out.append({"round": share, "digits": 2, "way": "nearest"})
    return out


def _combos(records: list[dict[str, Any]], field: str, numbers: list[str]) -> list[Node]:
    others = [n for n in numbers if n != field]
    for size in (2, 3):
        found = []
        for names in itertools.combinations(others, size):
            for signs in itertools.product((1, -1), repeat=size):
                if 1 not in signs:
                    continue
                worked = [
                    sum(s * r.get(n) for s, n in zip(signs, names)) if all(fg_number(r.get(n)) for n in names) else None
                    for r in records
                ]
                if _agree(records, field, worked):
                    terms = sorted(zip(signs, names), key=lambda sn: -sn[0])  # the added ones first
                    node: Node = {"val": terms[0][1]}
                    for s, n in terms[1:]:
                        node = {"op": "+" if s > 0 else "-", "args": [node, {"val": n}]}
                    found.append(node)
        if found:
            return found[:1] if len(found) == 1 else []
    return []


def _list_difference(records: list[dict[str, Any]], field: str, floored: bool) -> list[Node]:
    """The total of one list's entries less the total of another's (`balance` = the charges' amounts less the
    payments' amounts), kept at 0 or more when only that fits the data, or both fit and the docs say it never goes
    below 0."""
    lists = sorted({k for r in records for k, v in r.items() if isinstance(v, list)})
    terms = [
        (name, of)
        for name in lists
        for of in sorted({k for r in records for e in _entries(r, name) for k, v in e.items() if fg_number(v)})
    ]
    found = []
    for (a, x), (b, y) in itertools.permutations(terms, 2):
        if a == b:
            continue
        raw = [sum(e.get(x) or 0 for e in _entries(r, a)) - sum(e.get(y) or 0 for e in _entries(r, b)) for r in records]
        plain, kept = _agree(records, field, raw), _agree(records, field, [max(0, w) for w in raw])
        node: Node = {"op": "-", "args": [{"sum": a, "of": x}, {"sum": b, "of": y}]}
        if kept and (floored or not plain):  # the data or the docs keep it at 0 or more
            found.append({"op": "max", "args": [{"num": 0}, node]})
        elif plain:
            found.append(node)
    return found


def _inputs(node: Any) -> set[str]:
    if isinstance(node, dict):
        out = {node["val"]} if "val" in node else set()
        for v in node.values():
            out |= _inputs(v)
        return out
    if isinstance(node, list):
        return set().union(*(_inputs(v) for v in node)) if node else set()
    return set()


def list_totals(
    sample: dict[str, Any], collection: str, list_field: str, fields: list[str], floored: bool = False
) -> dict[str, Any] | None:
    """A `derive` effect ({named: {link: collection}, steps: [[field, node], ...]}) recomputing the `fields` the
    sample data explains, or None when it explains none."""
    records = [r for r in sample_records(sample, collection) if isinstance(r.get(list_field), list)]
    numbers = sorted({k for r in records for k, v in r.items() if fg_number(v)})
    wanted = [f for f in fields if f in numbers and all(fg_number(r.get(f)) for r in records)]
    if len(records) < MIN_RECORDS or not wanted:
        return None
    links = _links(sample, collection, records)
    rules: dict[str, Node] = {}
    for field in wanted:
        if len({r.get(field) for r in records}) < 2:
            continue
        found = (
            _sums(records, list_field, field)
            or _per_entry(records, list_field, field)
            or _shares(sample, records, field, links, numbers)
            or _combos(records, field, numbers)
            or _list_difference(records, field, floored)
        )
        if len(found) == 1:
            rules[field] = found[0]
    steps: list[list[Any]] = []
    while rules:  # each figure after the recomputed ones it reads
        ready = [f for f in sorted(rules) if not (_inputs(rules[f]) & (set(rules) - {f}))]
        if not ready:
            break
        for f in ready:
            steps.append([f, rules.pop(f)])
    if not steps:
        return None
    used = {m.group(1) for m in re.finditer(r"'param': '([^']+)'", repr(steps))}
    return {"op": "derive", "named": {k: v for k, v in links.items() if k in used}, "steps": steps}


def with_list_totals(
    plan: ToolPlan, state_schema: dict[str, Any], text: str, sample: dict[str, Any], posted: str | None = None
) -> ToolPlan:
    """A list edit's plan (or a recorded change's that posts lines to the list `posted`) with a `derive` effect
    for the record figures its docs say are recomputed and the sample data explains; the plan unchanged otherwise
    (or when a sibling quote already recomputes them)."""
    listed = plan.list_field if plan.kind in ("item_add", "item_remove") else posted
    if not plan.collection or not listed or (plan.quote or {}).get("from_record"):
        return plan
    names = recomputed_names(text, _props(state_schema.get("properties") or {}, plan.collection))
    names = names or (summed_names(sample, plan.collection, listed) if plan.kind == "item_add" else [])
    floored = bool(FLOOR.search(text))  # "never below 0"
    derive = list_totals(sample, plan.collection, listed, names, floored) if names else None
    if derive is None:
        return plan
    evidence = plan.evidence + ["recomputed as the sample records show: " + ", ".join(f for f, _ in derive["steps"])]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": list(plan.effects) + [derive], "evidence": evidence})


def summed_names(sample: dict[str, Any], collection: str, list_field: str) -> list[str]:
    """The record's numbers that every sample record holding the list (three at least, two values between them)
    holds as the sum of one number of its entries, the name sharing that number's word (`amount_paid`, the
    payments' `amount`): an added entry adds to them, though the docs say nothing of it."""
    records = [r for r in sample_records(sample, collection) if isinstance(r.get(list_field), list)]
    numbers = sorted({k for r in records for k, v in r.items() if fg_number(v)})
    out = []
    for field in numbers if len(records) >= MIN_RECORDS else []:
        if len({r.get(field) for r in records}) < 2 or not all(fg_number(r.get(field)) for r in records):
            continue
        if any(set(node["of"].split("_")) & set(field.split("_")) for node in _sums(records, list_field, field)):
            out.append(field)
    return out


TOTAL_WORDS = ("total", "subtotal", "sum", "gross")  # a figure named as a total, not one paid or settled so far


def create_sums(sample: dict[str, Any], collection: str, own: dict[str, Any], unset: list[str]) -> list[dict[str, Any]]:
    """`derive` effects for a new record's totals nothing else sets (a number named as a total) that are the sum of
    a number of one of its lists' entries (`total` = the passengers' fares) in at least MOSTLY of the sample records
    (three at least, two values between them): the others add what the data does not explain (a fee), which a new
    record may lack. Not when a count of the entries that is 1 wherever the sum holds differs where it does not (the
    total is a product), nor over a field some entry holds as text."""
    from synth.envsynth.data_copies import MOSTLY

    records = sample_records(sample, collection)
    lists = sorted(f for f, s in own.items() if isinstance(s, dict) and (s.get("items") or {}).get("type") == "object")
    totals = [f for f in unset if "number" in str((own.get(f) or {}).get("type"))]
    out = []
    for field in [f for f in totals if set(f.lower().split("_")) & set(TOTAL_WORDS)]:
        found = []
        for list_field in lists:
            held = [r for r in records if isinstance(r.get(list_field), list) and fg_number(r.get(field))]
            entries = [e for r in held for e in _entries(r, list_field)]
            names = sorted({k for e in entries for k, v in e.items() if fg_number(v)})
            for name in [n for n in names if all(e.get(n) is None or fg_number(e.get(n)) for e in entries)]:
                worked = [sum(e.get(name) or 0 for e in _entries(r, list_field)) for r in held]
                agreeing = [r for r, w in zip(held, worked) if abs(w - r[field]) < CENT]
                others = [r for r in held if not any(r is a for a in agreeing)]
                if (
                    len(agreeing) >= max(MIN_RECORDS, MOSTLY * len(held))
                    and len({r[field] for r in agreeing}) >= 2
                    and not _hidden_factor(agreeing, others, list_field, name)
                ):
                    found.append({"sum": list_field, "of": name})
        if len(found) == 1:
            out.append({"op": "derive", "named": {}, "steps": [[field, found[0]]]})
    return out


def _hidden_factor(agreeing: list[dict], others: list[dict], list_field: str, name: str) -> bool:
    """An entry count (`berths`) that is 1 in every agreeing record and not in some other one: the total is a
    product the plain sum only matches while it is 1."""
    numbers = {k for r in agreeing + others for e in _entries(r, list_field) for k, v in e.items() if fg_number(v)}
    for other in sorted(numbers - {name}):
        ones = all(e.get(other) == 1 for r in agreeing for e in _entries(r, list_field))
        if ones and any(e.get(other) not in (1, None) for r in others for e in _entries(r, list_field)):
            return True
    return False


__all__ = ["create_sums", "list_totals", "with_list_totals"]
