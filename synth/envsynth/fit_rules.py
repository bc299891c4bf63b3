"""A catalogue record that fits some kinds of the record it is added to only, as the docs say and the data keeps:
"The roof rack only fits cruiser and ketch classes": the call's record holds its kind in a field named by the noun
(`boat_class` for "classes", both values among its known ones), and the record an argument names keeps the kinds it
fits in a list named by the noun (`allowed_classes`, `classes`), empty for a record that fits every kind. The call
is refused when that list is filled and lacks the record's kind (check `named_holds` with `empty_passes`).

"The sail must fit the boat's rig": the record the call names by `sail_id` lists what it fits in a list named by the
verb (`fits`) or the words (`rigs`), and the value is the field those words name on the call's record, or on the
record its `boat_id` links (`through`); an empty list fits nothing there (the docs name no exception).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import field_by_words, known_values
from synth.spec import record_props as _props
from synth.words import plural, singular

FITS = re.compile(
    r"\bonly\s+(?:fits|suits|works\s+with|applies\s+to|goes\s+on)\s+(?P<values>[\w-]+(?:\s*(?:,|and|or)\s*[\w-]+)*)"
    r"\s+(?P<noun>[a-z]+)\b",
    re.I,
)


MUST_FIT = re.compile(
    r"\bthe\s+(?P<noun>[a-z]+)\s+must\s+(?P<verb>fit|suit|match)\s+the\s+(?P<owner>[a-z]+)['\u2019]s\s+"
    r"(?P<words>[a-z]+(?:\s+[a-z]+)?)\b",
    re.I,
)


def _lists(props: dict[str, Any], noun: str) -> list[str]:
    kinds = plural(singular(noun))
    return [
        f for f, s in props.items() if "array" in str((s or {}).get("type")) and (f == kinds or f.endswith(f"_{kinds}"))
    ]


def fit_rules(
    text: str, collection: str, key_param: str, params: dict[str, Any], cols: dict[str, Any]
) -> list[dict[str, Any]]:
    """The `named_holds` checks "only fits <values> <noun>" gives for a call on `collection`."""
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    for m in FITS.finditer(text):
        noun = singular(m.group("noun").lower())
        values = [v for v in re.split(r"\s*(?:,|\band\b|\bor\b)\s*", m.group("values").lower()) if v]
        fields = [f for f, s in own.items() if f.split("_")[-1] == noun and set(values) <= set(known_values(s or {}))]
        named = [
            (p, col, lists[0])
            for p in sorted(params)
            if p != key_param and p.endswith("_id")
            for col in [plural(p[:-3])]
            if len(lists := _lists(_props(cols, col), noun)) == 1
        ]
        if len(fields) == 1 and len(named) == 1:
            p, col, listed = named[0]
            check = {"op": "named_holds", "param": p, "collection": col, "list": listed, "field": fields[0]}
            out.append({**check, "empty_passes": True})
    for m in MUST_FIT.finditer(text):
        noun, owner, words = m.group("noun").lower(), m.group("owner").lower(), m.group("words").lower()
        param, col = f"{noun}_id", plural(noun)
        theirs = _props(cols, col)
        verb = m.group("verb").lower()
        listed = [f for f in (f"{verb}s", verb) if "array" in str((theirs.get(f) or {}).get("type"))]
        listed = listed or _lists(theirs, words.split()[-1]) or _lists(theirs, words.split()[0])
        if param not in params or param == key_param or len(listed) != 1:
            continue
        via = None if singular(collection) == owner else f"{owner}_id"
        holder = own if via is None else _props(cols, plural(owner))
        field = field_by_words(words, holder) or field_by_words(words.split()[0], holder)  # "rig" of "rig and"
        if field is None or (via is not None and via not in own):
            continue
        check = {"op": "named_holds", "param": param, "collection": col, "list": listed[0], "field": field}
        out.append({**check, "through": {"collection": plural(owner), "field": via}} if via else check)
    return out


__all__ = ["fit_rules"]
