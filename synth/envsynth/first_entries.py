"""The first entry a create writes into a list of the new record, from its documented example: "a new survey with
status `open`, `opened_on` = business date, and a first notes entry", whose response example shows `notes` holding
one entry `{"date": <its opened_on>, "status": <its status>, "note": "Survey opened"}`.

Each value of the example's entry that equals another field of the example record takes what the new record gets
there (a constant the plan sets: the business date, the first status); any other value is the entry's own constant
("Survey opened"). An entry value copied from a field the plan does not set as a constant (a value of the call's
arguments) is no constant, so no entry is read then.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, list_by_words

FIRST = re.compile(r"\b(?:a|an|one)\s+(?:first|initial|opening)\s+`?(?P<words>[a-z][\w ]{0,30}?)`?\s+entry\b", re.I)


def first_entries(spec: ToolSpec, plan: ToolPlan, own: dict[str, Any]) -> ToolPlan:
    """The create's plan with each first entry its docs say it writes, as its example shows it."""
    example = (spec.returns or {}).get("example") if isinstance(spec.returns, dict) else None
    if plan.kind != "create" or not isinstance(example, dict):
        return plan
    initial = dict(plan.initial_values)
    for m in FIRST.finditer(spec.description):
        if re.search(r"\b(?:without|no|never|not)\b[^.;]{0,30}$", spec.description[: m.start()], re.I):
            continue  # "opened without a first notes entry"
        field = list_by_words(m.group("words"), own)
        shown = example.get(field) if field else None
        if field in initial or not (isinstance(shown, list) and len(shown) == 1 and isinstance(shown[0], dict)):
            continue
        entry: dict[str, Any] = {}
        for key, value in shown[0].items():
            same = [f for f, v in example.items() if f != field and v == value and not isinstance(v, (dict, list))]
            if same and same[0] not in initial:
                break  # a value of the call's own: no constant entry
            entry[key] = initial[same[0]] if same else value
        else:
            initial[field] = [entry]
    if initial == plan.initial_values:
        return plan
    evidence = plan.evidence + ["a first list entry as the docs' example shows it"]
    return ToolPlan.from_dict({**plan.to_dict(), "initial_values": initial, "evidence": evidence})


__all__ = ["first_entries"]
