"""Read-only requirements made verifiable, and the state comparison's exempt paths.

A read whose result nothing consumes is a read-only need of the user ("tell me the title of todo
4"): it becomes a required fact, the text field the read showed, but only when that value still
holds in the final state (so the answer is the same whenever the agent reads it) and the record
can be described to the user. A sink read that yields no such fact is removed from the task.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from synth.tasks.args import key_value, records_in
from synth.tasks.dag import DagNode
from synth.tasks.envmodel import EnvModel, json_type, map_key
from synth.tasks.instantiate import Instance
from synth.tasks.values import field_words
from synth.verify import escape_segment

COUNTER_WORDS = ("next", "counter", "seq", "sequence", "last_id")


@dataclass
class Fact:
    """One value the agent must say: which read showed it, of which record and field."""

    node: str
    collection: str
    record: Any
    field: str
    value: str
    options: list[str] = dc_field(default_factory=list)  # answers it could be confused with (see Checks.fact_options)
    criterion: dict[str, Any] = dc_field(
        default_factory=dict
    )  # {"field", "equals"}: how the user names a listed record


def exempt_paths(model: EnvModel) -> list[str]:
    """Paths that do not matter: id counters (their value depends only on how many records were ever made)."""
    out = []
    for name, schema in model.scalars.items():
        low = name.lower()
        if json_type(schema) in ("integer", "number") and any(w in low for w in COUNTER_WORDS):
            out.append("/" + escape_segment(name))
    return sorted(out)


def known_values(inst: Instance) -> set[str]:
    """Values the instruction may state: chosen argument values and pick criteria."""
    out: set[str] = set()

    def add(v: Any) -> None:
        if isinstance(v, dict):
            for x in v.values():
                add(x)
        elif isinstance(v, list):
            for x in v:
                add(x)
        elif v is not None:
            out.add(str(v).lower())

    for n in inst.dag.nodes:
        for s in n.args.values():
            add(s.value)  # stated values, and bound ones (a fact equal to a value the task passes along asks nothing)
        if n.kind == "reason":
            add(n.detail.get("equals"))
    return out


def _fact_field(
    model: EnvModel, collection: str, record: dict[str, Any], rng: random.Random, known: set[str]
) -> str | None:
    col = model.collections[collection]
    options = []
    for f, fs in sorted(col.fields.items()):
        v = record.get(f)
        if f == col.key_field or not isinstance(v, str) or len(v) < 3 or (fs or {}).get("format") == "uuid":
            continue
        if v.lower() in known or any(len(k) >= 3 and k in v.lower() for k in known):
            continue
        rank = 0 if set(field_words(f)) & {"title", "name", "description", "status"} else 1
        options.append((rank, f))
    if not options:
        return None
    best = min(r for r, _ in options)
    return rng.choice([f for r, f in options if r == best])


def fact_options(
    model: EnvModel, collection: str, fname: str, value: str, state: dict[str, Any], record: Any, limit: int = 6
) -> list[str]:
    """What a fact could be confused with: the field's other enum values and the values other records
    hold (at most `limit`, sorted); none that contains the fact or is contained in it."""
    schema = model.collections[collection].fields.get(fname) or {}
    out: set[str] = {str(v) for v in list(schema.get("enum") or []) + list(schema.get("x-enum") or [])}
    others = sorted(
        str(r.get(fname))
        for k, r in (state.get(collection) or {}).items()
        if str(k) != str(record) and isinstance(r, dict) and isinstance(r.get(fname), (str, int, float))
    )
    out |= set(others[: limit * 4])
    low = value.lower()
    keep = sorted(o for o in out if o.strip() and o.lower() not in low and low not in o.lower())
    return keep[:limit]


def _listed_fact(
    node: DagNode,
    model: EnvModel,
    col: Any,
    recs: list[dict[str, Any]],
    inst: Instance,
    rng: random.Random,
    known: set[str],
) -> Fact | None:
    """A fact about one record of a listed result, named by a text attribute no other record of the
    collection shares ("the description of the todo whose title is 'Call mom'")."""
    from synth.tasks.args import field_sets

    everyone = [r for r in (inst.final_state.get(col.name) or {}).values() if isinstance(r, dict)]
    order = list(range(len(recs)))
    rng.shuffle(order)
    for i in order[:6]:
        rec = recs[i]
        k = key_value(col, rec)
        final = (inst.final_state.get(col.name) or {}).get(str(k))
        if final != rec:
            continue
        crits = [
            c
            for c in sorted(field_sets(model, col.name))
            if isinstance(rec.get(c), str)
            and len(rec[c]) >= 3
            and sum(1 for r in everyone if str(r.get(c)) == rec[c]) == 1
        ]
        key = rec.get(col.key_field or "")
        if not crits and isinstance(key, str) and len(key) >= 3 and not any(ch.isdigit() for ch in key):
            crits = [col.key_field]  # a key the user chose (a name) names the record as well
        if not crits:
            continue
        c = crits[0]
        f = _fact_field(model, col.name, rec, rng, known | {rec[c].lower()})
        if f and f != c:
            value = str(rec[f])
            opts = [o for o in fact_options(model, col.name, f, value, inst.final_state, k) if o.lower() not in known]
            return Fact(
                node=node.id,
                collection=col.name,
                record=k,
                field=f,
                value=value,
                options=opts,
                criterion={"field": c, "equals": rec[c]},
            )
    return None


def _at(rec: Any, path: str, item: dict[str, Any] | None = None) -> Any:
    """The value at 'field/part' in a record; with `item` ({"item_of", "field", "equals"}) the path is
    'list/number' inside the listed thing whose label equals the given name."""
    if item:
        lst, num = path.split("/", 1)
        things = rec.get(lst) if isinstance(rec, dict) else None
        hit = [x for x in things or [] if isinstance(x, dict) and x.get(item["field"]) == item["equals"]]
        return hit[0].get(num) if len(hit) == 1 else None
    for part in path.split("/"):
        rec = rec.get(part) if isinstance(rec, dict) else None
    return rec


def _owned_candidates(rec: dict[str, Any], col: Any, model: EnvModel) -> list[tuple[str, dict[str, Any] | None]]:
    """(path, item criterion) of what a user may ask about their record: short text fields, text parts of
    its objects, numbers of a listed thing with a unique name (the price of the 'Desk Lamp')."""
    from synth.tasks.idlists import NAME_WORDS
    from synth.tasks.owners import _is_ref

    out: list[tuple[str, dict[str, Any] | None]] = []
    for f, v in sorted(rec.items()):
        if f == col.key_field or _is_ref(model, col.name, f):
            continue
        if isinstance(v, str) and 3 <= len(v) <= 24 and not any(c.isdigit() for c in v):
            out.append((f, None))
        elif isinstance(v, dict):
            out += [(f"{f}/{k}", None) for k, x in sorted(v.items()) if isinstance(x, str) and len(x) >= 3]
        elif isinstance(v, list):
            things = [x for x in v if isinstance(x, dict)]
            for x in things:
                label = next((k for k in sorted(x) if set(field_words(k)) & NAME_WORDS and isinstance(x[k], str)), None)
                if label is None or sum(1 for y in things if y.get(label) == x[label]) != 1:
                    continue
                crit = {"item_of": f, "field": label, "equals": x[label]}
                nums = [k for k, n in sorted(x.items()) if isinstance(n, (int, float)) and not isinstance(n, bool)]
                out += [(f"{f}/{n}", crit) for n in nums]
    return out


def owned_fact(
    node: DagNode,
    model: EnvModel,
    col: Any,
    rec: dict[str, Any],
    inst: Instance,
    rng: random.Random,
    known: set[str],
    avoid: dict[str, str] | None = None,
    mine: list[str] | None = None,
) -> Fact | None:
    """A fact about a record the user identified (their ticket): a short text field (its state), a text
    part of one of its objects (the city of its address) or a number of a thing it lists (a price),
    unchanged by the task. Options are the values other records hold there (the state's and the data's),
    never one of the owner's other records `mine` (an agent may tell the user about those) nor a number
    of the same record. With `avoid` (a refusal) only the fields that rule the write out, and never the
    value the write would need among the options (an agent may say "only open tickets can be closed")."""
    paths = _owned_candidates(rec, col, model)
    k = key_value(col, rec)
    final = (inst.final_state.get(col.name) or {}).get(str(k))
    kinds = ["field", "part", "thing"]  # a kind first, then a path of it: one record lists many things
    rng.shuffle(kinds)
    rng.shuffle(paths)
    paths.sort(key=lambda pc: kinds.index("thing" if pc[1] else "part" if "/" in pc[0] else "field"))
    if avoid:  # a refusal: the field that rules the write out, without the value the write needs as an option
        paths = [(p, c) for p, c in paths if p in avoid and c is None]
        known = known | {str(v).lower() for v in avoid.values()}
    recs = inst.final_state.get(col.name) or {}
    own = [recs[x] for x in mine or [] if x in recs and str(x) != str(k)] + [rec]
    for path, crit in paths:
        value = _at(rec, path, crit)
        if value is None or str(value).lower() in known or _at(final, path, crit) != value:
            continue
        taken = {str(x).lower() for r in own for x in _values_at(r, path)}
        pool = list(recs.values()) + list((model.data.get(col.name) or {}).values())[:400]
        others = sorted({str(x) for r in pool for x in _values_at(r, path)} - {str(value)}, key=str.lower)
        opts = [o for o in others if o.lower() not in taken and o.lower() not in known][:6]
        if len(opts) >= (1 if avoid else 2):
            return Fact(
                node=node.id,
                collection=col.name,
                record=k,
                field=path,
                value=str(value),
                options=opts,
                criterion=crit or {},
            )
    return None


def _values_at(rec: Any, path: str) -> list[Any]:
    """Scalars at 'field/part' in a record, through lists ('lines/price': every line's price)."""
    head, _, rest = path.partition("/")
    v = rec.get(head) if isinstance(rec, dict) else None
    vals = v if isinstance(v, list) else [v]
    if rest:
        return [x for item in vals for x in _values_at(item, rest)]
    return [x for x in vals if isinstance(x, (str, int, float)) and not isinstance(x, bool)]


def sink_reads(inst: Instance, model: EnvModel) -> list[DagNode]:
    """Read calls whose result no later node consumes."""
    return [n for n in inst.dag.calls() if not model.tools[n.tool].is_write and not inst.dag.consumers(n.id)]


def choose_facts(
    inst: Instance, model: EnvModel, rng: random.Random, max_facts: int = 2
) -> tuple[list[Fact], list[str]]:
    """Facts for sink reads (at most `max_facts`), and the ids of sink reads that give none (to remove)."""
    facts: list[Fact] = []
    drop: list[str] = []
    calls = inst.dag.calls()
    known = known_values(inst)
    for node in sink_reads(inst, model):
        idx = calls.index(node)
        tool = model.tools[node.tool]
        col = model.collections.get(tool.collection or "")
        fact = None
        if col is not None and len(facts) < max_facts:
            recs = records_in(inst.gold_outputs[idx], col)
            named = inst.gold_actions[idx].arguments.get(tool.key_param or "")
            out = inst.gold_outputs[idx]
            if not recs and col.map_keyed:  # records that do not show their key: the output is the record
                recs = (
                    [out]
                    if isinstance(out, dict)
                    else [x for x in out if isinstance(x, dict)]
                    if isinstance(out, list)
                    else []
                )
                if len(recs) == 1 and named is None:
                    named = map_key(col, recs[0], inst.initial_state) or None
                    recs = recs if named is not None else []
            ksrc = node.args.get(tool.key_param or "")
            if (
                len(recs) == 1
                and ksrc is not None
                and ksrc.source == "reason"
                and inst.dag.node(ksrc.node).op == "identify"
            ):
                ident = inst.dag.node(ksrc.node)
                owner_out = inst.gold_outputs[calls.index(inst.dag.node(ident.inputs[0]))]
                mine = owner_out.get(ident.detail.get("list_field")) if isinstance(owner_out, dict) else None
                mine = [str(x) for x in mine] if isinstance(mine, list) else []
                fact = owned_fact(node, model, col, recs[0], inst, rng, known, ident.detail.get("avoid"), mine)
            elif len(recs) == 1:
                rec = recs[0]
                f = _fact_field(model, col.name, rec, rng, known)
                k = key_value(col, rec, named)
                final = (inst.final_state.get(col.name) or {}).get(str(k))
                if f and isinstance(final, dict) and final.get(f) == rec.get(f):
                    fact = Fact(
                        node=node.id,
                        collection=col.name,
                        record=k,
                        field=f,
                        value=str(rec[f]),
                        options=[
                            o
                            for o in fact_options(model, col.name, f, str(rec[f]), inst.final_state, k)
                            if o.lower() not in known
                        ],
                    )
            elif len(recs) > 1 and not col.map_keyed:
                fact = _listed_fact(node, model, col, recs, inst, rng, known)
        if fact is not None and any(
            (f.collection, str(f.record), f.field) == (fact.collection, str(fact.record), fact.field) for f in facts
        ):
            fact = None  # the same question twice
        if fact is None:
            drop.append(node.id)
        else:
            facts.append(fact)
    return facts, drop


def remove_calls(inst: Instance, node_ids: list[str], model: EnvModel | None = None) -> list[str]:
    """Remove call nodes (sink reads) with their gold action and output, then whatever only fed them:
    reasoning nodes left without a consumer and reads left without one. Returns every removed id."""
    removed: list[str] = []
    pending = list(node_ids)
    while pending:
        nid = pending.pop(0)
        node = inst.dag.node(nid)
        feeders = list(node.inputs) + [s.node for s in node.args.values() if s.node]
        if node.kind == "call":
            idx = inst.dag.calls().index(node)
            del inst.gold_actions[idx]
            del inst.gold_outputs[idx]
        inst.dag.nodes.remove(node)
        removed.append(nid)
        for f in feeders:
            if f in removed or f in pending or not any(n.id == f for n in inst.dag.nodes) or inst.dag.consumers(f):
                continue
            fn = inst.dag.node(f)
            if fn.kind == "reason" or (model is not None and not model.tools[fn.tool].is_write):
                pending.append(f)
    return removed
