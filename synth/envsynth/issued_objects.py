"""A change that issues an object its record keeps, priced as a sibling read computes it: "Closes a haul-out and
issues its docket (`docket_id` is `D-` followed by the haul-out's number) ..." beside a read that "works out what the
docket would be if the haul-out were closed now".

The object is a field of the record (an object with two or more keys) that the change's text names and no effect
of the change sets yet. The sibling is a read whose figures quote_reuse.sibling_quotes computes, callable with the
change's arguments (quote_reuse.fits_parameters), which the change names or whose own docs name the object. Every
key of the object is either a figure of the sibling of that name or an id the text spells out of a quoted literal
and the record's number or id ("`docket_id` is `D-` followed by the haul-out's number"); a key neither gives leaves
the object unread. The change sets the object from those figures, computed on the state the call finds.

A number of a record the change's record links to that the text says a figure is "subtracted from" (deducted from,
taken off) or "added to" moves by that figure: the figure all of whose words the clause before the verb holds ("the
skipper's credit is applied up to the subtotal and subtracted from `credit`" moves `credit` by `credit_applied`).
Counters the plan already moved on that number, or inside the object, give way to these moves.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.docs_appends import is_number
from synth.envsynth.figure_terms import spoken
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.envsynth.quote_reuse import fits_parameters
from synth.spec import ToolSpec
from synth.spec import record_props as _props
from synth.words import singular

SENTENCES = re.compile(r"(?<=[.;!?])\s+|\n")
SPELT_ID = re.compile(
    r"`(?P<field>\w+)`\s+is\s+[`'\"](?P<literal>[^`'\"]{1,12})[`'\"]\s+followed\s+by\s+the\s+(?P<noun>[\w-]+?)"
    r"(?:['\u2019]s)?\s+(?P<part>number|id)\b",
    re.I,
)
MOVED = re.compile(
    r"\b(?P<verb>subtracted|deducted|taken|added|credited)\s+(?:from|off|to)\s+(?:the\s+(?P<noun>\w+)['\u2019]s\s+)?"
    r"`(?P<field>\w+)`",
    re.I,
)
OWNER = re.compile(r"\b(?P<noun>[a-z]\w*)['\u2019]s\b", re.I)


def _objects(own: dict[str, Any], text: str, set_fields: set[str]) -> list[str]:
    """The record's object fields of two or more keys the text names and the plan does not set."""
    out = []
    for field, schema in sorted(own.items()):
        kind = (schema or {}).get("type") if isinstance(schema, dict) else None
        kinds = kind if isinstance(kind, list) else [kind]
        keys = (schema.get("properties") or {}) if isinstance(schema, dict) else {}
        if "object" in kinds and len(keys) >= 2 and field not in set_fields:
            if re.search(rf"\b{spoken(field)}\b", text, re.I):
                out.append(field)
    return out


def spelt_ids(text: str, noun: str) -> dict[str, dict[str, Any]]:
    """{key: `concat` source} for "`docket_id` is `D-` followed by the haul-out's number" (the digits of the
    record's key) or "... the haul-out's id" (the key itself), said of the call's own record (`noun`)."""
    own = singular(noun.lower())
    out: dict[str, dict[str, Any]] = {}
    for m in SPELT_ID.finditer(text):
        said = singular(m.group("noun").lower().replace("-", ""))  # "the haul-out's number"
        if said not in (own, own.split("_")[-1]):
            continue
        part = {"from": "own_number"} if m.group("part").lower() == "number" else {"from": "own_key"}
        out[m.group("field")] = {"from": "concat", "parts": [m.group("literal"), part]}
    return out


def _figure_in(clause: str, figures: list[str]) -> str | None:
    """The figure all of whose words the clause holds, the one with the most words when several do."""
    words = {singular(w) for w in re.findall(r"[a-z]+", clause.lower())}
    held = [f for f in figures if {singular(w) for w in f.split("_")} <= words]
    held.sort(key=lambda f: -len(f.split("_")))
    if not held or (len(held) > 1 and len(held[0].split("_")) == len(held[1].split("_"))):
        return None
    return held[0]


def figure_moves(text: str, figures: list[str], own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`adjust` effects for a figure "subtracted from" (or "added to") a number of a record the record links to."""
    out = []
    for sentence in SENTENCES.split(text):
        for m in MOVED.finditer(sentence):
            before = sentence[: m.start()]
            nouns = [m.group("noun")] if m.group("noun") else OWNER.findall(before)
            links = [noun_link(n, own, cols) for n in nouns]
            found = [link for link in links if link and is_number(_props(cols, link[1]).get(m.group("field")))]
            figure = _figure_in(before, figures)
            if len({tuple(f) for f in found}) != 1 or figure is None:
                continue
            via, col = found[0]
            amount = {"from": "figure", "name": figure}
            falls = m.group("verb").lower() in ("subtracted", "deducted", "taken")
            zero = {"from": "const", "value": 0}
            delta = {"from": "difference", "new": zero, "old": amount} if falls else amount
            path = [{"from": "record", "path": [via]}, {"from": "const", "value": m.group("field")}]
            out.append({"op": "adjust", "collection": col, "path": path, "delta": delta})
    return out


def _touches(effect: dict[str, Any], field: str, moves: list[dict[str, Any]]) -> bool:
    """An adjust inside the issued object, or on a number one of the new moves moves."""
    if effect.get("op") != "adjust":
        return False
    consts = [p.get("value") for p in effect.get("path") or [] if isinstance(p, dict) and p.get("from") == "const"]
    if field in consts:
        return True
    return any(effect.get("collection") == m["collection"] and consts[-1:] == [m["path"][-1]["value"]] for m in moves)


def issued_object(
    spec: ToolSpec,
    plan: ToolPlan,
    text: str,
    own: dict[str, Any],
    specs: list[ToolSpec],
    quotes: dict[str, Any],
    cols: dict[str, Any],
) -> ToolPlan:
    """The status change's plan with the object it issues set from a sibling read's figures (and the linked
    numbers those figures move); the plan unchanged when no object and sibling fit."""
    if plan.kind != "recorded_update" or plan.quote or not plan.collection:
        return plan
    text = unwrap(text)
    set_fields = {e.get("field") for e in plan.effects if e.get("op") == "set"}
    by_name = {s.name: s for s in specs}
    noun = singular(plan.collection)
    for field in _objects(own, text, set_fields):
        keys = list((own[field].get("properties") or {}))
        for name in sorted(quotes):
            sibling = by_name.get(name)
            wrapped = fits_parameters(spec, sibling) if sibling is not None and name != spec.name else None
            if wrapped is None:
                continue
            named = re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text)
            if not named and not re.search(rf"\b{spoken(field)}\b", unwrap(sibling.description), re.I):
                continue
            figures = [n for n, _ in quotes[name]["steps"] if n in quotes[name]["fields"]]
            ids = spelt_ids(text, noun)
            sources = {k: {"from": "figure", "name": k} if k in figures else ids.get(k) for k in keys}
            if any(v is None for v in sources.values()) or sum(k in figures for k in keys) < 2:
                continue
            numbers = [k for k in keys if k in figures and is_number(own[field]["properties"][k])]
            moves = figure_moves(text, numbers, own, cols)
            kept = [e for e in plan.effects if not _touches(e, field, moves)]
            issued = {"op": "set", "field": field, "source": {"from": "object", "fields": sources}}
            priced = {**quotes[name], "fields": [], "assign": {}, "states": {}, "guards": [], "wrap": wrapped}
            evidence = plan.evidence + [f"issues `{field}` as `{name}` computes it"]
            return ToolPlan.from_dict(
                {**plan.to_dict(), "quote": priced, "effects": kept + [issued] + moves, "evidence": evidence}
            )
    return plan


__all__ = ["figure_moves", "issued_object", "spelt_ids"]
