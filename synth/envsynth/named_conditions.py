"""What a record a parameter names must be, read from the parameter's description ("Optional promo code: must
exist, be active, have uses left (uses < max_uses) and be either for all events (event_id null) or for this event"),
or from the description of the same parameter on the tool it points to ("it must be usable for this event (see
createOrder)"). Each clause of the "must ..." list is a condition on the named record that a quote checks before it
prices (code_templates/_blocks.j2 `figures`):
- "be <word>" where the record has a yes/no field of that name: the field is true (`flag`);
- "(<a> < <b>)" (or <=) between two of its numbers (`less`);
- "(<field> null) or for this <noun>": the field is empty or is the call's `<noun>_id` (`empty_or_arg`).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.create_rules import _props
from synth.envsynth.docs_appends import is_number
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec

MUST = re.compile(r"\bmust\s+(.+?)(?:\.\s|\.$|$)", re.I | re.S)
SEE = re.compile(r"\(\s*see\s+`?([\w.-]+)`?\s*\)", re.I)
BE_WORD = re.compile(r"^(?:and\s+|or\s+)?be\s+([a-z]\w*)$", re.I)
LESS = re.compile(r"\(\s*`?(\w+)`?\s*(<=?)\s*`?(\w+)`?\s*\)")
EMPTY_OR = re.compile(r"\(\s*`?(\w+)`?\s+(?:is\s+)?null\s*\)\s*or\s+for\s+this\s+(\w+)", re.I)
CLAUSES = re.compile(r",\s*(?:and\s+)?|\s+and\s+(?=(?:be|have|has|not)\b)", re.I)


def _described(spec: ToolSpec, param: str, specs: list[ToolSpec]) -> str:
    """The parameter's description, and that of the same parameter on the tool a "(see <tool>)" names."""
    said = str(((spec.parameters.get("properties") or {}).get(param) or {}).get("description") or "")
    by_name = {s.name: s for s in specs}
    for name in SEE.findall(said):
        other = by_name.get(name)
        if other is not None and other.name != spec.name:
            said += " " + str(((other.parameters.get("properties") or {}).get(param) or {}).get("description") or "")
    return said


def conditions(said: str, theirs: dict[str, Any], params: dict[str, Any]) -> list[dict[str, Any]]:
    """The conditions a "must ..." list puts on a named record with fields `theirs`."""
    out: list[dict[str, Any]] = []
    for m in MUST.finditer(said):
        body = m.group(1)
        for found in LESS.finditer(body):
            a, op, b = found.groups()
            if is_number(theirs.get(a)) and is_number(theirs.get(b)):
                out.append({"op": "less", "a": a, "b": b, "or_equal": op == "<="})
        for found in EMPTY_OR.finditer(body):
            field, noun = found.group(1), found.group(2).lower().rstrip("s")
            if field in theirs and f"{noun}_id" in params:
                out.append({"op": "empty_or_arg", "field": field, "arg": f"{noun}_id"})
        for clause in CLAUSES.split(re.sub(r"\([^()]*\)", "", body)):
            word = BE_WORD.match(clause.strip())
            if word and (theirs.get(word.group(1)) or {}).get("type") == "boolean":
                out.append({"op": "flag", "field": word.group(1)})
    return out


def with_named_conditions(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], specs: list[ToolSpec]
) -> ToolPlan:
    """The plan whose quote names records with the conditions its parameters' descriptions put on them."""
    named = (plan.quote or {}).get("named") or {}
    if not named:
        return plan
    cols = state_schema.get("properties") or {}
    params = spec.parameters.get("properties") or {}
    found = {}
    for param, col in sorted(named.items()):
        checks = conditions(_described(spec, param, specs), _props(cols, col), params) if param in params else []
        if checks:
            found[param] = checks
    if not found:
        return plan
    quote = {**plan.quote, "named_checks": found}
    evidence = plan.evidence + ["conditions on named records: " + ", ".join(sorted(found))]
    return ToolPlan.from_dict({**plan.to_dict(), "quote": quote, "evidence": evidence})


__all__ = ["conditions", "with_named_conditions"]
