"""An entry of a record's list that cannot be removed while another record uses it: "a mooring cannot be removed
while any of the skipper's trips in status `booked` uses it", "A mooring used by any booked trip cannot be removed".

The records that use it are those of the collection the noun names ("trips"), else of the one collection that
links to the edited record (`skipper_id`), holds a field naming the entry and, when a state is given, a closed field
listing it; the field naming the entry is the list's leading words (`mooring` for `mooring_points`), the entry's
name (`mooring_point`) or the field the entries are matched by (`label`). A removal is refused while a record of
that collection names the edited record, holds the state and names the removed entry (`in_use` of an
`entries_drop` effect, recorded_update.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.spec import known_values, record_props
from synth.words import plural, singular

STATE = r"`?(?P<state>[a-z][\w-]*)`?"
USES = (
    re.compile(
        r"\b(?:cannot|can't|may\s+not)\s+be\s+removed\s+while\s+(?:any|a|an)\s+(?:of\s+the\s+\w+['\u2019]s\s+)?"
        rf"(?P<noun>[a-z]\w*)\s+(?:in\s+(?:status|state)\s+{STATE}\s+)?(?:uses|use|names|holds)\s+it\b",
        re.I,
    ),
    re.compile(
        rf"\bused\s+by\s+(?:any|a|an)\s+(?:{STATE}\s+)?(?P<noun>[a-z]\w*)\s+(?:cannot|can't|may\s+not)\s+be\s+removed\b",
        re.I,
    ),
)


def _names(field: str, match: str) -> list[str]:
    """The fields of another record that may name an entry of `field` matched by `match`, the likeliest first."""
    words = field.split("_")
    return [n for n in ("_".join(words[:-1]), singular(field), match) if n]


def _holders(
    noun: str, state: str | None, collection: str, field: str, match: str, cols: dict[str, Any]
) -> list[dict[str, Any]]:
    from synth.envsynth.docs_linked import record_links  # here: docs_linked's imports lead back to paired_lists

    named = plural(singular(noun.lower()))
    out = []
    for other in sorted(cols):
        if other == collection or (named in cols and other != named):
            continue
        props = record_props(cols, other)
        links = [f for f, c in record_links(props, cols, other).items() if c == collection]
        names = [n for n in _names(field, match) if n in props and n not in links]
        states = [f for f, s in sorted(props.items()) if state and state in known_values(s)]
        if len(links) == 1 and names and (not state or len(states) == 1):
            use = {"collection": other, "via": links[0], "field": names[0]}
            out.append({**use, "state_field": states[0], "states": [state]} if state else use)
    return out


def in_use(text: str, collection: str, field: str, match: str, cols: dict[str, Any]) -> dict[str, Any] | None:
    """What refuses removing an entry of `field` (matched by `match`) of a `collection` record, or None when the
    text says nothing of it or no one collection fits (`cols`: the state schema's collections)."""
    for pattern in USES:
        for m in pattern.finditer(text):
            found = _holders(m.group("noun"), m.group("state"), collection, field, match, cols)
            if len(found) == 1:
                return found[0]
    return None


__all__ = ["in_use"]
