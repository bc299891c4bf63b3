"""What the docs say about a filter's parameters beyond "equals a field": its documented default applies when the
call leaves it out ("status: 'active' (default)"), an enum value the records never hold keeps every record
('all'), and a parameter naming another collection's record is refused when no such record exists, if the docs
list a not-found error."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from synth.words import plural

NOT_FOUND = re.compile(r"\b(not found|does not exist|no such)\b", re.IGNORECASE)


def refine_filter(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The filter plan with defaults, wildcards and reference checks the docs give (unchanged when none)."""
    if plan.kind != "filter" or not plan.collection:
        return plan
    props = spec.parameters.get("properties") or {}
    cols = state_schema.get("properties") or {}
    record = ((cols.get(plan.collection) or {}).get("additionalProperties") or {}).get("properties") or {}
    defaults, wildcards, refs = {}, {}, {}
    for name in plan.filter_params:
        schema = props.get(name) or {}
        known = (record.get(name) or {}).get("enum") or (record.get(name) or {}).get("x-enum")
        if "default" in schema and schema["default"] is not None:
            defaults[name] = schema["default"]
        if known and isinstance(schema.get("enum"), list):
            extra = [v for v in schema["enum"] if v not in known]
            if extra and len(extra) < len(schema["enum"]):
                wildcards[name] = extra
        if name.endswith("_id") and plural(name[:-3]) in cols and plural(name[:-3]) != plan.collection:
            if NOT_FOUND.search(spec.description):
                refs[name] = plural(name[:-3])
    if not (defaults or wildcards or refs):
        return plan
    return ToolPlan.from_dict(
        {**plan.to_dict(), "filter_defaults": defaults, "wildcards": wildcards, "ref_checks": refs}
    )


__all__ = ["refine_filter"]
