"""Records a read of one record answers inside it, read off the example answer its docs show: a skipper's answer
that carries `"harbour": {"harbour_id": "H-2", "name": ..., "berths_free": 4}` and `"open_tows": [{"tow_id": ...,
"boat_name": ..., "days_late": 2}]`.

Each key of the example that is no field of the record is read as
- an object: the one record a field of the record names (`harbour` <- its `harbour_id`, referencing harbours), cut
  to the example's keys;
- a list of objects: the records of a collection (`tows`, the key's last word) whose one reference names the
  record, in the states the key's first words name (`open`: a known value of one of their text fields, or a group
  of states the docs define: "Tows in `requested` or `under_way` are *open*"), by key, cut to the keys the example's
  entries show.
An embedded key that is no field of its record is read as
- `<noun>_<field>`: that field of the record its `<noun>_id` names (`boat_name`);
- a figure the docs write as "(`a` minus `b`)" near its words: that difference of two numbers (`berths_free`);
- `days_<word>` (or `<word>_days`): whole days from a date field of the record (the one whose name's first word is
  in the word, else the one date it ends on: `due_on`, `valid_until`) to the business date (`late`, `overdue`,
  `past`), or from the business date to it (`left`, `until`), never below 0.
A key none of these reads, or an example key that is neither a field nor an object or list, leaves the plan as it
was. Each becomes an `output_map` entry {"op": "embed_one" | "embed_rows", ...} rendered with embed_runtime.py.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.filter_map import referenced_collection
from synth.envsynth.keyed_views import key_names
from synth.envsynth.made_dates import date_field
from synth.envsynth.one_per import worded_states
from synth.envsynth.plan import ToolPlan
from synth.envsynth.schema_figures import ENDING
from synth.spec import ToolSpec, record_props
from synth.words import singular

BACK = {"late", "overdue", "past"}  # days since a date it was due by
AHEAD = {"left", "until", "remaining", "to", "ahead"}
MINUS = r"`?(\w+)`?\s*(?:minus|less|−|-)\s*`?(\w+)`?"


def _number(schema: Any) -> bool:
    types = schema.get("type") if isinstance(schema, dict) else None
    types = types if isinstance(types, list) else [types]
    return bool({"integer", "number"} & set(types))


def _figure(name: str, props: dict[str, Any], docs: str) -> dict[str, str] | None:
    """{"left", "right"} of "(`a` minus `b`)" written within a few words after the key's words."""
    words = [w for w in name.lower().split("_") if w]
    for m in re.finditer(rf"\(\s*{MINUS}\s*\)", docs):
        left, right = m.group(1), m.group(2)
        before = docs[max(0, m.start() - 80) : m.start()].lower()
        if left in props and right in props and _number(props[left]) and _number(props[right]):
            if all(re.search(rf"\b{re.escape(singular(w))}", before) for w in words):
                return {"left": left, "right": right}
    return None


def _days(name: str, props: dict[str, Any], today: str | None) -> dict[str, Any] | None:
    """{"date", "sign"} of a `days_<word>` count, or None."""
    words = name.lower().split("_")
    if not today or len(words) != 2 or "days" not in words:
        return None
    word = words[1] if words[0] == "days" else words[0]
    sign = 1 if word in BACK else -1 if word in AHEAD else 0
    dated = [f for f, s in sorted(props.items()) if date_field(s) and len(f.split("_")[0]) >= 3]
    found = [f for f in dated if f.split("_")[0] in word]  # `due_on` of "overdue"
    found = found if len(found) == 1 else [f for f in dated if ENDING.search(f.lower())]  # else the one it ends on
    return {"date": found[0], "sign": sign} if sign and len(found) == 1 else None


def _cut(keys: list[str], coll: str, cols: dict[str, Any], docs: str, today: str | None) -> dict[str, Any] | None:
    """The cut of one of `coll`'s records to the example's keys, or None when one cannot be read."""
    props = record_props(cols, coll)
    rule: dict[str, Any] = {"fields": list(keys), "linked": {}, "calc": {}, "days": {}}
    for key in keys:
        if key in props:
            continue
        if key in key_names(coll, {"properties": cols}):
            rule["key_name"] = key
            continue
        noun, _, field = key.partition("_")
        via = f"{noun}_id"
        other = referenced_collection(via, props.get(via), coll, cols) if via in props else None
        if other and field in record_props(cols, other):
            rule["linked"][key] = {"via": via, "collection": other, "field": field}
        elif figure := _figure(key, props, docs):
            rule["calc"][key] = figure
        elif days := _days(key, props, today):
            rule["days"][key] = days
        else:
            return None
    return rule


def _one(
    key: str, value: dict[str, Any], own: dict[str, Any], coll: str, cols: dict[str, Any], docs: str, today: str | None
) -> dict[str, Any] | None:
    """An `embed_one` entry for an object the record's one reference names, or None."""
    targets = [c for c in cols if c != coll and singular(c) == key.lower()]
    if len(targets) != 1:
        return None
    vias = [f for f, s in sorted(own.items()) if referenced_collection(f, s, coll, cols) == targets[0]]
    rule = _cut(list(value), targets[0], cols, docs, today) if len(vias) == 1 else None
    return {"op": "embed_one", "collection": targets[0], "via": vias[0], **rule} if rule else None


def _rows(
    key: str, rows: list[Any], coll: str, cols: dict[str, Any], docs: str, today: str | None
) -> dict[str, Any] | None:
    """An `embed_rows` entry for a list of the records that name the record, or None."""
    words = key.lower().split("_")
    if not rows or not all(isinstance(r, dict) for r in rows) or words[-1] not in cols or words[-1] == coll:
        return None
    other = words[-1]
    props = record_props(cols, other)
    refs = [f for f, s in sorted(props.items()) if referenced_collection(f, s, other, cols) == coll]
    where = worded_states(" ".join(words[:-1]), props, docs) if len(words) > 1 else {}
    keys = list(dict.fromkeys(k for r in rows for k in r))
    rule = _cut(keys, other, cols, docs, today) if len(refs) == 1 and where is not None else None
    return {"op": "embed_rows", "collection": other, "ref": refs[0], "where": where, **rule} if rule else None


def example_embeds(
    spec: ToolSpec, plan: ToolPlan, state_schema: dict[str, Any], docs: str, today: str | None
) -> ToolPlan:
    """The read's plan answering the records its example embeds (`output_fields` / `output_map`); the plan
    unchanged when the example embeds none or one of its keys cannot be read."""
    example = (spec.returns or {}).get("example") if isinstance(spec.returns, dict) else None
    if plan.kind != "get" or plan.output_fields or plan.output_key or plan.embeds or not isinstance(example, dict):
        return plan
    cols = state_schema.get("properties") or {}
    coll = plan.collection or ""
    own = record_props(cols, coll)
    extra = [k for k in example if k not in own and k not in key_names(coll, state_schema)]
    if not own or not extra:
        return plan
    mapped: dict[str, dict[str, Any]] = {}
    for key in extra:
        value = example[key]
        if isinstance(value, dict):
            rule = _one(key, value, own, coll, cols, docs, today)
        elif isinstance(value, list):
            rule = _rows(key, value, coll, cols, docs, today)
        else:
            rule = None
        if rule is None:
            return plan
        mapped[key] = {**rule, "today": today}
    for key in example:
        if key not in own and key in key_names(coll, state_schema):
            mapped.setdefault(key, {"op": "map_key", "collection": coll})  # the key it is kept under
    evidence = plan.evidence + ["embeds as the example answer shows: " + ", ".join(sorted(mapped))]
    fields = [k for k in example if k in own or k in mapped or k in key_names(coll, state_schema)]
    return ToolPlan.from_dict({**plan.to_dict(), "output_fields": fields, "output_map": mapped, "evidence": evidence})


__all__ = ["example_embeds"]
