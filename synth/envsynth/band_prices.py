"""Figures read off a list of bands (formula_rules.py builds the quote): "The weight band sets the base price: B1 up to
0.5 kg 4.20; B2 up to 2 kg 6.80; B3 up to 10 kg 11.50" makes `band` the label of the first band whose limit the
number parameter does not pass (a value on a limit is in that band) and `base_price` that band's price.

Node (formula_runtime.fg_formula): {"band": {"of": node, "limits": [...], "values": [...]}}, None past the last
limit.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.figure_terms import param_default, spoken
from synth.words import singular, split_words

NUMBER = r"\d+(?:\.\d+)?"
BAND = re.compile(rf"^\s*(?:and\s+)?`?([\w-]+)`?\s+up\s+to\s+({NUMBER})\s*([a-z]+)?\s+\$?({NUMBER})\s*$", re.I)
HEADING = re.compile(r"([^.:;]{3,120}?)\s*:\s*([^.()]+?\d(?:[^.()]|\.\d)*)(?=\s*[.(]|\s*$)")
SETS = re.compile(r"\b(?:sets|gives|fixes|decides|picks|determines)\s+the\s+([\w -]+?)\s*$", re.I)


def _words(text: str) -> set[str]:
    return {singular(w) for w in split_words(text)}


def band_lists(text: str) -> list[dict[str, Any]]:
    """[{heading, labels, limits, prices, unit}] for each list of at least two "<label> up to <limit> <price>"
    items after a colon, the limits rising."""
    out = []
    flat = " ".join(text.split())
    for m in HEADING.finditer(flat):
        items = [BAND.match(i) for i in m.group(2).split(";")]
        if len(items) < 2 or not all(items):
            continue
        limits = [float(i.group(2)) for i in items if i]
        if limits != sorted(limits):
            continue
        labels = [i.group(1) for i in items if i]
        prices = [float(i.group(4)) for i in items if i]
        unit = next((i.group(3) for i in items if i and i.group(3)), "")
        out.append({"heading": m.group(1), "labels": labels, "limits": limits, "prices": prices, "unit": unit})
    return out


def _amount_param(band: dict[str, Any], params: dict[str, Any]) -> str | None:
    """The number parameter the bands measure: the only one, else the one the heading or unit names."""
    numbers = [p for p, s in params.items() if isinstance(s, dict) and s.get("type") in ("number", "integer")]
    if len(numbers) == 1:
        return numbers[0]
    said = _words(band["heading"]) | {band["unit"].lower()}
    named = [p for p in numbers if _words(p) & said]
    return named[0] if len(named) == 1 else None


def band_node(name: str, text: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """The figure's node when a band list's heading names it: the band's label when the heading holds the figure's
    name ("the weight `band` sets ..."), its price when the heading says it sets the figure ("... sets the base
    price"); None otherwise."""
    for band in band_lists(text):
        amount = _amount_param(band, params)
        if amount is None:
            continue
        of = {"arg": amount, "default": param_default(params[amount])}
        sets = SETS.search(band["heading"])
        before = band["heading"][: sets.start()] if sets else band["heading"]
        if sets and "_".join(sets.group(1).lower().split()) == name:
            return {"band": {"of": of, "limits": band["limits"], "values": band["prices"]}}
        if re.search(rf"(?<![\w-])`?{spoken(name)}`?(?![\w-])", before, re.I):
            return {"band": {"of": of, "limits": band["limits"], "values": band["labels"]}}
    return None


def band_guards(steps: dict[str, Any], text: str) -> list[dict[str, Any]]:
    """A guard refusing an amount past the last band when an error the docs list names that limit ("Error: boats
    over 30 t are not taken"): the price figure of the bands holds one of their prices (None past the last)."""
    errors = " ".join(re.findall(r"Error:[^'\"`.]*(?:\.\d[^'\"`.]*)*", text))  # each message, to its end
    for name, node in steps.items():
        band = node.get("band") if isinstance(node, dict) else None
        if not band or not all(isinstance(v, (int, float)) for v in band["values"]):
            continue
        last = band["limits"][-1]
        said = str(int(last)) if float(last).is_integer() else str(last)
        if re.search(rf"(?<![\d.]){re.escape(said)}(?:\.0+)?(?!\d|\.\d)", errors):
            return [{"figure": name, "op": ">=", "value": min(band["values"])}]
    return []


__all__ = ["band_guards", "band_lists", "band_node"]
