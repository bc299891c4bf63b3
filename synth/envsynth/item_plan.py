"""Edits of one value in a record's list field: `addVoyageStop(voyage_id, stop_code)`.

A write whose name holds a noun that is an array field of some collection, or its first word (`stops` of
voyages, `waiting_list` of berths), with a parameter that names the record (its key field, or `<resource>_id`)
and exactly one other parameter, a scalar whose name shares a word with that field (`service_code`) or any scalar
when the list holds scalars (`sailor_id` into a waiting list), adds that value to the record's list (item_add) or
removes it (item_remove, when the docs' verb deletes, or a verb that adds nothing comes with "takes it off the
<list>"). On a list of objects, a remove takes the element an id parameter names (`remove_cargo_item(voyage_id,
item_id)`), and an add whose other parameters are all fields of the elements appends one built from them, with
the following id in the list's format (`CI-5` after `CI-4`); a parameter left out gives its default. A removal
may also take an optional whole-number field of the element (`quantity`): that many units come off it. Both answer
the updated record.
"""

from __future__ import annotations

import re
from typing import Any

from synth.envsynth.collections import CollectionDraft
from synth.envsynth.figure_terms import param_default
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.priors import ToolPriors
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

ADD_WORDS = ("add", "append", "attach", "enlist", "enroll", "join", "register", "sign", "subscribe", "include")
ADDING = re.compile(r"\W*(adds?|appends?|attach(?:es)?|enlists?|enrolls?|joins?|registers?|signs?|puts?)\b", re.I)
REMOVING = (
    "remove",
    "cancel",
    "drop",
    "withdraw",
    "detach",
    "unassign",
    "unlink",
    "leave",
    "release",
    "revoke",
    "lift",
)
TAKES_OFF = re.compile(  # "...: takes it off the <list>", "Removes a charge from the <list> of ..."
    r"\b(?:removes?|takes?|deletes?)\s+(?:it|them|(?:the|an?|one)\s+[\w ]{1,30}?)\s+(?:from|off|out\s+of)\s+"
    r"(?:the|its|their)\b",
    re.I,
)


def _record_param(props: dict[str, Any], col: CollectionDraft) -> str | None:
    for cand in (col.key_field, f"{col.resource}_id", f"{col.resource}Id"):
        if cand and cand in props and (props[cand] or {}).get("type") in ("string", "integer"):
            return cand
    return None


def _id_format(values: list[Any], schema: dict[str, Any]) -> dict[str, Any]:
    """{prefix, digits} of ids like `CI-4` or `MR-00050`, when every known one has the prefix: digits when the
    numbers are zero-padded to one width (in the known ids or in the field's pattern)."""
    found = [m for v in values if isinstance(v, str) and (m := re.fullmatch(r"(\D*)(\d+)", v))]
    prefixes = {m.group(1) for m in found}
    if len(prefixes) != 1 or len(found) != len(values):
        return {}
    out: dict[str, Any] = {"prefix": prefixes.pop()}
    widths = {len(m.group(2)) for m in found}
    padded = re.search(r"\[0-9\]\{(\d+)\}\$?$", str(schema.get("pattern") or ""))
    if len(widths) == 1 and any(m.group(2).startswith("0") for m in found):
        out["digits"] = widths.pop()
    elif padded:
        out["digits"] = int(padded.group(1))
    return out


def _object_edit(
    spec: ToolSpec, pri: ToolPriors, col: CollectionDraft, fname: str, key: str, others: list[str], removes: bool
) -> ToolPlan | None:
    """An edit of a list of objects: remove the element an id parameter names, or add one built from the
    parameters (every one a field of the elements) with the following id in the list's format."""
    props = spec.parameters.get("properties") or {}
    item_props = ((col.fields[fname].get("items") or {}).get("properties")) or {}
    base = dict(collection=col.name, key_field=col.key_field, key_param=key, list_field=fname, votes={})
    units = _units_param(spec, others, item_props) if removes and len(others) == 2 else None
    if removes and (len(others) == 1 or units) and others[0] in item_props:
        named = next(p for p in others if p != units)
        return ToolPlan(
            kind="item_remove",
            op_param=named,
            item_key=named,
            count_field=units,
            evidence=list(pri.evidence)
            + [f"`{named}` names an element of {col.name}.{fname}"]
            + ([f"`{units}` takes that many units off it, all when left out"] if units else []),
            **base,
        )
    if removes or not others or not set(others) <= set(item_props):
        return None
    ids = [f for f in item_props if f not in others and (f == "id" or f.endswith("_id"))]
    item_key, key_format = None, {}
    if len(ids) == 1:
        item_key = ids[0]
        known = item_props[item_key].get("x-enum") or item_props[item_key].get("examples") or []
        key_format = _id_format(list(known), item_props[item_key])
    if any((props[p] or {}).get("type") in ("array", "object") for p in others):
        return None
    defaults = {p: found for p in others if (found := param_default(props[p] or {})) is not None}
    return ToolPlan(
        kind="item_add",
        fields=list(others),
        item_key=item_key,
        key_format=key_format,
        initial_values=defaults,  # a field whose parameter is left out takes the parameter's default
        evidence=list(pri.evidence) + [f"the parameters are the fields of a new element of {col.name}.{fname}"],
        **base,
    )


def _units_param(spec: ToolSpec, others: list[str], item_props: dict[str, Any]) -> str | None:
    """The optional whole-number parameter of a removal that is also a field of the elements (`quantity`), when
    the other parameter names the element: that many units come off the element, the whole element when left
    out or when none are left."""
    props = spec.parameters.get("properties") or {}
    required = set(spec.parameters.get("required") or [])
    numbers = [
        p
        for p in others
        if p not in required
        and (props.get(p) or {}).get("type") == "integer"
        and (item_props.get(p) or {}).get("type") in ("integer", "number")
    ]
    named = [p for p in others if p not in numbers and p in item_props]
    return numbers[0] if len(numbers) == 1 and len(named) == 1 else None


def item_edit_plan(spec: ToolSpec, pri: ToolPriors, ctx: PlanContext, mutates: bool) -> ToolPlan | None:
    """An item_add / item_remove plan, or None when the tool is not a list edit."""
    props = spec.parameters.get("properties") or {}
    if not mutates or len(props) < 2 or pri.array_params:
        return None
    removes = "delete" in (pri.verb_kind, pri.http_kind) or bool(pri.words[:1] and pri.words[0] in REMOVING)
    neutral = not (pri.words[:1] and pri.words[0] in ADD_WORDS) and not ADDING.match(spec.description)
    removes = removes or (neutral and bool(TAKES_OFF.search(spec.description)))
    acted = [f"{pri.words[0]}ment"] if pri.words[:1] and pri.words[0] not in ADD_WORDS + REMOVING else []
    for noun in pri.words[1:] + acted:  # `pay_tab` takes a payment: an entry of a `payments` list
        for col in ctx.collections.values():
            for fname, fs in sorted(col.fields.items()):
                parts = split_words(fname)
                head, tail = (parts[0], parts[-1]) if parts else ("", "")
                if fs.get("type") != "array" or plural(noun.lower()) not in (
                    plural(fname.lower()),
                    plural(head),
                    plural(tail),  # `vehicle` of `extra_vehicles`
                ):
                    continue
                key = _record_param(props, col)
                others = [p for p in props if p != key]
                if key is None:
                    continue
                items = (fs.get("items") or {}).get("type")
                if items == "object":
                    found = _object_edit(spec, pri, col, fname, key, others, removes)
                    if found is not None:
                        return found
                    continue
                if len(others) != 1:
                    continue
                value = others[0]
                vs = props[value] or {}
                named = singular(fname.lower()) in split_words(value) or singular(head) in split_words(value)
                if vs.get("type") not in ("string", "integer") or not (named or items in ("string", "integer")):
                    continue
                return _value_edit(
                    pri, col, key, value, fname, removes, f"`{value}` is one value of {col.name}.{fname}"
                )
    adds = bool(ADDING.match(spec.description)) or bool(pri.words[:1] and pri.words[0] in ADD_WORDS)
    if not (removes or adds) or pri.verb_kind == "create" and not adds:
        return None
    return _plural_param_edit(props, pri, ctx, removes)


def _plural_param_edit(props: dict[str, Any], pri: ToolPriors, ctx: PlanContext, removes: bool) -> ToolPlan | None:
    """`enlist_in_crew(crew_id, sailor_id)` whose docs say it adds: the one parameter whose plural is a list field
    of scalars of the record another parameter names (`sailor_ids` of crews) is the value added or removed."""
    found = []
    for col in ctx.collections.values():
        key = _record_param(props, col)
        if key is None:
            continue
        for value, vs in props.items():
            if value == key or (vs or {}).get("type") not in ("string", "integer"):
                continue
            for fname, fs in col.fields.items():
                items = (fs.get("items") or {}).get("type") if fs.get("type") == "array" else None
                if items in ("string", "integer") and fname in (plural(value), value + "s"):
                    found.append((col, key, value, fname))
    if len(found) != 1:
        return None
    col, key, value, fname = found[0]
    return _value_edit(
        pri, col, key, value, fname, removes, f"`{value}` is one value of {col.name}.{fname}, its plural"
    )


def _value_edit(
    pri: ToolPriors, col: CollectionDraft, key: str, value: str, fname: str, removes: bool, why: str
) -> ToolPlan:
    """The item_add / item_remove plan of one value of `col.fname`, the record named by `key`."""
    return ToolPlan(
        kind="item_remove" if removes else "item_add",
        collection=col.name,
        key_field=col.key_field,
        key_param=key,
        op_param=value,
        list_field=fname,
        evidence=list(pri.evidence) + [why],
        votes={},
    )


__all__ = ["item_edit_plan"]
