"""Boolean filter flags and what their docs say they keep: "only_free=true keeps only berths that are usable and have
moored < berths", "If true, only open berths". A flag that is no field of the records keeps, when it is true, the
records that meet every condition its sentence states:

- a boolean field named as a word ("usable") is true;
- a known value of a closed text field ("open") is that field's value;
- two number fields compared ("moored < berths", "moored below berths", "moored less than berths");
- "at least one seat available": the record's count below its cap (`enrolled_count` < `capacity`,
  full_states.room_counts);
- "with at least one unit in `stock`": that number of the record at least the count ({"left", "op", "value"});
- with no condition stated, a flag named `<field>_only` / `only_<field>` for a boolean field: that field is true.

Each is {"field", "equals"} or {"left", "op", "right"}; the filter template applies them (filter.py.j2).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.full_states import cap_field, room_counts
from synth.words import singular

COMPARE = re.compile(
    r"\b(\w+)\s*(<=|>=|<|>|\bbelow\b|\babove\b|\bless than\b|\bmore than\b|\bunder\b|\bover\b)\s*(\w+)", re.I
)
ROOM = re.compile(r"\bat\s+least\s+(?:one|1|a)\s+\w+\s+(?:available|free|left|open)\b", re.I)
HELD = re.compile(
    r"\bat\s+least\s+(?P<n>one|an?|\d+)\s+\w+\s+(?:in|on)\s+(?:the\s+|its\s+|their\s+)?`?(?P<field>\w+)`?", re.I
)
OPS = {"below": "<", "under": "<", "less than": "<", "above": ">", "over": ">", "more than": ">"}
FALSE_SIDE = re.compile(r"[`'\"]?\bfalse\b[`'\"]?\s*:\s*(?P<rest>[^.]*)", re.I)  # "`false`: only piers that cannot"
NEGATION = re.compile(r"\b(?:cannot|can't|not|don't|without|the\s+others|the\s+rest)\b", re.I)
NO_EFFECT = re.compile(r"\b(?:no\s+effect|ignored|deprecated|unused|does\s+nothing)\b", re.I)
FREE_PLACE = re.compile(  # "at least one free place": a list of the record shorter than its cap
    r"\bat\s+least\s+(?:one|1|a)\s+(?:free|open|spare|empty)\s+(?:place|room|space|spot|seat|bed)s?\b", re.I
)


def _sentence_for(flag: str, spec_text: str, own_doc: str) -> str:
    """The flag's own description and the sentence of the tool's description that names it."""
    spoken = re.compile(rf"\b{re.escape(flag)}\b|\b{re.escape(flag.replace('_', ' '))}\b", re.I)
    named = next((s for s in re.split(r"(?<=[.;])\s+", spec_text) if spoken.search(s)), "")
    return (own_doc + " " + named).strip()


def flag_conditions(flag: str, text: str, record: dict[str, Any]) -> list[dict[str, Any]]:
    """The conditions a true flag keeps records by, as its text states them (empty when it states none)."""
    bare = re.sub(r"^only_|_only$", "", flag)  # `available_only`: the records whose boolean `available` is true
    by_name = (
        [{"field": bare, "equals": True}]
        if bare != flag and (record.get(bare) or {}).get("type") == "boolean" and not NO_EFFECT.search(text)
        else []
    )
    kept = re.search(r"\b(?:keeps?|only|returns? only|restricts?)\b(.*)", text, re.I)
    if not kept:
        return by_name
    clause = FALSE_SIDE.split(kept.group(1))[0]  # what `false` keeps is no condition of `true`
    out: list[dict[str, Any]] = []
    for m in COMPARE.finditer(clause):
        left, right = m.group(1), m.group(3)
        numeric = all((record.get(f) or {}).get("type") in ("number", "integer") for f in (left, right))
        if numeric and left in record and right in record:
            out.append({"left": left, "op": OPS.get(m.group(2).lower(), m.group(2)), "right": right})
    for m in HELD.finditer(clause):  # "with at least one unit in `stock`": a number of the record, bounded
        field = m.group("field")
        if (record.get(field) or {}).get("type") in ("number", "integer"):
            n = m.group("n").lower()
            out.append({"left": field, "op": ">=", "value": int(n) if n.isdigit() else 1})
    if ROOM.search(clause):  # "with at least one seat available": the count is below the cap
        counts = room_counts(record, text)
        if counts:
            out.append({"left": counts[0], "op": "<", "right": counts[1]})
    if FREE_PLACE.search(clause) and (room := _list_room(record, text)):
        out.append(room)
    raw = set(re.findall(r"[A-Za-z_]\w*", clause))
    words = {w.lower() for w in raw}
    for field, schema in sorted(record.items()):
        if not isinstance(schema, dict) or field == flag:
            continue
        if schema.get("type") == "boolean" and field.lower() in words:
            out.append({"field": field, "equals": True})
        known = [str(v) for v in (schema.get("enum") or schema.get("x-enum") or [])]
        named = [v for v in known if v in raw]  # as written: "or" is no value `OR`
        if schema.get("type") == "string" and len(named) == 1:
            negated = rf"\bnot\s+(?:in\s+|be\s+)?[`'\"]?{re.escape(named[0])}(?![\w-])"
            side = "differs" if re.search(negated, clause, re.I) else "equals"  # "and not in `repair`"
            out.append({"field": field, side: named[0]})
    return out or by_name


def _list_room(record: dict[str, Any], text: str) -> dict[str, Any] | None:
    """{"list", "op": "<", "right"}: the record's one list of records the text names ("take another skipper":
    `moored`, which references skippers) holds fewer entries than its one cap number (`capacity`)."""
    words = {singular(w.lower()) for w in re.findall(r"[A-Za-z]+", text)}
    lists = [
        f
        for f, s in sorted(record.items())
        if isinstance(s, dict)
        and s.get("type") == "array"
        and singular(str((s.get("items") or {}).get("x-references") or "")) in words
    ]
    cap = cap_field(record)
    return {"list": lists[0], "op": "<", "right": cap} if len(lists) == 1 and cap else None


def flag_inverses(spec_text: str, params: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """The flags whose `false` keeps the records their `true` drops ("`false`: only piers that cannot")."""
    out = []
    for name, text in flag_sentences(spec_text, params, record).items():
        side = FALSE_SIDE.search(text)
        if side and NEGATION.search(side.group("rest")):
            out.append(name)
    return out


def flag_sentences(spec_text: str, params: dict[str, Any], record: dict[str, Any]) -> dict[str, str]:
    """{flag: its description and the tool's sentence naming it} for the boolean parameters no field of the records."""
    return {
        name: _sentence_for(name, spec_text, str(schema.get("description") or ""))
        for name, schema in sorted(params.items())
        if isinstance(schema, dict) and schema.get("type") == "boolean" and name not in record
    }


def flag_filters(spec_text: str, params: dict[str, Any], record: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """{flag: conditions} for the boolean parameters that are no field of the records."""
    out = {}
    for name, text in flag_sentences(spec_text, params, record).items():
        found = flag_conditions(name, text, record)
        if found:
            out[name] = found
    return out


__all__ = ["flag_conditions", "flag_filters", "flag_inverses", "flag_sentences"]
