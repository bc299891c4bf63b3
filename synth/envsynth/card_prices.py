"""A new list entry's price read off the record one of its fields names, as the sample entries show it: a flat
price where that record has one, else its rate card at a value a record the entry's parent leads to holds.

    tariffs: {"HAUL": {"price": 40.0}, "SCRUB": {"rates": {"dinghy": 22.0, "keelboat": 34.0}}}
    a berthing's `services` entry {"code": "SCRUB", "unit_price": 34.0} (its boat, by `boat_id`, is a `keelboat`)

The entry's `code` names a tariff; its `unit_price` is the tariff's `price` when it has one, else its `rates` at the
`hull_class` of the boat the berthing's `boat_id` names ("priced by the boat's class"). Every sample entry must agree
(at least three, with two values between them); the flat price may go by another name than the entry's field (the
one sharing a word with it is taken), and of several records the parent leads to that would explain the card, the
one the docs name ("the boat's") is taken, else none. Either part may be missing: a flat price alone is a copy
under another name, a card alone a rate card. Each rule is an `entry_card_price` effect
{field, collection, by, number, card, chain, key} (code_templates/item_add.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import MIN_RECORDS, keyed_records, sample_records
from synth.envsynth.entry_copies import _entries, _holder
from synth.envsynth.entry_figures import _chains, _follow
from synth.envsynth.expr_runtime import fg_number
from synth.words import singular, split_words

Pair = tuple[dict[str, Any], dict[str, Any]]


def _flat(named: list[dict[str, Any]], values: list[Any], field: str) -> list[str]:
    """The number fields of the named records that hold the entry's value wherever they are set, set at least once;
    those sharing a word with the field first."""
    names = sorted({k for r in named for k, v in r.items() if fg_number(v)})
    fits = [n for n in names if all(not fg_number(r.get(n)) or r[n] == v for r, v in zip(named, values))]
    close = [n for n in fits if set(split_words(n)) & set(split_words(field))]
    return close or fits


def _card_keys(
    sample: dict[str, Any], collection: str, pairs: list[Pair], cards: list[dict[str, Any]], values: list[Any]
) -> list[tuple[list[dict[str, str]], str]]:
    """(chain, field) of every record the parents lead to (or the parent itself) whose text field, for every entry,
    is the card key whose rate is the entry's value."""
    out = []
    for chain in [[]] + _chains(sample, collection, [p for p, _ in pairs]):
        holders = [_follow(sample, p, chain) if chain else p for p, _ in pairs]
        if any(h is None for h in holders):
            continue
        for name in sorted({k for h in holders if h for k, v in h.items() if isinstance(v, str)}):
            if all(
                isinstance(h.get(name), str) and card.get(h[name]) == v  # type: ignore[union-attr]
                for h, card, v in zip(holders, cards, values)
            ):
                out.append((chain, name))
    return out


def _named_in(text: str, chain: list[dict[str, str]]) -> bool:
    """Whether the docs name the chain's last record as a holder ("the boat's")."""
    noun = singular(chain[-1]["collection"]).replace("_", " ") if chain else ""
    return bool(noun) and re.search(rf"\b{re.escape(noun)}['\u2019]s\b", text, re.I) is not None


def card_prices(
    sample: dict[str, Any], collection: str, list_field: str, given: list[str], open_fields: list[str], text: str
) -> list[dict[str, Any]]:
    """`entry_card_price` effects for the open number fields of a new entry of `collection.list_field`, keyed by an
    entry field the call gives (`given`)."""
    pairs: list[Pair] = _entries(sample_records(sample, collection), list_field)
    out: list[dict[str, Any]] = []
    for by in given:
        keys = [e.get(by) for _, e in pairs]
        other = _holder(sample, collection, keys) if pairs and all(isinstance(k, str) for k in keys) else None
        if other is None:
            continue
        named = [keyed_records(sample, other)[str(k)] for k in keys]
        for field in open_fields:
            values = [e.get(field) for _, e in pairs]
            if any(e["field"] == field for e in out) or not all(fg_number(v) for v in values):
                continue
            if len(values) < MIN_RECORDS or len({repr(v) for v in values}) < 2:
                continue
            flat = _flat(named, values, field)
            number = flat[0] if len(flat) == 1 else None
            rest = [i for i, r in enumerate(named) if not (number and fg_number(r.get(number)))]
            cards = sorted({k for i in rest for k, v in named[i].items() if isinstance(v, dict)})
            found = []
            for card in cards:
                tables = [named[i].get(card) for i in rest]
                if all(isinstance(t, dict) for t in tables):
                    sub = [pairs[i] for i in rest]
                    found += [
                        (card, c, k) for c, k in _card_keys(sample, collection, sub, tables, [values[i] for i in rest])
                    ]
            if len(found) > 1:
                found = [f for f in found if _named_in(text, f[1])]
            if rest and len(found) != 1:
                continue  # entries the flat price leaves are not all explained by one card
            if not rest and number is None:
                continue
            card, chain, key = found[0] if rest else (None, [], None)
            out.append(
                {
                    "op": "entry_card_price",
                    "field": field,
                    "collection": other,
                    "by": by,
                    "number": number,
                    "card": card,
                    "chain": chain,
                    "key": key,
                }
            )
    return out


__all__ = ["card_prices"]
