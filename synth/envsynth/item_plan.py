"""Edits of one value in a record's list field: `addAppointmentService(appointment_id, service_code)`.

A write whose name holds a noun that is an array field of some collection (`services` of appointments), with a
parameter that names the record (its key field, or `<resource>_id`) and exactly one other parameter, a scalar
whose name shares a word with that field (`service_code`), adds that value to the record's list (item_add) or
removes it (item_remove, when the docs' verb deletes). Both answer the updated record.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.collections import CollectionDraft
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.priors import ToolPriors
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words


def _record_param(props: dict[str, Any], col: CollectionDraft) -> str | None:
    for cand in (col.key_field, f"{col.resource}_id", f"{col.resource}Id"):
        if cand and cand in props and (props[cand] or {}).get("type") in ("string", "integer"):
            return cand
    return None


def item_edit_plan(spec: ToolSpec, pri: ToolPriors, ctx: PlanContext, mutates: bool) -> ToolPlan | None:
    """An item_add / item_remove plan, or None when the tool is not a one-value list edit."""
    props = spec.parameters.get("properties") or {}
    if not mutates or len(props) != 2 or pri.array_params:
        return None
    for noun in pri.words[1:]:
        for col in ctx.collections.values():
            for fname, fs in sorted(col.fields.items()):
                if fs.get("type") != "array" or plural(fname.lower()) != plural(noun.lower()):
                    continue
                key = _record_param(props, col)
                others = [p for p in props if p != key]
                if key is None or len(others) != 1:
                    continue
                value = others[0]
                vs = props[value] or {}
                if vs.get("type") not in ("string", "integer") or singular(fname.lower()) not in split_words(value):
                    continue
                kind = "item_remove" if pri.verb_kind == "delete" else "item_add"
                return ToolPlan(
                    kind=kind,
                    collection=col.name,
                    key_field=col.key_field,
                    key_param=key,
                    op_param=value,
                    list_field=fname,
                    evidence=list(pri.evidence) + [f"`{value}` is one value of {col.name}.{fname}"],
                    votes={},
                )
    return None


__all__ = ["item_edit_plan"]
