"""A yes/no the docs define by the record's state and a date of it that has passed: "`true`: only berths in `let` or
`held` whose `lease_end` has passed; `false`: all others". The same words serve a list's filter flag of that name
(true keeps those records; false, when the docs say so, the others) and the answer field of that name in the rows
the docs show.

The states are known values of one text field of the record (or a group the docs define, one_per.worded_states);
the date is a field of it, compared with the business date, or with the business date at the business time when
the field holds times too. Each condition is {"field", "in"} or {"before", "value"} (filter.py.j2 `fl_holds`;
shape_code's `passed` op).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.business_dates import moment, moment_field
from synth.envsynth.flag_rules import FALSE_SIDE, NEGATION
from synth.envsynth.made_dates import date_field
from synth.envsynth.one_per import worded_states
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, record_props

PASSED = re.compile(
    r"\b(?:in|with\s+status)\s+(?P<states>(?:`[\w-]+`\s*(?:,\s*(?:or\s+)?|\s+or\s+|\s+and\s+)?)+)\s*"
    r"whose\s+`?(?P<date>\w+)`?\s+(?:has\s+(?:already\s+)?passed|is\s+(?:already\s+)?past|is\s+in\s+the\s+past"
    r"|is\s+(?:earlier\s+than|before)\s+(?:today|now))",
    re.I,
)
OTHERS = re.compile(r"\ball\s+(?:the\s+)?others\b", re.I)


def passed_conditions(
    text: str, props: dict[str, Any], today: str | None, clock: str | None, docs: str = ""
) -> list[dict[str, Any]] | None:
    """The conditions of a flag the text defines by states and a passed date, or None."""
    found = PASSED.search(text)
    if not found or not today:
        return None
    states = worded_states(found.group("states"), props, docs)
    date = found.group("date")
    schema = props.get(date)
    if not states or len(states) != 1 or not (date_field(schema) or moment_field(schema)):
        return None
    timed = bool(clock) and moment_field(schema)
    now = moment(today, str(clock), schema) if timed else today
    ((field, values),) = states.items()
    return [{"field": field, "in": list(values)}, {"before": date, "value": now, "cut": 0 if timed else 10}]


def passed_params(
    spec: ToolSpec, props: dict[str, Any], today: str | None, clock: str | None, docs: str = ""
) -> dict[str, list[dict[str, Any]]]:
    """{parameter: conditions} of the boolean parameters (no field of the records) the docs define so."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, schema in sorted((spec.parameters.get("properties") or {}).items()):
        if isinstance(schema, dict) and schema.get("type") == "boolean" and name not in props:
            found = passed_conditions(str(schema.get("description") or ""), props, today, clock, docs)
            if found:
                out[name] = found
    return out


def passed_flags(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], today: str | None, clock: str | None, docs: str = ""
) -> ToolPlan:
    """The list plan with each boolean parameter the docs define so filtering its records; unchanged when there is
    none."""
    if plan.kind not in ("filter", "list") or not plan.collection:
        return plan
    props = record_props(state_schema.get("properties") or {}, plan.collection)
    params = spec.parameters.get("properties") or {}
    flags = passed_params(spec, props, today, clock, docs)
    inverse = []
    for name in flags:
        side = FALSE_SIDE.search(str(params[name].get("description") or ""))
        if side and (NEGATION.search(side.group("rest")) or OTHERS.search(side.group("rest"))):
            inverse.append(name)
    if not flags or any(f in plan.flag_filters for f in flags):
        return plan
    changes = {
        "kind": "filter",
        "flag_filters": {**plan.flag_filters, **flags},
        "flag_inverse": plan.flag_inverse + inverse,
        "evidence": plan.evidence + [f"`{f}`: records in the states it names whose date has passed" for f in flags],
    }
    return ToolPlan.from_dict({**plan.to_dict(), **changes})


__all__ = ["passed_conditions", "passed_flags", "passed_params"]
