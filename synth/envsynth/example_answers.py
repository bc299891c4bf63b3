"""What a keyed write answers, read off the example response its docs show, when that answer is not the record:
'**Response 200** `{"buoy_id": "B-7", "previous_depth": 41, "depth": 44, "change": 3, "date": "2026-04-14", "by":
"harbour"}`' beside a call that logs a sounding.

The example's record is the one of the sample data whose key the example holds. Each key of the example is read as
- the record's own field, as the call leaves it (a key the record has);
- the record's key (the value is that key);
- the argument of the same name (with its documented default);
- a field of the record as the call found it: the one whose sample value is the example's, or else the one whose
  name is the key's with "previous" / "prior" / "last" taken as one word (`previous_depth` <- `last_depth`);
- a stored list the example answers as a whole number: its length (`crew`: 4);
- a key of one of the record's objects holding the example's value, named as the key or one of its words
  (`balance_due` <- `charges.due`);
- the business date (the value is it);
- for a call that adds an entry to one of the record's lists, the singular of that list's name: the entry added;
- the difference or sum of two other numbers of the example (`change` = `depth` - `previous_depth`).
A key none of these reads leaves the answer as it was (the record).
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.figure_terms import alike, param_default
from synth.envsynth.plan import ToolPlan
from synth.spec import ToolSpec
from synth.spec import record_props as _props
from synth.words import singular

BEFORE_WORDS = ("previous_", "prior_", "old_")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _before_field(name: str, value: Any, before: dict[str, Any] | None, own: dict[str, Any]) -> str | None:
    """The record's field the key gives as the call found it, or None."""
    same = [f for f, v in sorted((before or {}).items()) if type(v) is type(value) and v == value and f != name]
    if len(same) == 1 and (name.startswith(BEFORE_WORDS) or alike(name, same[0])):
        return same[0]
    named = [f for f in sorted(own) if alike(name, f)]
    return named[0] if len(named) == 1 and name.startswith(BEFORE_WORDS) else None


def _counted(schema: Any, value: Any) -> bool:
    """A stored list the example answers as a whole number: how many entries it holds."""
    return (
        isinstance(schema, dict)
        and schema.get("type") == "array"
        and isinstance(value, int)
        and not isinstance(value, bool)
    )


def _held_inside(name: str, value: Any, before: dict[str, Any] | None) -> list[str] | None:
    """[object field, key]: the one key of one of the record's objects that holds the example's value and is the
    name or one of its words (`balance_due` <- `charges.due`), or None."""
    words = set(name.split("_"))
    found = [
        [field, key]
        for field, held in sorted((before or {}).items())
        if isinstance(held, dict)
        for key, v in sorted(held.items())
        if (key == name or key in words) and type(v) is type(value) and v == value
    ]
    return found[0] if len(found) == 1 else None


def _combined(name: str, example: dict[str, Any], known: list[str]) -> dict[str, Any] | None:
    """`answer_calc` when the example's number is the difference or sum of two other numbers it holds."""
    value = example[name]
    if not _number(value):
        return None  # a text, a list or null: no difference or sum of two numbers
    numbers = [k for k in known if _number(example[k])]
    found = []
    for left in numbers:
        for right in numbers:
            if left == right:
                continue
            if abs(example[left] - example[right] - value) < 1e-9:
                found.append({"op": "answer_calc", "left": left, "operator": "-", "right": right})
            if left < right and abs(example[left] + example[right] - value) < 1e-9:
                found.append({"op": "answer_calc", "left": left, "operator": "+", "right": right})
    return found[0] if len(found) == 1 else None


def example_answer(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], sample: dict[str, Any], today: str | None
) -> ToolPlan:
    """The write's plan answering the example response's keys (`output_fields` / `output_map`); the plan
    unchanged when the example is the record's own shape or a key cannot be read."""
    example = (spec.returns or {}).get("example") if isinstance(spec.returns, dict) else None
    if plan.kind not in ("recorded_update", "item_add") or plan.output_fields or plan.output_key or not plan.key_param:
        return plan
    own = _props(state_schema.get("properties") or {}, plan.collection or "")
    if not isinstance(example, dict) or len(example) < 2 or not own:
        return plan
    if set(example) <= set(own) and not any(_counted(own[k], v) for k, v in example.items()):
        return plan  # the record's own shape
    params = spec.parameters.get("properties") or {}
    records = sample.get(plan.collection or "") if isinstance(sample.get(plan.collection or ""), dict) else {}
    keys = [v for v in example.values() if isinstance(v, str) and v in records]
    before = records.get(keys[0]) if len(set(keys)) == 1 else None
    mapped: dict[str, dict[str, Any]] = {}
    left: list[str] = []
    for name, value in example.items():
        if name in own and _counted(own[name], value):
            mapped[name] = {"op": "len", "path": [name]}  # "crew": 4 of a stored list: its length
            continue
        if name in own:
            continue  # the record's field as the call leaves it
        if plan.kind == "item_add" and isinstance(value, dict) and name == singular(plan.list_field or ""):
            mapped[name] = {"op": "last_entry", "path": [plan.list_field]}  # "crewman": the entry it added
        elif keys and value == keys[0]:
            mapped[name] = {"op": "arg", "name": plan.key_param}
        elif name in params:
            mapped[name] = {"op": "arg", "name": name}
            default = param_default(params[name] or {})
            mapped[name].update({"default": default} if default is not None else {})
        elif field := _before_field(name, value, before if isinstance(before, dict) else None, own):
            mapped[name] = {"op": "before", "path": [field]}
        elif held := _held_inside(name, value, before if isinstance(before, dict) else None):
            mapped[name] = {"op": "nested", "path": held}
        elif today and value == today:
            mapped[name] = {"op": "const", "value": today}
        else:
            left.append(name)
    for name in left:
        rule = _combined(name, example, [k for k in example if k not in left])
        if rule is None:
            return plan
        mapped[name] = rule
    fields = [k for k in example if k not in left] + left  # a combination after the numbers it combines
    evidence = plan.evidence + ["answers as the example response shows: " + ", ".join(sorted(mapped))]
    return ToolPlan.from_dict({**plan.to_dict(), "output_fields": fields, "output_map": mapped, "evidence": evidence})


__all__ = ["example_answer"]
