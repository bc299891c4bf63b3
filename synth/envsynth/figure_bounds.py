"""A list read's number argument that bounds a figure the records do not store: "min_free_berths: Only piers with at
least this many free berths" keeps the piers whose capacity minus what is taken is at least the argument.

The argument's name without its min_/max_ part (`free_berths`) must be a figure the answer already computes from two
of the record's numbers (an `output_map` calc), or a count of what is left (schema_figures.places_left: the one
capacity-like number minus the one number taken); its description must say "at least" or "at most" (exactly one).
A documented default bounds calls that leave the argument out. When the tool's description names the figure in
words ("with their capacity and free berths") and the answer does not hold it yet, the answer gains it.

The result is a `bound` entry of the plan's `scope_checks` ({"op": "bound", "arg", "cmp", "calc", "default"?}),
which _blocks.j2's scope_holds renders.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.expr_runtime import fg_number as _number
from synth.envsynth.filter_rules import AT_LEAST, AT_MOST
from synth.envsynth.plan import ToolPlan
from synth.envsynth.schema_figures import places_left
from synth.spec import ToolSpec, record_props

BARE = re.compile(r"^(?:min|max|minimum|maximum)_(\w+)$|^(\w+?)_(?:min|max)$")


def _figure(plan: ToolPlan, bare: str, text: str, own: dict[str, Any]) -> dict[str, Any] | None:
    spec = plan.output_map.get(bare)
    if spec is not None:
        if spec.get("op") == "calc" and spec.get("operator") in ("+", "-") and spec.get("floor") is None:
            return spec
        return None
    return places_left(bare, {"description": text}, own)


def figure_bounds(spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any]) -> ToolPlan:
    """The plan bounding its records by the number arguments that name an unstored figure; unchanged otherwise."""
    own = record_props(state_schema.get("properties") or {}, plan.collection or "")
    if plan.kind not in ("filter", "list") or not own or plan.return_key:
        return plan
    taken = set(plan.filter_params) | set(plan.param_map) | {c.get("arg") for c in plan.scope_checks}
    checks, fields, mapped = [], list(plan.output_fields), dict(plan.output_map)
    for name, schema in sorted((spec.parameters.get("properties") or {}).items()):
        m = BARE.match(name)
        if name in taken or not m or not isinstance(schema, dict) or schema.get("type") not in ("integer", "number"):
            continue
        bare, text = m.group(1) or m.group(2), str(schema.get("description") or "")
        cmps = [cmp for cmp, rx in ((">=", AT_LEAST), ("<=", AT_MOST)) if rx.search(text)]
        if bare in own or len(cmps) != 1:
            continue
        calc = _figure(plan, bare, text, own)
        if calc is None:
            continue
        check = {
            "op": "bound",
            "arg": name,
            "cmp": cmps[0],
            "calc": {k: calc[k] for k in ("left", "operator", "right")},
        }
        if _number(schema.get("default")):
            check["default"] = schema["default"]
        checks.append(check)
        words = bare.replace("_", " ")
        if bare not in mapped and re.search(rf"\b{re.escape(words)}\b", spec.description, re.I):
            fields = (fields or list(own)) + [bare]  # "with their capacity and free berths": answered too
            mapped[bare] = {**calc, "floor": None}
    if not checks:
        return plan
    evidence = plan.evidence + [f"bounded by {', '.join(c['arg'] for c in checks)} on a computed figure"]
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "scope_checks": plan.scope_checks + checks,
            "output_fields": fields,
            "output_map": mapped,
            "evidence": evidence,
        }
    )


__all__ = ["figure_bounds"]
