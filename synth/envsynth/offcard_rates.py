"""Numbers of new list entries whose key the rate card does not list, read from the sample data: a charter's
`skipper` passenger is not on the trip's `fares` card ({"adult": 40.0, "child": 20.0}), and the data shows what it
pays instead, one rule per value of a closed field of a record the charter leads to (the trip's `kind`):

- a constant: every `skipper` on a `harbour` trip pays 0.0 (two charters at least);
- the card's number at another key less a percentage a linked record holds: on a `coastal` trip the `adult` fare
  less the `discount_pct` of the skipper's club (`skipper_id` -> skippers, its `club` -> clubs), with two
  percentages at least between the entries, so a constant factor is not taken for a percentage.

Without a split every entry of the key follows one rule; else the closed field (2 to 4 values, set in every record
it is read on, not naming records as a link or a key does) whose groups, each of two charters at least, each follow
one. At least three entries of two charters; two splits that group the entries differently and both explain them
name neither. The rules are the `others` of the card's `entry_rate` effect (entry_rates.py), run by
rate_runtime.fg_off_card.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.data_copies import MIN_RECORDS, keyed_records, sample_records
from synth.envsynth.entry_copies import _entries
from synth.envsynth.entry_figures import _chains, _follow
from synth.envsynth.expr_runtime import fg_number

Row = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]  # (parent, entry, the parent's card)
Chain = list[dict[str, str]]


def _parents(rows: list[Row]) -> list[dict[str, Any]]:
    seen: dict[int, dict[str, Any]] = {}
    for parent, _, _ in rows:
        seen.setdefault(id(parent), parent)
    return list(seen.values())


def _less_pct(rows: list[Row], field: str, sample: dict[str, Any], chains: list[Chain]) -> dict[str, Any] | None:
    """{"base": key, "less_pct": {chain, field}}: every entry is the card's number at that key less a percentage
    (0 to 100) a record its parent leads to holds, two percentages at least between them; None when none, or two."""
    keys = sorted(set.intersection(*[{k for k, v in card.items() if fg_number(v)} for _, _, card in rows]))
    found = []
    for chain in chains:
        holders = [_follow(sample, parent, chain) for parent, _, _ in rows]
        if not all(holders):
            continue
        names = sorted(set.intersection(*[set(h) for h in holders if h]))
        for name in names:
            pcts = [h.get(name) if h else None for h in holders]
            if not all(fg_number(p) and 0 <= p <= 100 for p in pcts) or len(set(pcts)) < 2:
                continue
            for key in keys:
                if all(
                    abs(entry[field] - round(card[key] * (1 - p / 100.0), 2)) < 0.005
                    for (_, entry, card), p in zip(rows, pcts)
                ):
                    found.append({"base": key, "less_pct": {"chain": chain, "field": name}})
    return found[0] if len(found) == 1 else None


def _formula(rows: list[Row], field: str, sample: dict[str, Any], collection: str) -> dict[str, Any] | None:
    """The one rule every entry of the group follows, or None."""
    if len(_parents(rows)) < 2:
        return None
    values = {entry[field] for _, entry, _ in rows}
    if len(values) == 1:
        return {"const": next(iter(values))}
    return _less_pct(rows, field, sample, [[], *_chains(sample, collection, _parents(rows))])


def _names_records(sample: dict[str, Any], values: list[Any]) -> bool:
    """Every value is the key of a record of one sample collection."""
    return any((keys := keyed_records(sample, name)) and all(str(v) in keys for v in values) for name in sorted(sample))


def _splits(rows: list[Row], sample: dict[str, Any], collection: str) -> list[tuple[Chain, str, list[str]]]:
    """(chain, closed field, each row's value) for the closed fields of the parents and the records they lead to."""
    out = []
    for chain in [[], *_chains(sample, collection, _parents(rows))]:
        held = [_follow(sample, parent, chain) for parent, _, _ in rows]
        if not all(held):
            continue
        for name in sorted(set.intersection(*[set(h) for h in held if h])):
            values = [h.get(name) if h else None for h in held]
            if _names_records(sample, values):
                continue  # a link or a key (`trip_id`) groups by record, not by a kind of record
            if all(isinstance(v, str) for v in values) and 2 <= len(set(values)) <= 4:
                out.append((chain, name, [str(v) for v in values]))
    return out


def _rules(rows: list[Row], field: str, sample: dict[str, Any], collection: str, value: str) -> list[dict[str, Any]]:
    """The rules for one key value's entries: one rule without a split, else one per group of the one split."""
    whole = _formula(rows, field, sample, collection)
    if whole is not None:
        return [{"value": value, "when": None, **whole}]
    found: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for chain, name, values in _splits(rows, sample, collection):
        partition = tuple(values.index(v) for v in values)  # the grouping, whatever the values' names
        rules = []
        for group in sorted(set(values)):
            mine = [r for r, v in zip(rows, values) if v == group]
            rule = _formula(mine, field, sample, collection)
            if rule is None:
                break  # a group no rule explains (or of one parent): no split by this field
            rules.append({"value": value, "when": {"chain": chain, "field": name, "is": group}, **rule})
        else:
            found.setdefault(partition, rules)
    return next(iter(found.values())) if len(found) == 1 else []


def off_card(
    sample: dict[str, Any], collection: str, list_field: str, field: str, key: str, chain: Chain, card: str
) -> list[dict[str, Any]]:
    """The rules for the entries whose `key` value the `card` (at the end of `chain`) does not list ([] when the
    data shows none)."""
    by_value: dict[str, list[Row]] = {}
    for parent, entry in _entries(sample_records(sample, collection), list_field):
        holder = _follow(sample, parent, chain)
        rates = holder.get(card) if holder else None
        value = entry.get(key)
        if isinstance(rates, dict) and isinstance(value, str) and value not in rates and fg_number(entry.get(field)):
            by_value.setdefault(value, []).append((parent, entry, rates))
    out = []
    for value, rows in sorted(by_value.items()):
        if len(rows) >= MIN_RECORDS and len(_parents(rows)) >= 2:
            out += _rules(rows, field, sample, collection, value)
    return out


__all__ = ["off_card"]
