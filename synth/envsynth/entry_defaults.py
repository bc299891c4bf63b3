"""What a new list entry holds for a field its schema requires but nothing sets: neither the call (a parameter it
may leave out counts as not set), nor a copy, lookup or product read from the data, nor the element's id.

A required field that would stay missing breaks the state's schema, and the tool fails every test that adds an
entry. Where the data or the docs tell, the field takes, in this order:
- the element's id, when the plan makes none and every sample entry's value is `<prefix><digits>` (`LN-0004`): the
  next one in that sequence (the plan's `item_key`);
- the business date, for a date field;
- the value the docs give it: a constant of the entry they write out (`{"kind": ..., "status": "requested"}`), or
  "with `status` 'requested'";
- the one value every sample entry holds, when they all agree (at least two entries);
- another argument's value in the case the docs name ("the given `note` (default: the `kind` in title case)"), an
  `entry_cased` effect; else the parameter's documented default, for an entry field the call sets but may leave out;
- null when the schema allows it;
- for the one text field left after these, the value "adds ... as 'requested'" names.
Each becomes an initial value of the entry (`initial_values`, read where the call gives no value). A field none of
these fit stays missing and the tool is not published: a blank ('' or 0) where the real system writes something is a
guess (measured in session 27, it published two more tools of one held-out system and lowered its figures, and
raised another's).
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.business_dates import moment, moment_field
from synth.envsynth.create_rules import _props
from synth.envsynth.data_copies import sample_records
from synth.envsynth.docs_appends import element_rule
from synth.envsynth.docs_entries import _entries
from synth.envsynth.figure_terms import param_default
from synth.envsynth.item_plan import _id_format
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec, schema_types

DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
SET_BY = ("entry_copied", "entry_looked_up", "entry_product")


def _dated(schema: dict[str, Any], values: list[Any]) -> bool:
    """A date field: its schema's format says so, or every sample entry (two at least) holds a `YYYY-MM-DD`."""
    if "date" in str(schema.get("format") or ""):
        return True
    return len(values) >= 2 and all(isinstance(v, str) and DAY.fullmatch(v) for v in values)


LITERAL = re.compile(r"`?(\{[^`{}]{1,400}\})`?")
ELIDED = re.compile(r":\s*(?:\.\.\.|\u2026)")
ADDED_AS = re.compile(  # "Adds a survey to the list, as 'requested'"
    r"\b(?:adds?|appends?|records?|logs?|books?|schedules?|opens?)\b[^.;]{0,160}?\bas\s+['\"`]([\w -]{1,30})['\"`]",
    re.IGNORECASE,
)


def _stated(text: str, field: str, params: dict[str, Any], props: dict[str, Any]) -> str | None:
    """The value the docs give a new entry's text field: a constant of the entry they write out (`{"kind":
    <kind>, "status": "requested"}`) or "with `status` 'requested'"."""
    for body in LITERAL.findall(text):
        rule = element_rule(ELIDED.sub(": null", body), props, params)  # `{"kind": ..., "status": "requested"}`
        source = ((rule or {}).get("fields") or {}).get(field) or {}
        if source.get("from") == "const" and isinstance(source.get("value"), str):
            return source["value"]
    named = re.search(  # "with `status` 'requested'", "status: 'requested'" (not "is": a condition reads so)
        rf"`?\b{re.escape(field)}\b`?\s*(?:of\s+|=\s*|:\s*)?['\"`](\w[\w -]{{0,29}})['\"`]", text
    )
    return named.group(1) if named and named.group(1) != field else None


def entry_defaults(
    spec: ToolSpec,
    plan: ToolPlan,
    state_schema: dict[str, Any],
    sample: dict[str, Any],
    today: str | None,
    clock: str | None = None,
) -> ToolPlan:
    """The list add with initial values for the required entry fields nothing else sets (a date field: `today`; a
    timestamp field: `today` at `clock`, the time the docs' clock stands at, when they state one)."""
    if plan.kind != "item_add" or not plan.fields or not plan.list_field:
        return plan
    own = _props(state_schema.get("properties") or {}, plan.collection or "")
    items = (own.get(plan.list_field) or {}).get("items") or {}
    props = items.get("properties") or {}
    required = [f for f in items.get("required") or [] if f in props]
    params = spec.parameters.get("properties") or {}
    always = set(spec.parameters.get("required") or [])
    set_by = {e.get("field") for e in plan.effects if e.get("op") in SET_BY}
    open_fields = [
        f
        for f in required
        if f != plan.item_key
        and f not in set_by
        and f not in plan.initial_values
        and not (f in plan.fields and f in always)
    ]
    if not open_fields:
        return plan
    entries = _entries(sample_records(sample, plan.collection or ""), plan.list_field)
    item_key, key_format = plan.item_key, dict(plan.key_format)
    initial: dict[str, Any] = {}
    effects: list[dict[str, Any]] = []
    for field in open_fields:
        values = [e.get(field) for e in entries if field in e]
        if (
            field not in params
            and item_key is None
            and len(values) >= 2
            and (found := _id_format(values, props[field]))
        ):
            item_key, key_format = field, found
        elif _dated(props[field], values) and today and field not in params:
            initial[field] = moment(today, clock, props[field]) if clock and moment_field(props[field]) else today
        elif field not in params and (said := _stated(spec.description or "", field, params, props)):
            initial[field] = said
        elif field not in params and len(values) >= 2 and all(v == values[0] for v in values):
            initial[field] = values[0]
        elif field in params and (cased := _cased(spec.description or "", field, params)):
            effects.append(cased)
        elif field in params and param_default(params[field]) is not None:
            initial[field] = param_default(params[field])
        elif "null" in schema_types(props[field]):
            initial[field] = None

    left = [  # "adds ... as 'requested'": the one text field nothing else fills
        f
        for f in open_fields
        if f not in initial and f != item_key and f not in params and "string" in schema_types(props[f])
    ]
    added_as = ADDED_AS.search(spec.description or "")
    if added_as and len(left) == 1:
        initial[left[0]] = added_as.group(1)
    fields = list(plan.fields) + [f for f in initial if f not in plan.fields]
    if not initial and not effects and item_key == plan.item_key:
        return plan
    named = sorted(initial) + [e["field"] for e in effects]
    evidence = plan.evidence + ["required entry fields nothing sets: " + ", ".join(named or [item_key or ""])]
    return ToolPlan.from_dict(
        {
            **plan.to_dict(),
            "fields": fields,
            "initial_values": {**plan.initial_values, **initial},
            "effects": list(plan.effects) + effects,
            "item_key": item_key,
            "key_format": key_format,
            "evidence": evidence,
        }
    )


def _cased(text: str, field: str, params: dict[str, Any]) -> dict[str, Any] | None:
    """An `entry_cased` effect for "the given `note` (default: the `kind` in title case, e.g. `Minibar`)": left out,
    the field is the other argument's value in that case."""
    m = re.search(
        rf"`?\b{re.escape(field)}\b`?\s*\(\s*default(?:s\s+to|:)\s*(?:the\s+)?`?(\w+)`?\s+in\s+(title|lower|upper)\s*case",
        text,
        re.I,
    )
    if m is None or m.group(1) not in params or m.group(1) == field:
        return None
    return {"op": "entry_cased", "field": field, "arg": m.group(1), "case": m.group(2).lower()}


__all__ = ["entry_defaults"]
