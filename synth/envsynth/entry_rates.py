"""A number a new list entry takes from a rate card, read from the sample data: a charter's passenger `fare` is the
`fares` map of the boat its charter names, at the passenger's `kind` ({"adult": 40.0, "child": 20.0}).

The rate card is a map of numbers on the record the parent names (one link, or two: the charter's `trip_id`, then
the trip's `boat_id`); the key is a text field of the entry the call gives. Sample entries whose key the card lists
must agree: all of them, or those whose parent holds some values of one of its closed fields, one the call gives
first (a card price for `private` charters, where `group` charters pay a discounted one the data does not explain;
the `sailed` and `pending` ones, where `cancelled` ones were refunded to 0). At least three agreeing entries of two
parents at least, with two values between them, so a constant or a coincidence is not taken for a rule; of two
cards that agree, the one named for the field (`fares` for `fare`). Entries whose key the card does not list, and
entries of other parents, are left to other readers (or to the call).
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.data_copies import MIN_RECORDS, sample_records
from synth.envsynth.entry_copies import _entries
from synth.envsynth.entry_figures import _chains, _follow
from synth.envsynth.expr_runtime import fg_number
from synth.words import singular

Pair = tuple[dict[str, Any], dict[str, Any]]


def _agreeing(pairs: list[tuple[Pair, Any]], field: str) -> bool:
    """Enough entries (of two parents at least) with two values between them, each the card's rate."""
    values = [entry.get(field) for (_, entry), _ in pairs]
    return (
        len(pairs) >= MIN_RECORDS
        and len({id(parent) for (parent, _), _ in pairs}) >= 2
        and len({repr(v) for v in values}) >= 2
        and all(fg_number(v) and v == rate for v, (_, rate) in zip(values, pairs))
    )


def _closed_fields(parents: list[dict[str, Any]]) -> list[str]:
    """The parents' text fields holding a few values (two to four), each set in every parent."""
    names = sorted({k for p in parents for k, v in p.items() if isinstance(v, str)})
    return [
        k for k in names if all(isinstance(p.get(k), str) for p in parents) and 2 <= len({p[k] for p in parents}) <= 4
    ]


def _rule(pairs: list[tuple[Pair, Any]], field: str, given: list[str]) -> dict[str, list[str]] | None:
    """{} when every listed entry agrees; else {closed field: values} for the values of one closed field of the
    parents whose entries all agree (an `individual` charter's; the `sailed` and `pending` ones, not the
    `cancelled` ones refunded to 0), a field the call gives first; None when no field splits them so."""
    if _agreeing(pairs, field):
        return {}
    found = []
    for name in _closed_fields([parent for (parent, _), _ in pairs]):
        values = sorted({parent[name] for (parent, _), _ in pairs})
        kept = [  # values whose entries all take the card's rate
            v
            for v in values
            if all(
                fg_number(entry.get(field)) and entry.get(field) == rate
                for (parent, entry), rate in pairs
                if parent.get(name) == v
            )
        ]
        chosen = [p for p in pairs if p[0][0].get(name) in kept]
        if kept and len(kept) < len(values) and _agreeing(chosen, field):
            found.append((name in given, len(chosen), name, kept))
    best = [f for f in found if f[:2] == max(f[:2] for f in found)] if found else []
    return {best[0][2]: best[0][3]} if len(best) == 1 else None


def entry_rates(
    sample: dict[str, Any],
    collection: str,
    list_field: str,
    given: list[str],
    stored: dict[str, Any],
    params: list[str],
) -> list[dict[str, Any]]:
    """`entry_rate` effects for the entry number fields the call does not give (`stored`: the stored entries'
    properties; `given`: the call's entry fields; `params`: the call's parameters, whose links are followed first)."""
    pairs: list[Pair] = _entries(sample_records(sample, collection), list_field)
    numbers = [f for f, s in stored.items() if f not in given and "number" in str((s or {}).get("type"))]
    keys = [f for f in given if all(isinstance(e.get(f), str) for _, e in pairs if f in e)]
    if not pairs or not numbers or not keys:
        return []
    chains = _chains(sample, collection, [p for p, _ in pairs])
    chains.sort(key=lambda c: (c[0]["via"] not in params, len(c)))  # the call's own link first, then the shortest
    out = []
    for field in numbers:
        found = []
        for chain in chains:
            holders = [_follow(sample, parent, chain) for parent, _ in pairs]
            cards = sorted({k for h in holders if h for k, v in h.items() if isinstance(v, dict) and v})
            for card in cards:
                for key in keys:
                    listed = [
                        ((parent, entry), h[card][entry.get(key)])
                        for (parent, entry), h in zip(pairs, holders)
                        if h
                        and isinstance(h.get(card), dict)
                        and isinstance(entry.get(key), str)
                        and entry[key] in h[card]
                    ]
                    rule = _rule(listed, field, params)
                    if rule is not None:
                        found.append({"op": "entry_rate", "field": list_field, "entry_field": field, "key": key})
                        found[-1].update({"chain": chain, "card": card, "when": rule})
            if found:
                break  # the call's own link first, then the shortest
        named = [f for f in found if singular(f["card"].split("_")[-1]) == singular(field.split("_")[-1])]
        out += (named or found)[:1]  # the card named for the field (`fares` for `fare`), else the first
    return out


__all__ = ["entry_rates"]
