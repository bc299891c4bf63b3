"""A linked record's state once every element of one of its lists is full, as the docs say it: "when every tier of
the event is then full, the event becomes `sold_out`" ("the event becomes `sold_out` when every tier is full").

The noun names a record the changed record links (create_checks.noun_link); the element word names that record's
list (`tiers`), whose entries hold two counts: a cap (`capacity`, `max_*`, `limit`, `quota`, `seats`, `slots`,
`berths` and the like) and the one other number (of several, the one the docs name: `sold`). A `full_state` effect
sets the linked record's state field to the value once every entry's count has reached its cap
(code_templates/_blocks.j2 `full_states`, after the call's own moves). "The tier must have a ticket left" is an
`element_left` check on the entry the call's parameter of that name picks (list_runtime.fg_list_check).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_checks import noun_link
from synth.envsynth.create_rules import _known, _props
from synth.envsynth.docs_appends import is_number
from synth.envsynth.docs_linked import record_links
from synth.envsynth.plan import ToolPlan
from synth.envsynth.prose import unwrap
from synth.spec import ToolSpec
from synth.words import plural

FULL = r"(?:full|sold\s+out|fully\s+booked|at\s+capacity)"
BECOMES = r"(?:becomes|is\s+set\s+to|turns|is\s+marked|changes\s+to|goes\s+to)"
WHEN_FIRST = re.compile(
    rf"\b(?:when|once|if)\s+(?:every|each|all(?:\s+the)?)\s+(?P<elem>\w+?)s?\s+(?:of\s+the\s+(?P<owner>\w+)\s+)?"
    rf"(?:is|are)\s+(?:then\s+|now\s+)?{FULL}[^.;`]{{0,20}}?\bthe\s+(?P<noun>\w+)\s+{BECOMES}\s+`(?P<value>[\w-]+)`",
    re.I,
)
STATE_FIRST = re.compile(
    rf"\bthe\s+(?P<noun>\w+)\s+{BECOMES}\s+`(?P<value>[\w-]+)`\s+(?:when|once|if|as\s+soon\s+as)\s+"
    rf"(?:every|each|all(?:\s+the)?)\s+(?P<elem>\w+?)s?\s+(?:of\s+the\s+(?P<owner>\w+)\s+)?(?:is|are)\s+"
    rf"(?:then\s+|now\s+)?{FULL}",
    re.I,
)
CAPS = {
    "capacity",
    "max",
    "limit",
    "quota",
    "size",
    "seats",
    "cap",
    "slots",
    "spaces",
    "places",
    "spots",
    "beds",
    "berths",
}


def cap_field(props: dict[str, Any]) -> str | None:
    """The record's one number field named as a cap (`capacity`, `max_*`, `seats`, ...), None when not exactly one."""
    caps = [f for f, s in sorted(props.items()) if is_number(s) and set(f.split("_")) & CAPS]
    return caps[0] if len(caps) == 1 else None


def room_counts(entry: dict[str, Any], text: str) -> tuple[str, str] | None:
    """(count, cap) of a list entry: the one number named as a cap, and the one other number (of several, the one
    the docs name)."""
    numbers = [f for f, s in entry.items() if is_number(s)]
    caps = [f for f in numbers if set(f.split("_")) & CAPS]
    rest = [f for f in numbers if f not in caps]
    if len(rest) > 1:
        rest = [f for f in rest if re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", text)]
    if len(rest) > 1:  # of those, the one written as a field name (`sold`)
        rest = [f for f in rest if f"`{f}`" in text]
    return (rest[0], caps[0]) if len(caps) == 1 and len(rest) == 1 else None


def full_states(text: str, collection: str, state_schema: dict[str, Any]) -> list[dict[str, Any]]:
    """`full_state` effects for each sentence that sets a linked record's state once every entry of its list is
    full."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    out: list[dict[str, Any]] = []
    plain = unwrap(text)
    for m in list(WHEN_FIRST.finditer(plain)) + list(STATE_FIRST.finditer(plain)):
        link = noun_link(m.group("noun"), own, cols)
        theirs = _props(cols, link[1]) if link else {}
        lists = [f for f in (plural(m.group("elem").lower()), m.group("elem").lower()) if f in theirs]
        items = ((theirs.get(lists[0]) or {}).get("items") or {}) if lists else {}
        counts = room_counts((items.get("properties") or {}) if isinstance(items, dict) else {}, plain)
        states = [f for f, s in theirs.items() if m.group("value") in [str(v) for v in _known(s or {})]]
        if not (link and counts and len(states) == 1):
            continue
        effect = {
            "op": "full_state",
            "collection": link[1],
            "via": link[0],
            "list": lists[0],
            "count": counts[0],
            "cap": counts[1],
            "field": states[0],
            "value": m.group("value"),
        }
        if effect not in out:
            out.append(effect)
    return out


LEFT = re.compile(
    r"\bthe\s+(?P<elem>\w+)\s+must\s+(?:still\s+)?have\s+(?:a|an|one|at\s+least\s+one)\s+\w+\s+(?:left|free|available)\b",
    re.I,
)


def left_checks(text: str, collection: str, state_schema: dict[str, Any], params: dict[str, Any]) -> list[dict]:
    """`element_left` checks for "the tier must have a ticket left": the entry of a linked record's list that the
    call's parameter of the element's name picks (`tier`) has its count below its cap."""
    cols = state_schema.get("properties") or {}
    own = _props(cols, collection)
    plain = unwrap(text)
    out = []
    for m in LEFT.finditer(plain):
        elem = m.group("elem").lower()
        if elem not in params:
            continue
        for via, col in sorted(record_links(own, cols, collection).items()):
            items = ((_props(cols, col).get(plural(elem)) or {}).get("items") or {}).get("properties") or {}
            counts = room_counts(items, plain) if elem in items else None
            if counts:
                check = {"op": "element_left", "collection": col, "via": via, "list": plural(elem), "by": elem}
                out.append({**check, "count": counts[0], "cap": counts[1]})
                break
    return out


def with_full_states(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], text: str) -> ToolPlan:
    """The create, list add or recorded change with the `full_state` effects and `element_left` checks its docs
    give."""
    if plan.kind not in ("create", "item_add", "recorded_update") or not plan.collection:
        return plan
    found = [e for e in full_states(text, plan.collection, state_schema) if e not in plan.effects]
    if plan.kind == "create":  # "the skipper is appended to the pier's `moored`"; "... `full` when the last place ..."
        from synth.envsynth.member_lists import member_lists

        found += [e for e in member_lists(text, plan.collection, state_schema) if e not in plan.effects + found]
    params = spec.parameters.get("properties") or {}
    checks = [c for c in left_checks(text, plan.collection, state_schema, params) if c not in plan.checks]
    if not found and not checks:
        return plan
    evidence = plan.evidence + ["a linked record's list entries full or with room"]
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "effects": list(plan.effects) + found,
            "checks": list(plan.checks) + checks,
            "evidence": evidence,
        }
    )


__all__ = ["full_states", "left_checks", "room_counts", "with_full_states"]
