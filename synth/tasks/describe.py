"""What the user wants, in plain words: one clause per write and per read-only need.

Clauses name records the way a user knows them (by the key the user knows, by an attribute a
reasoning step picks on, as "the one you just added"), list the values the user states, and never
name tools. Each clause carries the values and words the instruction must contain.
"""

from __future__ import annotations

from typing import Any

from synth.tasks.dag import ArgSource, DagNode
from synth.tasks.envmodel import EnvModel, ToolInfo
from synth.tasks.facts import Fact
from synth.tasks.instantiate import Instance
from synth.tasks.phrases import (  # re-exported: instruction.py and the tests import them from here
    BODY_NAMES,
    ORDER_WORDS,
    Need,
    change_text,
    described_ids,
    goal_words,
    identify_need,
    identity_need,
    leaves,
    list_edit,
    plain_changes,
    show,
    value_need,
    words_of,
)
from synth.tasks.values import field_words
from synth.words import plural


def _resource(model: EnvModel, tool: ToolInfo, collection: str | None = None) -> str:
    col = model.collections.get(collection or tool.collection or "")
    return words_of(col.resource) if col else words_of(tool.collection or "item")


def looks_internal(key: Any) -> bool:
    """A key the user would have to look up: with digits and 6+ characters ('#W3130816', a uuid, 'ann_lee_1234')."""
    k = str(key)
    return len(k) >= 6 and any(c.isdigit() for c in k)


def has_finder(model: EnvModel, collection: str) -> bool:
    """True when some read tool lists, searches or filters the collection (so a described record can be found)."""
    return any(
        not t.is_write
        and t.kind in ("list", "search", "filter", "dump")
        and (t.collection == collection or collection in t.reads)
        for t in model.tools.values()
    )


def described_key(model: EnvModel, collection: str | None, key: Any, inst: Instance | None) -> tuple[str, Any] | None:
    """(field, value) naming the record `key` by an attribute that no other record has, before or after the
    task, when the key looks internal and the collection can be searched; else None."""
    col = model.collections.get(collection or "")
    if inst is None or col is None or not looks_internal(key) or not has_finder(model, col.name):
        return None
    from synth.tasks.args import field_sets

    before = inst.initial_state.get(col.name) or {}
    rec = before.get(str(key))
    if not isinstance(rec, dict):
        return None
    others = [r for k, r in before.items() if str(k) != str(key) and isinstance(r, dict)]
    others += [
        r for k, r in (inst.final_state.get(col.name) or {}).items() if str(k) != str(key) and isinstance(r, dict)
    ]
    ranked = sorted(
        field_sets(model, col.name), key=lambda f: (0 if set(field_words(f)) & {"email", "title", "name"} else 1, f)
    )
    for f in ranked:
        v = rec.get(f)
        if (
            isinstance(v, str)
            and len(v) >= 3
            and all(str(o.get(f)) != v for o in others)
            and not any(isinstance(c, dict) and v in c for c in inst.initial_state.values())
        ):
            return f, v
    return None


def _key_need(model: EnvModel, collection: str | None, value: Any, resource: str, inst: Instance | None = None) -> Need:
    col = model.collections.get(collection or "")
    named = described_key(model, collection, value, inst)
    if named is not None:
        inst.described[str(value)] = named[1]
        return Need(text=f"the {resource} whose {words_of(named[0])} is {show(named[1])}", values=[str(named[1])])
    if isinstance(value, str) and col and col.key_field not in ("id",) and not value.isdigit():
        return Need(text=f"the {resource} '{value}'", values=[value])
    return Need(text=f"{resource} {value}", values=[str(value)])


def arg_need(node: DagNode, pname: str, inst: Instance, model: EnvModel, depth: int = 0) -> Need | None:
    """How the user states one argument of a read: its value, 'the same X as <record>', or 'of <record>'."""
    src = node.args[pname]
    b = src.binding or {}
    if src.source == "user":
        parts = [value_need(label, v) for label, v in leaves(src.value, pname)]
        parts = [x for x in parts if x.text]
        return _join(parts) if parts else None
    if src.source == "output" and b.get("via") == "field":
        producer = inst.dag.node(src.node)
        ptool = model.tools[producer.tool]
        if b.get("candidates", 1) == 1 and ptool.key_param in producer.args and depth < 3:
            ref = record_need(producer, ptool.key_param, inst, model, depth + 1)
            need = Need(text=f"the same {words_of(pname)} as {ref.text}")
            need.merge(ref)
            return need
        return value_need(pname, src.value)
    if b.get("via") == "key" or src.source == "reason":
        ref = record_need(node, pname, inst, model, depth + 1)
        return Need(text=f"of {ref.text}", values=ref.values, words=ref.words)
    return value_need(pname, src.value)


def scope_need(producer: DagNode, model: EnvModel, inst: Instance | None = None, depth: int = 0) -> Need:
    """'among the todos with done no' from the arguments of the read a reasoning step uses."""
    tool = model.tools[producer.tool]
    res = plural(_resource(model, tool))
    parts = []
    for p, s in producer.args.items():
        if inst is None and s.source != "user":
            continue
        n = arg_need(producer, p, inst, model, depth) if inst is not None else value_need(p, s.value)
        if n is not None and n.text:
            parts.append(n)
    need = Need(text=f"among the {res} with " + " and ".join(p.text for p in parts) if parts else "")
    for p in parts:
        need.merge(p)
    return need


def record_need(node: DagNode, pname: str, inst: Instance, model: EnvModel, depth: int = 0) -> Need:
    """How the user names the record argument `pname` of `node` refers to."""
    tool = model.tools[node.tool]
    src: ArgSource = node.args[pname]
    collection = (src.binding or {}).get("collection") or model.collection_for_param(tool, pname) or tool.collection
    resource = _resource(model, tool, collection)
    if src.source == "reason" and inst.dag.node(src.node).op == "identify":
        return identify_need(inst.dag.node(src.node), resource)
    if src.source == "reason":
        r = inst.dag.node(src.node)
        scope = scope_need(inst.dag.node(r.inputs[0]), model, inst, depth)
        d = r.detail
        if r.op == "compare":
            need = Need(
                text=(
                    f"the {resource} with the {ORDER_WORDS[d['order']][0]} {words_of(d['field'])} {scope.text}"
                ).strip(),
                words=[
                    list(ORDER_WORDS[d["order"]]),
                    [w for w in field_words(d["field"]) if len(w) > 2] or [d["field"]],
                ],
            )
        else:
            col = model.collections[d["collection"]]
            if d["field"] == col.key_field:
                return _key_need(model, collection, src.value, resource, inst)
            need = Need(
                text=f"the {resource} whose {words_of(d['field'])} is {show(d['equals'])} {scope.text}".strip(),
                values=[str(d["equals"])],
            )
        need.merge(scope)
        return need
    if src.source == "output":
        producer = inst.dag.node(src.node)
        ptool = model.tools[producer.tool]
        if producer.detail.get("owner_of"):  # the user who said who they are
            return Need(text=f"my {resource} profile")
        if (src.binding or {}).get("candidates", 1) == 1 and depth < 3:
            if ptool.kind in ("create", "batch_create"):
                return created_need(producer, node, inst, model, resource, src.value, collection)
            if ptool.key_param and ptool.key_param in producer.args:
                return record_need(producer, ptool.key_param, inst, model, depth + 1)
            stated = [p for p, s in producer.args.items() if s.source == "user"]
            if stated:
                scope = scope_need(producer, model, inst, depth)
                return Need(
                    text=f"the {resource} "
                    f"{scope.text.replace('among the ' + plural(resource), '').strip() or 'you find'}",
                    values=scope.values,
                    words=scope.words,
                )
    return _key_need(model, collection, src.value, resource, inst)


def created_need(
    producer: DagNode,
    consumer: DagNode,
    inst: Instance,
    model: EnvModel,
    resource: str,
    key: Any,
    collection: str | None,
) -> Need:
    """'the todo you just added' when it is the latest add before the consumer, else by a stated text value."""
    ids = [n.id for n in inst.dag.nodes]
    between = ids[ids.index(producer.id) + 1 : ids.index(consumer.id)]
    ptool = model.tools[producer.tool]
    later_adds = [
        i
        for i in between
        if inst.dag.node(i).kind == "call"
        and model.tools[inst.dag.node(i).tool].kind in ("create", "batch_create")
        and model.tools[inst.dag.node(i).tool].collection == ptool.collection
    ]
    if not later_adds:
        return Need(text=f"the {resource} you just added")
    for p, s in sorted(producer.args.items(), key=lambda kv: (_rank(kv[0]), kv[0])):
        if s.source == "user" and isinstance(s.value, str) and s.value:
            return Need(text=f"the {resource} you added with {words_of(p)} {show(s.value)}", values=[s.value])
    return _key_need(model, collection, key, resource, inst)


def _rank(name: str) -> int:
    w = set(field_words(name))
    return 0 if w & {"title", "name"} else 1


def _scalars_need(label: str, vals: list[Any]) -> Need | None:
    parts = [n for n in (value_need(label, v) for v in vals) if n.text]
    if not parts:
        return None
    if len(parts) > 1 and not any(isinstance(v, bool) for v in vals):
        return Need(text=f"{words_of(label)} " + " and ".join(show(v) for v in vals), values=[str(v) for v in vals])
    return _join(parts)


def arg_needs(
    label: str, value: Any, skip_keys: frozenset[str] = frozenset(), nested: bool = False, item: bool = False
) -> list[Need]:
    """What the user says for one argument value: scalars, lists, objects (nested fields named after
    their parent: 'category name'), and a top-level list of objects item by item."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        if nested or not item:
            return [n for v in value for n in arg_needs(label, v, skip_keys, nested=True)]
        items = [_join(arg_needs(label, v, skip_keys, item=True)) for v in value]  # records of a batch, one by one
        items = [i for i in items if i.text]
        if not items:
            return []
        need = Need(text="; and one with ".join(i.text for i in items))
        for i in items:
            need.merge(i)
        return [need]
    if isinstance(value, dict):
        out: list[Need] = []
        plain = item or (not nested and label.lower() in BODY_NAMES)
        for k, v in value.items():
            if k not in skip_keys:
                out += arg_needs(k if plain else f"{label} {k}", v, nested=True)
        return out
    if isinstance(value, list):
        flat = [x for _l, x in leaves(value, label)]
        n = _scalars_need(label, flat)
        return [n] if n else []
    n = value_need(label, value)
    return [n] if n.text else []


def _stated(
    node: DagNode,
    skip: set[str],
    arguments: dict[str, Any],
    batch_param: str | None = None,
    inst: Instance | None = None,
) -> list[Need]:
    out = []
    for p, s in node.args.items():
        item_field = (s.binding or {}).get("item_field")
        if p in skip and not item_field:
            continue
        described = described_ids(p, s.value, inst) if s.source == "user" else None
        if described is not None:
            out.append(described)
        elif s.source == "user":
            out += arg_needs(p, s.value, item=p == batch_param)
        elif item_field and p in arguments:
            out += arg_needs(p, arguments[p], frozenset({item_field}), item=p == batch_param)
    return out


def _join(parts: list[Need]) -> Need:
    need = Need(text=", ".join(p.text for p in parts))
    for p in parts:
        need.merge(p)
    return need


def call_need(node: DagNode, inst: Instance, model: EnvModel, arguments: dict[str, Any] | None = None) -> Need | None:
    """The clause of one write call (None for reads); `arguments` for a call outside the gold (refused)."""
    tool = model.tools[node.tool]
    if not tool.is_write:
        return None
    resource = _resource(model, tool)
    key = (
        tool.key_param
        if tool.key_param in node.args
        else next(
            (
                p
                for p, s in node.args.items()
                if s.source in ("output", "reason") and (s.binding or {}).get("via") == "key"
            ),
            None,
        )
    )
    if tool.kind in ("create", "batch_create"):
        key = None
    computes = {p for p, s in node.args.items() if s.source == "reason" and inst.dag.node(s.node).op == "compute"}
    skip = {key} | computes if key else set(computes)
    if arguments is None:
        arguments = inst.gold_actions[inst.dag.calls().index(node)].arguments
    stated = _stated(node, skip, arguments, tool.plan.get("batch_param"), inst if tool.kind != "update" else None)
    bound_refs = [
        record_need(node, p, inst, model)
        for p, s in node.args.items()
        if p != key and s.source in ("output", "reason") and p not in computes
    ]
    target = record_need(node, key, inst, model) if key and tool.kind not in ("create", "batch_create") else None
    compute_parts = []
    for p in sorted(computes):
        d = inst.dag.node(node.args[p].node).detail
        verb = "increase" if d["delta"] > 0 else "decrease"
        compute_parts.append(
            Need(
                text=f"{verb} its {words_of(d['field'])} by {abs(d['delta'])}",
                values=[str(abs(d["delta"]))],
                words=[[w for w in field_words(d["field"]) if len(w) > 2] or [d["field"]]],
            )
        )
    rest = _join(stated + bound_refs)
    kind = tool.kind
    if kind in ("create", "batch_create"):
        head = Need(text=f"add a new {resource}" + (f" with {rest.text}" if rest.text else ""))
    elif kind == "delete":
        head = Need(text=f"delete {target.text if target else rest.text or 'the ' + resource}")
    elif kind == "batch_delete":
        keys = arguments.get(tool.plan.get("batch_param") or "")
        if target is not None:
            head = Need(text=f"delete {target.text}")
        elif isinstance(keys, list) and keys and not any(isinstance(k, (dict, list)) for k in keys) and not bound_refs:
            head = Need(
                text=f"delete the {plural(resource) if len(keys) > 1 else resource} "
                + " and ".join(show(k) for k in keys),
                values=[str(k) for k in keys],
            )
            rest = Need(text="")
        else:
            head = Need(text=f"delete the {resource} with {rest.text}" if rest.text else f"delete the {resource}")
    elif kind in ("list_append", "list_remove") and (
        edit := list_edit(arguments, target, resource, add=kind == "list_append")
    ):
        head = Need(text=edit)  # 'add 'X' to the notes of the entity you just added'
    elif kind == "list_append":
        head = Need(text=f"add to {target.text if target else 'the ' + resource}: {rest.text}")
    elif kind == "list_remove":
        head = Need(text=f"remove from {target.text if target else 'the ' + resource}: {rest.text}")
    else:
        col = model.collections.get(tool.collection or "")
        rec = (inst.initial_state.get(col.name) or {}).get(str(arguments.get(key))) if col and key else None
        said = {str(v).lower() for v in rec.values() if isinstance(v, str)} if isinstance(rec, dict) else set()
        if col:  # state words of the collection ('open', 'closed'): a name's condition, not the goal
            recs = (
                list((inst.initial_state.get(col.name) or {}).values())
                + list(model.data.get(col.name, {}).values())[:400]
            )
            said |= {
                v.lower()
                for r in recs
                if isinstance(r, dict)
                for v in r.values()
                if isinstance(v, str) and " " not in v
            }
        verb, obj = goal_words(tool, resource, said)
        what = "; ".join(x for x in [rest.text, *[c.text for c in compute_parts]] if x)
        whom = target.text if target else "the " + resource
        if obj:
            head = Need(text=f"{verb} the {obj} of {whom}" + (f" to {what}" if what and kind == "update" else ""))
            if what and kind != "update":
                head.text += f", with {what}"
        elif kind == "update" and (changes := plain_changes(node, skip, stated, bound_refs, compute_parts)):
            head = Need(text=f"{verb} " + change_text(changes, whom))  # the new values, not the call's fields
        else:
            head = Need(
                text=f"{verb} {whom}"
                + (f": set {what}" if what and kind == "update" else f", with {what}" if what else "")
            )
    if target:
        head.merge(target)
    head.merge(rest)
    for c in compute_parts:
        head.merge(c)
    return head


def fact_need(fact: Fact, inst: Instance, model: EnvModel) -> Need:
    """'tell me the title of todo 4' for a read-only requirement."""
    node = inst.dag.node(fact.node)
    tool = model.tools[node.tool]
    resource = _resource(model, tool, fact.collection)
    key = tool.key_param if tool.key_param in node.args else None
    if fact.criterion.get("item_of"):  # a number of a thing the record lists: 'the price of 'Desk Lamp' in ...'
        target = record_need(node, key, inst, model) if key else Need(text=f"the {resource}")
        c = fact.criterion
        where = f"my {resource}" if set(target.values) <= {str(c["equals"])} else target.text  # said once
        need = Need(
            text=f"tell me the {words_of(fact.field.rsplit('/', 1)[1])} of {show(c['equals'])} in {where}",
            values=[str(c["equals"])],
        )
        need.merge(target)
        return need
    if fact.criterion:
        scope = scope_need(node, model, inst)
        c = fact.criterion
        target = Need(
            text=f"the {resource} whose {words_of(c['field'])} is {show(c['equals'])} {scope.text}".strip(),
            values=[str(c["equals"])],
        )
        target.merge(scope)
    elif key:
        target = record_need(node, key, inst, model)
    else:
        scope = scope_need(node, model, inst)
        target = Need(
            text=f"the {resource} {scope.text.replace('among the ' + plural(resource), '').strip() or 'there is'}",
            values=scope.values,
            words=scope.words,
        )
    what = words_of(fact.field)
    if "/" in fact.field:  # a part of an object field: 'the city of the address', 'the address2'
        parent, leaf = fact.field.rsplit("/", 1)
        shared = any(lw.startswith(pw) for lw in field_words(leaf) for pw in field_words(parent))
        what = words_of(leaf) if shared else f"{words_of(leaf)} of the {words_of(parent)}"
    need = Need(text=f"tell me the {what} of {target.text}")
    need.merge(target)
    return need


def describe(inst: Instance, model: EnvModel, facts: list[Fact]) -> list[Need]:
    """Clauses in execution order: writes, then read-only needs."""
    needs = [identity_need(c) for c in inst.dag.calls() if c.detail.get("owner_of")]
    needs += [n for n in (call_need(c, inst, model) for c in inst.dag.calls()) if n is not None]
    if inst.refused:  # ask for the write the environment refuses; the reply must say why (the fact)
        needs += [n for n in (call_need(c, inst, model, a) for c, a, _e in inst.refused) if n is not None]
        needs += [Need(text="if that is not possible, tell me why")] if facts else []
        return needs
    needs += [fact_need(f, inst, model) for f in facts]
    return needs
