"""State changes a number crossing a bound makes after the call's moves: "Once the skipper's owed hits 90 or more,
an afloat skipper is benched, logging a 'benched' line", "Any benched skipper whose owed drops to exactly 0
returns to 'afloat'".

The record is the call's own or one its record names (by the noun: `skipper` -> `skipper_id`); the number is one
of its number fields the sentence names (by name or last word); the state it must be in and the one it moves to
are known values of one of its text fields. A line the docs add with it ("logging a 'benched' line") is built
like the record list's other entries (docs_entries). Each becomes a `threshold` effect applied last
(recorded_update.py.j2): {collection, via, field, from, value, number, cmp, bound, entry}.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _known, _props
from synth.envsynth.docs_counters import _names, _numbers
from synth.envsynth.docs_entries import _entries, _entry_rule, _kind_fields
from synth.envsynth.docs_linked import record_links
from synth.envsynth.prose import unwrap
from synth.words import singular

NUMBER = r"(?P<n>\d+(?:\.\d+)?)"
UP_TO = r"(?:reach(?:es)?|climbs?\s+to|rises?\s+to|is\s+at\s+least|hits?)"
DOWN_TO = r"(?:comes?\s+down\s+to|falls?\s+to|drops?\s+to)"
MORE = r"(?P<more>\s+or\s+(?:more|above|higher|less|below|lower))?"
BOUND = rf"(?:(?P<up>{UP_TO})|(?P<down>{DOWN_TO}))\s+(?P<exact>exactly\s+)?{NUMBER}{MORE}"
LEADING = re.compile(  # "Once the skipper's owed hits 90 or more, an afloat skipper is benched"
    rf"\b(?:if|when|once|should)\s+(?:the\s+|its\s+|their\s+)?(?:(?P<owner>\w+)['\u2019]s\s+)?`?(?P<number>\w+(?:\s\w+)?)`?"
    rf"\s+{BOUND},?\s+(?:then\s+)?(?:an?\s+|the\s+)?(?P<state>\w+)\s+(?P<noun>\w+)\s+(?:is|becomes|gets|returns)\s+"
    r"(?P<rest>[^.]*)",
    re.IGNORECASE,
)
WHOSE = re.compile(  # "Any benched skipper whose owed drops to exactly 0 returns to 'afloat'"
    rf"\b(?:an?|the|each|any)\s+(?P<state>\w+)\s+(?P<noun>\w+)\s+whose\s+`?(?P<number>\w+(?:\s\w+)?)`?\s+{BOUND}\s+"
    r"(?:is|becomes|gets|returns)\s+"
    r"(?P<rest>[^.]*)",
    re.IGNORECASE,
)
QUOTED = r"[`'\"]([\w-]+)[`'\"]"
LISTED = re.compile(  # "If the balance is now zero or less: a `late` skipper becomes `afloat`, and ..."
    r"\b(?:if|when|once)\s+(?:the\s+|its\s+)?(?:(?P<owner>\w+)['\u2019]s\s+)?`?(?P<number>\w+(?:\s\w+)?)`?\s+is\s+"
    r"(?:now\s+)?(?P<n>\d+(?:\.\d+)?|zero)\s+or\s+(?P<dir>less|below|lower|more|above|higher)\s*[:,]\s*(?P<clauses>[^.]*)",
    re.IGNORECASE,
)
CLAUSE = re.compile(
    rf"(?:\b(?:an?|the|any)\s+)?{QUOTED}\s+(?P<noun>[a-z]\w*(?:\s+[a-z]\w*)?)\s+"
    rf"(?:becomes|is\s+set\s+to|turns|moves\s+to|goes\s+to)\s+{QUOTED}",
    re.IGNORECASE,
)


def _named_number(said: str, numbers: list[str]) -> str | None:
    """The number field the words name, whole or by their last word."""
    words = said.lower().split()
    phrases = (" ".join(words), words[-1])
    return next((f for p in phrases for f in numbers if p in [n.lower() for n in _names(f, numbers)]), None)


def _target(noun: str, collection: str, cols: dict[str, Any]) -> tuple[str, str | None] | None:
    """(collection, link field or None for the call's own record) the noun names."""
    if singular(noun.lower()) == singular(collection):
        return collection, None
    for via, other in record_links(_props(cols, collection), cols, collection).items():
        if singular(other) == singular(noun.lower()) or via[:-3] == noun.lower():
            return other, via
    return None


def _naming_ref(other: str, collection: str, cols: dict[str, Any]) -> str | None:
    own = singular(collection)
    refs = [
        f
        for f, s in _props(cols, other).items()
        if (isinstance(s, dict) and s.get("x-references") == collection) or f == f"{own}_id"
    ]
    return refs[0] if len(refs) == 1 else None


def _naming(noun: str, collection: str, cols: dict[str, Any], states: tuple[str, str]) -> tuple[str, str] | None:
    """(collection, reference field) of the records a one- or two-word noun names that name the call's record
    ("berth plan" -> `berth_plans` or `plans` with their `skipper_id`); when no collection is called so, the one
    collection naming the record whose states include the second of `states`, the one moved to (the docs' noun
    for stored `schedules`)."""
    words = noun.lower().split()
    for name in ("_".join(words), words[-1]):
        named = [c for c in cols if c != collection and singular(c) == singular(name)]
        if len(named) == 1:
            ref = _naming_ref(named[0], collection, cols)
            return (named[0], ref) if ref else None
    found = [
        (c, ref)
        for c in sorted(cols)
        if c != collection
        and (ref := _naming_ref(c, collection, cols))
        and any(states[1] in map(str, _known(s)) for s in _props(cols, c).values())
    ]
    return found[0] if len(found) == 1 else None


def _inside(
    noun: str, states: tuple[str, str], collection: str, cols: dict[str, Any], sample: dict[str, Any], crossing: tuple
) -> list[dict[str, Any]]:
    """The `threshold` moving a field of the record's object field the noun names from one state to another (the
    field knowing either state, in its schema or in the sample records' objects)."""
    obj = "_".join(noun.lower().split())
    inner = _props(cols, collection).get(obj)
    subs = (inner.get("properties") or {}) if isinstance(inner, dict) else {}
    held = [r.get(obj) for r in (sample.get(collection) or {}).values() if isinstance(r, dict)]

    def known(field: str) -> set[str]:
        said = {str(v) for v in _known(subs[field])} if isinstance(subs[field], dict) else set()
        return said | {str(o.get(field)) for o in held if isinstance(o, dict) and o.get(field) is not None}

    fields = [f for f in sorted(subs) if set(states) & known(f)]
    if len(fields) != 1 or states[0] == states[1]:
        return []
    effect = {"op": "threshold", "collection": collection, "via": None, "inside": obj, "field": fields[0]}
    effect.update({"from": [states[0]], "value": states[1], "number": crossing[0], "cmp": crossing[1]})
    return [{**effect, "bound": crossing[2], "own_number": True, "reverse": None, "entry": None}]


def listed_thresholds(
    text: str, collection: str, state_schema: dict[str, Any], sample: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The `threshold` effects of "If the balance is now zero or less: a `late` skipper becomes `afloat`, and an
    `open` berth plan becomes `done`": the number is the call's record's; each clause moves the record itself, one
    it names, or the records of another collection that name it, from one state to another."""
    cols = state_schema.get("properties") or {}
    numbers = _numbers(_props(cols, collection))
    out: list[dict[str, Any]] = []
    for m in LISTED.finditer(unwrap(text)):
        if m.group("owner") and singular(m.group("owner").lower()) != singular(collection):
            continue
        number = _named_number(m.group("number"), numbers)
        if number is None:
            continue
        bound = 0.0 if m.group("n").lower() == "zero" else float(m.group("n"))
        cmp = "<=" if m.group("dir").lower() in ("less", "below", "lower") else ">="
        for clause in CLAUSE.finditer(m.group("clauses")):
            state, noun, value = clause.group(1), clause.group("noun"), clause.group(3)
            inside = _inside(noun, (state, value), collection, cols, sample or {}, (number, cmp, bound))
            if inside:  # "an `open` berth plan becomes `done`": an object of the record (`berth_plan`)
                out += inside
                continue
            found = _target(noun.split()[-1], collection, cols)
            where = (found[0], found[1], None) if found else None
            if where is None and (named := _naming(noun, collection, cols, (state, value))):
                where = (named[0], None, named[1])
            if where is None:
                continue
            theirs = _props(cols, where[0])
            fields = [f for f, s in sorted(theirs.items()) if isinstance(s, dict) and state in map(str, _known(s))]
            if not fields:  # a state no sample record holds yet: the one field knowing the state moved to
                fields = [f for f, s in sorted(theirs.items()) if isinstance(s, dict) and value in map(str, _known(s))]
            if len(fields) != 1 or value == state:
                continue
            effect = {"op": "threshold", "collection": where[0], "via": where[1], "field": fields[0]}
            effect.update({"from": [state], "value": value, "number": number, "cmp": cmp, "bound": bound})
            effect.update({"own_number": True, "reverse": where[2], "entry": None})
            out.append(effect)
    return out


def thresholds(
    text: str, collection: str, state_schema: dict[str, Any], sample: dict[str, Any], today: str | None
) -> list[dict[str, Any]]:
    """The `threshold` effects the text's bound sentences give for the call's record or one it names."""
    cols = state_schema.get("properties") or {}
    out: list[dict[str, Any]] = []
    prose = unwrap(text)
    for m in list(LEADING.finditer(prose)) + list(WHOSE.finditer(prose)):
        found = _target(m.group("noun"), collection, cols)
        if found is None:
            continue
        other, via = found
        theirs = _props(cols, other)
        numbers = _numbers(theirs)
        number = _named_number(m.group("number"), numbers)
        rest = m.group("rest")
        verb = re.match(r"(\w+)", rest)
        fields = [
            f
            for f, s in sorted(theirs.items())
            if isinstance(s, dict) and m.group("state") in [str(v) for v in _known(s)]
        ]
        if number is None or len(fields) != 1:
            continue
        known = [str(v) for v in _known(theirs[fields[0]])]
        to = re.search(rf"\bto\s+{QUOTED}", rest) or re.search(rf"\b{re.escape(fields[0])}\s+{QUOTED}", rest)
        value = to.group(1) if to else verb.group(1) if verb and verb.group(1) in known else None
        if value is None or value == m.group("state"):
            continue
        bound = float(m.group("n"))
        effect: dict[str, Any] = {
            "op": "threshold",
            "collection": other,
            "via": via,
            "field": fields[0],
            "from": [m.group("state")],
            "value": value,
            "number": number,
            "cmp": "==" if m.group("exact") else "<=" if m.group("down") else ">=",
            "bound": bound,
        }
        effect["entry"] = _entry(rest, theirs, sample.get(other) or {}, today)
        out.append(effect)
    return out + listed_thresholds(text, collection, state_schema, sample)


def _entry(rest: str, theirs: dict[str, Any], records: Any, today: str | None) -> dict | None:
    """{field, item} of the line the sentence adds with the change ("logging a 'benched' line"), or None."""
    kind = re.search(
        rf"\b(?:plus|with|and|logging|writing|recording)\s+(?:an?\s+)?{QUOTED}\s+(?:entry|event|line|note|record)\b",
        rest,
        re.I,
    )
    if kind is None:
        return None
    rows = [r for r in records.values() if isinstance(r, dict)] if isinstance(records, dict) else []
    for field, schema in sorted(theirs.items()):
        items = schema.get("items") if isinstance(schema, dict) and schema.get("type") == "array" else None
        if not isinstance(items, dict):
            continue
        kinds, unseen = _kind_fields(items, kind.group(1), True)  # a kind the data never logged goes to the names
        if len(kinds) != 1:
            continue
        same = [e for e in _entries(rows, field) if unseen or e.get(kinds[0]) == kind.group(1)]
        rule = _entry_rule(kinds[0], kind.group(1), same, {}, [], [], today, unseen=True)
        if rule is not None:
            return {"field": field, "item": rule}
    return None


__all__ = ["thresholds"]
