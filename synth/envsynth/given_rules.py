"""Rules for optional arguments that go together, from a paragraph the docs head with their shared word:

    **Hull surcharges**: only with `action` = `haul`, only on `wooden` and `steel` boats, amount greater than 0 and
    at most **$400.00** (larger ones go to the yard manager). `surcharge_amount` and `surcharge_skipper_id` must be
    given together.

The group is the call's optional parameters whose names start with the heading's word (`surcharge_amount`,
`surcharge_skipper_id` under "Hull surcharges"), two at least. While any of them is given:
- "only with `p` = `v`": the call's `p` must be `v`;
- "only on `a` and `b` <noun>s": the record's one text field holding those values (its enum, else the sample's)
  must hold one of them;
- "amount greater than N and at most M": the group's one number parameter must be above N and at most M;
- "`x` and `y` must be given together": each needs the other.
And a parameter whose description says "must be a current <member> of the <noun>" must be in the list of that name
(`<member>s`) of the record the call's record links for the noun (`pier_id` -> the pier's `berth_holders`).
A field the plan would set from a group argument that the record does not have is dropped (the rules are what the
docs say of those arguments).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import field_values, sample_records
from synth.envsynth.plan import ToolPlan
from synth.words import plural, singular, split_words

HEADED = re.compile(r"\*\*(?P<head>[A-Za-z][\w -]{1,40})\*\*\s*:\s*(?P<body>[^\n]+(?:\n(?!\s*\n)(?!\*\*)[^\n]+)*)")
ONLY_WITH = re.compile(r"\bonly\s+with\s+`(\w+)`\s*=\s*`?([\w-]+)`?", re.I)
ONLY_ON = re.compile(r"\bonly\s+on\s+((?:`[\w-]+`(?:\s*,\s*|\s+and\s+|\s+or\s+)?)+)\s*\w+", re.I)
RANGE = re.compile(
    r"\bamount\s+(?:greater|more)\s+than\s+\$?(\d+(?:\.\d+)?)\s+and\s+at\s+most\s+\**\$?([\d,]+(?:\.\d+)?)\**", re.I
)
TOGETHER = re.compile(r"`(\w+)`\s+and\s+`(\w+)`\s+must\s+be\s+given\s+together", re.I)
MEMBER = re.compile(r"\bmust\s+be\s+an?\s+(?:current\s+)?(\w+(?:\s+\w+)?)\s+of\s+the\s+(\w+)", re.I)


def _group(head: str, params: dict[str, Any], required: list[str]) -> list[str]:
    words = [singular(w) for w in split_words(head.lower())]
    for word in words:
        group = [p for p in sorted(params) if p not in required and split_words(p)[:1] == [word]]
        if len(group) >= 2:
            return group
    return []


def _text_field(values: list[str], own: dict[str, Any], records: list[dict[str, Any]]) -> str | None:
    hits = []
    for field, schema in sorted(own.items()):
        held = field_values(schema, records, field)
        if all(v in held for v in values):
            hits.append(field)
    return hits[0] if len(hits) == 1 else None


def _rules(body: str, group: list[str], params: dict[str, Any], own: dict[str, Any], records: list) -> list[dict]:
    when = {"any_given": group}
    out: list[dict[str, Any]] = []
    for p, v in ONLY_WITH.findall(body):
        if p in params and p not in group:
            out.append({"op": "value_is", "source": {"from": "arg", "name": p}, "in": [v], "given": when})
    for listed in ONLY_ON.findall(body):
        values = re.findall(r"`([\w-]+)`", listed)
        field = _text_field(values, own, records)
        if field:
            out.append({"op": "value_is", "source": {"from": "record", "path": [field]}, "in": values, "given": when})
    numbers = [p for p in group if (params[p] or {}).get("type") in ("number", "integer")]
    for low, high in RANGE.findall(body):
        if len(numbers) == 1:
            source = {"from": "arg", "name": numbers[0]}
            out.append(
                {
                    "op": "value_is",
                    "source": source,
                    "above": float(low),
                    "most": float(high.replace(",", "")),
                    "given": when,
                }
            )
    for a, b in TOGETHER.findall(body):
        if a in group and b in group:
            out += [{"op": "given_with", "arg": b, "given": {"any_given": [a]}}]
            out += [{"op": "given_with", "arg": a, "given": {"any_given": [b]}}]
    return out


def _members(params: dict[str, Any], own: dict[str, Any], cols: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for p, schema in sorted(params.items()):
        said = MEMBER.search(str((schema or {}).get("description") or ""))
        via = f"{said.group(2).lower()}_id" if said else None
        target = (own.get(via) or {}).get("x-references") if via else None
        listed = plural("_".join(said.group(1).lower().split())) if said else None  # "berth holder": berth_holders
        if target and isinstance(_props(cols, target).get(listed), dict):
            out.append(
                {
                    "op": "linked_lists_arg",
                    "via": via,
                    "collection": target,
                    "list": listed,
                    "arg": p,
                    "given": {"any_given": [p]},
                }
            )
    return out


def with_given_rules(spec: Any, plan: ToolPlan, state_schema: dict[str, Any], sample: dict[str, Any]) -> ToolPlan:
    """The change's plan with the rules its docs give for optional arguments that go together; unchanged when none."""
    if plan.kind != "recorded_update" or not plan.collection:
        return plan
    cols = state_schema.get("properties") or {}
    own = _props(cols, plan.collection)
    params = spec.parameters.get("properties") or {}
    required = list(spec.parameters.get("required") or [])
    records = sample_records(sample, plan.collection)
    checks: list[dict[str, Any]] = []
    grouped: list[str] = []
    for said in HEADED.finditer(spec.description):
        group = _group(said.group("head"), params, required)
        if group:
            checks += _rules(said.group("body"), group, params, own, records)
            grouped += group
    checks += _members(params, own, cols)
    checks = [c for c in checks if c not in plan.checks]
    if not checks:
        return plan
    effects = [
        e
        for e in plan.effects
        if not (
            own
            and e.get("op") == "set"
            and e.get("field") not in own
            and (e.get("source") or {}).get("name") in grouped
        )
    ]
    evidence = plan.evidence + ["rules for optional arguments given together, read from the docs"]
    return ToolPlan.from_dict(
        {**plan.to_dict(), "checks": plan.checks + checks, "effects": effects, "evidence": evidence}
    )
