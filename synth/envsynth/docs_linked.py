"""Changes a transition makes to the records its record names, as the docs state them: "reopens the berth
(`status` `free`, `boat_id` null)", "the berth becomes `free`", "the berth's status becomes 'free'". Each becomes a
`ref_set` effect {"op": "ref_set", "collection", "via", "field", "value"}: the record of `collection` that the
record's `via` field names gets `field` = `value` (recorded_update.py.j2).

Only the records the record names through one of its fields (`berth_id` -> berths) are read for, by that field's
noun or the collection's singular, and only values that fit the field (one of its known values, or null where it
may be null)."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import STATED, _fits, _known, _name, _props, _value
from synth.envsynth.prose import unwrap
from synth.words import plural, singular

CONDITION = re.compile(r"\b(if|unless|when|whose|must|only|not|never|fails?|errors?|refused)\b", re.IGNORECASE)
LEADING = re.compile(r"^\W*(?:if|unless|when|whenever|once|while|after|before|in\s+case)\b", re.IGNORECASE)
BECOMES = r"(?:becomes|is\s+set\s+to|is\s+marked(?:\s+as)?|goes\s+back\s+to|returns\s+to)"


def record_links(own: dict[str, Any], cols: dict[str, Any], collection: str) -> dict[str, str]:
    """{reference field: collection} of the record's fields that name another collection's records."""
    out = {}
    for field, schema in sorted(own.items()):
        named = schema.get("x-references") if isinstance(schema, dict) else None
        if not (isinstance(named, str) and named in cols) and field.endswith("_id"):
            named = plural(field[:-3]) if plural(field[:-3]) in cols else None
        if isinstance(named, str) and named in cols and named != collection:
            out[field] = named
    return out


def linked_fields(
    links: dict[str, str], cols: dict[str, Any], own: dict[str, Any], params: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """{field: `linked` source} of the fields of the records the record links that neither it nor the call has,
    each held by one linked record only: what a placeholder such as "<pier_id>" in a written entry reads (as the
    call found it)."""
    found: dict[str, list[dict[str, Any]]] = {}
    for via, other in sorted(links.items()):
        for f in _props(cols, other):
            if f not in own and f not in params:
                found.setdefault(f, []).append({"from": "linked", "collection": other, "via": via, "field": f})
    return {f: sources[0] for f, sources in found.items() if len(sources) == 1}


def _noun(via: str, other: str) -> str:
    """A pattern for the record a link names, by the link's noun (`pier_id` -> "pier") or the collection's singular."""
    nouns = {via[:-3].replace("_", " ") if via.endswith("_id") else "", singular(other)} - {""}
    return "(?:" + "|".join(_name(n) for n in sorted(nouns)) + ")"


def _pairs(inside: str, theirs: dict[str, Any]) -> list[tuple[str, Any]]:
    """(field, value) pairs of "`status` `free`, `boat_id` null"."""
    out = []
    for m in re.finditer(rf"`?\b(\w+)`?\s*(?:=\s*|:\s*)?{STATED}", inside):
        field = m.group(1)
        try:
            value = _value(m.group(2))
        except ValueError:
            continue
        if field in theirs and _fits(value, theirs[field]):
            out.append((field, value))
    return out


STATED_Q = rf'(?:{STATED}|"([^"\n]{{1,60}})")'  # also a double-quoted value ('the site becomes "open"')


def _stated(m: re.Match[str], group: int) -> Any:
    """The value a STATED_Q match at `group` holds (the double-quoted form is the group after it)."""
    token = m.group(group)
    return m.group(group + 1) if token is None else _value(token)


def _segment(clause: str, start: int, end: int) -> str:
    """The part of a clause around a match, between the commas (and "and"s) outside parentheses that bound it."""
    depth, cuts = 0, [0]
    for i, ch in enumerate(clause):
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth == 0:
            cuts.append(i + 1)
    before = max(c for c in cuts if c <= start)
    after = min([c - 1 for c in cuts if c - 1 >= end] + [len(clause)])
    return clause[before:after]


def _becomes(clause: str, noun: str, theirs: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(field, value, segment) of "the berth becomes `free`" (the one field that may hold the value) or "the
    berth's status becomes 'free'"; the segment is the part of the clause that says it."""
    out = []
    pattern = rf"\b{noun}(?:['\u2019]s\s+`?(?P<field>\w+)`?)?\s+(?:\w+\s+){{0,3}}?{BECOMES}\s+{STATED_Q}"
    for m in re.finditer(pattern, clause, re.IGNORECASE):
        try:
            value = _stated(m, 2)
        except ValueError:
            continue
        field = m.group("field")
        if field is None:
            holders = [f for f, s in theirs.items() if isinstance(s, dict) and value in _known(s)]
            field = holders[0] if len(holders) == 1 else None
        if field in theirs and _fits(value, theirs[field]):
            out.append((field, value, _segment(clause, m.start(), m.end())))
    return out


HEADED = re.compile(r"^(?P<head>.*?\bthe\s+(?P<noun>[\w ]+?)\s+(?:is|gets|are)\s+\w+\s*:)(?P<tail>.+)$", re.I)
CLEARED = r"(?:is|gets|are)\s+(?:cleared|emptied|blanked|unset|set\s+to\s+null)"


def own_words(clause: str, noun: str) -> str:
    """The clause with the "its" of a list headed by the record ("the berth is released: its `boat_id` is
    cleared and its status returns to 'free'") said as "the berth's"."""
    m = HEADED.match(clause)
    if m is None or not re.fullmatch(noun, m.group("noun"), re.IGNORECASE):
        return clause
    return m.group("head") + re.sub(r"\bits\b", f"the {m.group('noun')}'s", m.group("tail"))


def own_cleared(text: str, own: dict[str, Any], noun: str, links: dict[str, str], cols: dict[str, Any]) -> list[str]:
    """The record's own fields the docs clear ("its `berth_id` is cleared to null", "the mooring's berth_id is
    cleared"): nullable fields of the record, said of it ("its", its own noun, or a noun no record it links has
    the field under)."""
    out, plain = [], unwrap(text)
    for m in re.finditer(rf"\b(?:its|the\s+(?P<noun>\w+)['\u2019]s)\s+`?(?P<field>\w+)`?\s+{CLEARED}\b", plain, re.I):
        field, said = m.group("field"), (m.group("noun") or "").lower()
        before = re.split(r"(?<=[.;!?])\s+", plain[: m.start()])[-1]
        head = HEADED.match(before + " x")  # "the berth is released: its ..." speaks of the berth
        if not said and head and singular(head.group("noun").lower()) != noun:
            continue
        theirs = [via for via, other in links.items() if field in _props(cols, other) and singular(said) in via]
        if field in own and _fits(None, own[field]) and (not said or singular(said) == noun or not theirs):
            out += [field] if field not in out else []
    return out


def _cleared(clause: str, noun: str, theirs: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """(field, None, segment) of "the berth's `boat_id` is cleared" (or "... becomes 'free' and its boat_id null"),
    for a field that may be null."""
    out = []
    elided = (  # "the berth's status becomes 'free' and its boat_id null"
        rf"\b{noun}['\u2019]s\s+`?\w+`?\s+{BECOMES}\s+{STATED_Q}\s*,?\s+and\s+its\s+`?(?P<field>\w+)`?\s+"
        r"(?:is\s+)?(?:set\s+)?(?:to\s+)?(?:null|none|cleared|emptied)\b"
    )
    said = list(re.finditer(rf"\b{noun}['\u2019]s\s+`?(?P<field>\w+)`?\s+{CLEARED}\b", clause, re.IGNORECASE))
    for m in said + list(re.finditer(elided, clause, re.IGNORECASE)):
        field = m.group("field")
        if field in theirs and _fits(None, theirs[field]):
            out.append((field, None, _segment(clause, m.start(), m.end())))
    return out


def _by_value(clause: str, nouns: set[str], links: dict[str, str], cols: dict[str, Any], own: dict[str, Any]):
    """(via, field, value, segment) of "the car becomes `rented`" where "car" names no collection: the one linked
    record with a closed field that knows the value, when the call's own record knows it in no field."""
    out = []
    for m in re.finditer(rf"\bthe\s+(?P<noun>\w+)\s+(?:\w+\s+){{0,2}}?{BECOMES}\s+{STATED_Q}", clause, re.I):
        if m.group("noun").lower() in nouns:
            continue
        try:
            value = _stated(m, 2)
        except ValueError:
            continue
        if not isinstance(value, str) or any(isinstance(s, dict) and value in _known(s) for s in own.values()):
            continue
        holders = [
            (via, f)
            for via, other in links.items()
            for f, sub in _props(cols, other).items()
            if isinstance(sub, dict) and value in _known(sub)
        ]
        if len(holders) == 1:
            out.append((*holders[0], value, _segment(clause, m.start(), m.end())))
    return out


def linked_sets(text: str, collection: str, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The `ref_set` effects the docs `text` of a call on a `collection` record state for the records it names. A
    change said on a condition ("... if it was `reserved`") is left out."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    clauses = [c for c in re.split(r"(?<=[.!?;])\s+|\n", unwrap(text)) if c.strip()]
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    links = record_links(own, cols, collection)
    nouns = {singular(c).lower() for c in cols} | {v[:-3].replace("_", " ").lower() for v in links}

    def unconditional(clause: str, segment: str) -> bool:
        return not LEADING.match(clause) and not CONDITION.search(re.sub(r"\([^()]*\)", "", segment))

    def add(via: str, other: str, field: str, value: Any) -> None:
        if (via, field) not in seen:
            seen.add((via, field))
            out.append({"op": "ref_set", "collection": other, "via": via, "field": field, "value": value})

    for via, other in links.items():
        theirs = _props(cols, other)
        noun = _noun(via, other)
        for clause in clauses:
            if not re.search(rf"\b{noun}\b", clause, re.IGNORECASE):
                continue
            if not CONDITION.search(clause):
                freed = rf"\b{noun}(?:\s+(?:is|gets|becomes)\s+\w+)?\s*\(([^()]{{3,200}})\)"  # "is freed (...)"
                for m in re.finditer(freed, clause, re.IGNORECASE):
                    for field, value in _pairs(m.group(1), theirs):
                        add(via, other, field, value)
            said = own_words(clause, noun)
            for field, value, segment in _becomes(said, noun, theirs) + _cleared(said, noun, theirs):
                if unconditional(said, segment):
                    add(via, other, field, value)
    for clause in clauses:
        for via, field, value, segment in _by_value(clause, nouns, links, cols, own):
            if unconditional(clause, segment):
                add(via, links[via], field, value)
    return out


def copied_sets(text: str, collection: str, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """`set` effects for a field of the record the docs give as a field of a record it names: "its fee is the
    pier's `berth_rate`", "copies the pier's berth_rate into its fee" -> fee = the berth_rate of the pier
    `pier_id` names (a `linked` source)."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    for via, other in record_links(own, cols, collection).items():
        theirs = _props(cols, other)
        noun = _noun(via, other)
        pattern = (
            rf"\b(?:its|the\s+\w+['\u2019]s)\s+`?(?P<field>\w+)`?\s+(?:is|becomes|is\s+set\s+to)\s+"
            rf"(?:the\s+)?{noun}['\u2019]s\s+`?(?P<source>\w+(?:\s\w+)?)`?"
        )
        copies = (
            rf"\bcop(?:y|ies)\s+(?:the\s+)?{noun}['\u2019]s\s+`?(?P<source>\w+(?:\s\w+)?)`?\s+(?:into|to|as)\s+"
            r"(?:its|the\s+\w+['\u2019]s)\s+`?(?P<field>\w+)`?"
        )
        for m in list(re.finditer(pattern, unwrap(text), re.I)) + list(re.finditer(copies, unwrap(text), re.I)):
            field = m.group("field")
            words = m.group("source").split()
            source = next((n for n in ("_".join(words), words[0]) if n in theirs), None)
            if field not in own or field == via or source is None or any(e["field"] == field for e in out):
                continue
            link = {"from": "linked", "collection": other, "via": via, "field": source}
            out.append({"op": "set", "field": field, "source": link})
    return out


__all__ = ["copied_sets", "linked_fields", "linked_sets", "own_cleared"]
