"""A list of objects the call adds to or takes from by an argument's value (mode_rules.py segments):

    - `add` appends `{"name", "role", "added_on": <today>}` to `crew`; a boat can have at most **3** crew and the
      same name (case-insensitive) cannot be listed twice.
    - `remove` deletes the matching crew member.
    - Either way a `crew_added` / `crew_removed` event with the member's name is appended to the boat log.
    Closed boats cannot be changed. Returns the boat's updated `crew` array.

makes a `by_mode` plan: the adding value appends the object the docs spell (a key written alone holds the argument
of that name; docs_appends.element_rule), refused when the list already holds the cap or an entry with the same
value of the field said once only (any case when the docs say so); the removing value deletes the entry whose
field holds the argument (refused when none does). Each value logs its own kind of the entry pair ("`a` / `b`",
the kind holding the value's participle), written as docs_entries writes a named entry. The answer is the list
(`answer_field`) when the docs say so.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.docs_appends import _dated, element_rule
from synth.envsynth.docs_entries import business_date, named_entries
from synth.envsynth.list_toggle import toggle_values
from synth.envsynth.mode_rules import by_mode_plan
from synth.envsynth.plan import ToolPlan
from synth.envsynth.refusals import refused_kinds
from synth.spec import ToolSpec
from synth.words import singular

SPELT = re.compile(r"\bappends?\s+`?(\{[^`{}]{1,400}\})`?\s+to\s+(?:the\s+|its\s+)?`?(\w+)`?", re.I)
LONE = re.compile(r"(?<=[{,])\s*\"(\w+)\"\s*(?=[,}])")  # `{"name", ...}`: a key written alone
AT_MOST = re.compile(r"\bat\s+most\s+\**(\d+)\**\s+(\w+)", re.I)
AT_MOST_WORDS = re.compile(  # "at most **2** crew list entries at a time": the words up to "at a time"
    r"\bat\s+most\s+\**(\d+)\**\s+((?:\w+\s+){1,3}?\w+)(?=\s+(?:at\s+a\s+time|in\s+all)|[;.,]|$)", re.I
)
TWICE = re.compile(
    r"\bthe\s+same\s+`?(\w+)`?\s*(\(case-insensitive\))?\s+(?:cannot|can't|may\s+not)\s+be\s+(?:listed|added)\s+twice",
    re.I,
)
MATCHING = re.compile(
    r"\b(?:deletes|removes|drops)\s+the\s+matching\s+\w+|\bmust\s+be\s+(?:on\s+the\s+list|listed)\b", re.I
)
ALREADY_LISTED = re.compile(r"\balready\s+on\s+the\s+list\s+is\s+(?:refused|rejected)", re.I)
CASELESS = re.compile(r"\bcase[- ]insensitive(?:ly)?\b", re.I)
PAIR = re.compile(r"`([\w-]+)`\s*/\s*`([\w-]+)`")
RETURNS = re.compile(r"\bReturns\s+the\s+\w+['\u2019]s\s+(?:updated\s+|new\s+)?`?(\w+)`?\s+(?:array|list)\b", re.I)
PARTICIPLES = {"add": "added", "remove": "removed", "attach": "attached", "detach": "detached", "drop": "dropped"}


def _nullable(schema: Any) -> bool:
    kinds = schema.get("type") if isinstance(schema, dict) else None
    return kinds is None or kinds == "null" or (isinstance(kinds, list) and "null" in kinds)


def _kind_text(shared: str, value: str) -> str:
    """The shared text with an entry pair "`a` / `b`" said as the one kind holding the value's participle."""
    said = PARTICIPLES.get(value.lower(), value.lower())

    def pick(m: re.Match[str]) -> str:
        mine = [k for k in m.groups() if said in k.lower().split("_")]
        return f"`{mine[0]}`" if len(mine) == 1 else m.group(0)

    return PAIR.sub(pick, shared)


def _named_list(tool: str, own: dict[str, Any]) -> str:
    """The one list of objects of the record the tool's name holds (`update_crew_members` -> `crew_members`)."""
    lists = [
        f
        for f, sub in own.items()
        if isinstance(sub, dict) and (sub.get("items") or {}).get("type") == "object" and f"_{f}_" in f"_{tool}_"
    ]
    longest = [f for f in lists if len(f) == max(map(len, lists))] if lists else []
    return longest[0] if len(longest) == 1 else ""


def _unspelt_entry(entry_props: dict[str, Any], params: dict[str, Any], today: str | None) -> str:
    """The entry the docs leave unspelt, as `{"a", "b"}` when each of its fields is a parameter of that name or a day
    (the business date); "" when one is neither."""
    parts = [f'"{f}"' if f in params else f'"{f}": today' for f in entry_props if f in params or (today and _dated(f))]
    return "{" + ", ".join(parts) + "}" if parts and len(parts) == len(entry_props) else ""


def object_toggle(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    records: list[dict[str, Any]] | None = None,
    policy: str = "",
) -> ToolPlan | None:
    """The `by_mode` plan of an object list toggle, or None when the docs describe no such pair of values."""
    found = toggle_values(spec, plan, state_schema)
    if found is None:
        return None
    param, segments, _, adding_value, dropping_value, own = found
    params = spec.parameters.get("properties") or {}
    spelt = SPELT.search(segments[adding_value])
    field = spelt.group(2) if spelt else _named_list(spec.name, own)
    items = (own.get(field) or {}).get("items") if isinstance(own.get(field), dict) else None
    if not isinstance(items, dict) or not MATCHING.search(segments[dropping_value]):
        return None
    today = business_date(spec.description + "\n" + policy)
    entry_props = items.get("properties") or {}
    body = spelt.group(1) if spelt else _unspelt_entry(entry_props, params, today)
    rule = element_rule(LONE.sub(lambda m: f' "{m.group(1)}": {m.group(1)}', body), entry_props, params, None, today)
    once = TWICE.search(segments[adding_value])
    match = once.group(1) if once and once.group(1) in entry_props and once.group(1) in params else None
    if once is None and ALREADY_LISTED.search(segments[adding_value]):  # "a name already on the list is refused"
        given = [f for f in entry_props if f in params]
        match = given[0] if len(given) == 1 else None
    if rule is None or match is None:
        return None
    caseless = bool(once and once.group(2)) or bool(CASELESS.search(str((params.get(match) or {}).get("description"))))
    checks: list[dict[str, Any]] = [
        {"op": "entry_absent", "list": field, "field": match, "arg": match, "caseless": caseless}
    ]
    for cap in (AT_MOST.search(segments[adding_value]), AT_MOST_WORDS.search(segments[adding_value])):
        said = [singular(w) for w in cap.group(2).lower().split()] if cap else []
        own_words = [singular(w) for w in field.lower().split("_")]
        if said and (said[-1] in (singular(field.lower()), own_words[-1]) or set(own_words) <= set(said)):
            checks.append({"op": "list_room", "list": field, "most": int(cap.group(1))})
            break
    noun = singular(plan.collection)
    allowed = refused_kinds(spec.description + "\n" + policy, noun, own)  # "Closed boats cannot be changed"
    answer = RETURNS.search(spec.description)
    answer_field = answer.group(1) if answer and answer.group(1) == field else None
    base = {**plan.to_dict(), "kind": "recorded_update", "preconditions": allowed, "answer_field": answer_field}
    drop = {"op": "entry_drop", "field": field, "match": match, "arg": match, "caseless": caseless}
    required = set(spec.parameters.get("required") or [])
    needs = [  # an argument the new entry holds that it may not hold empty: the adding call must give it
        src["name"]
        for name, src in rule["fields"].items()
        if src.get("from") == "arg" and src["name"] not in required and not _nullable(entry_props.get(name))
    ]
    modes = {}
    for value, effect, own_checks in (
        (adding_value, {"op": "append", "field": field, "items": [rule]}, checks),
        (dropping_value, drop, []),
    ):
        said = _kind_text(spec.description, value)  # the pair may sit in a bullet of the last value's segment
        logged = named_entries(said, noun, own, spec.parameters, list(records or []), today)
        logged = [e for e in logged if e["field"] != field]
        if effect is drop:  # "with the member's name": the name as the list held it, not as the call spelt it
            for rule_ in (r for e in logged for r in e.get("items") or []):
                gone = {"from": "dropped", "index": 0, "field": match}
                rule_["fields"] = {
                    k: gone if v == {"from": "arg", "name": match} else v for k, v in rule_["fields"].items()
                }
        effects = [effect] + logged
        modes[value] = {
            "plan": {**base, "effects": effects, "checks": own_checks},
            "requires": needs if value == adding_value else [],
        }
    return by_mode_plan(plan, param, modes, allowed, f"objects added to or taken from `{field}` by `{param}`")


__all__ = ["object_toggle"]
