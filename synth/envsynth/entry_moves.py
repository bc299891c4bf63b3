"""Numbers a change moves once per entry of the record's list, on the record each entry names: "every line's
quantity is deducted from the catalogue stock" (each line's `quantity` off the `stock` of the medication its
`medication_id` names), "each line's quantity goes back on the shelf" (back onto that stock). A sentence that names
no entry but the linked number itself ("the fuel is checked against `fuel_litres` and then drawn from stock") moves
each entry's one count (`quantity`) on it, bullets of one state aside.

The sentence names the list's entries ("each/every <entry>'s <number>"), a number field of the entries, a
direction, and a number field of the collection an entry's `<noun>_id` names (by its name, spaced or not); a
sentence that puts the record in one of several starting states moves only from it ("A filled order is returned
to stock: ..."). A deduction the docs say can fall short ("insufficient stock") refuses the whole call first.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.clause_guards import _guard
from synth.envsynth.create_rules import _props
from synth.envsynth.docs_counters import _numbers
from synth.envsynth.prose import unwrap
from synth.words import plural, singular

EACH = re.compile(r"\b(?:each|every)\s+(?P<entry>\w+)['\u2019]s\s+`?(?P<amount>\w+)`?", re.I)
DOWN = re.compile(r"\b(?:deducted|subtracted|taken|removed|drawn)\s+(?:from|off|out\s+of)\b|\bdeducts?\b", re.I)
UP = re.compile(
    r"\b(?:goes|go|is\s+put|are\s+put|is\s+returned|are\s+returned|is\s+added|are\s+added)\s+back\b"
    r"|\breturned\s+to\s+stock\b|\brestored\b|\badded\s+(?:back\s+)?to\b",
    re.I,
)
BULLET = re.compile(r"^\s*[-*]\s")
BACK_TO = re.compile(r"\b(?:is|are)\s+returned\s+to\b", re.I)  # "... is returned to fuel_litres": the number named
UNMOVED = re.compile(  # "must not exceed its fuel_litres", "is not returned", "nothing is taken from": no move
    r"\b(?:exceeds?|at\s+most|no\s+more\s+than)\b|\b(?:not|never|nothing|no)\b[^.;,]{0,24}?"
    r"\b(?:returned|taken|deducted|drawn|removed|put|added|goes|go|subtracted)\b",
    re.I,
)
COUNT_NAMES = ("quantity", "qty", "count", "units")
SHORT = re.compile(r"\b(?:insufficient|not\s+enough|too\s+little|out\s+of)\s+\w+", re.I)


def _moved_lists(own: dict[str, Any], m: re.Match | None) -> list[tuple[str, str]]:
    """(list field, its entries' number) a sentence moves: the list "each <entry>'s <number>" names, or, when it
    names none but names the linked number itself ("drawn from fuel_litres"), every list whose entries hold one
    count (`quantity`)."""
    out = []
    for list_field, schema in sorted(own.items()):
        items = (schema.get("items") or {}) if isinstance(schema, dict) and schema.get("type") == "array" else {}
        numbers = _numbers(items.get("properties") or {})
        if m is not None:
            entry = singular(m.group("entry").lower())
            named = entry in (singular(list_field.lower()), singular(list_field.split("_")[-1].lower()))
            if named and m.group("amount") in numbers:
                out.append((list_field, m.group("amount")))
            continue
        counts = [f for f in numbers if f.lower() in COUNT_NAMES]
        if len(counts) == 1:
            out.append((list_field, counts[0]))
    return out


def each_entry_moves(
    text: str, collection: str, state_schema: dict[str, Any], states: dict[str, list[Any]] | None = None
) -> list[dict[str, Any]]:
    """`each_entry_adjust` effects ({list, via, collection, field, amount, sign, when?, checked?}) for the moves
    the text says every entry of one of the record's lists makes on the record it names."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    plain = unwrap(text)
    out: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.!?])\s+|\n", plain):
        m = EACH.search(sentence)
        down, up = DOWN.search(sentence), UP.search(sentence) or (m is None and BACK_TO.search(sentence))
        if bool(down) == bool(up) or (m is None and (BULLET.match(sentence) or UNMOVED.search(sentence))):
            continue
        lists = _moved_lists(own, m)
        if m is None and len(lists) > 1:
            continue  # which list's entries move is not said
        for list_field, amount in lists:
            props = ((own[list_field].get("items") or {}).get("properties")) or {}
            for via in sorted(f for f in props if f.endswith("_id")):
                other = plural(via[:-3])
                theirs = _numbers(_props(cols, other)) if other in cols else []
                named = [
                    f
                    for f in theirs
                    if re.search(rf"\b(?:{re.escape(f)}|{re.escape(f.replace('_', ' '))})\b", sentence, re.I)
                    and (m is not None or ("_" in f and re.search(rf"`?\b{re.escape(f)}\b", sentence)))
                ]
                if len(named) != 1:
                    continue
                effect: dict[str, Any] = {
                    "op": "each_entry_adjust",
                    "list": list_field,
                    "via": via,
                    "collection": other,
                    "field": named[0],
                    "amount": amount,
                    "sign": -1 if down else 1,
                }
                guard = _guard(sentence, states or {})
                if guard:
                    effect["when"] = guard
                if down and SHORT.search(plain):
                    effect["checked"] = True
                if not any(e["list"] == list_field and e["field"] == named[0] for e in out):
                    out.append(effect)
    return out


__all__ = ["each_entry_moves"]
