"""A create's "The <noun> must ..." sentence: what a record the new one links to must be, each predicate read
against that linked record ("The berth must serve the skipper's harbour, be open and be dated tomorrow or later."):

- "be <value>" / "not be <value>" (a known value of one field of the linked record): `linked_state`, as "the berth
  is open" reads; "be open, reserved or held": those states;
- "be dated tomorrow or later" / "today or later" / "not be in the past": `dated` on the linked record's one date
  field against the business date (after it for tomorrow, on or after it otherwise);
- "serve / match / belong to / be in the <other>'s <thing>": `linked_same`, the field naming the thing
  (`harbour_id`, or `harbour`) holds the same value on both linked records.

The noun must name a record the new record links to (create_checks.noun_link); a predicate no form reads is left
to other readers, and a sentence about an argument ("The date must be ...") names no linked record and reads as
nothing. A sentence with an exception or a deadline ("unless ...", "returned ... by noon") is no precondition, and
one whose alternatives ("open or in repair") are not all states reads as nothing.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import clause_checks, noun_link
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.prose import unwrap

MUST = re.compile(r"^(?:the|its)\s+(?P<noun>[a-z]\w*)\s+must\s+(?P<rest>[^.;]+?)\.?$", re.I)
SPLIT = re.compile(r",\s*(?:and\s+)?|\s+and\s+(?=(?:be|not|serve|match|belong|have|hold)\b)", re.I)
BE_VALUE = re.compile(r"^(?P<pre>not\s+)?(?:still\s+)?be\s+(?P<not>not\s+)?[`'\"]?(?P<value>[a-z][\w-]*)[`'\"]?$", re.I)
ONE_OF = re.compile(  # "be open, reserved or held": the states it may be in
    r"^(?:still\s+)?be\s+(?P<values>[`'\"]?[a-z][\w-]*[`'\"]?(?:\s*,\s*[`'\"]?[a-z][\w-]*[`'\"]?)*,?\s+or\s+"
    r"[`'\"]?[a-z][\w-]*[`'\"]?)$",
    re.I,
)
HEDGED = re.compile(  # a rule with an exception, or an obligation for later ("returned ... by noon")
    r"\b(?:unless|except|if|when|once|until|after|before|by|while)\b", re.I
)
DATED = re.compile(
    r"^(?:be\s+(?:dated|held|on)\s+(?P<when>today|tomorrow)\s+or\s+later|not\s+be\s+in\s+the\s+past)$", re.I
)
SAME = re.compile(
    r"^(?:serve|match|belong\s+to|be\s+in|be\s+for)\s+(?:the\s+)?(?P<other>[a-z]\w*)['\u2019]s\s+(?P<thing>[a-z]\w*)$",
    re.I,
)


def _date_field(props: dict[str, Any]) -> str | None:
    dates = [f for f, s in sorted(props.items()) if isinstance(s, dict) and s.get("format") == "date"]
    return dates[0] if len(dates) == 1 else None


def _predicate(
    noun: str, pred: str, own: dict[str, Any], cols: dict[str, Any], today: str | None
) -> list[dict[str, Any]]:
    link = noun_link(noun, own, cols)
    if link is None:
        return []
    via, collection = link
    if m := BE_VALUE.match(pred):
        negated = "not " if (m.group("pre") or m.group("not")) else ""
        return clause_checks(f"the {noun} is {negated}{m.group('value')}", own, cols, today)
    if m := ONE_OF.match(pred):
        values = [v.strip("`'\"").lower() for v in re.split(r"\s*,\s*(?:or\s+)?|,?\s+or\s+", m.group("values"))]
        theirs = _props(cols, collection)
        holders = [f for f, s in theirs.items() if set(values) <= {str(v).lower() for v in _known(s or {})}]
        if len(holders) == 1:
            allowed = [str(v) for v in _known(theirs[holders[0]]) if str(v).lower() in values]
            return [
                {"op": "linked_state", "collection": collection, "via": via, "field": holders[0], "allowed": allowed}
            ]
        return []
    if (m := DATED.match(pred)) and today:
        field = _date_field(_props(cols, collection))
        cmp = ">" if (m.group("when") or "").lower() == "tomorrow" else ">="
        return (
            [{"op": "dated", "via": via, "collection": collection, "field": field, "cmp": cmp, "value": today}]
            if field
            else []
        )
    if m := SAME.match(pred):
        other = noun_link(m.group("other"), own, cols)
        thing = m.group("thing").lower()
        if other is None or other == link:
            return []
        mine, theirs = _props(cols, collection), _props(cols, other[1])
        shared = [f for f in (f"{thing}_id", thing) if f in mine and f in theirs]
        if shared:
            return [
                {
                    "op": "linked_same",
                    "field": shared[0],
                    "first": {"collection": collection, "via": via},
                    "second": {"collection": other[1], "via": other[0]},
                }
            ]
    return []


def must_checks(text: str, own: dict[str, Any], cols: dict[str, Any], today: str | None) -> list[dict[str, Any]]:
    """The checks of the "The <noun> must ..." sentences of a create's docs ([] when none reads)."""
    found: list[dict[str, Any]] = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", unwrap(text)):
        m = MUST.match(sentence.strip())
        if m is None or HEDGED.search(m.group("rest")):
            continue
        rest = m.group("rest").strip()
        parts = [rest] if ONE_OF.match(rest) else SPLIT.split(rest)  # "be open, reserved or held": one list
        if any(re.search(r"\bor\b", p) and not (ONE_OF.match(p.strip()) or DATED.match(p.strip())) for p in parts):
            continue  # "be open or in repair": alternatives not read are no rule of the first
        for pred in parts:
            found += [c for c in _predicate(m.group("noun"), pred.strip(), own, cols, today) if c not in found]
    return found


__all__ = ["must_checks"]
