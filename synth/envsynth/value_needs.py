"""What one value of a list edit needs of a record the edited record links: "<values> need a <word> of the
<record>'s <noun> (`<a>`: x, `<b>`: y)", or "the <record>'s <noun> must hold a matching <word> (`<a>`: x, ...)",
refuses adding `<a>` unless the <noun>'s `<word>s` hold x (or their `<word>` is x).

The sentence names the field by a word whose singular is the singular of the field's name (`rating` for `ratings`)
and the linked record by a noun that its link field's stem begins (`guide` for `guide_id`, `tech` for
"technician"); the bracket pairs each value of the edit's parameter with the value it needs. Each becomes a
`needs` check {param, table, collection, via, field} (expr_runtime.fg_check).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.prose import unwrap
from synth.spec import record_props as _props
from synth.words import plural, singular

NEEDS = re.compile(
    r"\bneeds?\s+(?:a|an|the)\s+(?:particular\s+|certain\s+|specific\s+)?([a-z]+)\s+of\s+the\s+[a-z]+['\u2019]s\s+"
    r"([a-z]+)\s*\(([^()]{3,300})\)",
    re.I,
)
# the same said from the linked record's side: "the <record>'s <noun> must hold a matching <word> (`a`: x, ...)"
HOLDS = re.compile(
    r"\b[a-z]+['\u2019]s\s+([a-z]+)\s+(?:must|has\s+to|should)\s+(?:hold|have|carry|possess)\s+(?:a|an|the)\s+"
    r"(?:matching\s+|required\s+|corresponding\s+|particular\s+|certain\s+|specific\s+)?([a-z]+)\s*\(([^()]{3,300})\)",
    re.I,
)
PAIR = re.compile(r"^\s*`?([\w-]+)`?\s*:\s*`?([\w-]+)`?\s*$")


def value_needs(text: str, param: str, collection: str, cols: dict[str, Any]) -> list[dict[str, Any]]:
    """`needs` checks for the values of `param` the docs tie to a value of a linked record's field."""
    own = _props(cols, collection)
    out = []
    said = [(m.group(1), m.group(2), m.group(3)) for m in NEEDS.finditer(unwrap(text))]
    said += [(m.group(2), m.group(1), m.group(3)) for m in HOLDS.finditer(unwrap(text))]
    for needed, holder, bracket in said:
        pairs = [PAIR.match(part) for part in re.split(r",|;", bracket)]
        if len(pairs) < 1 or not all(pairs):
            continue
        noun = holder.lower()
        links = [f for f in own if f.endswith("_id") and len(f) > 5 and noun.startswith(f[:-3].replace("_", ""))]
        cols_of = {f: next((c for c in (plural(f[:-3]), f[:-3]) if c in cols), None) for f in links}
        found = [(f, c) for f, c in cols_of.items() if c and c != collection]
        if len(found) != 1:
            continue
        via, col = found[0]
        word = singular(needed.lower())
        fields = [f for f in _props(cols, col) if singular(f.lower()) == word]
        if len(fields) != 1:
            continue
        table = {p.group(1): p.group(2) for p in pairs if p}
        out.append({"op": "needs", "param": param, "table": table, "collection": col, "via": via, "field": fields[0]})
    return out


__all__ = ["value_needs"]
