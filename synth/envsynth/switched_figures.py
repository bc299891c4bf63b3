"""A figure a yes/no parameter switches on (formula_rules.py builds the quote): "senior_discount: with a Senior
Pass, 50% off the base ... Cabins are excluded from the Senior Pass discount" is half the `base` figure when the
call sets `senior_pass`, and 0 otherwise or when the quoted site's `type` is `cabin`. A figure a named record's field
switches on: "if `owner_id` is given and the owner's `kind` is 'club', a rebate of 8% of (base + levy), rounded half
up to the cent, is taken off" is that share while the owner named holds that value, 0 otherwise (`given_share_node`).

Nodes (formula_runtime.fg_formula): {"when": {"arg", "default", "in": [true]}, "then", "else": {"num": 0}} inside
{"if_field": {"param", "field", "in"}, "then": {"num": 0}, "else"} for the records left out.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from synth.envsynth.date_spans import definition_text
from synth.envsynth.figure_terms import param_default
from synth.envsynth.keyed_tables import _held
from synth.words import singular

SHARE = re.compile(
    r"(\d+(?:\.\d+)?)\s*(?:%|percent)\s+(?:off|of)\s+(?:the\s+)?([\w' -]+?)(?=\s*[(,;.]|\s+for\b|$)", re.I
)
LEFT_OUT = (
    r"\b(\w+?)s?\s+(?:are|is)\s+excluded\b",
    r"\bnever\s+(?:on|for|to)\s+(?:an?\s+|the\s+)?(\w+?)s?\b",
    r"\bexcept\s+(?:for\s+|on\s+)?(?:an?\s+|the\s+)?(\w+?)s?\b",
    r"\bnot\s+(?:on|for)\s+(?:an?\s+|the\s+)?(\w+?)s?\b",
)


def _switch(body: str, params: dict[str, Any]) -> str | None:
    """The one yes/no parameter the definition names (by its words, or `name=true`)."""
    found = []
    for p, schema in params.items():
        if not isinstance(schema, dict) or schema.get("type") != "boolean":
            continue
        if re.search(rf"\b{re.escape(p)}\b|\b{re.escape(p.replace('_', ' '))}\b", body, re.I):
            found.append(p)
    return found[0] if len(found) == 1 else None


def _closed_values(col: str, field: str, schema: Any, sample: dict[str, Any]) -> set[str]:
    known = (schema.get("enum") or schema.get("x-enum") or []) if isinstance(schema, dict) else []
    held = [r.get(field) for r in (sample.get(col) or {}).values() if isinstance(r, dict)]
    return {str(v) for v in list(known) + held if isinstance(v, str)}


def _left_out(body: str, named: dict[str, str], fields: dict[str, dict[str, Any]], sample: dict[str, Any]):
    """(param, field, values) of the named records the definition leaves out ("Cabins are excluded")."""
    words = {singular(m.group(1).lower()) for pattern in LEFT_OUT for m in re.finditer(pattern, body, re.I)}
    for p, col in named.items():
        for field, schema in sorted((fields.get(p) or {}).items()):
            values = sorted(v for v in _closed_values(col, field, schema, sample) if singular(v.lower()) in words)
            if values:
                return p, field, values
    return None


def switched_node(
    name: str,
    text: str,
    params: dict[str, Any],
    named: dict[str, str],
    fields: dict[str, dict[str, Any]],
    sample: dict[str, Any],
    operand: Callable[[str], dict[str, Any] | None],
) -> dict[str, Any] | None:
    """The figure's share of another figure while a yes/no parameter is set (0 when not, or for the records its
    definition leaves out); None when the definition is not of that form."""
    body = definition_text(name, text)
    switch = _switch(body, params) if body else None
    share = SHARE.search(body) if switch else None
    if share is None or switch is None:
        return None
    of = operand(share.group(2))
    if of is None:
        return None
    pct = float(share.group(1)) if "." in share.group(1) else int(share.group(1))
    node: dict[str, Any] = {
        "when": {"arg": switch, "default": param_default(params[switch]), "in": [True]},
        "then": {"op": "*", "args": [{"op": "/", "args": [{"num": pct}, {"num": 100}]}, of]},
        "else": {"num": 0},
    }
    left_out = _left_out(body, named, fields, sample)
    if left_out:
        p, field, values = left_out
        node = {"if_field": {"param": p, "field": field, "in": values}, "then": {"num": 0}, "else": node}
    return node


GIVEN_SHARE = re.compile(
    r"\bif\s+(?P<conds>[^.;:]+?),\s+(?:an?|the)\s+`?(?P<name>[\w ]+?)`?\s+of\s+"
    r"(?P<pct>\d+(?:\.\d+)?)\s*(?:%|percent)\s+of\s+(?P<base>\([^()]+\)|[\w' ]+?)(?P<rounded>,?\s*rounded[^,;.]*)?"
    r",?\s+is\s+(?:taken|knocked|deducted|subtracted)\s+off",
    re.I,
)
FIELD_IS = re.compile(r"^the\s+(\w+)['\u2019]s\s+`?(\w+)`?\s+is\s+['`\"]?([\w-]+)['`\"]?$", re.I)
IS_GIVEN = re.compile(r"^`?(\w+)`?\s+is\s+(?:given|provided|passed|set)$", re.I)


def given_share_node(name: str, text: str, scope: Any, parse: Callable[[str], dict[str, Any] | None]) -> dict | None:
    """The figure's share of a formula while named records hold the values the docs say ("if `owner_id` is given and
    the owner's `kind` is 'club', a rebate of 8% of (base + levy), rounded half up to the cent, is taken off"), 0
    otherwise; None when the docs do not say so of this figure."""
    for m in GIVEN_SHARE.finditer(" ".join(text.split())):
        if "_".join(m.group("name").lower().split()) != name:
            continue
        conditions = []
        for cond in re.split(r"\s+and\s+", m.group("conds").strip()):
            given, field_is = IS_GIVEN.match(cond), FIELD_IS.match(cond)
            if given and given.group(1) in scope.params:
                continue  # the record it names holds the value below, or there is none
            holders = [
                p
                for p, col in scope.named.items()
                if field_is
                and singular(field_is.group(1).lower()) in (singular(col), singular(p[:-3] if p.endswith("_id") else p))
            ]
            if not field_is or len(holders) != 1 or field_is.group(2) not in (scope.fields.get(holders[0]) or {}):
                return None
            conditions.append({"param": holders[0], "field": field_is.group(2), "in": [field_is.group(3)]})
        base = parse(m.group("base").strip("()"))
        if base is None or not conditions:
            return None
        pct = float(m.group("pct"))
        node: dict[str, Any] = {"op": "*", "args": [{"num": round(pct / 100, 9)}, base]}
        rounded = re.search(r"rounded\s+(half\s+up|half\s+down|up|down)?", m.group("rounded") or "", re.I)
        if rounded:
            way = "_".join((rounded.group(1) or "nearest").lower().split())
            node = {"round": node, "digits": 2, "way": way}
        for when in reversed(conditions):
            node = {"if_field": when, "then": node, "else": {"num": 0}}
        return node
    return None


VALUE_FEE = re.compile(
    r"\b(?:an?\s+)?\$?(\d+(?:\.\d+)?)\s+(?:flat\s+|fixed\s+|one-off\s+|extra\s+)?([\w-]+(?:\s+[\w-]+){0,2}?)\s+"
    r"(?:for|on)\s+(?:an?\s+|the\s+|all\s+)?([\w-]+)\s+(\w+)",
    re.I,
)


def value_fee_node(name: str, text: str, scope: Any) -> dict[str, Any] | None:
    """ "a 15 flat call-out fee for raku firings": the amount while the named record's field holds that value, 0
    otherwise (the figure named like the fee, spaces and hyphens aside, or the one such fee its last word names)."""

    def squash(words: str) -> str:
        return re.sub(r"[\W_]", "", words).lower()

    found = list(VALUE_FEE.finditer(" ".join(text.split())))
    last = name.split("_")[-1].lower()
    same_end = [m for m in found if re.split(r"[\s-]+", m.group(2))[-1].lower() == last]
    for m in found:
        named_so = squash(name) and squash(m.group(2)).endswith(squash(name))  # "flat-rate call-out fee"
        if not named_so and not (len(same_end) == 1 and m is same_end[0] and len(last) > 2):
            continue  # else the one such "<amount> ... fee for <value> <noun>" whose last word the figure's is
        hits = [
            {"param": p, "field": f, "in": [m.group(3)]}
            for p, col in scope.named.items()
            for f in sorted(scope.fields.get(p) or {})
            if m.group(3) in _held(scope.sample, col, f)
        ]
        if len(hits) == 1:
            scope.phrases[squash(m.group(0)[m.start(1) - m.start() :])] = name  # the total's term that names it
            return {"if_field": hits[0], "then": {"num": float(m.group(1))}, "else": {"num": 0}}
    return None


__all__ = ["given_share_node", "switched_node", "value_fee_node"]
