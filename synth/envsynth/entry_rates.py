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
from synth.envsynth.offcard_rates import off_card
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


def _factor(prices: list[tuple[Any, Any]]) -> float | None:
    """The one factor (to two places, else four) that takes every rate to its price in cents; a rate of 0 (a free
    card price) fits any factor, and none fits when no rate is above 0 or a number is missing."""
    if not all(fg_number(p) and fg_number(r) for p, r in prices):
        return None
    paid = [(p, r) for p, r in prices if r]
    for places in (2, 4):
        tried = sorted({round(p / r, places) for p, r in paid})
        fits = [f for f in tried if all(round(r * f, 2) == p for p, r in prices)]
        if len(fits) == 1:
            return fits[0]
    return None


def _scaled(pairs: list[tuple[Pair, Any]], field: str, when: dict[str, list[str]]) -> dict[str, Any] | None:
    """{"field": F, "factors": [[value, factor], ...]} for the parents outside `when` (`group` charters, where
    `private` ones pay the card): one closed field of theirs (None a value too) whose groups of two parents or more
    each pay the card's rate times one factor (a `club` charter 0.9 of it, a `school` one 0.5); None when no field,
    or two grouping them differently, explain them so."""
    rest = [p for p in pairs if when and not all(p[0][0].get(f) in v for f, v in when.items())]
    names = sorted({k for (parent, _), _ in rest for k, v in parent.items() if isinstance(v, str)})
    found: dict[tuple[int, ...], dict[str, Any]] = {}
    for name in names:
        values = [parent.get(name) for (parent, _), _ in rest]
        if not all(v is None or isinstance(v, str) for v in values) or not 2 <= len(set(values)) <= 4:
            continue
        factors = []
        for value in sorted(set(values), key=str):
            group = [p for p, v in zip(rest, values) if v == value]
            if len({id(parent) for (parent, _), _ in group}) < 2:
                continue  # a group of one parent is left unpriced
            factor = _factor([(entry.get(field), rate) for (_, entry), rate in group])
            if factor is None:
                break
            factors.append([value, factor])
        else:
            if any(f != 1 for _, f in factors):
                found.setdefault(tuple(values.index(v) for v in values), {"field": name, "factors": factors})
    return next(iter(found.values())) if len(found) == 1 else None


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
                        scaled = _scaled(listed, field, rule)  # the other parents: the card times a factor
                        found[-1].update({"scaled": scaled} if scaled else {})
            if found:
                break  # the call's own link first, then the shortest
        named = [f for f in found if singular(f["card"].split("_")[-1]) == singular(field.split("_")[-1])]
        for chosen in (named or found)[:1]:  # the card named for the field (`fares` for `fare`), else the first
            others = off_card(sample, collection, list_field, field, chosen["key"], chosen["chain"], chosen["card"])
            out.append({**chosen, "others": others} if others else chosen)  # keys the card lacks (offcard_rates.py)
    return out


__all__ = ["entry_rates"]
