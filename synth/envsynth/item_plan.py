"""Edits of one value in a record's list field: `addAppointmentService(appointment_id, service_code)`.

A write whose name holds a noun that is an array field of some collection, or its first word (`services` of
appointments, `holds_queue` of titles), with a parameter that names the record (its key field, or `<resource>_id`)
and exactly one other parameter, a scalar whose name shares a word with that field (`service_code`) or any scalar
when the list holds scalars (`member_id` into a holds queue), adds that value to the record's list (item_add) or
removes it (item_remove, when the docs' verb deletes). Both answer the updated record.
"""

from __future__ import annotations

from typing import Any

from synth.envsynth.collections import CollectionDraft
from synth.envsynth.plan import PlanContext, ToolPlan
from synth.envsynth.priors import ToolPriors
from synth.spec import ToolSpec
from synth.words import plural, singular, split_words

REMOVING = ("remove", "cancel", "drop", "withdraw", "detach", "unassign", "unlink", "leave")


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
                head = split_words(fname)[0] if split_words(fname) else ""
                if fs.get("type") != "array" or plural(noun.lower()) not in (plural(fname.lower()), plural(head)):
                    continue
                key = _record_param(props, col)
                others = [p for p in props if p != key]
                if key is None or len(others) != 1:
                    continue
                value = others[0]
                vs = props[value] or {}
                items = (fs.get("items") or {}).get("type")
                named = singular(fname.lower()) in split_words(value) or singular(head) in split_words(value)
                if vs.get("type") not in ("string", "integer") or not (named or items in ("string", "integer")):
                    continue
                removes = pri.verb_kind == "delete" or (pri.words[:1] and pri.words[0] in REMOVING)
                kind = "item_remove" if removes else "item_add"
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
