"""Fields of the records a create names that the call sets, as the docs say: "the car's status becomes `reserved`"
(another word for the record the call names), "its `open_firing` is set to the new firing" (the new record's key).
Each is a `ref_sets` entry of the create plan ({param, collection, field, value | new_key}: create.py.j2), guarded by
`when` where a yes/no argument leads the sentence ("With `urgent`, the pier's status becomes `closed`")."""

from __future__ import annotations

import re
from typing import Any

from synth.spec import record_props
from synth.words import singular

CONDITION = re.compile(r"\b(?:when|whenever|if|once|unless)\b", re.IGNORECASE)


# "With `urgent`, the pier's status becomes ...", "If `urgent` is true, ...": an argument leads the sentence
LEAD = re.compile(
    r"^\s*(?:with|if|when)\s+`(?P<flag>\w+)`(?:\s+(?:is\s+|set\s+to\s+)?`?(?P<value>true|false|set|given|on|off)`?)?"
    r"(?:\s*,\s*|\s+(?=the\b))",
    re.I,
)


def flag_lead(sentence: str, params: dict[str, Any]) -> tuple[dict[str, Any] | None, str] | None:
    """(the `when` guard, the rest of the sentence) when a yes/no argument of the call leads it ("With `urgent`,
    ..."; "If `urgent` is false, ..."), (None, the sentence) when no argument leads it, and None when another
    argument or a name the call lacks does: a condition that cannot be read."""
    m = LEAD.search(sentence)
    if m is None:
        return None, sentence
    kind = (params.get(m.group("flag")) or {}).get("type")
    if "boolean" not in (kind if isinstance(kind, list) else [kind]):
        return None
    value = (m.group("value") or "true").lower()
    return {"arg": m.group("flag"), "in": [value not in ("false", "off")]}, sentence[m.end() :]


def _known(schema: dict[str, Any]) -> list[Any]:
    return list(schema.get("enum") or schema.get("x-enum") or [])


ALIASED_SET = re.compile(
    r"\bthe\s+([a-z][\w-]*)['\u2019]s\s+`?(\w+)`?\s+(?:becomes?|is\s+set\s+to|is\s+marked)\s+[`'\"]?([\w-]+)", re.I
)


def aliased_sets(
    sentences: list[str], refs: dict[str, str], cols: dict[str, Any], sets: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A named record's field set by another word for it ("the car's status becomes `reserved`" where the call names
    a `vehicle_id`): the one record the call names whose field knows that value."""
    out = []
    nouns = {p[:-3].replace("_", " ") for p in refs}
    for sentence in sentences:
        if LEAD.search(sentence):  # a change guarded by an argument: create_rules reads it with its guard
            continue
        for m in ALIASED_SET.finditer(sentence):
            if m.group(1).lower() in nouns or CONDITION.search(sentence[: m.start()]):
                continue
            hits = [
                p for p, c in sorted(refs.items()) if m.group(3) in _known(record_props(cols, c).get(m.group(2)) or {})
            ]
            change = (
                {"param": hits[0], "collection": refs[hits[0]], "field": m.group(2), "value": m.group(3)}
                if hits
                else {}
            )
            if len(hits) == 1 and not any(s["param"] == hits[0] and s["field"] == m.group(2) for s in sets + out):
                out.append(change)
    return out


# "its `open_firing` is set to the new firing", "the kiln's open_firing becomes the new firing's id"
NEW_KEY_SET = re.compile(
    r"\b(?:its|the\s+(?P<owner>[a-z][\w ]{0,30}?)['\u2019]s)\s+`?(?P<field>\w+)`?\s+"
    r"(?:is\s+set\s+to|becomes|points\s+to)\s+the\s+new\s+(?P<noun>\w+)",
    re.IGNORECASE,
)

KEY_FIELD_SET = re.compile(
    r"\bthe\s+(?P<owner>[a-z][\w ]{0,30}?)['\u2019]s\s+`(?P<field>\w+)`\s+"
    r"is\s+(?:set|updated|recorded|filled\s+in)\s*(?:[.;]|$)",
    re.IGNORECASE,
)


def new_key_sets(
    sentences: list[str], refs: dict[str, str], cols: dict[str, Any], noun: str, sets: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """A named record's field that takes the new record's key ("the kiln's `open_firing` is set to the new
    firing"; "its" when the sentence names that record's noun only)."""
    out: list[dict[str, Any]] = []
    for sentence in [s for s in sentences if not LEAD.search(s)]:  # "The skipper's `current_mooring_id` is set."
        for m in KEY_FIELD_SET.finditer(sentence):
            param = next((p for p in sorted(refs) if p[:-3].replace("_", " ") == m.group("owner").lower()), None)
            named = m.group("field") == f"{noun}_id" or m.group("field").endswith(f"_{noun}_id")
            done = any(s["param"] == param and s["field"] == m.group("field") for s in sets + out)
            if param and named and not done and m.group("field") in record_props(cols, refs[param]):
                out.append({"param": param, "collection": refs[param], "field": m.group("field"), "new_key": True})
        for m in NEW_KEY_SET.finditer(sentence):
            if singular(m.group("noun").lower()) not in (noun, noun.split("_")[-1]) or CONDITION.search(
                sentence[: m.start()]
            ):
                continue
            said = [m.group("owner").lower()] if m.group("owner") else None
            hits = [
                p
                for p in sorted(refs)
                if m.group("field") in record_props(cols, refs[p])
                and (
                    p[:-3].replace("_", " ") in said
                    if said
                    else re.search(rf"\b{p[:-3].replace('_', ' ')}\b", sentence, re.I)
                )
            ]
            if len(hits) == 1 and not any(s["param"] == hits[0] and s["field"] == m.group("field") for s in sets + out):
                out.append({"param": hits[0], "collection": refs[hits[0]], "field": m.group("field"), "new_key": True})
    return out


__all__ = ["CONDITION", "aliased_sets", "flag_lead", "new_key_sets"]
