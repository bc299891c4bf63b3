"""A change that credits every record on its record's roster, and marks the ones an argument lists as absent:

    Every skipper on the crew list who is not listed as absent is credited the race's `miles` (added to
    `miles_sailed`) and one more `races_sailed`. Each absent skipper gets one more `missed_count` and a `missed` log
    entry on the race.

The roster is the record's list of ids of the noun's records (`skipper_ids`), the absent ones the list argument
named with that word (`absent_skipper_ids`). "credited the <record>'s `a` (added to `b`)" adds the record's number
`a` to each one's `b`; "one more `c`" adds 1 (`each_id_adjust` effects, list_runtime.fg_each_id). "a `<kind>` <list>
entry" appends one entry per absent id to the record's list (before the entries the change already writes), shaped
like the list's other entries: the kind, the business date, the id in the field named for the noun, and the values
the entries naming such a record share (`each_id_append`). The argument is then no field of its own.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.data_copies import sample_records
from synth.envsynth.docs_appends import is_number
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec, known_values
from synth.spec import record_props as _props
from synth.words import plural

PRESENT = re.compile(
    r"\bevery\s+(?P<noun>[a-z]+)\s+on\s+the\s+[a-z ]{1,30}?\s+who\s+is\s+not\s+listed\s+as\s+(?P<absent>[a-z]+)\s+"
    r"(?P<rest>[^.]+)\.",
    re.I,
)
ABSENT = re.compile(r"\beach\s+(?P<absent>[a-z]+)\s+(?P<noun>[a-z]+)\s+gets\s+(?P<rest>[^.]+)\.", re.I)
CREDITED = re.compile(r"\bcredited\s+the\s+[a-z]+['\u2019]s\s+`(?P<by>\w+)`\s+\(added\s+to\s+`(?P<field>\w+)`\)", re.I)
ONE_MORE = re.compile(r"\bone\s+more\s+`(?P<field>\w+)`", re.I)
ENTRY = re.compile(r"\ban?\s+`(?P<kind>[\w-]+)`\s+(?P<list>\w+)\s+entry\b", re.I)
DATE = re.compile(r"^\d{4}-\d\d-\d\d$")


def _moves(rest: str, ids: dict[str, Any], col: str, own: dict[str, Any], theirs: dict[str, Any]) -> list[dict]:
    out = []
    for m in CREDITED.finditer(rest):
        if is_number(own.get(m.group("by"))) and is_number(theirs.get(m.group("field"))):
            out.append(
                {"op": "each_id_adjust", "collection": col, "ids": ids, "field": m.group("field"), "by": m.group("by")}
            )
    for m in ONE_MORE.finditer(rest):
        if is_number(theirs.get(m.group("field"))):
            out.append({"op": "each_id_adjust", "collection": col, "ids": ids, "field": m.group("field"), "step": 1})
    return out


def _entry(
    rest: str, text: str, noun: str, arg: str, own: dict[str, Any], records: list[dict], today: str
) -> dict | None:
    """The `each_id_append` of "a `<kind>` <list> entry", or None when its shape is not read."""
    m = ENTRY.search(rest)
    field = m.group("list") if m and (own.get(m.group("list")) or {}).get("type") == "array" else None
    id_field = f"{noun}_id"
    entries = (
        [e for r in records for e in (r.get(field) or []) if isinstance(e, dict) and id_field in e] if field else []
    )
    if not m or not entries:
        return None
    items = ((own.get(field) or {}).get("items") or {}).get("properties") or {}
    quoted = set(re.findall(r"`([\w-]+)`", text)) | {m.group("kind")}
    kinds = [k for k, s in items.items() if quoted & set(known_values(s))]  # the field holding the kinds the docs quote
    item: dict[str, Any] = {}
    for key in dict.fromkeys(k for e in entries for k in e):
        values = [e.get(key) for e in entries if key in e]
        if key == id_field:
            continue
        if key in kinds:
            item[key] = {"from": "const", "value": m.group("kind")}
        elif all(isinstance(v, str) and DATE.match(v) for v in values):
            item[key] = {"from": "const", "value": today}
        elif all(v == values[0] for v in values):
            item[key] = {"from": "const", "value": values[0]}
    if len(kinds) != 1 or id_field not in items or len(item) + 1 != len(dict.fromkeys(k for e in entries for k in e)):
        return None
    return {"op": "each_id_append", "field": field, "arg": arg, "id_field": id_field, "item": item}


def roster_moves(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    text: str,
    sample: dict[str, Any] | None,
    today: str | None,
) -> ToolPlan:
    """The change's plan with the roster's credits, the absent ones' marks and their entries; unchanged when the
    docs say no such thing or a part is not read."""
    if plan.kind != "recorded_update" or not plan.collection or not today:
        return plan
    text = unwrap(text)
    present, absent = PRESENT.search(text), ABSENT.search(text)
    if not present:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    noun = present.group("noun").lower()
    col, roster = plural(noun), f"{noun}_ids"
    params = (spec.parameters or {}).get("properties") or {}
    lists = [
        p for p, s in params.items() if (s or {}).get("type") == "array" and present.group("absent") in p.split("_")
    ]
    if col not in cols or roster not in own or len(lists) != 1:
        return plan
    theirs = _props(cols, col)
    moves = _moves(present.group("rest"), {"list": roster, "minus_arg": lists[0]}, col, own, theirs)
    appended = None
    if absent and absent.group("noun").lower() == noun:
        moves += _moves(absent.group("rest"), {"arg": lists[0]}, col, own, theirs)
        appended = _entry(
            absent.group("rest"), text, noun, lists[0], own, sample_records(sample or {}, plan.collection), today
        )
        if appended is None and ENTRY.search(absent.group("rest")):
            return plan
    if not moves:
        return plan
    effects = [  # the list argument is what the docs read, not a field of its own
        e for e in plan.effects if not (e.get("op") == "set" and (e.get("source") or {}).get("name") == lists[0])
    ]
    if appended:
        at = next(
            (i for i, e in enumerate(effects) if e.get("op") == "append" and e.get("field") == appended["field"]),
            len(effects),
        )
        effects.insert(at, appended)
    evidence = plan.evidence + [f"every one of `{roster}` credited, the ones `{lists[0]}` lists marked absent"]
    return ToolPlan.from_dict({**plan.to_dict(), "effects": effects + moves, "evidence": evidence})


__all__ = ["roster_moves"]
