"""A list of a record edited by two list arguments at once: "Labels listed in `remove` are taken out first, then
the entries in `add` are appended as given" (a skipper's `moorings`, each {"label", "pier"}).

The change is a keyed update whose parameters include an adding list, whose objects hold only fields of the
entries of one of the record's lists, and a removing list of plain values, which the entries of that list hold in
the one field its description or name names ("Labels to remove": `label`, else the entries' one text field the
objects are matched by). The parameters are named `add` / `remove` (or `added` / `removed`, `add_<x>` /
`remove_<x>`). Removals run first unless the text puts the additions first.

A removal matches "case-insensitively" when the docs say so. An added entry gets the business date in each date
field the list's entries hold and the adding objects do not (`joined_on`), when the entries of the sample data all
hold one. The answer may list the values added and removed (`added` / `removed`: edited_answer).

Refused, and nothing changed, when a value to remove matches no entry, when the docs say the field is unique and
an added entry repeats a value, when another record uses a removed entry ("cannot be removed while any of the
skipper's trips in status `booked` uses it", in_use.py), or when the list would leave the count the docs give
("between one and three moorings", "at most 5"). Each becomes an `entries_drop` / `entries_add` effect
(recorded_update.py.j2).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from synth.envsynth.in_use import in_use
from synth.envsynth.plan import ToolPlan
from synth.envsynth.refusals import refused_kinds
from synth.spec import ToolSpec, record_props
from synth.words import singular

NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
PER_CALL = re.compile(r"\bper\s+(?:call|request)\b|\bin\s+one\s+(?:call|request)\b|\bat\s+a\s+time\b", re.I)
ADD = re.compile(r"^(?:add|added|adds|add_\w+)$")
REMOVE = re.compile(r"^(?:remove|removed|removes|remove_\w+)$")


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else NUMBERS.get(word.lower())


def _bounds(text: str, field: str) -> tuple[int | None, int | None]:
    """(fewest, most) entries the docs allow the list: "between one and three <noun>s", "at most 5"."""
    noun = singular(field.split("_")[-1])
    said = rf"(?:{re.escape(noun)}s?|{re.escape(field.replace('_', ' '))}|entries|items)"
    sentences = [s for s in re.split(r"(?<=[.;])\s+", text) if not PER_CALL.search(s)]  # a cap on one call
    text = " ".join(sentences)
    m = re.search(rf"\bbetween\s+(\w+)\s+and\s+(\w+)\s+(?:\w+\s+){{0,2}}?{said}\b", text, re.I)
    if m and _number(m.group(1)) is not None and _number(m.group(2)) is not None:
        return _number(m.group(1)), _number(m.group(2))
    m = re.search(rf"\b(?:at\s+most|no\s+more\s+than|up\s+to)\s+(\w+)\s+(?:\w+\s+){{0,2}}?{said}\b", text, re.I)
    return (None, _number(m.group(1))) if m and _number(m.group(1)) is not None else (None, None)


def adds_and_removes(spec: ToolSpec) -> bool:
    """The tool takes one adding and one removing list (`add` / `remove`): a keyed edit of one record's list, not a
    batch of items for several records."""
    params = spec.parameters.get("properties") or {}
    arrays = [p for p, s in params.items() if isinstance(s, dict) and s.get("type") == "array"]
    return sum(bool(ADD.match(p)) for p in arrays) == 1 and sum(bool(REMOVE.match(p)) for p in arrays) == 1


def paired_lists(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], today: str | None = None
) -> ToolPlan | None:
    """The `recorded_update` editing one list by an adding and a removing argument, or None (`today`: the business
    date stamped on added entries)."""
    if plan.kind != "update" or not plan.collection or not plan.key_param:
        return None
    params = spec.parameters.get("properties") or {}
    adds = [p for p, s in params.items() if ADD.match(p) and (s or {}).get("type") == "array"]
    removes = [p for p, s in params.items() if REMOVE.match(p) and (s or {}).get("type") == "array"]
    if len(adds) != 1 or len(removes) != 1:
        return None
    add, remove = adds[0], removes[0]
    given = ((params[add].get("items") or {}).get("properties")) or {}
    own = record_props(state_schema.get("properties") or {}, plan.collection)
    lists = [
        f
        for f, s in own.items()
        if isinstance(s, dict)
        and s.get("type") == "array"
        and given
        and set(given) <= set(((s.get("items") or {}).get("properties")) or {})
    ]
    if len(lists) != 1:
        return None
    field = lists[0]
    if ((params[remove].get("items") or {}).get("type")) not in (None, "string"):
        return None  # positions or numbers to remove: not values the entries hold
    said = str(params[remove].get("description") or "") + " " + remove
    texts = [k for k, s in given.items() if (s or {}).get("type") == "string"]
    named = [k for k in texts if re.search(rf"\b{re.escape(k)}s?\b", said, re.I)]
    match = named[0] if len(named) == 1 else texts[0] if len(texts) == 1 else None
    if match is None:
        return None
    text = spec.description or ""
    unique = bool(
        re.search(rf"\b{re.escape(match)}s?\b[^.;]{{0,150}}\bunique\b|\bunique\s+{re.escape(match)}", text, re.I)
    )
    fewest, most = _bounds(text, field)
    first_add = re.search(rf"`{add}`[^.`]{{0,80}}\bfirst\b", text) is not None
    drop = {"op": "entries_drop", "field": field, "arg": remove, "match": match}
    drop.update({"caseless": True} if _caseless(text) else {})
    used = in_use(text, plan.collection, field, match, state_schema.get("properties") or {})
    drop.update({"in_use": used} if used else {})  # "cannot be removed while any ... uses it" (in_use.py)
    put = {"op": "entries_add", "field": field, "arg": add, "match": match, "unique": unique}
    stamps = _dated(own[field], given, today)
    put.update({"stamp": stamps} if stamps else {})
    effects = [put, drop] if first_add else [drop, put]
    effects[-1].update({k: v for k, v in (("fewest", fewest), ("most", most)) if v is not None})  # once both ran
    kept = refused_kinds(text, singular(plan.collection), own, spec.name)  # "cannot be changed on closed <nouns>"
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "preconditions": {**kept, **plan.preconditions},
            "kind": "recorded_update",
            "effects": effects,
            "evidence": plan.evidence + [f"`{field}` edited by `{remove}` and `{add}`"],
        }
    )


def meet_removals(plan: ToolPlan, record: Any, args: dict[str, Any]) -> None:
    """A test case's values to remove taken from the record's list (its first entries), and no more additions than
    the list's cap leaves room for (key_cases.existing_key_cases)."""
    if not isinstance(record, dict):
        return

    def entries(eff: dict[str, Any]) -> list[Any]:
        held = record.get(str(eff.get("field")))
        return [e for e in held if isinstance(e, dict)] if isinstance(held, list) else []

    left: dict[str, int] = {}  # list field -> entries it keeps after the removals
    for eff in [e for e in plan.effects if e.get("op") == "entries_drop"]:
        given, held = args.get(str(eff.get("arg"))), entries(eff)
        if isinstance(given, list):
            args[eff["arg"]] = [copy.deepcopy(e.get(eff["match"])) for e in held[: len(given)]]
            left[str(eff["field"])] = len(held) - len(args[eff["arg"]])
    for eff in [e for e in plan.effects if e.get("op") == "entries_add" and e.get("most") is not None]:
        given = args.get(str(eff.get("arg")))
        if isinstance(given, list):
            kept = left.get(str(eff["field"]), len(entries(eff)))
            args[eff["arg"]] = given[: max(0, int(eff["most"]) - kept)]


CASELESS = re.compile(r"\bcase[- ]?insensitiv|\bignor\w*\s+(?:the\s+)?case\b|\bregardless\s+of\s+case\b", re.I)


def _caseless(text: str) -> bool:
    """The docs say removals match regardless of case: "removal matches the name case-insensitively"."""
    return any(CASELESS.search(s) and re.search(r"\bremov|\bmatch", s, re.I) for s in re.split(r"(?<=[.;])\s+", text))


def _dated(schema: dict[str, Any], given: dict[str, Any], today: str | None) -> dict[str, str]:
    """{field: today} for each date field the list's entries hold (required by the sample data's schema) that the
    adding objects do not give: the day the entry was added."""
    items = schema.get("items") or {}
    required = set(items.get("required") or [])
    return {
        f: today
        for f, s in sorted((items.get("properties") or {}).items())
        if today and f not in given and f in required and isinstance(s, dict) and s.get("format") == "date"
    }


def edited_answer(name: str, plan: ToolPlan) -> dict[str, Any] | None:
    """A listed answer field naming what a paired edit did with one of its arguments: `added` for `add`, `removed`
    for `remove` (`added_<x>` for `add_<x>`): the values (the matched field of objects) the call gave it."""
    for eff in plan.effects:
        if eff.get("op") not in ("entries_add", "entries_drop"):
            continue
        arg = str(eff["arg"])
        head, _, tail = arg.partition("_")
        done = {"add": "added", "adds": "added", "remove": "removed", "removes": "removed"}.get(head, head)
        if name == done + ("_" + tail if tail else ""):
            return {"op": "edited", "arg": arg, "match": eff["match"]}
    return None


__all__ = ["adds_and_removes", "edited_answer", "meet_removals", "paired_lists"]
