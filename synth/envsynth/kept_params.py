"""Where a state change keeps the parameters it is called with (docs_transition): a parameter that names a field of
the record sets it; another goes to the field the data shows the new state filling (the one text field, or the
number field sharing a word with it: stated_fields), else to a field of the action's own (`reason` of cancel ->
`cancel_reason`), unless its own description keeps it in a list of the record ("kept in the history"). A
parameter the docs already place (in a written object or placeholder, a stated field, a check) is not kept again,
unless the docs say the call sets it; a yes/no switch is a condition of the call."""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.plan import ToolPlan
from synth.envsynth.stated_fields import read_args, stamped_numbers, stamped_text
from synth.spec import ToolSpec
from synth.words import plural, split_words


def said_set(field: str, text: str) -> bool:
    """The docs say the call sets this field itself ("pilot_id is set"), besides logging the argument."""
    name = rf"`?{re.escape(field)}`?"
    return bool(
        re.search(rf"\b{name}\s+(?:is|are)\s+(?:set|updated|stored|recorded)\b|\bsets?\s+(?:the\s+)?{name}", text)
    )


def action_field(verb: str, param: str) -> str:
    """The record field an action keeps a parameter in: `<verb>_<param>`, id lists by their plural noun
    (`item_ids` -> `return_items`)."""
    if param.endswith("_ids"):
        return f"{verb}_{plural(param[:-4])}"
    return f"{verb}_{param}"


def _kept_in_list(description: str, props: dict[str, Any]) -> bool:
    """The parameter's own words place it in a list field of the record ("kept in the history", "added to the
    log")."""
    lists = [f for f, sch in props.items() if isinstance(sch, dict) and sch.get("type") == "array"]
    return any(
        re.search(
            rf"(?<!\bnot\s)\b(?:kept|recorded|stored|logged|noted|added|written)\s+(?:in|to|into|on)\s+"
            rf"(?:the\s+|its\s+)?"
            rf"{re.escape(f.replace('_', ' '))}\b",
            description,
            re.I,
        )
        for f in lists
    )


def kept_params(
    spec: ToolSpec,
    plan: ToolPlan,
    props: dict[str, Any],
    records: list[dict[str, Any]],
    sets: dict[str, Any],
    allowed: dict[str, list[Any]],
    stated: list[dict[str, Any]],
    used: set[str],
    text: str,
    effects: list[dict[str, Any]],
) -> list[dict[str, Any]]:
    """`set` effects keeping the call's parameters (`effects`: what the change already writes)."""
    params = spec.parameters.get("properties") or {}
    required = spec.parameters.get("required") or []
    taken = {e.get("field") for e in effects}
    verb = (split_words(spec.name) or [""])[0].lower()
    kept_in = stamped_text(props, list(records), sets, allowed, taken)
    readings = stamped_numbers(props, list(records), sets, allowed, params, taken)
    out: list[dict[str, Any]] = []
    close = set((kept_in or "").split("_"))  # the parameter named like the text field the new state fills goes first
    for name in sorted(params, key=lambda p: (not close & set(p.split("_")), p)):
        if name in read_args(stated):  # the docs said which field it goes to
            continue
        if name == plan.key_param or name in sets or (name in used and not said_set(name, text)):
            continue
        if name in props:  # a parameter that names a record field sets it, as in a plain update (entries too)
            kept = {"op": "set", "field": name, "source": {"from": "arg", "name": name}}
        elif _kept_in_list(str((params.get(name) or {}).get("description") or ""), props):
            continue  # "A note, kept in the history": an entry of that list, no field of its own
        elif verb and (params.get(name) or {}).get("type") != "boolean":
            # else the action records what it was called with: `reason` of cancel -> cancel_reason (a yes/no switch
            # such as `id_verified` or `notify` is a condition of the call, not something it keeps)
            field = kept_in if kept_in and (params.get(name) or {}).get("type") in (None, "string") else None
            field = readings.get(name) or field  # `mileage_km` -> the `mileage_in` the new state fills
            kept = {"op": "set", "field": field or action_field(verb, name), "source": {"from": "arg", "name": name}}
            kept_in = None if field else kept_in  # the one text field the data shows the new state filling
        else:
            continue
        if name not in required:  # left out, the field stays as it is (a field of its own only when given)
            kept["if_given"] = True
        out.append(kept)
    return out


__all__ = ["action_field", "kept_params", "said_set"]
